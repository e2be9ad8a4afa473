package golden

import (
	"bytes"
	"encoding/binary"
	"errors"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/songc/songc/compiler"
	"github.com/songc/songc/golden/internal/fuzzclassifier"
	"github.com/songc/songc/golden/internal/fuzzrecords"
	"github.com/songc/songc/runtime"
)

// The fuzz test compares the generated package internal/fuzzclassifier,
// compiled from testdata/fuzz-model.json (12 nodes, 5 steps, preprocessing,
// spread-out logits, cycles), with the runtime on arbitrary inputs,
// including NaN, infinities, subnormals and -0.
const (
	fuzzModel   = "testdata/fuzz-model.json"
	fuzzPackage = "internal/fuzzclassifier/classifier.go"
)

// TestFuzzClassifierUpToDate keeps the checked-in generated package equal to
// what the compiler produces now (go test ./golden -update rewrites it).
func TestFuzzClassifierUpToDate(t *testing.T) {
	checkGenerated(t, fuzzModel, fuzzPackage, compiler.Options{Package: "fuzzclassifier", Layout: compiler.LayoutTables})
}

// checkGenerated compiles model with opt (and the golden version) and
// fails unless the checked-in file path is that code (go test ./golden
// -update rewrites it).
func checkGenerated(t *testing.T, model, path string, opt compiler.Options) {
	t.Helper()
	m, err := runtime.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	opt.Version = goldenVersion
	src, _, err := compiler.Compile(m, opt)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(have, src) {
		t.Fatalf("%s is stale (run go test ./golden -update): %v", path, err)
	}
}

func FuzzGeneratedMatchesRuntime(f *testing.F) {
	k, err := runtime.LoadClassifier(fuzzModel)
	if err != nil {
		f.Fatal(err)
	}
	m := k.Model
	d := k.NumFeatures()
	seed := func(vals ...float64) {
		b := make([]byte, 8*d)
		for j := 0; j < d; j++ {
			binary.LittleEndian.PutUint64(b[8*j:], math.Float64bits(vals[j%len(vals)]))
		}
		f.Add(b)
	}
	seed(0)
	seed(1, -1, 2.5, 1e-3)
	seed(m.InputShift...)
	seed(math.NaN(), 1)
	seed(math.Inf(1), math.Inf(-1))
	seed(5e-324, -0.0)
	scratch := make([]float64, d)
	buf := make([]fuzzclassifier.Decision, 0, fuzzclassifier.Steps)
	f.Fuzz(func(t *testing.T, b []byte) {
		var x [fuzzclassifier.NumFeatures]float64
		for j := range x {
			if 8*j+8 <= len(b) {
				x[j] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*j:]))
			}
		}
		res, want := k.Walk(x[:], scratch, []runtime.Step{})
		if got := fuzzclassifier.Predict(&x); got != res.Class {
			t.Fatalf("x %v: Predict %d, runtime %d", x, got, res.Class)
		}
		c, path := fuzzclassifier.Explain(&x, buf)
		if c != res.Class || len(path) != len(want) {
			t.Fatalf("x %v: Explain %d via %d steps, runtime %d via %d", x, c, len(path), res.Class, len(want))
		}
		for i, s := range want {
			p := path[i]
			if p.Node != s.Node || math.Float64bits(p.Margin) != math.Float64bits(s.Margin) || p.Right != s.Right || p.Next != s.Next {
				t.Fatalf("x %v step %d: generated %+v, runtime %+v", x, i, p, s)
			}
		}
		if path[len(path)-1].Forced != res.Forced {
			t.Fatalf("x %v: forced %v, runtime %v", x, path[len(path)-1].Forced, res.Forced)
		}
	})
}

// FuzzCompile: any model that decodes compiles to Go source that parses
// and type-checks, with its class names, column names, categories and
// package as safe literals and identifiers.
func FuzzCompile(f *testing.F) {
	for _, p := range []string{"testdata/models/tiny.json", "testdata/models/hostile-names.json", "testdata/models/preprocessed.json", recordsModel} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, "classifier")
	}
	f.Add([]byte(`{"format": "songc-model/1", "nodes": 1, "classes": 2, "steps": 1, "features": 1, "class_names": ["\u0000", "*/ }"], "M0_logits": [[0], [1], [0]], "M1_logits": [[0], [0], [1]], "W": [[-0]], "b": [5e-324]}`), "x")
	// The standard library's packages from source: the code imports
	// strings where a model reads categorical values. One importer for all
	// inputs, so that each is read once.
	fset := token.NewFileSet()
	std := importer.ForCompiler(fset, "source", nil)
	f.Fuzz(func(t *testing.T, b []byte, pkg string) {
		m, err := runtime.Decode(bytes.NewReader(b), "fuzz.json")
		if err != nil || m.Nodes*m.Features > 4096 {
			return
		}
		src, _, err := compiler.Compile(m, compiler.Options{Package: pkg})
		if err != nil {
			var pe *compiler.PackageError
			if errors.As(err, &pe) {
				return // refused package names are tested elsewhere
			}
			t.Fatalf("a valid model did not compile: %v", err)
		}
		file, err := parser.ParseFile(fset, "gen.go", src, 0)
		if err != nil {
			t.Fatalf("generated code does not parse: %v\n%s", err, src)
		}
		// It imports nothing of ours, so it type-checks alone: duplicate
		// or unexported field names, duplicate cases, undefined names.
		conf := types.Config{GoVersion: "go1.22", Importer: std}
		if _, err := conf.Check(pkg, fset, []*ast.File{file}, nil); err != nil {
			t.Fatalf("generated code does not type-check: %v\n%s", err, src)
		}
	})
}

