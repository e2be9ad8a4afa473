package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/songc/songc/runlog"
	"github.com/songc/songc/runtime"
)

// TestConstantWords: the notes of a model the majority check made
// constant name what the check judged, the walk or, where the tree check
// kept one, the tree.
func TestConstantWords(t *testing.T) {
	mc := &runlog.MajorityCheck{Class: "no", WalkOnly: 3, ConstantOnly: 2, PValue: 0.5, Constant: true}
	walk := runlog.Metadata{Refine: &runlog.Refine{Majority: mc}}
	tree := runlog.Metadata{Refine: &runlog.Refine{Majority: mc, Tree: &runlog.TreeCheck{Leaves: 4, Kept: true}}}
	for _, c := range []struct {
		meta runlog.Metadata
		what string
	}{{walk, "walk"}, {tree, "tree"}} {
		var w bytes.Buffer
		warnConstant(&w, c.meta, "--no-majority-check")
		note := constantNote("the model predicts", c.meta)
		if !strings.Contains(note, "replaced its "+c.what+" by that constant: on the validation rows the "+c.what+" is right on 3 rows") || !strings.HasSuffix(note, "keeps the "+c.what) ||
			!strings.Contains(w.String(), "the learned "+c.what+" could not be shown") || !strings.Contains(w.String(), "--no-majority-check keeps the "+c.what+";") {
			t.Errorf("%s:\n%s\n%s", c.what, note, w.String())
		}
	}
}

// TestRefine: train --refine N equals train, then refine --passes N (the
// model given with -m, the spelling of earlier releases); the refined
// model's log is in its metadata; refine refuses other data.
func TestRefine(t *testing.T) {
	dir := t.TempDir()
	train := blobs(t, dir, "train.csv", 300, 1)
	test := blobs(t, dir, "test.csv", 60, 2)
	common := []string{"--data", train, "--test", test, "--preset", "paper", "--nodes", "6", "--steps", "4", "--epochs", "5", "--lr", "0.05", "--batch", "32", "--standardize", "--seed", "3"}
	plain, refined, again := filepath.Join(dir, "plain.json"), filepath.Join(dir, "refined.json"), filepath.Join(dir, "again.json")
	code, _, errs := songc(t, context.Background(), append([]string{"train", "-o", plain}, common...)...)
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	code, out, errs := songc(t, context.Background(), append([]string{"train", "-o", refined, "--refine", "3"}, common...)...)
	if code != 0 {
		t.Fatalf("train --refine: exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "then refined (at most 3 passes)") || !strings.Contains(errs, "refine pass 0  hard train") ||
		!strings.Contains(out, "hard-walk accuracy") || !strings.Contains(out, "then refined: hard-walk validation accuracy") {
		t.Errorf("train --refine output:\n%s\n%s", out, errs)
	}
	code, out, errs = songc(t, context.Background(), "refine", "-m", plain, "--data", train, "--test", test, "--passes", "3", "-o", again)
	if code != 0 || !strings.Contains(out, "hard-walk accuracy") || !strings.Contains(out, "model: "+again+" (refined: hard-walk validation accuracy ") {
		t.Fatalf("refine: exit %d:\n%s\n%s", code, out, errs)
	}
	a, _ := os.ReadFile(refined)
	b, _ := os.ReadFile(again)
	if !bytes.Equal(a, b) {
		t.Error("train --refine 3 and train + refine --passes 3 wrote different models")
	}
	var meta struct {
		Refine struct {
			Passes int               `json:"passes"`
			Log    []json.RawMessage `json:"log"`
		} `json:"refine"`
	}
	m, err := runtime.Load(refined)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(m.Training, &meta); err != nil || meta.Refine.Passes != 3 || len(meta.Refine.Log) < 2 {
		t.Errorf("refine metadata %s (%v)", m.Training, err)
	}
	other := blobs(t, dir, "other.csv", 300, 9)
	bad := filepath.Join(dir, "bad.json")
	code, _, errs = songc(t, context.Background(), "refine", plain, "--data", other, "-o", bad)
	if code != 1 || !strings.Contains(errs, "songc refine: "+other+" is not the data the model was trained on") {
		t.Errorf("refine on other data: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(bad); err == nil {
		t.Error("a failed refine left its output behind")
	}
	// Other classes: said, quoted as a list, before any progress line.
	classes := csvFile(t, "f1,f2,f3,f4,kind", 40, func(i int) string { return fmt.Sprintf("%d,%d,1,2,%c", i, i%7, "pq"[i%2]) })
	code, _, errs = songc(t, context.Background(), "refine", plain, "--data", classes, "-o", bad)
	if code != 1 || !strings.Contains(errs, "songc refine: "+classes+` is not the data the model was trained on: the model has the classes "ant", "bee", "cat" and 4 features, the file "p", "q" and 4`) || strings.Contains(errs, "refining the hard walk") {
		t.Errorf("refine on other classes: exit %d: %s", code, errs)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	code, _, errs = songc(t, cancelled, "refine", plain, "--data", train, "-o", bad)
	if code != 130 || !strings.Contains(errs, "canceled") {
		t.Errorf("interrupted refine: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(bad); err == nil {
		t.Error("an interrupted refine left its output behind")
	}
	code, _, errs = songc(t, context.Background(), "refine", plain, "--data", train, "-o", bad, "--passes", "0")
	if code != 2 || !strings.Contains(errs, "--passes must be at least 1") {
		t.Errorf("refine --passes 0: exit %d: %s", code, errs)
	}
}

// TestRefineNeedsData: refine and select without --data read the
// embedded Letter data, the demo model's; a model trained on a file of its
// own is refused with what to give instead of a mismatch of classes.
func TestRefineNeedsData(t *testing.T) {
	dir := t.TempDir()
	_, model := tinyModel(t, dir)
	b, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.json")
	if err := os.WriteFile(other, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"refine", model, "-o", filepath.Join(dir, "r.json")},
		{"select", model, other, "-o", filepath.Join(dir, "s.json")},
	} {
		code, _, errs := songc(t, context.Background(), args...)
		if code != 2 || !strings.Contains(errs, "no --data: the model was trained on other rows than the embedded Letter data") {
			t.Errorf("%v: exit %d:\n%s", args[0], code, errs)
		}
	}
}
