package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/songc/songc/compiler"
	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer/data"
)

// TestPredict: by default predict prints the hard walk's class, what
// compiled code returns; --soft the soft model's; --proba the leaf masses
// at full precision, under a line of class names with --class-names. --hard
// and --model, the spellings of earlier releases, still work.
func TestPredict(t *testing.T) {
	r := trainBlobs(t)
	m, err := runtime.Load(r.model)
	if err != nil {
		t.Fatal(err)
	}
	k, _ := runtime.New(m)
	predict := func(file string, args ...string) []string {
		t.Helper()
		code, out, errs := songc(t, context.Background(), append([]string{"predict", r.model, "--data", file}, args...)...)
		if code != 0 {
			t.Fatalf("predict %v: exit %d: %s", args, code, errs)
		}
		return strings.Fields(out)
	}
	var testDef, testProba []string // the test file's
	// The training file's 300 rows are more than the soft model's block.
	for _, file := range []string{r.test, r.train} {
		ds, err := data.ReadCSVFile(file, data.CSVOptions{Schema: m.Inputs(), Named: m.Inputs().Named()})
		if err != nil {
			t.Fatal(err)
		}
		def, hard, soft, proba := predict(file), predict(file, "--hard"), predict(file, "--soft"), predict(file, "--proba")
		if file == r.test {
			testDef, testProba = def, proba
		}
		if n := ds.Rows; len(def) != n || len(hard) != n || len(soft) != n || len(proba) != n {
			t.Fatalf("%s: predict lines: %d %d %d %d, want %d", file, len(def), len(hard), len(soft), len(proba), n)
		}
		scratch := make([]float64, 4)
		q := make([]float64, 3)
		sc := k.NewSoftScratch()
		for i := 0; i < ds.Rows; i++ {
			w, _ := k.Walk(ds.Row(i), scratch, nil)
			if def[i] != m.ClassNames[w.Class] || hard[i] != def[i] {
				t.Errorf("row %d: predict %s, --hard %s, runtime's hard walk %s", i, def[i], hard[i], m.ClassNames[w.Class])
			}
			if c := k.Soft(q, ds.Row(i), sc); soft[i] != m.ClassNames[c] {
				t.Errorf("row %d: --soft %s, runtime's soft model %s", i, soft[i], m.ClassNames[c])
			}
			for j, f := range strings.Split(proba[i], ",") {
				v, err := strconv.ParseFloat(f, 64)
				if err != nil || v != q[j] { // full precision: exact round trip
					t.Errorf("row %d: --proba %s, runtime %v", i, proba[i], q)
				}
			}
		}
	}
	named := predict(r.test, "--proba", "--class-names")
	if len(named) != 61 || named[0] != "ant,bee,cat" || strings.Join(named[1:], "\n") != strings.Join(testProba, "\n") {
		t.Errorf("--proba --class-names: want the line ant,bee,cat over the --proba lines, got %q...", named[:min(3, len(named))])
	}
	code, out, errs := songc(t, context.Background(), "predict", "--model", r.model, "--data", r.test)
	if code != 0 || strings.Join(strings.Fields(out), "\n") != strings.Join(testDef, "\n") {
		t.Errorf("predict --model: exit %d %s; want the output of predict MODEL", code, errs)
	}

	// A bad row after 300 good ones (more than a block) and after 10: the
	// good rows' lines come out before the error, as they would row by row.
	train, err := os.ReadFile(r.train)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(train), "\n")
	for _, mode := range []string{"--soft", "--proba"} {
		_, clean, _ := songc(t, context.Background(), "predict", r.model, "--data", r.train, mode)
		for _, good := range []int{300, 10} {
			bad := filepath.Join(r.dir, "bad.csv")
			os.WriteFile(bad, []byte(strings.Join(lines[:1+good], "")+"1,2,x,4,ant\n"), 0o644)
			code, out, errs := songc(t, context.Background(), "predict", r.model, "--data", bad, mode)
			want := strings.SplitAfter(clean, "\n")[:good]
			if code != 1 || out != strings.Join(want, "") || !strings.Contains(errs, "bad.csv:") {
				t.Errorf("%s, a bad row after %d: exit %d, %d lines out (want %d): %s", mode, good, code, strings.Count(out, "\n"), good, errs)
			}
		}
	}

	// With -o, the file holds what stdout would, and only once every row
	// is predicted: a bad row leaves an existing file as it was, and makes
	// none.
	outFile := filepath.Join(r.dir, "classes.txt")
	if code, out, errs := songc(t, context.Background(), "predict", r.model, "--data", r.test, "-o", outFile); code != 0 || out != "" {
		t.Fatalf("predict -o: exit %d, stdout %q: %s", code, out, errs)
	}
	if got, _ := os.ReadFile(outFile); strings.Join(strings.Fields(string(got)), "\n") != strings.Join(testDef, "\n") {
		t.Errorf("predict -o wrote %q..., want predict's lines", string(got)[:min(20, len(got))])
	}
	bad := filepath.Join(r.dir, "bad.csv")
	os.WriteFile(bad, []byte(strings.Join(lines[:11], "")+"1,2,x,4,ant\n"), 0o644)
	before, _ := os.ReadFile(outFile)
	for _, o := range []string{outFile, filepath.Join(r.dir, "new.txt")} {
		code, out, errs := songc(t, context.Background(), "predict", r.model, "--data", bad, "-o", o)
		if code != 1 || out != "" || !strings.Contains(errs, "bad.csv:12:") || strings.Contains(errs, "writing") {
			t.Errorf("predict -o %s, a bad row: exit %d, stdout %q: %s", o, code, out, errs)
		}
	}
	if after, _ := os.ReadFile(outFile); !bytes.Equal(after, before) {
		t.Error("predict -o with a bad row changed the existing file")
	}
	if _, err := os.Stat(filepath.Join(r.dir, "new.txt")); !os.IsNotExist(err) {
		t.Errorf("predict -o with a bad row made a file: %v", err)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(r.dir, ".*.tmp*")); len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
	if code, _, errs := songc(t, context.Background(), "predict", r.model, "--data", r.test, "-o", r.model); code != 2 || !strings.Contains(errs, "is the model file") {
		t.Errorf("predict -o MODEL: exit %d: %s", code, errs)
	}

	// Rows without the label column are accepted by predict.
	noLabel := filepath.Join(r.dir, "nolabel.csv")
	os.WriteFile(noLabel, []byte("0,0,0,0\n2,4,2,4\n"), 0o644)
	if code, out, errs := songc(t, context.Background(), "predict", r.model, "--data", noLabel); code != 0 || len(strings.Fields(out)) != 2 {
		t.Errorf("unlabelled predict: %d %q %s", code, out, errs)
	}
}

