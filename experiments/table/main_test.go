package main

import (
	"maps"
	"os"
	"path/filepath"
	"testing"
)

// writeRun writes the result files of one run into a new folder; files maps
// a name to its contents.
func writeRun(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// results are the files every run has, whichever way it keeps its
// training metadata.
var results = map[string]string{
	"eval.json":           `{"soft_accuracy": 0.8, "hard_accuracy": 0.75, "fidelity": 0.9}`,
	"analyze.json":        `{"graph": {"nodes": 64, "used_nodes": 20}}`,
	"model.log.jsonl":     `{"epoch": 1, "seconds": 1.5}` + "\n" + `{"epoch": 2, "seconds": 2.5}` + "\n",
	"refine-eval.json":    `{"soft_accuracy": 0.7, "hard_accuracy": 0.8, "fidelity": 0.85}`,
	"refine-analyze.json": `{"graph": {"nodes": 64, "used_nodes": 30}}`,
	"refine-result.json":  `{"wall_seconds": 12}`,
	"result.json":         `{}`,
}

// with returns results and extra's files.
func with(extra map[string]string) map[string]string {
	m := maps.Clone(results)
	maps.Copy(m, extra)
	return m
}

// TestLoadTrainingMetadata checks that a run is read the same from the
// committed metadata files (training.json, refine-training.json) as from
// the models of older runs (model.json, refined.json), and that the
// metadata files win when both are there.
func TestLoadTrainingMetadata(t *testing.T) {
	const (
		training = `{"epochs": 120, "best_epoch": 93, "kernel": "avx2-f32"}`
		refine   = `{"refine": {"selected_pass": 2, "log": [{}, {}, {}, {}]}}`
	)
	for _, tc := range []struct {
		name  string
		files map[string]string
	}{
		{"metadata files", with(map[string]string{"training.json": training, "refine-training.json": refine})},
		{"models", with(map[string]string{
			"model.json":   `{"W": [1, 2], "training": ` + training + `}`,
			"refined.json": `{"W": [1, 2], "training": ` + refine + `}`,
		})},
		{"both", with(map[string]string{
			"training.json":        training,
			"refine-training.json": refine,
			"model.json":           `{"training": {"epochs": 1, "best_epoch": 1, "kernel": "wrong"}}`,
			"refined.json":         `{"training": {"refine": {"selected_pass": 0, "log": []}}}`,
		})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := load(writeRun(t, tc.files))
			if err != nil {
				t.Fatal(err)
			}
			if r.epochs != 120 || r.best != 93 || r.kernel != "avx2-f32" {
				t.Errorf("epochs, best, kernel = %d, %d, %q, want 120, 93, avx2-f32", r.epochs, r.best, r.kernel)
			}
			if r.seconds != 4 || r.soft != 0.8 || r.hard != 0.75 || r.used != 20 {
				t.Errorf("seconds, soft, hard, used = %v, %v, %v, %d, want 4, 0.8, 0.75, 20", r.seconds, r.soft, r.hard, r.used)
			}
			if !r.refined || r.rSelected != 2 || r.rPasses != 3 || r.rHard != 0.8 || r.rUsed != 30 {
				t.Errorf("refined, selected, passes, hard, used = %v, %d, %d, %v, %d, want true, 2, 3, 0.8, 30",
					r.refined, r.rSelected, r.rPasses, r.rHard, r.rUsed)
			}
		})
	}
}

// TestLoadNoMetadata checks that a run with neither metadata file nor model
// is an error, not a row of zeros.
func TestLoadNoMetadata(t *testing.T) {
	if _, err := load(writeRun(t, results)); err == nil {
		t.Fatal("load of a run without training.json or model.json: no error")
	}
}
