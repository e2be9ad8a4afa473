package main

import (
	"context"
	"encoding/json"
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
