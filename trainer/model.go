package trainer

import (
	"encoding/json"

	"github.com/songc/songc/runlog"
	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer/data"
)

// Model returns the model of the selected epoch with its metadata.
func (r *Run) Model(version string) (*runtime.Model, error) {
	m := r.export(r.state.BestParams, r.state.BestTemp).Model(r.Task.ClassNames)
	m.InputShift, m.InputScale = r.shift, r.scale
	if s := r.Task.Schema(); s != nil {
		m.Format, m.Schema = runtime.FormatInputs, s
	}
	if s := r.Search; s != nil && s.Chosen >= 0 && s.Chosen < len(s.Candidates) {
		// The chosen candidate is this run: its record is the run's.
		c := &s.Candidates[s.Chosen]
		c.Epochs, c.Score = r.state.Epoch, r.state.BestVal
	}
	meta := runlog.Metadata{Songc: version, Config: r.Config.Canonical(), Kernel: r.kernel,
		TrainRows: len(r.trainIdx), ValRows: len(r.valIdx), DataSHA256: r.state.Fingerprint,
		BestEpoch: r.state.BestEpoch, Search: r.Search}
	meta.Epochs = r.state.Epoch
	if t := r.state.BestTemp; r.Config.Anneal > 0 && t != 0 && t != 1 {
		meta.Temperature = t
	}
	best := r.bestRecord()
	meta.ValAccuracy, meta.TestAccuracy = best.ValAcc, best.TestAcc
	raw, err := json.Marshal(meta)
	if err != nil {
		return nil, err
	}
	m.Training = raw
	return m, m.Validate()
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

// hardAccuracy is the hard walk's accuracy on the validation rows, its
// balanced accuracy there, and its accuracy on the test rows (when there
// are any) for the current parameters at temperature tau, computed by the
// runtime in float64 exactly as the saved model would be. The rows are
// preprocessed once (prepare), with the bits the model's InputShift and
// InputScale give them, so the classifier here has neither.
func (r *Run) hardAccuracy(tau float64) (val, valBalanced, test float64) {
	k, err := runtime.New(r.export(r.state.Params, tau).Model(r.Task.ClassNames))
	if err != nil {
		return 0, 0, 0 // non-finite parameters: the loss check reports them
	}
	if len(r.valIdx) > 0 {
		val, valBalanced = HardAccuracy(k, r.val, r.yVal, nil)
	} else { // --val 0: the walk on every training row, as the log has always said
		val, valBalanced = HardAccuracy(k, r.x, r.Task.yTrain, nil)
	}
	if r.xTest != nil {
		test, _ = HardAccuracy(k, r.xTest, r.Task.yTest, nil)
	}
	return val, valBalanced, test
}

// HardAccuracy returns the share of rows idx of ds (all rows when idx is
// nil) whose hard walk, by k, ends in their class y[i], and the balanced
// accuracy (the mean over the classes present of that share among their
// rows); 0 without rows.
func HardAccuracy(k *runtime.Classifier, ds *data.Dataset, y []int, idx []int) (acc, balanced float64) {
	n := len(idx)
	if idx == nil {
		n = ds.Rows
	}
	if n == 0 {
		return 0, 0
	}
	scratch := make([]float64, k.NumFeatures())
	conf := make([][]int, k.NumClasses()) // [true][predicted], for the balanced accuracy
	for i := range conf {
		conf[i] = make([]int, k.NumClasses())
	}
	correct := 0
	for j := range n {
		i := j
		if idx != nil {
			i = idx[j]
		}
		res, _ := k.Walk(ds.Row(i), scratch, nil)
		conf[y[i]][res.Class]++
		if res.Class == y[i] {
			correct++
		}
	}
	return float64(correct) / float64(n), runtime.BalancedAccuracy(conf)
}
