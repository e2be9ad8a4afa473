package data

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/songc/songc/runtime"
)

// TestInferSchema: a training file's header names its columns; a column
// with a word is categorical, its levels sorted; a column with a missing
// field gets a missing-value feature; a numeric column's fill is the median
// of its values, written where the field is missing.
func TestInferSchema(t *testing.T) {
	text := "age,color,size,y\n30,red,1.5,a\n,blue,2.5,b\n40,,NA,a\n50,red,3.5,b\n"
	ds, err := read(t, text, CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := &runtime.Schema{Label: "y", Missing: runtime.DefaultMissing, Inputs: []runtime.Input{
		{Name: "age", Kind: runtime.Numeric, Fill: 40, MissingFeature: true},
		{Name: "color", Kind: runtime.Categorical, Levels: []string{"blue", "red"}, Encoding: runtime.OneHot, MissingFeature: true},
		{Name: "size", Kind: runtime.Numeric, Fill: 2.5, MissingFeature: true},
	}}
	if !reflect.DeepEqual(ds.Schema, want) || !ds.Header {
		t.Errorf("schema %+v (header %v), want %+v", ds.Schema, ds.Header, want)
	}
	x := []float64{
		30, 0, 0, 1, 0, 1.5, 0,
		40, 1, 1, 0, 0, 2.5, 0,
		40, 0, 0, 0, 1, 2.5, 1,
		50, 0, 0, 1, 0, 3.5, 0,
	}
	if ds.Features != 7 || !reflect.DeepEqual(ds.X, x) {
		t.Errorf("%d features, rows %v, want 7, %v", ds.Features, ds.X, x)
	}
	if got := ds.Schema.FeatureNames(); !reflect.DeepEqual(got, []string{"age", "age=(missing)", "color=blue", "color=red", "color=(missing)", "size", "size=(missing)"}) {
		t.Errorf("feature names %q", got)
	}

	// A file read for the model: matched by name in another order, an
	// unseen category counted and encoded as none.
	path := filepath.Join(t.TempDir(), "test.csv")
	os.WriteFile(path, []byte("size,y,color,age\n9,a,green,1\n?,b,blue,2\n"), 0o644)
	for _, open := range []string{"Open", "OpenStream"} {
		opt := CSVOptions{Schema: ds.Schema, Named: true}
		var rows []float64
		var unseen int
		var reordered bool
		if open == "Open" {
			ts, err := Open(path, opt)
			if err != nil {
				t.Fatal(err)
			}
			rows, unseen, reordered = ts.X, ts.Unseen.Rows, ts.Reordered
		} else {
			st, err := OpenStream(path, opt)
			if err != nil {
				t.Fatal(err)
			}
			for {
				ok, err := st.Next()
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					break
				}
				rows = append(rows, st.Row()...)
				if len(st.UnseenColumns()) > 0 {
					unseen++
				}
				reordered = st.Reordered()
			}
			st.Close()
		}
		want := []float64{1, 0, 0, 0, 0, 9, 0, 2, 0, 1, 0, 0, 2.5, 1}
		if !reflect.DeepEqual(rows, want) || unseen != 1 || !reordered {
			t.Errorf("%s: rows %v, %d unseen, reordered %v; want %v, 1, true", open, rows, unseen, reordered, want)
		}
	}
}

// TestHeaderRule: which first rows are headers when the file does not say.
func TestHeaderRule(t *testing.T) {
	for _, tc := range []struct {
		text   string
		header bool
		names  []string
	}{
		{"f1,f2,y\n1,2,b\n3,4,a\n", true, []string{"f1", "f2"}},
		{"color,shape,y\nred,round,a\nblue,square,b\n", true, []string{"color", "shape"}},
		{"red,round,a\nblue,square,b\nred,square,a\n", false, []string{"x1", "x2"}},
		{"1,2,a\n3,4,b\n", false, []string{"x1", "x2"}},
		{"n,1,a\ny,2,b\n", false, []string{"x1", "x2"}},
	} {
		ds, err := read(t, tc.text, CSVOptions{})
		if err != nil {
			t.Fatalf("%q: %v", tc.text, err)
		}
		if ds.Header != tc.header || !reflect.DeepEqual(ds.Schema.Names(), tc.names) {
			t.Errorf("%q: header %v, names %q; want %v, %q", tc.text, ds.Header, ds.Schema.Names(), tc.header, tc.names)
		}
	}
}

// TestForcedKinds: --categorical reads numbers as levels; --numeric makes a
// word an error; --label-col finds the label by name anywhere.
func TestForcedKinds(t *testing.T) {
	ds, err := read(t, "zip,y,n\n1000,a,1\n2000,b,2\n1000,a,3\n", CSVOptions{Categorical: []string{"zip"}, LabelCol: "y"})
	if err != nil {
		t.Fatal(err)
	}
	in := ds.Schema.Inputs
	if len(in) != 2 || in[0].Kind != runtime.Categorical || !reflect.DeepEqual(in[0].Levels, []string{"1000", "2000"}) || in[1].Name != "n" || ds.Schema.Label != "y" {
		t.Errorf("schema %+v", ds.Schema)
	}
	if !reflect.DeepEqual(ds.Labels, []string{"a", "b", "a"}) {
		t.Errorf("labels %q", ds.Labels)
	}
}

