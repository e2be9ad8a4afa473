package trainer

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	goruntime "runtime"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/songc/songc/runlog"
)

// Search is the plan of songc's default recipe for data nobody has tuned
// for: it chooses the graph size, the learning rate and the weight decay
// on the validation rows, by successive halving (Jamieson and Talwalkar,
// AISTATS 2016; Li et al., "Hyperband", JMLR 2018), and the number of
// epochs by Patience.
//
// Every candidate is a Run of Base with one size, rate and decay. All
// train Rungs[0] epochs; the best 1/Eta by validation score go on to
// Rungs[1], and so on, until one is left, which trains to its end (its
// plateau and decay). Since a Run trained in pieces equals one trained at
// once, a survivor is the run it would have been alone, and the search
// costs about Eta·log_Eta(candidates) full runs of the smallest graphs.
// Ties go to the candidate listed first: smaller graphs, lower rates.
type Search struct {
	Base         Config
	Sizes        [][2]int // graph sizes (nodes, steps), smallest first
	LRs          []float64
	WeightDecays []float64
	Eta          int // 1/Eta of the candidates survive each cut
	FirstRung    int // epochs before the first cut
	// Derived says which of FirstRung and Base's Patience and Epochs
	// DefaultSearch derived from the training rows the validation share
	// leaves, rather than a caller giving them: a second pass on another
	// share (AimSE) derives those again, and keeps the others.
	Derived Derived
	// Budget bounds the search's wall time: once it is spent, the
	// candidates are cut to the best one so far, and that one ends its
	// constant-rate phase at once; its decay runs until a quarter more
	// than the budget is spent, and the best epoch so far is kept.
	// 0: no bound.
	Budget time.Duration
	// Progress, when set, is called when a candidate has trained to a
	// rung, with its record so far.
	Progress func(SearchProgress)
	// Each, when set, is called with every candidate's run when it is
	// made (to measure its epochs, say).
	Each func(*Run)
	// Chosen, when set, is called with the chosen candidate's run before
	// it trains to its end, to set its checkpoint, progress and log.
	Chosen func(*Run)
	// CheckpointPath, when set, receives the search's state after every
	// candidate's rung; InterruptPath receives it when the search is
	// interrupted and CheckpointPath is empty. Args is kept in it (the
	// CLI's data paths).
	CheckpointPath, InterruptPath string
	Args                          []byte
	// Parallel is how many candidates train at once, each on its own
	// goroutine (0: GOMAXPROCS). It changes no result: a candidate trains
	// the same whatever runs beside it.
	Parallel int
	// AimSE, when above 0, is the standard error the validation rows
	// should measure the best candidate's accuracy with. When, at the last
	// cut, the best finalist's score p on the validation rows has a
	// standard error sqrt(p(1-p)/n) above AimSE and a larger share
	// (AimedValShare) holds more rows, the search runs again, once, on
	// that share, with Pilot recording the first pass; it does not when
	// the budget cut the first pass or the first pass took more than half
	// of the budget. The budget counts both passes.
	AimSE float64
	// Pilot is the first pass of a search that runs again (nil in the
	// first pass).
	Pilot *runlog.Pilot
	// Again, when set, is called with the second pass's plan before it
	// starts.
	Again func(*Search)
}

func (s *Search) parallel() int {
	if s.Parallel > 0 {
		return s.Parallel
	}
	return goruntime.GOMAXPROCS(0)
}

// SearchProgress reports one candidate at one rung.
type SearchProgress struct {
	Rung, Rungs int // 0-based rung, and how many there are
	Index, Of   int // candidate index among Of
	Alive       int // candidates in this rung
	Candidate   runlog.Candidate
	Best        runlog.Candidate // best so far in this rung
	Elapsed     time.Duration
}

// DefaultSearch returns the default recipe's plan for task, each candidate
// being base (PresetConfig("auto") with the user's other options) with its
// own size, rate and decay:
// graphs from 16 nodes and 8 steps to 128 nodes and 30 steps, rates 0.01,
// 0.03 and 0.1, weight decay 0 and 0.01, a third surviving each cut. The
// first cut comes after about 500 batches (3 to 30 epochs), patience is
// about 2000 batches (8 to 40 epochs), and Epochs, which only bounds a
// run, is 10 times the patience, at least 120.
func DefaultSearch(task *Task, base Config) Search {
	val := base.Val
	rows := task.Train.Rows - int(math.Round(val*float64(task.Train.Rows)))
	batches := max(1, (rows+base.Batch-1)/base.Batch) // per epoch
	perEpoch := func(b, lo, hi int) int { return min(hi, max(lo, (b+batches-1)/batches)) }
	base.Patience = perEpoch(2000, 8, 40)
	base.Epochs = max(120, 10*base.Patience)
	return Search{
		Base:         base,
		Sizes:        slices.Clone(DefaultSizes),
		LRs:          []float64{0.01, 0.03, 0.1},
		WeightDecays: []float64{0, 0.01},
		Eta:          3,
		FirstRung:    perEpoch(500, 3, 30),
		Derived:      Derived{FirstRung: true, Patience: true, Epochs: true},
	}
}

