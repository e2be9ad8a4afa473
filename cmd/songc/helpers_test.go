package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/songc/songc/runlog"
	"github.com/songc/songc/runtime"
)

// songc runs the CLI in-process and returns its exit code and output.
func songc(t *testing.T, ctx context.Context, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return songcIn(t, ctx, "", args...)
}

// songcIn is songc with stdin as the standard input.
func songcIn(t *testing.T, ctx context.Context, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(ctx, args, strings.NewReader(stdin), &out, &errb, false)
	return code, out.String(), errb.String()
}

// trainModel runs songc train with args and -o model, fails the test
// unless it succeeds, and returns the saved model, its training metadata
// and the output.
func trainModel(t *testing.T, model string, args ...string) (*runtime.Model, runlog.Metadata, string, string) {
	t.Helper()
	code, out, errs := songc(t, context.Background(), append([]string{"train", "-o", model}, args...)...)
	if code != 0 {
		t.Fatalf("train %v: exit %d: %s", args, code, errs)
	}
	m, err := runtime.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	meta, err := runlog.ReadMetadata(m.Training)
	if err != nil {
		t.Fatal(err)
	}
	return m, meta, out, errs
}

// blobs writes a labelled CSV of 3 well-separated classes in 4 features.
func blobs(t *testing.T, dir, name string, rows int, seed uint64) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	b.WriteString("f1,f2,f3,f4,kind\n")
	for i := 0; i < rows; i++ {
		k := i % 3
		for j := 0; j < 4; j++ {
			fmt.Fprintf(&b, "%.3f,", float64(k*(j%2+1))+rng.NormFloat64()*0.3)
		}
		b.WriteString([]string{"ant", "bee", "cat"}[k] + "\n")
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// blobsRun is a model trained on three separated blobs, the shared subject
// of TestTrain, TestEval and TestPredict.
type blobsRun struct {
	dir, train, test, model string
	args                    []string // the train command
	stdout, stderr          string   // of the train command
}

// trainBlobs trains 4 nodes and 4 steps for 60 epochs on 300 rows of
// blobs, with 60 test rows, and fails the test if training fails.
func trainBlobs(t *testing.T) blobsRun {
	t.Helper()
	dir := t.TempDir()
	r := blobsRun{dir: dir, train: blobs(t, dir, "train.csv", 300, 1), test: blobs(t, dir, "test.csv", 60, 2), model: filepath.Join(dir, "m.json")}
	r.args = []string{"train", "--data", r.train, "--test", r.test, "-o", r.model, "--nodes", "4", "--steps", "4", "--epochs", "60", "--lr", "0.05", "--batch", "32", "--standardize"}
	var code int
	code, r.stdout, r.stderr = songc(t, context.Background(), r.args...)
	if code != 0 {
		t.Fatalf("train exit %d: %s", code, r.stderr)
	}
	return r
}

// tinyModel trains 2 nodes and 2 steps for one epoch on 30 rows of blobs
// written into dir, for tests that need some model, and returns the data
// and model paths.
func tinyModel(t *testing.T, dir string) (data, model string) {
	t.Helper()
	data = blobs(t, dir, "tiny.csv", 30, 1)
	model = filepath.Join(dir, "tiny.json")
	if code, _, errs := songc(t, context.Background(), "train", "--data", data, "-o", model, "--nodes", "2", "--steps", "2", "--epochs", "1", "-q"); code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	return data, model
}

// csvFile writes header and then row(i) for i in [0, n) as the lines of
// train.csv in a new temporary folder, and returns its path.
func csvFile(t *testing.T, header string, n int, row func(i int) string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(header + "\n")
	for i := range n {
		b.WriteString(row(i) + "\n")
	}
	path := filepath.Join(t.TempDir(), "train.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// smallTrainer returns a function that trains, as trainModel does, the
// model name, in data's folder, on data with a small graph (2 nodes, 2
// steps, 4 epochs, one refining pass), the flags fixed and then flags.
func smallTrainer(t *testing.T, data string, fixed ...string) func(name string, flags ...string) (*runtime.Model, runlog.Metadata, string, string) {
	small := append([]string{"--data", data, "--nodes", "2", "--steps", "2", "--epochs", "4", "--refine", "1"}, fixed...)
	return func(name string, flags ...string) (*runtime.Model, runlog.Metadata, string, string) {
		t.Helper()
		return trainModel(t, filepath.Join(filepath.Dir(data), name), append(slices.Clone(small), flags...)...)
	}
}

// trainQuick trains a tiny graph for one epoch on the CSV file train, with
// -q and the flags extra, for a test of what train says about the file:
// its exit code and stderr.
func trainQuick(t *testing.T, train string, extra ...string) (code int, stderr string) {
	t.Helper()
	args := []string{"train", "--data", train, "-o", filepath.Join(filepath.Dir(train), "m.json"), "-q",
		"--preset", "fast", "--nodes", "3", "--steps", "2", "--epochs", "1", "--refine", "0"}
	code, _, stderr = songc(t, context.Background(), append(args, extra...)...)
	return code, stderr
}

// oneNode writes to dir/m.json, and returns the path of, a hand-made model
// of one node on one feature and two classes named by classNames (a JSON
// array), its M1 logits m1Logits (3 rows of 1: the node, then the two
// leaves); its M0 logits send every row to the first leaf.
func oneNode(t *testing.T, dir, classNames, m1Logits string) string {
	t.Helper()
	path := filepath.Join(dir, "m.json")
	if err := os.WriteFile(path, []byte(`{
  "format": "songc-model/1",
  "nodes": 1, "classes": 2, "steps": 2, "features": 1,
  "class_names": `+classNames+`,
  "M0_logits": [[0], [9], [0]],
  "M1_logits": `+m1Logits+`,
  "W": [[1]],
  "b": [0]
}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
