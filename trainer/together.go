package trainer

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	goruntime "runtime"
	"slices"
	"time"

	"github.com/songc/songc/runlog"
	"github.com/songc/songc/trainer/data"
	"github.com/songc/songc/trainer/internal/workers"
)

// NewRuns prepares runs from scratch, one per configuration, as NewRun
// does; TrainTogether trains those that share batches side by side.
func NewRuns(cfgs []Config, task *Task) ([]*Run, error) {
	runs := make([]*Run, len(cfgs))
	for i, c := range cfgs {
		r, err := NewRun(c, task)
		if err != nil {
			if len(cfgs) > 1 {
				err = fmt.Errorf("graph %d: %w", i+1, err)
			}
			return nil, err
		}
		runs[i] = r
	}
	return runs, nil
}

// coreShare is the kernel threads of each of k graphs trained side by
// side on cores cores: the cores shared out, at least one each.
func coreShare(cores, k int) int { return max(1, cores/max(1, k)) }

// setThreads lets the run's kernel split each product between n
// goroutines, where it can.
func (r *Run) setThreads(n int) {
	if e, ok := r.engine.(interface{ SetThreads(int) }); ok {
		e.SetThreads(n)
	}
}

// TrainTogether trains runs on shared batches for at most n more epochs
// each (all when n < 0): each batch's rows are gathered once and every
// run's step on it is taken in one pass, the runs spread over up to
// GOMAXPROCS goroutines, as are the validation passes at the end of each
// epoch; each packed kernel's products run on its share of the cores.
// Each run ends exactly as it would alone (its own parameters, optimiser,
// schedule, noise, validation, best epoch, patience and checkpoint): runs
// that share batches differ in their configuration (size, rate,
// regularisation, restart, recipe), not in the rows they see.
//
// The runs must see the same batches: the same task, seed, validation
// share, preprocessing and batch size, at the same epoch; a run that has
// finished (Done) takes no part. Restarts of a seed qualify, as do the
// candidates of a search. The runs' OnEpoch callbacks may run
// concurrently with each other's; Progress is called on the caller's
// goroutine. Interrupted, every run saves itself, and the error joins
// theirs (errors.Join), the first run's first.
func TrainTogether(ctx context.Context, runs []*Run, n int) error {
	return trainGroup(ctx, runs, n, together{})
}

// together is how trainGroup trains a group beyond its runs' own settings.
type together struct {
	// cores is how many cores the group may use (0: GOMAXPROCS): fewer
	// when other groups train beside it.
	cores int
	// owner, when set, saves every run in one checkpoint, before the
	// first epoch, after every epoch and on an interruption, instead of
	// each run saving its own.
	owner *Restarts
}

// epoch is a run's share of the epoch in progress.
type epoch struct {
	tau      float64
	straight bool
	sum      LossParts
	lp       LossParts // the current batch's
	gumbel   int       // noisy batches
	correct  int
	lastVal  float64
	t0       time.Time
	err      error // of the end of the epoch
	planned  int   // the epochs planned as the epoch ended, before its validation (its report's)
}

// sharesBatches reports why the unfinished runs of runs could not train on
// shared batches, nil when they can.
func sharesBatches(runs []*Run) error {
	var lead *Run
	for i, r := range runs {
		if slices.Index(runs, r) != i {
			return fmt.Errorf("trainer: graph %d is listed twice", i+1)
		}
		if r.Done() {
			continue
		}
		if lead == nil {
			lead = r
			continue
		}
		switch {
		case r.Task != lead.Task || r.x != lead.x || !slices.Equal(r.trainIdx, lead.trainIdx):
			return fmt.Errorf("trainer: graph %d trains on other rows than graph 1 (another task, seed, validation share or preprocessing)", i+1)
		case r.engine.MaxBatch() != lead.engine.MaxBatch():
			return fmt.Errorf("trainer: graph %d has batches of %d rows, graph 1 of %d", i+1, r.engine.MaxBatch(), lead.engine.MaxBatch())
		case r.state.Epoch != lead.state.Epoch || *r.shufSrc != *lead.shufSrc:
			return fmt.Errorf("trainer: graph %d is at epoch %d with another batch order than graph 1 (epoch %d)", i+1, r.state.Epoch, lead.state.Epoch)
		}
	}
	return nil
}

