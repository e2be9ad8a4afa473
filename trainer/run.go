package trainer

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	goruntime "runtime"
	"time"

	"github.com/songc/songc/internal/text"
	"github.com/songc/songc/runlog"
	"github.com/songc/songc/trainer/data"
)

// Progress is reported after every batch.
type Progress struct {
	Epoch, Epochs  int
	Batch, Batches int
	Loss           LossParts // running mean over the epoch so far
	LastValAcc     float64   // of the previous epoch, -1 before the first
	Elapsed, ETA   time.Duration
	EpochDone      bool                // the epoch has ended; Record is set
	Record         *runlog.EpochRecord // the finished epoch's record
}

// ErrInterrupted is returned (wrapped) when the context is cancelled. The
// state at the start of the current epoch is saved when the run has a
// checkpoint path (an *InterruptError then says where); without one it is
// lost, and the error says so.
var ErrInterrupted = errors.New("training interrupted")

// Run is a training run in progress, created by NewRun or ResumeRun (or,
// several at once, by NewRuns, NewRestarts and ResumeRestarts).
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
	// Search, when the run was chosen by a Search, is its record; the
	// model's metadata carries it.
	Search *runlog.Search
	// OnEpoch, when set, may add to each record (e.g. graph statistics)
	// from the current parameters before it is logged.
	OnEpoch func(rec *runlog.EpochRecord, p *Params)

	engine Engine
	kernel string // name of the kernel under the engine
	shape  Shape
	// x and xTest are the training and test rows as the engine sees them
	// (preprocessed when Config.Standardize is set); val holds x's
	// validation rows (valIdx) one after another, yVal their classes.
	x, xTest, val *data.Dataset
	yVal          []int
	shift, scale  []float64
	trainIdx      []int
	valIdx        []int
	shuffle       *rand.Rand
	shufSrc       *rand.PCG
	noise         *rand.Rand
	noiseSrc      *rand.PCG
	state         runState
	// ws holds the run's training buffers: the Gumbel noise and the
	// epoch's row order (set by begin); a batch's rows and labels, and the
	// next batch's when it gathers ahead (trainGroup, on a group's lead
	// only); the leaf masses of an accuracy pass (accuracy).
	ws struct {
		x, nx []float64
		y, ny []int
		noise []float64
		perm  []int
		accQ  []float64 // accuracy's leaf masses
	}
	ep epoch // the epoch in progress
}

// runState is what a checkpoint must hold beyond the config.
type runState struct {
	Epoch      int // epochs completed
	Params     []float64
	AdamM      []float64
	AdamV      []float64
	AdamStep   int
	ShuffleRNG []byte
	NoiseRNG   []byte
	BestParams []float64
	BestEpoch  int
	BestTemp   float64 // temperature of the best epoch (0 means 1)
	BestVal    float64
	Records    []runlog.EpochRecord
	// With Config.Patience: the epochs of the constant-rate phase, 0
	// while it lasts; the best hard-walk validation accuracy in it and
	// the epochs since.
	StableEpochs int
	PlateauBest  float64
	SinceBest    int
	Fingerprint  string
	ClassNames   []string
}

