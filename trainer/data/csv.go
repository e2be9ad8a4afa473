package data

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/songc/songc/internal/text"
	"github.com/songc/songc/runtime"
)

// Header says whether a CSV file starts with a header row.
type Header int

const (
	HeaderAuto Header = iota // decided from the file (see ReadCSV and CSVStream)
	HeaderYes
	HeaderNo
)

// CSVOptions control how CSV files are read.
type CSVOptions struct {
	Header Header
	// LabelCol is "last", "first", "none", a 1-based column number, or
	// the label column's name in the header. Empty is "last", except for
	// a file read by position for a Schema whose LabelAt is set: its label
	// is then where the training file had it.
	LabelCol string
	// Schema, when set, is the input columns of a model: rows are encoded
	// by it (CSVStream). Without it, ReadCSV infers one from the file.
	Schema *runtime.Schema
	// Named says that Schema's names came from a training file's header:
	// a file with a header is then matched to them by name. Otherwise
	// columns are positional and a header row is skipped.
	Named bool
	// Missing are the tokens that mean a missing field besides an empty
	// one, when ReadCSV infers a schema (nil: runtime.DefaultMissing).
	Missing []string
	// Categorical and Numeric name the columns whose kind ReadCSV must not
	// infer: categorical, or numeric (where a field that is not a number
	// is an error).
	Categorical, Numeric []string
	// MayLack names columns that a training file may lack of those Ignore
	// names, because another file read for the model holds them (the
	// header of train's test file); the schema records them with the
	// others.
	MayLack []string
	// Ignore names columns of a file's header to leave out. ReadCSV's
	// schema records them (Schema.Ignored), so that files read for the
	// model may hold them; a file read for a model (Schema set) leaves
	// them out besides the schema's own, and each must be in its header
	// and none an input of the model.
	Ignore []string
	// Keep names columns of a file's header whose fields a file read for
	// a model carries through row by row, as the file writes them
	// (Stream.Kept): an identifier to print beside a prediction. Of a
	// model whose names came from a header, a kept column it does not read
	// is left out of its inputs, as Ignore leaves one out.
	Keep []string
	// KeepHint says that the command takes Keep: an error about columns
	// the model does not know offers it too.
	KeepHint bool
	// Separator is the field separator, one of runtime.FieldSeparators
	// (a file whose first line "sep=;" names another is an error); 0: the
	// one that line names, or else the Schema's, when it has one, or else
	// the one found from the file's first lines. ReadCSV records a given
	// one in the schema it infers.
	Separator rune
}

// width is the number of features of the model's input columns, 0 when
// there is no model.
func (o CSVOptions) width() int {
	if o.Schema == nil {
		return 0
	}
	return o.Schema.Width()
}

// MaxLevels is the most distinct values a categorical column may have:
// each becomes a feature. A column with more is an identifier or free text
// and must be dropped or declared numeric.
const MaxLevels = 1000

// keyword reports whether a label column spec is a position rather than a
// name.
func keyword(spec string) bool {
	switch strings.ToLower(spec) {
	case "", "last", "first", "none":
		return true
	}
	_, err := strconv.Atoi(spec)
	return err == nil
}

// labelIndex resolves a positional label column spec for rows of width
// fields: -1 means none.
func labelIndex(spec string, width int) (int, error) {
	switch strings.ToLower(spec) {
	case "", "last":
		return width - 1, nil
	case "first":
		return 0, nil
	case "none":
		return -1, nil
	}
	k, err := strconv.Atoi(spec)
	if err != nil || k < 1 {
		return 0, fmt.Errorf("label column %q: want last, first, a column number >= 1 or a name in the header", spec)
	}
	if k > width {
		return 0, fmt.Errorf("label column %d: rows have only %d columns", k, width)
	}
	return k - 1, nil
}

// ReadCSVFile reads the CSV file at path (gzip'd or not), as ReadCSV.
func ReadCSVFile(path string, opt CSVOptions) (*Dataset, error) {
	if opt.Schema != nil {
		r, c, err := openCSV(path)
		if err != nil {
			return nil, err
		}
		defer c.Close()
		return readAll(NewCSVStream(r, path, opt), path)
	}
	return readCSV(func() (io.Reader, io.Closer, error) { return openCSV(path) }, path, opt)
}

// ReadCSV reads a whole CSV table from r. name is used in errors.
//
// With opt.Schema the rows are encoded by it, as CSVStream does. Without,
// the table is training data and ReadCSV infers its schema, which it sets
// as the dataset's Schema: a header row's names (x1..xd without one); a
// column is categorical when a field that is not missing is not a number,
// with its distinct values as levels; a column with a missing field gets a
// missing-value feature; a numeric column's fill is the median of its
// values. With HeaderAuto, the first row is a header when a column holds a
// word there and numbers below, or when every feature field of the first
// row is a word that appears nowhere below in its column.
func ReadCSV(r io.Reader, name string, opt CSVOptions) (*Dataset, error) {
	if opt.Schema != nil {
		return readAll(NewCSVStream(r, name, opt), name)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, readErr(name, err)
	}
	return readCSV(func() (io.Reader, io.Closer, error) { return bytes.NewReader(b), io.NopCloser(nil), nil }, name, opt)
}

// HeaderNames returns the fields of the first row of the CSV file at path
// (gzip'd or not), as a header would name its columns: spaces around them
// removed, and an empty one named by its place (x1, x2, ...). sep is the
// separator, as CSVOptions.Separator.
func HeaderNames(path string, sep rune) ([]string, error) {
	r, c, err := openCSV(path)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	cr := newCSVReader(r, CSVOptions{Separator: sep})
	for {
		rec, err := cr.Read()
		if err != nil {
			return nil, csvErr(path, err)
		}
		if blankRecord(rec) {
			continue
		}
		return cr.headerNames(rec), nil
	}
}

// caseMatches returns the names that a field of header spells only in
// other cases, and those fields (as levels, trimmed), in the order of
// names.
func caseMatches(names, header []string) (ours, theirs []string) {
	for _, n := range names {
		for _, f := range header {
			if f = runtime.Level(f); f != n && strings.EqualFold(f, n) {
				ours, theirs = append(ours, n), append(theirs, f)
				break
			}
		}
	}
	return ours, theirs
}

// caseHint returns, for the first of names that a field of header spells
// in other cases, a hint naming that field; else, for the first that is a
// typo of a field (text.Nearest), a hint naming the field; else "".
func caseHint(names, header []string) string {
	if _, theirs := caseMatches(names, header); len(theirs) > 0 {
		return fmt.Sprintf("; names are case-sensitive: did you mean %q?", theirs[0])
	}
	levels := make([]string, len(header))
	for j, f := range header {
		levels[j] = runtime.Level(f)
	}
	for _, n := range names {
		if near := text.Nearest(n, levels); near != "" {
			return fmt.Sprintf("; did you mean %q?", near)
		}
	}
	return ""
}

// headerCaseHint says which of a header's names (file) differ from the
// model's names (model) only in case, for an error on a file read for a
// model, and returns those names of file; "" when none do.
func headerCaseHint(model, file []string) (hint string, theirs []string) {
	ours, theirs := caseMatches(model, file)
	if len(ours) == 0 {
		return "", nil
	}
	return fmt.Sprintf("; names are case-sensitive, and the header writes %s where the model has %s: write them as the model does", QuoteList(theirs, 8), QuoteList(ours, 8)), theirs
}

