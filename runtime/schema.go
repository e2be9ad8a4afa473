package runtime

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// FormatInputs is the format of a model file that records its input
// columns (Model.Schema): names, kinds, fill values and categories. A model
// without them keeps Format, so that older songc reads it.
const FormatInputs = "songc-model/2"

// Kind says how an input column is read.
type Kind string

const (
	Numeric     Kind = "numeric"     // a number; one feature
	Categorical Kind = "categorical" // a string; one feature per level (one-hot)
)

// OneHot is the encoding of a categorical column: one feature per level.
const OneHot = "one-hot"

// DefaultMissing are the tokens that mean "missing" besides an empty field:
// those that R (NA), numpy and pandas (nan, NaN, <NA>, None), SQL exports
// (NULL), C's printf (-nan), spreadsheets (#N/A) and the UCI and Weka
// files (?) write for a value that is not there. Matching is exact: "none"
// and "Null" are values.
var DefaultMissing = []string{"NA", "N/A", "n/a", "?", "NaN", "nan", "-nan", "NULL", "null", "None", "<NA>", "#N/A"}

// Schema is the records a model reads: its input columns in order, the
// label column's name, and the tokens that mean a missing field.
//
// Each input column becomes features of the encoded vector the graph
// reads, in the columns' order:
//   - a numeric column, one feature: its value, or Fill when missing;
//   - a categorical column, one feature per level (one-hot): 1 for the
//     record's level, 0 for the others; a value seen in no training row
//     (unseen) or a missing field sets none of them;
//   - after either, when MissingFeature is set (training rows had missing
//     fields in the column), one more feature: 1 when the field is
//     missing, 0 otherwise.
//
// Standardisation (Model.InputShift/InputScale) applies to the numeric
// columns' values only: the other features have shift 0 and scale 1.
type Schema struct {
	Inputs  []Input
	Label   string   // the label column's name in the training file
	Missing []string // tokens that mean missing, besides an empty field
	// Ignored names the training file's columns that the model leaves out
	// (train --ignore): a file read for the model may hold them, and they
	// are skipped.
	Ignored []string
	// LabelAt is where the label stood in the training file, counted
	// from 1 over the columns the model read (its inputs and the label,
	// without Ignored), when that was not the last of them; 0 otherwise.
	// A file without a header, whose columns are read by position, holds
	// its label there.
	LabelAt int
	// Separator is the field separator of the CSV files read for the
	// model, one of FieldSeparators, when train was told it (--sep); 0
	// otherwise, and each file's own is found from its first lines.
	Separator rune
}

// FieldSeparators are the field separators of the CSV files songc reads:
// comma, semicolon, tab and vertical bar.
var FieldSeparators = [...]rune{',', ';', '\t', '|'}

// Input is one input column.
type Input struct {
	Name string `json:"name"`
	Kind Kind   `json:"kind"`
	// Fill is the value of a missing numeric field: the median of the
	// column's training values.
	Fill float64 `json:"fill,omitempty"`
	// Levels are a categorical column's values seen in training, sorted
	// by their bytes.
	Levels []string `json:"levels,omitempty"`
	// Encoding is how a categorical column becomes features: OneHot, the
	// only one songc writes (absent in a file: OneHot).
	Encoding string `json:"encoding,omitempty"`
	// MissingFeature adds a feature that is 1 when the field is missing.
	MissingFeature bool `json:"missing_feature,omitempty"`
}

// Width returns the number of encoded features of the column.
func (in *Input) Width() int {
	w := 1
	if in.Kind == Categorical {
		w = len(in.Levels)
	}
	if in.MissingFeature {
		w++
	}
	return w
}

// Width returns the number of encoded features of the schema.
func (s *Schema) Width() int {
	w := 0
	for i := range s.Inputs {
		w += s.Inputs[i].Width()
	}
	return w
}

// features calls yield for every encoded feature, in order, with its name
// (a numeric column's name, NAME=LEVEL for a level of a categorical one,
// NAME=(missing) for a missing-value feature) and whether it is a numeric
// column's value.
func (s *Schema) features(yield func(name string, numeric bool)) {
	for _, in := range s.Inputs {
		if in.Kind == Categorical {
			for _, l := range in.Levels {
				yield(in.Name+"="+l, false)
			}
		} else {
			yield(in.Name, true)
		}
		if in.MissingFeature {
			yield(in.Name+"=(missing)", false)
		}
	}
}

// FeatureNames returns a name for every encoded feature: a numeric
// column's name, NAME=LEVEL for a level of a categorical one, and
// NAME=(missing) for a missing-value feature.
func (s *Schema) FeatureNames() []string {
	var out []string
	s.features(func(name string, _ bool) { out = append(out, name) })
	return out
}

// NumericFeatures reports, for every encoded feature, whether it is a
// numeric column's value (the features standardisation applies to).
func (s *Schema) NumericFeatures() []bool {
	var out []bool
	s.features(func(_ string, numeric bool) { out = append(out, numeric) })
	return out
}

