package trainer

import (
	"bufio"
	"encoding/gob"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/songc/songc/runlog"
	"github.com/songc/songc/runtime"
)

// checkpointMagic starts every checkpoint file; its last digit is the
// format version.
const checkpointMagic = "songc-checkpoint/1\n"

// checkpointFile is the gob payload of a checkpoint.
type checkpointFile struct {
	Config Config
	Args   []byte
	State  runState
	Search *runlog.Search // the search that chose this run, if one did
}

// SaveCheckpoint writes the state at the last epoch boundary to path
// atomically: the previous file survives any failure.
func (r *Run) SaveCheckpoint(path string) error {
	return runtime.WriteFileAtomic(path, func(w io.Writer) error {
		return r.writeCheckpoint(w)
	})
}

func (r *Run) writeCheckpoint(w io.Writer) error {
	bw := bufio.NewWriter(w)
	if _, err := bw.WriteString(checkpointMagic); err != nil {
		return err
	}
	if err := gob.NewEncoder(bw).Encode(checkpointFile{Config: r.Config, Args: r.Args, State: r.state, Search: r.Search}); err != nil {
		return err
	}
	return bw.Flush()
}

// Checkpoint is a decoded checkpoint file.
type Checkpoint struct {
	Path   string
	Config Config
	Args   []byte
	search *runlog.Search
	state  runState
}

// EpochsDone returns the number of epochs the checkpoint holds.
func (c *Checkpoint) EpochsDone() int { return c.state.Epoch }

// readCheckpoint decodes the gob payload v of the file at path, which
// must start with magic; what names the kind of file in errors.
func readCheckpoint(path, magic, what string, v any) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	got := make([]byte, len(magic))
	if _, err := io.ReadFull(br, got); err != nil || string(got) != magic {
		return fmt.Errorf("%s: not a songc %s (want a file written by songc train --checkpoint)", path, what)
	}
	if err := gob.NewDecoder(br).Decode(v); err != nil {
		return fmt.Errorf("%s: checkpoint is truncated or corrupt: %v", path, err)
	}
	return nil
}

// LoadCheckpoint reads a checkpoint file.
func LoadCheckpoint(path string) (*Checkpoint, error) {
	var cf checkpointFile
	if err := readCheckpoint(path, checkpointMagic, "checkpoint", &cf); err != nil {
		return nil, err
	}
	if err := cf.Config.Validate(); err != nil {
		return nil, fmt.Errorf("%s: checkpoint holds an invalid configuration: %v", path, err)
	}
	return &Checkpoint{Path: path, Config: cf.Config, Args: cf.Args, search: cf.Search, state: cf.State}, nil
}

// ResumeRun continues the run saved in c on the same data (checked by its
// fingerprint). The result equals that of an uninterrupted run.
func ResumeRun(c *Checkpoint, task *Task) (*Run, error) {
	r, err := restoreRun(c.Config, task, c.Args, c.state, c.Path)
	if err != nil {
		return nil, err
	}
	r.Search = c.search
	return r, nil
}

// restoreRun makes the run of cfg on task in state st, checking that st
// fits them; path names the checkpoint in errors.
func restoreRun(cfg Config, task *Task, args []byte, st runState, path string) (*Run, error) {
	r := &Run{Config: cfg, Task: task, Args: args}
	if err := r.setup(); err != nil {
		return nil, err
	}
	if st.Fingerprint != task.Fingerprint() {
		return nil, fmt.Errorf("%s: the training data differs from the data the checkpoint was trained on", path)
	}
	np := r.shape.NumParams()
	if len(st.Params) != np || len(st.BestParams) != np || len(st.AdamM) != np || len(st.AdamV) != np {
		return nil, fmt.Errorf("%s: checkpoint parameters do not fit the model shape", path)
	}
	if err := r.shufSrc.UnmarshalBinary(st.ShuffleRNG); err != nil {
		return nil, fmt.Errorf("%s: shuffle state: %v", path, err)
	}
	if err := r.noiseSrc.UnmarshalBinary(st.NoiseRNG); err != nil {
		return nil, fmt.Errorf("%s: noise state: %v", path, err)
	}
	r.engine.SetParams(st.Params)
	r.engine.SetOptState(st.AdamM, st.AdamV, st.AdamStep)
	r.state = st
	return r, nil
}