// CleanNames returns names without spaces around them, empty names and
// repeats, as --ignore and --keep take them.
func CleanNames(names []string) []string {
	var out []string
	for _, n := range names {
		if n = strings.TrimSpace(n); n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// readCSV infers the schema of the table that open opens (pass one), then
// reads it with that schema (pass two) and sets the numeric fill values.
func readCSV(open func() (io.Reader, io.Closer, error), name string, opt CSVOptions) (*Dataset, error) {
	if opt.Missing == nil {
		opt.Missing = runtime.DefaultMissing
	}
	opt.Ignore = CleanNames(opt.Ignore)
	r, c, err := open()
	if err != nil {
		return nil, err
	}
	sc, err := scanTable(r, name, opt)
	c.Close()
	if err != nil {
		return nil, err
	}
	schema, header, label, err := sc.schema(name, opt)
	if err != nil {
		return nil, err
	}
	for _, in := range schema.Inputs {
		if slices.Contains(opt.Ignore, in.Name) {
			return nil, fmt.Errorf("%s: --ignore %q also names a column the model reads (--ignore names a column the header leaves unnamed by its place in the file, the model by its place among the inputs); name the columns in the header", name, in.Name)
		}
	}
	if r, c, err = open(); err != nil {
		return nil, err
	}
	defer c.Close()
	o := CSVOptions{Header: HeaderNo, LabelCol: "none", Schema: schema, Named: header}
	if header {
		o.Header = HeaderYes
	}
	if label >= 0 {
		o.LabelCol = strconv.Itoa(sc.cr.Column(label) + 1) // the file's column
	}
	ds, err := readAll(NewCSVStream(r, name, o), name)
	if err != nil {
		return nil, err
	}
	ds.Header = header
	ds.NumberedFirstRow = !header && opt.Header == HeaderAuto && columnNumbers(sc.firstLevel)
	sc.noteColumns(ds, label, opt, setFills(ds))
	return ds, nil
}

// identifierName reports whether a column's name reads as a row's
// identifier: id, ID or Id alone or at the end after a separator or a
// lower-case letter (customer_id, CustomerID, customerId; not paid or
// valid), or index, idx, row, rownum, row_number.
func identifierName(name string) bool {
	switch strings.ToLower(name) {
	case "id", "index", "idx", "row", "rownum", "row_number":
		return true
	}
	for _, id := range []string{"ID", "Id"} { // customerID, customerId
		if rest, ok := strings.CutSuffix(name, id); ok && rest != "" && unicode.IsLower(rune(rest[len(rest)-1])) {
			return true
		}
	}
	if rest, ok := strings.CutSuffix(strings.ToLower(name), "id"); ok && rest != "" {
		return strings.ContainsRune("_- .", rune(rest[len(rest)-1]))
	}
	return false
}

// ignoreName is the name --ignore knows column j of t by: its header's
// name (the input's, name), or, where the header leaves it unnamed, x1,
// x2, ... by its place in the file, which the input's name need not be.
func (t *table) ignoreName(j int, name string) string {
	if t.firstLevel[j] == "" {
		return runtime.Unnamed(t.cr.Column(j))
	}
	return name
}

// noteColumns sets the columns of ds that train warns of: the categorical
// ones (those opt.Categorical does not force) in Dates, Thousands,
// DecimalComma, Units, Mixed or Scattered, each in the first that takes it
// (noteCategorical); every one some of whose levels may be one value
// spelled in several ways (Twins), forced or not, in Twins; the numeric ones written with both decimal marks
// in Marks, and those with a whole number written with a leading zero
// (and not forced so by opt.Numeric) in Zeros; and, of the numeric ones
// with a distinct whole number in every row (distinct, by input), the
// unnamed first column as IndexColumn and those named like identifiers as
// Identifiers, those with one value in every row as Constant, and those
// that alone tell the classes apart as Separating. label is the label's
// column of t; schema has counted the first row's fields when it is data.
func (t *table) noteColumns(ds *Dataset, label int, opt CSVOptions, distinct []bool) {
	column := make([]int, len(ds.Schema.Inputs)) // the column of t of each input
	j := 0
	for i, in := range ds.Schema.Inputs {
		if j == label {
			j++
		}
		column[i] = j
		if distinct[i] && ds.Header {
			switch {
			case t.firstLevel[j] != "":
				if identifierName(in.Name) {
					ds.Identifiers = append(ds.Identifiers, in.Name)
				}
			case j == 0 && t.cr.Column(0) == 0: // the file's first, so that --ignore x1 names it
				ds.IndexColumn = true
			}
		}
		if in.Kind == runtime.Numeric && t.zeros[j] != "" && !slices.Contains(opt.Numeric, in.Name) &&
			!slices.Contains(ds.Identifiers, in.Name) && !(ds.IndexColumn && i == 0) {
			ds.Zeros = append(ds.Zeros, ZerosColumn{Name: in.Name, Like: t.zeros[j]})
		}
		if in.Kind == runtime.Numeric && t.point[j] != "" && t.comma[j] != "" {
			ds.Marks = append(ds.Marks, MixedMarks{Name: in.Name, Point: t.point[j], Comma: t.comma[j]})
		}
		if g := Twins(in.Levels); g != nil { // categorical ones have levels
			ds.Twins = append(ds.Twins, TwinsColumn{Name: in.Name, Groups: g})
		}
		if in.Kind == runtime.Categorical && !slices.Contains(opt.Categorical, in.Name) {
			t.noteCategorical(ds, in, j, opt.Missing)
		}
		j++
	}
	empty := make(map[string]bool) // the inputs in NoValue
	for k, c := range ds.NoValue {
		i := slices.IndexFunc(ds.Schema.Inputs, func(in runtime.Input) bool { return in.Name == c.Name })
		ds.NoValue[k].Ignore, empty[c.Name] = t.ignoreName(column[i], c.Name), true
	}
	for _, i := range ds.constant() {
		if name := ds.Schema.Inputs[i].Name; !empty[name] {
			ds.Constant = append(ds.Constant, NamedColumn{Name: name, Ignore: t.ignoreName(column[i], name)})
		}
	}
	for _, i := range ds.separating() {
		name := ds.Schema.Inputs[i].Name
		if slices.Contains(ds.Identifiers, name) || ds.IndexColumn && i == 0 {
			continue
		}
		ds.Separating = append(ds.Separating, NamedColumn{Name: name, Ignore: t.ignoreName(column[i], name)})
	}
}

// noteCategorical puts the categorical input in, column j of t, in the
// first of ds's warnings that takes it: dates (Dates), numbers with thousands separators
// (Thousands), with a decimal comma in a file not separated by semicolons
// (DecimalComma), with a unit (Units), numbers but for a few words
// (Mixed), or a distinct value in most rows (Scattered). missing is the
// missing-value tokens.
func (t *table) noteCategorical(ds *Dataset, in runtime.Input, j int, missing []string) {
	if dates(in.Levels) {
		ds.Dates = append(ds.Dates, DateColumn{Name: in.Name, Ignore: t.ignoreName(j, in.Name), Like: in.Levels[0]})
		return
	}
	if like := thousandsGroups(in.Levels, ds.Separator == ';'); like != "" {
		ds.Thousands = append(ds.Thousands, ThousandsColumn{Name: in.Name, Like: like})
		return
	}
	if ds.Separator != ';' && decimalCommas(in.Levels) {
		ds.DecimalComma = append(ds.DecimalComma, in.Name)
		return
	}
	if unit := withUnit(in.Levels); unit != "" {
		ds.Units = append(ds.Units, UnitColumn{Name: in.Name, Unit: unit, Like: in.Levels[0]})
		return
	}
	n, values := len(in.Levels), t.numbers[j]+t.words[j]
	switch {
	case t.numbers[j] > t.words[j] && t.marked[j] != noMark:
		// Numbers, the others all written with one sign or in
		// parentheses: not missing values.
		ds.Units = append(ds.Units, UnitColumn{Name: in.Name, Unit: t.marked[j], Like: t.some[j][0]})
	case t.numbers[j] > t.words[j]:
		ds.Mixed = append(ds.Mixed, MixedColumn{Name: in.Name, Numbers: t.numbers[j], Words: t.words[j], Some: t.some[j], More: t.more[j],
			FirstOnly: !ds.Header && t.words[j] == 1 && isWord(t.first[j], missing)})
	case n >= MinScattered && 2*n > values:
		ds.Scattered = append(ds.Scattered, ScatteredColumn{Name: in.Name, Ignore: t.ignoreName(j, in.Name), Levels: n, Values: values, Some: in.Levels[:3]})
	}
}

// Twins returns the groups of levels that may be one value spelled in
// several ways, each in level order and the groups in the order of their
// first level: levels that differ only in case ("yes" and "Yes"), and the
// spellings of one answer ("yes" and "true", "no" and "false", in any
// case). It is nil when there are none.
func Twins(levels []string) [][]string {
	index := make(map[string]int, len(levels)) // a key's group
	var groups [][]string
	for _, l := range levels {
		k := strings.ToLower(l)
		switch k { // not y, t, n and f: letters are often classes of their own
		case "yes", "true":
			k = "\x00yes"
		case "no", "false":
			k = "\x00no"
		}
		i, ok := index[k]
		if !ok {
			i = len(groups)
			index[k] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], l)
	}
	twins := groups[:0]
	for _, g := range groups {
		if len(g) > 1 {
			twins = append(twins, g)
		}
	}
	if len(twins) == 0 {
		return nil
	}
	return twins
}

// decimalCommas reports whether levels are all numbers, some written with
// a decimal comma (which a file separated by semicolons reads as numbers).
func decimalCommas(levels []string) bool {
	comma := false
	for _, l := range levels {
		_, c := decimalPoint(l)
		if !c && !runtime.IsNumber(l) {
			return false
		}
		comma = comma || c
	}
	return comma
}

// thousandsGroups returns the first of levels written with thousands
// separators between groups of three digits when levels are all numbers,
// some written so and none of the others 1000 or more: numbers a
// spreadsheet formatted so, where a decimal comma would leave some below
// 1000 with another count of digits after it (3,5), or above it without
// one. It returns "" when they are not. The groups are separated by commas,
// with a decimal point (1,208, 12,345,678.5); in a file separated by
// semicolons they may also be separated by points, with a decimal comma
// (1.208, 12.345.678,5: decimal commas alone are read as numbers there,
// and a single group, 1.208, as 1.208). The levels of such a file have
// their decimal commas read already (3,5 is 3.5), so only values with
// several commas, or a comma and a point, are tried as comma groups; the
// grouped values of a column keep to one of the two ways.
func thousandsGroups(levels []string, semicolons bool) string {
	if semicolons {
		if like := groupedBy(levels, '.', ','); like != "" {
			return like
		}
	}
	return groupedBy(levels, ',', '.')
}

// groupedBy is thousandsGroups with one thousands mark and decimal point.
func groupedBy(levels []string, mark, point byte) string {
	like := ""
	for _, l := range levels {
		if v, err := runtime.ParseNumber(l); err == nil {
			if math.Abs(v) >= 1000 {
				return ""
			}
			continue
		}
		if !inGroups(l, mark, point) {
			return ""
		}
		if like == "" {
			like = l
		}
	}
	return like
}

// inGroups reports whether f is a number whose whole part has the mark
// between groups of three digits, the first group 1 to 3 digits not
// starting with 0, and whose decimal mark is point: with a comma between
// groups, 1,208 and -12,345.5.
func inGroups(f string, mark, point byte) bool {
	t, ok := unsigned(strings.TrimSpace(f))
	if !ok {
		return false
	}
	whole, frac, cut := strings.Cut(t, string(point))
	if cut && frac == "" {
		return false // 1,208. ends in its decimal mark
	}
	m := string(mark)
	first, rest, grouped := strings.Cut(whole, m)
	if !grouped || len(first) < 1 || len(first) > 3 || first[0] == '0' || !allDigits(first) {
		return false
	}
	for {
		g, more, again := strings.Cut(rest, m)
		if len(g) != 3 || !allDigits(g) {
			return false
		}
		if !again {
			return allDigits(frac)
		}
		rest = more
	}
}

// dateLayouts are the ways of writing a day that dates knows: year first
// (ISO 8601's 2024-03-15, and with slashes or dots), or last, the month
// before or after the day (03/15/2024, 15.03.2024); each with a time of
// day or not, in 24 hours (with a zone as ISO 8601 writes it, or none) or
// 12. A layout's 1 and 2 also read two digits (03, 15), and a time's
// seconds may have a fraction.
var dateLayouts = func() []string {
	var out []string
	for _, day := range []string{"2006-1-2", "2006/1/2", "2006.1.2", "1/2/2006", "2/1/2006", "2.1.2006", "1-2-2006", "2-1-2006"} {
		out = append(out, day)
		for _, sep := range []string{"T", " "} {
			for _, tod := range []string{"15:04", "15:04:05"} {
				for _, zone := range []string{"", "Z07:00", "Z0700", " MST"} {
					out = append(out, day+sep+tod+zone)
				}
			}
		}
		out = append(out, day+" 3:04 PM", day+" 3:04:05 PM")
	}
	return out
}()

// Days before firstYear or after lastYear are taken for something else
// (versions such as 6.1.7601, codes).
const firstYear, lastYear = 1800, 2199

// dates reports whether three or more levels are all days, each written
// in one of dateLayouts, of years firstYear to lastYear.
func dates(levels []string) bool {
	if len(levels) < 3 {
		return false
	}
	for _, l := range levels {
		if !slices.ContainsFunc(dateLayouts, func(layout string) bool {
			d, err := time.Parse(layout, l)
			return err == nil && d.Year() >= firstYear && d.Year() <= lastYear
		}) {
			return false
		}
	}
	return true
}

// withUnit returns the unit that every one of three or more levels writes
// with a number (with a decimal point or comma, and perhaps thousands
// separators): a suffix after a space
// (3.5 kg, 12 years), a suffix of a symbol (12%, 20°C, 3€), or a prefix
// of currency symbols ($12, € 3,50). It returns "" when there is none.
// Letters straight after the digits (4WD, 3G, 9th, 1990s) and other
// marks (#1, (2)) write codes more often than units.
func withUnit(levels []string) string {
	if len(levels) < 3 {
		return ""
	}
	pre, suf := levels[0], levels[0]
	for _, l := range levels[1:] {
		n := 0
		for n < len(pre) && n < len(l) && pre[n] == l[n] {
			n++
		}
		pre = pre[:n]
		n = 0
		for n < len(suf) && n < len(l) && suf[len(suf)-1-n] == l[len(l)-1-n] {
			n++
		}
		suf = suf[len(suf)-n:]
	}
	// The number's own digits, sign or marks may end the prefix or start
	// the suffix that all share (15%, 25%: "5%").
	if i := strings.IndexAny(pre, "0123456789+-.,"); i >= 0 {
		pre = pre[:i]
	}
	if i := strings.LastIndexAny(suf, "0123456789.,"); i >= 0 {
		suf = suf[i+1:]
	}
	currency := func(r rune) bool { return unicode.Is(unicode.Sc, r) }
	symbol := func(r rune) bool { return r == '%' || r == '‰' || r == '°' || currency(r) }
	first, _ := utf8.DecodeRuneInString(suf)
	switch {
	case strings.TrimSpace(pre+suf) == "":
		return ""
	case strings.IndexFunc(pre, func(r rune) bool { return r != ' ' && !currency(r) }) >= 0:
		return ""
	case suf != "" && first != ' ' && !symbol(first):
		return ""
	}
	for _, l := range levels {
		if len(l) < len(pre)+len(suf) {
			return ""
		}
		f := strings.TrimSpace(l[len(pre) : len(l)-len(suf)])
		if p, ok := decimalPoint(f); ok {
			f = p
		}
		if !runtime.IsNumber(f) && !inGroups(f, ',', '.') && !inGroups(f, '.', ',') {
			return "" // not a number, plain or with thousands separators ($1,208.50)
		}
	}
	return strings.TrimSpace(pre + suf)
}

// parentheses is UnitColumn.Unit for numbers written in parentheses, as
// accounts write negative amounts: (80.19).
const parentheses = "()"

// noMark is table.marked for a column with a word that writes no number,
// or another mark than the others.
const noMark = "none"

// writtenWith returns the mark that value v writes a number with, in a
// column whose other values are plain numbers: a currency sign or a
// percent sign before or after it ($9.01, 12 %, 3€), or parentheses
// ((80.19)); "" when v is not a number so written.
func writtenWith(v string) string {
	v = strings.TrimSpace(v)
	m := ""
	switch {
	case len(v) > 2 && v[0] == '(' && v[len(v)-1] == ')':
		m, v = parentheses, v[1:len(v)-1]
	default:
		symbol := func(r rune) bool { return r == '%' || unicode.Is(unicode.Sc, r) }
		if r, size := utf8.DecodeRuneInString(v); symbol(r) {
			m, v = string(r), v[size:]
		} else if r, size := utf8.DecodeLastRuneInString(v); symbol(r) {
			m, v = string(r), v[:len(v)-size]
		}
	}
	if v = strings.TrimSpace(v); m == "" || !runtime.IsNumber(v) && !inGroups(v, ',', '.') {
		return ""
	}
	return m
}

// marking returns a column's mark (table.marked) after its word l, given
// its mark before it: "" before the column's first word, then the mark
// its words all write numbers with (writtenWith), or noMark for good once
// one writes none or another.
func marking(marked, l string) string {
	switch m := writtenWith(l); {
	case marked == "":
		return cmp.Or(m, noMark)
	case m != marked:
		return noMark
	}
	return marked
}

// MissingFlag returns the --missing flag that adds the values words to the
// tokens missing: --missing "NA,?,-". Its list is split at commas, so a
// value holding one is left out.
func MissingFlag(missing, words []string) string {
	tokens := slices.Clone(missing)
	for _, w := range words {
		if !strings.Contains(w, ",") {
			tokens = append(tokens, w)
		}
	}
	return fmt.Sprintf("--missing %q", strings.Join(tokens, ","))
}

// unsigned returns s without its sign, + or -, and false when it has more
// than one.
func unsigned(s string) (string, bool) {
	t := strings.TrimLeft(s, "+-")
	return t, len(s)-len(t) <= 1
}

// allDigits reports whether s holds only the digits 0 to 9.
func allDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// readAll reads every row of st.
func readAll(st *CSVStream, name string) (*Dataset, error) {
	ds := &Dataset{Name: name, Schema: st.opt.Schema, Separator: st.cr.Comma}
	// A label is a slice of its record's line: each distinct one is kept
	// once, copied, so that the lines themselves can be collected.
	labels := map[string]string{}
	for {
		ok, err := st.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if ds.NoLabel.Leave(st) {
			continue
		}
		if ds.Rows == 0 {
			ds.Features = len(st.Row())
			if st.Labelled() {
				ds.Labels = []string{}
			}
		}
		ds.X = append(ds.X, st.Row()...)
		if st.Labelled() {
			l, ok := labels[st.Label()]
			if !ok {
				l = strings.Clone(st.Label())
				labels[l] = l
			}
			ds.Labels = append(ds.Labels, l)
		}
		ds.Line = append(ds.Line, st.Line())
		ds.Unseen.Add(st)
		ds.Rows++
	}
	if err := ds.NoLabel.Err(name, ds.Rows, st.opt.Schema.Missing); err != nil {
		return nil, err
	}
	ds.Reordered, ds.SkippedHeader, ds.ByPosition = st.Reordered(), st.SkippedHeader(), st.ByPosition()
	ds.CommaPoints = st.cr.commaPoints
	return ds, nil
}

// setFills sets the fill value of every numeric column of ds.Schema to the
// median of its training values, and writes it into the rows where the
// column is missing (read as 0, its fill during the read). It reports, for
// each input, whether it holds a distinct whole number >= 0 in every row
// (at least two) and no missing value, as a row index or identifier does.
func setFills(ds *Dataset) (distinct []bool) {
	distinct = make([]bool, len(ds.Schema.Inputs))
	o := 0
	vals := make([]float64, 0, ds.Rows)
	for i := range ds.Schema.Inputs {
		in := &ds.Schema.Inputs[i]
		w := in.Width()
		if in.Kind == runtime.Numeric {
			vals = vals[:0]
			for r := 0; r < ds.Rows; r++ {
				row := ds.Row(r)
				if !in.MissingFeature || row[o+1] == 0 {
					vals = append(vals, row[o])
				}
			}
			in.Fill = median(vals) // sorts vals
			if !in.MissingFeature && len(vals) >= 2 {
				distinct[i] = vals[0] >= 0
				for r := 0; r < len(vals) && distinct[i]; r++ {
					distinct[i] = vals[r] == math.Trunc(vals[r]) && (r == 0 || vals[r] > vals[r-1])
				}
			}
			if len(vals) == 0 && ds.Rows > 0 {
				ds.NoValue = append(ds.NoValue, NamedColumn{Name: in.Name}) // Ignore: noteColumns
			}
			if in.MissingFeature {
				for r := 0; r < ds.Rows; r++ {
					if row := ds.Row(r); row[o+1] == 1 {
						row[o] = in.Fill
					}
				}
			}
		}
		o += w
	}
	return distinct
}

// median returns the median of v (sorting it), 0 when v is empty.
func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return v[n/2-1] + (v[n/2]-v[n/2-1])/2
}

