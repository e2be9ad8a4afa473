package runlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// EpochRecord is one line of the per-epoch log (MODEL.log.jsonl).
type EpochRecord struct {
	Epoch    int     `json:"epoch"`
	BCE      float64 `json:"bce"`
	Leaf     float64 `json:"leaf_term"`
	Node     float64 `json:"node_loss"`
	Total    float64 `json:"total_loss"`
	LeafMass float64 `json:"leaf_mass"`
	Gumbel   float64 `json:"gumbel_share"` // share of batches that used Gumbel noise
	ValAcc   float64 `json:"val_accuracy,omitempty"`
	// ValLoss is the soft model's mean log loss on the validation rows.
	ValLoss    float64 `json:"val_loss,omitempty"`
	HardValAcc float64 `json:"hard_val_accuracy,omitempty"` // the hard walk on the validation rows
	// HardValBalanced is the hard walk's balanced accuracy on the
	// validation rows: the mean over the classes of their rows' accuracy.
	HardValBalanced float64 `json:"hard_val_balanced,omitempty"`
	Temp            float64 `json:"temperature,omitempty"` // tau during the epoch, when annealing
	// Straight marks an epoch trained straight-through: its loss parts
	// are the hard walk's (BCE of one-hot leaf masses, clamped).
	Straight bool    `json:"straight_through,omitempty"`
	TestAcc  float64 `json:"test_accuracy,omitempty"`
	// HardTestAcc is the hard walk (the compiled classifier) on the test
	// rows: reported for the curves, never used to select.
	HardTestAcc float64 `json:"hard_test_accuracy,omitempty"`
	// TrainAcc is the running accuracy on the training rows: each batch's
	// rows whose largest leaf mass was at their class in the step that
	// trained on them (with its noise and temperature, before its update).
	// It costs nothing beyond the steps.
	TrainAcc float64 `json:"train_accuracy"`
	Seconds  float64 `json:"seconds"`
	Best     bool    `json:"best,omitempty"`
	Batches  int     `json:"batches"`
	// Graph holds structure statistics of the binary graph after the
	// epoch, as JSON (analysis.EpochGraph), when the trainer's caller
	// measured them.
	Graph json.RawMessage `json:"graph,omitempty"`
}

// Write writes records as JSON lines.
func Write(w io.Writer, recs []EpochRecord) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for i := range recs {
		if err := enc.Encode(&recs[i]); err != nil {
			return err
		}
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// maxLine bounds a log line; one epoch's record is a few hundred bytes.
const maxLine = 1 << 20

// ReadLog reads a per-epoch log written by Write, naming the file and line
// of any error.
func ReadLog(path string) ([]EpochRecord, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []EpochRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	for line := 1; sc.Scan(); line++ {
		var r EpochRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return out, nil
}

// MatchLog returns an error when recs cannot be the per-epoch log of the
// run m describes: its last epoch is not the m.Epochs the model was
// trained for, or its record of the best epoch does not hold the model's
// validation accuracy. A log written by another run (the model trained
// again elsewhere, or a log given for the wrong model) fails one of the
// two. It checks nothing for a model without training metadata.
func (m Metadata) MatchLog(recs []EpochRecord) error {
	if m.Epochs == 0 {
		return nil
	}
	if len(recs) == 0 {
		return fmt.Errorf("it logs no epoch; the model was trained for %d", m.Epochs)
	}
	if last := recs[len(recs)-1].Epoch; last != m.Epochs {
		return fmt.Errorf("its last epoch is %d; the model was trained for %d", last, m.Epochs)
	}
	if m.BestEpoch < 1 || m.ValAccuracy == 0 {
		return nil
	}
	for _, r := range recs {
		if r.Epoch == m.BestEpoch && r.ValAcc != m.ValAccuracy {
			return fmt.Errorf("its epoch %d scored %.4f%% on the validation rows; the model's, kept from that epoch, scored %.4f%%", r.Epoch, 100*r.ValAcc, 100*m.ValAccuracy)
		}
	}
	return nil
}
