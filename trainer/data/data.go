// Package data reads the tabular data songc learns from and predicts on:
// CSV files (gzip'd or not) and MNIST-style IDX image/label pairs. It imports
// the standard library only.
//
// Every error a file can cause names the file, and for CSV the line and the
// 1-based column, so that `songc` can print it as one line. Nothing here
// panics on bad input.
//
// Class labels are kept as strings and ordered like pandas'
// factorize(sort=True), which the SONG authors used: if every label parses as
// a number, numerically; otherwise lexically. Numeric labels of one value
// are one class, as pandas reads them: "07", "7.0" and "7" are class "7",
// "1.50" and "1.5" class "1.5". Letter's A..Z become 0..25 and
// Connect-4's draw, loss, win become 0, 1, 2.
package data

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"embed"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/songc/songc/internal/text"
	"github.com/songc/songc/runtime"
)

// Dataset is a table of float64 features with optional string labels.
type Dataset struct {
	Name     string    // file name, for errors
	Rows     int       // number of rows
	Features int       // features per row
	X        []float64 // Rows x Features, row-major
	Labels   []string  // one label per row, or nil when the file has none
	Line     []int     // source line (CSV) or record number (IDX) per row, 1-based
	// Schema is the input columns the features encode: inferred from a
	// training file, or the model's for a file read by one; nil for IDX.
	Schema *runtime.Schema
	Header bool // the CSV file had a header row
	// Separator is the CSV file's field separator: a comma, or one of
	// Separators, found from its first lines.
	Separator rune
	// CommaPoints: a field of the file was a number written with a
	// decimal comma (in a file separated by semicolons), read as a point.
	CommaPoints bool
	Unseen      UnseenTally // rows with a categorical value seen in no training row
	// NumberedFirstRow: the training file's first row, read as data, numbers
	// the columns (0, 1, 2, ...), as a header of unnamed columns would.
	NumberedFirstRow bool
	// IndexColumn: the training file's first column has no name in its
	// header and a distinct whole number in every row, as the row index
	// pandas' to_csv writes; it is read as the input x1.
	IndexColumn bool
	// Identifiers are the training file's columns named like a row's
	// identifier (customer_id, ID) that hold a distinct whole number in
	// every row: read as numbers, they tell rows apart and nothing more.
	Identifiers []string
	// Mixed are the columns of a training file read as categorical
	// although most of their values are numbers.
	Mixed []MixedColumn
	// DecimalComma names the categorical columns of a training file not
	// separated by semicolons whose values are numbers, some written with
	// a decimal comma ("13,74"); Mixed and Scattered leave them out.
	DecimalComma []string
	// Thousands are the categorical columns of a training file whose
	// values are numbers, some written with thousands separators ("1,208";
	// in a file separated by semicolons, where "1,208" alone is the number
	// 1.208, "1.208,5", "12,345,678" or "1,208.5"), none of the others 1000
	// or more; Mixed, Scattered and DecimalComma leave them out.
	Thousands []ThousandsColumn
	// Constant are the input columns of a training file that hold one
	// value in every row, NoValue's left out.
	Constant []NamedColumn
	// Separating are the input columns of a training file that alone tell
	// apart the classes of every row, the mark of a leak (see separating);
	// not the index column or Identifiers, which are warned of already.
	Separating []NamedColumn
	// Dates are the categorical columns of a training file whose values
	// are all days (2024-03-15, 15.03.2024), perhaps with a time of day;
	// the other warnings of categorical columns leave them out.
	Dates []DateColumn
	// Units are the categorical columns of a training file whose values
	// are all numbers written with a unit (12%, $3.50), or plain numbers
	// and others written with one sign or in parentheses ((80.19)); Mixed
	// and Scattered leave them out.
	Units []UnitColumn
	// Twins are the categorical columns of a training file that hold
	// values that may be one value spelled in several ways (yes, Yes and
	// TRUE), each a category of its own.
	Twins []TwinsColumn
	// Marks are the numeric columns of a training file separated by
	// semicolons that hold numbers written with a decimal point and others
	// with a comma before three digits, which it reads as a decimal comma
	// (1,500 as 1.5): one of the two marks may separate thousands.
	Marks []MixedMarks
	// Zeros are the numeric columns of a training file (not forced so by
	// CSVOptions.Numeric, nor Identifiers or the index column) that hold a
	// whole number written with a leading zero (01234), as postal codes
	// and other codes are: read as numbers, they lose the zero and are
	// ordered by size.
	Zeros []ZerosColumn
	// Scattered are the categorical columns of a training file (not forced
	// so by CSVOptions.Categorical) with a distinct value in most rows.
	Scattered []ScatteredColumn
	// NoValue are the columns of a training file that have no value in
	// any row: each field is empty or a missing-value token.
	NoValue []NamedColumn
	// NoLabel counts the rows left out for a missing label.
	NoLabel Unlabelled
	// Reordered: the columns were matched to the model's by name, in
	// another order.
	Reordered bool
	// SkippedHeader: the first row was read as a header and skipped, and
	// the columns by position (CSVStream.SkippedHeader).
	SkippedHeader bool
	// ByPosition: the file has no header, and the columns of a model that
	// names them were read by position (CSVStream.ByPosition).
	ByPosition bool
}

