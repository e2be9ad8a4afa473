package trainer

import (
	"math"
)

// straightThrough reports whether epoch e (0-based) is one of the last
// StraightThrough share of the epochs, which train the hard walk.
func (r *Run) straightThrough(e int) bool {
	return e >= r.Config.Epochs-r.Config.StraightEpochs()
}

// temperature returns tau for epoch e (0-based): 1, then during the last
// Anneal share of the epochs a geometric fall to AnnealTemp, reached in the
// last epoch.
func (r *Run) temperature(e int) float64 {
	cfg := r.Config
	if cfg.Anneal <= 0 {
		return 1
	}
	E := cfg.Epochs
	k := int(math.Round(cfg.Anneal * float64(E))) // annealed epochs
	e0 := E - k
	if k < 1 || e < e0 {
		return 1
	}
	return math.Pow(cfg.AnnealTemp, float64(e-e0+1)/float64(k))
}

// learningRate returns the learning rate of batch i of n in the run; with
// StraightLR the straight-through epochs start their own schedule at it.
func (r *Run) learningRate(i, n int) float64 {
	lr := r.Config.LR
	if E := r.Config.Epochs; r.Config.StraightLR > 0 && E > 0 {
		// The straight-through epochs are the last k of E, that is the
		// last k*n/E of the n steps.
		k := r.Config.StraightEpochs()
		if s0 := n - k*(n/E); k > 0 && i >= s0 {
			lr, i, n = r.Config.StraightLR, i-s0, n-s0
		}
	}
	if r.Config.LRSchedule != "cosine" {
		return lr
	}
	return lr * 0.5 * (1 + math.Cos(math.Pi*float64(i)/float64(n)))
}
