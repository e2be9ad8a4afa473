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

func TestParseMHz(t *testing.T) {
	info := "processor\t: 0\nmodel name\t: AMD EPYC\ncpu MHz\t\t: 2596.122\n\nprocessor\t: 1\ncpu MHz\t\t: 1800.000\n"
	if mhz, err := parseMHz(info); err != nil || mhz != 2596.122 {
		t.Errorf("parseMHz = %v, %v; want 2596.122", mhz, err)
	}
	for _, bad := range []string{"", "cpu MHz\t: fast\n", "cpu MHz\t: -1\n", "model name : x\n"} {
		if _, err := parseMHz(bad); err == nil {
			t.Errorf("parseMHz(%q): no error", bad)
		}
	}
}

// TestBenchPeak: --peak reports the kernel's peak and the machine's
// theoretical one, or says why that is unknown.
func TestBenchPeak(t *testing.T) {
	if testing.Short() {
		t.Skip("times a 2048^3 product")
	}
	code, out, errs := songc(t, context.Background(), "bench", "--nodes", "4", "--steps", "2", "--batch", "8", "--features", "3", "--classes", "2", "--batches", "1", "--peak")
	if code != 0 {
		t.Fatalf("bench --peak: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "peak gflops") || !strings.Contains(out, "theoretical ") {
		t.Errorf("bench --peak:\n%s", out)
	}
}
