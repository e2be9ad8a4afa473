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
	if code != 2 || !strings.Contains(errs, "--batch, --batches and --graphs must be at least 1") || !strings.Contains(errs, "Run 'songc bench --help' for usage.") {
		t.Errorf("bench --batch 0: exit %d: %s", code, errs)
	}
	code, out, errs = songc(t, context.Background(), "bench", "--nodes", "4", "--steps", "2", "--batch", "8", "--features", "3", "--classes", "2", "--batches", "3", "--graphs", "3", "--json")
	var k struct {
		Graphs          int     `json:"graphs"`
		SecondsPerBatch float64 `json:"seconds_per_batch"`
		SecondsPerGraph float64 `json:"seconds_per_graph"`
		Allocs          float64 `json:"allocs_per_batch"`
	}
	if err := json.Unmarshal([]byte(out), &k); code != 0 || err != nil || k.Graphs != 3 || !(k.SecondsPerBatch > 0) || k.SecondsPerGraph != k.SecondsPerBatch/3 {
		t.Errorf("bench --graphs 3: exit %d, %v: %s%s", code, err, out, errs)
	}
	code, _, errs = songc(t, context.Background(), "bench", "--table", "--nodes", "5")
	if code != 2 || !strings.Contains(errs, "drop --nodes") {
		t.Errorf("bench --table --nodes 5: exit %d: %s", code, errs)
	}
}

// TestBenchTable: --table times the four sizes at two batches and one and
// four graphs, each row against the kernel's peak, one graph's speed-up 1.
func TestBenchTable(t *testing.T) {
	if testing.Short() {
		t.Skip("times a 2048^3 product and 16 shapes")
	}
	code, out, errs := songc(t, context.Background(), "bench", "--table", "--batches", "1", "--json")
	if code != 0 {
		t.Fatalf("bench --table: exit %d: %s", code, errs)
	}
	var tab struct {
		Peak float64 `json:"peak_gflops"`
		Rows []struct {
			Nodes, Steps, Batch, Graphs int
			Percent                     float64 `json:"percent_of_peak"`
			Speedup                     float64 `json:"speedup_over_one_graph"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &tab); err != nil || len(tab.Rows) != 16 || !(tab.Peak > 0) {
		t.Fatalf("bench --table --json: %v: %s", err, out)
	}
	for i, r := range tab.Rows {
		if r.Graphs != []int{1, 4}[i%2] || r.Batch != []int{64, 128}[i/2%2] || !(r.Percent > 0) || (r.Graphs == 1 && r.Speedup != 1) {
			t.Errorf("row %d: %+v", i, r)
		}
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
