package refine

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer/data"
	"github.com/songc/songc/trainer/internal/fixture"
)

// TestMarginsRows checks that marginsRows gives runtime.Margin's bits on
// every row, for row counts on and off a multiple of four.
func TestMarginsRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, d := range []int{1, 5, 64} {
		for _, rows := range []int{0, 1, 4, 7, 9} {
			w, x := make([]float64, d), make([]float64, rows*d)
			for i := range w {
				w[i] = rng.NormFloat64() * math.Exp2(float64(rng.IntN(30)-15))
			}
			for i := range x {
				x[i] = rng.NormFloat64() * math.Exp2(float64(rng.IntN(30)-15))
			}
			b := rng.NormFloat64()
			got := make([]float64, rows)
			marginsRows(got, w, b, x)
			for r, v := range got {
				if want := runtime.Margin(w, b, x[r*d:(r+1)*d]); math.Float64bits(v) != math.Float64bits(want) {
					t.Fatalf("d=%d rows=%d row %d: %v, runtime.Margin %v", d, rows, r, v, want)
				}
			}
		}
	}
}

// TestRefineSparse refines a model of mostly-zero inputs on the sparse
// rows and on the dense ones: the bytes must be the same.
func TestRefineSparse(t *testing.T) {
	task := fixture.Task(t)
	zeros := 0
	for _, ds := range []*data.Dataset{task.Train, task.Test} {
		for i, v := range ds.X {
			if v < 8 { // Letter's values are 0..15
				ds.X[i] = 0
				zeros++
			}
		}
	}
	if share := float64(zeros) / float64(len(task.Train.X)+len(task.Test.X)); share < sparseShare {
		t.Fatalf("only %.2f of the values are zeros", share)
	}
	cfg := fixture.Config()
	cfg.Standardize = false
	_, m := fixture.Train(t, cfg, task)
	sparse, err := Run(context.Background(), m, task, Config{Passes: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func(s float64) { sparseShare = s }(sparseShare)
	sparseShare = 2 // never
	dense, err := Run(context.Background(), m, task, Config{Passes: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	filters := 0
	for _, p := range refineMeta(t, dense).Log {
		filters += p.Filters
	}
	if filters == 0 {
		t.Error("no filter refitted: the test does not reach the fits")
	}
	if !bytes.Equal(fixture.Encode(t, sparse), fixture.Encode(t, dense)) {
		t.Error("refining on the sparse rows gave other bytes than on the dense rows")
	}
}
