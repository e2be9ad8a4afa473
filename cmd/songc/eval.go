package main

import (
	"bufio"
	"encoding/json"
	"fmt"

	"github.com/songc/songc/internal/text"
	"github.com/songc/songc/runlog"
	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer/data"
)

// EvalCmd measures a model on labelled data.
type EvalCmd struct {
	ModelArg  `embed:""`
	Data      string `required:"" placeholder:"FILE" group:"data" help:"Labelled rows: CSV (gzip'd or not) or IDX images."`
	JSON      bool   `name:"json" help:"Print the metrics, with both confusion matrices, as JSON."`
	DataFlags `embed:""`
}

func (EvalCmd) Help() string {
	return `Reports, in float64 whatever precision trained the model:
  soft accuracy    of the soft model's class (the largest leaf mass)
  hard accuracy    of the hard walk's class, what compiled code returns
  balanced         the mean over the classes of the share of their rows
                   predicted right, for imbalanced data
  majority class   the accuracy of always predicting the most frequent class
  fidelity         share of rows where the two agree
  mean leaf mass   mass the leaves absorb within the steps (the rest is lost)
  forced exits     rows whose walk hit the step limit
  unseen           rows holding a category no training row had, and in
                   which columns (if any)

A file with a header is matched to the model's columns, its label too, by
name, in any order; --ignore leaves out columns the model does not read
(docs/data.md).

The terms are explained in docs/model.md.

Example:
  songc eval letter.json --data letter-test.csv.gz`
}

func (c *EvalCmd) Run(g *Globals) error {
	k, err := runtime.LoadClassifier(c.Model)
	if err != nil {
		return err
	}
	met, unseen, err := evaluate(g, k, c.Data, c.options(k.Model))
	if err != nil {
		return err
	}
	if c.JSON {
		out := struct {
			Model   string   `json:"model"`
			Data    string   `json:"data"`
			Classes []string `json:"classes"`
			runtime.Metrics
			Unseen  int            `json:"unseen_rows"`
			Columns map[string]int `json:"unseen_by_column,omitempty"`
		}{c.Model, c.Data, k.Model.ClassNames, met, unseen.Rows, unseen.ByName(k.Model.Schema)}
		enc := json.NewEncoder(g.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	w := bufio.NewWriter(g.Stdout)
	fmt.Fprintln(w, modelLine(c.Model, k))
	fmt.Fprintf(w, "data  %s: %s\n", c.Data, text.Count(met.Rows, "row"))
	fmt.Fprintf(w, "soft accuracy      %6.2f%%\n", 100*met.SoftAccuracy)
	fmt.Fprintf(w, "hard accuracy      %6.2f%%\n", 100*met.HardAccuracy)
	fmt.Fprintf(w, "balanced accuracy  soft %.2f%%, hard %.2f%%\n", 100*met.SoftBalanced, 100*met.HardBalanced)
	fmt.Fprintf(w, "majority class     %6.2f%%\n", 100*met.Majority)
	fmt.Fprintf(w, "fidelity           %6.2f%%\n", 100*met.Fidelity)
	fmt.Fprintf(w, "mean leaf mass     %8.4f\n", met.MeanLeafMass)
	fmt.Fprintf(w, "hard path length   mean %.2f, max %d\n", met.MeanPathLen, met.MaxPathLen)
	fmt.Fprintf(w, "forced exits       %d (%.1f%% of rows)\n", met.ForcedExits, 100*float64(met.ForcedExits)/float64(max(1, met.Rows)))
	if unseen.Rows > 0 {
		fmt.Fprintf(w, "unseen categories  %s (%.1f%%) with a value no training row had: %s\n", text.Count(unseen.Rows, "row"), 100*float64(unseen.Rows)/float64(max(1, met.Rows)), unseen.Columns(k.Model.Schema))
	}
	// A model the majority check made constant is no better than its
	// training rows' most frequent class by design: say so.
	meta, _ := runlog.ReadMetadata(k.Model.Training)
	mc := meta.Constant()
	if mc != nil {
		fmt.Fprintln(w, constantNote("the model predicts", mc))
	}
	if b := baselineWarning(met, meta.Select == "balanced", mc != nil); b != "" {
		fmt.Fprintf(w, "warning: %s\n", b)
	}
	if b := softBaselineWarning(met, meta.Select == "balanced", mc != nil); b != "" {
		fmt.Fprintf(w, "warning: %s\n", b)
	}
	if k.NumClasses() <= 12 {
		fmt.Fprintln(w, "hard-walk confusion (rows: true class, columns: predicted):")
		writeConfusion(w, k.Model.ClassNames, met.ConfusionHard)
	}
	return w.Flush()
}

// evaluate measures k on the labelled rows of path, streamed through in
// constant memory whatever the file's size, and counts those with an
// unseen category; rows with a missing label are left out, and said so.
func evaluate(g *Globals, k *runtime.Classifier, path string, opt data.CSVOptions) (met runtime.Metrics, unseen data.UnseenTally, err error) {
	index := data.ClassIndex(k.Model.ClassNames)
	e := k.NewEvaluator()
	var left data.Unlabelled
	_, err = eachRow(g, path, opt, func(st data.Stream) error {
		if !st.Labelled() {
			return fmt.Errorf("%s: has no label column; eval needs labelled rows", path)
		}
		if left.Leave(st) {
			return nil
		}
		y, err := index(st.Label())
		if err != nil {
			return fmt.Errorf("%s:%d: %v", path, st.Line(), err)
		}
		unseen.Add(st)
		e.Add(st.Row(), y)
		return nil
	})
	if err != nil {
		return met, unseen, err
	}
	met = e.Metrics()
	if err := left.Err(path, met.Rows, opt.Schema.Missing); err != nil {
		return met, unseen, err
	}
	if left.Rows > 0 {
		fmt.Fprintln(g.Stderr, noLabelNote(path, left, opt.Schema.Missing))
	}
	return met, unseen, nil
}

// noteColumns says once, on stderr, that a file's columns were matched to
// the model's by name in another order, or read by position below a header
// that was skipped.
func noteColumns(g *Globals, path string, st data.Stream) {
	if st.Reordered() {
		fmt.Fprintln(g.Stderr, reorderedNote(path))
	}
	if st.SkippedHeader() {
		fmt.Fprintln(g.Stderr, skippedHeaderNote(path))
	}
}

func writeConfusion(w *bufio.Writer, names []string, m [][]int) {
	names = printableAll(names)
	width := 6
	for _, n := range names {
		width = max(width, len(n)+1)
	}
	fmt.Fprintf(w, "%*s", width, "")
	for _, n := range names {
		fmt.Fprintf(w, "%*s", width, n)
	}
	fmt.Fprintln(w)
	for i, row := range m {
		fmt.Fprintf(w, "%*s", width, names[i])
		for _, v := range row {
			fmt.Fprintf(w, "%*d", width, v)
		}
		fmt.Fprintln(w)
	}
}

// modelLine is the first line eval and analyze print: the model's file and
// its graph's size.
func modelLine(path string, k *runtime.Classifier) string {
	return fmt.Sprintf("model %s: %s, %s, %s", path, text.Count(k.NumNodes(), "node"), text.Count(k.Steps(), "step"), text.Count(k.NumClasses(), "class"))
}
