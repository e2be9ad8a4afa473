package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/songc/songc/runtime"
)

// records writes a CSV of rows with a numeric column (some missing), a
// categorical one and a label, in the column order cols (a permutation of
// "size", "colour", "kind"); colour "pink" is in no training file.
func records(t *testing.T, dir, name string, rows int, seed uint64, cols []string, unseen bool) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	b.WriteString(strings.Join(cols, ",") + "\n")
	for i := 0; i < rows; i++ {
		k := i % 2
		f := map[string]string{"kind": []string{"small", "big"}[k], "colour": []string{"red", "blue", "green"}[(i/2)%3]}
		f["size"] = fmt.Sprintf("%.2f", float64(3*k)+rng.NormFloat64()*0.5)
		if i%7 == 3 {
			f["size"] = "NA"
		}
		if unseen && i%5 == 0 {
			f["colour"] = "pink"
		}
		for j, c := range cols {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(f[c])
		}
		b.WriteByte('\n')
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRecords: a model trained on named, categorical and missing columns
// records them (format 2); eval, predict, refine and compile --data match a
// file's columns by name, say once when the order differs, count unseen
// categories, and refuse unknown or absent columns by name.
func TestRecords(t *testing.T) {
	dir := t.TempDir()
	order := []string{"size", "colour", "kind"}
	train := records(t, dir, "train.csv", 200, 1, order, false)
	test := records(t, dir, "test.csv", 40, 2, order, false)
	other := records(t, dir, "other.csv", 40, 2, []string{"kind", "colour", "size"}, true)
	model := filepath.Join(dir, "m.json")
	code, _, errs := songc(t, context.Background(), "train", "--data", train, "--test", test, "-o", model, "--preset", "quick", "--nodes", "4", "--steps", "4", "--epochs", "20")
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, `2 input columns (1 numeric, 1 categorical, one-hot encoded) make 5 features; 1 column has missing values`) {
		t.Errorf("train does not say how it read the columns:\n%s", errs)
	}
	m, err := runtime.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	if m.Format != runtime.FormatInputs || m.Schema == nil || m.Schema.Label != "kind" || len(m.Schema.Inputs) != 2 {
		t.Fatalf("model format %q, schema %+v", m.Format, m.Schema)
	}

	note := "columns matched to the model's by name"
	code, out, errs := songc(t, context.Background(), "eval", model, "--data", other)
	if code != 0 || strings.Count(errs, note) != 1 || !strings.Contains(out, `unseen categories  8 rows (20.0%) with a value no training row had: "colour" in 8 rows`) {
		t.Errorf("eval of reordered columns: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = songc(t, context.Background(), "eval", model, "--data", other, "--json")
	if code != 0 || !strings.Contains(out, `"unseen_rows": 8,`) || !strings.Contains(out, `"unseen_by_column": {
    "colour": 8
  }`) {
		t.Errorf("eval --json of unseen categories: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = songc(t, context.Background(), "predict", model, "--data", other)
	if code != 0 || strings.Count(errs, note) != 1 || !strings.Contains(errs, `8 of 40 rows hold a category no training row had (it sets none of its column's features): "colour" in 8 rows`) || strings.Count(out, "\n") != 40 {
		t.Errorf("predict of reordered columns: exit %d\n%s", code, errs)
	}
	code, _, errs = songc(t, context.Background(), "compile", model, "--data", other, "-o", filepath.Join(dir, "c", "c.go"))
	if code != 0 || strings.Count(errs, note) != 1 {
		t.Errorf("compile --data of reordered columns: exit %d\n%s", code, errs)
	}
	code, _, errs = songc(t, context.Background(), "refine", model, "--data", train, "--test", other, "-o", filepath.Join(dir, "r.json"), "--passes", "1")
	if code != 0 || strings.Count(errs, note) != 1 {
		t.Errorf("refine with reordered test columns: exit %d\n%s", code, errs)
	}

	wrong := filepath.Join(dir, "wrong.csv")
	os.WriteFile(wrong, []byte("size,hue,kind\n1,red,big\n"), 0o644)
	code, _, errs = songc(t, context.Background(), "eval", model, "--data", wrong)
	if code != 1 || !strings.Contains(errs, `wrong.csv:1: the header lacks the model's column(s) "colour" and has column(s) the model does not know: "hue"`) {
		t.Errorf("eval of unknown columns: exit %d: %s", code, errs)
	}
	// Headerless rows are positional, in the model's order.
	plain := filepath.Join(dir, "plain.csv")
	os.WriteFile(plain, []byte("1.5,red,small\nNA,blue,big\n"), 0o644)
	if code, out, errs := songc(t, context.Background(), "eval", model, "--data", plain); code != 0 || !strings.Contains(out, "2 rows") {
		t.Errorf("eval of headerless rows: exit %d\n%s%s", code, out, errs)
	}
}

// TestLabelInTheMiddle: a model trained with its label between its inputs
// reads a file without a header with the label where it was, so predict
// on the same rows gives what it gives with the header, and eval scores
// them alike.
func TestLabelInTheMiddle(t *testing.T) {
	dir := t.TempDir()
	order := []string{"size", "kind", "colour"}
	train := records(t, dir, "train.csv", 200, 1, order, false)
	test := records(t, dir, "test.csv", 40, 2, order, false)
	model := filepath.Join(dir, "m.json")
	if code, _, errs := songc(t, context.Background(), "train", "--data", train, "--label-col", "kind", "-o", model, "--preset", "quick", "--nodes", "4", "--steps", "4", "--epochs", "5", "-q"); code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(test)
	if err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(dir, "bare.csv")
	if err := os.WriteFile(bare, b[strings.IndexByte(string(b), '\n')+1:], 0o644); err != nil {
		t.Fatal(err)
	}
	var outs [2]string
	for i, f := range []string{test, bare} {
		code, out, errs := songc(t, context.Background(), "predict", model, "--data", f)
		if code != 0 {
			t.Fatalf("predict %s: exit %d: %s", f, code, errs)
		}
		outs[i] = out
		if code, out, errs = songc(t, context.Background(), "eval", model, "--data", f); code != 0 || !strings.Contains(out, "data  "+f+": 40 rows\n") {
			t.Errorf("eval %s: exit %d:\n%s\n%s", f, code, out, errs)
		}
	}
	if outs[0] != outs[1] || len(outs[0]) == 0 {
		t.Errorf("predict with the header:\n%s\nwithout:\n%s", outs[0], outs[1])
	}
	// --label-col naming the model's label finds it in its place too;
	// another name has no header to be found in.
	if code, out, errs := songc(t, context.Background(), "predict", model, "--data", bare, "--label-col", "kind"); code != 0 || out != outs[0] {
		t.Errorf("--label-col kind without a header: exit %d:\n%s\n%s", code, out, errs)
	}
	if code, _, errs := songc(t, context.Background(), "predict", model, "--data", bare, "--label-col", "colour"); code != 1 ||
		!strings.Contains(errs, `--label-col "colour" names a column, but this file has no header row to find it in; give its place instead (first, last or N)`) {
		t.Errorf("--label-col colour without a header: exit %d: %s", code, errs)
	}
}
