package trainer

import (
	"fmt"
	"slices"

	"github.com/songc/songc/runlog"
	"github.com/songc/songc/runtime"
)

// Config is the recipe of a run (runlog.Config): declared beside the
// metadata that records it, so that readers of model files need not
// import the trainer.
type Config = runlog.Config

// DefaultConfig returns the authors' defaults (spec section 3) with a small
// graph.
func DefaultConfig() Config {
	return Config{Nodes: 64, Steps: 20, Epochs: 250, Batch: 128, LR: 1e-3, Seed: 1, Precision: "f32", Val: 0.1,
		AnnealTemp: 0.1} // used only with Anneal > 0
}

// Presets names the training recipes of PresetConfig.
var Presets = []string{"auto", "paper", "fast", "quick"}

// PresetConfig returns the configuration of a named recipe, with the
// default graph (64 nodes, 20 steps):
//
//   - "paper": the authors' recipe (DefaultConfig): raw inputs, Adam at
//     1e-3, batch 128, 250 epochs, dirty-tau Gumbel noise.
//   - "fast": the recipe that reaches the paper's accuracies in fewer
//     epochs (docs/RESULTS.md): standardised inputs, batch 64, Adam at
//     0.03 on a cosine schedule, 120 epochs, the last 20% of them annealed
//     to temperature 0.4, and the epoch chosen by the hard walk's
//     validation accuracy, since the hard walk is what compiles.
//   - "quick": "fast" in 60 epochs, the embedded demo's default.
//   - "auto": the recipe of each candidate of the default search
//     (DefaultSearch): "fast" with a constant rate until the hard walk's
//     validation accuracy stalls for Patience epochs, then a decay and
//     annealing a quarter as long; of epochs with the same validation
//     score, the one with the lower validation loss is kept (Ties).
//     DefaultSearch sets its patience and bound from the data.
func PresetConfig(name string) (Config, error) {
	c := DefaultConfig()
	switch name {
	case "paper":
	case "auto":
		c, _ = PresetConfig("fast")
		c.LRSchedule, c.Patience, c.Ties = "", 10, "loss"
	case "fast", "quick":
		c.Standardize = true
		c.Batch, c.LR, c.LRSchedule = 64, 0.03, "cosine"
		c.Epochs = 120
		c.Anneal, c.AnnealTemp, c.Select = 0.2, 0.4, "hard"
		if name == "quick" {
			c.Epochs = 60
		}
	default:
		return c, fmt.Errorf("unknown preset %q (want auto, paper, fast or quick)", name)
	}
	return c, nil
}

// CheckConfig reports options that cannot train on this machine: those
// Config.Validate refuses, a graph larger than the model format allows, and
// a kernel the CPU lacks.
func CheckConfig(c *Config) error {
	if err := c.Validate(); err != nil {
		return err
	}
	switch {
	case c.Nodes > runtime.MaxNodes || c.Steps > runtime.MaxSteps:
		return fmt.Errorf("--nodes and --steps must be at most %d", runtime.MaxNodes)
	case slices.Contains(PackedKernels, c.Kernel) && (!HasPacked(c.Kernel) || c.Precision == "f64"):
		needs := map[string]string{"avx512": "AVX-512F", "avx2": "AVX2 and FMA"}[c.Kernel]
		return fmt.Errorf("--kernel %s needs a CPU with %s and --precision f32", c.Kernel, needs)
	}
	return nil
}