// TestNameErrors: a file for a named model lacking its columns or holding
// others is refused, naming them.
func TestNameErrors(t *testing.T) {
	ds, err := read(t, "a,b,y\n1,2,p\n3,4,q\n", CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ text, want string }{
		{"a,c,y\n1,2,p\n", `t.csv:1: the header lacks the model's column(s) "b" and has column(s) the model does not know: "c"`},
		{"a,y\n1,p\n", `t.csv:1: the header lacks the model's column(s) "b"; where a row's value is unknown, give the column with an empty field, which reads as missing`},
		{"A,b,y\n1,2,p\n", `t.csv:1: the header lacks the model's column(s) "a" and has column(s) the model does not know: "A"; names are case-sensitive, and the header writes "A" where the model has "a": write them as the model does`},
		{"a,b,Y\n1,2,p\n", `t.csv:1: the header has column(s) the model does not know: "Y" (the model reads "a", "b"; the label column is "y", which this header lacks); names are case-sensitive, and the header writes "Y" where the model has "y": write them as the model does`},
		{"a,b,z\n1,2,p\n", `t.csv:1: the header has column(s) the model does not know: "z" (the model reads "a", "b"; the label column is "y", which this header lacks): if "z" is the label, pass --label-col "z"; else leave it out with --ignore "z"`},
		{"a,b,z,w\n1,2,p,q\n", `t.csv:1: the header has column(s) the model does not know: "z", "w" (the model reads "a", "b"; the label column is "y", which this header lacks): if one of them is the label, name it with --label-col; leave the others out with --ignore`},
		{"a,b,y,a\n1,2,p,3\n", `t.csv:1: columns 1 and 4 are both named "a"; names must be distinct, as the model finds its columns by name: rename one in the header`},
		// A header of data, one row (two would be told apart by their kinds).
		{"p,1, 2.5\n", `t.csv:1: the header lacks the model's column(s) "a", "b" and has column(s) the model does not know: "p", "1", "2.5"; it holds numbers ("1", "2.5"), as a row of data does: a file without a header must give the model's columns in its order ("a", "b"), and --header no reads them so`},
		{"p,q, 2.5\n", `; it holds a number ("2.5"), as a row of data does`},
		// Words a float parser takes for numbers are names to songc, as
		// in a row of data.
		{"inf,NaN, 2.5\n", `; it holds a number ("2.5"), as a row of data does`},
	} {
		_, err := ReadCSV(strings.NewReader(tc.text), "t.csv", CSVOptions{Schema: ds.Schema, Named: true})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.text, err, tc.want)
		}
	}
	// No field a number, no such hint.
	if _, err := ReadCSV(strings.NewReader("c,d,y\n1,2,p\n"), "t.csv", CSVOptions{Schema: ds.Schema, Named: true}); err == nil || !strings.HasSuffix(err.Error(), `does not know: "c", "d"`) {
		t.Errorf("a header of names: error %v", err)
	}
	// --label-col naming another column: the model's own label is then
	// unknown, and the error says which label the model had; naming a
	// column the header lacks is an error, also where labels may be absent;
	// each error is whole (no hint after it unless want has one).
	for _, tc := range []struct{ text, label, want string }{
		{"a,b,y,w\n1,2,p,q\n", "w", `t.csv:1: --label-col "w" makes that column the label, so the model's own label column, "y", is one it does not read: drop --label-col to read "y" as the label, or leave it out with --ignore "y"`},
		{"a,b,y,w,v\n1,2,p,q,r\n", "w", `t.csv:1: the header has column(s) the model does not know: "y", "v" (the model reads "a", "b"; the label column is "w" here, where the model's was "y": drop --label-col, or pass --label-col "y")`},
		// An input named as the label: the model's label is then unknown.
		{"a,b,y\n1,2,p\n", "a", `t.csv:1: the header has column(s) the model does not know: "y" (the model reads "a", "b"; the label column is "a" here, where the model's was "y": drop --label-col, or pass --label-col "y")`},
		// Two columns named like the label, no --label-col: the second is
		// unknown, and no flag is blamed.
		{"a,b,y,y\n1,2,p,q\n", "", `t.csv:1: the header has column(s) the model does not know: "y" (the model reads "a", "b"; the label column is "y"): leave it out with --ignore "y"`},
		{"a,b,y\n1,2,p\n", "yy", `t.csv:1: --label-col "yy": the header has no such column (it has "a", "b", "y"); did you mean "y"?`},
		{"a,b\n1,2\n", "z", `t.csv:1: --label-col "z": the header has no such column (it has "a", "b")`},
	} {
		if _, err := ReadCSV(strings.NewReader(tc.text), "t.csv", CSVOptions{Schema: ds.Schema, Named: true, LabelCol: tc.label}); err == nil || err.Error() != tc.want {
			t.Errorf("%q --label-col %s: error %v, want %q", tc.text, tc.label, err, tc.want)
		}
	}
	// --label-col first or N placing the label on an input is an error;
	// placing it where the label's name is, is not.
	for _, tc := range []struct{ spec, want string }{
		{"first", `t.csv:1: --label-col first names column 1 ("a"), but the label is the column named "y" (column 3 here): pass --label-col "y", which names it wherever it stands`},
		{"2", `--label-col 2 names column 2 ("b")`},
		{"3", ""},
		// A column number the header lacks is refused, as train refuses it.
		{"9", `t.csv:1: --label-col: label column 9: rows have only 3 columns`},
		{"0", `t.csv:1: --label-col: label column "0": want last, first`},
	} {
		_, err := ReadCSV(strings.NewReader("a,b,y\n1,2,p\n"), "t.csv", CSVOptions{Schema: ds.Schema, Named: true, LabelCol: tc.spec})
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("--label-col %s: error %v, want %q", tc.spec, err, tc.want)
		}
	}
	// Positional without a header: the label is where it was.
	ts, err := ReadCSV(strings.NewReader("5,6,q\n"), "t.csv", CSVOptions{Schema: ds.Schema, Named: true})
	if err != nil || !reflect.DeepEqual(ts.X, []float64{5, 6}) || ts.Labels[0] != "q" {
		t.Errorf("headerless: %v %+v", err, ts)
	}
}