// Repeats returns how many rows repeat an earlier row exactly: the same
// features, bit for bit, and the same label (rows are told apart by a
// 64-bit hash of them, which two distinct rows share with odds of about
// one in 2^64 per pair).
func (ds *Dataset) Repeats() int {
	seen := make(map[uint64]struct{}, ds.Rows)
	k := newRowKeys()
	n := 0
	for i := range ds.Rows {
		h := k.of(ds, i)
		if _, ok := seen[h]; ok {
			n++
			continue
		}
		seen[h] = struct{}{}
	}
	return n
}

// Shared returns how many rows of ds repeat a row of other exactly, as
// Repeats tells rows apart: a test file's rows that the model trained on,
// when other is its training file (read by the same schema).
func (ds *Dataset) Shared(other *Dataset) int {
	if ds.Features != other.Features {
		return 0
	}
	seen := make(map[uint64]struct{}, other.Rows)
	k := newRowKeys()
	for i := range other.Rows {
		seen[k.of(other, i)] = struct{}{}
	}
	n := 0
	for i := range ds.Rows {
		if _, ok := seen[k.of(ds, i)]; ok {
			n++
		}
	}
	return n
}

// rowKeys hashes rows for Repeats and Shared.
type rowKeys struct {
	seed maphash.Seed
	b    []byte
}

func newRowKeys() *rowKeys { return &rowKeys{seed: maphash.MakeSeed()} }

// of returns the hash of row i of ds: its features' bits and its label.
func (k *rowKeys) of(ds *Dataset, i int) uint64 {
	k.b = k.b[:0]
	for _, v := range ds.Row(i) {
		k.b = binary.LittleEndian.AppendUint64(k.b, math.Float64bits(v))
	}
	if ds.Labels != nil {
		k.b = append(k.b, ds.Labels[i]...)
	}
	return maphash.Bytes(k.seed, k.b)
}

// Unlabelled counts the rows of a labelled file that are left out because
// their label is missing (empty, or a missing-value token: Stream.Label
// returns "" for them): they have no class to learn or score.
type Unlabelled struct {
	Rows  int    // rows left out
	First int    // the first one's line
	Token string // the first missing-value token that was a label ("NA"); "" if only empty ones were
}

// Leave reports whether the current row of st (a Stream or a CSVStream)
// has no label, counting it.
func (u *Unlabelled) Leave(st interface {
	Labelled() bool
	Label() string
	MissingLabel() string
	Line() int
}) bool {
	if !st.Labelled() || st.Label() != "" {
		return false
	}
	if u.Rows++; u.Rows == 1 {
		u.First = st.Line()
	}
	if u.Token == "" {
		u.Token = strings.Clone(st.MissingLabel()) // not its record's line
	}
	return true
}

