package trainer

import (
	"encoding/json"

	"github.com/songc/songc/runlog"
	"github.com/songc/songc/runtime"
)

// Model returns the model of the selected epoch with its metadata.
func (r *Run) Model(version string) (*runtime.Model, error) {
	m := r.export(r.state.BestParams, r.state.BestTemp).Model(r.Task.ClassNames)
	m.InputShift, m.InputScale = r.shift, r.scale
	meta := runlog.Metadata{Songc: version, Config: r.Config.Canonical(), Kernel: r.kernel,
		TrainRows: len(r.trainIdx), ValRows: len(r.valIdx), DataSHA256: r.state.Fingerprint,
		BestEpoch: r.state.BestEpoch}
	meta.Epochs = r.state.Epoch
	if t := r.state.BestTemp; r.Config.Anneal > 0 && t != 0 && t != 1 {
		meta.Temperature = t
	}
	if i := r.state.BestEpoch - 1; i >= 0 && i < len(r.state.Records) {
		meta.ValAccuracy = r.state.Records[i].ValAcc
		meta.TestAccuracy = r.state.Records[i].TestAcc
	}
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

// hardAccuracy is the hard walk's accuracy on the validation rows (and on
// the test rows, when there are any) for the current parameters at
// temperature tau, computed by the runtime in float64 on the raw rows,
// exactly as the saved model would be.
func (r *Run) hardAccuracy(tau float64) (val, test float64) {
	m := r.export(r.state.Params, tau).Model(r.Task.ClassNames)
	m.InputShift, m.InputScale = r.shift, r.scale
	k, err := runtime.New(m)
	if err != nil {
		return 0, 0 // non-finite parameters: the loss check reports them
	}
	scratch := make([]float64, k.NumFeatures())
	correct := 0
	for _, i := range r.valIdx {
		if res, _ := k.Walk(r.Task.Train.Row(i), scratch, nil); res.Class == r.Task.yTrain[i] {
			correct++
		}
	}
	if len(r.valIdx) > 0 {
		val = float64(correct) / float64(len(r.valIdx))
	}
	if ts := r.Task.Test; ts != nil && ts.Rows > 0 {
		correct = 0
		for i := 0; i < ts.Rows; i++ {
			if res, _ := k.Walk(ts.Row(i), scratch, nil); res.Class == r.Task.yTest[i] {
				correct++
			}
		}
		test = float64(correct) / float64(ts.Rows)
	}
	return val, test
}