// group is the runs of a trainGroup call that train in the current epoch,
// and the workers that run their steps and ends of epochs.
type group struct {
	runs []*Run
	pool *workers.Pool

	// The current batch and epoch, read by the workers.
	x []float64
	y []int
	// next, when set, is the next batch's rows, which the last active
	// worker gathers from ds and labels into nx and ny while the others
	// step.
	next       []int
	nx         []float64
	ny         []int
	ds         *data.Dataset
	labels     []int
	e, b, L    int
	endOfEpoch bool // the workers end the epoch instead of stepping
}

// work runs graph w, w+active, ...: one step, or the end of the epoch;
// or, when a next batch is set, the last worker gathers it and the others
// share the graphs.
func (g *group) work(w, active int) {
	if g.next != nil {
		if w == active-1 {
			g.ds.Gather(g.nx, g.next)
			pick(g.ny, g.labels, g.next)
			return
		}
		active--
	}
	for k := w; k < len(g.runs); k += active {
		if g.endOfEpoch {
			g.runs[k].endOfEpoch(g.e, g.L)
		} else {
			g.runs[k].step(g.x, g.y, g.e, g.b, g.L)
		}
	}
}

// each runs work on every run of the epoch, and the gathering of the next
// batch when it is set, on the workers.
func (g *group) each() {
	n := len(g.runs)
	if g.next != nil {
		n++
	}
	g.pool.Run(min(g.pool.Size(), n))
}

// trainGroup is TrainTogether with the options o; TrainFor is trainGroup
// of one run.
func trainGroup(ctx context.Context, runs []*Run, n int, o together) error {
	if err := sharesBatches(runs); err != nil {
		return err
	}
	g := &group{runs: slices.DeleteFunc(slices.Clone(runs), (*Run).Done)}
	start := time.Now()
	if len(g.runs) == 0 {
		return nil
	}
	lead := g.runs[0]
	B := lead.engine.MaxBatch()
	nTrain := len(lead.trainIdx)
	g.L = (nTrain + B - 1) / B
	doneAtStart := lead.state.Epoch
	for _, r := range g.runs {
		if err := r.begin(); err != nil {
			return err
		}
	}
	ckpt := "" // where the group's state is saved, for the messages
	if o.owner != nil {
		ckpt = o.owner.CheckpointPath
		if ckpt != "" && doneAtStart == 0 {
			// The starting state, so that a failure in the first epoch
			// still leaves a good checkpoint.
			if err := o.owner.SaveCheckpoint(ckpt); err != nil {
				return err
			}
		}
	}
	cores := cmp.Or(o.cores, goruntime.GOMAXPROCS(0))
	g.pool = workers.New(min(len(g.runs)+1, cores), g.work)
	defer g.pool.Stop()
	g.ds, g.labels = lead.x, lead.Task.yTrain
	if lead.ws.x == nil { // the batch's buffers: the lead's serve the group
		lead.ws.x, lead.ws.y = make([]float64, B*lead.shape.Features), make([]int, B)
	}
	for e := doneAtStart; n < 0 || e < doneAtStart+n; e++ {
		g.runs = slices.DeleteFunc(g.runs, (*Run).Done)
		if len(g.runs) == 0 {
			break
		}
		g.e = e
		for _, r := range g.runs {
			r.setThreads(coreShare(cores, len(g.runs)))
			r.beginEpoch(e)
		}
		perm := g.runs[0].ws.perm // every run's, since they share the batch order
		// With fewer runs than cores, a worker of its own gathers the next
		// batch's rows during each step (the kernels may still split their
		// products between all the cores): gathering a shuffled batch
		// waits on memory, 16% of a Connect-4 8/10 epoch.
		// Runs that finish leave the group, so prefetching may start in
		// any epoch.
		prefetch := len(g.runs) < cores
		if prefetch && lead.ws.nx == nil { // the next batch's buffers
			lead.ws.nx, lead.ws.ny = make([]float64, len(lead.ws.x)), make([]int, len(lead.ws.y))
		}
		x, y, nx, ny := lead.ws.x, lead.ws.y, lead.ws.nx, lead.ws.ny
		for b := 0; b < g.L; b++ {
			if err := ctx.Err(); err != nil {
				if o.owner != nil {
					return o.owner.interrupted(e)
				}
				err := g.runs[0].interrupted(e, b)
				for _, r := range g.runs[1:] { // each saves its own
					err = errors.Join(err, r.interrupted(e, b))
				}
				return err
			}
			rows := perm[b*B : min((b+1)*B, nTrain)]
			if b == 0 || !prefetch {
				g.x, g.y = g.ds.Gather(x, rows), pick(y, g.labels, rows)
			} else { // gathered during the last step
				g.x, g.y = x[:len(rows)*g.ds.Features], y[:len(rows)]
			}
			g.b, g.endOfEpoch, g.next = b, false, nil
			if prefetch && b+1 < g.L {
				g.next, g.nx, g.ny = perm[(b+1)*B:min((b+2)*B, nTrain)], nx, ny
			}
			g.each()
			if g.next != nil {
				x, nx, y, ny = nx, x, ny, y
			}
			for _, r := range g.runs {
				if err := r.afterStep(e, b, g.L, start, doneAtStart, cmp.Or(r.CheckpointPath, ckpt)); err != nil {
					return groupError(runs, r, err)
				}
			}
		}
		g.endOfEpoch = true
		g.each()
		for _, r := range g.runs {
			if r.ep.err != nil {
				return groupError(runs, r, r.ep.err)
			}
		}
		if ckpt != "" {
			if err := o.owner.SaveCheckpoint(ckpt); err != nil {
				return err
			}
		}
		for _, r := range g.runs { // on this goroutine, in order
			r.reportEpoch(g.L, start)
		}
	}
	return nil
}