// Derived marks the counts of a Search that DefaultSearch derived.
type Derived struct{ FirstRung, Patience, Epochs bool }

// DefaultSizes are the graph sizes (nodes, steps) the default recipe
// searches, smallest first.
var DefaultSizes = [][2]int{{16, 8}, {32, 10}, {64, 20}, {128, 30}}

// DefaultValShare is the validation share of the auto recipe for a
// training file of rows rows: enough rows to tell candidates apart, about
// 60, within 0.1 and 0.3. The accuracy measured on n rows has a standard
// error of up to 1/(2 sqrt(n)): 12 points on the 17 validation rows that a
// share of 0.1 leaves of 170, 6 points on 60 rows.
func DefaultValShare(rows int) float64 {
	if rows <= 0 {
		return 0.1
	}
	return min(0.3, max(0.1, 60/float64(rows)))
}

// DefaultAimSE is the auto recipe's Search.AimSE: 3.5 points, which takes
// about 200 validation rows where the accuracy is near 50%, 160 near 80%
// and fewer than the default 60 above 95%.
const DefaultAimSE = 0.035

// StdErr is the standard error of an accuracy p measured on n rows,
// sqrt(p(1-p)/n).
func StdErr(p float64, n int) float64 {
	return math.Sqrt(max(0, p*(1-p)) / float64(max(1, n)))
}

// AimedValShare is the validation share that measures an accuracy near p
// on a training file of rows rows with a standard error of at most se:
// p(1-p)/se² rows, within DefaultValShare(rows) and 0.3.
func AimedValShare(rows int, p, se float64) float64 {
	if rows <= 0 || se <= 0 {
		return DefaultValShare(rows)
	}
	return min(0.3, max(DefaultValShare(rows), p*(1-p)/(se*se)/float64(rows)))
}

// Candidates returns the configurations the search tries, in its order.
func (s *Search) Candidates() []Config {
	var out []Config
	for _, size := range s.Sizes {
		for _, lr := range s.LRs {
			for _, wd := range s.WeightDecays {
				c := s.Base
				c.Nodes, c.Steps, c.LR, c.WeightDecay = size[0], size[1], lr, wd
				out = append(out, c)
			}
		}
	}
	return out
}

// Rungs returns the epochs at which candidates are cut: FirstRung, then
// Eta times more each time, until one candidate is left.
func (s *Search) Rungs() []int {
	n, e := len(s.Candidates()), s.FirstRung
	var out []int
	for n > 1 {
		out = append(out, e)
		n = (n + s.Eta - 1) / s.Eta
		e *= s.Eta
	}
	return out
}

// Validate reports a plan that cannot run.
func (s *Search) Validate() error {
	switch {
	case len(s.Sizes) == 0 || len(s.LRs) == 0 || len(s.WeightDecays) == 0:
		return fmt.Errorf("search: no candidates")
	case s.Eta < 2:
		return fmt.Errorf("search: eta must be at least 2, got %d", s.Eta)
	case s.FirstRung < 1:
		return fmt.Errorf("search: the first rung must be at least 1 epoch, got %d", s.FirstRung)
	case s.Base.Patience < 1:
		return fmt.Errorf("search: the base recipe needs a patience")
	case s.AimSE < 0 || math.IsNaN(s.AimSE):
		return fmt.Errorf("search: the aimed standard error must be 0 or more, got %v", s.AimSE)
	}
	for _, c := range s.Candidates() {
		if err := CheckConfig(&c); err != nil {
			return err
		}
	}
	return nil
}

