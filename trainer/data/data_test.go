package data

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/songc/songc/runtime"
)

// numeric returns the input columns of a model of d numbers (format 1).
func numeric(d int) *runtime.Schema { return (&runtime.Model{Features: d}).Inputs() }

// labelAt sets s.LabelAt to at and returns s.
func labelAt(s *runtime.Schema, at int) *runtime.Schema {
	s.LabelAt = at
	return s
}

func read(t *testing.T, text string, opt CSVOptions) (*Dataset, error) {
	t.Helper()
	return ReadCSV(strings.NewReader(text), "t.csv", opt)
}

func TestCSVHeaderAndLabels(t *testing.T) {
	for _, tc := range []struct {
		name       string
		text       string
		opt        CSVOptions
		x          []float64
		labels     []string
		classNames []string
	}{
		{"last, no header", "1,2,b\n3,4,a\n", CSVOptions{}, []float64{1, 2, 3, 4}, []string{"b", "a"}, []string{"a", "b"}},
		{"auto header", "f1,f2,y\n1,2,b\n3,4,a\n", CSVOptions{}, []float64{1, 2, 3, 4}, []string{"b", "a"}, []string{"a", "b"}},
		{"forced header", "1,2,3\n4,5,6\n7,8,9\n", CSVOptions{Header: HeaderYes}, []float64{4, 5, 7, 8}, []string{"6", "9"}, []string{"6", "9"}},
		{"label first", "x,1,2\ny,3,4\n", CSVOptions{LabelCol: "first"}, []float64{1, 2, 3, 4}, []string{"x", "y"}, []string{"x", "y"}},
		{"label column 2", "1,x,2\n3,y,4\n", CSVOptions{LabelCol: "2"}, []float64{1, 2, 3, 4}, []string{"x", "y"}, []string{"x", "y"}},
		// Integer labels sort numerically (factorize(sort=True)): 2 < 10.
		{"integer order", "0,10\n0,2\n0,-1\n", CSVOptions{}, []float64{0, 0, 0}, []string{"10", "2", "-1"}, []string{"-1", "2", "10"}},
		{"a name above numeric labels", "0,1,label\n1,2,0\n3,4,1\n", CSVOptions{}, []float64{1, 2, 3, 4}, []string{"0", "1"}, []string{"0", "1"}},
		{"blank lines and spaces", "1, 2,a\n\n3,4, b\n", CSVOptions{}, []float64{1, 2, 3, 4}, []string{"a", "b"}, []string{"a", "b"}},
		{"unlabelled rows for a model", "1,2\n3,4\n", CSVOptions{Schema: numeric(2)}, []float64{1, 2, 3, 4}, nil, nil},
		{"labelled rows for a model", "1,2,a\n3,4,b\n", CSVOptions{Schema: numeric(2)}, []float64{1, 2, 3, 4}, []string{"a", "b"}, []string{"a", "b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds, err := read(t, tc.text, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ds.X, tc.x) || !reflect.DeepEqual(ds.Labels, tc.labels) {
				t.Errorf("got X %v labels %q, want %v %q", ds.X, ds.Labels, tc.x, tc.labels)
			}
			if tc.classNames != nil {
				names, err := ds.ClassNames()
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(names, tc.classNames) {
					t.Errorf("class names %q, want %q", names, tc.classNames)
				}
			}
		})
	}
}

func TestCSVErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		opt        CSVOptions
		want       string // substring of the error
	}{
		{"empty", "", CSVOptions{}, "t.csv: file is empty"},
		{"header only", "a,b,c\n", CSVOptions{}, "t.csv: has a header but no data rows"},
		{"ragged", "1,2,a\n3,b\n", CSVOptions{}, "t.csv:2: row has 2 columns, earlier rows have 3"},
		{"not a number in a numeric column", "1,2,a\n3,x,b\n", CSVOptions{Numeric: []string{"x2"}}, `t.csv:2:3: column 2 ("x2"): "x" is not a number`},
		{"NaN not missing", "1,2,a\nNaN,1,b\n", CSVOptions{Numeric: []string{"x1"}, Missing: []string{}}, `t.csv:2:1: column 1 ("x1"): "NaN" is not finite`},
		{"Inf", "1,2,a\n1,-Inf,b\n", CSVOptions{Numeric: []string{"x2"}}, `t.csv:2:3: column 2 ("x2"): "-Inf" is not finite`},
		{"out of range", "1,2,a\n1,1e999,b\n", CSVOptions{Numeric: []string{"x2"}}, "out of the float64 range"},
		{"overlong", "1,2,a\n1," + strings.Repeat("1", 300) + ",b\n", CSVOptions{Numeric: []string{"x2"}}, "is 300 bytes long"},
		{"missing for a format-1 model", "1,2,a\n1,,b\n", CSVOptions{Schema: numeric(2)}, `t.csv:2:3: column 2 ("x2"): missing value, which this model cannot fill`},
		{"forced column unknown", "1,2,a\n", CSVOptions{Categorical: []string{"age"}}, `--categorical "age": t.csv has no such input column (it has "x1", "x2")`},
		{"forced both ways", "1,2,a\n", CSVOptions{Categorical: []string{"x1"}, Numeric: []string{"x1"}}, `column "x1" is in both --categorical and --numeric`},
		{"duplicate names", "a,a,y\n1,2,b\n", CSVOptions{}, `t.csv:1: columns 1 and 2 are both named "a"; names must be distinct, as a model finds a file's columns by name: rename one in the header, or leave both out with --ignore "a"`},
		{"duplicate names, both left out", "a,a,y\n1,2,b\n", CSVOptions{Ignore: []string{"a"}}, "no feature columns"},
		{"label name without header", "1,2,a\n", CSVOptions{LabelCol: "y"}, `t.csv:1: --label-col "y" names a column, but no field of the first row is "y" (it has "1", "2", "a")`},
		{"label name with --header no", "a,y\n1,b\n", CSVOptions{LabelCol: "y", Header: HeaderNo}, `t.csv: --label-col "y" names a column, but --header no says the file has no header row`},
		{"label name in another case", "a,outcome\n1,b\n", CSVOptions{LabelCol: "Outcome"}, `names are case-sensitive: did you mean "outcome"?`},
		{"semicolons, ragged", "a;b;y\n1;2;x\n3;x\n", CSVOptions{}, "t.csv:1: row has 1 column(s): no feature columns besides the label; the file looks separated by semicolons, but its first lines hold different numbers of them: give --sep ';' to read it so, and songc names the first row of another length"},
		{"tabs for a model, ragged", "1\t2\n3\n", CSVOptions{Schema: numeric(2)}, "looks separated by tabs"},
		{"label name not in header", "a,b,y\n1,2,c\n", CSVOptions{LabelCol: "z", Header: HeaderYes}, `t.csv:1: no column is named "z" (the label column); the header has "a", "b", "y"`},
		{"label name misspelt", "a,b,class\n1,2,c\n", CSVOptions{LabelCol: "clas", Header: HeaderYes}, `t.csv:1: no column is named "clas" (the label column); the header has "a", "b", "class"; did you mean "class"?`},
		{"label name in another case", "a,b,Y\n1,2,c\n", CSVOptions{LabelCol: "y", Header: HeaderYes}, `t.csv:1: no column is named "y" (the label column); the header has "a", "b", "Y"; names are case-sensitive: did you mean "Y"?`},
		{"bad quote", "1,2,a\n1,\"2,b\n", CSVOptions{}, "t.csv:2:"},
		{"quote left open", "1,2,a\n1,\"2,b\n3,4,c\n5,6,d\n", CSVOptions{}, "t.csv:2: a quoted field in the record that starts on this line is not closed, or has text after its closing quote: the reader went on to line 4"},
		{"bare quote", "1,2,a\n1,2 \"x\",b\n", CSVOptions{}, `t.csv:2:5: bare " in non-quoted-field`},
		{"label only", "a\nb\n", CSVOptions{}, "no feature columns"},
		{"trailing separator", "a,b,y,\n1,2,p,\n3,4,q,\n", CSVOptions{}, `t.csv: the last column is empty in every row: each line ends with a separator (comma), and songc reads the label from the last column; remove the separators at the lines' ends, or name the label column, the last with values, and leave the empty one out (--label-col "y" --ignore "x4")`},
		// Without a header, a label named by place would leave the empty
		// column an input, which files for the model would need too.
		{"trailing separator, no header", "1,2,p,\n3,4,q,\n", CSVOptions{}, `t.csv: the last column is empty in every row: each line ends with a separator (comma), and songc reads the label from the last column; remove the separators at the lines' ends$`},
		{"trailing separators", "a,b,y,,\n1,2,p,,\n3,4,q,,\n", CSVOptions{}, `and leave the empty ones out (--label-col "y" --ignore "x4,x5")`},
		{"label of missing-value tokens", "a,b,\n1,2,NA\n3,4,NA\n", CSVOptions{}, "t.csv: every row's label is missing (empty, or one of the missing-value tokens"},
		{"quote closed, then text", "1,2,a\n1,\"2\n3\" x,b\n5,6,d\n", CSVOptions{}, "t.csv:2: a quoted field in the record that starts on this line is not closed, or has text after its closing quote"},
		{"label column too far", "1,2\n", CSVOptions{LabelCol: "3"}, "rows have only 2 columns"},
		{"label column number", "1,2\n", CSVOptions{LabelCol: "0"}, "want last, first, a column number >= 1 or a name"},
		{"width for model", "1,2,3,4\n", CSVOptions{Schema: numeric(2)}, "row has 4 columns; the model reads 2 (plus an optional label column)"},
		{"width for a label-first model", "1,2,3,4\n", CSVOptions{Schema: labelAt(numeric(2), 1)}, "row has 4 columns; the model reads 2 (plus an optional label column, first)"},
		{"width for a label-second model", "1,2,3,4\n", CSVOptions{Schema: labelAt(numeric(2), 2)}, "row has 4 columns; the model reads 2 (plus an optional label column, column 2)"},
		{"width for a label-last model", "1,2,3,4\n", CSVOptions{Schema: labelAt(numeric(2), 3)}, "row has 4 columns; the model reads 2 (plus an optional label column)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := read(t, tc.text, tc.opt)
			want, whole := strings.CutSuffix(tc.want, "$") // $: the error ends there
			if err == nil || !strings.Contains(err.Error(), want) || whole && !strings.HasSuffix(err.Error(), want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans lines: %q", err)
			}
		})
	}
}

