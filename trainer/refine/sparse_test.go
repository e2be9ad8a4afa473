package refine

import (
	"bytes"
	"math"
	"slices"
	"testing"

	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer"
	"github.com/songc/songc/trainer/data"
	"github.com/songc/songc/trainer/internal/fixture"
)

// sparseModel is the fixture's recipe trained without standardising on
// Letter rows whose values below 8 are zeros: more than half the values.
func sparseModel(t *testing.T) (*trainer.Task, *runtime.Model) {
	t.Helper()
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
	return task, m
}

// TestRefineSparse refines a model of mostly-zero inputs on the sparse
// rows and on the dense ones: the bytes must be the same.
func TestRefineSparse(t *testing.T) {
	task, m := sparseModel(t)
	sparse := mustRun(t, m, task, Config{Passes: 3})
	defer func(s float64) { sparseShare = s }(sparseShare)
	sparseShare = 2 // never
	dense := mustRun(t, m, task, Config{Passes: 3})
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

// TestSparseInfinite checks the margins and decisions of a filter with an
// infinite weight on sparse rows: runtime.Margin's on the dense rows, NaN
// where the infinity meets a zero, which the sparse rows alone would skip.
func TestSparseInfinite(t *testing.T) {
	task, m := sparseModel(t)
	k, err := runtime.New(m)
	if err != nil {
		t.Fatal(err)
	}
	_, fit, val, err := trainer.ModelSplit(m, task, "test")
	if err != nil {
		t.Fatal(err)
	}
	g := newRefiner(k, task, fit, val)
	if g.sparse == nil {
		t.Fatal("the refiner holds the rows dense")
	}
	d := g.d
	// A bias so large that a margin that skipped the NaN would be > 0,
	// where NaN decides left.
	theta := append(slices.Clone(g.w[:d]), 1e9)
	theta[1] = math.Inf(1)
	copy(g.w[:d], theta[:d])
	g.b[0] = theta[d]
	g.decide(0)
	margin := g.marginOf(theta[:d], theta[d])
	row, nan := make([]float64, d), 0
	for r := range g.y {
		if r < task.Train.Rows {
			k.Preprocess(row, task.Train.Row(r))
		} else {
			k.Preprocess(row, task.Test.Row(r-task.Train.Rows))
		}
		want := runtime.Margin(theta[:d], theta[d], row)
		if math.IsNaN(want) {
			nan++
		}
		if got := margin(r); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("row %d: margin %v, runtime.Margin %v", r, got, want)
		}
		if got := g.side(r, 0); got != runtime.Side(want) {
			t.Fatalf("row %d: decision %d, runtime.Side %d", r, got, runtime.Side(want))
		}
	}
	if nan == 0 {
		t.Error("no row meets the infinite weight with a zero")
	}
}
