package trainer

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer/data"
)

// Config holds everything that determines a training run. Two runs with the
// same Config and data produce the same model bytes.
type Config struct {
	Nodes, Steps  int
	NodeRegGamma  float64
	NodeRegLambda float64
	Epochs        int
	Batch         int
	LR            float64
	Seed          uint64
	Precision     string  // "f32" or "f64"
	Val           float64 // share of the training rows held out, stratified, for model selection
	// Standardize shifts and scales every feature to mean 0 and standard
	// deviation 1 over the training rows; the model file records the
	// transformation (input_shift, input_scale) and inference applies it.
	Standardize bool
	// Anneal, in [0, 1), is the share of the last epochs during which the
	// temperature of softmax((L+g)/tau) and sigmoid(a/tau) falls
	// geometrically from 1 to AnnealTemp, so that the soft model approaches
	// the hard walk it is compiled into. 0 (the authors' recipe) is off.
	Anneal     float64
	AnnealTemp float64
	// Select is "soft" (the default: validation accuracy of the soft model)
	// or "hard" (of the hard walk, what compiled code runs).
	Select string
	// Kernel is "auto" (or empty: the fastest on this machine), "gonum" or
	// "avx2". Runs are byte-identical for the same kernel; the model's
	// metadata records which one ran.
	Kernel string
	// LRSchedule is "constant" (or empty: the authors' recipe) or "cosine":
	// the learning rate falls from LR to 0 along a half cosine over the
	// run's batches.
	LRSchedule string
	// Gumbel is "dirty" (or empty: the authors' dirty-tau schedule, noise
	// on a share of batches that falls linearly from 1 to 0 over the run)
	// or "off" (plain softmax on every batch).
	Gumbel string
	// Sharpen, when > 0, adds Sharpen times the sharpness penalty
	// (LossParts.Sharp) to the objective: it pushes node decisions and
	// transition columns toward hard ones, so that the soft model trained
	// is close to the hard walk that compiles. songc's addition; 0 (the
	// authors' objective) is off.
	Sharpen float64
	// WeightDecay, when > 0, shrinks the node filters W by a factor
	// 1 - lr*WeightDecay before every Adam step (AdamW's decoupled weight
	// decay; biases and transition logits are not decayed), to curb
	// overfitting on wide inputs such as MNIST pixels. 0 (the authors'
	// recipe) is off.
	WeightDecay float64
	// StraightThrough, in [0, 1), is the share of the last epochs that
	// train the hard walk itself: the forward pass routes every row along
	// its walk (argmax columns, node decisions at the sign of the
	// pre-activation) and the backward pass takes the soft model's
	// derivatives (the straight-through estimator), with the walk's
	// expected error as the loss. These epochs run at temperature 1 (no
	// annealing). songc's addition; 0 (the authors' recipe) is off.
	StraightThrough float64
	// StraightLR, when > 0, restarts the learning rate at the first
	// straight-through epoch: those epochs fall from StraightLR to 0 along
	// their own half cosine (with the cosine schedule) or keep StraightLR
	// (constant), where otherwise the run's schedule goes on. songc's
	// addition; 0 is off.
	StraightLR float64
	// Init is "paper" (or empty: the authors' r = 1/sqrt(d n) for W and b)
	// or "fan-in" (W and b uniform on [-1/sqrt(d), 1/sqrt(d)], PyTorch's
	// default for a linear layer, so that every node starts with a margin
	// of the order of its inputs' scale).
	Init string
	// Restart numbers this graph among several trained on the same data
	// and split (songc train --restart, then songc select): it changes the
	// initial parameters, the batch order and the Gumbel noise, never the
	// validation split, which depends on Seed alone, so that the graphs'
	// validation accuracies compare. The authors train 5 graphs at once
	// and report one; 0 is a single run and leaves its streams unchanged.
	Restart int
}

// DefaultConfig returns the authors' defaults (spec section 3) with a small
// graph.
func DefaultConfig() Config {
	return Config{Nodes: 64, Steps: 20, Epochs: 250, Batch: 128, LR: 1e-3, Seed: 1, Precision: "f32", Val: 0.1,
		AnnealTemp: 0.1} // used only with Anneal > 0
}

// Presets names the training recipes of PresetConfig.
var Presets = []string{"paper", "fast", "quick"}

