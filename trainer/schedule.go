package trainer

import (
	"math"
)

// straightThrough reports whether epoch e (0-based) is one of the last
// StraightThrough share of the epochs, which train the hard walk.
func (r *Run) straightThrough(e int) bool {
	return r.Config.StraightThrough > 0 && e >= r.Config.Epochs-r.Config.StraightEpochs()
}

// planned returns the epochs the run trains: Config.Epochs, or with
// Patience the constant-rate epochs and their decay once the plateau is
// found (Config.Epochs, the bound, until then).
func (r *Run) planned() int {
	if r.Config.Patience == 0 || r.state.StableEpochs == 0 {
		return r.Config.Epochs
	}
	return r.state.StableEpochs + r.decayEpochs()
}

// decayEpochs is the length of the decay phase that follows the
// constant-rate phase with Patience: Anneal/(1-Anneal) times its epochs,
// so that the decay is the Anneal share of the whole run, at least 1, and
// never past Config.Epochs.
func (r *Run) decayEpochs() int {
	a := r.Config.Anneal
	if a <= 0 {
		return 0
	}
	d := max(1, int(math.Round(a/(1-a)*float64(r.state.StableEpochs))))
	return max(0, min(d, r.Config.Epochs-r.state.StableEpochs))
}

// watchPlateau ends the constant-rate phase (Patience) after an epoch
// whose hard-walk validation accuracy was acc, when the accuracy has not
// risen for Patience epochs or the phase has reached its bound.
func (r *Run) watchPlateau(acc float64) {
	st := &r.state
	if acc > st.PlateauBest {
		st.PlateauBest, st.SinceBest = acc, 0
	} else {
		st.SinceBest++
	}
	bound := r.Config.Epochs - int(math.Round(r.Config.Anneal*float64(r.Config.Epochs)))
	if st.SinceBest >= r.Config.Patience || st.Epoch >= bound {
		st.StableEpochs = st.Epoch
	}
}

// temperature returns tau for epoch e (0-based): 1, then during the last
// Anneal share of the epochs a geometric fall to AnnealTemp, reached in the
// last epoch.
func (r *Run) temperature(e int) float64 {
	cfg := r.Config
	if cfg.Anneal <= 0 {
		return 1
	}
	if cfg.Patience > 0 {
		s := r.state.StableEpochs
		if s == 0 || e < s {
			return 1
		}
		return math.Pow(cfg.AnnealTemp, float64(e-s+1)/float64(r.decayEpochs()))
	}
	E := cfg.Epochs
	k := int(math.Round(cfg.Anneal * float64(E))) // annealed epochs
	e0 := E - k
	if k < 1 || e < e0 {
		return 1
	}
	return math.Pow(cfg.AnnealTemp, float64(e-e0+1)/float64(k))
}

// learningRate returns the learning rate of batch b of epoch e, of L
// batches each.
func (r *Run) learningRate(e, b, L int) float64 {
	if r.Config.Patience == 0 {
		return r.scheduledRate(e*L+b, r.Config.Epochs*L)
	}
	s := r.state.StableEpochs
	if s == 0 || e < s {
		return r.Config.LR
	}
	i, n := (e-s)*L+b, r.decayEpochs()*L
	return r.Config.LR * 0.5 * (1 + math.Cos(math.Pi*float64(i)/float64(n)))
}

// scheduledRate returns the learning rate of batch i of n in a run of a
// fixed length; with StraightLR the straight-through epochs start their own
// schedule at it.
func (r *Run) scheduledRate(i, n int) float64 {
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
