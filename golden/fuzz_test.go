package golden

import (
	"bytes"
	"encoding/binary"
	"errors"
	"go/parser"
	"go/token"
	"math"
	"os"
	"testing"

	"github.com/songc/songc/compiler"
	"github.com/songc/songc/golden/internal/fuzzclassifier"
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
	m, err := runtime.Load(fuzzModel)
	if err != nil {
		t.Fatal(err)
	}
	src, _, err := compiler.Compile(m, compiler.Options{Package: "fuzzclassifier", Layout: compiler.LayoutTables, Version: goldenVersion})
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(fuzzPackage, src, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have, err := os.ReadFile(fuzzPackage)
	if err != nil || !bytes.Equal(have, src) {
		t.Fatalf("%s is stale (run go test ./golden -update): %v", fuzzPackage, err)
	}
}

func FuzzGeneratedMatchesRuntime(f *testing.F) {
	m, err := runtime.Load(fuzzModel)
	if err != nil {
		f.Fatal(err)
	}
	k, err := runtime.New(m)
	if err != nil {
		f.Fatal(err)
	}
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

// FuzzCompile: any model that decodes compiles to Go source that parses,
// with its class names and package as safe literals and identifiers.
func FuzzCompile(f *testing.F) {
	for _, p := range []string{"testdata/models/tiny.json", "testdata/models/hostile-names.json", "testdata/models/preprocessed.json"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, "classifier")
	}
	f.Add([]byte(`{"format": "songc-model/1", "nodes": 1, "classes": 2, "steps": 1, "features": 1, "class_names": ["\u0000", "*/ }"], "M0_logits": [[0], [1], [0]], "M1_logits": [[0], [0], [1]], "W": [[-0]], "b": [5e-324]}`), "x")
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
		if _, err := parser.ParseFile(token.NewFileSet(), "gen.go", src, 0); err != nil {
			t.Fatalf("generated code does not parse: %v\n%s", err, src)
		}
	})
}