// table is what the first pass learns of a training file's columns.
type table struct {
	width      int
	first      []string // the first row's fields
	firstLevel []string // and the levels they stand for
	firstAt    int      // its line
	rows       int      // rows after the first
	missing    []bool   // a field after the first row is missing
	token      []bool   // and one of them is a missing-value token, not empty
	again      []bool   // the first row's field appears again below
	// numbers and words count the fields after the first row (and the
	// first row's, once schema reads it as data) that are numbers and that
	// are neither numbers nor missing: a column is numeric while it has no
	// word. some are the first few distinct words, more says there are
	// others.
	numbers, words []int
	some           [][]string
	more           []bool
	// marked is the mark every word of a column writes a number with
	// (marking: $ for $9.01), noMark once one writes none or another.
	marked []string
	// levels are the distinct values below the first row; nil once there
	// are more than MaxLevels.
	levels []map[string]bool
	// point and comma are, in a file separated by semicolons, the first
	// number written with a decimal point, and the first written with a
	// comma before three digits (1,500, read as 1.5); the first row's
	// count once schema reads it as data. firstComma says which of the
	// first row's fields had a decimal comma (csvReader.comma).
	point, comma []string
	firstComma   []bool
	// zeros is the first number of each column written with a leading
	// zero (01234): a code more often than an amount.
	zeros []string
	cr    *csvReader // the columns' places in the file (--ignore)
}

// leadingZero reports whether field f is a whole number written with a
// leading zero, as codes are (01234, 007): digits only, three or more (a
// month or an hour, 01 or 09, is a number to order), the first a zero.
func leadingZero(f string) bool {
	f = strings.TrimSpace(f)
	return len(f) >= 3 && f[0] == '0' && strings.Trim(f, "0123456789") == ""
}

// zero keeps field f of column j as its example of a number written with
// a leading zero, if it is the first.
func (t *table) zero(j int, f string) {
	if t.zeros[j] == "" && leadingZero(f) {
		t.zeros[j] = strings.Clone(strings.TrimSpace(f))
	}
}

// trailingSeparator returns an error when the label, taken from the last
// column by default, stands in a column that is empty in every row, its
// header name included (a missing-value token is not empty): each line
// ends with a separator, and the label is the column before.
func (t *table) trailingSeparator(name string, label int, header bool, spec string) error {
	empty := func(j int) bool { return t.firstLevel[j] == "" && t.numbers[j]+t.words[j] == 0 && !t.token[j] }
	if !strings.EqualFold(cmp.Or(spec, "last"), "last") || label != t.width-1 || !empty(label) {
		return nil
	}
	prev := label - 1 // the last column that holds values
	for prev >= 0 && empty(prev) {
		prev--
	}
	if prev < 0 {
		return nil
	}
	sep := strings.TrimSuffix(sepName(t.cr.Comma), "s")
	if !header {
		// A label named by place would leave the empty column an input,
		// which every file for the model would then need too.
		return fmt.Errorf("%s: the last column is empty in every row: each line ends with a separator (%s), and songc reads the label from the last column; remove the separators at the lines' ends", name, sep)
	}
	col := strconv.Itoa(t.cr.Column(prev) + 1)
	if t.firstLevel[prev] != "" {
		col = strconv.Quote(t.firstLevel[prev])
	}
	// Leaving the empty columns out too keeps them out of the model, so
	// that files for it need not end their lines so.
	var drop []string
	for j := prev + 1; j < t.width; j++ {
		drop = append(drop, t.ignoreName(j, t.firstLevel[j]))
	}
	return fmt.Errorf("%s: the last column is empty in every row: each line ends with a separator (%s), and songc reads the label from the last column; remove the separators at the lines' ends, or name the label column, the last with values, and leave %s out (--label-col %s %s)", name, sep, text.Verb(len(drop), "the empty one", "the empty ones"), col, IgnoreFlag(drop...))
}