// Err is the error of a file of name whose every row was left out (kept
// rows none), naming the missing-value tokens; nil otherwise.
func (u Unlabelled) Err(name string, kept int, missing []string) error {
	if kept > 0 || u.Rows == 0 {
		return nil
	}
	if len(missing) == 0 {
		return fmt.Errorf("%s: every row's label is missing (empty)", name)
	}
	return fmt.Errorf("%s: every row's label is missing (empty, or one of the missing-value tokens %s)", name, QuoteList(missing, 8))
}

// MixedColumn is a column of a training file that is read as categorical
// (one feature per distinct value) because some of its values are not
// numbers, although most are: often missing values written another way
// ("nan", "-"), or numbers with a unit or a decimal comma.
type MixedColumn struct {
	Name           string
	Numbers, Words int      // values that are numbers, and that are not (nor missing)
	Some           []string // the first few distinct values that are not numbers
	More           bool     // there are other distinct ones
	FirstOnly      bool     // the one value that is not a number is the first row's, read as data
}

// Examples quotes mc.Some, with ", ..." when there are More.
func (mc MixedColumn) Examples() string {
	s := QuoteList(mc.Some, len(mc.Some))
	if mc.More {
		s += ", ..."
	}
	return s
}

// A NamedColumn is an input column: its Name, and the name --ignore
// knows it by (they differ where the header leaves the column unnamed).
type NamedColumn struct{ Name, Ignore string }

// A UnitColumn is a categorical column whose values are numbers written
// with the same unit (a suffix, or a prefix of symbols), or numbers of
// which those that are not plain are all written with one currency or
// percent sign, or all in parentheses. Like is one of its values (one of
// those not plain).
type UnitColumn struct{ Name, Unit, Like string }

// Written says how the column's numbers are written: numbers written with
// "$", or negative numbers written in parentheses.
func (u UnitColumn) Written() string {
	if u.Unit == parentheses {
		return "negative numbers written in parentheses"
	}
	return fmt.Sprintf("numbers written with %q", u.Unit)
}

// A ZerosColumn is a numeric column with a whole number written with a
// leading zero; Like is the first such value.
type ZerosColumn struct{ Name, Like string }

// A DateColumn is a categorical column whose values are all days; Ignore
// is the name --ignore knows it by, and Like the first value in the
// column's level order.
type DateColumn struct{ Name, Ignore, Like string }

// A TwinsColumn is a categorical column some of whose values may be one
// value spelled in several ways: Groups holds them, as Twins returns them.
type TwinsColumn struct {
	Name   string
	Groups [][]string
}

// A ThousandsColumn is a categorical column whose values are numbers, some
// written with thousands separators; Like is the first of those in the
// column's level order.
type ThousandsColumn struct{ Name, Like string }

// MixedMarks is a numeric column of a file separated by semicolons whose
// numbers are written with both decimal marks: Point ("2.75") and Comma
// ("1,500"), the first of each.
type MixedMarks struct{ Name, Point, Comma string }

// CommaRead is the number songc reads Comma as, its comma a decimal mark
// (1,500 as 1.5).
func (m MixedMarks) CommaRead() float64 {
	p, _ := decimalPoint(m.Comma)
	v, _ := runtime.ParseNumber(p)
	return v
}

// An UnseenTally counts the rows of a file read for a model that hold a
// categorical value seen in no training row, in all and per input column.
type UnseenTally struct {
	Rows   int
	Column []int // rows per input column, in the schema's order; nil until a row has one
}

// Add counts the current row of st (a Stream or a CSVStream).
func (u *UnseenTally) Add(st interface{ UnseenColumns() []int }) {
	cols := st.UnseenColumns()
	if len(cols) == 0 {
		return
	}
	u.Rows++
	for _, i := range cols {
		if i >= len(u.Column) {
			u.Column = append(u.Column, make([]int, i+1-len(u.Column))...)
		}
		u.Column[i]++
	}
}

