package data

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Header says whether a CSV file starts with a header row.
type Header int

const (
	HeaderAuto Header = iota // a first row with a non-numeric feature is a header
	HeaderYes
	HeaderNo
)

// CSVOptions control ReadCSV.
type CSVOptions struct {
	Header Header
	// LabelCol is "last" (the default when empty), "first", "none", or a
	// 1-based column number.
	LabelCol string
	// Features, when > 0, is the number of features the caller expects. A
	// file whose rows have exactly Features fields is then read as unlabelled
	// (whatever LabelCol says); Features+1 fields means labelled.
	Features int
}

// maxField is the longest numeric field accepted, in bytes. Longer ones are
// hostile or corrupt; a float64 needs at most about 25 characters.
const maxField = 256

// labelIndex resolves opt.LabelCol for rows of width fields: -1 means none.
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
		return 0, fmt.Errorf("label column %q: want last, first, none or a column number >= 1", spec)
	}
	if k > width {
		return 0, fmt.Errorf("label column %d: rows have only %d columns", k, width)
	}
	return k - 1, nil
}

// ReadCSVFile reads the CSV file at path (gzip'd or not).
func ReadCSVFile(path string, opt CSVOptions) (*Dataset, error) {
	r, c, err := openMaybeGzip(path)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	return ReadCSV(r, path, opt)
}

// CSVStream reads a CSV table row by row, in constant memory: what songc
// predict uses on files of any size. ReadCSV is built on it.
type CSVStream struct {
	name     string
	opt      CSVOptions
	cr       *csv.Reader
	width    int // columns per row, once known
	label    int // label column, -1 for none
	features int
	first    bool
	x        []float64 // the current row's features
	lbl      string
	line     int
	rows     int
}

// NewCSVStream starts reading CSV from r. name is used in errors.
func NewCSVStream(r io.Reader, name string, opt CSVOptions) *CSVStream {
	cr := csv.NewReader(&lineLimit{r: r, max: MaxLineBytes})
	cr.FieldsPerRecord = -1 // ragged rows get our own, clearer error
	cr.TrimLeadingSpace = true
	cr.ReuseRecord = true
	cr.Comment = 0
	return &CSVStream{name: name, opt: opt, cr: cr, width: -1, label: -1, first: true}
}

// Next reads the next data row. It returns false at the end of the file
// (err nil) or on an error; the error names the file, line and column.
// After the first row, Features and Labelled describe the table.
func (s *CSVStream) Next() (ok bool, err error) {
	for {
		rec, err := s.cr.Read()
		if err == io.EOF {
			if s.rows == 0 {
				if s.width < 0 {
					return false, fmt.Errorf("%s: file is empty", s.name)
				}
				return false, fmt.Errorf("%s: has a header but no data rows", s.name)
			}
			return false, nil
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return false, fmt.Errorf("%s:%d:%d: %v", s.name, pe.Line, pe.Column, pe.Err)
			}
			return false, readErr(s.name, err)
		}
		line, _ := s.cr.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // blank line
		}
		if s.width < 0 {
			if err := s.setWidth(len(rec), line); err != nil {
				return false, err
			}
		}
		if len(rec) != s.width {
			return false, fmt.Errorf("%s:%d: row has %d columns, earlier rows have %d", s.name, line, len(rec), s.width)
		}
		if s.first {
			s.first = false
			if s.opt.Header == HeaderYes || (s.opt.Header == HeaderAuto && looksLikeHeader(rec, s.label)) {
				continue
			}
		}
		s.x = s.x[:0]
		for j, field := range rec {
			if j == s.label {
				// Invalid UTF-8 becomes U+FFFD here, as JSON would make it in
				// the model file, so training and prediction agree on names.
				s.lbl = strings.ToValidUTF8(strings.TrimSpace(field), "\uFFFD")
				continue
			}
			v, err := parseFeature(field)
			if err != nil {
				_, col := s.cr.FieldPos(j)
				return false, fmt.Errorf("%s:%d:%d: column %d: %v", s.name, line, col, j+1, err)
			}
			s.x = append(s.x, v)
		}
		s.line = line
		s.rows++
		return true, nil
	}
}

