package trainer

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/songc/songc/runtime"
)

// refineFixture trains the small Letter task into a graph with room to
// grow (12 nodes, 6 steps, 8 epochs: the hard walk is far from what its
// nodes could do).
func refineFixture(t testing.TB, val float64) (*Task, *runtime.Model) {
	t.Helper()
	task := smallTask(t)
	cfg := fixtureConfig()
	cfg.Val = val
	_, m := trainFixture(t, cfg, task)
	return task, m
}

// fixtureConfig is the graph of refineFixture: 12 nodes, 6 steps, 8 epochs.
func fixtureConfig() Config {
	cfg := smallConfig("f64")
	cfg.Nodes, cfg.Steps, cfg.Epochs = 12, 6, 8
	return cfg
}

// trainFixture trains cfg on task and returns the run and its model.
func trainFixture(t testing.TB, cfg Config, task *Task) (*Run, *runtime.Model) {
	t.Helper()
	r := train(t, cfg, task)
	m, err := r.Model("test")
	if err != nil {
		t.Fatal(err)
	}
	return r, m
}

func encode(t *testing.T, m *runtime.Model) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := m.Encode(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// hardAcc is the runtime's hard-walk accuracy on rows idx of the training
// data (test rows when test is set).
func hardAcc(t *testing.T, m *runtime.Model, task *Task, idx []int, test bool) float64 {
	t.Helper()
	k, err := runtime.New(m)
	if err != nil {
		t.Fatal(err)
	}
	ds, y := task.Train, task.yTrain
	if test {
		ds, y = task.Test, task.yTest
	}
	scratch := make([]float64, k.NumFeatures())
	correct := 0
	for _, i := range idx {
		if res, _ := k.Walk(ds.Row(i), scratch, nil); res.Class == y[i] {
			correct++
		}
	}
	return float64(correct) / float64(len(idx))
}

func TestRefine(t *testing.T) {
	task, m := refineFixture(t, 0.2)
	before := encode(t, m)
	out, err := Refine(context.Background(), m, task, RefineConfig{Passes: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(encode(t, m), before) {
		t.Error("Refine changed its input model")
	}
	meta := refineMeta(t, out)
	log := meta.Log
	if len(log) < 2 || meta.Passes != 4 || meta.Ridge != DefaultRefineRidge {
		t.Fatalf("refine metadata: %+v", meta)
	}
	// The split Refine rebuilt is the run's: pass 0 is the given model's
	// hard walk on the run's fit, validation and test rows.
	rng, _ := newRand(7, streamSplit) // smallConfig's seed
	fit, val := splitVal(task.yTrain, len(task.ClassNames), 0.2, rng)
	testIdx := make([]int, task.Test.Rows)
	for i := range testIdx {
		testIdx[i] = i
	}
	if got, want := log[0].TrainAcc, hardAcc(t, m, task, fit, false); got != want {
		t.Errorf("pass 0 train accuracy %v, runtime says %v", got, want)
	}
	if got, want := log[0].ValAcc, hardAcc(t, m, task, val, false); got != want {
		t.Errorf("pass 0 validation accuracy %v, runtime says %v", got, want)
	}
	// Every move is accepted only when the fit rows gain: training accuracy
	// never falls, and here it rises (an 8-epoch model leaves room).
	for i := 1; i < len(log); i++ {
		if log[i].TrainAcc < log[i-1].TrainAcc {
			t.Errorf("pass %d: training accuracy fell from %v to %v", i, log[i-1].TrainAcc, log[i].TrainAcc)
		}
	}
	if last := log[len(log)-1]; last.TrainAcc <= log[0].TrainAcc {
		t.Errorf("refine did not raise the hard walk's training accuracy: %+v", log)
	}
	// The fixture exercises every kind of move (12 nodes, few of them
	// reached after 8 epochs: room to grow).
	var filters, routes, grown int
	for _, p := range log {
		filters, routes, grown = filters+p.Filters, routes+p.Routes, grown+p.Grown
	}
	if filters == 0 || routes == 0 || grown == 0 {
		t.Errorf("moves made: %d filters, %d routes, %d nodes grown; want some of each", filters, routes, grown)
	}
	// The selected pass has the best validation accuracy, and the model
	// written walks exactly as the refiner did.
	sel := meta.Selected
	for _, p := range log {
		if p.ValAcc > log[sel].ValAcc {
			t.Errorf("selected pass %d (val %v), pass %d has val %v", sel, log[sel].ValAcc, p.Pass, p.ValAcc)
		}
		if p.Best != (p.Pass == sel) {
			t.Errorf("pass %d marked selected=%v, selected pass is %d", p.Pass, p.Best, sel)
		}
	}
	if got := hardAcc(t, out, task, val, false); got != log[sel].ValAcc {
		t.Errorf("refined model: runtime validation accuracy %v, refine reported %v", got, log[sel].ValAcc)
	}
	if got := hardAcc(t, out, task, testIdx, true); got != log[sel].TestAcc {
		t.Errorf("refined model: runtime test accuracy %v, refine reported %v", got, log[sel].TestAcc)
	}
	again, err := Refine(context.Background(), m, task, RefineConfig{Passes: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(encode(t, again), encode(t, out)) {
		t.Error("two refines of the same model differ")
	}
}

// refusedInputs returns what refine and select must refuse: a task of
// other data (the first 500 rows of task's) and m without its metadata.
func refusedInputs(t *testing.T, task *Task, m *runtime.Model) (other *Task, bare *runtime.Model) {
	t.Helper()
	idx := make([]int, 500)
	for i := range idx {
		idx[i] = i
	}
	other, err := NewTask(task.Train.Subset(idx), nil)
	if err != nil {
		t.Fatal(err)
	}
	b := *m
	b.Training = nil
	return other, &b
}

func TestRefineRefuses(t *testing.T) {
	task, m := refineFixture(t, 0.2)
	ctx := context.Background()
	other, bare := refusedInputs(t, task, m)
	cases := []struct {
		name string
		m    *runtime.Model
		task *Task
		cfg  RefineConfig
		want string
	}{
		{"other data", m, other, RefineConfig{Passes: 1}, "not the data the model was trained on"},
		{"no metadata", bare, task, RefineConfig{Passes: 1}, "no training metadata"},
		{"no passes", m, task, RefineConfig{}, "passes must be at least 1"},
		{"bad ridge", m, task, RefineConfig{Passes: 1, Ridge: -1}, "ridge must be"},
	}
	for _, c := range cases {
		if _, err := Refine(ctx, c.m, c.task, c.cfg, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Refine(cancelled, m, task, RefineConfig{Passes: 1}, nil); err == nil || !strings.Contains(err.Error(), "canceled") {
		t.Errorf("cancelled refine: %v", err)
	}
}

// TestSetRoute: whatever the column, setRoute makes its argmax the child
// and, for an internal child, its top leaf the exit, as runtime.Children
// reads them.
func TestSetRoute(t *testing.T) {
	const n, c, cols = 5, 3, 5
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 2000 {
		l := make([][]float64, n+c)
		for i := range l {
			l[i] = make([]float64, cols)
			for j := range l[i] {
				// Few distinct values, so that ties are common.
				l[i][j] = float64(rng.IntN(4))
			}
		}
		j, child, exit := rng.IntN(cols), rng.IntN(n+c), n+rng.IntN(c)
		if child >= n {
			exit = child
		}
		before, beforeExit := runtime.Children(l, n)
		want, wantExit := slices.Clone(before), slices.Clone(beforeExit)
		want[j], wantExit[j] = child, exit
		setRoutes(l, want, wantExit, n)
		got, gotExit := runtime.Children(l, n)
		if got[j] != child || gotExit[j] != exit {
			t.Fatalf("trial %d: want child %d exit %d, got %d %d (column %v)", trial, child, exit, got[j], gotExit[j], column(l, j))
		}
		// A raised child takes routeMass of the column.
		if p := runtime.ColumnSoftmax(l)[child*cols+j]; before[j] != child && p < routeMass-1e-12 {
			t.Fatalf("trial %d: raised child %d has probability %v", trial, child, p)
		}
	}
}

func column(l [][]float64, j int) []float64 {
	out := make([]float64, len(l))
	for i := range l {
		out[i] = l[i][j]
	}
	return out
}

// BenchmarkRefine12Nodes6Steps600Rows times one refine pass over the
// fixture of TestRefine (12 nodes, 6 steps, 480 fit rows of Letter).
func BenchmarkRefine12Nodes6Steps600Rows(b *testing.B) {
	task, m := refineFixture(b, 0.2)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Refine(context.Background(), m, task, RefineConfig{Passes: 1}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRefineWithoutValidation: with --val 0 there is nothing to select on,
// so Refine keeps its last pass, which fits the training rows best.
func TestRefineWithoutValidation(t *testing.T) {
	task, m := refineFixture(t, 0)
	out, err := Refine(context.Background(), m, task, RefineConfig{Passes: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	meta := refineMeta(t, out)
	log := meta.Log
	if meta.Selected != len(log)-1 || len(log) < 2 {
		t.Errorf("selected pass %d of %d", meta.Selected, len(log)-1)
	}
	all := make([]int, task.Train.Rows)
	for i := range all {
		all[i] = i
	}
	if got, want := hardAcc(t, out, task, all, false), log[len(log)-1].TrainAcc; got != want {
		t.Errorf("refined model: runtime training accuracy %v, refine reported %v", got, want)
	}
}

// TestPolish: polish returns the count routed gives its result, never
// less than it was given, and finds the one threshold that routes every
// row of a separable line right.
func TestPolish(t *testing.T) {
	// One feature: rows 1, 2 go left, 3, 4 right; b = -3.5 sends row 3
	// the wrong way, any b in (-3, -2) none.
	g := &refiner{d: 1, x: []float64{1, 2, 3, 4}, care: []int{0, 1, 2, 3}, target: []float64{0, 0, 1, 1}}
	theta := []float64{1, -3.5}
	if n := g.routed(theta); n != 3 {
		t.Fatalf("fixture routes %d rows right, want 3", n)
	}
	if n := g.polish(theta, 3); n != 4 || g.routed(theta) != 4 {
		t.Fatalf("polish: %d rows (theta %v), want 4", n, theta)
	}

	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		const d, m = 3, 40
		g := &refiner{d: d, x: make([]float64, m*d)}
		for i := range g.x {
			if rng.IntN(4) > 0 { // some zeros, as in one-hot data
				g.x[i] = float64(rng.IntN(5)) - 2
			}
		}
		for i := range m {
			g.care = append(g.care, i)
			g.target = append(g.target, float64(rng.IntN(2)))
		}
		theta := make([]float64, d+1)
		for i := range theta {
			theta[i] = rng.NormFloat64()
		}
		before := g.routed(theta)
		after := g.polish(theta, before)
		if after < before || after != g.routed(theta) {
			t.Fatalf("trial %d: polish from %d rows returned %d, routed %d", trial, before, after, g.routed(theta))
		}
	}
}

// TestRefinePolish: with Polish, Refine records it, never lowers the
// walk's training accuracy from pass to pass, and stays deterministic.
func TestRefinePolish(t *testing.T) {
	task, m := refineFixture(t, 0.2)
	cfg := RefineConfig{Passes: 3, Polish: true}
	out, err := Refine(context.Background(), m, task, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	meta := refineMeta(t, out)
	if !meta.Polish {
		t.Error("refine metadata does not record polish")
	}
	log := meta.Log
	for i := 1; i < len(log); i++ {
		if log[i].TrainAcc < log[i-1].TrainAcc {
			t.Errorf("pass %d lowered the training accuracy: %v after %v", i, log[i].TrainAcc, log[i-1].TrainAcc)
		}
	}
	again, err := Refine(context.Background(), m, task, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(encode(t, out), encode(t, again)) {
		t.Error("two polished refines of the same model differ")
	}
}

// refineMeta returns the "refine" object of a refined model's metadata.
func refineMeta(t *testing.T, m *runtime.Model) RefineMetadata {
	t.Helper()
	var meta struct {
		Refine RefineMetadata `json:"refine"`
	}
	if err := json.Unmarshal(m.Training, &meta); err != nil {
		t.Fatal(err)
	}
	return meta.Refine
}
