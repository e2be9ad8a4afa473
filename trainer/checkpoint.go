package trainer

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"time"

	"github.com/songc/songc/runlog"
	"github.com/songc/songc/runtime"
)

// checkpointMagic starts every checkpoint file; its last digit is the
// format version.
//
// Version 2 ends with the SHA-256 of everything before it, so that a
// damaged file is refused; version 1 (no checksum) still loads, its fields
// range-checked like every checkpoint's.
//
// Version 3 is version 2 holding several graphs (Restarts), so that a
// build that knows one graph per checkpoint refuses it instead of
// resuming its first graph alone.
const (
	checkpointMagic   = "songc-checkpoint/2\n"
	checkpointMagicV1 = "songc-checkpoint/1\n"
	checkpointMagicV3 = "songc-checkpoint/3\n"
)

// checkpointFile is the gob payload of a checkpoint.
type checkpointFile struct {
	Config Config
	Args   []byte
	State  runState
	Search *runlog.Search // the search that chose this run, if one did
	// Others are the states of restarts Config.Restart+1, ... trained
	// together with this one (Restarts); none for a run alone.
	Others []runState
}

// SaveCheckpoint writes the state at the last epoch boundary to path
// atomically: the previous file survives any failure.
func (r *Run) SaveCheckpoint(path string) error { return saveRuns(path, r.Args, []*Run{r}) }

// saveRuns writes the checkpoint of runs (one run, or restarts trained
// together: the first's configuration and the states of all) with args,
// atomically.
func saveRuns(path string, args []byte, runs []*Run) error {
	lead := runs[0]
	f := checkpointFile{Config: lead.Config, Args: args, State: lead.state, Search: lead.Search}
	magic := checkpointMagic
	for _, r := range runs[1:] {
		f.Others = append(f.Others, r.state)
		magic = checkpointMagicV3
	}
	return runtime.WriteFileAtomic(path, func(w io.Writer) error { return writeSummed(w, magic, f) })
}

// writeSummed writes magic, the gob encoding of v, and the SHA-256 of both.
func writeSummed(w io.Writer, magic string, v any) error {
	var b bytes.Buffer
	b.WriteString(magic)
	if err := gob.NewEncoder(&b).Encode(v); err != nil {
		return err
	}
	sum := sha256.Sum256(b.Bytes())
	b.Write(sum[:])
	_, err := w.Write(b.Bytes())
	return err
}

// Checkpoint is a decoded checkpoint file.
type Checkpoint struct {
	Path   string
	Config Config
	Args   []byte
	search *runlog.Search
	state  runState
	others []runState
}

// Graphs returns how many graphs the checkpoint holds: 1 for a run,
// more for restarts trained together (ResumeRestarts continues them).
func (c *Checkpoint) Graphs() int { return 1 + len(c.others) }

// EpochsDone returns the number of epochs the checkpoint holds (of its
// first graph, when it holds several).
func (c *Checkpoint) EpochsDone() int { return c.state.Epoch }

// readCheckpoint decodes the gob payload v of the file at path, which
// must start with magic and end with the SHA-256 of what precedes it (or,
// when legacy is set, start with legacy and have no checksum); what names
// the kind of file in errors.
func readCheckpoint(path, magic, legacy, what string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var payload []byte
	switch {
	case bytes.HasPrefix(b, []byte(magic)):
		n := len(b) - sha256.Size
		if n < len(magic) {
			return fmt.Errorf("%s: checkpoint is truncated", path)
		}
		if sum := sha256.Sum256(b[:n]); !bytes.Equal(sum[:], b[n:]) {
			return fmt.Errorf("%s: checkpoint is damaged: its checksum does not match its content", path)
		}
		payload = b[len(magic):n]
	case legacy != "" && bytes.HasPrefix(b, []byte(legacy)):
		payload = b[len(legacy):]
	default:
		return fmt.Errorf("%s: not a songc %s (want a file written by songc train --checkpoint)", path, what)
	}
	if err := gob.NewDecoder(bytes.NewReader(payload)).Decode(v); err != nil {
		return fmt.Errorf("%s: checkpoint is truncated or corrupt: %v", path, err)
	}
	return nil
}