// PresetConfig returns the configuration of a named recipe, with the
// default graph (64 nodes, 20 steps):
//
//   - "paper": the authors' recipe (DefaultConfig): raw inputs, Adam at
//     1e-3, batch 128, 250 epochs, dirty-tau Gumbel noise.
//   - "fast": the recipe that reaches the paper's accuracies in fewer
//     epochs (docs/RESULTS.md): standardised inputs, batch 64, Adam at
//     0.03 on a cosine schedule, 120 epochs, the last 20% of them annealed
//     to temperature 0.4, and the epoch chosen by the hard walk's
//     validation accuracy, since the hard walk is what compiles.
//   - "quick": "fast" in 60 epochs, the embedded demo's default.
func PresetConfig(name string) (Config, error) {
	c := DefaultConfig()
	switch name {
	case "paper":
	case "fast", "quick":
		c.Standardize = true
		c.Batch, c.LR, c.LRSchedule = 64, 0.03, "cosine"
		c.Epochs = 120
		c.Anneal, c.AnnealTemp, c.Select = 0.2, 0.4, "hard"
		if name == "quick" {
			c.Epochs = 60
		}
	default:
		return c, fmt.Errorf("unknown preset %q (want paper, fast or quick)", name)
	}
	return c, nil
}

// Validate reports flags that cannot train.
func (c *Config) Validate() error {
	switch {
	case c.Nodes < 1:
		return fmt.Errorf("--nodes must be at least 1, got %d", c.Nodes)
	case c.Steps < 1:
		return fmt.Errorf("--steps must be at least 1, got %d", c.Steps)
	case c.Epochs < 1:
		return fmt.Errorf("--epochs must be at least 1, got %d", c.Epochs)
	case c.Batch < 1:
		return fmt.Errorf("--batch must be at least 1, got %d", c.Batch)
	case !(c.LR > 0) || math.IsInf(c.LR, 0):
		return fmt.Errorf("--lr must be a finite number > 0, got %v", c.LR)
	case !(c.Val >= 0 && c.Val < 1):
		return fmt.Errorf("--val must be in [0, 1), got %v", c.Val)
	case c.Precision != "f32" && c.Precision != "f64":
		return fmt.Errorf("--precision must be f32 or f64, got %q", c.Precision)
	case !(c.Anneal >= 0 && c.Anneal < 1):
		return fmt.Errorf("--anneal must be in [0, 1), got %v", c.Anneal)
	case c.Anneal > 0 && !(c.AnnealTemp > 0 && c.AnnealTemp <= 1):
		return fmt.Errorf("--anneal-temp must be in (0, 1], got %v", c.AnnealTemp)
	case c.Select != "" && c.Select != "soft" && c.Select != "hard":
		return fmt.Errorf("--select must be soft or hard, got %q", c.Select)
	case c.Kernel != "" && c.Kernel != "auto" && c.Kernel != "gonum" && c.Kernel != "avx2":
		return fmt.Errorf("--kernel must be auto, gonum or avx2, got %q", c.Kernel)
	case c.LRSchedule != "" && c.LRSchedule != "constant" && c.LRSchedule != "cosine":
		return fmt.Errorf("--lr-schedule must be constant or cosine, got %q", c.LRSchedule)
	case c.Gumbel != "" && c.Gumbel != "dirty" && c.Gumbel != "off":
		return fmt.Errorf("--gumbel must be dirty or off, got %q", c.Gumbel)
	case !(c.StraightThrough >= 0 && c.StraightThrough < 1):
		return fmt.Errorf("--straight-through must be in [0, 1), got %v", c.StraightThrough)
	case !(c.StraightLR >= 0) || math.IsInf(c.StraightLR, 0):
		return fmt.Errorf("--straight-through-lr must be a finite number >= 0, got %v", c.StraightLR)
	case c.StraightLR > 0 && c.StraightThrough == 0:
		return fmt.Errorf("--straight-through-lr needs --straight-through")
	case !(c.Sharpen >= 0) || math.IsInf(c.Sharpen, 0):
		return fmt.Errorf("--sharpen must be a finite number >= 0, got %v", c.Sharpen)
	case !(c.WeightDecay >= 0) || math.IsInf(c.WeightDecay, 0):
		return fmt.Errorf("--weight-decay must be a finite number >= 0, got %v", c.WeightDecay)
	case c.Init != "" && c.Init != "paper" && c.Init != "fan-in":
		return fmt.Errorf("--init must be paper or fan-in, got %q", c.Init)
	case c.Kernel == "avx2" && (NewAVX2() == nil || c.Precision == "f64"):
		return fmt.Errorf("--kernel avx2 needs a CPU with AVX2 and FMA and --precision f32")
	case c.Restart < 0 || c.Restart > maxRestart:
		return fmt.Errorf("--restart must be in [0, %d], got %d", maxRestart, c.Restart)
	case c.Nodes > runtime.MaxNodes || c.Steps > runtime.MaxSteps:
		return fmt.Errorf("--nodes and --steps must be at most %d", runtime.MaxNodes)
	}
	return nil
}