// TestLabelAt: a model whose training file did not hold its label last
// records where it was, and a file read by position (no header) finds the
// label there, unless --label-col says otherwise; with the label last,
// nothing is recorded.
func TestLabelAt(t *testing.T) {
	for _, tc := range []struct {
		train string
		opt   CSVOptions
		at    int
	}{
		{"a,y,b\n1,p,2\n3,q,4\n", CSVOptions{LabelCol: "y"}, 2},
		{"y,a,b\n p,1,2\nq,3,4\n", CSVOptions{LabelCol: "first"}, 1},
		{"p,1,2\nq,3,4\n", CSVOptions{LabelCol: "first"}, 1}, // no header
		{"x,a,y,b\n0,1,p,2\n0,3,q,4\n", CSVOptions{LabelCol: "y", Ignore: []string{"x"}}, 2},
		{"a,b,y\n1,2,p\n3,4,q\n", CSVOptions{}, 0},
	} {
		ds, err := read(t, tc.train, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		if ds.Schema.LabelAt != tc.at {
			t.Errorf("%q: LabelAt %d, want %d", tc.train, ds.Schema.LabelAt, tc.at)
			continue
		}
		row := []string{"5", "6"}
		row = slices.Insert(row, max(0, tc.at-1)+2*btoi(tc.at == 0), "q")
		ts, err := ReadCSV(strings.NewReader(strings.Join(row, ",")+"\n"), "t.csv", CSVOptions{Schema: ds.Schema, Named: ds.Header})
		if err != nil || !reflect.DeepEqual(ts.X, []float64{5, 6}) || ts.Labels[0] != "q" {
			t.Errorf("%q, then %v without a header: %v %+v", tc.train, row, err, ts)
		}
		// An explicit --label-col wins over the recorded place.
		if tc.at == 1 {
			ts, err := ReadCSV(strings.NewReader("5,6,q\n"), "t.csv", CSVOptions{Schema: ds.Schema, Named: ds.Header, LabelCol: "last"})
			if err != nil || !reflect.DeepEqual(ts.X, []float64{5, 6}) || ts.Labels[0] != "q" {
				t.Errorf("%q, then --label-col last: %v %+v", tc.train, err, ts)
			}
		}
	}
}

// TestTooManyLevels: word columns with more distinct values than
// MaxLevels are refused, every one named, with the --ignore that leaves
// them out.
func TestTooManyLevels(t *testing.T) {
	var b strings.Builder
	b.WriteString("id,a,note,y\n")
	for i := range MaxLevels + 1 {
		id := "u" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + strings.Repeat("z", i/26)
		fmt.Fprintf(&b, "%s,%d,n%s,a\n", id, i%3, id)
	}
	b.WriteString("1,2,3,b\n")
	_, err := read(t, b.String(), CSVOptions{})
	if err == nil || !strings.Contains(err.Error(), `columns 1 ("id"), 3 ("note") have more than 1000 distinct values`) || !strings.Contains(err.Error(), `--ignore "id,note"`) {
		t.Errorf("error %v", err)
	}
	// An unnamed column is named for --ignore by its place in the file,
	// and the columns already ignored stay in the flag.
	var u strings.Builder
	u.WriteString("y,id,,note\n")
	for i := range MaxLevels + 1 {
		fmt.Fprintf(&u, "%c,i%d,u%d,n%d\n", "pq"[i%2], i, i, i)
	}
	_, err = read(t, u.String(), CSVOptions{LabelCol: "first", Ignore: []string{"note"}})
	if err == nil || !strings.Contains(err.Error(), `--ignore "note,id,x3"`) {
		t.Errorf("an unnamed column after the label: error %v", err)
	}
	text := b.String()[strings.IndexByte(b.String(), '\n')+1:] // no header
	_, err = read(t, text, CSVOptions{})
	if err == nil || !strings.Contains(err.Error(), `columns 1 ("x1"), 3 ("x3") have more than 1000`) || !strings.Contains(err.Error(), "out of the file (--ignore needs a header)") {
		t.Errorf("no header: error %v", err)
	}
	// A column of numbers but for a placeholder: the error says which
	// values are not numbers, and how to list them as missing.
	var m strings.Builder
	m.WriteString("income,y\n")
	for i := range MaxLevels + 20 {
		v := fmt.Sprint(i * 13)
		if i%60 == 7 {
			v = "-"
		}
		fmt.Fprintf(&m, "%s,%c\n", v, "pq"[i%2])
	}
	_, err = read(t, m.String(), CSVOptions{})
	if err == nil || !strings.Contains(err.Error(), `. Column "income" holds numbers but for 17 values ("-"): if they mean missing, list them (--missing "NA,N/A,n/a,?,NaN,nan,-nan,NULL,null,None,<NA>,#N/A,-")`) {
		t.Errorf("numbers and a placeholder: error %v", err)
	}
	// A column of time stamps: the error says to write them as numbers.
	var d strings.Builder
	d.WriteString("at,y\n")
	for i := range MaxLevels + 1 {
		fmt.Fprintf(&d, "2024-%02d-%02dT%02d:%02d:00,%c\n", 1+i%12, 1+i%28, i%24, i/24, "pq"[i%2])
	}
	_, err = read(t, d.String(), CSVOptions{})
	if err == nil || !strings.Contains(err.Error(), `. Column "at" seems to hold dates (like "2024-01-01T00:00:00"): write them as numbers first`) {
		t.Errorf("time stamps: error %v", err)
	}
}

// TestUnnamedColumn: a header field left empty (pandas' to_csv writes its
// index column so) names its column x1, x2, ... by its place among the
// inputs, in the training file and in a file read for the model.
func TestUnnamedColumn(t *testing.T) {
	ds, err := read(t, ",a,y\n0,1.5,x\n1,2.5,z\n2,3.5,x\n", CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := ds.Schema.Names(); !reflect.DeepEqual(got, []string{"x1", "a"}) || ds.Rows != 3 {
		t.Fatalf("names %q, %d rows; want x1, a and 3 rows", got, ds.Rows)
	}
	// The label first, then the unnamed column: still the first input. (A
	// name by place cannot follow its column elsewhere.)
	for _, text := range []string{",a,y\n7,9.5,z\n", "y,,a\nz,7,9.5\n"} {
		ts, err := ReadCSV(strings.NewReader(text), "t.csv", CSVOptions{Schema: ds.Schema, Named: true})
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if !reflect.DeepEqual(ts.X, []float64{7, 9.5}) || !reflect.DeepEqual(ts.Labels, []string{"z"}) {
			t.Errorf("%q: rows %v, labels %q; want [7 9.5] and z", text, ts.X, ts.Labels)
		}
	}
}

// TestUnnamedLabel: a training header that leaves the label column's name
// empty reads (the label is "class"), and so does a file for the model
// with that header, or with the label named, or without the label column.
func TestUnnamedLabel(t *testing.T) {
	ds, err := read(t, "a,b,\n1,2,x\n3,4,z\n", CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := ds.Schema.Names(); !reflect.DeepEqual(got, []string{"a", "b"}) || ds.Schema.Label != "class" || !reflect.DeepEqual(ds.Labels, []string{"x", "z"}) {
		t.Fatalf("names %q, label %q, labels %q; want a, b, class, x z", got, ds.Schema.Label, ds.Labels)
	}
	for _, text := range []string{"a,b,\n5,6,z\n", "b,a,class\n6,5,z\n", "a,b\n5,6\n"} {
		ts, err := ReadCSV(strings.NewReader(text), "t.csv", CSVOptions{Schema: ds.Schema, Named: true})
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if !reflect.DeepEqual(ts.X, []float64{5, 6}) || (strings.Count(text, ",") > 2 && !reflect.DeepEqual(ts.Labels, []string{"z"})) {
			t.Errorf("%q: rows %v, labels %q; want [5 6] and z", text, ts.X, ts.Labels)
		}
	}
}

// TestNumberedFirstRow: a first row that numbers the columns is a header
// when its label is no other row's (pandas' header of unnamed columns);
// otherwise it is read as data (it may be) and reported. Other rows of
// numbers are neither.
func TestNumberedFirstRow(t *testing.T) {
	for text, want := range map[string][2]bool{ // header, reported
		"0,1,2\n1.5,2.5,0\n3.5,4.5,1\n":      {true, false},
		",0,1,2\n0,1.5,2.5,0\n1,3.5,4.5,1\n": {true, false},
		"1,2,3\n1.5,2.5,0\n3.5,4.5,1\n":      {true, false},
		"0,1,2\n1.5,2.5,2\n3.5,4.5,1\n":      {false, true},
		"1,2,3\n1.5,2.5,0\n3.5,4.5,3\n":      {false, true},
		"0,2,1\n1.5,2.5,0\n3.5,4.5,1\n":      {false, false},
		"a,b,y\n1.5,2.5,0\n3.5,4.5,1\n":      {true, false},
	} {
		ds, err := read(t, text, CSVOptions{})
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if got := [2]bool{ds.Header, ds.NumberedFirstRow}; got != want {
			t.Errorf("%q: header, reported %v, want %v", text, got, want)
		}
	}
	ds, err := read(t, "0,1,2\n1.5,2.5,0\n3.5,4.5,1\n", CSVOptions{Header: HeaderNo})
	if err != nil || ds.NumberedFirstRow {
		t.Errorf("--header no: NumberedFirstRow %v (%v), want false", ds.NumberedFirstRow, err)
	}
}

// TestIdentifiers: a named column of distinct whole numbers whose name
// reads as an identifier is reported, wherever it is; one with another
// name, a repeated value or a fraction is not, nor is the unnamed first
// column TestIndexColumn reports.
func TestIdentifiers(t *testing.T) {
	for text, want := range map[string]string{
		"a,customer_id,y\n1.5,100,x\n2.5,7,z\n3.5,31,x\n": "customer_id",
		"ID,a,y\n3,1.5,x\n1,2.5,z\n2,3.5,x\n":             "ID",
		"OrderId,y\n3,x\n1,z\n2,x\n":                      "OrderId",
		"paid,y\n3,x\n1,z\n2,x\n":                         "",
		"id,y\n3,x\n3,z\n2,x\n":                           "",
		"id,y\n3,x\n1.5,z\n2,x\n":                         "",
		",a,y\n7,1.5,x\n0,2.5,z\n3,3.5,x\n":               "",
	} {
		ds, err := read(t, text, CSVOptions{})
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if got := strings.Join(ds.Identifiers, ","); got != want {
			t.Errorf("%q: Identifiers %q, want %q", text, got, want)
		}
	}
	for name, want := range map[string]bool{
		"id": true, "Id": true, "ID": true, "index": true, "row": true, "user id": true, "user-id": true, "user.id": true,
		"customerID": true, "PassengerId": true, "UUID": false, "paid": false, "valid": false, "citric_acid": false,
		"query hypothyroid": false, "el-salvador-aid": false, "idea": false, "Identity": false,
	} {
		if got := identifierName(name); got != want {
			t.Errorf("identifierName(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestIndexColumn: an unnamed first column of distinct whole numbers, as
// pandas' to_csv writes its row index, is reported; a named one, or one
// with a repeated, negative or fractional value, is not. A file read for a
// model that lacks the unnamed column is refused with a hint to drop it.
func TestIndexColumn(t *testing.T) {
	for text, want := range map[string]bool{
		",a,y\n7,1.5,x\n0,2.5,z\n3,3.5,x\n":   true,
		"i,a,y\n7,1.5,x\n0,2.5,z\n3,3.5,x\n":  false,
		",a,y\n7,1.5,x\n7,2.5,z\n3,3.5,x\n":   false,
		",a,y\n7,1.5,x\n-1,2.5,z\n3,3.5,x\n":  false,
		",a,y\n7,1.5,x\n0.5,2.5,z\n3,3.5,x\n": false,
	} {
		ds, err := read(t, text, CSVOptions{})
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if ds.IndexColumn != want {
			t.Errorf("%q: IndexColumn %v, want %v", text, ds.IndexColumn, want)
		}
	}
	// Not the file's first column once id is left out: --ignore x1 would
	// not name it.
	if ds, err := read(t, "id,,a,y\n1,7,1.5,x\n2,0,2.5,z\n3,3,3.5,x\n", CSVOptions{Ignore: []string{"id"}}); err != nil || ds.IndexColumn {
		t.Errorf("an unnamed second column: IndexColumn %v (%v), want false", ds != nil && ds.IndexColumn, err)
	}
	ds, err := read(t, "a,y\n1.5,x\n2.5,z\n", CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = ReadCSV(strings.NewReader(",a,y\n4,1.5,x\n"), "t.csv", CSVOptions{Schema: ds.Schema, Named: true})
	if err == nil || !strings.Contains(err.Error(), `has column(s) the model does not know: "x1"`) || !strings.Contains(err.Error(), "to_csv(index=False)") {
		t.Errorf("an unnamed column the model lacks: %v", err)
	}
	// The file's second column, once its first is left out: no pandas
	// index.
	_, err = ReadCSV(strings.NewReader("id,,a,y\n9,4,1.5,x\n"), "t.csv", CSVOptions{Schema: ds.Schema, Named: true, Ignore: []string{"id"}})
	if err == nil || !strings.Contains(err.Error(), `has column(s) the model does not know: "x2"`) || strings.Contains(err.Error(), "to_csv") {
		t.Errorf("an unnamed second column the model lacks: %v", err)
	}
	// Lines that end with separators: unnamed columns at the end.
	_, err = ReadCSV(strings.NewReader("a,y,,\n1.5,x,,\n"), "t.csv", CSVOptions{Schema: ds.Schema, Named: true})
	if err == nil || !strings.Contains(err.Error(), `has column(s) the model does not know: "x3", "x4"`) || !strings.Contains(err.Error(), "come from lines that end with a separator") || strings.Contains(err.Error(), "to_csv") {
		t.Errorf("unnamed columns at the end: %v", err)
	}
}

// TestByteOrderMark: the UTF-8 byte order mark that starts Excel's "CSV
// UTF-8" files is not part of the first column's name, quoted or not.
func TestByteOrderMark(t *testing.T) {
	for _, text := range []string{"\ufeff\"a\",\"y\"\n1,x\n2,z\n", "\ufeffa,y\n1,x\n2,z\n"} {
		ds, err := read(t, text, CSVOptions{})
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if got := ds.Schema.Names(); !reflect.DeepEqual(got, []string{"a"}) || ds.Rows != 2 {
			t.Errorf("%q: names %q, %d rows; want a and 2 rows", text, got, ds.Rows)
		}
		// A file for the model with or without the mark.
		for _, test := range []string{"\ufeffa,y\n3,x\n", "a,y\n3,x\n"} {
			if _, err := ReadCSV(strings.NewReader(test), "t.csv", CSVOptions{Schema: ds.Schema, Named: true}); err != nil {
				t.Errorf("%q: %v", test, err)
			}
		}
	}
}

// TestCarriageReturnLines: a file whose lines end in a carriage return
// alone (classic Mac OS) reads as the same file with newlines, its errors
// naming the same lines; carriage returns before newlines change nothing.
func TestCarriageReturnLines(t *testing.T) {
	lf := "\ufeffa,b,y\n1,2,x\n3,4,z\n5,6,x\n"
	want, err := read(t, lf, CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{strings.ReplaceAll(lf, "\n", "\r"), strings.ReplaceAll(lf, "\n", "\r\n"), strings.TrimSuffix(strings.ReplaceAll(lf, "\n", "\r"), "\r")} {
		ds, err := read(t, text, CSVOptions{})
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if !reflect.DeepEqual(ds.X, want.X) || !reflect.DeepEqual(ds.Labels, want.Labels) || !reflect.DeepEqual(ds.Line, want.Line) ||
			!reflect.DeepEqual(ds.Schema.Names(), want.Schema.Names()) {
			t.Errorf("%q: rows %v, labels %q, lines %v, names %q; want %v, %q, %v, %q", text, ds.X, ds.Labels, ds.Line, ds.Schema.Names(), want.X, want.Labels, want.Line, want.Schema.Names())
		}
	}
	_, err = read(t, "a,b,y\r1,2,x\r3,x\r", CSVOptions{})
	if err == nil || !strings.Contains(err.Error(), ":3") {
		t.Errorf("a short third line: %v; want an error naming line 3", err)
	}
}

// TestNotUTF8Position: the byte that is not UTF-8 is placed on its own
// line within a quoted field of several lines, and a header's is found
// before the header is matched to anything.
func TestNotUTF8Position(t *testing.T) {
	if _, err := read(t, "a,b,y\n1,\"l1\ncaf\xe9\",x\n", CSVOptions{}); err == nil || !strings.Contains(err.Error(), "t.csv:3:4: byte 0xE9 is not UTF-8 text") {
		t.Errorf("a field of two lines: %v", err)
	}
	// A field after one of several lines is on the line it starts on.
	if _, err := read(t, "a,b,c,y\n1,\"l1\nl2\nl3\",z\xe9,x\n", CSVOptions{}); err == nil || !strings.Contains(err.Error(), "t.csv:4:6: byte 0xE9 is not UTF-8 text") {
		t.Errorf("after a field of three lines: %v", err)
	}
	if _, err := read(t, "a,t,b,y\n1,\"x\ny\nz\",bad,P\n2,q,3,N\n", CSVOptions{Numeric: []string{"b"}}); err == nil || !strings.Contains(err.Error(), `t.csv:4:4: column 3 ("b"): "bad" is not a number`) {
		t.Errorf("a number after a field of three lines: %v", err)
	}
	if _, err := read(t, "a,b\xf6,y\n1,2,x\n", CSVOptions{Ignore: []string{"b\xf6"}}); err == nil || !strings.Contains(err.Error(), "t.csv:1:4: byte 0xF6") {
		t.Errorf("a header name: %v", err)
	}
}

// TestMissingLabels: rows whose label is empty or a missing token are left
// out of a training file and of a file read for the model, counted, with
// the first one's line and the first token that was a label; a file with
// no label at all is an error.
func TestMissingLabels(t *testing.T) {
	ds, err := read(t, "a,y\n1,\n2,x\n3,NA\n4,z\n5, ? \n", CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ds.Labels, []string{"x", "z"}) || !reflect.DeepEqual(ds.X, []float64{2, 4}) ||
		!reflect.DeepEqual(ds.Line, []int{3, 5}) || ds.NoLabel != (Unlabelled{Rows: 3, First: 2, Token: "NA"}) {
		t.Errorf("labels %q, rows %v, lines %v, %+v left out; want x z, [2 4], [3 5], 3 from line 2, the first token NA",
			ds.Labels, ds.X, ds.Line, ds.NoLabel)
	}
	ts, err := ReadCSV(strings.NewReader("a,y\n7,z\n8,\n"), "t.csv", CSVOptions{Schema: ds.Schema, Named: true})
	if err != nil || ts.Rows != 1 || ts.NoLabel != (Unlabelled{Rows: 1, First: 3}) {
		t.Errorf("file for the model: %v, %+v", err, ts)
	}
	if _, err := read(t, "a,y\n1,\n2,NA\n", CSVOptions{}); err == nil || !strings.Contains(err.Error(), `t.csv: every row's label is missing (empty, or one of the missing-value tokens "NA", "N/A", "n/a", "?", "NaN", "nan", "-nan", "NULL" and 4 more)`) {
		t.Errorf("no labels: error %v", err)
	}
}

// TestDefaultMissingTokens: the tokens numpy and pandas (nan, None, <NA>),
// SQL exports (NULL), C (-nan) and spreadsheets (#N/A) write for a value
// that is not there leave a column numeric, each field missing; a
// different spelling ("none") is a value.
func TestDefaultMissingTokens(t *testing.T) {
	text := "a,b,y\n1,x,p\nnan,none,q\n3,x,p\nNULL,y,q\nNone,x,p\n<NA>,y,q\n-nan,x,p\n#N/A,y,q\nnull,x,p\nn/a,y,q\n"
	ds, err := read(t, text, CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a, b := ds.Schema.Inputs[0], ds.Schema.Inputs[1]
	if a.Kind != runtime.Numeric || !a.MissingFeature || a.Fill != 2 || len(ds.Mixed) != 0 {
		t.Errorf("column a: %+v, mixed %+v; want numeric with missing fields, median 2", a, ds.Mixed)
	}
	if b.Kind != runtime.Categorical || !reflect.DeepEqual(b.Levels, []string{"none", "x", "y"}) {
		t.Errorf("column b: %+v; want the levels none, x, y", b)
	}
}

// TestScatteredColumn: a categorical column with a distinct value in most
// of its rows (20 or more) is reported, with its first levels; one with
// fewer levels, or forced categorical, is not.
func TestScatteredColumn(t *testing.T) {
	var b strings.Builder
	b.WriteString("id,few,zip,y\n")
	for i := range 40 {
		id := fmt.Sprintf("r%02d", i%39) // 39 levels in 40 rows
		fmt.Fprintf(&b, "%s,%c,z%d,%c\n", id, "abc"[i%3], i, "pq"[i%2])
	}
	b.WriteString("NA,a,z99,p\n") // a missing value does not count
	ds, err := read(t, b.String(), CSVOptions{Categorical: []string{"zip"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []ScatteredColumn{{Name: "id", Ignore: "id", Levels: 39, Values: 40, Some: []string{"r00", "r01", "r02"}}}
	if !reflect.DeepEqual(ds.Scattered, want) {
		t.Errorf("scattered %+v, want %+v", ds.Scattered, want)
	}
	plain := "" // no header: the first row counts once
	for i := range 30 {
		plain += fmt.Sprintf("r%02d,%d,%c\n", i, i%4, "pq"[i%2])
	}
	if ds, err := read(t, plain, CSVOptions{}); err != nil || ds.Header || len(ds.Scattered) != 1 || ds.Scattered[0].Values != 30 || ds.Scattered[0].Levels != 30 {
		t.Errorf("without a header: %v, %+v", err, ds)
	}
	// An unnamed column after the label: x1 as an input, x2 to --ignore.
	after := "y,,a\n"
	for i := range 30 {
		after += fmt.Sprintf("%c,r%02d,%d\n", "pq"[i%2], i, i%4)
	}
	if ds, err := read(t, after, CSVOptions{LabelCol: "first"}); err != nil || len(ds.Scattered) != 1 || ds.Scattered[0].Name != "x1" || ds.Scattered[0].Ignore != "x2" {
		t.Errorf("an unnamed column after the label: %v, %+v", err, ds.Scattered)
	}
	half := "a,y\n"
	for i := range 40 {
		half += fmt.Sprintf("v%d,%c\n", i/2, "pq"[i%2])
	}
	if ds, err := read(t, half, CSVOptions{}); err != nil || len(ds.Scattered) != 0 {
		t.Errorf("20 values in 40 rows: %v, scattered %+v", err, ds.Scattered)
	}
}

// TestIgnore: --ignore's columns are left out of a training file with a
// header and recorded in the schema; a file read for the model may hold
// them, anywhere, or not; errors name the file's own columns.
func TestIgnore(t *testing.T) {
	text := "id,a,note,y\n1,5,x,p\n2,6,y,q\n3,7,z,p\n"
	ds, err := read(t, text, CSVOptions{Ignore: []string{"note", "id"}})
	if err != nil {
		t.Fatal(err)
	}
	if s := ds.Schema; len(s.Inputs) != 1 || s.Inputs[0].Name != "a" || s.Label != "y" || !reflect.DeepEqual(s.Ignored, []string{"note", "id"}) || !reflect.DeepEqual(ds.X, []float64{5, 6, 7}) {
		t.Fatalf("schema %+v, rows %v; want input a, label y, ignored note and id, rows 5 6 7", s, ds.X)
	}
	opt := CSVOptions{Schema: ds.Schema, Named: true}
	for _, file := range []string{text, "y,note,a\np,x,5\nq,y,6\np,z,7\n", "a,y\n5,p\n6,q\n7,p\n"} {
		ts, err := read(t, file, opt)
		if err != nil || !reflect.DeepEqual(ts.X, ds.X) || !reflect.DeepEqual(ts.Labels, ds.Labels) {
			t.Errorf("%q for the model: %v, rows %v", file, err, ts)
		}
	}
	// Names are trimmed and counted once; --label-col N counts the file's
	// columns; a column the header leaves unnamed is x1, x2, ... by its
	// place (the pandas index column is x1).
	ds, err = read(t, text, CSVOptions{Ignore: []string{" id", "id", ""}, LabelCol: "2"})
	if err != nil || !reflect.DeepEqual(ds.Schema.Ignored, []string{"id"}) || ds.Schema.Label != "a" || !reflect.DeepEqual(ds.Labels, []string{"5", "6", "7"}) {
		t.Errorf("--ignore ' id,id,' --label-col 2: %v, %+v", err, ds)
	}
	ds, err = read(t, ",a,y\n0,5,p\n1,6,q\n", CSVOptions{Ignore: []string{"x1"}})
	if err != nil || len(ds.Schema.Inputs) != 1 || ds.Schema.Inputs[0].Name != "a" || ds.IndexColumn {
		t.Errorf("--ignore x1 of an unnamed column: %v, %+v", err, ds)
	}
	ds, _ = read(t, text, CSVOptions{Ignore: []string{"note", "id"}})
	if _, err := read(t, "1,5,x,p\n", CSVOptions{Schema: ds.Schema, Named: true}); err == nil || !strings.Contains(err.Error(), `row has 4 columns; the model reads 1 (plus an optional label column); it leaves out "note", "id", which a file without a header must not hold`) {
		t.Errorf("a file without a header holding the ignored columns: %v", err)
	}
	// Another file's header: names only, none of them the model's (after
	// a blank line too).
	for _, file := range []string{"u,v,w,label\n1,2,3,p\n", "\nu,v,w,label\n1,2,3,p\n"} {
		if _, err := read(t, file, CSVOptions{Schema: ds.Schema, Named: true}); err == nil || !strings.Contains(err.Error(), `row has 4 columns; the model reads 1 (plus an optional label column); its first row reads like a header, but names none of the model's columns ("a"): is this the file the model is for?`) {
			t.Errorf("another file's header %q: %v", file, err)
		}
	}
	// Another case of the model's names: said so.
	if _, err := read(t, "A,x,y,z\n1,2,3,p\n", CSVOptions{Schema: ds.Schema, Named: true}); err == nil || !strings.HasSuffix(err.Error(), `names are case-sensitive, and the header writes "A" where the model has "a": write them as the model does`) {
		t.Errorf("the model's names in another case: %v", err)
	}
	// A data row of a model of categories is no header: it holds their
	// levels.
	cats, err := read(t, "colour,size,y\nred,big,p\nblue,small,q\n", CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := read(t, "red,big,p,extra\n", CSVOptions{Schema: cats.Schema, Named: true}); err == nil || !strings.Contains(err.Error(), "row has 4 columns") || strings.Contains(err.Error(), "reads like a header") {
		t.Errorf("a data row of categories, one column too many: %v", err)
	}
	// A file without a header is positional, its first row data, even
	// where a field is empty (an unnamed header column would be x1).
	idx, err := read(t, ",a,b,label\n0,1,2,p\n1,3,4,q\n2,5,6,p\n", CSVOptions{Ignore: []string{"x1"}})
	if err != nil {
		t.Fatal(err)
	}
	if ts, err := read(t, ",3,p\n2,4,q\n5,6,p\n", CSVOptions{Schema: idx.Schema, Named: true}); err != nil || !reflect.DeepEqual(ts.Labels, []string{"p", "q", "p"}) || ts.X[1] != 3 {
		t.Errorf("a file without a header for a model that ignores x1: %v, %+v", err, ts)
	}
	// A blank line of spaces, where the first column is left out.
	if ds, err := read(t, "id,a,y\n1,2,p\n   \n3,4,q\n", CSVOptions{Ignore: []string{"id"}}); err != nil || ds.Rows != 2 {
		t.Errorf("a blank line with id ignored: %v", err)
	} else if ts, err := read(t, "id,a,y\n1,2,p\n   \n3,4,q\n", CSVOptions{Schema: ds.Schema, Named: true}); err != nil || ts.Rows != 2 {
		t.Errorf("a blank line read for the model: %v", err)
	}
	// Read for the model, --label-col N counts the file's columns too.
	un, err := read(t, "id,a,b,\n1,5,6,p\n2,7,8,q\n", CSVOptions{Ignore: []string{"id"}, LabelCol: "4"})
	if err != nil {
		t.Fatal(err)
	}
	if ts, err := read(t, "id,a,b,\n3,9,10,q\n", CSVOptions{Schema: un.Schema, Named: true, LabelCol: "4"}); err != nil || !reflect.DeepEqual(ts.Labels, []string{"q"}) || !reflect.DeepEqual(ts.X, []float64{9, 10}) {
		t.Errorf("--label-col 4 for a model that ignores id: %v, %+v", err, ts)
	}
	// A field's error names its column in the file.
	if _, err := read(t, "id,a,y\n1,5,p\n2,x,q\n", CSVOptions{Schema: ds.Schema, Named: true}); err == nil || !strings.Contains(err.Error(), `t.csv:3:3: column 2 ("a"): "x" is not a number`) {
		t.Errorf("bad field: %v", err)
	}
	for _, tc := range []struct {
		text string
		opt  CSVOptions
		want string
	}{
		{text, CSVOptions{Ignore: []string{"idd"}}, `t.csv:1:1: --ignore "idd": the header has no such column (it has "id", "a", "note", "y"); did you mean "id"?`},
		{text, CSVOptions{Ignore: []string{"nte"}}, `(it has "id", "a", "note", "y"); did you mean "note"?`},
		{text, CSVOptions{Ignore: []string{"Note"}}, `--ignore "Note": the header has no such column (it has "id", "a", "note", "y"); names are case-sensitive: did you mean "note"?`},
		{text, CSVOptions{Ignore: []string{"id"}, Header: HeaderNo}, `t.csv: --ignore names columns of the header, but --header no says the file has no header row`},
		{"id,a,y\n1,2,p\n3,4\n", CSVOptions{Ignore: []string{"id"}}, `t.csv:3:1: row has 2 columns, the header 3`},
		{"id,a,a,y\n1,2,3,p\n", CSVOptions{Ignore: []string{"id"}}, `t.csv:1: columns 2 and 3 are both named "a"`},
		{text, CSVOptions{Ignore: []string{"y"}}, `t.csv: --ignore leaves out column 4 ("y"), the label column (--label-col last); name the label with --label-col, or ignore another column`},
		{text, CSVOptions{Ignore: []string{"id"}, LabelCol: "first"}, `t.csv: --ignore leaves out column 1 ("id"), the label column (--label-col first)`},
		{text, CSVOptions{Ignore: []string{"note"}, LabelCol: "note"}, `--ignore "note" names the label column (--label-col "note")`},
		{"y,,,\np,1,2,3\nq,4,5,6\n", CSVOptions{Ignore: []string{"x2"}, LabelCol: "first"}, `t.csv: --ignore "x2" also names a column the model reads`},
		// An unnamed column is listed by the name --ignore knows it by.
		{"a,b,y,\n1,2,p,\n3,4,q,\n", CSVOptions{Ignore: []string{"x3"}, LabelCol: "y"}, `t.csv:1:1: --ignore "x3": the header has no such column (it has "a", "b", "y", "x4", a column it leaves unnamed going by its place in the file); did you mean "x4"?`},
	} {
		if _, err := read(t, tc.text, tc.opt); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q %+v: error %v, want %s", tc.text, tc.opt, err, tc.want)
		}
	}
	// A name two edits from any column's gets no guess.
	if _, err := read(t, text, CSVOptions{Ignore: []string{"nt"}}); err == nil || !strings.HasSuffix(err.Error(), `--ignore "nt": the header has no such column (it has "id", "a", "note", "y")`) {
		t.Errorf("--ignore nt: %v", err)
	}
}

// TestMayLack: a training file may lack the --ignore names MayLack lists
// (another file holds them), and its schema records them too; HeaderNames
// reads a file's first row as a header names its columns.
func TestMayLack(t *testing.T) {
	ds, err := read(t, "id,a,y\n1,5,p\n2,6,q\n", CSVOptions{Ignore: []string{"id", "note"}, MayLack: []string{"note"}})
	if err != nil || !reflect.DeepEqual(ds.Schema.Ignored, []string{"id", "note"}) || !reflect.DeepEqual(ds.X, []float64{5, 6}) {
		t.Fatalf("%v, %+v", err, ds)
	}
	if ts, err := read(t, "a,note,y\n5,x,p\n6,y,q\n", CSVOptions{Schema: ds.Schema, Named: true}); err != nil || !reflect.DeepEqual(ts.X, ds.X) {
		t.Errorf("a file with the column the training file lacked: %v", err)
	}
	path := filepath.Join(t.TempDir(), "h.csv")
	if err := os.WriteFile(path, []byte("\n a ;;y\n1;2;p\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if names, err := HeaderNames(path, 0); err != nil || !reflect.DeepEqual(names, []string{"a", "x2", "y"}) {
		t.Errorf("HeaderNames: %q, %v", names, err)
	}
}

// TestIgnoreForModel: a file read for a model leaves out the columns
// Ignore names, besides those the model left out; each must be in the
// header, and none may be one the model reads.
func TestIgnoreForModel(t *testing.T) {
	ds, err := read(t, "id,a,y\n1,5,p\n2,6,q\n", CSVOptions{Ignore: []string{"id"}})
	if err != nil {
		t.Fatal(err)
	}
	named := CSVOptions{Schema: ds.Schema, Named: true}
	for _, tc := range []struct {
		text   string
		ignore []string
	}{
		{"id,note,a,y\n1,x,5,p\n2,y,6,q\n", []string{"note"}},
		{"id,note,a,y\n1,x,5,p\n2,y,6,q\n", []string{" note", "id", "note"}}, // the model's own, and repeats
		{"a,note,y\n5,x,p\n6,y,q\n", []string{"note"}},                       // without the model's own
		{",a,y\n7,5,p\n8,6,q\n", []string{"x1"}},                             // an unnamed column, by its place
	} {
		opt := named
		opt.Ignore = tc.ignore
		ts, err := read(t, tc.text, opt)
		if err != nil || !reflect.DeepEqual(ts.X, []float64{5, 6}) || !reflect.DeepEqual(ts.Labels, []string{"p", "q"}) {
			t.Errorf("%q --ignore %q: %v, %+v", tc.text, tc.ignore, err, ts)
		}
	}
	if _, err := read(t, "id,note,a,y\n1,x,5,p\n", named); err == nil || !strings.Contains(err.Error(), `t.csv:1: the header has column(s) the model does not know: "note" (the model reads "a"; the label column is "y"): leave it out with --ignore "note"`) {
		t.Errorf("an unknown column without --ignore: %v", err)
	}
	// An unnamed column is named by its place in the file, as --ignore
	// knows it, wherever the label is.
	first := named
	first.LabelCol = "first"
	if _, err := read(t, "y,,a\np,7,5\n", first); err == nil || !strings.Contains(err.Error(), `does not know: "x2"`) || !strings.Contains(err.Error(), `--ignore "x2"`) {
		t.Errorf("an unnamed column after the label: %v", err)
	}
	first.Ignore = []string{"x2"}
	if ts, err := read(t, "y,,a\np,7,5\n", first); err != nil || !reflect.DeepEqual(ts.X, []float64{5}) {
		t.Errorf("--ignore x2 after the label: %v, %+v", err, ts)
	}
	// --label-col may name a column the model left out; --ignore may not
	// name the label.
	byID := named
	byID.LabelCol = "id"
	if ts, err := read(t, "id,a,y\n1,5,p\n2,6,q\n", byID); err == nil || !strings.Contains(err.Error(), `the model's own label column, "y", is one it does not read`) {
		t.Errorf("--label-col id, a column the model left out, and y unknown: %v, %+v", err, ts)
	}
	byID.Ignore = []string{"y"}
	if ts, err := read(t, "id,a,y\n1,5,p\n2,6,q\n", byID); err != nil || !reflect.DeepEqual(ts.X, []float64{5, 6}) || !reflect.DeepEqual(ts.Labels, []string{"1", "2"}) {
		t.Errorf("--label-col id, a column the model left out: %v, %+v", err, ts)
	}
	byID.Ignore = []string{"y", "id"}
	if _, err := read(t, "id,a,y\n1,5,p\n", byID); err == nil || err.Error() != `--ignore "id" names the label column (--label-col "id")` {
		t.Errorf("--ignore names the label column: %v", err)
	}
	positional, err := read(t, "5,p\n6,q\n", CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		text string
		opt  CSVOptions
		want string
	}{
		{"a,note,y\n5,x,p\n", CSVOptions{Schema: ds.Schema, Named: true, Ignore: []string{"nte"}}, `t.csv:1:1: --ignore "nte": the header has no such column (it has "a", "note", "y")`},
		{"a,note,y\n5,x,p\n", CSVOptions{Schema: ds.Schema, Named: true, Ignore: []string{"a"}}, `t.csv: --ignore "a" names a column the model reads`},
		{"a,note,y\n5,x,p\n", CSVOptions{Schema: ds.Schema, Named: true, Ignore: []string{"note"}, Header: HeaderNo}, `--header no says the file has no header row`},
		{"5,x,p\n", CSVOptions{Schema: ds.Schema, Named: true, Ignore: []string{"note"}}, `t.csv: --ignore names columns of a header, but its first row does not name the model's columns`},
		{"x1,note,y\n5,x,p\n", CSVOptions{Schema: positional.Schema, Ignore: []string{"note"}}, `the model's columns are positional`},
	} {
		if _, err := read(t, tc.text, tc.opt); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q --ignore %q: error %v, want %s", tc.text, tc.opt.Ignore, err, tc.want)
		}
	}
}

// TestBlankRows: rows of empty fields, as spreadsheets write blank rows,
// are left out for their missing label and make no missing-value feature.
func TestBlankRows(t *testing.T) {
	ds, err := read(t, "x;y;label\n0,5;1;a\n1,5;2;b\n;;\n;;\n", CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Features != 2 || ds.Rows != 2 || ds.NoLabel.Rows != 2 {
		t.Errorf("%d features, %d rows, %d left out; want 2, 2, 2", ds.Features, ds.Rows, ds.NoLabel.Rows)
	}
}

// TestDecimalCommaColumns: in a file not separated by semicolons, a
// column of numbers some of which have a decimal comma is named (and not
// reported as mixed or scattered); in a semicolon file it is numeric.
func TestDecimalCommaColumns(t *testing.T) {
	text := "a\tb\tc\ty\n13,74\t118,0\tx\tp\n12,5\t100\ty\tq\n11,2\t90\tx\tp\n10\t80\ty\tq\n"
	ds, err := read(t, text, CSVOptions{})
	if err != nil || !reflect.DeepEqual(ds.DecimalComma, []string{"a", "b"}) || len(ds.Mixed) != 0 {
		t.Errorf("tabs: %v, decimal commas %q, mixed %+v; want a, b and none", err, ds.DecimalComma, ds.Mixed)
	}
	ds, err = read(t, strings.ReplaceAll(text, "\t", ";"), CSVOptions{})
	if err != nil || ds.DecimalComma != nil || ds.Schema.Inputs[0].Kind != runtime.Numeric {
		t.Errorf("semicolons: %v, decimal commas %q, %+v", err, ds.DecimalComma, ds.Schema.Inputs[0])
	}
}

// TestThousandsColumns: a column of numbers some of which are written with
// commas between groups of three digits, the others below 1000, is named
// as such and not as decimal commas; commas that cannot be thousands
// separators (3,5; 0,125; or a plain 1500 beside them) are decimal
// commas or words.
func TestThousandsColumns(t *testing.T) {
	text := "a,b,c,d,y\n\"1,208\",\"1,208\",\"1,208\",\"1,208\",p\n\"12,345,678.5\",\"0,125\",1500,\"3,5\",q\n999,7,8,9,p\n-3,4,5,6,q\n"
	ds, err := read(t, text, CSVOptions{})
	if err != nil || !reflect.DeepEqual(ds.Thousands, []ThousandsColumn{{"a", "1,208"}}) || !reflect.DeepEqual(ds.DecimalComma, []string{"b", "c", "d"}) {
		t.Errorf("%v: thousands %q, decimal commas %q; want a, and b, c, d", err, ds.Thousands, ds.DecimalComma)
	}
	for f, want := range map[string]bool{"1,208": true, " -12,345.5 ": true, "1,234,567": true, "0,125": false, "1,20": false, "1234,567": false, ",123": false, "1,2a4": false, "--1,234": false, "1,234.5.6": false, "1,208.": false} {
		if inGroups(f, ',', '.') != want {
			t.Errorf("inGroups(%q, ',', '.') = %v", f, !want)
		}
	}
}

// TestThousandsSemicolons: in a file separated by semicolons, thousands
// separators are points and the decimal mark a comma (1.208,5), or commas
// with a decimal point (1,208.5) as elsewhere; a column with either is
// named, one of decimal commas alone is read as numbers, and one that
// mixes the two ways is not named.
func TestThousandsSemicolons(t *testing.T) {
	text := "a;b;c;d;y\n1.208,5;1,5;1,208.5;1.208,5;p\n12.345.678;2,25;12,345,678;12,345.5;q\n999;7;999.5;1;p\n1.5;3;1,5;2;q\n"
	ds, err := read(t, text, CSVOptions{})
	if want := []ThousandsColumn{{"a", "1.208,5"}, {"c", "1,208.5"}}; err != nil || !reflect.DeepEqual(ds.Thousands, want) || ds.Schema.Inputs[1].Kind != runtime.Numeric {
		t.Errorf("%v: thousands %q, b %+v; want %q, and b numeric", err, ds.Thousands, ds.Schema.Inputs[1], want)
	}
	ds, err = read(t, strings.Replace(text, "999;", "1000;", 1), CSVOptions{})
	if want := []ThousandsColumn{{"c", "1,208.5"}}; err != nil || !reflect.DeepEqual(ds.Thousands, want) {
		t.Errorf("with 1000 unseparated in a: %v, thousands %q, want %q", err, ds.Thousands, want)
	}
	for f, want := range map[string]bool{"1.208": true, "-12.345,5": true, "1.234.567": true, "0.125": false, "1.20": false, "1,208": false, "1.2a4": false} {
		if inGroups(f, '.', ',') != want {
			t.Errorf("inGroups(%q, '.', ',') = %v", f, !want)
		}
	}
}

// TestMixedMarks: a numeric column of a file separated by semicolons that
// holds a number with a decimal point and one with a comma before three
// digits (read as a decimal comma) is named with the first of each, the
// first row's counted when it is data; a comma before other counts of
// digits, or commas alone, are not.
func TestMixedMarks(t *testing.T) {
	text := "a;b;c;y\n2.75;2.75;1,500;p\n1,500;1,5;2,250;q\n3,125;3;3;p\n"
	ds, err := read(t, text, CSVOptions{})
	if want := []MixedMarks{{Name: "a", Point: "2.75", Comma: "1,500"}}; err != nil || !reflect.DeepEqual(ds.Marks, want) {
		t.Errorf("%v: marks %+v, want %+v", err, ds.Marks, want)
	}
	headless := "1,500;q\n2.75;p\n3,125;p\n"
	if ds, err := read(t, headless, CSVOptions{Header: HeaderNo}); err != nil || len(ds.Marks) != 1 || ds.Marks[0].Comma != "1,500" {
		t.Errorf("no header: %v, marks %+v; want the first row's 1,500", err, ds.Marks)
	}
	if ds, err = read(t, strings.ReplaceAll(text, ";", "\t"), CSVOptions{}); err != nil || ds.Marks != nil {
		t.Errorf("tabs: %v, marks %+v", err, ds.Marks)
	}
}

// TestUnitColumns: a categorical column whose values are numbers with one
// unit, a suffix after a space or of a symbol, or a prefix of currency
// symbols, is named with it; codes (Q1, 4WD, 9th, #1, (2)), a sign alone
// (5+), two values only, and numbers without the unit are not.
func TestUnitColumns(t *testing.T) {
	text := "pct,price,kg,eur,fee,q,wd,th,hash,par,plus,two,some,y\n" +
		"12%,$3.50,12 kg,\"3,50 €\",\"$1,603.40\",Q1,4WD,9th,#1,(1),5+,1%,12%,p\n" +
		"-3.5%,$12,7 kg,\"12,25 €\",$98.20,Q2,2WD,10th,#2,(2),10+,2%,3,q\n" +
		"100%,$1e3,8 kg,7 €,\"$12,345\",Q3,6WD,11th,#3,(3),15+,1%,4%,p\n"
	ds, err := read(t, text, CSVOptions{})
	want := []UnitColumn{{Name: "pct", Unit: "%", Like: "-3.5%"}, {Name: "price", Unit: "$", Like: "$12"}, {Name: "kg", Unit: "kg", Like: "12 kg"}, {Name: "eur", Unit: "€", Like: "12,25 €"}, {Name: "fee", Unit: "$", Like: "$1,603.40"}}
	if err != nil || !reflect.DeepEqual(ds.Units, want) {
		t.Errorf("%v: units %+v, want %+v", err, ds.Units, want)
	}
}

// TestZerosColumns: a numeric column with a whole number written with a
// leading zero, in any row, the first one too when it is data, is named
// with that value; zero itself, decimals, two digits (a month), a column
// forced numeric and a categorical one are not.
func TestZerosColumns(t *testing.T) {
	text := "zip,first,dec,zero,forced,word,month,y\n" +
		"12345,007,0.5,0,001,a1,01,p\n" +
		"02139,12,00.5,0,002,b2,09,q\n" +
		"  0401 ,3,1.25,10,3,001,12,p\n"
	ds, err := read(t, text, CSVOptions{Numeric: []string{"forced"}})
	want := []ZerosColumn{{Name: "zip", Like: "02139"}, {Name: "first", Like: "007"}}
	if err != nil || !reflect.DeepEqual(ds.Zeros, want) {
		t.Errorf("%v: zeros %+v, want %+v", err, ds.Zeros, want)
	}
	// The first row, read as data.
	if ds, err := read(t, "007,1,p\n12,2,q\n3,3,p\n", CSVOptions{Header: HeaderNo}); err != nil || len(ds.Zeros) != 1 || ds.Zeros[0] != (ZerosColumn{Name: "x1", Like: "007"}) {
		t.Errorf("no header: %v, %+v", err, ds)
	}
}

// TestMarkedColumns: a column of plain numbers whose other values all
// write a number with one sign, or in parentheses, is a Units column,
// however many distinct values it has; one with a word among them, past
// the first few, is Mixed.
func TestMarkedColumns(t *testing.T) {
	var b strings.Builder
	b.WriteString("cost,net,odd,y\n")
	for i := range 20 {
		cost, net, odd := fmt.Sprint(i), fmt.Sprint(i), fmt.Sprint(i)
		if i%3 == 0 {
			cost, net, odd = fmt.Sprintf("$%d.50", i), fmt.Sprintf("(%d)", i), fmt.Sprintf("$%d", i)
		}
		if i == 18 {
			odd = "unknown"
		}
		fmt.Fprintf(&b, "%s,%s,%s,%c\n", cost, net, odd, "pq"[i%2])
	}
	ds, err := read(t, b.String(), CSVOptions{})
	want := []UnitColumn{{Name: "cost", Unit: "$", Like: "$0.50"}, {Name: "net", Unit: parentheses, Like: "(0)"}}
	if err != nil || !reflect.DeepEqual(ds.Units, want) || len(ds.Mixed) != 1 || ds.Mixed[0].Name != "odd" {
		t.Errorf("%v: units %+v, want %+v; mixed %+v, want odd", err, ds.Units, want, ds.Mixed)
	}
}

// TestDateColumns: a categorical column whose values are all days, in ISO
// 8601's order or with the year last, with a time of day or not, is named
// with its first value; two dates only, versions (Windows' too, whose
// "years" lie far off), phone numbers, a column with one value that is no
// day, and a column forced categorical are not.
func TestDateColumns(t *testing.T) {
	text := "iso,at,us,eu,dash,pm,two,ver,win,phone,odd,forced,y\n" +
		"2024-03-15,2024-03-15T08:30:00Z,3/15/2024,15.03.2024,15-03-2024,3/15/2024 8:30 AM,2024-01-01,1.2.3,5.1.2600,555-123-4567,2024-03-15,2024-03-15,p\n" +
		"2023-12-01,2023-12-01 17:05:12.5,12/1/2023,01.12.2023,01-12-2023,12/1/2023 11:05:09 PM,2024-01-02,1.2.4,6.1.7601,555-123-4568,2023-12-01,2023-12-01,q\n" +
		"2024-1-2,2024-01-02 00:00:00+0100,01/02/2024,2.1.2024,02-01-2024,1/2/2024 12:00 PM,2024-01-01,1.3.0,6.2.9200,555-123-4569,soon,2024-01-02,p\n"
	ds, err := read(t, text, CSVOptions{Categorical: []string{"forced"}})
	want := []DateColumn{{Name: "iso", Ignore: "iso", Like: "2023-12-01"}, {Name: "at", Ignore: "at", Like: "2023-12-01 17:05:12.5"},
		{Name: "us", Ignore: "us", Like: "01/02/2024"}, {Name: "eu", Ignore: "eu", Like: "01.12.2023"}, {Name: "dash", Ignore: "dash", Like: "01-12-2023"},
		{Name: "pm", Ignore: "pm", Like: "1/2/2024 12:00 PM"}}
	if err != nil || !reflect.DeepEqual(ds.Dates, want) {
		t.Errorf("%v: dates %+v, want %+v", err, ds.Dates, want)
	}
	// Without a header, a column is known to --ignore by its place.
	if ds, err := read(t, "2024-03-15,1,p\n2023-12-01,2,q\n2024-01-02,3,p\n", CSVOptions{Header: HeaderNo}); err != nil || len(ds.Dates) != 1 || ds.Dates[0].Ignore != "x1" {
		t.Errorf("no header: %v, dates %+v", err, ds.Dates)
	}
}

// TestMixedColumn: a column read as categorical although most of its
// values are numbers is reported with the values that are not; a column
// of words, or one forced categorical, is not.
func TestMixedColumn(t *testing.T) {
	text := "a,b,c,d,y\n1,x,1,5,p\nn.a.,y,2,6,q\n3,3,-,7,p\n4,z,n.a.,8,q\n5,w,5,-,p\n6,v,6,9,q\n"
	ds, err := read(t, text, CSVOptions{Categorical: []string{"d"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []MixedColumn{
		{Name: "a", Numbers: 5, Words: 1, Some: []string{"n.a."}},
		{Name: "c", Numbers: 4, Words: 2, Some: []string{"-", "n.a."}},
	}
	if !reflect.DeepEqual(ds.Mixed, want) {
		t.Errorf("mixed %+v, want %+v", ds.Mixed, want)
	}
	// --header no on a file with a header: the first row's words count, and
	// are said to be the first row's.
	ds, err = read(t, "a,b,y\n1,x,p\n2,3,q\n4,5,p\n", CSVOptions{Header: HeaderNo})
	if err != nil {
		t.Fatal(err)
	}
	want = []MixedColumn{
		{Name: "x1", Numbers: 3, Words: 1, Some: []string{"a"}, FirstOnly: true},
	}
	if !reflect.DeepEqual(ds.Mixed, want) {
		t.Errorf("--header no: mixed %+v, want %+v", ds.Mixed, want)
	}
}

// TestJSONRefused: a songc model or training log given where CSV rows go
// is refused, saying what it holds, as are UTF-16 text, a zip archive,
// compressions other than gzip and a directory; a CSV file whose first field starts with
// a brace is read.
func TestJSONRefused(t *testing.T) {
	dir := t.TempDir()
	for name, c := range map[string]struct{ body, want string }{
		"m.json":      {"{\n  \"format\": \"songc-model/2\",\n  \"nodes\": 4\n}\n", "m.json: holds a songc model, not rows of data"},
		"m.log.jsonl": {`{"epoch":1,"loss":0.5}` + "\n", "m.log.jsonl: holds a training log, not rows of data"},
		"x.json":      {` { "a": 1 }`, "x.json: holds JSON, not rows of data"},
		"u16.csv":     {"\xff\xfea\x00,\x00", "u16.csv: is UTF-16 text (its first two bytes say so), and songc reads UTF-8: convert it, e.g. iconv -f UTF-16 -t UTF-8 " + filepath.Join(dir, "u16.csv") + " > utf8.csv"},
		"t.zip":       {"PK\x03\x04\x14\x00", "t.zip: is a zip archive (as an .xlsx workbook is), and songc reads CSV text, plain or gzip'd"},
		"t.csv.xz":    {"\xfd7zXZ\x00\x00", "t.csv.xz: is xz-compressed"},
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(c.body), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadCSVFile(p, CSVOptions{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", name, err, c.want)
		}
	}
	if _, err := ReadCSVFile(dir, CSVOptions{}); err == nil || !strings.Contains(err.Error(), dir+": is a directory; give a data file") {
		t.Errorf("a directory: error %v", err)
	}
	p := filepath.Join(dir, "brace.csv")
	if err := os.WriteFile(p, []byte("{a},b,y\n1,2,x\n3,4,z\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadCSVFile(p, CSVOptions{}); err != nil {
		t.Errorf("a header starting with a brace: %v", err)
	}
}