// TestPredictClassNamesQuoted: --class-names writes a CSV line, so that a
// class name with a comma or a quote stays one column.
func TestPredictClassNamesQuoted(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 40 {
		b.WriteString(strconv.Itoa(i%2) + "," + []string{"\"a,b\"", "\"say \"\"hi\"\"\""}[i%2] + "\n")
	}
	p := filepath.Join(dir, "q.csv")
	os.WriteFile(p, []byte(b.String()), 0o644)
	model := filepath.Join(dir, "q.json")
	if code, _, errs := songc(t, context.Background(), "train", "--data", p, "-o", model, "--nodes", "2", "--steps", "2", "--epochs", "1", "-q"); code != 0 {
		t.Fatal(errs)
	}
	code, out, errs := songc(t, context.Background(), "predict", model, "--data", p, "--proba", "--class-names")
	if first, _, _ := strings.Cut(out, "\n"); code != 0 || first != `"a,b","say ""hi"""` {
		t.Errorf("exit %d %s; header line %q", code, errs, first)
	}
}

// TestPredictHostileNames: class names with a newline and an escape code
// print quoted, one line per row, and eval's confusion matrix quotes them
// too.
func TestPredictHostileNames(t *testing.T) {
	dir := t.TempDir()
	model := oneNode(t, dir, `["a\nb", "\u001b[31mred"]`, `[[0], [0], [9]]`)
	rows := filepath.Join(dir, "rows.csv")
	if err := os.WriteFile(rows, []byte("-1\n1\n-2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := songc(t, context.Background(), "predict", model, "--data", rows)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if want := "\"a\\nb\"\n\"\\x1b[31mred\"\n\"a\\nb\"\n"; out != want {
		t.Errorf("predict printed %q, want %q", out, want)
	}
	labelled := filepath.Join(dir, "labelled.csv")
	if err := os.WriteFile(labelled, []byte("-1,\"a\nb\"\n1,\"a\nb\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = songc(t, context.Background(), "eval", model, "--data", labelled)
	if code != 0 || strings.ContainsRune(out, 0x1b) || !strings.Contains(out, `"a\nb"`) {
		t.Errorf("eval: exit %d, output %q: %s", code, out, errs)
	}
}

// TestPredictInterrupted: a cancelled context (what Ctrl-C does) stops
// predict with exit 130 before it has predicted every row.
func TestPredictInterrupted(t *testing.T) {
	r := trainBlobs(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	code, out, errs := songc(t, ctx, "predict", r.model, "--data", r.test)
	if code != 130 || !strings.Contains(errs, "interrupted after 0 rows") || out != "" {
		t.Errorf("exit %d, %d bytes out: %s", code, len(out), errs)
	}
}

// TestPredictNoRows: a file of new rows that holds only its header (a
// scheduled job's empty batch) predicts nothing and succeeds; eval, which
// needs rows to measure, refuses it.
func TestPredictNoRows(t *testing.T) {
	dir := t.TempDir()
	train := csvFile(t, "a,b,y", 40, func(i int) string { return fmt.Sprintf("%d,%d,%c", i, i%3, "xz"[i%2]) })
	model := filepath.Join(dir, "m.json")
	if code, _, errs := songc(t, context.Background(), "train", "--data", train, "-o", model, "--preset", "fast", "--nodes", "2", "--steps", "2", "--epochs", "1", "-q"); code != 0 {
		t.Fatal(errs)
	}
	empty := filepath.Join(dir, "empty.csv")
	os.WriteFile(empty, []byte("a,b\n"), 0o644)
	if code, out, errs := songc(t, context.Background(), "predict", model, "--data", empty); code != 0 || out != "" || !strings.Contains(errs, "holds a header and no rows: nothing to predict") {
		t.Errorf("predict: exit %d, output %q, %s", code, out, errs)
	}
	if code, _, errs := songc(t, context.Background(), "eval", model, "--data", empty); code != 1 || !strings.Contains(errs, "has a header but no data rows") {
		t.Errorf("eval: exit %d, %s", code, errs)
	}
}

// TestPredictKeep: --keep starts each line with the kept columns' fields,
// quoted as CSV quotes them, under a first line of the columns' names, in
// each mode, over more rows than the soft model's block; a kept column the
// model does not read needs no --ignore, and an error about such a column
// offers --keep; a kept column the header lacks, a file without a header,
// or an IDX file, is an error; a file with no rows gets the first line
// only.
func TestPredictKeep(t *testing.T) {
	r := trainBlobs(t)
	text, err := os.ReadFile(r.train)
	if err != nil {
		t.Fatal(err)
	}
	// The 300 training rows with an id before them and a note after.
	lines := strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
	var b strings.Builder
	ids := []string{"id"}
	for i, l := range lines {
		id, note := fmt.Sprintf("r%d", i), `"say ""hi"", twice"`
		if i == 0 {
			id, note = "id", "note"
		}
		if i == 7 {
			id = `"7,b"`
		}
		fmt.Fprintf(&b, "%s,%s,%s\n", id, l, note)
		if i > 0 {
			ids = append(ids, strings.Trim(id, `"`))
		}
	}
	file := filepath.Join(r.dir, "ids.csv")
	os.WriteFile(file, []byte(b.String()), 0o644)
	for _, mode := range [][]string{nil, {"--soft"}, {"--proba"}} {
		code, plain, errs := songc(t, context.Background(), append([]string{"predict", r.model, "--data", r.train}, mode...)...)
		if code != 0 {
			t.Fatal(errs)
		}
		code, kept, errs := songc(t, context.Background(), append([]string{"predict", r.model, "--data", file, "--keep", "id,note"}, mode...)...)
		if code != 0 {
			t.Fatalf("--keep %v: exit %d: %s", mode, code, errs)
		}
		want := []string{"id,note,predicted"}
		if mode != nil && mode[0] == "--proba" {
			want[0] = "id,note,ant,bee,cat"
		}
		for i, l := range strings.Split(strings.TrimSuffix(plain, "\n"), "\n") {
			id := ids[i+1]
			if strings.Contains(id, ",") {
				id = `"` + id + `"`
			}
			want = append(want, id+`,"say ""hi"", twice",`+l)
		}
		if got := strings.Split(strings.TrimSuffix(kept, "\n"), "\n"); !slices.Equal(got, want) {
			t.Errorf("--keep %v: %d lines, want %d; first lines %q, want %q", mode, len(got), len(want), got[:min(3, len(got))], want[:3])
		}
		// The names as the data layer takes them: spaces trimmed, blanks
		// and repeats dropped.
		code, again, errs := songc(t, context.Background(), append([]string{"predict", r.model, "--data", file, "--keep", " id,,id,note,id"}, mode...)...)
		if code != 0 || again != kept {
			t.Errorf("--keep ' id,,id,note,id' %v: exit %d, %s; output differs from --keep id,note's", mode, code, errs)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--data", file, "--keep", "ID"}, `ids.csv:1:1: --keep "ID": the header has no such column (it has "id", "f1", "f2", "f3", "f4", "kind", "note"); names are case-sensitive: did you mean "id"?`},
		{[]string{"--data", file}, `leave them out with --ignore "id,note" (or print them beside each prediction with --keep "id,note")`},
		{[]string{"--data", file, "--keep", "idd"}, `did you mean "id"?`},
		{[]string{"--data", r.train, "--keep", "kind", "--header", "no"}, `train.csv: --keep names columns of a header, but --header no says the file has no header row`},
		// A file the model cannot read says so first.
		{[]string{"--data", file, "--keep", "id", "--header", "no"}, `ids.csv:1: row has 7 columns; the model reads 4`},
		// Names as the data layer cleans them: repeats and blanks are
		// dropped, spaces trimmed.
		{[]string{"--data", file, "--keep", " id,,id,note,nope"}, `--keep "nope": the header has no such column`},
		{[]string{"--data", filepath.Join(r.dir, "t10k-images-idx3-ubyte"), "--keep", "id"}, `t10k-images-idx3-ubyte: --keep names columns of a CSV header, and an IDX file has none`},
	} {
		if code, _, errs := songc(t, context.Background(), append([]string{"predict", r.model}, tc.args...)...); code != 1 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, %s; want %s", tc.args, code, errs, tc.want)
		}
	}
	empty := filepath.Join(r.dir, "empty.csv")
	os.WriteFile(empty, []byte("id,f1,f2,f3,f4\n"), 0o644)
	if code, out, errs := songc(t, context.Background(), "predict", r.model, "--data", empty, "--keep", "id"); code != 0 || out != "id,predicted\n" {
		t.Errorf("no rows: exit %d, output %q, %s", code, out, errs)
	}
}

// TestAppendFields: predict's lines quote their fields as encoding/csv's
// Writer does.
func TestAppendFields(t *testing.T) {
	fields := []string{"plain", "", "a,b", `say "hi"`, "two\nlines", "cr\r", " lead", "\tlead", "\u00a0lead", `\.`, "trail ", "caf\u00e9"}
	var want bytes.Buffer
	w := csv.NewWriter(&want)
	w.Write(fields)
	w.Flush()
	got := appendFields(nil, fields)
	if got := string(got[:len(got)-1]) + "\n"; got != want.String() {
		t.Errorf("got %q, want %q", got, want.String())
	}
}

// TestPredictKeepQuotesClass: with --keep a line has several fields, so
// a class name holding a comma or a quote is CSV-quoted, in each mode;
// without, a line is the class alone, as it was.
func TestPredictKeepQuotesClass(t *testing.T) {
	train := csvFile(t, "id,a,y", 40, func(i int) string { return fmt.Sprintf("r%d,%d,%s", i, i%2, []string{`"x,y"`, `"say ""z"""`}[i%2]) })
	model := filepath.Join(filepath.Dir(train), "m.json")
	if code, _, errs := songc(t, context.Background(), "train", "--data", train, "--ignore", "id", "-o", model, "--preset", "fast", "--nodes", "2", "--steps", "2", "--epochs", "30", "-q"); code != 0 {
		t.Fatal(errs)
	}
	want := map[string]string{"0": `"x,y"`, "1": `"say ""z"""`} // by a
	for _, mode := range [][]string{nil, {"--soft"}} {
		code, out, errs := songc(t, context.Background(), append([]string{"predict", model, "--data", train, "--keep", "id,a"}, mode...)...)
		if code != 0 {
			t.Fatal(errs)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		for i, l := range lines[1:] {
			if id, a := fmt.Sprintf("r%d", i), fmt.Sprint(i%2); l != id+","+a+","+want[a] {
				t.Errorf("%v: line %q, want %q", mode, l, id+","+a+","+want[a])
				break
			}
		}
	}
	if code, out, _ := songc(t, context.Background(), "predict", model, "--data", train); code != 0 || !strings.HasPrefix(out, "x,y\n") {
		t.Errorf("without --keep: exit %d, %q", code, out[:min(20, len(out))])
	}
}

// TestFailWriter: the writer predict -o writes through tells an error of
// its own writes (which WriteFileAtomic names with FILE), also wrapped,
// from any other (a row's, said as it is; TestPredict covers that path).
func TestFailWriter(t *testing.T) {
	full := errors.New("no space left on device")
	fw := &failWriter{w: failing{full}}
	if fw.caused(full) {
		t.Error("no write has failed yet")
	}
	fw.Write([]byte("x"))
	row := errors.New("rows.csv:3:1: not a number")
	if !fw.caused(full) || !fw.caused(fmt.Errorf("flushing: %w", full)) || fw.caused(row) {
		t.Errorf("caused: the write error %v, the row's %v", fw.caused(full), fw.caused(row))
	}
}

// failing is a writer whose every write fails with err.
type failing struct{ err error }

func (f failing) Write(p []byte) (int, error) { return 0, f.err }

// TestDataStdin: predict and eval read CSV rows from standard input with
// --data -, plain or gzip'd, as they read the same rows from a file, and
// name it stdin in their messages; the commands that need a file say so.
func TestDataStdin(t *testing.T) {
	r := trainBlobs(t)
	text, err := os.ReadFile(r.test)
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(text)
	zw.Close()
	for _, args := range [][]string{{"predict"}, {"predict", "--proba"}, {"eval"}} {
		_, want, _ := songc(t, context.Background(), append(slices.Clone(args), r.model, "--data", r.test)...)
		want = strings.ReplaceAll(want, r.test, "stdin")
		for _, in := range []string{string(text), gz.String()} {
			code, out, errs := songcIn(t, context.Background(), in, append(slices.Clone(args), r.model, "--data", "-")...)
			if code != 0 || out != want || want == "" {
				t.Errorf("%v --data -: exit %d, output\n%s\nwant\n%s\n%s", args, code, out, want, errs)
			}
		}
	}
	// A row's error names stdin, its line and column.
	bad := strings.Replace(string(text), "\n", "\nx,1,2,3,ant\n", 1)
	if code, _, errs := songcIn(t, context.Background(), bad, "eval", r.model, "--data", "-"); code != 1 || !strings.Contains(errs, `stdin:2:1: column 1 ("f1"): "x" is not a number`) {
		t.Errorf("a bad row on stdin: exit %d, %s", code, errs)
	}
	if code, _, errs := songcIn(t, context.Background(), string(text), "train", "--data", "-", "-o", filepath.Join(t.TempDir(), "m.json")); code != 1 || !strings.Contains(errs, `"-" names standard input, which only predict and eval read rows from: give this command a file`) {
		t.Errorf("train --data -: exit %d, %s", code, errs)
	}
}

// TestSepFlag: train --sep reads a file by the separator given and
// records it, so predict and eval read the model's files so with no flag;
// a --sep given to them wins, and a file of another separator is said to
// be one.
func TestSepFlag(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 60 {
		// Text only: its semicolons make more fields than the commas.
		fmt.Fprintf(&b, "%c;%c;a;b;c,%c,%c\n", 'a'+i%3, 'a'+i%5, 'p'+i%4, "YN"[i%2])
	}
	train := filepath.Join(dir, "t.csv")
	bars := filepath.Join(dir, "bars.csv")
	os.WriteFile(train, []byte(b.String()), 0o644)
	os.WriteFile(bars, []byte(strings.ReplaceAll(b.String(), ",", "|")), 0o644)
	model := filepath.Join(dir, "m.json")
	fast := []string{"--preset", "fast", "--nodes", "3", "--steps", "2", "--epochs", "2", "-q"}
	found := filepath.Join(dir, "found.json")
	if code, _, errs := songc(t, context.Background(), append([]string{"train", "--data", train, "-o", found}, fast...)...); code != 0 {
		t.Fatalf("train without --sep: exit %d, %s", code, errs)
	}
	if m, err := runtime.Load(found); err != nil || len(m.Schema.Inputs) != 4 || m.Schema.Separator != 0 {
		t.Errorf("without --sep: %v, %+v; want 4 inputs split by semicolons, no separator recorded", err, m.Schema)
	}
	if code, _, errs := songc(t, context.Background(), append([]string{"train", "--data", train, "-o", model, "--sep", ","}, fast...)...); code != 0 {
		t.Fatalf("train --sep ,: exit %d, %s", code, errs)
	}
	m, err := runtime.Load(model)
	if err != nil || m.Schema.Separator != ',' || len(m.Schema.Inputs) != 2 {
		t.Fatalf("the model: %v, %+v", err, m.Schema)
	}
	_, want, _ := songc(t, context.Background(), "predict", model, "--data", train, "--sep", ",")
	if code, got, errs := songc(t, context.Background(), "predict", model, "--data", train); code != 0 || got != want || strings.Count(got, "\n") != 60 {
		t.Errorf("predict with the model's separator: exit %d, %s", code, errs)
	}
	if code, got, errs := songc(t, context.Background(), "predict", model, "--data", bars, "--sep", "|"); code != 0 || got != want {
		t.Errorf("predict --sep '|': exit %d, %s", code, errs)
	}
	plain := filepath.Join(dir, "plain.csv")
	os.WriteFile(plain, []byte("a|p|Y\nb|q|N\n"), 0o644)
	if code, _, errs := songc(t, context.Background(), "eval", model, "--data", plain); code != 1 || !strings.Contains(errs, "the file looks separated by vertical bars, not the commas the model (train --sep) gives: give --sep '|'") {
		t.Errorf("eval of a file with another separator: exit %d, %s", code, errs)
	}
	if code, _, errs := songc(t, context.Background(), "predict", model, "--data", train, "--sep", ":"); code != 2 || !strings.Contains(errs, `songc predict: --sep: ":" is not a separator songc reads: give , ';' '|' or tab`) {
		t.Errorf("--sep :: exit %d, %s", code, errs)
	}
}

// TestPredictExplain: --explain prints, for each row, predict's class and
// the walk's decisions, each with its node's test as the compiler says it
// (which golden's TestRecordsEndToEnd proves equal to the compiled
// ExplainInput's) and what the row reads in it (compiler's TestReading), a
// forced exit said where the walk took one.
func TestPredictExplain(t *testing.T) {
	r := trainBlobs(t)
	_, classes, _ := songc(t, context.Background(), "predict", r.model, "--data", r.test)
	code, out, errs := songc(t, context.Background(), "predict", r.model, "--data", r.test, "--explain")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	m, err := runtime.Load(r.model)
	if err != nil {
		t.Fatal(err)
	}
	k, _ := runtime.New(m)
	plan, err := compiler.NewPlan(m, compiler.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := plan.Tests()
	ds, err := data.Open(r.test, data.CSVOptions{Schema: m.Inputs(), Named: m.Inputs().Named()})
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	decisions, readings := 0, 0
	for i, class := range strings.Split(strings.TrimSuffix(classes, "\n"), "\n") {
		x := ds.X[i*ds.Features : (i+1)*ds.Features]
		res, path := k.Walk(x, make([]float64, len(x)), []runtime.Step{})
		fmt.Fprintf(&want, "line %d: %s\n", ds.Line[i], class)
		for j, s := range path {
			test := tests[s.Node][0]
			if s.Right {
				test = tests[s.Node][1]
			}
			fmt.Fprintf(&want, "  node %d: %s", s.Node, test)
			reading := plan.Reading(s.Node, x)
			if plan.Column(s.Node) >= 0 {
				fmt.Fprintf(&want, " (this row: %s)", reading)
			}
			if res.Forced && j == len(path)-1 {
				fmt.Fprintf(&want, ", then a forced exit to %s (the walk's %d decisions are spent)", class, k.Steps())
			}
			want.WriteByte('\n')
			if plan.Column(s.Node) < 0 && reading != "" { // "": a node without weights
				fmt.Fprintf(&want, "    this row: %s\n", reading)
				readings++
			}
		}
		decisions += len(path)
	}
	if out != want.String() {
		t.Errorf("--explain:\n%s\nwant\n%s", out, want.String())
	}
	if decisions <= ds.Rows || readings == 0 {
		t.Errorf("%d decisions for %d rows, %d of nodes that weigh several columns: the test wants walks of several steps through such nodes", decisions, ds.Rows, readings)
	}
	// Kept columns name the row; --explain is one of the output modes.
	code, out, _ = songc(t, context.Background(), "predict", r.model, "--data", r.test, "--explain", "--keep", "f2")
	if first, _, _ := strings.Cut(out, "\n"); code != 0 || !regexp.MustCompile(`^line 2 \(f2=[-0-9.e]+\): \S+$`).MatchString(first) {
		t.Errorf("--keep: exit %d, first line %q", code, first)
	}
	if code, _, errs := songc(t, context.Background(), "predict", r.model, "--data", r.test, "--explain", "--proba"); code != 2 || !strings.Contains(errs, "--explain") {
		t.Errorf("--explain --proba: exit %d, %s", code, errs)
	}
}

// TestInParens: --explain's kept fields read as one field each: a field
// that holds a comma, =, a bracket or a quote, or that is empty or
// spaced at its ends, is quoted; a control character is escaped.
func TestInParens(t *testing.T) {
	for in, want := range map[string]string{
		"7": "7", "John Smith": "John Smith", "Smith, J": `"Smith, J"`, "a=b": `"a=b"`,
		"(x)": `"(x)"`, "[x]": `"[x]"`, `say "hi"`: `"say \"hi\""`, "": `""`, " x": `" x"`, "a\x1b[31m": `"a\x1b[31m"`,
	} {
		if got := inParens(in); got != want {
			t.Errorf("inParens(%q) = %s, want %s", in, got, want)
		}
	}
}