// EpochRecord is one line of the per-epoch log.
type EpochRecord struct {
	Epoch      int     `json:"epoch"`
	BCE        float64 `json:"bce"`
	Leaf       float64 `json:"leaf_term"`
	Node       float64 `json:"node_loss"`
	Sharp      float64 `json:"sharp,omitempty"` // sharpness penalty before its weight, with --sharpen
	Total      float64 `json:"total_loss"`
	LeafMass   float64 `json:"leaf_mass"`
	Gumbel     float64 `json:"gumbel_share"` // share of batches that used Gumbel noise
	ValAcc     float64 `json:"val_accuracy,omitempty"`
	HardValAcc float64 `json:"hard_val_accuracy,omitempty"` // the hard walk on the validation rows
	Temp       float64 `json:"temperature,omitempty"`       // tau during the epoch, when annealing
	// Straight marks an epoch trained straight-through: its loss parts
	// are the hard walk's (BCE of one-hot leaf masses, clamped).
	Straight bool    `json:"straight_through,omitempty"`
	TestAcc  float64 `json:"test_accuracy,omitempty"`
	// HardTestAcc is the hard walk (the compiled classifier) on the test
	// rows: reported for the curves, never used to select.
	HardTestAcc float64 `json:"hard_test_accuracy,omitempty"`
	TrainAcc    float64 `json:"train_accuracy"` // on at most trainSampleMax evenly spaced training rows
	Seconds     float64 `json:"seconds"`
	Best        bool    `json:"best,omitempty"`
	Batches     int     `json:"batches"`
	// Graph holds structure statistics of the binary graph as JSON, filled
	// by Run.OnEpoch when set.
	Graph json.RawMessage `json:"graph,omitempty"`
}

// Progress is reported after every batch.
type Progress struct {
	Epoch, Epochs  int
	Batch, Batches int
	Loss           LossParts // running mean over the epoch so far
	LastValAcc     float64   // of the previous epoch, -1 before the first
	Elapsed, ETA   time.Duration
	EpochDone      bool         // the epoch has ended; Record is set
	Record         *EpochRecord // the finished epoch's record
}

// Task is the data of a run, already read: training rows with labels and an
// optional test set reported (never used for selection).
type Task struct {
	Train      *data.Dataset
	Test       *data.Dataset // may be nil
	ClassNames []string
	yTrain     []int
	yTest      []int
}