func (s *CSVStream) setWidth(width, line int) error {
	s.width = width
	switch {
	case s.opt.Features > 0 && width == s.opt.Features:
		s.label = -1
	case s.opt.Features > 0 && width != s.opt.Features+1:
		return fmt.Errorf("%s:%d: row has %d columns; the model wants %d features (plus an optional label column)", s.name, line, width, s.opt.Features)
	default:
		var err error
		if s.label, err = labelIndex(s.opt.LabelCol, width); err != nil {
			return fmt.Errorf("%s: %v", s.name, err)
		}
	}
	s.features = width
	if s.label >= 0 {
		s.features--
	}
	if s.features < 1 {
		return fmt.Errorf("%s:%d: row has %d column(s): no feature columns besides the label", s.name, line, width)
	}
	return nil
}

// Row returns the features of the current row; the slice is reused by Next.
func (s *CSVStream) Row() []float64 { return s.x }

// Label returns the label of the current row ("" when unlabelled).
func (s *CSVStream) Label() string { return s.lbl }

// Line returns the current row's line in the file.
func (s *CSVStream) Line() int { return s.line }

// Features returns the number of features per row.
func (s *CSVStream) Features() int { return s.features }

// Labelled reports whether rows carry a label.
func (s *CSVStream) Labelled() bool { return s.label >= 0 }

// ReadCSV reads a whole CSV table from r. name is used in errors.
func ReadCSV(r io.Reader, name string, opt CSVOptions) (*Dataset, error) {
	st := NewCSVStream(r, name, opt)
	ds := &Dataset{Name: name}
	for {
		ok, err := st.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if ds.Rows == 0 {
			ds.Features = st.Features()
			if st.Labelled() {
				ds.Labels = []string{}
			}
		}
		ds.X = append(ds.X, st.Row()...)
		if st.Labelled() {
			ds.Labels = append(ds.Labels, st.Label())
		}
		ds.Line = append(ds.Line, st.Line())
		ds.Rows++
	}
	return ds, nil
}

// looksLikeHeader reports whether a first row has a feature field that is
// not a number.
func looksLikeHeader(rec []string, label int) bool {
	for j, f := range rec {
		if j == label {
			continue
		}
		if _, err := parseFeature(f); err != nil {
			return true
		}
	}
	return false
}

func parseFeature(f string) (float64, error) {
	f = strings.TrimSpace(f)
	if len(f) > maxField {
		return 0, fmt.Errorf("feature is %d bytes long; a number needs at most %d", len(f), maxField)
	}
	if f == "" {
		return 0, fmt.Errorf("empty feature")
	}
	v, err := strconv.ParseFloat(f, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
			return 0, fmt.Errorf("feature %q is out of the float64 range", f)
		}
		return 0, fmt.Errorf("feature %q is not a number", f)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("feature %q is not finite", f)
	}
	return v, nil
}

// MaxLineBytes bounds a line of a CSV file: 4 MiB, room for a row of
// about 200,000 numbers. A longer line is an error, so that a
// file of one enormous line cannot make the reader hold it all.
const MaxLineBytes = 4 << 20

// ErrLineTooLong is returned, wrapped with the file's name, for a CSV line
// longer than MaxLineBytes.
var ErrLineTooLong = fmt.Errorf("a line is longer than %d MiB, the most songc reads", MaxLineBytes>>20)

// lineLimit is r that fails with ErrLineTooLong once a line (bytes since
// the last newline) grows past max.
type lineLimit struct {
	r    io.Reader
	max  int
	line int // bytes since the last newline
}

func (l *lineLimit) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	for _, c := range p[:n] {
		if c == '\n' {
			l.line = 0
		} else if l.line++; l.line > l.max {
			return 0, ErrLineTooLong
		}
	}
	return n, err
}