// searchMagic starts every search checkpoint; its last digit is the
// format version.
const searchMagic = "songc-search/1\n"

// searchState is where a search stands: the rung in progress and the
// position in Alive of the next candidate to train, the record so far, the
// state of every candidate that has a run, and the wall time spent.
type searchState struct {
	Rung, Next int
	Alive      []int
	Record     runlog.Search
	Runs       map[int]runState
	Spent      time.Duration
}

// searchFile is the gob payload of a search checkpoint.
type searchFile struct {
	Plan  searchPlan
	Args  []byte
	State searchState
}

// searchPlan is what of a Search a checkpoint keeps: everything but its
// callbacks and paths.
type searchPlan struct {
	Base         Config
	Sizes        [][2]int
	LRs          []float64
	WeightDecays []float64
	Eta          int
	FirstRung    int
	Budget       time.Duration
}

func (s *Search) saveCheckpoint(path string, st *searchState) error {
	return runtime.WriteFileAtomic(path, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		if _, err := bw.WriteString(searchMagic); err != nil {
			return err
		}
		f := searchFile{Plan: searchPlan{s.Base, s.Sizes, s.LRs, s.WeightDecays, s.Eta, s.FirstRung, s.Budget}, Args: s.Args, State: *st}
		if err := gob.NewEncoder(bw).Encode(f); err != nil {
			return err
		}
		return bw.Flush()
	})
}

// SearchCheckpoint is a decoded search checkpoint.
type SearchCheckpoint struct {
	Path   string
	Search Search // the plan, without callbacks or paths
	Args   []byte
	state  searchState
}

// IsSearchCheckpoint reports whether the file at path is a search
// checkpoint (and not a run's).
func IsSearchCheckpoint(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	magic := make([]byte, len(searchMagic))
	_, err = io.ReadFull(f, magic)
	return err == nil && string(magic) == searchMagic
}

// LoadSearchCheckpoint reads a search checkpoint; Search.Resume continues
// it.
func LoadSearchCheckpoint(path string) (*SearchCheckpoint, error) {
	var sf searchFile
	if err := readCheckpoint(path, searchMagic, "search checkpoint", &sf); err != nil {
		return nil, err
	}
	p := sf.Plan
	c := &SearchCheckpoint{Path: path, Args: sf.Args, state: sf.State,
		Search: Search{Base: p.Base, Sizes: p.Sizes, LRs: p.LRs, WeightDecays: p.WeightDecays, Eta: p.Eta, FirstRung: p.FirstRung, Budget: p.Budget}}
	if err := c.Search.Validate(); err != nil {
		return nil, fmt.Errorf("%s: checkpoint holds an invalid search: %v", path, err)
	}
	if err := c.check(); err != nil {
		return nil, fmt.Errorf("%s: checkpoint holds an invalid search: %v", path, err)
	}
	return c, nil
}

// check reports a search state that does not fit its plan: every index a
// state holds must name one of the plan's candidates, once.
func (c *SearchCheckpoint) check() error {
	st, n := &c.state, len(c.Search.Candidates())
	switch {
	case len(st.Record.Candidates) != n:
		return fmt.Errorf("%d candidates recorded, the plan has %d", len(st.Record.Candidates), n)
	case !slices.Equal(st.Record.Rungs, c.Search.Rungs()):
		return fmt.Errorf("rungs %v, the plan's are %v", st.Record.Rungs, c.Search.Rungs())
	case st.Rung < 0 || st.Rung > len(st.Record.Rungs) || len(st.Alive) == 0 || st.Next < 0 || st.Next > len(st.Alive):
		return fmt.Errorf("position rung %d, candidate %d of %d is out of range", st.Rung, st.Next, len(st.Alive))
	case st.Record.Chosen < 0 || st.Record.Chosen >= n:
		return fmt.Errorf("chosen candidate %d is out of range", st.Record.Chosen)
	}
	seen := make([]bool, n)
	for _, i := range st.Alive {
		if i < 0 || i >= n || seen[i] {
			return fmt.Errorf("candidate %d is out of range or listed twice", i)
		}
		seen[i] = true
	}
	for i := range st.Runs {
		if i < 0 || i >= n {
			return fmt.Errorf("candidate %d is out of range", i)
		}
	}
	return nil
}
