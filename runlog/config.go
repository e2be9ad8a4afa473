package runlog

import (
	"fmt"
	"math"
	"strings"

	"github.com/songc/songc/internal/text"
)

// Config is the recipe of a training run: with the same Config and data the
// trainer writes the same model bytes. A model's Metadata embeds it, in its
// canonical form, so each option is declared here once and flows from the
// flags through training into the model file.
//
// Options beyond the authors' recipe are songc's additions and are off at
// their zero value; docs/model.md explains the terms.
type Config struct {
	// Nodes and Steps are the graph's size: internal nodes n and steps N of
	// the walk. The model file records them itself.
	Nodes int `json:"-"`
	Steps int `json:"-"`
	// Seed seeds every random stream: initialisation, validation split,
	// batch order and Gumbel noise.
	Seed uint64 `json:"seed"`
	// Restart numbers this graph among several trained on the same data
	// and split (songc train --restart, then songc select): it changes the
	// initial parameters, the batch order and the Gumbel noise, never the
	// validation split, which depends on Seed alone, so that the graphs'
	// validation accuracies compare. 0 is a single run.
	Restart   int     `json:"restart,omitempty"`
	Precision string  `json:"precision"` // "f32" or "f64", of training only
	Epochs    int     `json:"epochs"`
	Batch     int     `json:"batch"`
	LR        float64 `json:"lr"`
	// Val is the share of the training rows held out, stratified, to
	// choose the best epoch; 0 keeps the last epoch.
	Val float64 `json:"val"`
	// Standardize shifts and scales every feature to mean 0 and standard
	// deviation 1 over the training rows; the model file records the
	// transformation (input_shift, input_scale) and inference applies it.
	Standardize bool `json:"standardize,omitempty"`
	// Anneal, in [0, 1), is the share of the last epochs during which the
	// temperature of the column softmax and of the node sigmoids falls
	// geometrically from 1 to AnnealTemp, so that the soft model approaches
	// the hard walk it is compiled into. 0 is off.
	Anneal     float64 `json:"anneal,omitempty"`
	AnnealTemp float64 `json:"anneal_temp,omitempty"`
	// Select is "soft" (or empty: validation accuracy of the soft model),
	// "hard" (of the hard walk, what compiled code runs) or "balanced"
	// (the hard walk's balanced accuracy, the mean over the classes of
	// their rows' accuracy, for imbalanced data). With Patience, the
	// plateau is watched on the hard walk's accuracy, or on its balanced
	// accuracy with "balanced".
	Select string `json:"select,omitempty"`
	// Ties is "earlier" (or empty: of epochs with the same validation
	// score, the first is kept) or "loss" (the one whose soft model has the
	// lowest mean log loss on the validation rows).
	Ties string `json:"ties,omitempty"`
	// Patience, when > 0, stops the run's first phase early: the learning
	// rate stays at LR until the hard walk's validation accuracy has not
	// risen for Patience epochs (or until (1-Anneal)·Epochs epochs), and
	// then a decay phase of Anneal/(1-Anneal) times as many epochs lowers
	// it to 0 along a half cosine while the temperature falls to
	// AnnealTemp. The run's length then follows the data; Epochs bounds
	// it, and the Gumbel noise still fades over Epochs. LRSchedule is not
	// used. 0 is off.
	Patience int `json:"patience,omitempty"`
	// LRSchedule is "constant" (or empty) or "cosine": the learning rate
	// falls from LR to 0 along a half cosine over the run's batches.
	LRSchedule string `json:"lr_schedule,omitempty"`
	// Gumbel is "dirty" (or empty: the authors' schedule, noise on a share
	// of batches that falls linearly from 1 to 0 over the run) or "off".
	Gumbel string `json:"gumbel,omitempty"`
	// Init is "paper" (or empty: the authors' range 1/sqrt(d n) for W and
	// b) or "fan-in" (W and b uniform on [-1/sqrt(d), 1/sqrt(d)]).
	Init string `json:"init,omitempty"`
	// WeightDecay, when > 0, shrinks the node filters W by a factor
	// 1 - lr*WeightDecay before every Adam step (AdamW's decoupled decay;
	// biases and transition logits are not decayed).
	WeightDecay float64 `json:"weight_decay,omitempty"`
	// StraightThrough, in [0, 1), is the share of the last epochs that
	// train the hard walk itself: the forward pass routes every row along
	// its walk and the backward pass takes the soft model's derivatives
	// (the straight-through estimator), with the walk's expected error as
	// the loss. These epochs run at temperature 1.
	StraightThrough float64 `json:"straight_through,omitempty"`
	// StraightLR, when > 0, restarts the learning rate at the first
	// straight-through epoch: those epochs fall from StraightLR to 0 along
	// their own half cosine (with the cosine schedule) or keep StraightLR.
	StraightLR float64 `json:"straight_through_lr,omitempty"`
	// NodeRegGamma and NodeRegLambda are the node regularisation's
	// exponent, in [1, 2), and weight (0: off).
	NodeRegGamma  float64 `json:"node_reg_gamma,omitempty"`
	NodeRegLambda float64 `json:"node_reg_lambda,omitempty"`
	// Kernel is "auto" (or empty: the fastest on this machine), "gonum",
	// "avx512" or "avx2". Runs are byte-identical for the same kernel, and
	// avx512 and avx2 train the same parameters; the metadata records the
	// kernel that ran (Metadata.Kernel).
	Kernel string `json:"-"`
}

