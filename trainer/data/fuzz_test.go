package data

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"testing"
)

// FuzzReadCSV: any input is read or refused with a one-line error; what is
// read is consistent and finite, and reads the same for the model it would
// train.
func FuzzReadCSV(f *testing.F) {
	for _, s := range []string{"1,2,a\n3,4,b\n", "f,g,y\n1,2,3\n", "", "\n\n", "1,\"2\n", "NaN,1,a\n", "1e999,a\n", "a,b\n1\n", "\xff,1,a\n", "a,b,y\n1,x,p\n,y,q\n", "n,?,p\ny,2,q\n", "1.3,a;c;d;e,1.4,Y\n-1,b;a;d;a,0.2,N\n", "6,23;7,42;N\n5,5;2,25;Y\n", "sep=|\na|b\n1|x\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ds, err := ReadCSV(bytes.NewReader(b), "fuzz.csv", CSVOptions{})
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		if ds.Rows < 1 || ds.Features < 1 || len(ds.X) != ds.Rows*ds.Features || len(ds.Labels) != ds.Rows || len(ds.Line) != ds.Rows {
			t.Fatalf("inconsistent dataset: %d rows, %d features, %d values, %d labels", ds.Rows, ds.Features, len(ds.X), len(ds.Labels))
		}
		for _, v := range ds.X {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("non-finite feature %v", v)
			}
		}
		// Read again for the model it would train, the file gives the
		// same rows: the schema and the stream agree.
		again, err := ReadCSV(bytes.NewReader(b), "fuzz.csv", CSVOptions{Schema: ds.Schema, Named: ds.Header})
		if err != nil {
			t.Fatalf("the training file does not read for its own model: %v", err)
		}
		if !slices.Equal(again.X, ds.X) || !slices.Equal(again.Labels, ds.Labels) {
			t.Fatalf("read for its model: %v %q, read for training: %v %q", again.X, again.Labels, ds.X, ds.Labels)
		}
	})
}

// FuzzReadIDX: hostile headers and truncated data are refused without huge
// allocations (the fuzzer's memory limit would catch them).
func FuzzReadIDX(f *testing.F) {
	var b bytes.Buffer
	binary.Write(&b, binary.BigEndian, []uint32{idxImages, 2, 2, 2})
	b.Write([]byte{0, 255, 1, 2, 3, 4, 5, 6})
	f.Add(b.Bytes())
	f.Add([]byte{0, 0, 8, 3, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 28, 0, 0, 0, 28})
	f.Add([]byte{0, 0, 8, 1, 0x10, 0, 0, 0, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		ds, err := readIDXImages(bytes.NewReader(b), "fuzz-images", 0)
		if err == nil && len(ds.X) != ds.Rows*ds.Features {
			t.Fatalf("inconsistent: %d values for %d x %d", len(ds.X), ds.Rows, ds.Features)
		}
		readIDXHeader(bytes.NewReader(b), "fuzz-labels", idxLabels, 1)
		var gz bytes.Buffer
		w := gzip.NewWriter(&gz)
		w.Write(b)
		w.Close()
		if r, err := maybeGzip(bytes.NewReader(gz.Bytes()[:len(gz.Bytes())/2])); err == nil {
			readIDXImages(r, "fuzz-gz", 0)
		}
	})
}