// NewTask factorises the training labels and maps the test labels onto
// them.
func NewTask(train, test *data.Dataset) (*Task, error) {
	names, err := train.ClassNames()
	if err != nil {
		return nil, err
	}
	t := &Task{Train: train, Test: test, ClassNames: names}
	if t.yTrain, err = train.Targets(names); err != nil {
		return nil, err
	}
	if test != nil {
		if test.Features != train.Features {
			return nil, fmt.Errorf("%s: rows have %d features, the training data %s has %d", test.Name, test.Features, train.Name, train.Features)
		}
		if t.yTest, err = test.Targets(names); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// Fingerprint is a SHA-256 of the training rows and labels.
func (t *Task) Fingerprint() string {
	h := sha256.New()
	var b [8]byte
	for _, v := range t.Train.X {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
		h.Write(b[:])
	}
	for _, l := range t.Train.Labels {
		h.Write([]byte(l))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// rng streams, one per purpose, all from the user's seed.
const (
	streamInit = iota + 1
	streamSplit
	streamShuffle
	streamNoise
)

// maxRestart bounds Config.Restart, so that graphStream stays one to one.
const maxRestart = 1 << 20

// graphStream is the stream of a per-graph purpose (initialisation, batch
// order, noise) for graph restart: restart 0 is the stream itself, so that
// a single run's model bytes do not depend on the feature.
func graphStream(stream uint64, restart int) uint64 { return stream | uint64(restart)<<8 }

func newRand(seed uint64, stream uint64) (*rand.Rand, *rand.PCG) {
	src := rand.NewPCG(seed, 0x5043475f736f6e67^stream)
	return rand.New(src), src
}

// gumbel fills dst with standard Gumbel noise, -log(E) with E ~ Exp(1).
//
// ExpFloat64 returns exactly 0 once in about 2^32 draws (its ziggurat
// scales a uint32 that can be 0), and -log(0) is +Inf, which makes the
// column softmax NaN. Connect-4 255/10 draws 2^32 values in about 40
// epochs (2 (n+c) n per noisy batch), so a zero is drawn again: the stream is unchanged whenever no
// zero occurs.
func gumbel(dst []float64, rng *rand.Rand) {
	for i := range dst {
		e := rng.ExpFloat64()
		for e == 0 {
			e = rng.ExpFloat64()
		}
		dst[i] = -math.Log(e)
	}
}

// splitVal returns the training and validation row indices: for each class,
// round(val * count) rows chosen at random (stratified), at least one
// training row kept per class.
func splitVal(y []int, classes int, val float64, rng *rand.Rand) (tr, va []int) {
	byClass := make([][]int, classes)
	for i, k := range y {
		byClass[k] = append(byClass[k], i)
	}
	for _, rows := range byClass {
		rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		nv := int(math.Round(val * float64(len(rows))))
		if nv >= len(rows) {
			nv = len(rows) - 1
		}
		va = append(va, rows[:nv]...)
		tr = append(tr, rows[nv:]...)
	}
	sort.Ints(tr)
	sort.Ints(va)
	return tr, va
}

// trainSampleMax bounds the training rows evaluated after each epoch.
const trainSampleMax = 5000

// ErrInterrupted is returned (wrapped) when the context is cancelled; the
// state at the start of the current epoch has been saved to the checkpoint.
var ErrInterrupted = errors.New("training interrupted")

// Run is a training run in progress, created by NewRun or ResumeRun.
type Run struct {
	Config Config
	Task   *Task
	// CheckpointPath, when set, receives a checkpoint after every epoch.
	CheckpointPath string
	// InterruptPath receives a checkpoint when the run is interrupted and
	// CheckpointPath is empty.
	InterruptPath string
	// Args is opaque caller data kept in checkpoints (the CLI stores its
	// data paths and options there so that --resume needs nothing else).
	Args []byte
	// Progress, when set, is called after every batch.
	Progress func(Progress)
	// OnEpoch, when set, may add to each record (e.g. graph statistics)
	// from the current parameters before it is logged.
	OnEpoch func(rec *EpochRecord, p *Params)

	engine Engine
	kernel string // name of the kernel under the engine
	shape  Shape
	// x and xTest are the training and test rows as the engine sees them
	// (preprocessed when Config.Standardize is set).
	x, xTest     *data.Dataset
	shift, scale []float64
	trainIdx     []int
	// trainSample are the training rows whose accuracy is logged.
	trainSample []int
	valIdx      []int
	shuffle     *rand.Rand
	shufSrc     *rand.PCG
	noise       *rand.Rand
	noiseSrc    *rand.PCG
	state       runState
}

// runState is what a checkpoint must hold beyond the config.
type runState struct {
	Epoch       int // epochs completed
	Params      []float64
	AdamM       []float64
	AdamV       []float64
	AdamStep    int
	ShuffleRNG  []byte
	NoiseRNG    []byte
	BestParams  []float64
	BestEpoch   int
	BestTemp    float64 // temperature of the best epoch (0 means 1)
	BestVal     float64
	Records     []EpochRecord
	Fingerprint string
	ClassNames  []string
}

// NewRun prepares a run from scratch.
func NewRun(cfg Config, task *Task) (*Run, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	r := &Run{Config: cfg, Task: task}
	if err := r.setup(); err != nil {
		return nil, err
	}
	p := NewParams(r.shape)
	initRNG, _ := newRand(cfg.Seed, graphStream(streamInit, cfg.Restart))
	if cfg.Init == "fan-in" {
		p.InitFanIn(initRNG)
	} else {
		p.Init(initRNG)
	}
	r.engine.SetParams(p.Flat)
	r.state.Params = p.Flat
	r.state.BestParams = append([]float64(nil), p.Flat...)
	r.state.BestVal = -1
	r.state.Fingerprint = task.Fingerprint()
	r.state.ClassNames = task.ClassNames
	return r, nil
}

func (r *Run) setup() error {
	cfg, task := r.Config, r.Task
	r.shape = Shape{Nodes: cfg.Nodes, Classes: len(task.ClassNames), Steps: cfg.Steps,
		Features: task.Train.Features, NodeRegGamma: cfg.NodeRegGamma, NodeRegLambda: cfg.NodeRegLambda,
		SharpenLambda: cfg.Sharpen, WeightDecay: cfg.WeightDecay}
	if cfg.NodeRegLambda > 0 && cfg.NodeRegGamma == 0 {
		r.shape.NodeRegGamma = 1
	}
	if err := r.shape.Validate(); err != nil {
		return err
	}
	splitRNG, _ := newRand(cfg.Seed, streamSplit)
	if cfg.Val > 0 {
		r.trainIdx, r.valIdx = splitVal(task.yTrain, r.shape.Classes, cfg.Val, splitRNG)
	} else {
		r.trainIdx = make([]int, task.Train.Rows)
		for i := range r.trainIdx {
			r.trainIdx[i] = i
		}
	}
	if cfg.Standardize {
		r.shift, r.scale = standardize(task.Train, r.trainIdx)
		r.x = preprocess(task.Train, r.shift, r.scale)
		if task.Test != nil {
			r.xTest = preprocess(task.Test, r.shift, r.scale)
		}
	} else {
		r.x = task.Train
		r.xTest = task.Test
	}
	// Training accuracy is for the curves only: measure it on an evenly
	// spaced sample, so that it does not add a third to every epoch.
	r.trainSample = r.trainIdx
	if len(r.trainIdx) > trainSampleMax {
		r.trainSample = make([]int, trainSampleMax)
		for i := range r.trainSample {
			r.trainSample[i] = r.trainIdx[i*len(r.trainIdx)/trainSampleMax]
		}
	}
	batch := min(cfg.Batch, len(r.trainIdx))
	var err error
	if r.engine, r.kernel, err = NewEngine(r.shape, cfg.Precision, cfg.Kernel, batch); err != nil {
		return err
	}
	r.shuffle, r.shufSrc = newRand(cfg.Seed, graphStream(streamShuffle, cfg.Restart))
	r.noise, r.noiseSrc = newRand(cfg.Seed, graphStream(streamNoise, cfg.Restart))
	return nil
}

// Shape returns the model shape of the run.
func (r *Run) Shape() Shape { return r.shape }

// EpochsDone returns the number of completed epochs.
func (r *Run) EpochsDone() int { return r.state.Epoch }

// Records returns the per-epoch log so far.
func (r *Run) Records() []EpochRecord { return r.state.Records }

// TrainRows and ValRows return the sizes of the split.
func (r *Run) TrainRows() int { return len(r.trainIdx) }
func (r *Run) ValRows() int   { return len(r.valIdx) }

// snapshot fills r.state from the engine and the random streams.
func (r *Run) snapshot() error {
	np := r.shape.NumParams()
	if len(r.state.AdamM) != np {
		r.state.AdamM, r.state.AdamV = make([]float64, np), make([]float64, np)
	}
	r.engine.Params(r.state.Params)
	r.state.AdamStep = r.engine.OptState(r.state.AdamM, r.state.AdamV)
	var err error
	if r.state.ShuffleRNG, err = r.shufSrc.MarshalBinary(); err != nil {
		return err
	}
	r.state.NoiseRNG, err = r.noiseSrc.MarshalBinary()
	return err
}

// accuracy returns the soft accuracy of the current engine parameters on
// rows idx of ds (labels y), using buffers x and q.
func (r *Run) accuracy(ds *data.Dataset, y []int, idx []int) float64 {
	if len(idx) == 0 {
		return 0
	}
	d, c := ds.Features, r.shape.Classes
	const chunk = 4096
	x := make([]float64, min(chunk, len(idx))*d)
	q := make([]float64, min(chunk, len(idx))*c)
	correct := 0
	for s := 0; s < len(idx); s += chunk {
		rows := idx[s:min(s+chunk, len(idx))]
		for k, i := range rows {
			copy(x[k*d:(k+1)*d], ds.Row(i))
		}
		r.engine.Predict(q[:len(rows)*c], x[:len(rows)*d])
		for k, i := range rows {
			if argmax(q[k*c:(k+1)*c]) == y[i] {
				correct++
			}
		}
	}
	return float64(correct) / float64(len(idx))
}

func argmax(v []float64) int {
	best := 0
	for i, x := range v {
		if x > v[best] {
			best = i
		}
	}
	return best
}

// Train runs the remaining epochs. On cancellation it saves the state at
// the start of the interrupted epoch and returns an error wrapping
// ErrInterrupted.
func (r *Run) Train(ctx context.Context) error {
	cfg := r.Config
	d, B := r.shape.Features, r.engine.MaxBatch()
	nTrain := len(r.trainIdx)
	L := (nTrain + B - 1) / B
	E := cfg.Epochs
	x := make([]float64, B*d)
	y := make([]int, B)
	noise := make([]float64, 2*r.shape.States()*r.shape.Nodes)
	perm := make([]int, nTrain)
	testIdx := []int(nil)
	if r.Task.Test != nil {
		testIdx = make([]int, r.Task.Test.Rows)
		for i := range testIdx {
			testIdx[i] = i
		}
	}
	start := time.Now()
	doneAtStart := r.state.Epoch
	if err := r.snapshot(); err != nil {
		return err
	}
	if r.CheckpointPath != "" && r.state.Epoch == 0 {
		// The starting state, so that a failure in the first epoch still
		// leaves a good checkpoint.
		if err := r.SaveCheckpoint(r.CheckpointPath); err != nil {
			return err
		}
	}
	for e := r.state.Epoch; e < E; e++ {
		t0 := time.Now()
		tau := r.temperature(e)
		straight := r.straightThrough(e)
		if straight {
			tau = 1
		}
		r.engine.SetStraightThrough(straight)
		r.engine.SetTemperature(tau)
		copy(perm, r.trainIdx)
		r.shuffle.Shuffle(nTrain, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		var sum LossParts
		gumbelBatches := 0
		lastVal := -1.0
		if n := len(r.state.Records); n > 0 {
			lastVal = r.state.Records[n-1].ValAcc
		}
		for b := 0; b < L; b++ {
			if err := ctx.Err(); err != nil {
				return r.interrupted(e, b)
			}
			rows := perm[b*B : min((b+1)*B, nTrain)]
			for k, i := range rows {
				copy(x[k*d:(k+1)*d], r.x.Row(i))
				y[k] = r.Task.yTrain[i]
			}
			// Dirty tau (spec section 3): Gumbel noise fades out linearly.
			var nz []float64
			// The draw happens whatever the flag, so that both settings
			// consume the noise stream alike.
			if u := r.noise.Float64(); cfg.Gumbel != "off" && !(u < float64(e*L+b)/float64(E*L)) {
				gumbel(noise, r.noise)
				nz = noise
				gumbelBatches++
			}
			lp := r.engine.TrainStep(x[:len(rows)*d], y[:len(rows)], nz, r.learningRate(e*L+b, E*L))
			if math.IsNaN(lp.Total) || math.IsInf(lp.Total, 0) {
				saved := "no checkpoint was requested (--checkpoint FILE keeps one)"
				if r.CheckpointPath != "" {
					saved = fmt.Sprintf("%s holds the last good state (after epoch %d)", r.CheckpointPath, r.state.Epoch)
				}
				return fmt.Errorf("epoch %d, batch %d: the loss is %v (bce %v, leaf term %v); %s; try a lower --lr", e+1, b+1, lp.Total, lp.BCE, lp.Leaf, saved)
			}
			sum.BCE += lp.BCE
			sum.Leaf += lp.Leaf
			sum.Node += lp.Node
			sum.Sharp += lp.Sharp
			sum.Total += lp.Total
			sum.LeafMass += lp.LeafMass
			if r.Progress != nil {
				nb := float64(b + 1)
				el := time.Since(start)
				doneBatches := float64((e-doneAtStart)*L + b + 1)
				eta := time.Duration(float64(el) / doneBatches * float64((E-e)*L-b-1))
				r.Progress(Progress{Epoch: e + 1, Epochs: E, Batch: b + 1, Batches: L,
					Loss:       LossParts{BCE: sum.BCE / nb, Leaf: sum.Leaf / nb, Node: sum.Node / nb, Sharp: sum.Sharp / nb, Total: sum.Total / nb, LeafMass: sum.LeafMass / nb},
					LastValAcc: lastVal, Elapsed: el, ETA: eta})
			}
		}
		fl := float64(L)
		rec := EpochRecord{Epoch: e + 1, BCE: sum.BCE / fl, Leaf: sum.Leaf / fl, Node: sum.Node / fl, Sharp: sum.Sharp / fl,
			Total: sum.Total / fl, LeafMass: sum.LeafMass / fl, Gumbel: float64(gumbelBatches) / fl, Batches: L,
			Straight: straight}
		rec.TrainAcc = r.accuracy(r.x, r.Task.yTrain, r.trainSample)
		if len(r.valIdx) > 0 {
			rec.ValAcc = r.accuracy(r.x, r.Task.yTrain, r.valIdx)
		}
		if tau != 1 {
			rec.Temp = tau
		}
		if testIdx != nil {
			rec.TestAcc = r.accuracy(r.xTest, r.Task.yTest, testIdx)
		}
		r.state.Epoch = e + 1
		if err := r.snapshot(); err != nil {
			return err
		}
		// Selection on the validation split only; with --val 0 the last
		// epoch is kept. Ties keep the earlier epoch.
		rec.HardValAcc, rec.HardTestAcc = r.hardAccuracy(tau)
		score := rec.ValAcc
		if cfg.Select == "hard" {
			score = rec.HardValAcc
		}
		if len(r.valIdx) == 0 {
			score = float64(e + 1)
		}
		if score > r.state.BestVal {
			r.state.BestVal = score
			r.state.BestEpoch = e + 1
			r.state.BestTemp = tau
			copy(r.state.BestParams, r.state.Params)
			rec.Best = true
		}
		if r.OnEpoch != nil {
			r.OnEpoch(&rec, &Params{Shape: r.shape, Flat: r.state.Params})
		}
		rec.Seconds = time.Since(t0).Seconds()
		r.state.Records = append(r.state.Records, rec)
		if r.CheckpointPath != "" {
			if err := r.SaveCheckpoint(r.CheckpointPath); err != nil {
				return err
			}
		}
		if r.Progress != nil {
			r.Progress(Progress{Epoch: e + 1, Epochs: E, Batch: L, Batches: L,
				Loss:       LossParts{BCE: rec.BCE, Leaf: rec.Leaf, Node: rec.Node, Total: rec.Total, LeafMass: rec.LeafMass},
				LastValAcc: rec.ValAcc, Elapsed: time.Since(start), EpochDone: true, Record: &rec})
		}
	}
	return nil
}

// interrupted saves the state at the start of epoch e (held in r.state
// since the last snapshot) and returns the error for it.
func (r *Run) interrupted(e, b int) error {
	path := r.CheckpointPath
	if path == "" {
		path = r.InterruptPath
	}
	if path == "" {
		return fmt.Errorf("%w in epoch %d (batch %d); no checkpoint path was set, progress is lost", ErrInterrupted, e+1, b+1)
	}
	if err := r.SaveCheckpoint(path); err != nil {
		return fmt.Errorf("%w in epoch %d, and saving the checkpoint failed: %v", ErrInterrupted, e+1, err)
	}
	return &InterruptError{Epoch: e + 1, Batch: b + 1, EpochsDone: r.state.Epoch, Checkpoint: path}
}

// InterruptError says where an interrupted run stopped and where it was saved.
type InterruptError struct {
	Epoch, Batch int
	EpochsDone   int
	Checkpoint   string
}

func (e *InterruptError) Error() string {
	return fmt.Sprintf("training interrupted in epoch %d (batch %d); %d epochs are saved in %s", e.Epoch, e.Batch, e.EpochsDone, e.Checkpoint)
}

func (e *InterruptError) Unwrap() error { return ErrInterrupted }

// Metadata is the "training" object of a model file written by songc.
type Metadata struct {
	Songc        string  `json:"songc"`
	Seed         uint64  `json:"seed"`
	Restart      int     `json:"restart,omitempty"` // Config.Restart
	Precision    string  `json:"precision"`
	Epochs       int     `json:"epochs"`
	Batch        int     `json:"batch"`
	LR           float64 `json:"lr"`
	Val          float64 `json:"val"`
	Standardize  bool    `json:"standardize,omitempty"`
	Anneal       float64 `json:"anneal,omitempty"`
	AnnealTemp   float64 `json:"anneal_temp,omitempty"`
	Select       string  `json:"select,omitempty"`
	LRSchedule   string  `json:"lr_schedule,omitempty"`
	Gumbel       string  `json:"gumbel,omitempty"`
	Init         string  `json:"init,omitempty"`
	Sharpen      float64 `json:"sharpen,omitempty"`
	WeightDecay  float64 `json:"weight_decay,omitempty"`
	Straight     float64 `json:"straight_through,omitempty"`
	StraightLR   float64 `json:"straight_through_lr,omitempty"`
	Temperature  float64 `json:"temperature,omitempty"` // tau of the saved epoch, folded into the parameters
	NodeRegGamma float64 `json:"node_reg_gamma,omitempty"`
	NodeRegLamb  float64 `json:"node_reg_lambda,omitempty"`
	Kernel       string  `json:"kernel"`
	TrainRows    int     `json:"train_rows"`
	ValRows      int     `json:"val_rows"`
	DataSHA256   string  `json:"data_sha256"`
	BestEpoch    int     `json:"best_epoch"`
	ValAccuracy  float64 `json:"val_accuracy,omitempty"`
	TestAccuracy float64 `json:"test_accuracy,omitempty"`
}

// Model returns the model of the selected epoch with its metadata.
func (r *Run) Model(version string) (*runtime.Model, error) {
	m := r.export(r.state.BestParams, r.state.BestTemp).Model(r.Task.ClassNames)
	m.InputShift, m.InputScale = r.shift, r.scale
	meta := Metadata{Songc: version, Seed: r.Config.Seed, Restart: r.Config.Restart, Precision: r.Config.Precision,
		Epochs: r.state.Epoch, Batch: r.Config.Batch, LR: r.Config.LR, Val: r.Config.Val, Standardize: r.Config.Standardize,
		NodeRegGamma: r.shape.NodeRegGamma, NodeRegLamb: r.shape.NodeRegLambda,
		TrainRows: len(r.trainIdx), ValRows: len(r.valIdx), DataSHA256: r.state.Fingerprint,
		BestEpoch: r.state.BestEpoch}
	if r.shape.NodeRegLambda == 0 {
		meta.NodeRegGamma = 0
	}
	meta.Kernel = r.kernel
	if r.Config.Anneal > 0 {
		meta.Anneal, meta.AnnealTemp = r.Config.Anneal, r.Config.AnnealTemp
		if t := r.state.BestTemp; t != 0 && t != 1 {
			meta.Temperature = t
		}
	}
	if r.Config.Select == "hard" {
		meta.Select = "hard"
	}
	if r.Config.LRSchedule == "cosine" {
		meta.LRSchedule = "cosine"
	}
	if r.Config.Gumbel == "off" {
		meta.Gumbel = "off"
	}
	if r.Config.Init == "fan-in" {
		meta.Init = "fan-in"
	}
	meta.Sharpen, meta.WeightDecay, meta.Straight = r.Config.Sharpen, r.Config.WeightDecay, r.Config.StraightThrough
	meta.StraightLR = r.Config.StraightLR
	if i := r.state.BestEpoch - 1; i >= 0 && i < len(r.state.Records) {
		meta.ValAccuracy = r.state.Records[i].ValAcc
		meta.TestAccuracy = r.state.Records[i].TestAcc
	}
	raw, err := json.Marshal(meta)
	if err != nil {
		return nil, err
	}
	m.Training = raw
	return m, m.Validate()
}

// standardize returns the shift (mean) and scale (1/standard deviation) of
// each feature over rows idx; a constant feature gets scale 1.
func standardize(ds *data.Dataset, idx []int) (shift, scale []float64) {
	d := ds.Features
	shift, scale = make([]float64, d), make([]float64, d)
	for _, i := range idx {
		for j, v := range ds.Row(i) {
			shift[j] += v
		}
	}
	n := float64(len(idx))
	for j := range shift {
		shift[j] /= n
	}
	for _, i := range idx {
		for j, v := range ds.Row(i) {
			dv := v - shift[j]
			scale[j] += dv * dv
		}
	}
	for j := range scale {
		sd := math.Sqrt(scale[j] / n)
		if sd > 0 {
			scale[j] = 1 / sd
		} else {
			scale[j] = 1
		}
	}
	return shift, scale
}

// preprocess returns a copy of ds with (x - shift) * scale applied, computed
// exactly as runtime.Classifier.Preprocess does.
func preprocess(ds *data.Dataset, shift, scale []float64) *data.Dataset {
	out := *ds
	out.X = make([]float64, len(ds.X))
	for i := 0; i < ds.Rows; i++ {
		row, dst := ds.Row(i), out.X[i*ds.Features:(i+1)*ds.Features]
		for j, v := range row {
			dst[j] = (v - shift[j]) * scale[j]
		}
	}
	return &out
}

// straightThrough reports whether epoch e (0-based) is one of the last
// StraightThrough share of the epochs, which train the hard walk.
func (r *Run) straightThrough(e int) bool {
	return e >= r.Config.Epochs-r.Config.StraightEpochs()
}

// StraightEpochs returns the number of straight-through epochs, the last
// of the run.
func (c Config) StraightEpochs() int {
	return int(math.Round(c.StraightThrough * float64(c.Epochs)))
}

// temperature returns tau for epoch e (0-based): 1, then during the last
// Anneal share of the epochs a geometric fall to AnnealTemp, reached in the
// last epoch.
func (r *Run) temperature(e int) float64 {
	cfg := r.Config
	if cfg.Anneal <= 0 {
		return 1
	}
	E := cfg.Epochs
	k := int(math.Round(cfg.Anneal * float64(E))) // annealed epochs
	e0 := E - k
	if k < 1 || e < e0 {
		return 1
	}
	return math.Pow(cfg.AnnealTemp, float64(e-e0+1)/float64(k))
}

// learningRate returns the learning rate of batch i of n in the run; with
// StraightLR the straight-through epochs start their own schedule at it.
func (r *Run) learningRate(i, n int) float64 {
	lr := r.Config.LR
	if E := r.Config.Epochs; r.Config.StraightLR > 0 && E > 0 {
		// The straight-through epochs are the last k of E, that is the
		// last k*n/E of the n steps.
		k := r.Config.StraightEpochs()
		if s0 := n - k*(n/E); k > 0 && i >= s0 {
			lr, i, n = r.Config.StraightLR, i-s0, n-s0
		}
	}
	if r.Config.LRSchedule != "cosine" {
		return lr
	}
	return lr * 0.5 * (1 + math.Cos(math.Pi*float64(i)/float64(n)))
}

// export returns the parameters of the model that the engine computes at
// temperature tau: L/tau, W/tau and b/tau, so that the plain softmax and
// sigmoid of the model file give the same model. Routing is unchanged:
// positive scaling keeps every argmax and every margin's sign.
func (r *Run) export(flat []float64, tau float64) *Params {
	p := &Params{Shape: r.shape, Flat: append([]float64(nil), flat...)}
	if tau != 0 && tau != 1 {
		for i := range p.Flat {
			p.Flat[i] /= tau
		}
	}
	return p
}

// hardAccuracy is the hard walk's accuracy on the validation rows (and on
// the test rows, when there are any) for the current parameters at
// temperature tau, computed by the runtime in float64 on the raw rows,
// exactly as the saved model would be.
func (r *Run) hardAccuracy(tau float64) (val, test float64) {
	m := r.export(r.state.Params, tau).Model(r.Task.ClassNames)
	m.InputShift, m.InputScale = r.shift, r.scale
	k, err := runtime.New(m)
	if err != nil {
		return 0, 0 // non-finite parameters: the loss check reports them
	}
	scratch := make([]float64, k.NumFeatures())
	correct := 0
	for _, i := range r.valIdx {
		if res, _ := k.Walk(r.Task.Train.Row(i), scratch, nil); res.Class == r.Task.yTrain[i] {
			correct++
		}
	}
	if len(r.valIdx) > 0 {
		val = float64(correct) / float64(len(r.valIdx))
	}
	if ts := r.Task.Test; ts != nil && ts.Rows > 0 {
		correct = 0
		for i := 0; i < ts.Rows; i++ {
			if res, _ := k.Walk(ts.Row(i), scratch, nil); res.Class == r.Task.yTest[i] {
				correct++
			}
		}
		test = float64(correct) / float64(ts.Rows)
	}
	return val, test
}