// scanTable reads a training table once, learning its columns.
func scanTable(r io.Reader, name string, opt CSVOptions) (*table, error) {
	if len(opt.Ignore) > 0 && opt.Header == HeaderNo {
		return nil, fmt.Errorf("%s: --ignore names columns of the header, but --header no says the file has no header row", name)
	}
	cr := newCSVReader(r, opt)
	t := &table{width: -1, cr: cr}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvErr(name, err)
		}
		line := cr.line()
		if blankRecord(rec) {
			continue
		}
		if err := checkUTF8(name, cr, rec); err != nil {
			return nil, err
		}
		if t.width < 0 && len(opt.Ignore) > 0 {
			var absent []string
			rec, absent = cr.ignore(rec, opt.Ignore)
			if absent = slices.DeleteFunc(absent, func(n string) bool { return slices.Contains(opt.MayLack, n) }); len(absent) > 0 {
				return nil, cr.absent(name, line, absent)
			}
		}
		// A row of empty fields (a blank row of a spreadsheet, ";;") has no
		// label: the second pass leaves it out, and it says nothing of the
		// columns (no missing-value features).
		if t.width >= 0 && len(rec) == t.width && !slices.ContainsFunc(rec, func(f string) bool { return strings.TrimSpace(f) != "" }) {
			continue
		}
		if t.width < 0 {
			t.width = len(rec)
			t.first, t.firstAt = slices.Clone(rec), line
			t.firstLevel = make([]string, t.width)
			t.missing, t.token = make([]bool, t.width), make([]bool, t.width)
			t.again = make([]bool, t.width)
			t.levels = make([]map[string]bool, t.width)
			t.point, t.comma, t.zeros = make([]string, t.width), make([]string, t.width), make([]string, t.width)
			if cr.Comma == ';' {
				t.firstComma = slices.Clone(cr.comma)
			}
			t.numbers, t.words, t.some, t.more = make([]int, t.width), make([]int, t.width), make([][]string, t.width), make([]bool, t.width)
			t.marked = make([]string, t.width)
			for j := range t.width {
				t.firstLevel[j] = runtime.Level(rec[j])
				t.levels[j] = map[string]bool{}
			}
			continue
		}
		if len(rec) != t.width {
			return nil, fmt.Errorf("%s:%d: row has %d columns, earlier rows have %d%s", name, line, len(rec), t.width, t.cr.separatorHint(t.first))
		}
		t.rows++
		for j, f := range rec {
			if runtime.IsMissing(f, opt.Missing) {
				t.missing[j] = true
				t.token[j] = t.token[j] || strings.TrimSpace(f) != ""
				continue
			}
			num := runtime.IsNumber(f)
			if cr.Comma == ';' {
				t.marks(j, f, num, cr.comma[j], false)
			}
			if num {
				t.zero(j, f)
			}
			l := runtime.Level(f)
			t.count(j, l, num, false)
			if l == t.firstLevel[j] {
				t.again[j] = true
			}
			if t.levels[j] != nil && !t.levels[j][l] {
				if len(t.levels[j]) == MaxLevels {
					t.levels[j] = nil
				} else {
					t.levels[j][strings.Clone(l)] = true // not the whole line's string
				}
			}
		}
	}
	if t.width < 0 {
		return nil, fmt.Errorf("%s: file is empty", name)
	}
	return t, nil
}

// count adds a field of column j, not missing, to the column's tallies: a
// number (num), or a word, its level l; first puts a word ahead of the
// others seen (the first row's, counted after the rows below it).
func (t *table) count(j int, l string, num, first bool) {
	if num {
		t.numbers[j]++
		return
	}
	t.marked[j] = marking(t.marked[j], l)
	if t.words[j]++; t.more[j] || slices.Contains(t.some[j], l) {
		return
	}
	if first {
		t.some[j] = append([]string{l}, t.some[j]...)
	} else {
		t.some[j] = append(t.some[j], strings.Clone(l))
	}
	if len(t.some[j]) > 3 {
		t.some[j], t.more[j] = t.some[j][:3], true
	}
}

// marks keeps field f of column j (num: a number) as the column's example
// of a number written with a decimal point, or (comma: Read made its comma
// a point) of one written with a comma before three digits, if it is the
// first; first says f is the first row's, counted after the rows below it.
func (t *table) marks(j int, f string, num, comma, first bool) {
	switch {
	case comma && (first || t.comma[j] == ""):
		// f has one point, Read's, and no comma: it is in groups of three
		// by that point as the field was by its comma.
		if inGroups(f, '.', ',') {
			t.comma[j] = strings.Replace(f, ".", ",", 1) // a copy, not the line's string
		}
	case !comma && (first || t.point[j] == "") && num && strings.Contains(f, "."):
		t.point[j] = strings.Clone(strings.TrimSpace(f))
	}
}

// isWord reports whether a field is neither missing nor a number.
func isWord(f string, missing []string) bool {
	if runtime.IsMissing(f, missing) {
		return false
	}
	return !runtime.IsNumber(f)
}

// schema decides the header and the label column of a scanned table and
// returns its schema.
func (t *table) schema(name string, opt CSVOptions) (s *runtime.Schema, header bool, label int, err error) {
	named := !keyword(opt.LabelCol)
	switch opt.Header {
	case HeaderYes:
		header = true
	case HeaderAuto:
		// --ignore's names were found in the first row (scanTable).
		header = len(opt.Ignore) > 0 || t.looksLikeHeader(opt, named)
	}
	if header && t.rows == 0 {
		return nil, false, 0, fmt.Errorf("%s: has a header but no data rows", name)
	}
	if named && slices.Contains(opt.Ignore, opt.LabelCol) {
		return nil, false, 0, fmt.Errorf("--ignore %q names the label column (--label-col %[1]q)", opt.LabelCol)
	}
	if named {
		if !header && opt.Header == HeaderNo {
			return nil, false, 0, fmt.Errorf("%s: --label-col %q names a column, but --header no says the file has no header row", name, opt.LabelCol)
		}
		hint := caseHint([]string{opt.LabelCol}, t.firstLevel)
		if !header {
			return nil, false, 0, fmt.Errorf("%s:%d: --label-col %q names a column, but no field of the first row is %q (it has %s)%s", name, t.firstAt, opt.LabelCol, opt.LabelCol, QuoteList(t.first, 8), hint)
		}
		label = slices.Index(t.firstLevel, opt.LabelCol)
		if label < 0 {
			return nil, false, 0, fmt.Errorf("%s:%d: no column is named %q (the label column); the header has %s%s", name, t.firstAt, opt.LabelCol, QuoteList(t.first, 8), hint)
		}
	} else {
		// --label-col first, last or N counts the file's columns.
		file, err := labelIndex(opt.LabelCol, t.cr.width(t.width))
		if err != nil {
			return nil, false, 0, fmt.Errorf("%s: %v", name, err)
		}
		if label = t.cr.field(file); file >= 0 && label < 0 {
			return nil, false, 0, fmt.Errorf("%s: --ignore leaves out column %d (%q), the label column (--label-col %s); name the label with --label-col, or ignore another column",
				name, file+1, t.cr.header[file], cmp.Or(opt.LabelCol, "last"))
		}
	}
	if t.width-btoi(label >= 0) < 1 {
		return nil, false, 0, fmt.Errorf("%s:%d: row has %d column(s): no feature columns besides the label%s", name, t.firstAt, t.width, t.cr.separatorHint(t.first))
	}
	if err := t.trailingSeparator(name, label, header, opt.LabelCol); err != nil {
		return nil, false, 0, err
	}
	s = &runtime.Schema{Missing: slices.Clone(opt.Missing), Separator: opt.Separator}
	if len(opt.Ignore) > 0 {
		s.Ignored = opt.Ignore // readCSV's own copy
	}
	names := make(map[string]int)
	for j := range t.width {
		if j == label {
			if header {
				s.Label = t.firstLevel[j]
			}
			continue
		}
		in := runtime.Input{Name: runtime.Unnamed(len(s.Inputs)), Kind: runtime.Numeric, MissingFeature: t.missing[j]}
		if header && t.firstLevel[j] != "" {
			in.Name = t.firstLevel[j]
		}
		if k, ok := names[in.Name]; ok {
			return nil, false, 0, fmt.Errorf("%s:%d: columns %d and %d are both named %q; names must be distinct, as a model finds a file's columns by name: rename one in the header, or leave both out with %s", name, t.firstAt, t.cr.Column(k)+1, t.cr.Column(j)+1, in.Name, IgnoreFlag(in.Name))
		}
		names[in.Name] = j
		if !header {
			// The first row is data.
			if runtime.IsMissing(t.first[j], opt.Missing) {
				in.MissingFeature = true
			} else {
				num := runtime.IsNumber(t.first[j])
				t.count(j, t.firstLevel[j], num, true)
				if num {
					t.zero(j, t.first[j])
				}
				if t.firstComma != nil {
					t.marks(j, t.first[j], num, t.firstComma[j], true)
				}
				if t.levels[j] != nil {
					t.levels[j][t.firstLevel[j]] = true // more than MaxLevels is refused below
				}
			}
		}
		if t.words[j] > 0 {
			in.Kind = runtime.Categorical
		}
		s.Inputs = append(s.Inputs, in)
	}
	if label >= 0 && s.Label == "" && header {
		s.Label = "class"
	}
	if label >= 0 && label < t.width-1 {
		s.LabelAt = label + 1
	}
	if err := t.force(s, names, opt, name); err != nil {
		return nil, false, 0, err
	}
	var many, manyNames []string // the columns with too many levels
	mostly := ""                 // of the first of them that holds numbers but for a few values, or dates, what to do
	for i := range s.Inputs {
		in := &s.Inputs[i]
		if in.Kind != runtime.Categorical {
			continue
		}
		j := names[in.Name]
		levels := t.levels[j]
		if levels == nil || len(levels) > MaxLevels {
			many = append(many, fmt.Sprintf("%d (%q)", t.cr.Column(j)+1, in.Name))
			if u := t.marked[j]; mostly == "" && t.numbers[j] > t.words[j] && u != noMark {
				mostly = fmt.Sprintf(". Column %q holds plain numbers and %s (like %q): write them all as plain numbers", in.Name, UnitColumn{Unit: u}.Written(), t.some[j][0])
			} else if mostly == "" && t.numbers[j] > t.words[j] {
				some := MixedColumn{Some: t.some[j], More: t.more[j]}.Examples()
				mostly = fmt.Sprintf(". Column %q holds numbers but for %s (%s): if they mean missing, list them (%s); if they are numbers written otherwise, write them as plain numbers",
					in.Name, text.Count(t.words[j], "value"), some, MissingFlag(opt.Missing, t.some[j]))
			} else if mostly == "" && t.numbers[j] == 0 && dates(t.some[j]) { // its first three values
				mostly = fmt.Sprintf(". Column %q seems to hold dates (like %q): write them as numbers first (days since a fixed day, the month, the day of the week)", in.Name, t.some[j][0])
			}
			manyNames = append(manyNames, t.ignoreName(j, in.Name))
			continue
		}
		if len(levels) == 0 {
			in.Kind = runtime.Numeric // every field is missing
			continue
		}
		in.Encoding = runtime.OneHot
		in.Levels = make([]string, 0, len(levels))
		for l := range levels {
			in.Levels = append(in.Levels, l)
		}
		slices.Sort(in.Levels)
	}
	if len(many) > 0 {
		what, them := "column "+many[0]+" has", "it"
		if len(many) > 1 {
			what, them = "columns "+strings.Join(many, ", ")+" have", "them"
		}
		leave := fmt.Sprintf("leave %s out with %s", them, IgnoreFlag(append(slices.Clone(opt.Ignore), manyNames...)...))
		if !header {
			leave = fmt.Sprintf("leave %s out of the file (--ignore needs a header)", them)
		}
		return nil, false, 0, fmt.Errorf("%s: %s more than %d distinct values, too many for a categorical column (one feature each): %s, or declare %s numeric if the values are numbers%s", name, what, MaxLevels, leave, them, mostly)
	}
	return s, header, label, nil
}

