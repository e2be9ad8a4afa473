package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
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
	model := oneNode(t, dir, `["a", "b"]`, `[[0], [9], [0]]`)
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

// TestEvalLackingLabels: rows whose label is none of the model's classes
// are measured as always wrong, each label a confusion row after the
// model's classes, and a warning names them with their lines (a label
// that differs from a class only in case says so); a file in which no
// label is a class is an error.
func TestEvalLackingLabels(t *testing.T) {
	dir := t.TempDir()
	model := oneNode(t, dir, `["a", "b"]`, `[[0], [9], [0]]`)
	rows := filepath.Join(dir, "rows.csv")
	os.WriteFile(rows, []byte("1,a\n2,a\n3,c\n4,A\n5,c\n"), 0o644)
	code, out, errs := songc(t, context.Background(), "eval", model, "--data", rows, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		Lacking []string `json:"labels_the_model_lacks"`
		runtime.Metrics
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	// The walk always predicts "a": right on the two rows of "a" only;
	// balanced over a, c and A: (1 + 0 + 0) / 3.
	if got.Rows != 5 || got.HardAccuracy != 0.4 || math.Abs(got.HardBalanced-1.0/3) > 1e-15 || got.Majority != 0.4 ||
		!slices.Equal(got.Lacking, []string{"c", "A"}) || !reflect.DeepEqual(got.ConfusionHard, [][]int{{2, 0}, {0, 0}, {2, 0}, {1, 0}}) {
		t.Errorf("eval: %+v", got)
	}
	want := `warning: ` + rows + `: labels no training row had: "c" (2 rows, line 3 first), "A" (1 row, line 4; the class "a" differs only in case); the model cannot predict them, so those 3 rows (60.0% of 5) count as wrong`
	if !strings.Contains(errs, want) {
		t.Errorf("stderr %q; want %q", errs, want)
	}
	if code, out, _ := songc(t, context.Background(), "eval", model, "--data", rows); code != 0 || !strings.Contains(out, "\n     A     1     0\n") {
		t.Errorf("exit %d; the confusion lacks a row for A:\n%s", code, out)
	}
	other := filepath.Join(dir, "other.csv")
	os.WriteFile(other, []byte("1,x\n2,y\n"), 0o644)
	code, _, errs = songc(t, context.Background(), "eval", model, "--data", other)
	if want := other + `: no row's label is one of the model's 2 classes ("a", "b"): line 1 has "x"`; code != 1 || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr %q; want exit 1 and %q", code, errs, want)
	}
}

// TestLabeller: lacking labels that are one number are one lacking
// label, and a file with more than maxLacking lacking labels is an error
// naming its line; a known label, and a lacking one met before as it was
// written then, allocate nothing (eval's per-row path).
func TestLabeller(t *testing.T) {
	k := newLabeller("f.csv", []string{"p", "q"})
	k.class("zz", 1)
	if n := testing.AllocsPerRun(100, func() { k.class("q", 2); k.class("zz", 3) }); n != 0 {
		t.Errorf("%v allocations a known and a lacking label", n)
	}
	l := newLabeller("f.csv", []string{"1", "2"})
	for i, label := range []string{"01", "3", "03", "3.0", "2.0", "4"} {
		if _, err := l.class(label, i+1); err != nil {
			t.Fatal(err)
		}
	}
	if got := l.names(); !slices.Equal(got, []string{"3", "4"}) || l.lacking[0].Rows != 3 || l.without() != 4 || l.rows != 6 {
		t.Errorf("lacking %+v, %d of %d rows without a class", l.lacking, l.without(), l.rows)
	}
	l = newLabeller("f.csv", []string{"a", "b"})
	for i := range maxLacking {
		if _, err := l.class(fmt.Sprint("id", i), i+1); err != nil {
			t.Fatal(err)
		}
	}
	if y, err := l.class("a", 1001); y != 0 || err != nil {
		t.Errorf("a known label after %d lacking: class %d, %v", maxLacking, y, err)
	}
	_, err := l.class("id-last", 1002)
	if want := `f.csv:1002: label "id-last": more than 1000 distinct labels are none of the model's 2 classes ("a", "b")`; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v; want %q", err, want)
	}
	if _, err := l.class("id0", 1003); err != nil {
		t.Errorf("a lacking label met before: %v", err)
	}
}

// TestEvalTrainingFile: eval warns when the rows are the model's own
// training file, by the fingerprint of its rows and labels, and not for
// another file of as many rows.
func TestEvalTrainingFile(t *testing.T) {
	dir := t.TempDir()
	train := blobs(t, dir, "train.csv", 90, 1)
	other := blobs(t, dir, "other.csv", 90, 2)
	model := filepath.Join(dir, "m.json")
	if code, _, errs := songc(t, context.Background(), "train", "--data", train, "-o", model, "--nodes", "4", "--steps", "3", "--epochs", "2", "-q"); code != 0 {
		t.Fatal(errs)
	}
	const warning = "train.csv holds the rows the model was trained on (their fingerprint is the model's data_sha256)"
	for _, args := range [][]string{{}, {"--json"}} {
		if code, _, errs := songc(t, context.Background(), append([]string{"eval", model, "--data", train}, args...)...); code != 0 || !strings.Contains(errs, warning) {
			t.Errorf("eval %v on the training file: exit %d: %s", args, code, errs)
		}
	}
	if code, _, errs := songc(t, context.Background(), "eval", model, "--data", other); code != 0 || strings.Contains(errs, "trained on") {
		t.Errorf("eval on another file: exit %d: %s", code, errs)
	}
}
