package trainer

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/songc/songc/runlog"
	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer/data"
)

// smallTask is the first 600 rows of the embedded Letter training data and
// 200 of its test rows.
func smallTask(t testing.TB) *Task {
	t.Helper()
	train, test, err := data.Letter()
	if err != nil {
		t.Fatal(err)
	}
	idx := func(n int) []int {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	task, err := NewTask(train.Subset(idx(600)), test.Subset(idx(200)))
	if err != nil {
		t.Fatal(err)
	}
	return task
}

func smallConfig(precision string) Config {
	return Config{Nodes: 6, Steps: 4, Epochs: 3, Batch: 64, LR: 0.01, Seed: 7, Precision: precision, Val: 0.2, Standardize: true}
}

func modelBytes(t *testing.T, r *Run) []byte {
	t.Helper()
	m, err := r.Model("test")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := m.Encode(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func train(t testing.TB, cfg Config, task *Task) *Run {
	t.Helper()
	r, err := NewRun(cfg, task)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Train(context.Background()); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestDeterministic(t *testing.T) {
	task := smallTask(t)
	for _, prec := range []string{"f32", "f64"} {
		a := modelBytes(t, train(t, smallConfig(prec), task))
		b := modelBytes(t, train(t, smallConfig(prec), task))
		if !bytes.Equal(a, b) {
			t.Errorf("%s: same seed, different model bytes", prec)
		}
		other := smallConfig(prec)
		other.Seed++
		if bytes.Equal(a, modelBytes(t, train(t, other, task))) {
			t.Errorf("%s: different seeds gave the same model", prec)
		}
	}
}

// TestPackedKernelsTrainAlike: every packed kernel the machine runs trains
// the same parameters, bit for bit, so that a model does not depend on
// which of them the CPU had.
func TestPackedKernelsTrainAlike(t *testing.T) {
	task := smallTask(t)
	var want []float64
	var first string
	for _, name := range PackedKernels {
		if !HasPacked(name) {
			continue
		}
		cfg := smallConfig("f32")
		cfg.Nodes, cfg.Kernel = 33, name // several 14- and 6-row tiles
		r := train(t, cfg, task)
		if want == nil {
			want, first = r.state.BestParams, name
			continue
		}
		if !slices.Equal(want, r.state.BestParams) {
			t.Errorf("kernel %s trained other parameters than %s", name, first)
		}
	}
}

// interruptRun trains cfg on task with a checkpoint at ckpt, interrupts it
// (through its context) at the given batch of the given epoch, both
// 1-based, and returns Train's error.
func interruptRun(t *testing.T, cfg Config, task *Task, ckpt string, epoch, batch int) error {
	t.Helper()
	r, err := NewRun(cfg, task)
	if err != nil {
		t.Fatal(err)
	}
	r.CheckpointPath = ckpt
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r.Progress = func(p Progress) {
		if p.Epoch == epoch && p.Batch == batch {
			cancel()
		}
	}
	return r.Train(ctx)
}

// resumeToEnd resumes the run saved in c on task and trains it to its last
// epoch.
func resumeToEnd(t *testing.T, c *Checkpoint, task *Task) *Run {
	t.Helper()
	r, err := ResumeRun(c, task)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Train(context.Background()); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestResumeEqualsUninterrupted interrupts a run in its second epoch
// through its context, resumes from the checkpoint it saved and requires
// the final model to equal the uninterrupted run's, byte for byte.
func TestResumeEqualsUninterrupted(t *testing.T) {
	task := smallTask(t)
	cfg := smallConfig("f32")
	want := modelBytes(t, train(t, cfg, task))

	ckpt := filepath.Join(t.TempDir(), "run.ckpt")
	err := interruptRun(t, cfg, task, ckpt, 2, 3)
	var ie *InterruptError
	if !errors.As(err, &ie) || !errors.Is(err, ErrInterrupted) || ie.EpochsDone != 1 || ie.Checkpoint != ckpt {
		t.Fatalf("interrupt: %v", err)
	}
	c, err := LoadCheckpoint(ckpt)
	if err != nil {
		t.Fatal(err)
	}
	if c.EpochsDone() != 1 {
		t.Fatalf("checkpoint holds %d epochs, want 1", c.EpochsDone())
	}
	r2 := resumeToEnd(t, c, task)
	if got := modelBytes(t, r2); !bytes.Equal(got, want) {
		t.Error("resumed run differs from the uninterrupted run")
	}
	if n := len(r2.Records()); n != cfg.Epochs {
		t.Errorf("resumed log has %d epochs, want %d", n, cfg.Epochs)
	}

	// Resuming on other data is refused.
	other := smallTask(t)
	other.Train.X[0]++
	if _, err := ResumeRun(c, other); err == nil {
		t.Error("resumed on different data")
	}
}

// TestEngineMatchesRuntime: the float64 engine's leaf masses equal the
// runtime's soft model on a trained model (both float64, the same math in
// a different order).
func TestEngineMatchesRuntime(t *testing.T) {
	task := smallTask(t)
	r := train(t, smallConfig("f64"), task)
	m, err := r.Model("test")
	if err != nil {
		t.Fatal(err)
	}
	k, err := runtime.New(m)
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewCPU[float64](r.Shape(), Gonum64{}, 50)
	if err != nil {
		t.Fatal(err)
	}
	e.SetParams(ParamsFromModel(m).Flat)
	test := task.Test
	xs := preprocess(test, m.InputShift, m.InputScale)
	c := m.Classes
	want := make([]float64, test.Rows*c)
	e.Predict(want, xs.X)
	got := make([]float64, c)
	sc := k.NewSoftScratch()
	for i := 0; i < test.Rows; i++ {
		k.Soft(got, test.Row(i), sc)
		for j := range got {
			if d := math.Abs(got[j] - want[i*c+j]); d > 1e-12 {
				t.Fatalf("row %d class %d: runtime %v, engine %v", i, j, got[j], want[i*c+j])
			}
		}
	}
}

func TestConfigValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		mod  func(*Config)
	}{
		{"nodes 0", func(c *Config) { c.Nodes = 0 }},
		{"steps 0", func(c *Config) { c.Steps = 0 }},
		{"batch 0", func(c *Config) { c.Batch = 0 }},
		{"epochs 0", func(c *Config) { c.Epochs = 0 }},
		{"lr negative", func(c *Config) { c.LR = -1 }},
		{"lr NaN", func(c *Config) { c.LR = math.NaN() }},
		{"val 1", func(c *Config) { c.Val = 1 }},
		{"precision", func(c *Config) { c.Precision = "f16" }},
		{"lr schedule", func(c *Config) { c.LRSchedule = "linear" }},
		{"gumbel", func(c *Config) { c.Gumbel = "on" }},
		{"init", func(c *Config) { c.Init = "xavier" }},
		{"ties", func(c *Config) { c.Ties = "later" }},
		{"straight-through 1", func(c *Config) { c.StraightThrough = 1 }},
		{"straight-through NaN", func(c *Config) { c.StraightThrough = math.NaN() }},
	} {
		c := DefaultConfig()
		tc.mod(&c)
		if err := c.Validate(); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
	for _, name := range Presets {
		c, err := PresetConfig(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Validate(); err != nil {
			t.Errorf("preset %s: %v", name, err)
		}
	}
	if _, err := PresetConfig("slow"); err == nil {
		t.Error("unknown preset accepted")
	}
}

// TestLearningRateSchedule: constant by default; the cosine schedule starts
// at LR, halves it midway and ends near 0.
func TestLearningRateSchedule(t *testing.T) {
	r := &Run{Config: Config{LR: 0.02}}
	if got := r.scheduledRate(77, 100); got != 0.02 {
		t.Errorf("constant: %v", got)
	}
	r.Config.LRSchedule = "cosine"
	wantRates(t, r, "cosine", lrAt{0, 0.02}, lrAt{50, 0.01}, lrAt{100, 0})
	if a, b := r.scheduledRate(30, 100), r.scheduledRate(31, 100); !(b < a) {
		t.Errorf("cosine does not fall: %v then %v", a, b)
	}
}

// lrAt is the learning rate wanted at step i of 100.
type lrAt struct {
	i    int
	want float64
}

// wantRates checks r's learning rate at each step of a 100-step run.
func wantRates(t *testing.T, r *Run, what string, cases ...lrAt) {
	t.Helper()
	for _, c := range cases {
		if got := r.scheduledRate(c.i, 100); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("%s at step %d of 100: %v, want %v", what, c.i, got, c.want)
		}
	}
}

// TestStraightThroughLR: --straight-through-lr leaves the epochs before the
// straight-through ones on the run's schedule and restarts the rate at the
// first straight-through step, from where it falls to 0 over those epochs
// (cosine) or stays (constant).
func TestStraightThroughLR(t *testing.T) {
	// 10 epochs of 10 steps, the last 2 epochs (steps 80..99) straight-through.
	base := Config{LR: 0.02, LRSchedule: "cosine", Epochs: 10, StraightThrough: 0.2}
	plain := &Run{Config: base}
	st := base
	st.StraightLR = 0.005
	r := &Run{Config: st}
	for i := 0; i < 80; i++ {
		if got, want := r.scheduledRate(i, 100), plain.scheduledRate(i, 100); got != want {
			t.Fatalf("step %d, before the straight-through epochs: %v, want the run's %v", i, got, want)
		}
	}
	wantRates(t, r, "straight-through cosine", lrAt{80, 0.005}, lrAt{90, 0.0025}, lrAt{100, 0})
	r.Config.LRSchedule = "constant"
	if got := r.scheduledRate(79, 100); got != 0.02 {
		t.Errorf("constant, step 79: %v, want 0.02", got)
	}
	if got := r.scheduledRate(95, 100); got != 0.005 {
		t.Errorf("constant, step 95: %v, want 0.005", got)
	}
	bad, err := PresetConfig("fast")
	if err != nil {
		t.Fatal(err)
	}
	bad.StraightLR = 0.005
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "--straight-through-lr needs --straight-through") {
		t.Errorf("--straight-through-lr without --straight-through: %v", err)
	}
}

// TestRecipeKnobs: --gumbel off trains without noise (and so differs from
// the dirty-tau run), --init fan-in draws W and b on +-1/sqrt(d), and both
// are recorded in the model's metadata.
func TestRecipeKnobs(t *testing.T) {
	task := smallTask(t)
	cfg := smallConfig("f64")
	base := train(t, cfg, task)
	if g := base.Records()[0].Gumbel; g == 0 {
		t.Fatalf("dirty tau used no noise in epoch 1")
	}
	cfg.Gumbel, cfg.Init, cfg.LRSchedule = "off", "fan-in", "cosine"
	r := train(t, cfg, task)
	for _, rec := range r.Records() {
		if rec.Gumbel != 0 {
			t.Errorf("epoch %d: Gumbel share %v with --gumbel off", rec.Epoch, rec.Gumbel)
		}
	}
	m := string(modelBytes(t, r))
	for _, want := range []string{`"gumbel":"off"`, `"init":"fan-in"`, `"lr_schedule":"cosine"`} {
		if !strings.Contains(m, want) {
			t.Errorf("metadata lacks %s", want)
		}
	}

	p := NewParams(r.Shape())
	rng, _ := newRand(1, streamInit)
	p.InitFanIn(rng)
	bound := 1 / math.Sqrt(float64(p.Shape.Features))
	big := 0
	for _, v := range append(p.W(), p.B()...) {
		if math.Abs(v) > bound {
			t.Fatalf("fan-in value %v outside +-%v", v, bound)
		}
		if math.Abs(v) > bound/2 {
			big++
		}
	}
	if n := len(p.W()) + len(p.B()); big < n/4 {
		t.Errorf("only %d of %d fan-in values above half the bound", big, n)
	}
}

// TestLearns: 100 epochs on 600 Letter rows must beat chance (1/26 = 3.8%)
// four times over on the training rows (seed 7 measured 21.8%).
func TestLearns(t *testing.T) {
	task := smallTask(t)
	cfg := smallConfig("f32")
	cfg.Epochs = 100
	r := train(t, cfg, task)
	recs := r.Records()
	if acc := recs[len(recs)-1].TrainAcc; acc < 0.15 {
		t.Errorf("train accuracy after %d epochs: %.3f", cfg.Epochs, acc)
	}
}

// TestNewTaskRefusesMismatchedTest: a test set with another feature count or
// an unknown class is refused with its file and line.
func TestNewTaskRefusesMismatchedTest(t *testing.T) {
	read := func(name, text string) *data.Dataset {
		ds, err := data.ReadCSV(strings.NewReader(text), name, data.CSVOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return ds
	}
	train := read("train.csv", "1,2,a\n3,4,b\n")
	if _, err := NewTask(train, read("test.csv", "1,2,3,a\n")); err == nil || !strings.Contains(err.Error(), "test.csv: rows have 3 features, the training data train.csv has 2") {
		t.Errorf("feature count: %v", err)
	}
	var tc *TestClassError
	if _, err := NewTask(train, read("test.csv", "1,2,a\n1,2,c\n")); !errors.As(err, &tc) || !strings.Contains(err.Error(), `test.csv:2: label "c" is not one of the 2 classes of the training rows`) {
		t.Errorf("class: %v", err)
	}
	unlabelled := read("test.csv", "1,2,a\n3,4,b\n") // then its labels go, as a file without a label column has none
	unlabelled.Labels = nil
	if _, err := NewTask(train, unlabelled); errors.As(err, &tc) || err == nil || !strings.Contains(err.Error(), "test.csv: has no label column") {
		t.Errorf("no labels: %v", err)
	}
}

// TestTemperatureSchedule: 1 before the annealed share of the epochs, then a
// geometric fall that reaches AnnealTemp in the last epoch.
func TestTemperatureSchedule(t *testing.T) {
	r := &Run{Config: Config{Epochs: 10, Anneal: 0.3, AnnealTemp: 0.1}}
	want := []float64{1, 1, 1, 1, 1, 1, 1, math.Pow(0.1, 1.0/3), math.Pow(0.1, 2.0/3), 0.1}
	for e, w := range want {
		if got := r.temperature(e); math.Abs(got-w) > 1e-15 {
			t.Errorf("epoch %d: tau %v, want %v", e, got, w)
		}
	}
	if got := (&Run{Config: Config{Epochs: 10}}).temperature(9); got != 1 {
		t.Errorf("no annealing: tau %v", got)
	}
}

// TestStraightThroughSchedule: the last StraightThrough share of the
// epochs (rounded) train the hard walk, and the model records the share.
func TestStraightThroughSchedule(t *testing.T) {
	r := &Run{Config: Config{Epochs: 10, StraightThrough: 0.25}}
	for e := 0; e < 10; e++ {
		if got, want := r.straightThrough(e), e >= 7; got != want {
			t.Errorf("epoch %d: straight-through %v, want %v", e, got, want)
		}
	}
	if (&Run{Config: Config{Epochs: 10}}).straightThrough(9) {
		t.Error("straight-through with a share of 0")
	}
	task := smallTask(t)
	cfg := smallConfig("f64")
	cfg.StraightThrough = 0.5
	m, err := train(t, cfg, task).Model("test")
	if err != nil {
		t.Fatal(err)
	}
	meta, err := runlog.ReadMetadata(m.Training)
	if err != nil {
		t.Fatal(err)
	}
	if meta.StraightThrough != 0.5 {
		t.Errorf("metadata straight_through %v, want 0.5", meta.StraightThrough)
	}
}

// TestExportAtTemperature: a model saved at temperature tau (parameters
// divided by tau) gives, with the plain softmax and sigmoid of the runtime,
// the leaf masses the engine computes at tau.
func TestExportAtTemperature(t *testing.T) {
	task := smallTask(t)
	cfg := smallConfig("f64")
	r := train(t, cfg, task)
	const tau = 0.37
	m := r.export(r.state.BestParams, tau).Model(task.ClassNames)
	m.InputShift, m.InputScale = r.shift, r.scale
	k, err := runtime.New(m)
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewCPU[float64](r.Shape(), Gonum64{}, 64)
	if err != nil {
		t.Fatal(err)
	}
	e.SetParams(r.state.BestParams)
	e.SetTemperature(tau)
	xs := preprocess(task.Test, r.shift, r.scale)
	c := m.Classes
	want := make([]float64, task.Test.Rows*c)
	e.Predict(want, xs.X)
	got := make([]float64, c)
	sc := k.NewSoftScratch()
	for i := 0; i < task.Test.Rows; i++ {
		k.Soft(got, task.Test.Row(i), sc)
		for j := range got {
			if d := math.Abs(got[j] - want[i*c+j]); d > 1e-12 {
				t.Fatalf("row %d class %d: runtime %v, engine at tau %v", i, j, got[j], want[i*c+j])
			}
		}
	}
}

// TestHardTestAccuracyLogged: the per-epoch hard-walk test accuracy is what
// the saved model's hard walk scores on the test rows (with --val 0 the
// last epoch is saved).
func TestHardTestAccuracyLogged(t *testing.T) {
	task := smallTask(t)
	cfg := smallConfig("f64")
	cfg.Val = 0
	r := train(t, cfg, task)
	m, err := r.Model("test")
	if err != nil {
		t.Fatal(err)
	}
	k, err := runtime.New(m)
	if err != nil {
		t.Fatal(err)
	}
	want := k.Evaluate(task.Test.X, task.yTest).HardAccuracy
	recs := r.Records()
	if got := recs[len(recs)-1].HardTestAcc; got != want || got == 0 {
		t.Errorf("logged hard test accuracy %v, the saved model scores %v", got, want)
	}
}

// zeroFirst is a random source whose first value is 0, the value for which
// rand.ExpFloat64 returns exactly 0.
type zeroFirst struct {
	rand.Source
	done bool
}

func (z *zeroFirst) Uint64() uint64 {
	if !z.done {
		z.done = true
		return 0
	}
	return z.Source.Uint64()
}

// TestGumbelFinite: a zero exponential draw (once in 2^32, so it happens in
// long runs of large graphs) must not become +Inf noise, which turned the
// loss of a Connect-4 255/10 run into NaN in epoch 7.
func TestGumbelFinite(t *testing.T) {
	if e := rand.New(&zeroFirst{Source: rand.NewPCG(1, 2)}).ExpFloat64(); e != 0 {
		t.Fatalf("the test source no longer makes ExpFloat64 return 0 (got %v)", e)
	}
	dst := make([]float64, 100)
	gumbel(dst, rand.New(&zeroFirst{Source: rand.NewPCG(1, 2)}))
	for i, v := range dst {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			t.Fatalf("noise %d is %v", i, v)
		}
	}
}

// TestPatience: with Patience the constant-rate phase ends when the hard
// walk's validation accuracy has not risen for Patience epochs, the decay
// phase that follows is Anneal/(1-Anneal) times as long (here 0.2/0.8 = a
// quarter), the temperature reaches AnnealTemp in the last epoch, and a
// run trained in pieces (TrainFor) equals one trained at once.
func TestPatience(t *testing.T) {
	task := smallTask(t)
	cfg := smallConfig("f64")
	cfg.Epochs, cfg.Patience, cfg.Anneal, cfg.AnnealTemp, cfg.Select = 60, 2, 0.2, 0.4, "hard"
	whole := train(t, cfg, task)
	s := whole.state.StableEpochs
	if s == 0 || s >= 48 { // 48 = (1-0.2)*60, the bound of the phase
		t.Fatalf("constant-rate phase of %d epochs; want a plateau found before the bound", s)
	}
	recs := whole.Records()
	best, since := -1.0, 0
	for _, rec := range recs[:s] {
		if rec.HardValAcc > best {
			best, since = rec.HardValAcc, 0
		} else {
			since++
		}
	}
	if since != cfg.Patience {
		t.Errorf("the phase ended %d epochs after its best, want %d", since, cfg.Patience)
	}
	d := max(1, int(math.Round(0.25*float64(s))))
	if len(recs) != s+d {
		t.Errorf("%d epochs for a phase of %d and a decay of %d", len(recs), s, d)
	}
	if last := recs[len(recs)-1].Temp; math.Abs(last-cfg.AnnealTemp) > 1e-12 {
		t.Errorf("last epoch at temperature %v, want %v", last, cfg.AnnealTemp)
	}
	if recs[s-1].Temp != 0 { // 0: temperature 1, not recorded
		t.Errorf("epoch %d, in the constant-rate phase, annealed to %v", s, recs[s-1].Temp)
	}
	if lr := whole.learningRate(s-1, 0, 10); lr != cfg.LR {
		t.Errorf("rate in the constant phase %v, want %v", lr, cfg.LR)
	}
	if lr := whole.learningRate(s, 0, 10); lr != cfg.LR {
		t.Errorf("rate at the start of the decay %v, want %v", lr, cfg.LR)
	}
	if lr := whole.learningRate(s+d-1, 9, 10); !(lr > 0 && lr < cfg.LR*0.1) {
		t.Errorf("rate at the end of the decay %v, want close to 0", lr)
	}

	pieces, err := NewRun(cfg, task)
	if err != nil {
		t.Fatal(err)
	}
	for !pieces.Done() {
		if err := pieces.TrainFor(context.Background(), 3); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(modelBytes(t, whole), modelBytes(t, pieces)) {
		t.Error("a run trained 3 epochs at a time differs from one trained at once")
	}
	cfg.Val = 0
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "--patience") {
		t.Errorf("patience without validation rows: %v", err)
	}
}

// TestSelectBalanced: with Select "balanced" every epoch records the hard
// walk's balanced accuracy on the validation rows, and the epoch kept is
// the first with the highest.
func TestSelectBalanced(t *testing.T) {
	task := smallTask(t)
	cfg := smallConfig("f64")
	cfg.Epochs, cfg.Select = 6, "balanced"
	r := train(t, cfg, task)
	best, at := -1.0, 0
	for i, rec := range r.Records() {
		if !(rec.HardValBalanced > 0 && rec.HardValBalanced <= 1) {
			t.Errorf("epoch %d: balanced accuracy %v", i+1, rec.HardValBalanced)
		}
		if rec.HardValBalanced > best {
			best, at = rec.HardValBalanced, i+1
		}
	}
	if r.state.BestEpoch != at || r.BestScore() != best {
		t.Errorf("kept epoch %d (score %v), want %d (%v)", r.state.BestEpoch, r.BestScore(), at, best)
	}
}

// TestMemoryCheck: a graph whose estimated memory exceeds MemoryCap is
// refused with the estimate before anything large is allocated. 65536
// nodes have 2 (65536+26) 65536 transition logits, 8.6e9 parameters, over
// 500 GiB at the estimate's 72 bytes each.
func TestMemoryCheck(t *testing.T) {
	task := smallTask(t)
	cfg := smallConfig("f32")
	cfg.Nodes = 1 << 16
	if _, err := NewRun(cfg, task); err == nil || !strings.Contains(err.Error(), "GiB of memory, more than") {
		t.Errorf("65536 nodes: %v", err)
	}
	if _, _, err := NewEngine(Shape{Nodes: 1 << 16, Classes: 26, Steps: 50, Features: 16}, "f32", "auto", 128); err == nil {
		t.Error("NewEngine accepted 65536 nodes")
	}
	if got := TrainingBytes(Shape{Nodes: 1 << 16, Classes: 26, Steps: 1, Features: 16}, 1, 0); got < 500<<30 {
		t.Errorf("estimate %v bytes, want over 500 GiB", got)
	}
}

// TestMemoryCheckShared: graphs trained together on the same rows (the
// restarts of one run) count their rows once: four graphs on a large file
// fit where four copies of the rows would not, and are refused a byte
// short of their own parts and the rows once.
func TestMemoryCheckShared(t *testing.T) {
	defer func(c int64) { MemoryCap = c }(MemoryCap)
	s := Shape{Nodes: 16, Classes: 3, Steps: 8, Features: 100}
	const batch, rows, k = 64, 1_000_000, 4
	need := k*graphBytes(s, batch) + dataBytes(s, rows)
	if need >= k*TrainingBytes(s, batch, rows)/2 {
		t.Fatalf("the rows are not most of the estimate: %v of %v", dataBytes(s, rows), need)
	}
	MemoryCap = int64(need)
	if err := checkMemory(s, batch, rows, k); err != nil {
		t.Errorf("at the estimate: %v", err)
	}
	MemoryCap = int64(need) - 1
	if err := checkMemory(s, batch, rows, k); err == nil || !strings.Contains(err.Error(), "4 graphs of 16 nodes") {
		t.Errorf("a byte short: %v", err)
	}
}

// TestTooManyClasses: more classes than a model holds are refused when the
// task is made, before any training.
func TestTooManyClasses(t *testing.T) {
	n := runtime.MaxClasses + 1
	ds := &data.Dataset{Name: "many.csv", Rows: n, Features: 1, X: make([]float64, n), Labels: make([]string, n)}
	for i := range ds.Labels {
		ds.Labels[i] = strconv.Itoa(i)
	}
	if _, err := NewTask(ds, nil); err == nil || !strings.Contains(err.Error(), "65537 classes; a model holds at most 65536") {
		t.Errorf("NewTask: %v", err)
	}
}

// TestCheckpointIntegrity: every one of 200 random single-bit flips in a
// checkpoint is refused when it loads (its SHA-256 no longer matches), and
// a crafted checkpoint with a valid checksum but impossible fields (a
// negative epoch count, a negative second moment) is refused when it is
// resumed.
func TestCheckpointIntegrity(t *testing.T) {
	task := smallTask(t)
	cfg := smallConfig("f64")
	dir := t.TempDir()
	ckpt := filepath.Join(dir, "c.ckpt")
	if err := interruptRun(t, cfg, task, ckpt, 2, 3); !errors.Is(err, ErrInterrupted) {
		t.Fatal(err)
	}
	good, err := os.ReadFile(ckpt)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	bad := filepath.Join(dir, "bad.ckpt")
	for range 200 {
		b := slices.Clone(good)
		i := len(checkpointMagic) + rng.IntN(len(b)-len(checkpointMagic))
		b[i] ^= 1 << rng.IntN(8)
		os.WriteFile(bad, b, 0o644)
		if _, err := LoadCheckpoint(bad); err == nil {
			t.Fatalf("a flipped bit at byte %d of %d loaded", i, len(b))
		}
	}
	c, err := LoadCheckpoint(ckpt)
	if err != nil {
		t.Fatal(err)
	}
	for name, craft := range map[string]func(*runState){
		"negative epoch":         func(st *runState) { st.Epoch, st.Records = -1, nil },
		"negative second moment": func(st *runState) { st.AdamV[0] = -1 },
		"infinite parameter":     func(st *runState) { st.Params[0] = math.Inf(1) },
	} {
		st := c.state
		st.AdamV, st.Params = slices.Clone(st.AdamV), slices.Clone(st.Params)
		craft(&st)
		r := &Run{Config: c.Config, Args: c.Args, state: st}
		if err := r.SaveCheckpoint(bad); err != nil {
			t.Fatal(err)
		}
		crafted, err := LoadCheckpoint(bad)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := ResumeRun(crafted, task); err == nil || !strings.Contains(err.Error(), "checkpoint holds") {
			t.Errorf("%s: resumed (%v)", name, err)
		}
	}
}

// FuzzCheckpoint: no checkpoint file, damaged or crafted, makes loading or
// resuming it panic. The seeds are a real checkpoint (version 2, with its
// checksum) and its payload under the version-1 magic, which has none, so
// that the fuzzer reaches the decoder and the field checks.
func FuzzCheckpoint(f *testing.F) {
	task := smallTask(f)
	cfg := smallConfig("f64")
	dir := f.TempDir()
	ckpt := filepath.Join(dir, "seed.ckpt")
	r, err := NewRun(cfg, task)
	if err != nil {
		f.Fatal(err)
	}
	if err := r.SaveCheckpoint(ckpt); err != nil {
		f.Fatal(err)
	}
	good, err := os.ReadFile(ckpt)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(append([]byte(checkpointMagicV1), good[len(checkpointMagic):len(good)-32]...))
	f.Add([]byte(checkpointMagic))
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(t.TempDir(), "f.ckpt")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := LoadCheckpoint(path)
		if err != nil {
			return
		}
		if r, err := ResumeRun(c, task); err == nil && r.EpochsDone() > c.Config.Epochs {
			t.Errorf("resumed at epoch %d of %d", r.EpochsDone(), c.Config.Epochs)
		}
	})
}

// Values near the largest float64 overflow the plain sums of standardize,
// and values below about 1e-150 underflow their squares; their column is
// standardised as the same column at a small scale is.
func TestStandardizeHugeValues(t *testing.T) {
	small := []float64{1, 1, 0, 2, 3, -1, 0.5, 2}
	const n = 8
	for _, f := range []float64{1e300, 1e160, -1e307, 1e-170, -1e-300} {
		// Column 0 is small, column 1 the same times f: their z-scores agree
		// (up to f's sign).
		ds := &data.Dataset{Name: "huge.csv", Rows: n, Features: 2, X: make([]float64, 2*n)}
		for i, v := range small {
			ds.X[2*i], ds.X[2*i+1] = v, v*f
		}
		idx := []int{0, 1, 2, 3, 4, 5, 6, 7}
		shift, scale := standardize(ds, idx)
		for i := range n {
			z0 := (ds.X[2*i] - shift[0]) * scale[0]
			z1 := math.Copysign(1, f) * (ds.X[2*i+1] - shift[1]) * scale[1]
			if math.IsNaN(z1) || math.IsInf(z1, 0) || math.Abs(z1-z0) > 1e-9*max(1, math.Abs(z0)) {
				t.Fatalf("times %g: row %d standardised to %g, want %g (shift %g, scale %g)", f, i, z1, z0, shift[1], scale[1])
			}
		}
	}
	// Constant columns, zeros or tiny, keep scale 1.
	ds := &data.Dataset{Name: "flat.csv", Rows: n, Features: 2, X: make([]float64, 2*n)}
	for i := range n {
		ds.X[2*i+1] = 1e-200
	}
	if shift, scale := standardize(ds, []int{0, 1, 2, 3, 4, 5, 6, 7}); shift[0] != 0 || scale[0] != 1 || shift[1] != 1e-200 || scale[1] != 1 {
		t.Errorf("constant columns: shift %g, scale %g", shift, scale)
	}
}
