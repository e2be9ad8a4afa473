package runtime

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"
)

// withInputs is tiny (3 features) reading a numeric column with a missing
// feature and a categorical column of one level: format 2.
func withInputs() *Model {
	m := tiny()
	m.Format = FormatInputs
	m.Schema = &Schema{Label: "y", Missing: []string{"NA"}, Inputs: []Input{
		{Name: "age", Kind: Numeric, Fill: 40, MissingFeature: true},
		{Name: "sex", Kind: Categorical, Levels: []string{"F"}, Encoding: OneHot},
	}}
	return m
}

func TestSchemaValidateNamesTheField(t *testing.T) {
	for _, tc := range []struct {
		name   string
		break_ func(m *Model)
		want   string
	}{
		{"format 1 with inputs", func(m *Model) { m.Format = Format }, `field inputs: needs format "songc-model/2"`},
		{"format 2 without", func(m *Model) { m.Schema = nil }, `field inputs: missing; format "songc-model/2" records its input columns`},
		{"width", func(m *Model) { m.Schema.Inputs[0].MissingFeature = false }, "field inputs: encode to 2 features, want features = 3"},
		{"no inputs", func(m *Model) { m.Schema.Inputs = nil }, "field inputs: is empty"},
		{"duplicate names", func(m *Model) { m.Schema.Inputs[1].Name = "age" }, `field inputs[1].name: "age" is also the name of inputs[0]`},
		{"label named like an input", func(m *Model) { m.Schema.Label = "sex" }, `field label: "sex" is also the name of inputs[1]`},
		{"kind", func(m *Model) { m.Schema.Inputs[0].Kind = "text" }, `field inputs[0].kind: "text"; want "numeric" or "categorical"`},
		{"fill", func(m *Model) { m.Schema.Inputs[0].Fill = math.NaN() }, "field inputs[0].fill: is NaN"},
		{"numeric levels", func(m *Model) { m.Schema.Inputs[0].Levels = []string{"a"} }, "field inputs[0]: a numeric column has no levels or encoding"},
		{"encoding", func(m *Model) { m.Schema.Inputs[1].Encoding = "ordinal" }, `field inputs[1].encoding: "ordinal"; want "one-hot"`},
		{"no levels", func(m *Model) { m.Schema.Inputs[1].Levels = nil }, "field inputs[1].levels: is empty"},
		{"unsorted levels", func(m *Model) {
			m.Schema.Inputs[1].Levels = []string{"M", "F"}
			m.Schema.Inputs[0].MissingFeature = false
		},
			`field inputs[1].levels[1]: "F" is not after "M"`},
		{"missing token as a level", func(m *Model) { m.Schema.Inputs[1].Levels = []string{"NA"} }, `field inputs[1].levels[0]: "NA" means a missing value`},
		{"empty token", func(m *Model) { m.Schema.Missing = []string{""} }, `field missing[0]: ""`},
		{"duplicate token", func(m *Model) { m.Schema.Missing = []string{"?", "?"} }, `field missing[1]: "?"`},
		{"ignored input", func(m *Model) { m.Schema.Ignored = []string{"id", "sex"} }, `field ignored[1]: "sex": ignored columns are named, distinct, and neither an input nor the label`},
		{"ignored label", func(m *Model) { m.Schema.Ignored = []string{"y"} }, `field ignored[0]: "y"`},
		{"ignored twice", func(m *Model) { m.Schema.Ignored = []string{"id", "id"} }, `field ignored[1]: "id"`},
		{"ignored unnamed", func(m *Model) { m.Schema.Ignored = []string{""} }, `field ignored[0]: ""`},
		{"label beyond the inputs", func(m *Model) { m.Schema.LabelAt = len(m.Schema.Inputs) + 1 }, `field label_at: 3 is out of range [0, 2]`},
		{"label before the first", func(m *Model) { m.Schema.LabelAt = -1 }, `field label_at: -1 is out of range`},
		{"separator", func(m *Model) { m.Schema.Separator = ':' }, `field separator: ':'; want one of ",;\t|"`},
	} {
		m := withInputs()
		tc.break_(m)
		err := m.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestSchemaRoundTrip: a format-2 model survives a write and a read; a
// format-1 file is written without the new fields, so older songc reads it.
func TestSchemaRoundTrip(t *testing.T) {
	m := withInputs()
	m.Schema.Ignored = []string{"id"}
	m.Schema.LabelAt = 1
	m.Schema.Separator = '\t'
	var b bytes.Buffer
	if err := m.Encode(&b); err != nil {
		t.Fatal(err)
	}
	back, err := Decode(bytes.NewReader(b.Bytes()), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Schema, m.Schema) || back.Format != FormatInputs {
		t.Errorf("schema %+v, want %+v", back.Schema, m.Schema)
	}
	if !bytes.Contains(b.Bytes(), []byte(`"separator": "\t"`)) {
		t.Errorf("the separator is not written as a string:\n%s", b.Bytes())
	}
	for _, bad := range []string{`""`, `";;"`, `":"`} {
		f := bytes.Replace(b.Bytes(), []byte(`"separator": "\t"`), []byte(`"separator": `+bad), 1)
		if _, err := Decode(bytes.NewReader(f), "m.json"); err == nil || !strings.Contains(err.Error(), "field separator: "+bad) {
			t.Errorf("separator %s: %v", bad, err)
		}
	}
	b.Reset()
	tiny().Encode(&b)
	for _, key := range []string{`"inputs"`, `"label"`, `"missing"`, `"ignored"`, `"label_at"`, `"separator"`} {
		if bytes.Contains(b.Bytes(), []byte(key)) {
			t.Errorf("a format-1 file holds %s", key)
		}
	}
}

// TestEncoder: numbers, fills, one-hot levels, missing features, unseen
// values, spaces and tokens; a format-1 model refuses a missing field.
func TestEncoder(t *testing.T) {
	e := NewEncoder(withInputs().Schema)
	for _, tc := range []struct {
		fields []string
		x      []float64
		unseen bool
	}{
		{[]string{"31.5", "F"}, []float64{31.5, 0, 1}, false},
		{[]string{" NA ", " F "}, []float64{40, 1, 1}, false},
		{[]string{"", "M"}, []float64{40, 1, 0}, true},
		{[]string{"7", "NA"}, []float64{7, 0, 0}, false},
		{[]string{"7", "?"}, []float64{7, 0, 0}, true}, // "?" is not one of this model's tokens
	} {
		x := make([]float64, 3)
		unseen, err := e.Encode(x, tc.fields)
		if err != nil || !reflect.DeepEqual(x, tc.x) || unseen != tc.unseen {
			t.Errorf("%q: %v, unseen %v, %v; want %v, %v", tc.fields, x, unseen, err, tc.x, tc.unseen)
		}
	}
	if _, err := e.Encode(make([]float64, 3), []string{"x", "F"}); err == nil || err.Error() != `column "age": "x" is not a number` {
		t.Errorf("word in a numeric column: %v", err)
	}
	v1 := NewEncoder(tiny().Inputs())
	if _, err := v1.Encode(make([]float64, 3), []string{"1", "", "2"}); err == nil || !strings.Contains(err.Error(), `column "x2": missing value, which this model cannot fill`) {
		t.Errorf("format 1, missing: %v", err)
	}
}

// TestEncodeAllocates: encoding a record allocates nothing.
func TestEncodeAllocates(t *testing.T) {
	e := NewEncoder(withInputs().Schema)
	x, fields := make([]float64, 3), []string{"31.5", "F"}
	if a := testing.AllocsPerRun(100, func() { e.Encode(x, fields) }); a != 0 {
		t.Errorf("%v allocations per record", a)
	}
}

// TestSimple: only a schema a format-1 model can stand for is simple;
// a label that was not last must be kept in the file.
func TestSimple(t *testing.T) {
	num := func(n int) []Input {
		in := make([]Input, n)
		for i := range in {
			in[i] = Input{Name: Unnamed(i), Kind: Numeric}
		}
		return in
	}
	for _, tc := range []struct {
		s    Schema
		want bool
	}{
		{Schema{Inputs: num(2)}, true},
		{Schema{Inputs: num(2), LabelAt: 1}, false}, // the label first, in a file without a header
		{Schema{Inputs: num(2), Label: "y"}, false},
		{Schema{Inputs: num(2), Ignored: []string{"id"}}, false},
		{Schema{Inputs: num(2), Separator: ';'}, false}, // read with train --sep
		{Schema{Inputs: []Input{{Name: "x1", Kind: Categorical, Levels: []string{"a"}}, {Name: "x2", Kind: Numeric}}}, false},
	} {
		if got := tc.s.Simple(); got != tc.want {
			t.Errorf("%+v: Simple %v, want %v", tc.s, got, tc.want)
		}
	}
}
