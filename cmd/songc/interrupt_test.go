//go:build unix

package main

import (
	"context"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestInterruptStopsBlockedCommand: eval reading from a FIFO that no one
// writes to blocks inside its reader, where it never looks at the signal;
// Ctrl-C still stops it within its second of grace, with exit 130.
func TestInterruptStopsBlockedCommand(t *testing.T) {
	r := trainBlobs(t)
	fifo := filepath.Join(t.TempDir(), "rows.csv")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	code, _, errs := songc(t, ctx, "eval", r.model, "--data", fifo)
	if took := time.Since(start); code != 130 || !strings.Contains(errs, "interrupted") || took > 5*time.Second {
		t.Errorf("exit %d after %v: %s", code, took, errs)
	}
}