// Ready reports why the search cannot run on task: a plan that cannot run
// (Validate), or a validation split that holds no rows, with its cause.
func (s *Search) Ready(task *Task) error {
	if err := s.Validate(); err != nil {
		return err
	}
	val := s.Base.Val // every candidate's split
	if task.ValRows(val) > 0 {
		return nil
	}
	notLabel := func(which string) string {
		return "a label with a distinct value in " + which + " is an identifier or a measurement, not classes: check that the label column is the one meant (--label-col names it)"
	}
	var why string
	switch n, rows := len(task.ClassNames), task.Train.Rows; {
	case slices.Max(task.ClassCounts()) < 2:
		why = fmt.Sprintf("each of the %d classes has a single row, and a class needs two rows to hold one out; %s", n, notLabel("every row"))
	case MostlySingle(n, rows):
		why = fmt.Sprintf("the %d rows hold %d classes, each too small to hold a row out at %.0f%% (most have a single row); %s", rows, n, 100*val, notLabel("most rows"))
	default:
		why = fmt.Sprintf("the stratified split of the %d rows (%.0f%% of each class, rounded, keeping at least one row of each class to train on) holds none; "+
			"train on more rows, raise --val, or use a recipe that chooses nothing (--preset fast)", rows, 100*val)
	}
	return fmt.Errorf("%s: the auto recipe chooses among its candidates on validation rows, but %s", task.Train.Name, why)
}

// Run searches on task and returns the chosen candidate's run, trained to
// its end, and the search's record (also set as the run's Search, so that
// its model carries it).
func (s *Search) Run(ctx context.Context, task *Task) (*Run, *runlog.Search, error) {
	return s.Resume(ctx, task, nil)
}

// Resume is Run continuing from a checkpoint of the search (nil: from the
// start). The result equals that of a search run without interruption,
// unless the time budget cut it.
func (s *Search) Resume(ctx context.Context, task *Task, ck *SearchCheckpoint) (*Run, *runlog.Search, error) {
	if err := s.Ready(task); err != nil {
		return nil, nil, err
	}
	cfgs := s.Candidates()
	st, runs, err := s.start(task, cfgs, ck)
	if err != nil {
		return nil, nil, err
	}
	rec := &st.Record
	start := time.Now().Add(-st.Spent)
	over := func() bool { return s.Budget > 0 && time.Since(start) > s.Budget }
	// save writes the search's state, the candidates' at their last
	// epoch boundary, to path.
	save := func(path string) error {
		st.Spent = time.Since(start)
		st.Runs = make(map[int]runState)
		for i, r := range runs {
			if r != nil {
				st.Runs[i] = r.state
			}
		}
		return s.saveCheckpoint(path, &st)
	}
	for ; st.Rung < len(rec.Rungs) && !rec.Cut; st.Rung, st.Next = st.Rung+1, 0 {
		target := rec.Rungs[st.Rung]
		for st.Next < len(st.Alive) && !rec.Cut {
			// The next candidates train side by side, one goroutine each;
			// each is the run it would be alone.
			group := st.Alive[st.Next:min(len(st.Alive), st.Next+s.parallel())]
			for _, i := range group {
				if runs[i] == nil {
					r, err := NewRun(cfgs[i], task)
					if err != nil {
						return nil, nil, err
					}
					if s.Each != nil {
						s.Each(r)
					}
					runs[i] = r
				}
			}
			errs, took, cut := trainSideBySide(ctx, runs, group, target, over)
			for g, i := range group {
				if err := errs[g]; err != nil {
					if errors.Is(err, ErrInterrupted) {
						return nil, nil, s.interrupted(save, runs[i])
					}
					return nil, nil, err
				}
			}
			first := st.Next
			for g, i := range group {
				rec.Cut = rec.Cut || cut[g]
				c := &rec.Candidates[i]
				c.Epochs, c.Score = runs[i].EpochsDone(), runs[i].BestScore()
				c.Seconds += took[g].Seconds()
			}
			st.Next += len(group) // saved past the group: a resumed search goes on from the next
			if s.CheckpointPath != "" {
				if err := save(s.CheckpointPath); err != nil {
					return nil, nil, err
				}
			}
			for g, i := range group {
				if s.Progress != nil {
					k := first + g
					s.Progress(SearchProgress{Rung: st.Rung, Rungs: len(rec.Rungs), Index: k, Of: len(st.Alive), Alive: len(st.Alive),
						Candidate: rec.Candidates[i], Best: rec.Candidates[leader(rec.Candidates, st.Alive[:k+1])], Elapsed: time.Since(start)})
				}
			}
		}
		st.Alive = s.survivors(rec.Candidates, st.Alive, runs)
		for i := range runs { // the cut candidates' memory goes back
			if runs[i] != nil && !slices.Contains(st.Alive, i) {
				runs[i] = nil
			}
		}
		if rec.Cut {
			st.Alive = st.Alive[:1]
		}
	}
	if again := s.again(task, rec, time.Since(start)); again != nil {
		clear(runs) // their memory goes back before the second pass
		return again.Resume(ctx, task, nil)
	}
	chosen := st.Alive[0]
	r := runs[chosen]
	if r == nil { // no rung ran: the budget was spent before the first
		var err error
		if r, err = NewRun(cfgs[chosen], task); err != nil {
			return nil, nil, err
		}
		runs[chosen] = r
	}
	rec.Chosen = chosen
	r.Search = rec
	if s.Chosen != nil {
		s.Chosen(r)
	}
	if err := s.finish(ctx, r, &rec.Candidates[chosen], start); err != nil {
		return nil, nil, err
	}
	return r, rec, nil
}