// The record fuzz test compares the generated package internal/fuzzrecords,
// compiled from testdata/models/records.json (hostile column names and
// categories, missing values, standardised numbers, nodes that test one
// column), with the runtime's encoding of the same record's fields and
// its hard walk.
const (
	recordsModel   = "testdata/models/records.json"
	recordsPackage = "internal/fuzzrecords/classifier.go"
)

// TestFuzzRecordsUpToDate keeps the checked-in generated package equal to
// what the compiler produces now (go test ./golden -update rewrites it).
func TestFuzzRecordsUpToDate(t *testing.T) {
	checkGenerated(t, recordsModel, recordsPackage, compiler.Options{Package: "fuzzrecords", Layout: compiler.LayoutUnrolled})
}

// FuzzRecordsMatchRuntime: a record built from arbitrary bytes (numbers,
// including NaN and infinities, which the record API reads as missing;
// strings, including levels, missing tokens, spaces and invalid UTF-8)
// encodes, classifies and explains in the generated code exactly as the
// runtime reads the same fields from a CSV row.
func FuzzRecordsMatchRuntime(f *testing.F) {
	k, err := runtime.LoadClassifier(recordsModel)
	if err != nil {
		f.Fatal(err)
	}
	m := k.Model
	s := m.Schema
	enc := runtime.NewEncoder(s)
	f.Add(float64(40), "blue", float64(1), "no", float64(0), "x", float64(3))
	f.Add(math.NaN(), "", math.Inf(1), "été", math.Inf(-1), "?", -0.0)
	f.Add(1e308, "red\nline", 5e-324, " yes ", float64(2), "NA", float64(-7))
	f.Add(float64(0), "\xff", float64(0), "\ufffd", float64(0), "y z", float64(0))
	f.Add(float64(18), " blue\t", float64(1), "\u00a0no\u2003", float64(0), " NA ", float64(3))
	f.Add(float64(0), "blu\xffe", float64(0), "\xfe\xff", float64(0), "\u00a0", float64(0))
	f.Add(float64(60), "*/ end", float64(-3), "maybe", float64(1), "`back`", float64(9))
	scratch := make([]float64, k.NumFeatures())
	buf := make([]fuzzrecords.InputDecision, 0, fuzzrecords.Steps)
	f.Fuzz(func(t *testing.T, age float64, colour string, fn float64, ab string, ab2 float64, lives string, last float64) {
		nums := []float64{age, fn, ab2, last}
		strs := []string{colour, ab, lives}
		fields := make([]string, len(s.Inputs))
		rec := fuzzrecords.Input{}
		gen := []any{&rec.Age, &rec.ColourX, &rec.Func, &rec.AB, &rec.AB_5, &rec.X9Lives, &rec.Column7}
		for j, in := range s.Inputs {
			if in.Kind == runtime.Numeric {
				v := nums[0]
				nums = nums[1:]
				*gen[j].(*float64) = v
				if math.IsNaN(v) || math.IsInf(v, 0) {
					fields[j] = "" // what the record API reads as missing
				} else {
					fields[j] = strconv.FormatFloat(v, 'g', -1, 64)
				}
				continue
			}
			v := strs[0]
			strs = strs[1:]
			// The record API reads a value as the runtime reads the CSV
			// field: spaces around it, missing tokens and invalid UTF-8
			// alike.
			fields[j] = v
			*gen[j].(*string) = v
		}
		x := make([]float64, k.NumFeatures())
		unseen, err := enc.Encode(x, fields)
		if err != nil {
			t.Fatalf("fields %q: %v", fields, err)
		}
		var gx [fuzzrecords.NumFeatures]float64
		if gu := fuzzrecords.Encode(&gx, &rec); gu != unseen {
			t.Fatalf("fields %q: unseen %v, runtime %v", fields, gu, unseen)
		}
		for j := range gx {
			if math.Float64bits(gx[j]) != math.Float64bits(x[j]) {
				t.Fatalf("fields %q: feature %d is %v, runtime %v", fields, j, gx[j], x[j])
			}
		}
		res, want := k.Walk(x, scratch, []runtime.Step{})
		if got := fuzzrecords.PredictInput(&rec); got != res.Class {
			t.Fatalf("fields %q: PredictInput %d, runtime %d", fields, got, res.Class)
		}
		c, path := fuzzrecords.ExplainInput(&rec, buf)
		if c != res.Class || len(path) != len(want) {
			t.Fatalf("fields %q: ExplainInput %d via %d steps, runtime %d via %d", fields, c, len(path), res.Class, len(want))
		}
		for i, st := range want {
			p := path[i]
			if p.Node != st.Node || math.Float64bits(p.Margin) != math.Float64bits(st.Margin) || p.Right != st.Right || p.Next != st.Next {
				t.Fatalf("fields %q step %d: generated %+v, runtime %+v", fields, i, p, st)
			}
		}
	})
}