func TestClassesAndTargets(t *testing.T) {
	ds, err := read(t, "1,a\n2,a\n", CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ds.ClassNames(); err == nil || !strings.Contains(err.Error(), "need at least 2 classes") {
		t.Errorf("one class: error %v", err)
	}
	test, err := read(t, "1,a\n2,c\n", CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := test.Targets([]string{"a", "b"}); err == nil || !strings.Contains(err.Error(), `t.csv:2: label "c" is not one of the 2 classes of the training rows ("a", "b")`) {
		t.Errorf("unknown class: error %v", err)
	}
	// Numeric labels match by value: "01" and "1.0" are class "1", "2.50"
	// class "2.5".
	ints, err := read(t, "1,01\n2,2\n3,1.0\n4,2e0\n5,2.50\n", CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	y, err := ints.Targets([]string{"1", "2", "2.5"})
	if err != nil || !reflect.DeepEqual(y, []int{0, 1, 0, 1, 2}) {
		t.Errorf("targets %v, %v", y, err)
	}
	// A training file's classes: numbers of one value are one class ("1",
	// "1.0" and "01"; "1.50" and "1.5"), in the order of their values; a
	// label that is not a number makes them all strings, and NaN and the
	// infinities are not numbers.
	for _, tc := range []struct{ labels, want string }{
		{"1.0 1 01 -0.0 10", "0 1 10"},
		{"1.0 1 2.5", "1 2.5"},
		{"0.0 1.0 0 1 1.5", "0 1 1.5"},
		{"1.50 10 1.5 2.5 -0.5", "-0.5 1.5 2.5 10"},
		{"1.0 1 a", "1 1.0 a"},
		{"1 Inf", "1 Inf"},
		{"1 1e30", "1 1e+30"},
	} {
		var text strings.Builder
		for i, l := range strings.Fields(tc.labels) {
			fmt.Fprintf(&text, "%d,%s\n", i, l)
		}
		ds, err := read(t, text.String(), CSVOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if names, err := ds.ClassNames(); err != nil || strings.Join(names, " ") != tc.want {
			t.Errorf("labels %s: classes %q (%v), want %s", tc.labels, names, err, tc.want)
		}
	}
}

func gz(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func TestCSVFileGzip(t *testing.T) {
	dir := t.TempDir()
	plain := []byte("1,2,a\n3,4,b\n")
	for name, content := range map[string][]byte{"p.csv": plain, "g.csv.gz": gz(plain), "g-no-suffix.csv": gz(plain)} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, content, 0o644)
		ds, err := ReadCSVFile(p, CSVOptions{})
		if err != nil || ds.Rows != 2 || ds.X[3] != 4 {
			t.Errorf("%s: %v %+v", name, err, ds)
		}
	}
	cut := gz(bytes.Repeat(plain, 1000))
	p := filepath.Join(dir, "cut.csv.gz")
	os.WriteFile(p, cut[:len(cut)/2], 0o644)
	if _, err := ReadCSVFile(p, CSVOptions{}); err == nil || !strings.Contains(err.Error(), "cut short") {
		t.Errorf("truncated gzip: error %v", err)
	}
}

func writeIDX(t *testing.T, dir string, images [][]byte, rows, cols int, labels []byte) string {
	t.Helper()
	var b bytes.Buffer
	binary.Write(&b, binary.BigEndian, []uint32{idxImages, uint32(len(images)), uint32(rows), uint32(cols)})
	for _, im := range images {
		b.Write(im)
	}
	ip := filepath.Join(dir, "x-images-idx3-ubyte.gz")
	os.WriteFile(ip, gz(b.Bytes()), 0o644)
	if labels != nil {
		var l bytes.Buffer
		binary.Write(&l, binary.BigEndian, []uint32{idxLabels, uint32(len(labels))})
		l.Write(labels)
		os.WriteFile(filepath.Join(dir, "x-labels-idx1-ubyte.gz"), gz(l.Bytes()), 0o644)
	}
	return ip
}

func TestIDX(t *testing.T) {
	dir := t.TempDir()
	ip := writeIDX(t, dir, [][]byte{{0, 255, 51, 0}, {255, 0, 0, 102}}, 2, 2, []byte{7, 3})
	if got := LabelsPathFor(ip); got != filepath.Join(dir, "x-labels-idx1-ubyte.gz") {
		t.Fatalf("labels path %s", got)
	}
	ds, err := Open(ip, CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Rows != 2 || ds.Features != 4 || ds.X[1] != 1 || ds.X[2] != 0.2 || ds.X[7] != 0.4 {
		t.Errorf("pixels %v", ds.X)
	}
	names, _ := ds.ClassNames()
	if !reflect.DeepEqual(names, []string{"3", "7"}) {
		t.Errorf("class names %q", names)
	}

	// Errors: more images than labels, truncated images, wrong magic.
	ip = writeIDX(t, dir, [][]byte{{0, 1, 2, 3}, {4, 5, 6, 7}}, 2, 2, []byte{1})
	if _, err := Open(ip, CSVOptions{}); err == nil || !strings.Contains(err.Error(), "has 1 labels but") {
		t.Errorf("length mismatch: %v", err)
	}
	var b bytes.Buffer
	binary.Write(&b, binary.BigEndian, []uint32{idxImages, 5, 2, 2})
	b.Write([]byte{1, 2, 3})
	os.WriteFile(ip, gz(b.Bytes()), 0o644)
	if _, err := Open(ip, CSVOptions{}); err == nil || !strings.Contains(err.Error(), "image 1 of 5 is cut short") {
		t.Errorf("truncated: %v", err)
	}
	b.Reset()
	binary.Write(&b, binary.BigEndian, []uint32{0x0801, 5, 2, 2})
	os.WriteFile(ip, gz(b.Bytes()), 0o644)
	if _, err := Open(ip, CSVOptions{}); err == nil || !strings.Contains(err.Error(), "IDX magic is 0x00000801") {
		t.Errorf("magic: %v", err)
	}
	b.Reset()
	binary.Write(&b, binary.BigEndian, []uint32{idxImages, 1 << 27, 1 << 10, 1 << 10})
	os.WriteFile(ip, gz(b.Bytes()), 0o644)
	if _, err := Open(ip, CSVOptions{}); err == nil || !strings.Contains(err.Error(), "more than songc reads") {
		t.Errorf("absurd size: %v", err)
	}
}

// TestLetterEmbedded checks the embedded copy against the split of the
// spec (section 4): 18000 + 2000 rows, 16 features, classes A..Z.
func TestLetterEmbedded(t *testing.T) {
	train, test, err := Letter()
	if err != nil {
		t.Fatal(err)
	}
	if train.Rows != 18000 || test.Rows != 2000 || train.Features != 16 || test.Features != 16 {
		t.Fatalf("letter: %d + %d rows, %d features", train.Rows, test.Rows, train.Features)
	}
	names, err := train.ClassNames()
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 26 || names[0] != "A" || names[25] != "Z" {
		t.Errorf("class names %q", names)
	}
	// First row of letter/train.csv.gz: 2,8,3,5,1,8,13,0,6,6,10,8,0,8,0,8,T
	if train.X[6] != 13 || train.Labels[0] != "T" || train.Line[0] != 1 {
		t.Errorf("first row %v %q", train.Row(0), train.Labels[0])
	}
}

// TestIDXLyingHeaderAgainstModel: an IDX file whose header claims 16384
// images of 256x256 pixels (1 GiB of zeros, a few MB once gzip'd) is
// refused for a model of 784 features from its header alone: reading it
// allocates well under 1 MB, not the 9 GiB its pixels would take as
// float64.
func TestIDXLyingHeaderAgainstModel(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	hdr := []uint32{0x00000803, 16384, 256, 256}
	binary.Write(zw, binary.BigEndian, hdr)
	zeros := make([]byte, 1<<20)
	for range 8 { // the first 8 MiB of the claimed pixels is enough to lie
		zw.Write(zeros)
	}
	zw.Close()
	path := filepath.Join(t.TempDir(), "lie-images-idx3-ubyte.gz")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	_, err := Open(path, CSVOptions{Schema: numeric(784)})
	goruntime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "images have 65536 pixels; the model wants 784 features") {
		t.Fatalf("error %v", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("reading the header allocated %d bytes", grew)
	}
}

// TestCSVLineLimit: a CSV file of one line longer than MaxLineBytes (a few
// KB once gzip'd) is an error naming the file, raised once the line passes
// the limit, not after reading it whole.
func TestCSVLineLimit(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte("1,2,a\n"))
	ones := bytes.Repeat([]byte("1"), 1<<20)
	for range MaxLineBytes>>20 + 2 {
		zw.Write(ones)
	}
	zw.Close()
	path := filepath.Join(t.TempDir(), "long.csv.gz")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	_, err := ReadCSVFile(path, CSVOptions{})
	goruntime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "long.csv.gz") || !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("error %v", err)
	}
	// The reader's buffer doubles as the line grows, and encoding/csv
	// copies the record: all its allocations together stay within a small
	// multiple of the limit (a 1 GB line allocated gigabytes before).
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 10*MaxLineBytes {
		t.Errorf("reading allocated %d MiB", grew>>20)
	}
}

// TestIDXStream: OpenStream gives an IDX file's rows and labels one at a
// time, equal to the whole file's, and reports the same errors: more
// images than labels, images cut short, another image size than the
// model's.
func TestIDXStream(t *testing.T) {
	dir := t.TempDir()
	ip := writeIDX(t, dir, [][]byte{{0, 255, 51, 0}, {255, 0, 0, 102}, {1, 2, 3, 4}}, 2, 2, []byte{7, 3, 7})
	ds, err := Open(ip, CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := OpenStream(ip, CSVOptions{Schema: numeric(4)})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i := 0; ; i++ {
		ok, err := st.Next()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			if i != ds.Rows {
				t.Errorf("streamed %d rows of %d", i, ds.Rows)
			}
			break
		}
		if !reflect.DeepEqual(st.Row(), ds.Row(i)) || !st.Labelled() || st.Label() != ds.Labels[i] || st.Line() != i+1 {
			t.Errorf("row %d: %v %q (line %d), want %v %q", i, st.Row(), st.Label(), st.Line(), ds.Row(i), ds.Labels[i])
		}
	}
	if _, err := OpenStream(ip, CSVOptions{Schema: numeric(9)}); err == nil || !strings.Contains(err.Error(), "images have 4 pixels; the model wants 9 features") {
		t.Errorf("feature count: %v", err)
	}
	ip = writeIDX(t, dir, [][]byte{{0, 1, 2, 3}, {4, 5, 6, 7}}, 2, 2, []byte{1})
	if _, err := OpenStream(ip, CSVOptions{}); err == nil || !strings.Contains(err.Error(), "has 1 labels but") {
		t.Errorf("length mismatch: %v", err)
	}
	var b bytes.Buffer
	binary.Write(&b, binary.BigEndian, []uint32{idxImages, 5, 2, 2})
	b.Write([]byte{1, 2, 3, 4, 5, 6})
	os.WriteFile(ip, gz(b.Bytes()), 0o644)
	var l bytes.Buffer
	binary.Write(&l, binary.BigEndian, []uint32{idxLabels, 5})
	l.Write([]byte{1, 2, 3, 4, 5})
	os.WriteFile(filepath.Join(dir, "x-labels-idx1-ubyte.gz"), gz(l.Bytes()), 0o644)
	st, err = OpenStream(ip, CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if ok, err := st.Next(); !ok || err != nil {
		t.Fatalf("first image: %v %v", ok, err)
	}
	if _, err := st.Next(); err == nil || !strings.Contains(err.Error(), "image 2 of 5 is cut short") {
		t.Errorf("truncated: %v", err)
	}
}

// TestSeparators: a file whose first line holds semicolons, tabs or
// vertical bars and no comma, and whose next lines hold as many, is read
// with that separator; with semicolons, decimal commas are points. The
// same file read for a model gives the same rows.
func TestSeparators(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		sep        rune
		x          []float64
	}{
		{"semicolons", "a;b;y\n1,5;2;x\n-0,25;\"3\";z\n,5;1,5e1;x\n", ';', []float64{1.5, 2, -0.25, 3, 0.5, 15}},
		{"tabs, empty fields", "a\tb\ty\n1\t\tx\n2\t3\tz\n4\t5\tx\n", '\t', []float64{1, 4, 1, 2, 3, 0, 4, 5, 0}},
		{"vertical bars", "a|b|y\n1|2|x\n3|4|z\n", '|', []float64{1, 2, 3, 4}},
		{"commas", "a,b,y\n1,2,x\n3,4;5,z\n", ',', nil},
		{"quoted separators", "\"a,1\";b;y\n1;2;x\n3;4;z\n", ';', []float64{1, 2, 3, 4}},
		{"carriage returns", "a;b;y\r1;2;x\r3;4;z\r", ';', []float64{1, 2, 3, 4}},
		{"a comma in a name", "a,b;c;y\n1;2;x\n3;4;z\n", ';', []float64{1, 2, 3, 4}},
		{"tabs, commas in values", "age\tCity, Country\ty\n7\tBerlin, DE\tx\n8\tParis, FR\tz\n", '\t', nil},
		{"a line break between quotes", "a;note;y\n1,5;\"two\nlines\";x\n2;one;z\n", ';', nil},
		{"Excel's sep= line", "sep=;\r\na;b;y\r\n1,5;2;x\r\n3;4;z\r\n", ';', []float64{1.5, 2, 3, 4}},
		{"a quoted sep= line naming tabs", "\"SEP=\t\"\na;b\tc\ty\n1\t2\tx\n3\t4\tz\n", '\t', []float64{1, 2, 3, 4}},
		{"a sep= line naming commas", "sep=,\na;b,c,y\n1,2,x\n3,4,z\n", ',', []float64{1, 2, 3, 4}},
		// Two separators split every line evenly: the one that reads more
		// numbers wins, then the one that makes more fields.
		{"semicolons in a text column", "1.3,a;c;a;d;d,1.4,Y\n-1,b;a;d;a;d,0.2,N\n-1.5,a;d;c;b;e,0.7,N\n", ',', nil},
		{"decimal commas, no header", "6,23;7,42;N\n5,5;2,25;Y\n", ';', []float64{6.23, 7.42, 5.5, 2.25}},
		{"text only, more semicolons", "a;b;c;d,x,Y\nd;e;f;g,y,N\n", ';', nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds, err := read(t, tc.text, CSVOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if ds.Separator != tc.sep || tc.x != nil && !reflect.DeepEqual(ds.X, tc.x) {
				t.Errorf("separator %q, rows %v; want %q, %v", ds.Separator, ds.X, tc.sep, tc.x)
			}
			again, err := read(t, tc.text, CSVOptions{Schema: ds.Schema, Named: true})
			if err != nil || !reflect.DeepEqual(again.X, ds.X) {
				t.Errorf("read for the model: %v, rows %v", err, again.X)
			}
		})
	}
}

// TestSeparatorGiven: a separator given (--sep) is the one read, the
// schema records it and a file read for the model is read with it.
func TestSeparatorGiven(t *testing.T) {
	const text = "a;c;a;d;d,x,Y\nb;a;d;a;d,y,N\na;d;c;b;e,x,N\ne;e;b;a;c,y,Y\n" // no numbers: the most fields win
	found, err := read(t, text, CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if found.Separator != ';' || found.Schema.Separator != 0 {
		t.Errorf("found: separator %q, recorded %q; want ';', none", found.Separator, found.Schema.Separator)
	}
	ds, err := read(t, text, CSVOptions{Separator: ','})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Separator != ',' || ds.Schema.Separator != ',' || ds.Features != 4+2 {
		t.Errorf("given: separator %q, recorded %q, %d features; want ',', ',', 6", ds.Separator, ds.Schema.Separator, ds.Features)
	}
	again, err := read(t, text, CSVOptions{Schema: ds.Schema})
	if err != nil || !reflect.DeepEqual(again.X, ds.X) {
		t.Errorf("read for the model: %v, rows %v, want %v", err, again, ds.X)
	}
	// A flag given to predict wins over the model's.
	if _, err := read(t, strings.ReplaceAll(text, ",", "|"), CSVOptions{Schema: ds.Schema, Separator: '|'}); err != nil {
		t.Errorf("read for the model with its separator given: %v", err)
	}
	// A model's separator: a file of another says so, and a first line
	// naming another wins over it.
	commas, err := read(t, "a,b,y\n1,2,x\n3,4,z\n", CSVOptions{Separator: ','})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := read(t, "a|b|y\n1|2|x\n", CSVOptions{Schema: commas.Schema, Named: true}); err == nil || !strings.HasSuffix(err.Error(), "; the file looks separated by vertical bars, not the commas the model (train --sep) gives: give --sep '|'") {
		t.Errorf("a file of bars for a model of commas: %v", err)
	}
	if again, err := read(t, "sep=|\na|b|y\n1|2|x\n3|4|z\n", CSVOptions{Schema: commas.Schema, Named: true}); err != nil || !reflect.DeepEqual(again.X, commas.X) {
		t.Errorf("a sep= line for a model of another separator: %v", err)
	}
	if _, err := read(t, "sep=;\n"+text, CSVOptions{Separator: ','}); err == nil || err.Error() != "t.csv: line 1 names the separator (sep=;), but --sep gives ,; remove the line, or give --sep ';'" {
		t.Errorf("a sep= line naming another: %v", err)
	}
	if _, err := read(t, "a;b;y\n1;2;x\n3;4;z\n", CSVOptions{Separator: ','}); err == nil || !strings.HasSuffix(err.Error(), "; the file looks separated by semicolons, not the commas --sep gives: give --sep ';'") {
		t.Errorf("semicolons read with --sep ,: %v", err)
	}
	for v, want := range map[string]rune{",": ',', ";": ';', "\t": '\t', `\t`: '\t', "TAB": '\t', "|": '|', "pipe": '|', "semicolon": ';'} {
		if got, err := ParseSeparator(v); got != want || err != nil {
			t.Errorf("ParseSeparator(%q) = %q, %v; want %q", v, got, err, want)
		}
		if back, _ := ParseSeparator(strings.Trim(SepFlag(want), "'")); back != want {
			t.Errorf("SepFlag(%q) = %s, which reads back as %q", want, SepFlag(want), back)
		}
	}
	if _, err := ParseSeparator(":"); err == nil || err.Error() != `":" is not a separator songc reads: give , ';' '|' or tab (a shell needs the quotes around ; and |)` {
		t.Errorf("ParseSeparator(\":\"): %v", err)
	}
}

// TestSepLineNumbers: a file's lines keep their numbers when its first
// line names the separator.
func TestSepLineNumbers(t *testing.T) {
	for _, text := range []string{"sep=;\na;y\n1;x\n2;3;z\n", "sep=;\ra;y\r1;x\r2;3;z\r", "sep=;\r\na;y\r\n1;x\r\n2;3;z\r\n"} {
		if _, err := read(t, text, CSVOptions{}); err == nil || !strings.Contains(err.Error(), "t.csv:4:") {
			t.Errorf("%q: %v, want an error at line 4", text, err)
		}
	}
}

// TestDecimalPoint: only a number written with one decimal comma changes.
func TestDecimalPoint(t *testing.T) {
	for f, want := range map[string]string{
		"3,14": "3.14", " -0,5 ": "-0.5", ",5": ".5", "5,": "5.", "1,5e-3": "1.5e-3", "+2,0E4": "+2.0E4",
		"1,234,5": "", "1.5": "", "a,b": "", ",": "", "--1,5": "", "1,5e": "", "0x1,5": "", "1,5e3e4": "", "": "",
	} {
		got, ok := decimalPoint(f)
		if want == "" && (ok || got != f) || want != "" && (!ok || got != want) {
			t.Errorf("decimalPoint(%q) = %q, %v; want %q", f, got, ok, want)
		}
	}
}

type unseenRow []int

func (r unseenRow) UnseenColumns() []int { return r }

// TestUnseenTally: rows are counted once however many of their columns
// hold an unseen value, columns by rows, most first, three by name.
func TestUnseenTally(t *testing.T) {
	s := &runtime.Schema{Inputs: []runtime.Input{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}, {Name: "e"}}}
	var u UnseenTally
	for _, r := range []unseenRow{nil, {1, 3}, {3}, {0, 3, 4}, {1}, {2}} {
		u.Add(r)
	}
	if got, want := u.Columns(s), `"d" in 3 rows, "b" in 2, "a" in 1 and 2 more columns`; u.Rows != 5 || got != want {
		t.Errorf("%d rows, %s; want 5, %s", u.Rows, got, want)
	}
	// Counts of one are singular.
	u = UnseenTally{}
	for _, r := range []unseenRow{{0}, {1}, {2}, {3}} {
		u.Add(r)
	}
	if got, want := u.Columns(s), `"a" in 1 row, "b" in 1, "c" in 1 and 1 more column`; got != want {
		t.Errorf("%s; want %s", got, want)
	}
}

// TestSeparating: a numeric column whose classes each hold an interval of
// their own, or a categorical one whose few values each belong to one
// class, is named; one with a tie across classes, a missing value, too
// many values, or a class in two intervals is not, nor an identifier
// (warned of already), nor any when a class has fewer than
// MinSeparatingClass rows. A column the header leaves unnamed is named
// for --ignore by its place in the file.
func TestSeparating(t *testing.T) {
	var b strings.Builder
	b.WriteString("y,step,tie,gap,code,many,noise,row_id,\n")
	n := 33
	for i := range n {
		class := []string{"a", "b", "c"}[3*i/n]
		tie, gap := fmt.Sprint(i), fmt.Sprint(i)
		if i == n/3 {
			tie = fmt.Sprint(i - 1) // the same value as the row before, of the other class
		}
		if i == n-1 {
			gap = "NA"
		}
		fmt.Fprintf(&b, "%s,%d,%s,%s,k%s,v%d,%d,%d,%d\n", class, n-i, tie, gap, class, i, (i*7)%5, i, 2*i)
	}
	ds, err := read(t, b.String(), CSVOptions{LabelCol: "y"})
	if want := []NamedColumn{{"step", "step"}, {"code", "code"}, {"x8", "x9"}}; err != nil || !reflect.DeepEqual(ds.Separating, want) {
		t.Errorf("%v: separating %+v, want %+v", err, ds.Separating, want)
	}
	if ds, err = read(t, b.String(), CSVOptions{LabelCol: "y", Ignore: []string{"x9"}}); err != nil || len(ds.Separating) != 2 {
		t.Errorf("--ignore x9: %v, separating %+v", err, ds.Separating)
	}
	few := strings.Replace(b.String(), "\nc,", "\nd,", MinSeparatingClass-1) // a class d of 4 rows
	if ds, err = read(t, few, CSVOptions{LabelCol: "y"}); err != nil || ds.Separating != nil {
		t.Errorf("a class of %d rows: %v, separating %+v", MinSeparatingClass-1, err, ds.Separating)
	}
}

func TestTwins(t *testing.T) {
	for _, c := range []struct {
		levels []string
		want   [][]string
	}{
		{[]string{"no", "yes"}, nil},
		{[]string{"N", "Y"}, nil},
		{[]string{"Yes", "no", "yes"}, [][]string{{"Yes", "yes"}}},
		{[]string{"FALSE", "No", "TRUE", "Yes", "f", "red", "y"}, [][]string{{"FALSE", "No"}, {"TRUE", "Yes"}}},
		{[]string{"F", "N", "Red", "T", "Y", "blue", "red", "t"}, [][]string{{"Red", "red"}, {"T", "t"}}},
	} {
		if got := Twins(c.levels); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Twins(%q) = %q, want %q", c.levels, got, c.want)
		}
	}
}