// Names returns the input columns' names.
func (s *Schema) Names() []string {
	out := make([]string, len(s.Inputs))
	for i, in := range s.Inputs {
		out[i] = in.Name
	}
	return out
}

// Named reports whether the columns' names come from the training file's
// header, so that a file for the model is matched to them by name. A file
// without a header leaves the label unnamed (a header's empty label name
// reads as "class"), and its columns are x1, x2, ... by position.
func (s *Schema) Named() bool { return s.Label != "" }

// Simple reports whether the schema says nothing a format-1 model does
// not: numeric columns named x1..xd, in order, with no missing-value
// features, no label name (a file without a header) and the label last.
// Such a model needs no schema in its file (Model.Schema nil).
func (s *Schema) Simple() bool {
	if s.Named() || len(s.Ignored) > 0 || s.LabelAt != 0 || s.Separator != 0 {
		return false
	}
	for i, in := range s.Inputs {
		if in.Kind != Numeric || in.MissingFeature || in.Name != Unnamed(i) {
			return false
		}
	}
	return true
}

// validate checks the schema against a model of d features.
func (s *Schema) validate(d int) error {
	fe := func(field, format string, args ...any) error {
		return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	if len(s.Inputs) == 0 {
		return fe("inputs", "is empty; a model reads at least one column")
	}
	for i, t := range s.Missing {
		if t == "" || t != strings.TrimSpace(t) || slices.Contains(s.Missing[:i], t) {
			return fe(fmt.Sprintf("missing[%d]", i), "%q: tokens are distinct, not empty, without spaces around (an empty field is always missing)", t)
		}
	}
	names := make(map[string]int, len(s.Inputs))
	for i, in := range s.Inputs {
		field := fmt.Sprintf("inputs[%d]", i)
		if j, ok := names[in.Name]; ok {
			return fe(field+".name", "%q is also the name of inputs[%d]", in.Name, j)
		}
		names[in.Name] = i
		switch in.Kind {
		case Numeric:
			if len(in.Levels) > 0 || in.Encoding != "" {
				return fe(field, "a numeric column has no levels or encoding")
			}
			if math.IsNaN(in.Fill) || math.IsInf(in.Fill, 0) {
				return fe(field+".fill", "is %v; want a finite number", in.Fill)
			}
		case Categorical:
			if in.Encoding == "" {
				s.Inputs[i].Encoding = OneHot // the default
			}
			if s.Inputs[i].Encoding != OneHot {
				return fe(field+".encoding", "%q; want %q", in.Encoding, OneHot)
			}
			if len(in.Levels) == 0 {
				return fe(field+".levels", "is empty; a categorical column has at least one level")
			}
			for k, l := range in.Levels {
				if IsMissing(l, s.Missing) {
					return fe(fmt.Sprintf("%s.levels[%d]", field, k), "%q means a missing value; it cannot be a level", l)
				}
			}
			for k := 1; k < len(in.Levels); k++ {
				if in.Levels[k-1] >= in.Levels[k] {
					return fe(fmt.Sprintf("%s.levels[%d]", field, k), "%q is not after %q; levels are sorted and distinct", in.Levels[k], in.Levels[k-1])
				}
			}
		default:
			return fe(field+".kind", "%q; want %q or %q", in.Kind, Numeric, Categorical)
		}
	}
	if s.LabelAt < 0 || s.LabelAt > len(s.Inputs) {
		return fe("label_at", "%d is out of range [0, %d]: the label's column among the %d inputs and the label, from 1, and 0 when it is last", s.LabelAt, len(s.Inputs), len(s.Inputs))
	}
	if j, ok := names[s.Label]; ok && s.Named() {
		return fe("label", "%q is also the name of inputs[%d]", s.Label, j)
	}
	for i, n := range s.Ignored {
		if _, ok := names[n]; ok || n == "" || n != strings.TrimSpace(n) || n == s.Label || slices.Contains(s.Ignored[:i], n) {
			return fe(fmt.Sprintf("ignored[%d]", i), "%q: ignored columns are named, distinct, and neither an input nor the label", n)
		}
	}
	if s.Separator != 0 && !slices.Contains(FieldSeparators[:], s.Separator) {
		return fe("separator", "%q; want one of %q", s.Separator, string(FieldSeparators[:]))
	}
	if w := s.Width(); w != d {
		return fe("inputs", "encode to %d features, want features = %d", w, d)
	}
	return nil
}

// ParseNumber parses a numeric field: a finite float64 of at most 256
// bytes, spaces around it ignored.
func ParseNumber(f string) (float64, error) {
	v, why := parseNumber(f)
	if why == isNumber {
		return v, nil
	}
	f = strings.TrimSpace(f)
	switch why {
	case tooLong:
		return 0, fmt.Errorf("field is %d bytes long; a number needs at most %d", len(f), maxNumber)
	case empty:
		return 0, fmt.Errorf("empty field")
	case outOfRange:
		return 0, fmt.Errorf("%q is out of the float64 range", f)
	case notNumber:
		return 0, fmt.Errorf("%q is not a number", f)
	default: // notFinite
		return 0, fmt.Errorf("%q is not finite", f)
	}
}

// IsNumber reports whether ParseNumber accepts f, without building the
// error of a field it refuses.
func IsNumber(f string) bool {
	_, why := parseNumber(f)
	return why == isNumber
}

// Why parseNumber refuses a field.
const (
	isNumber = iota
	tooLong
	empty
	outOfRange
	notNumber
	notFinite
)

// parseNumber is ParseNumber with the reason for a refusal in place of
// its error.
func parseNumber(f string) (float64, int) {
	f = strings.TrimSpace(f)
	if len(f) > maxNumber {
		return 0, tooLong
	}
	if f == "" {
		return 0, empty
	}
	v, err := strconv.ParseFloat(f, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
			return 0, outOfRange
		}
		return 0, notNumber
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, notFinite
	}
	return v, isNumber
}

