package trainer

import (
	"context"
	"fmt"
	"github.com/songc/songc/runlog"
)

// MaxRestarts bounds NewRestarts' k.
const MaxRestarts = 64

// Restarts trains graphs Restart, Restart+1, ..., Restart+k-1 of one
// recipe and seed (Config.Restart: other initial parameters and noise,
// the same validation split and batch order) side by side on shared
// batches (TrainTogether), and keeps the best by the recipe's validation
// score: the authors' graphs trained in one pass, with the choice made on
// validation rows. Each graph is the run it would be alone.
type Restarts struct {
	Runs []*Run
	// CheckpointPath, when set, receives every graph's state after every
	// epoch; InterruptPath receives it when training is interrupted and
	// CheckpointPath is empty. Args is kept in it (the CLI's data paths).
	CheckpointPath, InterruptPath string
	Args                          []byte
}

// CheckRestarts says what is wrong with training k restarts of cfg
// together, from restart cfg.Restart on; nil when nothing is.
func CheckRestarts(cfg Config, k int) error {
	switch {
	case k < 1 || k > MaxRestarts:
		return fmt.Errorf("--restarts must be in [1, %d], got %d", MaxRestarts, k)
	case cfg.Restart+k-1 > runlog.MaxRestart:
		return fmt.Errorf("--restart %d --restarts %d goes past the last restart, %d", cfg.Restart, k, runlog.MaxRestart)
	case k > 1 && cfg.Val == 0:
		return fmt.Errorf("--restarts %d keeps the graph that does best on the validation rows; --val 0 leaves none", k)
	}
	return nil
}

// NewRestarts prepares k graphs of cfg, from restart cfg.Restart on. It
// needs validation rows, on which the best is chosen.
func NewRestarts(cfg Config, task *Task, k int) (*Restarts, error) {
	if err := CheckRestarts(cfg, k); err != nil {
		return nil, err
	}
	rs := &Restarts{}
	for i := range k {
		c := cfg
		c.Restart += i
		r, err := NewRun(c, task)
		if err != nil {
			return nil, err
		}
		if err := rs.add(r, k); err != nil {
			return nil, err
		}
	}
	return rs, nil
}

// add adds graph r of k, checking when it is the first that the memory
// holds all k (each run checks its own alone), before the others are
// made.
func (rs *Restarts) add(r *Run, k int) error {
	if len(rs.Runs) == 0 {
		if err := checkMemory(r.shape, r.engine.MaxBatch(), r.Task.Train.Rows, k); err != nil {
			return err
		}
	}
	rs.Runs = append(rs.Runs, r)
	return nil
}

// ResumeRestarts continues the graphs saved in c (a checkpoint of
// Restarts, or of a single run) on the same data.
func ResumeRestarts(c *Checkpoint, task *Task) (*Restarts, error) {
	rs := &Restarts{Args: c.Args}
	for i, st := range append([]runState{c.state}, c.others...) {
		cfg := c.Config
		cfg.Restart += i
		r, err := restoreRun(cfg, task, c.Args, st, c.Path)
		if err != nil {
			return nil, err
		}
		if err := rs.add(r, c.Graphs()); err != nil {
			return nil, err
		}
	}
	rs.Runs[0].Search = c.search
	return rs, nil
}

// Train trains every graph to its end.
func (rs *Restarts) Train(ctx context.Context) error {
	return trainGroup(ctx, rs.Runs, -1, together{owner: rs})
}

// Best returns the graph with the best validation score (Run.BestScore),
// the first of equal ones.
func (rs *Restarts) Best() *Run {
	best := rs.Runs[0]
	for _, r := range rs.Runs[1:] {
		if r.BestScore() > best.BestScore() {
			best = r
		}
	}
	return best
}

// SaveCheckpoint writes every graph's state at the last epoch boundary to
// path atomically; LoadCheckpoint reads it and ResumeRestarts continues it.
// The graphs must be restarts Restart, Restart+1, ... of the first
// graph's configuration, as NewRestarts makes them.
func (rs *Restarts) SaveCheckpoint(path string) error {
	for i, r := range rs.Runs[1:] {
		want := rs.Runs[0].Config
		want.Restart += i + 1
		if r.Config != want {
			return fmt.Errorf("trainer: graph %d is not restart %d of graph 1's configuration", i+2, want.Restart)
		}
	}
	return saveRuns(path, rs.Args, rs.Runs)
}

// interrupted saves the graphs where the interrupted epoch e began and
// returns the error saying where.
func (rs *Restarts) interrupted(e int) error {
	return saveInterrupted(rs.CheckpointPath, rs.InterruptPath, rs.SaveCheckpoint, fmt.Sprintf("in epoch %d", e+1),
		&InterruptError{Epoch: e + 1, EpochsDone: e, Graphs: len(rs.Runs)})
}