// LoadCheckpoint reads a checkpoint file.
func LoadCheckpoint(path string) (*Checkpoint, error) {
	var cf checkpointFile
	magic, legacy := checkpointMagic, checkpointMagicV1
	if hasMagic(path, checkpointMagicV3) {
		magic, legacy = checkpointMagicV3, ""
	}
	if err := readCheckpoint(path, magic, legacy, "checkpoint", &cf); err != nil {
		return nil, err
	}
	if (magic == checkpointMagicV3) != (len(cf.Others) > 0) {
		return nil, fmt.Errorf("%s: checkpoint is corrupt: its version does not match the graphs it holds", path)
	}
	if err := cf.Config.Validate(); err != nil {
		return nil, fmt.Errorf("%s: checkpoint holds an invalid configuration: %v", path, err)
	}
	return &Checkpoint{Path: path, Config: cf.Config, Args: cf.Args, search: cf.Search, state: cf.State, others: cf.Others}, nil
}

// ResumeRun continues the run saved in c on the same data (checked by its
// fingerprint). The result equals that of an uninterrupted run.
func ResumeRun(c *Checkpoint, task *Task) (*Run, error) {
	if c.Graphs() > 1 {
		return nil, fmt.Errorf("%s: checkpoint holds %d graphs trained together (ResumeRestarts continues them)", c.Path, c.Graphs())
	}
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
	if err := st.check(cfg, r.shape.NumParams()); err != nil {
		return nil, fmt.Errorf("%s: checkpoint holds %v", path, err)
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
// format version. It ends with the SHA-256 of what precedes it.
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
	Derived      Derived
	Budget       time.Duration
	AimSE        float64
	Pilot        *runlog.Pilot
}

func (s *Search) saveCheckpoint(path string, st *searchState) error {
	plan := searchPlan{Base: s.Base, Sizes: s.Sizes, LRs: s.LRs, WeightDecays: s.WeightDecays, Eta: s.Eta, FirstRung: s.FirstRung,
		Derived: s.Derived, Budget: s.Budget, AimSE: s.AimSE, Pilot: s.Pilot}
	f := searchFile{Plan: plan, Args: s.Args, State: *st}
	return runtime.WriteFileAtomic(path, func(w io.Writer) error { return writeSummed(w, searchMagic, f) })
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
func IsSearchCheckpoint(path string) bool { return hasMagic(path, searchMagic) }

// hasMagic reports whether the file at path starts with magic.
func hasMagic(path, magic string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, len(magic))
	_, err = io.ReadFull(f, b)
	return err == nil && string(b) == magic
}

// LoadSearchCheckpoint reads a search checkpoint; Search.Resume continues
// it.
func LoadSearchCheckpoint(path string) (*SearchCheckpoint, error) {
	var sf searchFile
	if err := readCheckpoint(path, searchMagic, "", "search checkpoint", &sf); err != nil {
		return nil, err
	}
	p := sf.Plan
	c := &SearchCheckpoint{Path: path, Args: sf.Args, state: sf.State,
		Search: Search{Base: p.Base, Sizes: p.Sizes, LRs: p.LRs, WeightDecays: p.WeightDecays, Eta: p.Eta, FirstRung: p.FirstRung, Derived: p.Derived, Budget: p.Budget, AimSE: p.AimSE, Pilot: p.Pilot}}
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

// check reports a state that no run of cfg with np parameters can be in:
// lengths that do not fit, epochs out of their range, non-finite numbers,
// negative second moments.
func (st *runState) check(cfg Config, np int) error {
	switch {
	case len(st.Params) != np || len(st.BestParams) != np || len(st.AdamM) != np || len(st.AdamV) != np:
		return fmt.Errorf("parameters that do not fit the model shape")
	case st.Epoch < 0 || st.Epoch > cfg.Epochs || len(st.Records) != st.Epoch:
		return fmt.Errorf("%d epochs done (%d logged) of %d", st.Epoch, len(st.Records), cfg.Epochs)
	case st.BestEpoch < 0 || st.BestEpoch > st.Epoch || st.StableEpochs < 0 || st.StableEpochs > st.Epoch:
		return fmt.Errorf("best epoch %d or plateau %d beyond the %d epochs done", st.BestEpoch, st.StableEpochs, st.Epoch)
	case st.AdamStep < 0 || st.SinceBest < 0:
		return fmt.Errorf("a negative count (Adam step %d)", st.AdamStep)
	case !finite(st.BestVal) || !finite(st.BestTemp) || st.BestTemp < 0 || !finite(st.PlateauBest):
		return fmt.Errorf("a non-finite or negative score or temperature")
	}
	for _, v := range [][]float64{st.Params, st.BestParams, st.AdamM} {
		if slices.ContainsFunc(v, func(x float64) bool { return !finite(x) }) {
			return fmt.Errorf("non-finite parameters or moments")
		}
	}
	if slices.ContainsFunc(st.AdamV, func(x float64) bool { return !finite(x) || x < 0 }) {
		return fmt.Errorf("negative or non-finite second moments")
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
