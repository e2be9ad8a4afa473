package trainer

import (
	"errors"
	"fmt"
	"slices"

	"github.com/songc/songc/runlog"
	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer/data"
)

// ModelSplit reads the training metadata of m and rebuilds the rows it was
// fitted on and its validation rows, refusing data other than the model's
// own (by the fingerprint). op names the caller in errors.
func ModelSplit(m *runtime.Model, task *Task, op string) (meta runlog.Metadata, fit, val []int, err error) {
	return splitOf(m, task, task.Fingerprint(), op)
}

// splitOf is ModelSplit with the task's fingerprint already computed.
func splitOf(m *runtime.Model, task *Task, fp, op string) (meta runlog.Metadata, fit, val []int, err error) {
	meta, err = runlog.ReadMetadata(m.Training)
	switch {
	case err == nil && meta.DataSHA256 != "":
	case err == nil || errors.Is(err, runlog.ErrNoMetadata):
		return meta, nil, nil, fmt.Errorf("%s: the model has no training metadata (seed, validation share, data fingerprint); only models written by songc train can be used", op)
	default:
		return meta, nil, nil, fmt.Errorf("%s: %v", op, err)
	}
	if !slices.Equal(m.ClassNames, task.ClassNames) || m.Features != task.Train.Features {
		return meta, nil, nil, fmt.Errorf("%s: %s is not the data the model was trained on: the model has the classes %s and %d features, the file %s and %d; the same training file is needed to rebuild the validation split",
			op, task.Train.Name, data.QuoteList(m.ClassNames, 8), m.Features, data.QuoteList(task.ClassNames, 8), task.Train.Features)
	}
	if !(meta.Val >= 0 && meta.Val < 1) {
		return meta, nil, nil, fmt.Errorf("%s: the model's training metadata holds the validation share %v, not one in [0, 1)", op, meta.Val)
	}
	if fp != meta.DataSHA256 {
		return meta, nil, nil, fmt.Errorf("%s: %s is not the data the model was trained on (its fingerprint differs from the model's data_sha256); the same training file is needed to rebuild the validation split", op, task.Train.Name)
	}
	// The split every run of this seed and share made (Task.prepare).
	p := task.prepare(&Config{Seed: meta.Seed, Val: meta.Val})
	return meta, p.trainIdx, p.valIdx, nil
}

// Standing is one model's standing in Select.
type Standing struct {
	Seed    uint64 `json:"seed"`
	Restart int    `json:"restart"`
	// SoftVal and HardVal are the validation accuracies of the soft model
	// and of the hard walk (the compiled classifier), in float64.
	SoftVal float64 `json:"soft_val_accuracy"`
	HardVal float64 `json:"hard_val_accuracy"`
	ValRows int     `json:"val_rows"`
}

// Select measures models trained on the same data and validation split
// (the same seed and validation share, any restart: Config.Restart) on
// that split and returns the index of the best: by the hard walk's
// validation accuracy when by is "hard", the soft model's when it is
// "soft", the first listed on ties. Models with another split, another
// class list or other data are refused, since their validation accuracies
// would not compare; so are models without a validation split.
//
// This is the authors' protocol of training several graphs and keeping
// one (spec section 3), with the choice made on validation rows instead
// of the test set.
func Select(models []*runtime.Model, task *Task, by string) (best int, cands []Standing, err error) {
	if len(models) == 0 {
		return -1, nil, fmt.Errorf("no models")
	}
	if by != "hard" && by != "soft" {
		return -1, nil, fmt.Errorf("by must be hard or soft, got %q", by)
	}
	fp := task.Fingerprint()
	var first runlog.Metadata
	var x []float64
	var y []int
	for i, m := range models {
		meta, _, val, err := splitOf(m, task, fp, fmt.Sprintf("model %d", i+1))
		if err != nil {
			return -1, nil, err
		}
		if len(val) == 0 {
			return -1, nil, fmt.Errorf("model %d was trained without a validation split (--val 0); there is nothing to select on", i+1)
		}
		if i == 0 {
			first = meta
			x, y = task.ValidationRows(meta.Seed, meta.Val) // splitOf's split, cached
		} else if meta.Seed != first.Seed || meta.Val != first.Val {
			return -1, nil, fmt.Errorf("model %d was trained with seed %d and validation share %v, model 1 with %d and %v: their validation splits differ (train the candidates with the same --seed and --val and different --restart)", i+1, meta.Seed, meta.Val, first.Seed, first.Val)
		}
		k, err := runtime.New(m)
		if err != nil {
			return -1, nil, fmt.Errorf("model %d: %w", i+1, err)
		}
		met := k.Evaluate(x, y)
		cands = append(cands, Standing{Seed: meta.Seed, Restart: meta.Restart, SoftVal: met.SoftAccuracy, HardVal: met.HardAccuracy, ValRows: met.Rows})
	}
	score := func(c Standing) float64 {
		if by == "soft" {
			return c.SoftVal
		}
		return c.HardVal
	}
	best = 0
	for i, c := range cands {
		if score(c) > score(cands[best]) {
			best = i
		}
	}
	return best, cands, nil
}