// again returns the plan of the search's second pass when its first, which
// has cut its candidates to one and spent spent, calls for one (AimSE),
// or nil. When one is called for but the first pass took more than half
// of the budget, it records that in rec (NoTimeAgain) and returns nil.
func (s *Search) again(task *Task, rec *runlog.Search, spent time.Duration) *Search {
	if s.AimSE <= 0 || s.Pilot != nil || rec.Cut {
		return nil
	}
	best := 0.0 // the best finalist's: the earlier cuts kept the best
	for _, c := range rec.Candidates {
		best = max(best, c.Score)
	}
	n0 := task.ValRows(s.Base.Val)
	val := AimedValShare(task.Train.Rows, best, s.AimSE)
	if n1 := task.ValRows(val); StdErr(best, n0) <= s.AimSE || n1 <= n0 {
		return nil
	}
	if s.Budget > 0 && spent > s.Budget/2 {
		rec.NoTimeAgain = true
		return nil
	}
	t := s.withVal(task, val)
	t.Pilot = &runlog.Pilot{Val: s.Base.Val, ValRows: n0, Best: best, Seconds: spent.Seconds()}
	if s.Again != nil {
		s.Again(&t)
	}
	return &t
}

// withVal returns the search s on validation share val. Its first rung,
// patience and epochs, where DefaultSearch derived them (Derived), are
// derived again for val, since they count batches of the training rows
// that remain.
func (s *Search) withVal(task *Task, val float64) Search {
	t := *s
	t.Base.Val = val
	now := DefaultSearch(task, t.Base)
	if t.Derived.FirstRung {
		t.FirstRung = now.FirstRung
	}
	if t.Derived.Patience {
		t.Base.Patience = now.Base.Patience
	}
	if t.Derived.Epochs {
		t.Base.Epochs = now.Base.Epochs
	}
	return t
}

// leader returns the candidate of ids with the best score, ties to the
// lower index.
func leader(cands []runlog.Candidate, ids []int) int {
	best := ids[0]
	for _, j := range ids {
		if c, b := cands[j], cands[best]; c.Score > b.Score || (c.Score == b.Score && j < best) {
			best = j
		}
	}
	return best
}

// trainSideBySide trains the runs of group, one goroutine each, to target
// epochs (or their end), epoch by epoch so that the budget (over) cuts
// them within an epoch of its end; a run trained in pieces equals one
// trained at once. It returns each run's error, wall time and whether the
// budget cut it.
func trainSideBySide(ctx context.Context, runs []*Run, group []int, target int, over func() bool) (errs []error, took []time.Duration, cut []bool) {
	errs, took, cut = make([]error, len(group)), make([]time.Duration, len(group)), make([]bool, len(group))
	var wg sync.WaitGroup
	for g, i := range group {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t0 := time.Now()
			cores := coreShare(goruntime.GOMAXPROCS(0), len(group)) // the candidates share the cores
			for r := runs[i]; r.EpochsDone() < target && !r.Done(); {
				if over() {
					cut[g] = true
					break
				}
				if errs[g] = trainGroup(ctx, []*Run{r}, 1, together{cores: cores}); errs[g] != nil {
					break
				}
			}
			took[g] = time.Since(t0)
		}()
	}
	wg.Wait()
	return errs, took, cut
}

// finish trains the chosen run to its end within the budget counted from
// start, and adds its time to c (Run.Model records its epochs and score,
// so that a run resumed from its own checkpoint records them too).
func (s *Search) finish(ctx context.Context, r *Run, c *runlog.Candidate, start time.Time) error {
	t0 := time.Now()
	for !r.Done() {
		if s.Budget > 0 && time.Since(start) > s.Budget*5/4 {
			r.Search.Cut = true // the best epoch so far is kept
			break
		}
		if s.Budget > 0 && time.Since(start) > s.Budget && r.state.StableEpochs == 0 {
			r.Search.Cut = true
			r.state.StableEpochs = max(1, r.state.Epoch) // decay from here
		}
		if err := r.TrainFor(ctx, 1); err != nil {
			return err
		}
	}
	c.Seconds += time.Since(t0).Seconds()
	return nil
}