// separatorHint says, after an error about a file's column count, why
// when the first row is one field holding another separator than the one
// read: the file's first lines hold different numbers of it (songc found
// commas), or --sep or the model gave another. Otherwise it is empty.
func (r *csvReader) separatorHint(first []string) string {
	if len(first) != 1 {
		return ""
	}
	for _, c := range separators {
		switch {
		case c == r.Comma || !strings.ContainsRune(first[0], c):
		case r.given != "":
			return fmt.Sprintf("; the file looks separated by %s, not the %s %s gives: give --sep %s", sepName(c), sepName(r.Comma), r.given, SepFlag(c))
		case r.Comma == ',':
			return fmt.Sprintf("; the file looks separated by %[1]s, but its first lines hold different numbers of them: give --sep %[2]s to read it so, and songc names the first row of another length", sepName(c), SepFlag(c))
		}
	}
	return ""
}

// sepName names the separator sep in the plural: commas, semicolons, ...
func sepName(sep rune) string { return cmp.Or(Separators[sep], "commas") }

// force applies opt.Categorical and opt.Numeric to s.
func (t *table) force(s *runtime.Schema, names map[string]int, opt CSVOptions, name string) error {
	kinds := []struct {
		cols []string
		kind runtime.Kind
		flag string
	}{{opt.Categorical, runtime.Categorical, "--categorical"}, {opt.Numeric, runtime.Numeric, "--numeric"}}
	seen := map[string]string{}
	for _, k := range kinds {
		for _, c := range k.cols {
			if f, ok := seen[c]; ok {
				return fmt.Errorf("column %q is in both %s and %s", c, f, k.flag)
			}
			seen[c] = k.flag
			if _, ok := names[c]; !ok {
				return fmt.Errorf("%s %q: %s has no such input column (it has %s)", k.flag, c, name, QuoteList(s.Names(), 8))
			}
			for i := range s.Inputs {
				if s.Inputs[i].Name == c {
					s.Inputs[i].Kind = k.kind
				}
			}
		}
	}
	return nil
}

// looksLikeHeader applies ReadCSV's header rule to the first row.
func (t *table) looksLikeHeader(opt CSVOptions, named bool) bool {
	if named {
		return slices.Contains(t.firstLevel, opt.LabelCol)
	}
	label, err := labelIndex(opt.LabelCol, t.width)
	if err != nil {
		label = -1
	}
	if label >= 0 && isWord(t.first[label], opt.Missing) && t.words[label] == 0 && t.numbers[label] > 0 {
		return true // a word above numeric labels: the label column's name
	}
	if label >= 0 && t.rows > 0 && columnNumbers(t.firstLevel) && !t.again[label] {
		return true // numbered columns, and a label no other row has: pandas' header of unnamed columns
	}
	words, features := 0, 0
	for j, f := range t.first {
		if j == label {
			continue
		}
		features++
		if !isWord(f, opt.Missing) {
			continue
		}
		words++
		if t.words[j] == 0 && (t.numbers[j] > 0 || t.rows == 0) {
			return true // a word above numbers
		}
		if t.again[j] {
			return false // a word that is also a value below
		}
	}
	return words > 0 && words == features
}