// NewRun prepares a run from scratch.
func NewRun(cfg Config, task *Task) (*Run, error) {
	if err := CheckConfig(&cfg); err != nil {
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
	r.state.PlateauBest = -1
	r.state.Fingerprint = task.Fingerprint()
	r.state.ClassNames = task.ClassNames
	return r, nil
}

func (r *Run) setup() error {
	cfg, task := r.Config, r.Task
	r.shape = Shape{Nodes: cfg.Nodes, Classes: len(task.ClassNames), Steps: cfg.Steps,
		Features: task.Train.Features, NodeRegGamma: cfg.Canonical().NodeRegGamma, NodeRegLambda: cfg.NodeRegLambda,
		WeightDecay: cfg.WeightDecay}
	if err := r.shape.Validate(); err != nil {
		return err
	}
	// The graph's memory is checked before the rows are copied (a batch
	// is at most the rows left to train on).
	if err := checkMemory(r.shape, min(cfg.Batch, task.Train.Rows-task.ValRows(cfg.Val)), task.Train.Rows, 1); err != nil {
		return err
	}
	prep := task.prepare(&cfg)
	r.trainIdx, r.valIdx = prep.trainIdx, prep.valIdx
	r.shift, r.scale = prep.shift, prep.scale
	r.x, r.xTest, r.val, r.yVal = prep.x, prep.xTest, prep.val, prep.yVal
	batch := min(cfg.Batch, len(r.trainIdx))
	var err error
	if r.engine, r.kernel, err = newEngineThreads(r.shape, cfg.Precision, cfg.Kernel, batch, goruntime.GOMAXPROCS(0)); err != nil {
		return err
	}
	// The batch order is the seed's, whatever the restart, so that the
	// restarts of a seed can train on shared batches (TrainTogether).
	r.shuffle, r.shufSrc = newRand(cfg.Seed, streamShuffle)
	r.noise, r.noiseSrc = newRand(cfg.Seed, graphStream(streamNoise, cfg.Restart))
	return nil
}

// Shape returns the model shape of the run.
func (r *Run) Shape() Shape { return r.shape }

// EpochsDone returns the number of completed epochs.
func (r *Run) EpochsDone() int { return r.state.Epoch }

// Records returns the per-epoch log so far.
func (r *Run) Records() []runlog.EpochRecord { return r.state.Records }

// Split returns the run's training and validation rows, indices into the
// task's training data. The slices are the run's own: callers must not
// change them.
func (r *Run) Split() (train, val []int) { return r.trainIdx, r.valIdx }

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

// accuracyLoss returns the soft accuracy and the mean log loss, -log of the
// leaf mass of the row's class (at least 1e-12), of the current engine
// parameters on the rows of ds (labels y).
func (r *Run) accuracyLoss(ds *data.Dataset, y []int) (acc, loss float64) {
	n := ds.Rows
	if n == 0 {
		return 0, 0
	}
	d, c := ds.Features, r.shape.Classes
	const chunk = 4096
	if m := min(chunk, n); len(r.ws.accQ) < m*c { // once per run, or per larger set
		r.ws.accQ = make([]float64, m*c)
	}
	q := r.ws.accQ
	correct := 0
	for s := 0; s < n; s += chunk {
		e := min(s+chunk, n)
		r.engine.Predict(q[:(e-s)*c], ds.X[s*d:e*d])
		for k := range e - s {
			if argmax(q[k*c:(k+1)*c]) == y[s+k] {
				correct++
			}
			loss -= math.Log(max(q[k*c+y[s+k]], 1e-12))
		}
	}
	return float64(correct) / float64(n), loss / float64(n)
}

// bestRecord returns the log record of the best epoch so far (zero before
// any).
func (r *Run) bestRecord() runlog.EpochRecord {
	if i := r.state.BestEpoch - 1; i >= 0 && i < len(r.state.Records) {
		return r.state.Records[i]
	}
	return runlog.EpochRecord{}
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
func (r *Run) Train(ctx context.Context) error { return r.TrainFor(ctx, -1) }

// Done reports whether the run has trained all its epochs.
func (r *Run) Done() bool { return r.state.Epoch >= r.planned() }

// BestScore returns the validation accuracy (of the soft model, or of the
// hard walk with Select "hard") of the best epoch so far; -1 before any.
func (r *Run) BestScore() float64 { return r.state.BestVal }

// TrainFor is Train for at most n more epochs (all when n < 0). A run
// trained in several calls is the same as one trained in one.
func (r *Run) TrainFor(ctx context.Context, n int) error {
	return trainGroup(ctx, []*Run{r}, n, together{})
}

// endEpoch completes the record of the epoch just trained: accuracies of
// the soft model (validation, test) and of the hard walk,
// and, by the validation rows only, whether it is the best so far, in which
// case its parameters are kept. r.state.Epoch counts the epoch already.
func (r *Run) endEpoch(rec *runlog.EpochRecord) error {
	if len(r.valIdx) > 0 {
		rec.ValAcc, rec.ValLoss = r.accuracyLoss(r.val, r.yVal)
	}
	tau := r.ep.tau
	if tau != 1 {
		rec.Temp = tau
	}
	if r.xTest != nil {
		rec.TestAcc, _ = r.accuracyLoss(r.xTest, r.Task.yTest)
	}
	if err := r.snapshot(); err != nil {
		return err
	}
	// Selection on the validation split only; with --val 0 the last
	// epoch is kept.
	rec.HardValAcc, rec.HardValBalanced, rec.HardTestAcc = r.hardAccuracy(tau)
	hard := rec.HardValAcc // the hard walk's score, which patience watches
	if r.Config.Select == "balanced" {
		hard = rec.HardValBalanced
	}
	score := rec.ValAcc
	if r.Config.Select == "hard" || r.Config.Select == "balanced" {
		score = hard
	}
	if len(r.valIdx) == 0 {
		score = float64(r.state.Epoch)
	}
	if r.Config.Patience > 0 && r.state.StableEpochs == 0 {
		r.watchPlateau(hard)
	}
	// Ties keep the earlier epoch, or with Ties "loss" the one whose soft
	// model has the lower validation log loss: on a few dozen rows many
	// epochs share the best count of right rows, and the loss still
	// tells them apart.
	if score > r.state.BestVal || (score == r.state.BestVal && r.Config.Ties == "loss" && rec.ValLoss < r.bestRecord().ValLoss) {
		r.state.BestVal = score
		r.state.BestEpoch = r.state.Epoch
		r.state.BestTemp = tau
		copy(r.state.BestParams, r.state.Params)
		rec.Best = true
	}
	return nil
}

// interrupted saves the state at the start of epoch e (held in r.state
// since the last snapshot) and returns the error for it.
func (r *Run) interrupted(e, b int) error {
	return saveInterrupted(r.CheckpointPath, r.InterruptPath, r.SaveCheckpoint,
		fmt.Sprintf("in epoch %d (batch %d)", e+1, b+1), &InterruptError{Epoch: e + 1, Batch: b + 1, EpochsDone: r.state.Epoch})
}

// saveInterrupted saves an interrupted training by save to the checkpoint
// path, else to the interrupt path, and returns ie with the path; or, when
// there is no path or the save fails, an error that says where training
// stopped.
func saveInterrupted(checkpoint, interrupt string, save func(string) error, where string, ie *InterruptError) error {
	path := cmp.Or(checkpoint, interrupt)
	if path == "" {
		return fmt.Errorf("%w %s; no checkpoint path was set, progress is lost", ErrInterrupted, where)
	}
	if err := save(path); err != nil {
		return fmt.Errorf("%w %s, and saving the checkpoint failed: %v", ErrInterrupted, where, err)
	}
	ie.Checkpoint = path
	return ie
}

// InterruptError says where an interrupted run stopped and where it was saved.
type InterruptError struct {
	Epoch, Batch int
	EpochsDone   int
	Checkpoint   string
	Search       bool // a candidate of a search was interrupted; the search is saved
	Graphs       int  // with several graphs trained together, how many (all saved)
}

func (e *InterruptError) Error() string {
	if e.Graphs > 1 {
		return fmt.Sprintf("training interrupted in epoch %d; %s of the %d graphs %s saved in %s", e.Epoch, text.Count(e.EpochsDone, "epoch"), e.Graphs, text.Verb(e.EpochsDone, "is", "are"), e.Checkpoint)
	}
	if e.Search {
		return fmt.Sprintf("training interrupted during the search (a candidate's epoch %d); the search is saved in %s", e.Epoch, e.Checkpoint)
	}
	return fmt.Sprintf("training interrupted in epoch %d (batch %d); %s saved in %s", e.Epoch, e.Batch, text.Is(e.EpochsDone, "epoch"), e.Checkpoint)
}

func (e *InterruptError) Unwrap() error { return ErrInterrupted }
