package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestSelect(t *testing.T) {
	dir := t.TempDir()
	train := blobs(t, dir, "train.csv", 300, 1)
	test := blobs(t, dir, "test.csv", 60, 2)
	common := []string{"--data", train, "--preset", "paper", "--nodes", "6", "--steps", "4", "--epochs", "3", "--lr", "0.05", "--batch", "32", "--standardize", "-q"}
	var models []string
	for r := range 3 {
		m := filepath.Join(dir, fmt.Sprintf("r%d.json", r))
		code, _, errs := songc(t, context.Background(), append([]string{"train", "-o", m, "--seed", "3", "--restart", strconv.Itoa(r)}, common...)...)
		if code != 0 {
			t.Fatalf("train --restart %d: exit %d: %s", r, code, errs)
		}
		models = append(models, m)
	}
	a, _ := os.ReadFile(models[0])
	b, _ := os.ReadFile(models[1])
	if bytes.Equal(a, b) {
		t.Fatal("restarts 0 and 1 wrote the same model")
	}
	best := filepath.Join(dir, "best.json")
	code, out, errs := songc(t, context.Background(), append([]string{"select", "--data", train, "--test", test, "--json", "-o", best}, models...)...)
	if code != 0 {
		t.Fatalf("select: exit %d: %s", code, errs)
	}
	var sel struct {
		Selected   string `json:"selected"`
		Candidates []struct {
			Model   string  `json:"model"`
			Restart int     `json:"restart"`
			HardVal float64 `json:"hard_val_accuracy"`
			ValRows int     `json:"val_rows"`
			Test    *struct {
				HardAccuracy float64 `json:"hard_accuracy"`
			} `json:"test"`
		} `json:"candidates"`
	}
	if err := json.Unmarshal([]byte(out), &sel); err != nil || len(sel.Candidates) != 3 {
		t.Fatalf("select --json: %v\n%s", err, out)
	}
	want := 0
	for i, c := range sel.Candidates {
		if c.Model != models[i] || c.Restart != i || c.ValRows != 30 || c.Test == nil {
			t.Errorf("candidate %d: %+v", i, c)
		}
		if c.HardVal > sel.Candidates[want].HardVal {
			want = i
		}
	}
	if sel.Selected != models[want] {
		t.Errorf("selected %s, want %s: %s", sel.Selected, models[want], out)
	}
	a, _ = os.ReadFile(models[want])
	b, _ = os.ReadFile(best)
	if !bytes.Equal(a, b) {
		t.Error("the selected model is not a byte copy of the best candidate")
	}
	code, out, _ = songc(t, context.Background(), append([]string{"select", "--data", train, "-o", best}, models...)...)
	if code != 0 || !strings.Contains(out, "* "+models[want]) || !strings.Contains(out, "best hard-walk validation accuracy") {
		t.Errorf("select: exit %d:\n%s", code, out)
	}

	// Another seed has other validation rows: refused, nothing written.
	seed4 := filepath.Join(dir, "seed4.json")
	if code, _, errs := songc(t, context.Background(), append([]string{"train", "-o", seed4, "--seed", "4"}, common...)...); code != 0 {
		t.Fatalf("train --seed 4: exit %d: %s", code, errs)
	}
	bad := filepath.Join(dir, "bad.json")
	code, _, errs = songc(t, context.Background(), "select", "--data", train, "-o", bad, models[0], seed4)
	if code != 1 || !strings.Contains(errs, "validation splits differ") {
		t.Errorf("select across seeds: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(bad); err == nil {
		t.Error("a failed select left its output behind")
	}
	code, _, errs = songc(t, context.Background(), "select", "--data", train, "-o", bad, filepath.Join(dir, "missing.json"))
	if code != 1 || !strings.Contains(errs, "missing.json") {
		t.Errorf("select of a missing model: exit %d: %s", code, errs)
	}
	code, _, errs = songc(t, context.Background(), "train", "--data", train, "--restart=-1", "-o", bad)
	if code != 2 || !strings.Contains(errs, "--restart must be in") {
		t.Errorf("train --restart -1: exit %d: %s", code, errs)
	}
}

// TestSelectModelFiles: select refuses a model listed twice and an output
// that is one of its models, before reading any data.
func TestSelectModelFiles(t *testing.T) {
	dir := t.TempDir()
	data, model := tinyModel(t, dir)
	other := filepath.Join(dir, "other.json")
	b, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(other, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{model, filepath.Join(dir, ".", "tiny.json"), "-o", filepath.Join(dir, "s.json")}, "are the same model file; list each model once"},
		{[]string{model, other, "-o", other}, "-o " + other + " is the model file: writing it would replace the model; name another file"},
	} {
		code, _, errs := songc(t, context.Background(), append(append([]string{"select"}, tc.args...), "--data", data)...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d:\n%s", tc.args, code, errs)
		}
	}
	if b2, _ := os.ReadFile(other); !bytes.Equal(b, b2) {
		t.Error("the model given as -o changed")
	}
}