// Canonical returns c with every option that has no effect reset to its
// zero value: the defaults' spellings ("soft", "earlier", "constant",
// "dirty", "paper") become empty, AnnealTemp is dropped without Anneal, and the node
// regularisation's exponent is dropped without its weight (and is 1 when
// the weight is set and the exponent is not). Two configs that train the
// same model have the same canonical form.
func (c Config) Canonical() Config {
	if c.Anneal <= 0 {
		c.AnnealTemp = 0
	}
	if c.Select == "soft" {
		c.Select = ""
	}
	if c.Ties == "earlier" {
		c.Ties = ""
	}
	if c.LRSchedule != "cosine" || c.Patience > 0 {
		c.LRSchedule = ""
	}
	if c.Gumbel != "off" {
		c.Gumbel = ""
	}
	if c.Init != "fan-in" {
		c.Init = ""
	}
	switch {
	case c.NodeRegLambda == 0:
		c.NodeRegGamma = 0
	case c.NodeRegGamma == 0:
		c.NodeRegGamma = 1
	}
	return c
}

// MaxRestart bounds Config.Restart.
const MaxRestart = 1 << 20

// Validate reports options that cannot train, naming the flag that sets
// each. It does not know the machine: the trainer checks the kernel.
func (c *Config) Validate() error {
	switch {
	case c.Nodes < 1:
		return fmt.Errorf("--nodes must be at least 1, got %d", c.Nodes)
	case c.Steps < 1:
		return fmt.Errorf("--steps must be at least 1, got %d", c.Steps)
	case c.Epochs < 1:
		return fmt.Errorf("--epochs must be at least 1, got %d", c.Epochs)
	case c.Batch < 1:
		return fmt.Errorf("--batch must be at least 1, got %d", c.Batch)
	case !(c.LR > 0) || math.IsInf(c.LR, 0):
		return fmt.Errorf("--lr must be a finite number > 0, got %v", c.LR)
	case !(c.Val >= 0 && c.Val < 1):
		return fmt.Errorf("--val must be in [0, 1), got %v", c.Val)
	case c.Precision != "f32" && c.Precision != "f64":
		return fmt.Errorf("--precision must be f32 or f64, got %q", c.Precision)
	case !(c.Anneal >= 0 && c.Anneal < 1):
		return fmt.Errorf("--anneal must be in [0, 1), got %v", c.Anneal)
	case c.Anneal > 0 && !(c.AnnealTemp > 0 && c.AnnealTemp <= 1):
		return fmt.Errorf("--anneal-temp must be in (0, 1], got %v", c.AnnealTemp)
	case c.Select != "" && c.Select != "soft" && c.Select != "hard" && c.Select != "balanced":
		return fmt.Errorf("--select must be soft, hard or balanced, got %q", c.Select)
	case c.Ties != "" && c.Ties != "earlier" && c.Ties != "loss":
		return fmt.Errorf("--ties must be earlier or loss, got %q", c.Ties)
	case c.Kernel != "" && c.Kernel != "auto" && c.Kernel != "gonum" && c.Kernel != "avx512" && c.Kernel != "avx2":
		return fmt.Errorf("--kernel must be auto, gonum, avx512 or avx2, got %q", c.Kernel)
	case c.LRSchedule != "" && c.LRSchedule != "constant" && c.LRSchedule != "cosine":
		return fmt.Errorf("--lr-schedule must be constant or cosine, got %q", c.LRSchedule)
	case c.Gumbel != "" && c.Gumbel != "dirty" && c.Gumbel != "off":
		return fmt.Errorf("--gumbel must be dirty or off, got %q", c.Gumbel)
	case !(c.StraightThrough >= 0 && c.StraightThrough < 1):
		return fmt.Errorf("--straight-through must be in [0, 1), got %v", c.StraightThrough)
	case !(c.StraightLR >= 0) || math.IsInf(c.StraightLR, 0):
		return fmt.Errorf("--straight-through-lr must be a finite number >= 0, got %v", c.StraightLR)
	case c.StraightLR > 0 && c.StraightThrough == 0:
		return fmt.Errorf("--straight-through-lr needs --straight-through")
	case !(c.WeightDecay >= 0) || math.IsInf(c.WeightDecay, 0):
		return fmt.Errorf("--weight-decay must be a finite number >= 0, got %v", c.WeightDecay)
	case c.Init != "" && c.Init != "paper" && c.Init != "fan-in":
		return fmt.Errorf("--init must be paper or fan-in, got %q", c.Init)
	case c.Patience < 0:
		return fmt.Errorf("--patience must be at least 0, got %d", c.Patience)
	case c.Patience > 0 && c.Val == 0:
		return fmt.Errorf("--patience needs validation rows (--val > 0) to watch")
	case c.Patience > 0 && c.StraightThrough > 0:
		return fmt.Errorf("--patience and --straight-through cannot be combined")
	case c.Restart < 0 || c.Restart > MaxRestart:
		return fmt.Errorf("--restart must be in [0, %d], got %d", MaxRestart, c.Restart)
	}
	return nil
}

