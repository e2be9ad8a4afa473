package data

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Stream reads a file one row at a time, in memory that does not grow with
// the file: predict and eval read their data through it. OpenStream opens
// a CSV file (a CSVStream) or an IDX image file with its labels beside it.
type Stream interface {
	// Next reads the next row; it returns false at the end of the data.
	Next() (bool, error)
	// Row returns the current row's features; the slice is reused.
	Row() []float64
	// Labelled reports whether rows have labels, Label returns the
	// current row's ("" when it is missing), and Line where it is (CSV
	// line, or image number).
	Labelled() bool
	Label() string
	Line() int
	// MissingLabel returns the missing-value token ("NA") that the current
	// row's label is, when Label is "" for one; "" otherwise.
	MissingLabel() string
	// UnseenColumns returns the input columns (their indices in the
	// schema) in which the current row has a categorical value seen in no
	// training row; the slice is reused, empty for none.
	UnseenColumns() []int
	// Reordered reports whether the columns were matched by name in an
	// order other than the model's.
	Reordered() bool
	// SkippedHeader reports whether a header row was skipped and the
	// columns read by position, the model's names being positional.
	SkippedHeader() bool
	// ByPosition reports whether the file has no header, so that the
	// columns of a model that names them were read by position.
	ByPosition() bool
	// Kept returns the current row's fields of the columns that
	// CSVOptions.Keep names, in its order; the slice is reused. It is nil
	// without Keep.
	Kept() []string
	// Close releases the files.
	Close() error
}

// OpenStream opens path as a Stream: IDX by its name, CSV otherwise.
// opt.Schema, the model's input columns, must be set.
func OpenStream(path string, opt CSVOptions) (Stream, error) {
	if IsIDX(path) {
		if len(opt.Keep) > 0 {
			return nil, fmt.Errorf("%s: --keep names columns of a CSV header, and an IDX file has none", path)
		}
		return openIDXStream(path, opt.width())
	}
	f, err := openFile(path)
	if err != nil {
		return nil, err
	}
	st, err := readStream(f, f, path, path, opt)
	if err != nil {
		f.Close()
	}
	return st, err
}

// ReadStream reads CSV rows from r, as OpenStream reads a CSV file, plain
// or gzip'd; name names r in errors ("stdin", say). Close does not close
// r. opt.Schema, the model's input columns, must be set.
func ReadStream(r io.Reader, name string, opt CSVOptions) (Stream, error) {
	return readStream(r, io.NopCloser(nil), name, "FILE", opt)
}

// readStream reads CSV rows from r, plain or gzip'd, named name in errors
// and path in notCSV's advice; the stream's Close closes c.
func readStream(r io.Reader, c io.Closer, name, path string, opt CSVOptions) (Stream, error) {
	if opt.Schema == nil {
		return nil, fmt.Errorf("%s: reading CSV rows a row at a time needs a model's input columns", name)
	}
	r, err := unzipped(r, name)
	if err != nil {
		return nil, err
	}
	br, err := csvText(r, name, path)
	if err != nil {
		return nil, err
	}
	return &csvFileStream{CSVStream: NewCSVStream(br, name, opt), c: c}, nil
}

type csvFileStream struct {
	*CSVStream
	c io.Closer
}

func (s *csvFileStream) Close() error { return s.c.Close() }

// idxStream reads an IDX image file, and its label file when there is one,
// an image at a time.
type idxStream struct {
	name, labelsName string
	r, lr            io.Reader
	c, lc            io.Closer
	rows, n          int
	raw              []byte
	x                []float64
	label            string
}

func openIDXStream(path string, features int) (_ *idxStream, err error) {
	if strings.Contains(path, "-idx1-ubyte") {
		return nil, fmt.Errorf("%s: is an IDX label file; pass the images file, its labels are found beside it", path)
	}
	s := &idxStream{name: path}
	defer func() {
		if err != nil {
			s.Close()
		}
	}()
	if s.r, s.c, err = openMaybeGzip(path); err != nil {
		return nil, err
	}
	dims, err := readIDXHeader(s.r, path, idxImages, 3)
	if err != nil {
		return nil, err
	}
	d := dims[1] * dims[2]
	if features > 0 && d != features {
		return nil, fmt.Errorf("%s: images have %d pixels; the model wants %d features", path, d, features)
	}
	s.rows, s.raw, s.x = dims[0], make([]byte, d), make([]float64, d)
	if s.lr, s.lc, s.labelsName, err = openIDXLabels(path, s.rows); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *idxStream) Next() (bool, error) {
	if s.n == s.rows {
		return false, nil
	}
	if _, err := io.ReadFull(s.r, s.raw); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return false, fmt.Errorf("%s: image %d of %d is cut short", s.name, s.n+1, s.rows)
		}
		return false, readErr(s.name, err)
	}
	for i, v := range s.raw {
		s.x[i] = float64(v) / 255
	}
	if s.lr != nil {
		var b [1]byte
		if _, err := io.ReadFull(s.lr, b[:]); err != nil {
			return false, fmt.Errorf("%s: labels are cut short: %d of %d", s.labelsName, s.n, s.rows)
		}
		s.label = strconv.Itoa(int(b[0]))
	}
	s.n++
	return true, nil
}

func (s *idxStream) Row() []float64       { return s.x }
func (s *idxStream) Labelled() bool       { return s.lr != nil }
func (s *idxStream) Kept() []string       { return nil }
func (s *idxStream) Label() string        { return s.label }
func (s *idxStream) MissingLabel() string { return "" } // IDX labels are numbers, never missing
func (s *idxStream) Line() int            { return s.n }
func (s *idxStream) UnseenColumns() []int { return nil }
func (s *idxStream) Reordered() bool      { return false }
func (s *idxStream) SkippedHeader() bool  { return false }
func (s *idxStream) ByPosition() bool     { return false }

func (s *idxStream) Close() error {
	for _, c := range []io.Closer{s.c, s.lc} {
		if c != nil {
			c.Close()
		}
	}
	return nil
}
