package trainer

import (
	"bufio"
	"encoding/gob"
	"fmt"
	"io"
	"os"

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

// LoadCheckpoint reads a checkpoint file.
func LoadCheckpoint(path string) (*Checkpoint, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	magic := make([]byte, len(checkpointMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != checkpointMagic {
		return nil, fmt.Errorf("%s: not a songc checkpoint (want a file written by songc train --checkpoint)", path)
	}
	var cf checkpointFile
	if err := gob.NewDecoder(br).Decode(&cf); err != nil {
		return nil, fmt.Errorf("%s: checkpoint is truncated or corrupt: %v", path, err)
	}
	if err := cf.Config.Validate(); err != nil {
		return nil, fmt.Errorf("%s: checkpoint holds an invalid configuration: %v", path, err)
	}
	return &Checkpoint{Path: path, Config: cf.Config, Args: cf.Args, search: cf.Search, state: cf.State}, nil
}

// ResumeRun continues the run saved in c on the same data (checked by its
// fingerprint). The result equals that of an uninterrupted run.
func ResumeRun(c *Checkpoint, task *Task) (*Run, error) {
	r := &Run{Config: c.Config, Task: task, Args: c.Args, Search: c.search}
	if err := r.setup(); err != nil {
		return nil, err
	}
	st := c.state
	if st.Fingerprint != task.Fingerprint() {
		return nil, fmt.Errorf("%s: the training data differs from the data the checkpoint was trained on", c.Path)
	}
	np := r.shape.NumParams()
	if len(st.Params) != np || len(st.BestParams) != np || len(st.AdamM) != np || len(st.AdamV) != np {
		return nil, fmt.Errorf("%s: checkpoint parameters do not fit the model shape", c.Path)
	}
	if err := r.shufSrc.UnmarshalBinary(st.ShuffleRNG); err != nil {
		return nil, fmt.Errorf("%s: shuffle state: %v", c.Path, err)
	}
	if err := r.noiseSrc.UnmarshalBinary(st.NoiseRNG); err != nil {
		return nil, fmt.Errorf("%s: noise state: %v", c.Path, err)
	}
	r.engine.SetParams(st.Params)
	r.engine.SetOptState(st.AdamM, st.AdamV, st.AdamStep)
	r.state = st
	return r, nil
}