// TestRepeatsShared: rows repeat when their features and label are the
// same; a file read for another's schema shares the rows they both hold.
func TestRepeatsShared(t *testing.T) {
	train, err := read(t, "a,b,y\n1,2,p\n1,2,p\n1,2,q\n3,4,p\n1,2,p\n", CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := train.Repeats(); n != 2 {
		t.Errorf("Repeats = %d, want 2 (lines 3 and 6)", n)
	}
	test, err := read(t, "b,a,y\n2,1,p\n4,3,q\n2,1,q\n5,5,p\n2,1,p\n", CSVOptions{Schema: train.Schema, Named: true})
	if err != nil {
		t.Fatal(err)
	}
	if n := test.Shared(train); n != 3 {
		t.Errorf("Shared = %d, want 3 (lines 2, 4 and 6)", n)
	}
}

// TestWrittenWith: the mark a column's values that are not plain numbers
// write numbers with, when they all share it (writtenWith, folded over
// them by marking).
func TestWrittenWith(t *testing.T) {
	for _, c := range []struct {
		values []string
		want   string
	}{
		{[]string{"$9.01", "$62.56", "$1,208.50"}, "$"},
		{[]string{"12 %", "3%"}, "%"},
		{[]string{"3€", "4,5€"}, ""}, // a decimal comma is not a number here
		{[]string{"3€", "4.5€"}, "€"},
		{[]string{"(80.19)", "(3)"}, parentheses},
		{[]string{"$9.01", "(3)"}, ""},
		{[]string{"$9.01", "unknown"}, ""},
		{[]string{"(a)"}, ""},
		{[]string{"$"}, ""},
		{nil, ""},
	} {
		got := "" // the column's mark after its words, as table.count keeps it
		for _, v := range c.values {
			got = marking(got, v)
		}
		if got == noMark {
			got = ""
		}
		if got != c.want {
			t.Errorf("the mark of %q = %q, want %q", c.values, got, c.want)
		}
	}
}