// columnNumbers reports whether fields number the columns, as pandas'
// to_csv writes the header of a table whose columns have no names: 0, 1,
// 2, ... or 1, 2, 3, ..., after an empty field for the index column or not;
// two fields, which a row of data holds as often, do not count.
func columnNumbers(fields []string) bool {
	if len(fields) > 0 && fields[0] == "" {
		fields = fields[1:]
	}
	if len(fields) < 3 {
		return false
	}
	for _, start := range []int{0, 1} {
		i := 0
		for i < len(fields) && fields[i] == strconv.Itoa(start+i) {
			i++
		}
		if i == len(fields) {
			return true
		}
	}
	return false
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// IgnoreFlag returns the --ignore flag that leaves out the columns names,
// ready to paste into a shell: --ignore "a,b". The flag's list is split at
// commas, so a comma within a name is escaped (\,), and such a list is
// put in single quotes, where the shell keeps the backslash.
func IgnoreFlag(names ...string) string { return namesFlag("--ignore", names) }

// namesFlag returns flag with the list of names, as IgnoreFlag writes it.
func namesFlag(flag string, names []string) string {
	esc := make([]string, len(names))
	comma := false
	for i, n := range names {
		esc[i] = strings.ReplaceAll(n, ",", `\,`)
		comma = comma || esc[i] != n
	}
	list := strings.Join(esc, ",")
	if comma && !strings.Contains(list, "'") {
		return flag + " '" + list + "'"
	}
	return fmt.Sprintf("%s %q", flag, list)
}

// QuoteList returns up to n of names, quoted and separated by commas, and
// how many more there are.
func QuoteList(names []string, n int) string {
	var b strings.Builder
	for i, s := range names {
		if i == n {
			fmt.Fprintf(&b, " and %d more", len(names)-n)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", s)
	}
	return b.String()
}

// csvReader reads a CSV file's records, with the separator the file uses
// (sniffSeparator). In a file separated by semicolons, a field that is a
// number written with a decimal comma (3,14) reads as 3.14: that is why such
// files use semicolons.
//
// Once ignore has named columns of the header to leave out, records hold
// the other columns, and FieldPos and Column give their place in the file.
type csvReader struct {
	*csv.Reader
	header []string // the header given to ignore
	keep   []int    // the file's columns records hold; nil: all
	// carry are the file's columns whose fields Read keeps in carried,
	// as the file writes them less the spaces around, before it leaves
	// columns out.
	carry   []int
	carried []string
	// comma says which fields of the last record Read held a decimal
	// comma that it made a point (in a file separated by semicolons).
	comma []bool
	given string // who gave the separator: "--sep", "the model (train --sep)", or "" when the file did
	err   error  // what the first Read returns: the separator given is not the file's
	// commaPoints: a field read so far was a number with a decimal comma,
	// made a point.
	commaPoints bool
}

// Read returns the next record, as csv.Reader.Read does.
func (r *csvReader) Read() ([]string, error) {
	if r.err != nil {
		return nil, r.err
	}
	rec, err := r.Reader.Read()
	if err == nil && r.carry != nil {
		r.carried = r.carried[:0]
		for _, j := range r.carry {
			if j < len(rec) { // else a row of too few columns, an error to come
				r.carried = append(r.carried, strings.TrimSpace(rec[j]))
			}
		}
	}
	if err == nil && r.keep != nil && !blankRecord(rec) {
		rec, err = r.leaveOut(rec)
	}
	if r.Comma == ';' {
		r.comma = slices.Grow(r.comma[:0], len(rec))[:len(rec)]
		for i, f := range rec {
			p, ok := decimalPoint(f)
			if r.comma[i] = ok; ok {
				rec[i], r.commaPoints = p, true
			}
		}
	}
	return rec, err
}

// checkUTF8 fails, naming the line and column, when a field of rec is
// not UTF-8 text: a file saved in a legacy encoding (Excel's plain "CSV"
// on Windows writes Windows-1252). Read on, its accented letters would all
// become U+FFFD and distinct categories one. The column counts from the
// field's start, a quoted field's quote included, and the bytes of its
// value before the bad one (a doubled quote counts once).
func checkUTF8(name string, cr *csvReader, rec []string) error {
	for j, f := range rec {
		if utf8.ValidString(f) {
			continue
		}
		i := 0
		for i < len(f) {
			r, size := utf8.DecodeRuneInString(f[i:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			i += size
		}
		line, col := cr.FieldPos(j) // the field's own line: one before it may span several
		col += i
		if nl := strings.LastIndexByte(f[:i], '\n'); nl >= 0 { // a quoted field of several lines
			line += strings.Count(f[:i], "\n")
			col = i - nl
		}
		return fmt.Errorf("%s:%d:%d: byte 0x%02X is not UTF-8 text, and songc reads UTF-8 files; save the file as UTF-8 (Excel: \"CSV UTF-8\"), or convert it, e.g. iconv -f WINDOWS-1252 -t UTF-8 %s > utf8.csv", name, line, col, f[i], name)
	}
	return nil
}

// blankRecord reports whether rec is a blank line.
func blankRecord(rec []string) bool { return len(rec) == 1 && strings.TrimSpace(rec[0]) == "" }

// absent is the error for the columns absent that --ignore names and the
// header of file name, on its line, lacks.
func (r *csvReader) absent(name string, line int, absent []string) error {
	names := make([]string, len(r.header))
	unnamed := false
	for j, f := range r.header {
		names[j] = headerName(f, j)
		unnamed = unnamed || runtime.Level(f) == ""
	}
	aside := ""
	if unnamed {
		aside = ", a column it leaves unnamed going by its place in the file"
	}
	return noSuchColumns(name, line, "--ignore", absent, names, aside)
}

// noSuchColumns is the error for the columns absent that flag names and
// the header of file name, on its line, lacks; aside follows the list of
// the header's names.
func noSuchColumns(name string, line int, flag string, absent, header []string, aside string) error {
	return fmt.Errorf("%s:%d:1: %s %s: the header has no such column (it has %s%s)%s", name, line, flag, QuoteList(absent, len(absent)), QuoteList(header, 8), aside, caseHint(absent, header))
}

// headerNames returns the name of each column of a header rec that r
// read (headerName), an unnamed one named by its place in the file.
func (r *csvReader) headerNames(rec []string) []string {
	names := make([]string, len(rec))
	for j, f := range rec {
		names[j] = headerName(f, r.Column(j))
	}
	return names
}

// headerName is the name of the file's column j whose header field is f:
// the field, trimmed, or x1, x2, ... for an empty one.
func headerName(f string, j int) string {
	if name := runtime.Level(f); name != "" {
		return name
	}
	return runtime.Unnamed(j)
}

// ignore makes the records from header, the file's first, on leave out the
// columns named one of names (a column the header leaves unnamed is named
// x1, x2, ... by its place in the file), and returns header so; absent are
// the names no column has.
func (r *csvReader) ignore(header, names []string) (rec []string, absent []string) {
	r.header = slices.Clone(header)
	found := make([]bool, len(names))
	keep := make([]int, 0, len(header))
	for j, f := range header {
		if k := slices.Index(names, headerName(f, j)); k >= 0 {
			found[k] = true
		} else {
			keep = append(keep, j)
		}
	}
	for k, name := range names {
		if !found[k] {
			absent = append(absent, name)
		}
	}
	if len(keep) < len(header) {
		r.keep = keep
		header, _ = r.leaveOut(header)
	}
	return header, absent
}

// leaveOut returns rec with only the columns of keep.
func (r *csvReader) leaveOut(rec []string) ([]string, error) {
	if len(rec) != len(r.header) {
		line := r.line()
		return nil, &csv.ParseError{StartLine: line, Line: line, Column: 1,
			Err: fmt.Errorf("row has %d columns, the header %d", len(rec), len(r.header))}
	}
	for i, j := range r.keep {
		rec[i] = rec[j]
	}
	return rec[:len(r.keep)], nil
}

// FieldPos returns the line and column of field j of the last record, as
// csv.Reader.FieldPos does.
func (r *csvReader) FieldPos(j int) (line, column int) {
	return r.Reader.FieldPos(r.Column(j))
}

// width returns the file's columns, of a record of n fields.
func (r *csvReader) width(n int) int {
	if r.keep != nil {
		return len(r.header)
	}
	return n
}

// field returns the field of a record that holds the file's column k
// (0-based), or -1 when k is left out.
func (r *csvReader) field(k int) int {
	if r.keep != nil {
		return slices.Index(r.keep, k)
	}
	return k
}

// line returns the line the last record starts on, whatever columns are
// left out (a blank line has fewer fields than the first column kept).
func (r *csvReader) line() int {
	line, _ := r.Reader.FieldPos(0)
	return line
}

// Column returns the file's column (0-based) of field j of a record.
func (r *csvReader) Column(j int) int {
	if r.keep != nil && j < len(r.keep) {
		return r.keep[j]
	}
	return j
}

// newCSVReader reads CSV records from r, separated by opt.Separator, or
// else by the schema's, or else by the one the file's first line names
// (which also wins over the schema's), or else by the one found from its
// first lines.
func newCSVReader(r io.Reader, opt CSVOptions) *csvReader {
	given, by := opt.Separator, "--sep"
	if given == 0 && opt.Schema != nil && opt.Schema.Separator != 0 {
		given, by = opt.Schema.Separator, "the model (train --sep)"
	}
	text, crLines, sep, err := plainText(r, given, by == "--sep")
	if sep != given {
		by = "" // the file's first line named another, which wins over the model's
	}
	cr := csv.NewReader(&lineLimit{r: text, max: MaxLineBytes, cr: crLines})
	cr.Comma = sep
	cr.FieldsPerRecord = -1 // ragged rows get our own, clearer error
	// Spaces around a field are removed where it is read; csv's own
	// trimming would also take the empty fields between two tabs.
	cr.TrimLeadingSpace = sep != '\t'
	cr.ReuseRecord = true
	cr.Comment = 0
	return &csvReader{Reader: cr, err: err, given: by}
}

// plainText returns r without the UTF-8 byte order mark that starts it, if
// any (Excel's "CSV UTF-8" writes one): it is not part of the first name.
// It also reports whether the file's lines end in a carriage return alone
// (the classic Mac OS line end, Excel's "CSV (Macintosh)"), which lineLimit
// then reads as newlines, so that its lines and their numbers are the
// file's. Such a file is one whose first read (up to 64 KiB, with no wait
// for more) holds two carriage returns or more and no newline; a file whose
// lines end in a carriage return and a newline cannot look so. The
// separator is the one a first line "sep=;" names (sepLine), or else
// given's, when not 0, or else the one sniffSeparator finds in that first
// read; a first line that names another than given's is an error where
// strict.
func plainText(r io.Reader, given rune, strict bool) (_ io.Reader, crLines bool, sep rune, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if b, err := br.Peek(3); err == nil && string(b) == "\ufeff" {
		br.Discard(3)
	}
	// A read error of Peek's comes back from the next Read.
	b, _ := br.Peek(br.Buffered())
	crLines = bytes.Count(b, []byte{'\r'}) >= 2 && bytes.IndexByte(b, '\n') < 0
	end := byte('\n')
	if crLines {
		end = '\r'
	}
	if sep, n, ok := sepLine(b, end); ok {
		if strict && given != 0 && sep != given {
			err = fmt.Errorf("line 1 names the separator (%s), but --sep gives %s; remove the line, or give --sep %s", bytes.TrimSpace(b[:n]), SepFlag(given), SepFlag(sep))
		}
		// The line goes, its end stays: the csv reader skips the empty
		// line and counts it, so lines keep the file's numbers.
		br.Discard(n)
		return io.MultiReader(bytes.NewReader([]byte{end}), br), crLines, sep, err
	}
	if given != 0 {
		return br, crLines, given, nil
	}
	return br, crLines, sniffSeparator(b, end), nil
}

// numbers returns how many fields of the first records of b (up to 21)
// are numbers when sep separates them (a decimal comma read as a point
// where sep is a semicolon, as csvReader reads it).
func numbers(b []byte, crLines bool, sep rune) int {
	cr := csv.NewReader(&lineLimit{r: bytes.NewReader(b), max: MaxLineBytes, cr: crLines})
	cr.Comma, cr.FieldsPerRecord, cr.LazyQuotes, cr.ReuseRecord = sep, -1, true, true
	n := 0
	for range 21 {
		rec, err := cr.Read()
		if err != nil {
			break
		}
		for _, f := range rec {
			if sep == ';' {
				f, _ = decimalPoint(f)
			}
			n += btoi(runtime.IsNumber(strings.TrimSpace(f)))
		}
	}
	return n
}

// sepLine reports whether b begins with the line Excel reads as naming the
// file's separator, "sep=;" (any case, in double quotes or not), naming a
// comma or one of Separators; it returns the separator and the length of
// the line with its end.
func sepLine(b []byte, end byte) (sep rune, n int, ok bool) {
	i := bytes.IndexByte(b, end)
	if i < 0 {
		return 0, 0, false
	}
	line := bytes.TrimSuffix(b[:i], []byte{'\r'})
	if len(line) >= 2 && line[0] == '"' && line[len(line)-1] == '"' {
		line = line[1 : len(line)-1]
	}
	if len(line) != 5 || !bytes.EqualFold(line[:4], []byte("sep=")) {
		return 0, 0, false
	}
	sep = rune(line[4])
	if !slices.Contains(separators[:], sep) {
		return 0, 0, false
	}
	return sep, i + 1, true
}

// separators are the field separators songc reads, in the order that
// breaks sniffSeparator's ties.
var separators = runtime.FieldSeparators

// Separators are the field separators songc reads besides commas, and
// their names.
var Separators = map[rune]string{';': "semicolons", '\t': "tabs", '|': "vertical bars"}

// SepFlag returns sep as --sep takes it, quoted for a shell: , ';' tab '|'.
func SepFlag(sep rune) string {
	switch sep {
	case '\t':
		return "tab"
	case ',':
		return ","
	}
	return "'" + string(sep) + "'"
}

// ParseSeparator returns the separator that --sep's value v names: , ; |
// or tab (a tab itself, or \t), or their names comma, semicolon, bar and
// pipe.
func ParseSeparator(v string) (rune, error) {
	switch strings.ToLower(v) {
	case ",", "comma":
		return ',', nil
	case ";", "semicolon":
		return ';', nil
	case "\t", `\t`, "tab":
		return '\t', nil
	case "|", "bar", "pipe":
		return '|', nil
	}
	return 0, fmt.Errorf("%q is not a separator songc reads: give , ';' '|' or tab (a shell needs the quotes around ; and |)", v)
}

// sniffSeparator returns the field separator of a file that begins with b,
// whose lines end in the byte end. A separator is consistent when the
// first record holds one or more of it and each following complete record
// of b (up to 20, blank ones skipped) holds as many; separators and line
// ends between double quotes do not count. Of the consistent ones among
// comma, semicolon, tab and vertical bar, it returns the one under which
// most fields of those records are numbers (numbers), then the one that
// splits them into the most fields, ties in that order; a comma when none
// is consistent. Numbers come first because columns of numbers are what
// tables hold: a text field holding semicolons, or numbers written with
// decimal commas, may split every line as evenly as the file's separator.
func sniffSeparator(b []byte, end byte) rune {
	var first, count [len(separators)]int
	var inconsistent [len(separators)]bool
	records := 0
	quoted, blank := false, true
scan:
	for _, c := range string(b) {
		switch {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == rune(end):
			if !blank {
				for k := range separators {
					if records == 0 {
						first[k] = count[k]
					} else if count[k] != first[k] {
						inconsistent[k] = true
					}
				}
				records++
			}
			count, blank = [len(separators)]int{}, true
			if records == 21 {
				break scan
			}
			continue
		default:
			if k := slices.Index(separators[:], c); k >= 0 {
				count[k]++
			}
		}
		if c != ' ' && c != '\r' {
			blank = false
		}
	}
	if records == 0 { // one incomplete line: it is the first record
		first = count
	}
	var fits []int // the consistent separators
	for k := range separators {
		if !inconsistent[k] && first[k] > 0 {
			fits = append(fits, k)
		}
	}
	if len(fits) == 0 {
		return ','
	}
	best, most := fits[0], -1
	for _, k := range fits {
		n := 0
		if len(fits) > 1 {
			n = numbers(b, end == '\r', separators[k])
		}
		if n > most || n == most && first[k] > first[best] {
			best, most = k, n
		}
	}
	return separators[best]
}

// decimalPoint returns f with its decimal comma made a point when f is a
// number written so (3,14, -0,5, ,5, 1,5e3; spaces around allowed).
func decimalPoint(f string) (string, bool) {
	t := strings.TrimSpace(f)
	i := strings.IndexByte(t, ',')
	if i < 0 || strings.Count(t, ",") != 1 || strings.ContainsAny(t, ".xXpP_") {
		return f, false
	}
	whole, ok := unsigned(t[:i])
	frac := t[i+1:]
	if !ok || !allDigits(whole) {
		return f, false
	}
	if e := strings.IndexAny(frac, "eE"); e >= 0 {
		exp, ok := unsigned(frac[e+1:])
		if !ok || exp == "" || !allDigits(exp) {
			return f, false
		}
		frac = frac[:e]
	}
	if !allDigits(frac) || whole == "" && frac == "" {
		return f, false
	}
	return t[:i] + "." + t[i+1:], true
}

// csvErr names the file, line and column of a CSV syntax error.
func csvErr(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		if errors.Is(pe.Err, csv.ErrQuote) && pe.StartLine < pe.Line {
			// A quote left open runs on over the lines below, and the
			// reader stops where the text no longer fits: name the
			// record it opened in, which is where the fix goes.
			return fmt.Errorf("%s:%d: a quoted field in the record that starts on this line is not closed, or has text after its closing quote: the reader went on to line %d, column %d (%v); close the quote, or remove it", name, pe.StartLine, pe.Line, pe.Column, pe.Err)
		}
		return fmt.Errorf("%s:%d:%d: %v", name, pe.Line, pe.Column, pe.Err)
	}
	return readErr(name, err)
}

// CSVStream reads a CSV table row by row, in constant memory, encoding each
// row's fields by a schema (CSVOptions.Schema): what songc predict and
// eval use on files of any size, and ReadCSV's second pass.
//
// With HeaderAuto, the first row is a header when it holds one of a named
// schema's column names (its label's too), or when a numeric column's field in it is a word
// and no categorical column's field is one of that column's levels.
// With a header and a named schema, columns are matched by name (any
// order; Reordered reports another order than the model's), a column named
// like the model's label (or LabelCol, when it is a name) is the label,
// and any other name is an error, as is a missing input. Otherwise columns
// are positional: rows hold the model's inputs, plus a label column where
// LabelCol says when they have one more.
type CSVStream struct {
	name      string
	opt       CSVOptions
	cr        *csvReader
	enc       *runtime.Encoder
	inputs    int   // the schema's columns
	width     int   // columns per row, -1 before the first row
	label     int   // label column, -1 for none
	cols      []int // the file column of each input
	reordered bool
	skipped   bool     // a header row skipped, the columns read by position
	unnamed   bool     // no header, the columns of a model that names them read by position
	fields    []string // the current row's inputs, in the schema's order
	x         []float64
	lbl       string
	lblToken  string // the missing-value token that was the label, when lbl is ""
	line      int
	rows      int
	// unseenCols are the columns UnseenColumns returns.
	unseenCols []int
}

// ErrNoRows is the error of a file read for a model that holds a header
// and nothing else.
var ErrNoRows = errors.New("has a header but no data rows")

// NewCSVStream starts reading CSV from r. name is used in errors.
// opt.Schema must be set.
func NewCSVStream(r io.Reader, name string, opt CSVOptions) *CSVStream {
	s := opt.Schema
	return &CSVStream{name: name, opt: opt, cr: newCSVReader(r, opt), enc: runtime.NewEncoder(s), inputs: len(s.Inputs),
		width: -1, label: -1, fields: make([]string, len(s.Inputs)), x: make([]float64, s.Width())}
}

// Next reads the next data row. It returns false at the end of the file
// (err nil) or on an error; the error names the file, line and column.
func (s *CSVStream) Next() (ok bool, err error) {
	for {
		rec, err := s.cr.Read()
		if err == io.EOF {
			if s.rows == 0 {
				if s.width < 0 {
					return false, fmt.Errorf("%s: file is empty", s.name)
				}
				return false, fmt.Errorf("%s: %w", s.name, ErrNoRows)
			}
			return false, nil
		}
		if err != nil {
			return false, csvErr(s.name, err)
		}
		line := s.cr.line()
		if blankRecord(rec) {
			continue
		}
		if s.width >= 0 && len(rec) != s.width {
			return false, fmt.Errorf("%s:%d: row has %d columns, earlier rows have %d", s.name, line, len(rec), s.width)
		}
		if err := checkUTF8(s.name, s.cr, rec); err != nil {
			return false, err
		}
		if s.width < 0 {
			s.width = len(rec)
			header, err := s.start(rec, line)
			if err != nil {
				return false, err
			}
			if header {
				s.skipped = !s.opt.Named
				continue
			}
			s.unnamed = s.opt.Named
		}
		for i, j := range s.cols {
			s.fields[i] = rec[j]
		}
		if s.label >= 0 {
			s.lbl, s.lblToken = runtime.Level(rec[s.label]), ""
			if runtime.IsMissing(s.lbl, s.opt.Schema.Missing) {
				s.lbl, s.lblToken = "", s.lbl // no label: the row's class is unknown
			}
		}
		s.unseenCols, err = s.enc.EncodeColumns(s.x, s.fields, s.unseenCols[:0])
		if err != nil {
			var ce *runtime.ColumnError
			if errors.As(err, &ce) {
				j := s.cols[ce.Column]
				at, col := s.cr.FieldPos(j) // the field's own line: one before it may span several
				return false, fmt.Errorf("%s:%d:%d: column %d (%q): %v", s.name, at, col, s.cr.Column(j)+1, ce.Name, ce.Err)
			}
			return false, fmt.Errorf("%s:%d: %v", s.name, line, err)
		}
		s.line = line
		s.rows++
		return true, nil
	}
}

// otherFile says, of a first row rec that is not read as a header (start
// has read a named model's header by name before) but has only names (no
// number, and no level of a categorical input: a data row of a model of
// categories holds those) and names none of the model's input columns (by
// index, start's), that the file may not be for this model; else it
// returns "".
func (s *CSVStream) otherFile(rec []string, index map[string]int) string {
	if !s.opt.Named {
		return ""
	}
	for _, f := range rec {
		l := runtime.Level(f)
		if _, ok := index[l]; ok || runtime.IsNumber(f) {
			return ""
		}
		for _, in := range s.opt.Schema.Inputs {
			if in.Kind == runtime.Categorical && slices.Contains(in.Levels, l) {
				return ""
			}
		}
	}
	if hint, _ := headerCaseHint(s.opt.Schema.Names(), rec); hint != "" { // caseMatches trims the fields
		return "; its first row reads like a header" + hint
	}
	return fmt.Sprintf("; its first row reads like a header, but names none of the model's columns (%s): is this the file the model is for?", QuoteList(s.opt.Schema.Names(), 3))
}

// start reads the first row: whether it is a header, and where the inputs
// and the label are.
func (s *CSVStream) start(rec []string, line int) (header bool, err error) {
	sc := s.opt.Schema
	named := !keyword(s.opt.LabelCol) // --label-col gives a column's name
	if named && s.opt.Named && s.opt.LabelCol == sc.Label {
		// The model's own label: found by its name in a header, and in a
		// file without one, in its place (positionalLabel).
		s.opt.LabelCol, named = "", false
	}
	labelName := sc.Label
	if named {
		labelName = s.opt.LabelCol
	}
	index := make(map[string]int, len(sc.Inputs))
	for i, in := range sc.Inputs {
		index[in.Name] = i
	}
	switch s.opt.Header {
	case HeaderYes:
		header = true
	case HeaderAuto:
		header = s.looksLikeHeader(rec, index)
	}
	extra := CleanNames(s.opt.Ignore)
	if named && slices.Contains(extra, labelName) {
		return header, fmt.Errorf("--ignore %q names the label column (--label-col %[1]q)", labelName)
	}
	keep := CleanNames(s.opt.Keep)
	if len(keep) > 0 && header {
		if err := s.carry(rec, line, keep); err != nil {
			return header, err
		}
		if s.opt.Named { // the kept columns it does not read are left out
			for _, n := range keep {
				if _, reads := index[n]; !reads && n != labelName && !slices.Contains(extra, n) {
					extra = append(extra, n)
				}
			}
		}
	}
	for _, n := range extra {
		if _, reads := index[n]; reads && s.opt.Named {
			return header, fmt.Errorf("%s: --ignore %q names a column the model reads; only columns it does not read can be left out", s.name, n)
		}
	}
	if len(extra) > 0 && !(header && s.opt.Named) {
		why := "its first row does not name the model's columns"
		switch {
		case s.opt.Header == HeaderNo:
			why = "--header no says the file has no header row"
		case !s.opt.Named:
			why = "the model's columns are positional (its training file had no header)"
		}
		return header, fmt.Errorf("%s: --ignore names columns of a header, but %s", s.name, why)
	}
	if header && s.opt.Named {
		left := sc.Ignored // the model's, less a label --label-col names
		if named {
			left = slices.DeleteFunc(slices.Clone(left), func(n string) bool { return n == labelName })
		}
		if drop := CleanNames(slices.Concat(left, extra)); len(drop) > 0 {
			var absent []string
			rec, absent = s.cr.ignore(rec, drop) // columns the model left out may be absent
			if absent = slices.DeleteFunc(absent, func(n string) bool { return !slices.Contains(extra, n) }); len(absent) > 0 {
				return true, s.cr.absent(s.name, line, absent)
			}
			s.width = len(rec)
		}
		return true, s.byName(rec, line, index, labelName)
	}
	if named {
		why := "the model's columns are positional (its training file had no header)"
		if s.opt.Named {
			why = "this file has no header row to find it in"
			if s.opt.Header == HeaderNo {
				why = "--header no says this file has no header row"
			}
		}
		return header, fmt.Errorf("%s: --label-col %q names a column, but %s; give its place instead (first, last or N)", s.name, s.opt.LabelCol, why)
	}
	s.label = -1
	switch {
	case s.width == s.inputs:
	case s.width == s.inputs+1:
		if s.label, err = s.positionalLabel(); err != nil {
			return header, fmt.Errorf("%s: %v", s.name, err)
		}
		if s.label < 0 {
			return header, fmt.Errorf("%s:%d: row has %d columns; with no label column the model reads %d", s.name, line, s.width, s.inputs)
		}
	default:
		other, ignored := s.otherFile(rec, index), ""
		if len(sc.Ignored) > 0 && !header && other == "" {
			ignored = fmt.Sprintf("; it leaves out %s, which a file without a header must not hold (or give the file a header)", QuoteList(sc.Ignored, len(sc.Ignored)))
		}
		where := "" // the label's place, where the model's training file had it
		switch at := sc.LabelAt; {
		case s.opt.LabelCol != "" || at < 1 || at > s.inputs: // placed by the flag, or last
		case at == 1:
			where = ", first"
		default:
			where = fmt.Sprintf(", column %d", at)
		}
		hint := s.cr.separatorHint(rec)
		if hint != "" {
			other = "" // the header's names are read as one
		}
		return header, fmt.Errorf("%s:%d: row has %d columns; the model reads %d (plus an optional label column%s)%s%s%s", s.name, line, s.width, s.inputs, where, ignored, hint, other)
	}
	s.cols = make([]int, 0, s.inputs)
	for j := range s.width {
		if j != s.label {
			s.cols = append(s.cols, j)
		}
	}
	if len(keep) > 0 {
		// --keep's error for a file without a header is said only once the
		// file is otherwise read: a file the model cannot read has a
		// better error than that.
		why := "its first row is not one"
		if s.opt.Header == HeaderNo {
			why = "--header no says the file has no header row"
		}
		return header, fmt.Errorf("%s: --keep names columns of a header, but %s", s.name, why)
	}
	return header, nil
}

// carry makes the stream carry the fields of the columns keep names
// through (Kept), found in the header rec, on line.
func (s *CSVStream) carry(rec []string, line int, keep []string) error {
	var carry []int
	var absent []string
	names := s.cr.headerNames(rec)
	for _, n := range keep {
		if j := slices.Index(names, n); j >= 0 {
			carry = append(carry, j)
		} else {
			absent = append(absent, n)
		}
	}
	if len(absent) > 0 {
		return noSuchColumns(s.name, line, "--keep", absent, names, "")
	}
	s.cr.carry = carry
	return nil
}

// Kept returns the current row's fields of the columns Keep names, in
// its order, as the file writes them (a decimal comma stays a comma)
// less the spaces around; the slice is reused. It is nil without Keep.
func (s *CSVStream) Kept() []string { return s.cr.carried }

// positionalLabel returns the label's column in a file read by position
// whose rows hold one column more than the inputs: where LabelCol says,
// or by default where the training file had it (Schema.LabelAt).
func (s *CSVStream) positionalLabel() (int, error) {
	if at := s.opt.Schema.LabelAt; s.opt.LabelCol == "" && at > 0 {
		return at - 1, nil
	}
	return labelIndex(s.opt.LabelCol, s.width)
}

// looksLikeHeader applies CSVStream's header rule to the first row: for a
// model whose names are positional, a row where a numeric column's field
// is a word and no categorical column's field is one of its levels.
func (s *CSVStream) looksLikeHeader(rec []string, index map[string]int) bool {
	if s.opt.Named {
		named := !keyword(s.opt.LabelCol) // a label given by its name
		for _, f := range rec {
			l := runtime.Level(f)
			if _, ok := index[l]; ok || named && l == s.opt.LabelCol || s.opt.Schema.Named() && l == s.opt.Schema.Label {
				return true
			}
		}
	}
	// Positional: a numeric input's field that is a word.
	if s.width != s.inputs && s.width != s.inputs+1 {
		return false
	}
	label := -1
	if s.width == s.inputs+1 {
		if at, err := s.positionalLabel(); err == nil {
			label = at // else a name, whose place only a header gives
		}
	}
	// A categorical field that holds one of its column's levels is data:
	// a row with a typo in a numeric field is not taken for a header.
	i, word := 0, false
	for j, f := range rec {
		if j == label {
			continue
		}
		if i < s.inputs {
			switch in := &s.opt.Schema.Inputs[i]; {
			case in.Kind == runtime.Numeric && isWord(f, s.opt.Schema.Missing):
				word = true
			case in.Kind == runtime.Categorical && slices.Contains(in.Levels, runtime.Level(f)):
				return false
			}
		}
		i++
	}
	return word
}

// dataHeaderHint says, when some fields of a header that names none of a
// model's columns are numbers, that it may be a row of data whose columns
// are not in the model's order (names, the model's): in that order a
// header-less file's first row reads as data. Otherwise it is empty.
func dataHeaderHint(rec, names []string) string {
	var numbers []string
	for _, f := range rec {
		if runtime.IsNumber(f) {
			numbers = append(numbers, strings.TrimSpace(f))
		}
	}
	if len(numbers) == 0 {
		return ""
	}
	return fmt.Sprintf("; it holds %s (%s), as a row of data does: a file without a header must give the model's columns in its order (%s), and --header no reads them so",
		text.Verb(len(numbers), "a number", "numbers"), QuoteList(numbers, 3), QuoteList(names, 8))
}

// byName matches a header's columns to the schema's inputs and label. A
// column the header leaves unnamed is named as the training file's schema
// names it: the label where LabelCol places it (a training header's empty
// label name is the schema's "class"), else the input's x1, x2, ...
func (s *CSVStream) byName(rec []string, line int, index map[string]int, labelName string) error {
	s.cols = make([]int, s.inputs)
	for i := range s.cols {
		s.cols[i] = -1
	}
	s.label = -1
	labelAt := -1
	if keyword(s.opt.LabelCol) {
		k, err := labelIndex(s.opt.LabelCol, s.cr.width(len(rec)))
		if err != nil { // 0, or past the header's columns: as train says
			return fmt.Errorf("%s:%d: --label-col: %v", s.name, line, err)
		}
		labelAt = s.cr.field(k) // an ignored column is no label
	}
	var unknown []string // by the names --ignore knows them by
	var blank []int      // the unknown columns that are unnamed
	last := -1
	for j, f := range rec {
		n := runtime.Level(f)
		unnamed := n == ""
		if unnamed {
			n = runtime.Unnamed(j - btoi(s.label >= 0))
			_, input := index[n]
			if j == labelAt && !input {
				n = labelName
			}
		}
		if i, ok := index[n]; ok {
			if s.cols[i] >= 0 {
				return fmt.Errorf("%s:%d: columns %d and %d are both named %q; names must be distinct, as the model finds its columns by name: rename one in the header", s.name, line, s.cr.Column(s.cols[i])+1, s.cr.Column(j)+1, n)
			}
			s.cols[i] = j
			if i < last {
				s.reordered = true
			}
			last = i
			continue
		}
		if n == labelName && labelName != "" && s.label < 0 {
			s.label = j
			continue
		}
		unknown = append(unknown, headerName(f, s.cr.Column(j))) // --ignore counts the file's columns
		if unnamed {
			blank = append(blank, j)
		}
	}
	// A label --label-col names that the header lacks is a typo, not a
	// file without labels.
	if _, input := index[s.opt.LabelCol]; !keyword(s.opt.LabelCol) && s.label < 0 && !input {
		names := s.cr.headerNames(rec)
		return fmt.Errorf("%s:%d: --label-col %q: the header has no such column (it has %s)%s", s.name, line, s.opt.LabelCol, QuoteList(names, 8), caseHint([]string{s.opt.LabelCol}, names))
	}
	// --label-col first or N must place the label where its name is.
	if spec := strings.ToLower(s.opt.LabelCol); labelAt >= 0 && labelAt != s.label && spec != "" && spec != "last" && spec != "none" {
		where := "which this file lacks"
		if s.label >= 0 {
			where = fmt.Sprintf("column %d here", s.cr.Column(s.label)+1)
		}
		return fmt.Errorf("%s:%d: --label-col %s names column %d (%q), but the label is the column named %q (%s): pass --label-col %q, which names it wherever it stands", s.name, line, s.opt.LabelCol, s.cr.Column(labelAt)+1, runtime.Level(rec[labelAt]), labelName, where, labelName)
	}
	var absent []string
	for i, j := range s.cols {
		if j < 0 {
			absent = append(absent, s.opt.Schema.Inputs[i].Name)
		}
	}
	var missingLabel []string // the label's name, where no column has it
	if s.label < 0 && labelName != "" {
		missingLabel = []string{labelName}
	}
	switch {
	case len(absent) > 0 && len(unknown) > 0:
		hint, _ := headerCaseHint(append(absent, missingLabel...), unknown)
		if hint == "" && len(absent) == s.inputs {
			hint = dataHeaderHint(rec, s.opt.Schema.Names())
		}
		return fmt.Errorf("%s:%d: the header lacks the model's column(s) %s and has column(s) the model does not know: %s%s", s.name, line, QuoteList(absent, 8), QuoteList(unknown, 8), hint)
	case len(absent) > 0:
		return fmt.Errorf("%s:%d: the header lacks the model's column(s) %s; where a row's value is unknown, give the column with an empty field, which reads as missing", s.name, line, QuoteList(absent, 8))
	case len(unknown) == 1 && s.label >= 0 && labelName != s.opt.Schema.Label && unknown[0] == s.opt.Schema.Label:
		own := unknown[0]
		return fmt.Errorf("%s:%d: --label-col %q makes that column the label, so the model's own label column, %q, is one it does not read: drop --label-col to read %q as the label, or leave it out with %s", s.name, line, labelName, own, own, IgnoreFlag(own))
	case len(unknown) > 0:
		them := text.Verb(len(unknown), "it", "them")
		orKeep := "" // a third way, where the command takes --keep
		if s.opt.KeepHint {
			orKeep = fmt.Sprintf(" (or print %s beside each prediction with %s)", them, namesFlag("--keep", unknown))
		}
		lbl, fix := "", ": leave "+them+" out with "+IgnoreFlag(unknown...)+orKeep
		switch own := s.opt.Schema.Label; {
		case labelName != "" && labelName != own && slices.Contains(unknown, own):
			lbl, fix = fmt.Sprintf("; the label column is %q here, where the model's was %q: drop --label-col, or pass --label-col %q", labelName, own, own), ""
		case labelName != "" && s.label < 0:
			// The label under another name is a column the model does
			// not know, not one to leave out.
			lbl = fmt.Sprintf("; the label column is %q, which this header lacks", labelName)
			switch {
			case len(unknown) == 1 && s.opt.KeepHint: // rows to predict seldom have labels
				fix = fmt.Sprintf(": leave it out with %s, or print it beside each prediction with %s; if it is the label, pass --label-col %q", IgnoreFlag(unknown...), namesFlag("--keep", unknown), unknown[0])
			case len(unknown) == 1:
				fix = fmt.Sprintf(": if %q is the label, pass --label-col %q; else leave it out with %s", unknown[0], unknown[0], IgnoreFlag(unknown...))
			default:
				fix = ": if one of them is the label, name it with --label-col; leave the others out with --ignore" + orKeep
			}
		case labelName != "":
			lbl = fmt.Sprintf("; the label column is %q", labelName)
		}
		switch {
		case len(blank) == 0:
		case s.cr.Column(blank[0]) == 0:
			lbl += "; a first column the header leaves unnamed is often the row index pandas' to_csv writes: write the file with to_csv(index=False)"
		case blank[0] == len(rec)-len(blank): // increasing: the last len(blank) columns
			lbl += "; unnamed columns at the end of the header come from lines that end with a separator: remove the separators at the lines' ends"
		}
		if hint, label := headerCaseHint(missingLabel, unknown); hint != "" {
			// The label, written in another case: not a column to leave out.
			fix = hint
			if others := slices.DeleteFunc(slices.Clone(unknown), func(n string) bool { return slices.Contains(label, n) }); len(others) > 0 {
				fix += "; leave the others out with " + IgnoreFlag(others...)
			}
		}
		return fmt.Errorf("%s:%d: the header has column(s) the model does not know: %s (the model reads %s%s)%s", s.name, line, QuoteList(unknown, 8), QuoteList(s.opt.Schema.Names(), 8), lbl, fix)
	}
	return nil
}

// Row returns the current row's encoded features; the slice is reused.
func (s *CSVStream) Row() []float64 { return s.x }

// Label returns the label of the current row: "" when the file has no
// label column or the row's label is missing (empty, or a missing token).
func (s *CSVStream) Label() string { return s.lbl }

// MissingLabel returns the missing-value token the current row's label
// is ("NA"), when Label is "" for one ("" for an empty field).
func (s *CSVStream) MissingLabel() string { return s.lblToken }

// Line returns the current row's line in the file.
func (s *CSVStream) Line() int { return s.line }

// Labelled reports whether rows carry a label.
func (s *CSVStream) Labelled() bool { return s.label >= 0 }

// UnseenColumns returns the input columns (indices in the schema) whose
// value in the current row no training row had. The slice is reused.
func (s *CSVStream) UnseenColumns() []int { return s.unseenCols }

// Reordered reports whether the file's columns were matched by name in an
// order other than the model's.
func (s *CSVStream) Reordered() bool { return s.reordered }

// SkippedHeader reports whether the first row was read as a header and
// skipped, the columns being read by position because the model's names
// are positional (its training file had no header): a header that names
// the columns in another order cannot be told from one in the model's.
func (s *CSVStream) SkippedHeader() bool { return s.skipped }

// ByPosition reports whether the file has no header, so that the columns
// of a model that names them were read by position, in the order of its
// training file.
func (s *CSVStream) ByPosition() bool { return s.unnamed }

// MaxLineBytes bounds a line of a CSV file: 4 MiB, room for a row of
// about 200,000 numbers. A longer line is an error, so that a
// file of one enormous line cannot make the reader hold it all.
const MaxLineBytes = 4 << 20

// ErrLineTooLong is returned, wrapped with the file's name, for a CSV line
// longer than MaxLineBytes.
var ErrLineTooLong = fmt.Errorf("a line is longer than %d MiB, the most songc reads", MaxLineBytes>>20)

// lineLimit is r that fails with ErrLineTooLong once a line (bytes since
// the last newline) grows past max; with cr, each carriage return is read
// as a newline.
type lineLimit struct {
	r    io.Reader
	max  int
	cr   bool
	line int // bytes since the last newline
}

func (l *lineLimit) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	for i, c := range p[:n] {
		if c == '\r' && l.cr {
			p[i], c = '\n', '\n'
		}
		if c == '\n' {
			l.line = 0
		} else if l.line++; l.line > l.max {
			return 0, ErrLineTooLong
		}
	}
	return n, err
}