// Level returns the level a categorical field stands for: the field with
// spaces around it removed and invalid UTF-8 replaced by U+FFFD, as a
// model file (JSON) keeps it.
func Level(field string) string {
	return strings.ToValidUTF8(strings.TrimSpace(field), "\uFFFD")
}

// Unnamed is the name of input column i (0-based, the label not counted)
// that has no name of its own: x1, x2, ... It names the columns of a file
// without a header, and those a header leaves empty.
func Unnamed(i int) string { return fmt.Sprintf("x%d", i+1) }

// maxNumber is the longest numeric field accepted, in bytes. Longer ones
// are hostile or corrupt; a float64 needs at most about 25 characters.
const maxNumber = 256

// IsMissing reports whether field is missing: empty (spaces aside) or one
// of tokens.
func IsMissing(field string, tokens []string) bool {
	f := strings.TrimSpace(field)
	return f == "" || slices.Contains(tokens, f)
}

// An Encoder turns records (one string field per input column, in the
// schema's order) into the feature vectors a model reads.
type Encoder struct {
	s      *Schema
	levels []map[string]int // per input, level -> index; nil for numeric
	d      int
}

// NewEncoder returns an encoder for s.
func NewEncoder(s *Schema) *Encoder {
	e := &Encoder{s: s, levels: make([]map[string]int, len(s.Inputs)), d: s.Width()}
	for i, in := range s.Inputs {
		if in.Kind == Categorical {
			e.levels[i] = make(map[string]int, len(in.Levels))
			for k, l := range in.Levels {
				e.levels[i][l] = k
			}
		}
	}
	return e
}

// ColumnError is a field an Encoder cannot read.
type ColumnError struct {
	Column int // 0-based input column
	Name   string
	Err    error
}

func (e *ColumnError) Error() string {
	return fmt.Sprintf("column %q: %v", e.Name, e.Err)
}

func (e *ColumnError) Unwrap() error { return e.Err }

// Encode writes the features of the record fields to dst (Width values).
// It reports whether a categorical field held a value seen in no training
// row (encoded like a missing one, with its missing feature 0). A numeric
// field that is neither missing nor a number is an error.
func (e *Encoder) Encode(dst []float64, fields []string) (unseen bool, err error) {
	cols, err := e.EncodeColumns(dst, fields, nil)
	return len(cols) > 0, err
}

// EncodeColumns is Encode, appending to unseen the input columns (their
// indices in the schema) whose value no training row had, and returning it.
func (e *Encoder) EncodeColumns(dst []float64, fields []string, unseen []int) ([]int, error) {
	if len(fields) != len(e.s.Inputs) {
		return unseen, fmt.Errorf("record has %d fields, want %d", len(fields), len(e.s.Inputs))
	}
	if len(dst) != e.d {
		return unseen, fmt.Errorf("destination has %d values, want %d", len(dst), e.d)
	}
	o := 0
	for i := range e.s.Inputs {
		in := &e.s.Inputs[i]
		f := fields[i]
		missing := IsMissing(f, e.s.Missing)
		if in.Kind == Numeric {
			v := in.Fill
			if missing && math.IsNaN(v) {
				return unseen, &ColumnError{Column: i, Name: in.Name, Err: errors.New("missing value, which this model cannot fill (a model of format songc-model/1 reads numbers only)")}
			}
			if !missing {
				var err error
				if v, err = ParseNumber(f); err != nil {
					return unseen, &ColumnError{Column: i, Name: in.Name, Err: err}
				}
			}
			dst[o] = v
			o++
		} else {
			clear(dst[o : o+len(in.Levels)])
			if !missing {
				if k, ok := e.levels[i][Level(f)]; ok {
					dst[o+k] = 1
				} else {
					unseen = append(unseen, i)
				}
			}
			o += len(in.Levels)
		}
		if in.MissingFeature {
			dst[o] = 0
			if missing {
				dst[o] = 1
			}
			o++
		}
	}
	return unseen, nil
}
