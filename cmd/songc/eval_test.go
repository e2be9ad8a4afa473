package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/songc/songc/runtime"
)

// TestEval: the metrics of a model of three separated blobs, as JSON; the
// model given with --model (the spelling of earlier releases) prints the
// same.
func TestEval(t *testing.T) {
	r := trainBlobs(t)
	code, out, errs := songc(t, context.Background(), "eval", r.model, "--data", r.test, "--json")
	if code != 0 {
		t.Fatalf("eval: %s", errs)
	}
	var met runtime.Metrics
	if err := json.Unmarshal([]byte(out), &met); err != nil {
		t.Fatal(err)
	}
	// Three separated blobs: the soft model must be far above chance (1/3).
	if met.Rows != 60 || met.SoftAccuracy < 0.9 || len(met.ConfusionHard) != 3 {
		t.Errorf("eval: %+v", met)
	}
	if code, old, errs := songc(t, context.Background(), "eval", "--model", r.model, "--data", r.test, "--json"); code != 0 || old != out {
		t.Errorf("eval --model: exit %d %s; want the output of eval MODEL", code, errs)
	}
}

// TestEvalBaseline: a model whose walk always ends in leaf "a", on rows
// three quarters "a", scores the majority baseline (75%), balanced
// accuracy 50% (recalls 1 and 0), and eval warns.
func TestEvalBaseline(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.json")
	if err := os.WriteFile(model, []byte(`{
  "format": "songc-model/1",
  "nodes": 1, "classes": 2, "steps": 2, "features": 1,
  "class_names": ["a", "b"],
  "M0_logits": [[0], [9], [0]],
  "M1_logits": [[0], [9], [0]],
  "W": [[1]],
  "b": [0]
}`), 0o644); err != nil {
		t.Fatal(err)
	}
	rows := filepath.Join(dir, "rows.csv")
	if err := os.WriteFile(rows, []byte("1,a\n2,a\n3,a\n4,b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := songc(t, context.Background(), "eval", model, "--data", rows)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"hard accuracy       75.00%", "balanced accuracy  soft 50.00%, hard 50.00%", "majority class      75.00%",
		"warning: the hard walk is no better than always predicting the most frequent class"} {
		if !strings.Contains(out, want) {
			t.Errorf("eval output lacks %q:\n%s", want, out)
		}
	}
}