// StraightEpochs returns the number of straight-through epochs, the last
// of the run.
func (c Config) StraightEpochs() int {
	return int(math.Round(c.StraightThrough * float64(c.Epochs)))
}

// String describes the recipe in one line, as training's summary prints
// it: the sizes and optimiser first, then each songc option that is on.
func (c Config) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %s; %s, batch %d, lr %g, %s", text.Count(c.Nodes, "node"), text.Count(c.Steps, "step"), c.Precision, c.Batch, c.LR, text.Count(c.Epochs, "epoch"))
	if c.Patience > 0 {
		fmt.Fprintf(&b, " at most (constant lr until the hard walk's validation accuracy stalls for %s, then a cosine decay)", text.Count(c.Patience, "epoch"))
	}
	if c.Restart > 0 {
		fmt.Fprintf(&b, ", graph %d of seed %d", c.Restart, c.Seed)
	}
	if c.Standardize {
		b.WriteString(", standardized inputs")
	}
	if c.LRSchedule == "cosine" && c.Patience == 0 {
		b.WriteString(", cosine lr schedule")
	}
	if c.Gumbel == "off" {
		b.WriteString(", no Gumbel noise")
	}
	if c.Anneal > 0 {
		fmt.Fprintf(&b, ", annealed to temperature %g over the last %g%% of epochs", c.AnnealTemp, 100*c.Anneal)
	}
	if c.WeightDecay > 0 {
		fmt.Fprintf(&b, ", weight decay %g", c.WeightDecay)
	}
	if c.StraightThrough > 0 {
		fmt.Fprintf(&b, ", the hard walk trained straight-through over the last %g%% of epochs", 100*c.StraightThrough)
		if c.StraightLR > 0 {
			fmt.Fprintf(&b, " from lr %g", c.StraightLR)
		}
	}
	if c.NodeRegLambda > 0 {
		fmt.Fprintf(&b, ", node regularisation %g (gamma %g)", c.NodeRegLambda, c.Canonical().NodeRegGamma)
	}
	switch c.Select {
	case "hard":
		b.WriteString(", epoch chosen by the hard walk")
	case "balanced":
		b.WriteString(", epoch chosen by the hard walk's balanced accuracy")
	}
	if c.Ties == "loss" {
		b.WriteString(", ties to the lower validation loss")
	}
	return b.String()
}
