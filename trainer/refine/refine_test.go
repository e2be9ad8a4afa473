package refine

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/songc/songc/runlog"
	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer"
	"github.com/songc/songc/trainer/data"
	"github.com/songc/songc/trainer/internal/fixture"
)

// refineFixture is the shared fixture: 12 nodes, 6 steps, 8 epochs of a
// 600-row slice of Letter, with validation share val.
func refineFixture(t testing.TB, val float64) (*trainer.Task, *runtime.Model) {
	return fixture.Model(t, val)
}

func TestRefine(t *testing.T) {
	task, m := refineFixture(t, 0.2)
	before := fixture.Encode(t, m)
	out := mustRun(t, m, task, Config{Passes: 4})
	if !bytes.Equal(fixture.Encode(t, m), before) {
		t.Error("Refine changed its input model")
	}
	meta := refineMeta(t, out)
	log := meta.Log
	if len(log) < 2 || meta.Passes != 4 || meta.Ridge != DefaultRidge {
		t.Fatalf("refine metadata: %+v", meta)
	}
	// The split Refine rebuilt is the run's: pass 0 is the given model's
	// hard walk on the run's fit, validation and test rows.
	cfg := fixture.Config()
	run, _ := fixture.Train(t, cfg, task)
	fit, val := run.Split()
	testIdx := fixture.Rows(task.Test.Rows)
	if got, want := log[0].TrainAcc, fixture.HardAcc(t, m, task, fit, false); got != want {
		t.Errorf("pass 0 train accuracy %v, runtime says %v", got, want)
	}
	if got, want := log[0].ValAcc, fixture.HardAcc(t, m, task, val, false); got != want {
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
	// written walks exactly as the refiner did; the shares of forced exits
	// logged for the model as given and the model written are the
	// runtime's (the fixture's refined walk has some).
	sel := meta.Selected
	if _, forced := forcedShare(t, m, task, val); forced != log[0].ValForced {
		t.Errorf("pass 0: runtime says %v of the validation rows end in a forced exit, refine reported %v", forced, log[0].ValForced)
	}
	if n, forced := forcedShare(t, out, task, val); n == 0 || forced != log[sel].ValForced {
		t.Errorf("refined model: runtime says %d, %v of the validation rows end in a forced exit, refine reported %v", n, forced, log[sel].ValForced)
	}
	for _, p := range log {
		if p.ValAcc > log[sel].ValAcc {
			t.Errorf("selected pass %d (val %v), pass %d has val %v", sel, log[sel].ValAcc, p.Pass, p.ValAcc)
		}
		if p.Best != (p.Pass == sel) {
			t.Errorf("pass %d marked selected=%v, selected pass is %d", p.Pass, p.Best, sel)
		}
	}
	for _, p := range log {
		if p.ValBalanced != 0 {
			t.Errorf("pass %d records a balanced accuracy, %v, for a model not selected by it", p.Pass, p.ValBalanced)
		}
	}
	if got := fixture.HardAcc(t, out, task, val, false); got != log[sel].ValAcc {
		t.Errorf("refined model: runtime validation accuracy %v, refine reported %v", got, log[sel].ValAcc)
	}
	if got := fixture.HardAcc(t, out, task, testIdx, true); got != log[sel].TestAcc {
		t.Errorf("refined model: runtime test accuracy %v, refine reported %v", got, log[sel].TestAcc)
	}
	// Refining again gives the same bytes, also with the walks the passes
	// share checked against a new trace at every use: every move that
	// changes a filter or a route says so.
	verifyWalks = true
	defer func() { verifyWalks = false }()
	again := mustRun(t, m, task, Config{Passes: 4})
	if !bytes.Equal(fixture.Encode(t, again), fixture.Encode(t, out)) {
		t.Error("two refines of the same model differ (the second with the walks checked)")
	}
}

func TestRefineRefuses(t *testing.T) {
	task, m := refineFixture(t, 0.2)
	ctx := context.Background()
	other, bare := fixture.Refused(t, task, m)
	cases := []struct {
		name string
		m    *runtime.Model
		task *trainer.Task
		cfg  Config
		want string
	}{
		{"other data", m, other, Config{Passes: 1}, "not the data the model was trained on"},
		{"no metadata", bare, task, Config{Passes: 1}, "no training metadata"},
		{"no passes", m, task, Config{}, "passes must be at least 1"},
		{"bad ridge", m, task, Config{Passes: 1, Ridge: -1}, "ridge must be"},
	}
	for _, c := range cases {
		if _, err := Run(ctx, c.m, c.task, c.cfg, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Run(cancelled, m, task, Config{Passes: 1}, nil); err == nil || !strings.Contains(err.Error(), "canceled") {
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
		if _, err := Run(context.Background(), m, task, Config{Passes: 1}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRefineBalanced: a model selected by balanced accuracy keeps the
// pass that scores best by it, as the runtime measures it. The task is
// the fixture's rows relabelled "E" against the rest (4% of the rows):
// there refining's first pass gains validation rows by giving up the
// small class, so keeping the pass of best accuracy would keep another
// pass than the one the test asks for.
func TestRefineBalanced(t *testing.T) {
	task := imbalancedTask(t, "E")
	cfg := fixture.Config()
	cfg.Select = "balanced"
	run, m := fixture.Train(t, cfg, task)
	out := mustRun(t, m, task, Config{Passes: 4})
	meta := refineMeta(t, out)
	log, sel := meta.Log, meta.Selected
	byAcc := 0
	for _, p := range log {
		if p.ValBalanced <= 0 || p.ValBalanced > log[sel].ValBalanced {
			t.Errorf("pass %d: balanced %v; selected pass %d has %v", p.Pass, p.ValBalanced, sel, log[sel].ValBalanced)
		}
		if p.ValAcc > log[byAcc].ValAcc {
			byAcc = p.Pass
		}
	}
	if byAcc == sel {
		t.Errorf("the fixture does not tell the two selections apart: pass %d is best by accuracy and by balanced accuracy (%+v)", sel, log)
	}
	k, err := runtime.New(out)
	if err != nil {
		t.Fatal(err)
	}
	_, val := run.Split()
	if _, got := trainer.HardAccuracy(k, task.Train, task.TrainTargets(), val); got != log[sel].ValBalanced {
		t.Errorf("refined model: runtime balanced validation accuracy %v, refine reported %v", got, log[sel].ValBalanced)
	}
}

// imbalancedTask is the fixture's task with two classes: the rows of
// letter small ("yes") and all others ("no").
func imbalancedTask(t *testing.T, small string) *trainer.Task {
	t.Helper()
	base := fixture.Task(t)
	train, test := *base.Train, *base.Test // copies: the labels are replaced, not changed
	for _, d := range []*data.Dataset{&train, &test} {
		l := make([]string, len(d.Labels))
		for i, s := range d.Labels {
			l[i] = "no"
			if s == small {
				l[i] = "yes"
			}
		}
		d.Labels = l
	}
	task, err := trainer.NewTask(&train, &test)
	if err != nil {
		t.Fatal(err)
	}
	return task
}

// TestRefineWithoutValidation: with --val 0 there is nothing to select on,
// so Refine keeps its last pass, which fits the training rows best.
func TestRefineWithoutValidation(t *testing.T) {
	task, m := refineFixture(t, 0)
	out := mustRun(t, m, task, Config{Passes: 3})
	meta := refineMeta(t, out)
	log := meta.Log
	if meta.Selected != len(log)-1 || len(log) < 2 {
		t.Errorf("selected pass %d of %d", meta.Selected, len(log)-1)
	}
	all := fixture.Rows(task.Train.Rows)
	if got, want := fixture.HardAcc(t, out, task, all, false), log[len(log)-1].TrainAcc; got != want {
		t.Errorf("refined model: runtime training accuracy %v, refine reported %v", got, want)
	}
}

// refineMeta returns the "refine" object of a refined model's metadata.
func refineMeta(t *testing.T, m *runtime.Model) runlog.Refine {
	t.Helper()
	meta, err := runlog.ReadMetadata(m.Training)
	if err != nil || meta.Refine == nil {
		t.Fatalf("refined model's metadata: %v, %s", err, m.Training)
	}
	return *meta.Refine
}

// TestRefitExit: a forced exit whose leaf is not the most common class of
// the rows that end there gets that class, and the walks the passes share
// follow the change.
func TestRefitExit(t *testing.T) {
	g := fixtureRefiner(t)
	verifyWalks = true
	defer func() { verifyWalks = false }()
	// A loop: the rows that take the first edge any row takes go round it
	// until the step limit forces them out there.
	w := g.walks()
	e := slices.IndexFunc(w.edgeRow, func(rows []int) bool { return len(rows) > 0 })
	setChild(&g.routes, e/2, e%2, e/2, g.routes.Child[e%2][e/2])
	g.changed()
	w = g.walks()
	if slices.Max(w.exits[e*g.c:(e+1)*g.c]) == 0 {
		t.Fatal("no row is forced out of the loop")
	}
	j, s := e/2, e%2
	counts := slices.Clone(w.exits[e*g.c : (e+1)*g.c])
	most := 0
	for c, v := range counts {
		if v > counts[most] {
			most = c
		}
	}
	wrong := slices.Index(counts, slices.Min(counts))
	g.routes.Exit[s][j] = g.n + wrong
	g.changed()
	before := g.accuracy(g.fit)
	if !g.refitExit(j, s) || g.routes.Exit[s][j] != g.n+most {
		t.Fatalf("forced exit of node %d branch %d is class %d, want %d (counts %v)", j, s, g.routes.Exit[s][j]-g.n, most, counts)
	}
	if got, want := g.accuracy(g.fit), before+float64(counts[most]-counts[wrong])/float64(len(g.fit)); math.Abs(got-want) > 1e-12 {
		t.Errorf("fit accuracy %v after the refit, want %v", got, want)
	}
	g.walks() // panics if refitExit did not say that the graph changed
}

// TestWalksEmptied: the walks kept after the root's branches become leaves
// (no row reaches another node) are those a new trace gives, the lists
// emptied in place counting as none.
func TestWalksEmptied(t *testing.T) {
	g := fixtureRefiner(t)
	if len(g.reachable()) < 2 {
		t.Fatal("the fixture's walk reaches only the root")
	}
	g.walks()
	for s := range 2 {
		setChild(&g.routes, 0, s, g.n+s, g.routes.Child[s][0])
	}
	g.changed()
	verifyWalks = true
	defer func() { verifyWalks = false }()
	w := g.walks()
	for j := 1; j < g.n; j++ {
		if len(w.node[j]) != 0 {
			t.Fatalf("node %d still has %d rows", j, len(w.node[j]))
		}
	}
	g.walks() // panics if the kept walks differ from a new trace's
}

// fixtureRefiner returns the refiner of the fixture's model, on its own
// fit and validation rows.
func fixtureRefiner(t *testing.T) *refiner {
	task, m := refineFixture(t, 0.2)
	_, g, err := modelRefiner(m, task, "test")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// forcedShare returns the number of task's training rows rows whose hard
// walk by m ends in a forced exit, and their share of rows.
func forcedShare(t *testing.T, m *runtime.Model, task *trainer.Task, rows []int) (int, float64) {
	t.Helper()
	k, err := runtime.New(m)
	if err != nil {
		t.Fatal(err)
	}
	scratch := make([]float64, k.NumFeatures())
	exits := 0
	for _, r := range rows {
		if w, _ := k.Walk(task.Train.Row(r), scratch, nil); w.Forced {
			exits++
		}
	}
	return exits, float64(exits) / float64(max(1, len(rows)))
}

// mustRun runs Run with a background context and no progress, failing the
// test on its error.
func mustRun(t testing.TB, m *runtime.Model, task *trainer.Task, cfg Config) *runtime.Model {
	t.Helper()
	out, err := Run(context.Background(), m, task, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
