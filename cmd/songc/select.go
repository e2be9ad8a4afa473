package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer"
)

// SelectCmd keeps the best of several graphs trained on the same split.
type SelectCmd struct {
	Models    []string `arg:"" placeholder:"MODEL" help:"Models trained on the same data with the same --seed and --val (typically --restart 0, 1, 2, ...), refined or not."`
	Output    string   `short:"o" required:"" placeholder:"MODEL" help:"Where to write a copy of the chosen model (byte for byte)."`
	By        string   `enum:"hard,soft" default:"hard" help:"Choose by the validation accuracy of the hard walk, which is what compiles, or of the soft model (${enum})."`
	JSON      bool     `name:"json" help:"Print the candidates and the choice as JSON."`
	Data      string   `placeholder:"FILE" group:"data" help:"The rows the models were trained on; their validation rows are rebuilt from them. Without --data, the embedded Letter data."`
	Test      string   `placeholder:"FILE" group:"data" help:"Test rows: only scored, never used to choose."`
	DataFlags `embed:""`
}

// Help implements kong.HelpProvider.
func (SelectCmd) Help() string {
	return `Measures every model on the validation rows they share (rebuilt from the seed
and share recorded in the models) and copies the best to -o; ties go to the
first listed. This is the authors' protocol of training several graphs and
keeping one, with the choice made on validation rows, not on the test set.
Models with another seed, validation share or training data are refused.
train's --restart, which trains graph R of a seed, is an expert flag: songc
train --help-all lists it.

Example:
  for r in 0 1 2 3 4; do
    songc train --data c4.csv.gz --restart $r -o c4-r$r.json
  done
  songc select c4-r?.json --data c4.csv.gz -o c4.json`
}

// selection is the --json output of songc select.
type selection struct {
	By         string          `json:"by"`
	Selected   string          `json:"selected"`
	Candidates []selectionItem `json:"candidates"`
}

type selectionItem struct {
	Model string `json:"model"`
	trainer.Standing
	// Test is reported only, never used to choose.
	Test *testAccuracy `json:"test,omitempty"`
}

type testAccuracy struct {
	Rows         int     `json:"rows"`
	SoftAccuracy float64 `json:"soft_accuracy"`
	HardAccuracy float64 `json:"hard_accuracy"`
	Fidelity     float64 `json:"fidelity"`
}

func (c *SelectCmd) Run(g *Globals) (err error) {
	raws := make([][]byte, len(c.Models))
	models := make([]*runtime.Model, len(c.Models))
	for i, path := range c.Models {
		var err error
		if raws[i], err = os.ReadFile(path); err != nil {
			return err
		}
		// Decoded from the bytes read, so that the copy written is the
		// model measured.
		if models[i], err = runtime.Decode(bytes.NewReader(raws[i]), path); err != nil {
			return err
		}
	}
	if err := c.checkModelFiles(); err != nil {
		return err
	}
	inputs := dataFiles(c.Data, c.Test)
	for _, path := range c.Models {
		inputs = append(inputs, input{"model", path})
	}
	made, err := checkOutputs([]string{"-o"}, map[string]string{"-o": c.Output}, inputs...)
	if err != nil {
		return err
	}
	defer removeOnError(&err, &made)
	for i, m := range models[1:] {
		if !sameInputs(m, models[0]) {
			return fmt.Errorf("%s and %s read different input columns; select compares models of one training file", c.Models[0], c.Models[i+1])
		}
	}
	task, all, err := loadTask(g, models[0], c.Data, c.Test, c.DataFlags, false, false)
	if err != nil {
		return err
	}
	test := task.Test
	if all == nil && test != nil {
		all = &testRows{test, task.TestTargets()}
	}
	best, cands, err := trainer.Select(models, task, c.By)
	if err != nil {
		return err
	}
	out := selection{By: c.By, Selected: c.Models[best]}
	for i, cand := range cands {
		item := selectionItem{Model: c.Models[i], Standing: cand}
		if test != nil {
			k, err := runtime.New(models[i])
			if err != nil {
				return err
			}
			met := k.Evaluate(all.ds.X, all.y) // trainer.Select checked the classes are the task's
			item.Test = &testAccuracy{met.Rows, met.SoftAccuracy, met.HardAccuracy, met.Fidelity}
		}
		out.Candidates = append(out.Candidates, item)
	}
	if err := writeFile(c.Output, raws[best]); err != nil {
		return err
	}
	if c.JSON {
		enc := json.NewEncoder(g.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	for i, it := range out.Candidates {
		mark := " "
		if i == best {
			mark = "*"
		}
		line := fmt.Sprintf("%s %s  seed %d restart %d  validation (%d rows): soft %.2f%%, hard walk %.2f%%",
			mark, it.Model, it.Seed, it.Restart, it.ValRows, 100*it.SoftVal, 100*it.HardVal)
		if it.Test != nil {
			line += fmt.Sprintf("  test: soft %.2f%%, hard walk %.2f%%", 100*it.Test.SoftAccuracy, 100*it.Test.HardAccuracy)
		}
		fmt.Fprintln(g.Stdout, line)
	}
	what := "hard-walk"
	if c.By == "soft" {
		what = "soft-model"
	}
	fmt.Fprintf(g.Stdout, "model: %s (a copy of %s, the best %s validation accuracy)\n", c.Output, c.Models[best], what)
	return nil
}

// sameInputs reports whether a and b read records alike.
func sameInputs(a, b *runtime.Model) bool {
	ja, _ := json.Marshal(a.Inputs())
	jb, _ := json.Marshal(b.Inputs())
	return bytes.Equal(ja, jb)
}

// checkModelFiles refuses a model listed twice, by any path to it.
func (c *SelectCmd) checkModelFiles() error {
	for i, path := range c.Models {
		for _, earlier := range c.Models[:i] {
			if sameFile(path, earlier) {
				return usagef("%s and %s are the same model file; list each model once", earlier, path)
			}
		}
	}
	return nil
}
