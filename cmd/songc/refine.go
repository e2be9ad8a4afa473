package main

import (
	"fmt"
	"io"
	"time"

	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer"
	"github.com/songc/songc/trainer/data"
)

// RefineCmd fine-tunes a trained model's hard walk.
type RefineCmd struct {
	Model     string  `short:"m" required:"" placeholder:"MODEL" help:"Model written by songc train."`
	Data      string  `placeholder:"FILE" help:"The training data the model was trained on (its validation split is rebuilt from the model's seed). Without --data, the embedded Letter data."`
	Test      string  `placeholder:"FILE" help:"Test data, only reported (never used to choose)."`
	Output    string  `short:"o" required:"" placeholder:"MODEL" help:"Where to write the refined model (JSON)."`
	Passes    int     `default:"10" help:"At most this many passes over the graph; refining stops earlier when a pass changes nothing or two passes in a row do not raise the hard walk's validation accuracy."`
	Ridge     float64 `default:"0.01" help:"L2 weight on a node's filter when it is refitted, on the inputs as the model sees them (standardised when it was trained with --standardize)."`
	Polish    bool    `help:"After each logistic refit, move the node's weights and bias one at a time to the value that routes the most rows right (exact line searches of the count, as in OC1). It fits the training rows better but did not generalise better in docs/RESULTS.md; slower, off by default."`
	Quiet     bool    `short:"q" help:"No progress output."`
	DataFlags `embed:""`
}

// Help implements kong.HelpProvider.
func (RefineCmd) Help() string {
	return `A hard-routing fine-tune of the classifier that compiles: the hard walk's node
filters, argmax children and forced exits are refitted, node by node, and unused
nodes are put where they help, so that its accuracy on the model's training rows
never falls (alternating optimisation in
the manner of TAO, Carreira-Perpinan and Tavallali 2018; see docs/RESULTS.md).
The pass with the best hard-walk validation accuracy is kept, the model as given
included; the soft model changes too and is reported, but the hard walk is what
is optimised. The same is available at the end of training as songc train --refine.

Example:
  songc refine -m c4.json --data ../shared/data/connect4/train.csv.gz \
      --test ../shared/data/connect4/test.csv.gz -o c4-refined.json`
}

func (c *RefineCmd) Run(g *Globals) error {
	if c.Passes < 1 {
		return usagef("--passes must be at least 1, got %d", c.Passes)
	}
	m, err := runtime.Load(c.Model)
	if err != nil {
		return err
	}
	if err := checkWritable(c.Output); err != nil {
		return err
	}
	task, err := loadTask(c.Data, c.Test, c.DataFlags)
	if err != nil {
		return err
	}
	start := time.Now()
	out, err := refine(g, m, task, trainer.RefineConfig{Passes: c.Passes, Ridge: c.Ridge, Polish: c.Polish}, c.Quiet)
	if err != nil {
		return err
	}
	if err := out.Save(c.Output); err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "model: %s; %s\n", c.Output, time.Since(start).Round(time.Second))
	return reportTest(g, out, task.Test)
}

// loadTask reads the training data (the embedded Letter data without a
// path) and the optional test data of refine and select.
func loadTask(train, test string, f DataFlags) (*trainer.Task, error) {
	tr, ts, err := loadTrainData(trainArgs{Data: train, Test: test, Header: f.Header, LabelCol: f.LabelCol, Demo: train == ""})
	if err != nil {
		return nil, err
	}
	return trainer.NewTask(tr, ts)
}

// refine runs trainer.Refine with a line of progress per pass on stderr.
func refine(g *Globals, m *runtime.Model, task *trainer.Task, cfg trainer.RefineConfig, quiet bool) (*runtime.Model, error) {
	var progress func(trainer.RefinePass)
	if !quiet {
		fmt.Fprintf(g.Stderr, "songc: refining the hard walk on the model's training rows, at most %d passes\n", cfg.Passes)
		progress = func(p trainer.RefinePass) { printRefinePass(g.Stderr, p) }
	}
	return trainer.Refine(g.Ctx, m, task, cfg, progress)
}

func printRefinePass(w io.Writer, p trainer.RefinePass) {
	line := fmt.Sprintf("refine pass %d  hard train %.2f%%  val %.2f%%", p.Pass, 100*p.TrainAcc, 100*p.ValAcc)
	if p.TestAcc > 0 {
		line += fmt.Sprintf("  test %.2f%%", 100*p.TestAcc)
	}
	if p.Pass > 0 {
		line += fmt.Sprintf("  (%d filters, %d routes changed, %d nodes inserted)  %.1fs", p.Filters, p.Routes, p.Grown, p.Seconds)
	}
	fmt.Fprintln(w, line)
}

// reportTest prints the model's test accuracies, in float64 by the runtime.
func reportTest(g *Globals, m *runtime.Model, test *data.Dataset) error {
	if test == nil {
		return nil
	}
	k, err := runtime.New(m)
	if err != nil {
		return err
	}
	y, err := test.Targets(m.ClassNames)
	if err != nil {
		return err
	}
	met := k.Evaluate(test.X, y)
	fmt.Fprintf(g.Stdout, "test (%s, %d rows): soft accuracy %.2f%%, hard-walk accuracy %.2f%%, fidelity %.2f%%\n",
		test.Name, met.Rows, 100*met.SoftAccuracy, 100*met.HardAccuracy, 100*met.Fidelity)
	return nil
}