// ByName returns the rows per column name of s, for the columns that held
// an unseen value; nil when none did.
func (u *UnseenTally) ByName(s *runtime.Schema) map[string]int {
	var m map[string]int
	for i, n := range u.Column {
		if n > 0 {
			if m == nil {
				m = map[string]int{}
			}
			m[s.Inputs[i].Name] = n
		}
	}
	return m
}

// Columns says which columns held the unseen values, the most rows first
// (up to three, then how many more): "color" in 10 rows, "city" in 3.
func (u *UnseenTally) Columns(s *runtime.Schema) string {
	var idx []int
	for i, n := range u.Column {
		if n > 0 {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int { return u.Column[b] - u.Column[a] })
	var b strings.Builder
	for k, i := range idx {
		if k == 3 {
			b.WriteString(" and " + text.Count(len(idx)-k, "more column"))
			break
		}
		if k == 0 {
			fmt.Fprintf(&b, "%q in %s", s.Inputs[i].Name, text.Count(u.Column[i], "row"))
		} else {
			fmt.Fprintf(&b, ", %q in %d", s.Inputs[i].Name, u.Column[i])
		}
	}
	return b.String()
}

// A ScatteredColumn is a categorical column whose values are mostly
// distinct: at least MinScattered of them, and more than half the column's
// values (missing ones not counted). An identifier, a date, free text or
// numbers written with a unit or a decimal comma read so, and the model can
// learn little from a value that one row holds.
type ScatteredColumn struct {
	Name           string
	Ignore         string // the name --ignore knows it by (csvReader.ignore)
	Levels, Values int
	Some           []string // the first few levels, sorted
}

// MinScattered is the fewest distinct values a ScatteredColumn has.
const MinScattered = 20

// Row returns the features of row i.
func (d *Dataset) Row(i int) []float64 { return d.X[i*d.Features : (i+1)*d.Features] }

// constant returns the inputs (their places in the Schema) whose features
// are the same in every row (a value repeated down the column, missing or
// not), of which a model learns nothing; nil for fewer than two rows or no
// Schema. The columns NoValue names are among them.
func (d *Dataset) constant() []int {
	if d.Schema == nil || d.Rows < 2 || d.Schema.Width() != d.Features {
		return nil
	}
	var out []int
	off := 0
	for i := range d.Schema.Inputs {
		in := &d.Schema.Inputs[i]
		w := in.Width()
		same := true
		for r := 1; r < d.Rows && same; r++ {
			same = slices.Equal(d.X[r*d.Features+off:r*d.Features+off+w], d.X[off:off+w])
		}
		if same {
			out = append(out, i)
		}
		off += w
	}
	return out
}

// MinSeparatingClass is the fewest rows each class must have for
// separating to look for a column that tells the classes apart alone: a
// column sets apart a class of one or two rows by chance (its lowest or
// highest value) far too often to say anything.
const MinSeparatingClass = 5

// separating returns the inputs (their places in the Schema) that alone
// tell apart the classes of every row: a numeric column with a value in
// every row whose classes each hold an interval of values of their own,
// or a categorical one with at most a tenth as many values as rows (not
// an identifier) whose values each belong to one class. On real data a
// column like that is most often a leak: recorded after the outcome,
// derived from the label, or a row number of a file sorted by it. nil
// when a class has fewer than MinSeparatingClass rows, for a single
// class, or with no Schema.
func (d *Dataset) separating() []int {
	if d.Schema == nil || d.Labels == nil || d.Schema.Width() != d.Features {
		return nil
	}
	names, err := d.ClassNames() // fails for a single class
	if err != nil {
		return nil
	}
	class, err := d.Targets(names)
	if err != nil {
		return nil
	}
	size := make([]int, len(names))
	for _, k := range class {
		size[k]++
	}
	if slices.Min(size) < MinSeparatingClass {
		return nil
	}
	var out []int
	lo, hi, order := make([]float64, len(names)), make([]float64, len(names)), make([]int, len(names))
	off := 0
	for i := range d.Schema.Inputs {
		in := &d.Schema.Inputs[i]
		if d.separates(in, off, class, lo, hi, order) {
			out = append(out, i)
		}
		off += in.Width()
	}
	return out
}

// separates reports whether input in, whose features start at off, alone
// tells apart the classes of d's rows (separating), where class numbers
// each row's class; lo, hi and order are scratch space of one per class.
func (d *Dataset) separates(in *runtime.Input, off int, class []int, lo, hi []float64, order []int) bool {
	f := func(r, k int) float64 { return d.X[r*d.Features+off+k] }
	if in.Kind == runtime.Categorical {
		if len(in.Levels)*10 > d.Rows {
			return false
		}
		of := make([]int, len(in.Levels)+1) // each level's class plus 1, and missing's; 0: none yet
		for r := range d.Rows {
			v := len(in.Levels)
			for k := range in.Levels {
				if f(r, k) != 0 {
					v = k
					break // one-hot: the row's one level
				}
			}
			if of[v] == 0 {
				of[v] = class[r] + 1
			} else if of[v] != class[r]+1 {
				return false
			}
		}
		return true
	}
	// Each class's values lie in an interval of their own when the
	// classes' ranges do not meet.
	for k := range lo {
		lo[k], hi[k] = math.Inf(1), math.Inf(-1)
	}
	for r := range d.Rows {
		if in.MissingFeature && f(r, 1) != 0 {
			return false
		}
		v, k := f(r, 0), class[r]
		lo[k], hi[k] = min(lo[k], v), max(hi[k], v)
	}
	for k := range order {
		order[k] = k
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(lo[a], lo[b]) })
	for k := 1; k < len(order); k++ {
		if lo[order[k]] <= hi[order[k-1]] {
			return false
		}
	}
	return true
}