// begin readies a run's buffers and takes its starting state from the
// engine, once per run (TrainFor may be called every epoch, and each
// epoch's end takes the state again), and saves that state.
func (r *Run) begin() error {
	if r.ws.perm == nil {
		r.ws.noise, r.ws.perm = make([]float64, 2*r.shape.States()*r.shape.Nodes), make([]int, len(r.trainIdx))
		if err := r.snapshot(); err != nil {
			return err
		}
	}
	if r.CheckpointPath != "" && r.state.Epoch == 0 {
		// The starting state, so that a failure in the first epoch still
		// leaves a good checkpoint.
		return r.SaveCheckpoint(r.CheckpointPath)
	}
	return nil
}

// beginEpoch sets the engine's temperature and mode for epoch e and draws
// the epoch's batch order.
func (r *Run) beginEpoch(e int) {
	r.ep = epoch{t0: time.Now(), tau: r.temperature(e), straight: r.straightThrough(e), lastVal: -1}
	if r.ep.straight {
		r.ep.tau = 1
	}
	r.engine.SetStraightThrough(r.ep.straight)
	r.engine.SetTemperature(r.ep.tau)
	perm := r.ws.perm
	copy(perm, r.trainIdx)
	r.shuffle.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	if done := len(r.state.Records); done > 0 {
		r.ep.lastVal = r.state.Records[done-1].ValAcc
	}
}

// step trains the run on batch b of L of epoch e, rows x, labels y.
func (r *Run) step(x []float64, y []int, e, b, L int) {
	// Dirty tau (spec section 3): Gumbel noise fades out linearly.
	var nz []float64
	// The draw happens whatever the flag, so that both settings consume
	// the noise stream alike. With Patience the run's length is not known
	// in advance: the noise fades over Config.Epochs, its bound.
	if u := r.noise.Float64(); r.Config.Gumbel != "off" && !(u < float64(e*L+b)/float64(r.Config.Epochs*L)) {
		gumbel(r.ws.noise, r.noise)
		nz = r.ws.noise
		r.ep.gumbel++
	}
	r.ep.lp = r.engine.TrainStep(x, y, nz, r.learningRate(e, b, L))
}

