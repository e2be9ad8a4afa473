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

// ReadCSV reads a whole CSV table from r. name is used in errors.
func ReadCSV(r io.Reader, name string, opt CSVOptions) (*Dataset, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1 // ragged rows get our own, clearer error
	cr.TrimLeadingSpace = true
	cr.ReuseRecord = true
	cr.Comment = 0

	ds := &Dataset{Name: name}
	width, label := -1, -1
	first := true
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, fmt.Errorf("%s:%d:%d: %v", name, pe.Line, pe.Column, pe.Err)
			}
			return nil, readErr(name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // blank line
		}
		if width < 0 {
			width = len(rec)
			switch {
			case opt.Features > 0 && width == opt.Features:
				label = -1
			case opt.Features > 0 && width != opt.Features+1:
				return nil, fmt.Errorf("%s:%d: row has %d columns; the model wants %d features (plus an optional label column)", name, line, width, opt.Features)
			default:
				if label, err = labelIndex(opt.LabelCol, width); err != nil {
					return nil, fmt.Errorf("%s: %v", name, err)
				}
			}
			ds.Features = width
			if label >= 0 {
				ds.Features--
				ds.Labels = []string{}
			}
			if ds.Features < 1 {
				return nil, fmt.Errorf("%s:%d: row has %d column(s): no feature columns besides the label", name, line, width)
			}
		}
		if len(rec) != width {
			return nil, fmt.Errorf("%s:%d: row has %d columns, earlier rows have %d", name, line, len(rec), width)
		}
		if first {
			first = false
			if opt.Header == HeaderYes || (opt.Header == HeaderAuto && looksLikeHeader(rec, label)) {
				continue
			}
		}
		for j, field := range rec {
			if j == label {
				ds.Labels = append(ds.Labels, strings.TrimSpace(field))
				continue
			}
			v, err := parseFeature(field)
			if err != nil {
				_, col := cr.FieldPos(j)
				return nil, fmt.Errorf("%s:%d:%d: column %d: %v", name, line, col, j+1, err)
			}
			ds.X = append(ds.X, v)
		}
		ds.Line = append(ds.Line, line)
		ds.Rows++
	}
	if ds.Rows == 0 {
		if width < 0 {
			return nil, fmt.Errorf("%s: file is empty", name)
		}
		return nil, fmt.Errorf("%s: has a header but no data rows", name)
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
