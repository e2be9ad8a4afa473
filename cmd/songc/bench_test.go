package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestBench times one batch of a tiny shape and reports it as JSON; a batch
// of 0 is a usage error.
func TestBench(t *testing.T) {
	code, out, errs := songc(t, context.Background(), "bench", "--nodes", "4", "--steps", "2", "--batch", "8", "--features", "3", "--classes", "2", "--batches", "1", "--json")
	if code != 0 {
		t.Fatalf("bench: exit %d: %s", code, errs)
	}
	var res struct {
		Nodes           int     `json:"nodes"`
		Batch           int     `json:"batch"`
		SecondsPerBatch float64 `json:"seconds_per_batch"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Nodes != 4 || res.Batch != 8 || !(res.SecondsPerBatch > 0) {
		t.Errorf("bench --json: %v: %s", err, out)
	}
	code, _, errs = songc(t, context.Background(), "bench", "--batch", "0")
	if code != 2 || !strings.Contains(errs, "--batch and --batches must be at least 1") || !strings.Contains(errs, "Run 'songc bench --help' for usage.") {
		t.Errorf("bench --batch 0: exit %d: %s", code, errs)
	}
}