// canonical returns the class of a numeric label s and whether s is a
// finite number: the integer form of an integer ("07" and "7.0" are "7"),
// and the shortest form of any other number ("1.50" is "1.5"), as pandas
// reads a column of numbers. NaN and the infinities are not numbers here.
func canonical(s string) (c string, v float64, ok bool) {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return strconv.FormatInt(i, 10), float64(i), true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return s, 0, false
	}
	if f == math.Trunc(f) && math.Abs(f) < 1<<63 {
		return strconv.FormatInt(int64(f), 10), f, true
	}
	return strconv.FormatFloat(f, 'g', -1, 64), f, true
}

// LabelKey returns the form by which a label is matched to a class:
// canonical's for a number ("07", "7.0" and "7" are "7"), the label itself
// otherwise.
func LabelKey(label string) string {
	c, _, _ := canonical(label)
	return c
}

// ClassNames returns the sorted set of labels (see the package comment for
// the order). It fails when the file has no labels or a single class.
func (d *Dataset) ClassNames() ([]string, error) {
	if d.Labels == nil {
		return nil, fmt.Errorf("%s: has no label column", d.Name)
	}
	set := map[string]bool{}
	for _, l := range d.Labels {
		set[l] = true
	}
	value := map[string]float64{} // the classes, while every label is a number
	for l := range set {
		c, v, ok := canonical(l)
		if !ok {
			value = nil
			break
		}
		value[c] = v // "01", "1.0" and "1" are one class
	}
	names := make([]string, 0, len(set))
	if value != nil {
		for c := range value {
			names = append(names, c)
		}
		sort.Slice(names, func(i, j int) bool { // ties: integers float64 cannot tell apart
			a, b := names[i], names[j]
			return value[a] < value[b] || value[a] == value[b] && a < b
		})
	} else {
		for l := range set {
			names = append(names, l)
		}
		sort.Strings(names)
	}
	if len(names) < 2 {
		return nil, fmt.Errorf("%s: all %d rows have the same label %q; need at least 2 classes", d.Name, d.Rows, names[0])
	}
	return names, nil
}