// start returns the search's state and its candidates' runs: restored
// from ck, or new when ck is nil.
func (s *Search) start(task *Task, cfgs []Config, ck *SearchCheckpoint) (searchState, []*Run, error) {
	st := searchState{}
	runs := make([]*Run, len(cfgs))
	if ck == nil {
		by := s.Base.Select // what BestScore measures
		if by == "" {
			by = "soft"
		}
		st.Record = runlog.Search{By: by, Rungs: s.Rungs(), Candidates: make([]runlog.Candidate, len(cfgs)), Budget: s.Budget.Seconds(), Pilot: s.Pilot}
		if s.Pilot != nil { // the budget counts the first pass too
			st.Spent = time.Duration(s.Pilot.Seconds * float64(time.Second))
		}
		for i, c := range cfgs {
			st.Record.Candidates[i] = runlog.Candidate{Nodes: c.Nodes, Steps: c.Steps, LR: c.LR, WeightDecay: c.WeightDecay}
		}
		st.Alive = make([]int, len(cfgs))
		for i := range st.Alive {
			st.Alive[i] = i
		}
		return st, runs, nil
	}
	st = ck.state // LoadSearchCheckpoint checked its positions against the plan
	st.Alive = slices.Clone(st.Alive)
	st.Record.Candidates = slices.Clone(st.Record.Candidates)
	st.Record.Rungs = slices.Clone(st.Record.Rungs)
	for _, i := range slices.Sorted(maps.Keys(st.Runs)) {
		r, err := restoreRun(cfgs[i], task, nil, st.Runs[i], ck.Path)
		if err != nil {
			return st, nil, err
		}
		if s.Each != nil {
			s.Each(r)
		}
		runs[i] = r
	}
	return st, runs, nil
}

// interrupted saves the search where an interrupted candidate left it (its
// state at its last epoch boundary) and returns the error saying where.
func (s *Search) interrupted(save func(string) error, r *Run) error {
	return saveInterrupted(s.CheckpointPath, s.InterruptPath, save, "during the search",
		&InterruptError{Epoch: r.state.Epoch + 1, EpochsDone: r.state.Epoch, Search: true})
}

// survivors returns the best 1/Eta of alive (at least one) by score, ties
// to the lower index; candidates that have no run yet (the budget ran out
// before their turn) are dropped unless none has one.
//
// The last cut, to one candidate, takes the first in the plan's order
// (smaller graphs, lower rates) whose score is within one standard error
// of the best: the one-standard-error rule of Breiman et al.
// (Classification and Regression Trees, 1984, section 3.4.3). A maximum
// over many noisy scores overstates the best; on a few dozen validation
// rows candidates a standard error apart are not told apart, and the
// simpler one is kept. The standard error of an accuracy p on n rows is
// sqrt(p(1-p)/n), which is 0 at p = 1: there, where a perfect score on a
// few dozen rows would keep the largest graph over one a row behind, it is
// Agresti and Coull's (The American Statistician, 1998), with two rows
// right and two wrong added: sqrt(q(1-q)/(n+4)), q = (n+2)/(n+4).
func (s *Search) survivors(cands []runlog.Candidate, alive []int, runs []*Run) []int {
	ranked := make([]int, 0, len(alive))
	for _, i := range alive {
		if runs[i] != nil {
			ranked = append(ranked, i)
		}
	}
	if len(ranked) == 0 {
		return alive[:1]
	}
	sort.SliceStable(ranked, func(a, b int) bool {
		ca, cb := cands[ranked[a]], cands[ranked[b]]
		if ca.Score != cb.Score {
			return ca.Score > cb.Score
		}
		return ranked[a] < ranked[b]
	})
	keep := (len(alive) + s.Eta - 1) / s.Eta
	if keep > 1 {
		return ranked[:min(keep, len(ranked))]
	}
	best, rows := cands[ranked[0]].Score, runs[ranked[0]].ValRows()
	var se float64
	if best < 1 {
		se = StdErr(best, rows)
	} else {
		n := float64(max(1, rows))
		q := (n + 2) / (n + 4)
		se = math.Sqrt(q * (1 - q) / (n + 4))
	}
	first := ranked[0]
	for _, i := range ranked {
		if cands[i].Score >= best-se && i < first {
			first = i
		}
	}
	return []int{first}
}