// afterStep checks the step's loss, adds it to the epoch's and reports
// progress; ckpt is where the run's last good state is saved, if anywhere.
func (r *Run) afterStep(e, b, L int, start time.Time, doneAtStart int, ckpt string) error {
	lp := r.ep.lp
	if math.IsNaN(lp.Total) || math.IsInf(lp.Total, 0) {
		saved := "no checkpoint was requested (--checkpoint FILE keeps one)"
		if ckpt != "" {
			saved = fmt.Sprintf("%s holds the last good state (after epoch %d)", ckpt, r.state.Epoch)
		}
		return fmt.Errorf("epoch %d, batch %d: the loss is %v (bce %v, leaf term %v); %s; start again with a lower --lr", e+1, b+1, lp.Total, lp.BCE, lp.Leaf, saved)
	}
	sum := &r.ep.sum
	sum.BCE += lp.BCE
	sum.Leaf += lp.Leaf
	sum.Node += lp.Node
	sum.Total += lp.Total
	sum.LeafMass += lp.LeafMass
	r.ep.correct += lp.Correct
	if r.Progress != nil {
		E := r.planned()
		nb := float64(b + 1)
		el := time.Since(start)
		doneBatches := float64((e-doneAtStart)*L + b + 1)
		eta := time.Duration(float64(el) / doneBatches * float64((E-e)*L-b-1))
		r.Progress(Progress{Epoch: e + 1, Epochs: E, Batch: b + 1, Batches: L,
			Loss:       LossParts{BCE: sum.BCE / nb, Leaf: sum.Leaf / nb, Node: sum.Node / nb, Total: sum.Total / nb, LeafMass: sum.LeafMass / nb},
			LastValAcc: r.ep.lastVal, Elapsed: el, ETA: eta})
	}
	return nil
}

// endOfEpoch records epoch e (of L batches): its losses, its validation,
// the best epoch, the checkpoint and the progress report. Its error goes
// to r.ep.err.
func (r *Run) endOfEpoch(e, L int) {
	E := r.planned()
	sum, fl := r.ep.sum, float64(L)
	rec := runlog.EpochRecord{Epoch: e + 1, BCE: sum.BCE / fl, Leaf: sum.Leaf / fl, Node: sum.Node / fl,
		Total: sum.Total / fl, LeafMass: sum.LeafMass / fl, Gumbel: float64(r.ep.gumbel) / fl, Batches: L,
		Straight: r.ep.straight, TrainAcc: float64(r.ep.correct) / float64(len(r.trainIdx))}
	r.state.Epoch = e + 1
	if r.ep.err = r.endEpoch(&rec); r.ep.err != nil {
		return
	}
	if r.OnEpoch != nil {
		r.OnEpoch(&rec, &Params{Shape: r.shape, Flat: r.state.Params})
	}
	rec.Seconds = time.Since(r.ep.t0).Seconds()
	r.state.Records = append(r.state.Records, rec)
	if r.CheckpointPath != "" {
		if r.ep.err = r.SaveCheckpoint(r.CheckpointPath); r.ep.err != nil {
			return
		}
	}
	r.ep.planned = E
}

// reportEpoch reports the epoch just recorded to Progress.
func (r *Run) reportEpoch(L int, start time.Time) {
	if r.Progress == nil {
		return
	}
	rec := &r.state.Records[len(r.state.Records)-1]
	r.Progress(Progress{Epoch: rec.Epoch, Epochs: r.ep.planned, Batch: L, Batches: L,
		Loss:       LossParts{BCE: rec.BCE, Leaf: rec.Leaf, Node: rec.Node, Total: rec.Total, LeafMass: rec.LeafMass},
		LastValAcc: rec.ValAcc, Elapsed: time.Since(start), EpochDone: true, Record: rec})
}

// groupError is err of run r, named among runs when there are several.
func groupError(runs []*Run, r *Run, err error) error {
	if len(runs) == 1 {
		return err
	}
	c := r.Config
	return fmt.Errorf("graph %d of %d (%d nodes, %d steps, lr %g, weight decay %g, restart %d): %w",
		slices.Index(runs, r)+1, len(runs), c.Nodes, c.Steps, c.LR, c.WeightDecay, c.Restart, err)
}