// Targets maps each row's label to its index in classNames. A label the
// class set does not know is an error naming its line.
func (d *Dataset) Targets(classNames []string) ([]int, error) {
	if d.Labels == nil {
		return nil, fmt.Errorf("%s: has no label column", d.Name)
	}
	index := ClassIndex(classNames)
	y := make([]int, d.Rows)
	for i, l := range d.Labels {
		k, err := index(l)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", d.Name, d.Line[i], err)
		}
		y[i] = k
	}
	return y, nil
}

// ClassIndex returns the function that maps a label to its index among
// classNames (ClassLookup), and fails for a label that is not one of them.
func ClassIndex(classNames []string) func(label string) (int, error) {
	lookup := ClassLookup(classNames)
	return func(l string) (int, error) {
		k, ok := lookup(l)
		if !ok {
			return 0, fmt.Errorf("label %q is not one of the %d classes of the training rows (%s); a model trained on them predicts only these", l, len(classNames), QuoteList(classNames, 8))
		}
		return k, nil
	}
}

// ClassLookup returns the function that maps a label to its index among
// classNames, a numeric label matching its canonical form ("07" and "7.0"
// are "7", "2.50" is "2.5"), and reports whether it is one of them.
func ClassLookup(classNames []string) func(label string) (int, bool) {
	index := make(map[string]int, len(classNames))
	for k, name := range classNames {
		index[name] = k
	}
	return func(l string) (int, bool) {
		k, ok := index[l]
		if !ok {
			k, ok = index[LabelKey(l)] // 07 for 7
		}
		return k, ok
	}
}

// Gather copies rows idx, one after another, to the start of dst and
// returns that part of dst, which must hold them.
func (d *Dataset) Gather(dst []float64, idx []int) []float64 {
	f := d.Features
	for k, i := range idx {
		copy(dst[k*f:(k+1)*f], d.Row(i))
	}
	return dst[:len(idx)*f]
}

// Subset returns the rows idx of d as a new dataset (copies).
func (d *Dataset) Subset(idx []int) *Dataset {
	s := &Dataset{Name: d.Name, Rows: len(idx), Features: d.Features, Schema: d.Schema, Header: d.Header,
		X: make([]float64, len(idx)*d.Features), Line: make([]int, len(idx))}
	if d.Labels != nil {
		s.Labels = make([]string, len(idx))
	}
	d.Gather(s.X, idx)
	for k, i := range idx {
		s.Line[k] = d.Line[i]
		if d.Labels != nil {
			s.Labels[k] = d.Labels[i]
		}
	}
	return s
}

// maybeGzip returns a reader of the decompressed content of r when it starts
// with the gzip magic bytes, and r itself otherwise.
func maybeGzip(r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	magic, err := br.Peek(2)
	if err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		return gzip.NewReader(br)
	}
	return br, nil
}

// openMaybeGzip opens path and returns a reader of its (decompressed) bytes.
func openMaybeGzip(path string) (io.Reader, io.Closer, error) {
	f, err := openFile(path)
	if err != nil {
		return nil, nil, err
	}
	r, err := unzipped(f, path)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return r, f, nil
}

// openFile opens the data file at path, refusing - (standard input, which
// only predict and eval read, through ReadStream) and a directory.
func openFile(path string) (*os.File, error) {
	if path == "-" {
		return nil, errors.New(`"-" names standard input, which only predict and eval read rows from: give this command a file`)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%s: is a directory; give a data file: CSV text, plain or gzip'd, or IDX", path)
	}
	return f, nil
}

// unzipped is maybeGzip for r, named name in its error.
func unzipped(r io.Reader, name string) (io.Reader, error) {
	z, err := maybeGzip(r)
	if err != nil {
		return nil, fmt.Errorf("%s: bad gzip header: %v", name, err)
	}
	return z, nil
}

// openCSV is openMaybeGzip for a CSV file. A file that holds JSON objects
// (a songc model or training log given where rows go) is refused, saying
// what it is, instead of failing on a quote in its second line.
func openCSV(path string) (io.Reader, io.Closer, error) {
	r, c, err := openMaybeGzip(path)
	if err != nil {
		return nil, nil, err
	}
	br, err := csvText(r, path, path)
	if err != nil {
		c.Close()
		return nil, nil, err
	}
	return br, c, nil
}

// csvText returns a buffered reader of r, refusing it, as name, when its
// first bytes show it cannot be CSV text (notCSV, whose advice names the
// file as path).
func csvText(r io.Reader, name, path string) (*bufio.Reader, error) {
	br, ok := r.(*bufio.Reader) // a plain file's, from maybeGzip
	if !ok {
		br = bufio.NewReader(r)
	}
	head, _ := br.Peek(512)
	if why := notCSV(path, head); why != "" {
		return nil, fmt.Errorf("%s: %s", name, why)
	}
	return br, nil
}

// notCSV says why a file whose first bytes are head cannot be CSV text
// songc reads, or returns "": JSON (a model or a training log given where
// rows go), UTF-16 text, a zip archive (an .xlsx workbook is one) or a
// compression other than gzip.
func notCSV(path string, head []byte) string {
	utf16 := "is UTF-16 text (its first two bytes say so), and songc reads UTF-8: convert it, e.g. iconv -f UTF-16 -t UTF-8 " + path + " > utf8.csv, or save it as CSV UTF-8"
	for _, f := range []struct{ magic, why string }{
		{"\xff\xfe", utf16},
		{"\xfe\xff", utf16},
		{"PK\x03\x04", "is a zip archive (as an .xlsx workbook is), and songc reads CSV text, plain or gzip'd: unzip it, or save the sheet as CSV UTF-8"},
		{"BZh", compressed("bzip2", "bunzip2")},
		{"\xfd7zXZ\x00", compressed("xz", "unxz")},
		{"\x28\xb5\x2f\xfd", compressed("zstd", "unzstd")},
	} {
		if bytes.HasPrefix(head, []byte(f.magic)) {
			return f.why
		}
	}
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(t) < 2 || t[0] != '{' || !bytes.HasPrefix(bytes.TrimLeft(t[1:], " \t\r\n"), []byte{'"'}) {
		return ""
	}
	what := "JSON"
	switch {
	case bytes.Contains(head, []byte(`"songc-model/`)):
		what = "a songc model"
	case bytes.HasPrefix(t, []byte(`{"epoch"`)):
		what = "a training log"
	}
	return fmt.Sprintf("holds %s, not rows of data: --data names a CSV file of rows", what)
}

// compressed says that a file is compressed by a tool songc does not read,
// and which tool decompresses it.
func compressed(name, tool string) string {
	return fmt.Sprintf("is %s-compressed, and songc reads CSV text, plain or gzip'd: decompress it (%s) or gzip it", name, tool)
}

// readErr names the file in a read error, calling a cut-short gzip stream
// what it is.
func readErr(name string, err error) error {
	if err == io.ErrUnexpectedEOF || err == gzip.ErrChecksum {
		return fmt.Errorf("%s: file is cut short or corrupt (%v)", name, err)
	}
	return fmt.Errorf("%s: %w", name, err)
}

//go:embed letter/train.csv.gz letter/test.csv.gz
var embedded embed.FS

// Letter returns the embedded UCI Letter Recognition data (CC BY 4.0, see
// letter/LICENSE.md) with the SONG authors' split: 18000 training rows and
// 2000 test rows, 16 features, labels A..Z.
func Letter() (train, test *Dataset, err error) {
	read := func(name string) (*Dataset, error) {
		f, err := embedded.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r, err := maybeGzip(f)
		if err != nil {
			return nil, err
		}
		return ReadCSV(r, "embedded:"+name, CSVOptions{})
	}
	if train, err = read("letter/train.csv.gz"); err != nil {
		return nil, nil, err
	}
	if test, err = read("letter/test.csv.gz"); err != nil {
		return nil, nil, err
	}
	return train, test, nil
}
