package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/songc/songc/internal/text"
	"github.com/songc/songc/runlog"
	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer"
	"github.com/songc/songc/trainer/data"
	"github.com/songc/songc/trainer/refine"
)

// RefineCmd fine-tunes a trained model's hard walk.
type RefineCmd struct {
	ModelArg  `embed:""`
	Output    string  `short:"o" required:"" placeholder:"MODEL" help:"Where to write the refined model."`
	Passes    int     `default:"10" help:"At most this many passes over the graph; it stops earlier when the hard walk stops improving on the validation rows."`
	Ridge     float64 `default:"0.01" help:"Weight of the L2 penalty on a node's weights when they are refitted."`
	Majority  bool    `name:"majority-check" help:"Keep the refined walk only if it beats always predicting the most frequent class on the validation rows (a one-sided sign test at level ${majority_level}); otherwise save that constant model, with a warning; with fewer than 5 rows that tell the two apart, the one right more often wins (songc train's auto recipe does this)."`
	Quiet     bool    `short:"q" help:"No progress output or notes; warnings stay."`
	Data      string  `placeholder:"FILE" group:"data" help:"The rows the model was trained on; its validation rows are rebuilt from them. Without --data, the embedded Letter data."`
	Test      string  `placeholder:"FILE" group:"data" help:"Test rows: only scored, never used to choose."`
	DataFlags `embed:""`
}

// Help implements kong.HelpProvider.
func (RefineCmd) Help() string {
	return `Node by node, the hard walk's weights, children and exits are refitted on the
model's training rows, and unused nodes are put where they help (in the manner
of TAO, Carreira-Perpinan and Tavallali 2018). The pass whose hard walk does
best on the validation rows is kept, the model as given included. songc train
--refine does the same after training.

Example:
  songc refine c4.json --data connect4-train.csv.gz \
      --test connect4-test.csv.gz -o c4-refined.json`
}

func (c *RefineCmd) Run(g *Globals) (err error) {
	if c.Passes < 1 {
		return usagef("--passes must be at least 1, got %d", c.Passes)
	}
	m, err := runtime.Load(c.Model)
	if err != nil {
		return err
	}
	made, err := checkOutputs([]string{"-o"}, map[string]string{"-o": c.Output}, dataFiles(c.Data, c.Test)...)
	if err != nil {
		return err
	}
	defer removeOnError(&err, &made)
	if c.Majority {
		// Without metadata, refining itself says so below.
		if meta, err := runlog.ReadMetadata(m.Training); err == nil {
			if err := checkMajority(c.Passes, meta.Val, meta.Select, true); err != nil {
				return err
			}
		}
	}
	task, all, err := loadTask(g, m, c.Data, c.Test, c.DataFlags, c.Quiet, !c.Quiet)
	if err != nil {
		return err
	}
	start := time.Now()
	out, err := refineModel(g, m, task, refine.Config{Passes: c.Passes, Ridge: c.Ridge, MajorityCheck: c.Majority}, c.Quiet)
	if err != nil {
		return err
	}
	if err := out.Save(c.Output); err != nil {
		return err
	}
	meta, _ := runlog.ReadMetadata(out.Training)
	var parts []string
	if rm := meta.Refine; rm != nil && len(rm.Log) > 0 && meta.ValRows > 0 {
		parts = append(parts, "refined: "+refinedText(meta.Select, rm))
	}
	if mc := meta.Constant(); mc != nil {
		parts = append(parts, replacedText(mc, judged(meta)))
	}
	outcome := ""
	if parts != nil {
		outcome = " (" + strings.Join(parts, "; ") + ")"
	}
	fmt.Fprintf(g.Stdout, "model: %s%s; %s\n", c.Output, outcome, time.Since(start).Round(time.Second))
	warnConstant(g.Stdout, meta, "Refining without --majority-check")
	if task.Test == nil {
		return nil
	}
	k, err := runtime.New(out)
	if err != nil {
		return err
	}
	reportTest(g, k, task, all, meta, c.Quiet)
	return nil
}

// loadTask reads the training data (the embedded Letter data without a
// path) and the optional test data of refine and select, encoded by m's
// input columns; quiet: -q was given; progress: the command prints
// progress lines with a test accuracy.
func loadTask(g *Globals, m *runtime.Model, train, test string, f DataFlags, quiet, progress bool) (*trainer.Task, *testRows, error) {
	if train == "" {
		tr, ts, err := data.Letter()
		if err != nil {
			return nil, nil, err
		}
		if m.Features != tr.Features || m.Schema != nil {
			return nil, nil, usagef("no --data: the model was trained on other rows than the embedded Letter data, which is read without --data; name its training file with --data")
		}
		task, err := trainer.NewTask(tr, ts)
		return task, nil, err
	}
	tr, err := f.openFor(g, train, m, quiet)
	if err != nil {
		return nil, nil, err
	}
	var ts *data.Dataset
	if test != "" {
		if ts, err = f.openFor(g, test, m, quiet); err != nil {
			return nil, nil, err
		}
	}
	task, err := trainer.NewTask(tr, nil)
	if err != nil {
		return nil, nil, err
	}
	all, err := attachTest(g, task, ts, progress)
	return task, all, err
}

// testRows are the rows of a test file as the final test scores read
// them: every row, in file order, the class of a label that is none of the
// training rows' classes after those classes (labeller), never predicted,
// so that its rows count as wrong, as songc eval counts them.
type testRows struct {
	ds *data.Dataset
	y  []int
}

// progressLeavesOut ends attachTest's warning for a command that prints
// progress lines with a test accuracy.
const progressLeavesOut = "; the test accuracy of the progress lines leaves them out"

// attachTest makes the rows of test whose labels are classes of task the
// task's test rows, which the training and its progress lines score, and
// returns all its rows for the final test scores. It warns on stderr of
// the others, as eval does, and, where progress (the command prints
// progress lines with a test accuracy), that those lines leave them out.
// A test file without labels is the task's as it is, and nil returned.
func attachTest(g *Globals, task *trainer.Task, test *data.Dataset, progress bool) (*testRows, error) {
	if test == nil || test.Labels == nil {
		return nil, task.SetTest(test)
	}
	lab := newLabeller(test.Name, task.ClassNames)
	lab.whose = "the training rows'"
	y, err := lab.targets(test)
	if err != nil {
		return nil, err
	}
	if err := lab.noneKnown(); err != nil {
		return nil, err
	}
	known := test
	if lab.without() > 0 {
		warning := "songc: " + lab.warning()
		if progress {
			warning += progressLeavesOut
		}
		fmt.Fprintln(g.Stderr, warning)
		rows := make([]int, 0, test.Rows)
		for i, k := range y {
			if k < len(task.ClassNames) {
				rows = append(rows, i)
			}
		}
		sub, s := *test, test.Subset(rows) // the file's notes, with the known rows
		sub.Rows, sub.X, sub.Labels, sub.Line = s.Rows, s.X, s.Labels, s.Line
		known = &sub
	}
	return &testRows{test, y}, task.SetTest(known)
}

// refineModel runs refine.Run with a line of progress per pass on stderr.
func refineModel(g *Globals, m *runtime.Model, task *trainer.Task, cfg refine.Config, quiet bool) (*runtime.Model, error) {
	var progress func(runlog.RefinePass)
	if !quiet {
		meta, _ := runlog.ReadMetadata(m.Training) // refine.Run checks it
		progress = func(p runlog.RefinePass) {
			if p.Pass == 0 { // the first report, once refine.Run has checked the rows
				fmt.Fprintf(g.Stderr, "songc: refining the hard walk on the model's training rows, at most %s\n", text.Count(cfg.Passes, "pass"))
			}
			printRefinePass(g.Stderr, p, meta.ValRows > 0)
		}
	}
	out, err := refine.Run(g.Ctx, m, task, cfg, progress)
	if err != nil || quiet || !(cfg.MajorityCheck || cfg.Tree || cfg.Logistic) {
		return out, err
	}
	meta, err := runlog.ReadMetadata(out.Training)
	if err != nil || meta.Refine == nil {
		return out, err // refine.Run always records its passes
	}
	if tc := meta.Refine.Tree; tc != nil {
		fmt.Fprintln(g.Stderr, "songc: tree check: "+treeCounts(tc, meta.Select == "balanced"))
	}
	if lc := meta.Refine.Logistic; lc != nil {
		fmt.Fprintln(g.Stderr, "songc: logistic check: "+logisticCounts(lc, meta.Select == "balanced"))
	}
	if !cfg.MajorityCheck {
		return out, nil
	}
	checked := judged(meta)
	switch mc := meta.Refine.Majority; {
	case mc == nil && refine.MajorityBarred(cfg.Passes, meta.ValRows > 0, meta.Select) == refine.MajorityBalanced:
		fmt.Fprintln(g.Stderr, "songc: no majority check: the model was selected by balanced accuracy, whose baseline is not the most frequent class")
	case mc == nil:
		fmt.Fprintln(g.Stderr, "songc: no majority check: the model has no validation rows")
	case mc.Constant && mc.Regression != nil && !regressionJudged(meta):
		fmt.Fprintf(g.Stderr, "songc: majority check: %s; the logistic check's regression is not right more often: %s; the %s is replaced by always predicting %q\n", majorityCounts(meta), regressionCounts(mc), checked, mc.Class)
	case mc.Constant:
		fmt.Fprintf(g.Stderr, "songc: majority check: %s; the %s is replaced by always predicting %q\n", majorityCounts(meta), checked, mc.Class)
	case meta.Fallback() != nil:
		fmt.Fprintf(g.Stderr, "songc: majority check: %s; the logistic check's regression is right more often: %s; the regression, fitted again on all the training rows, replaces the %s\n", majorityCounts(meta), regressionCounts(mc), checked)
	default:
		fmt.Fprintf(g.Stderr, "songc: majority check: %s; the %s is kept\n", majorityCounts(meta), checked)
	}
	return out, nil
}

// treeCounts says in words how the tree check's tree and the walk did on
// the validation rows, and which was kept.
func treeCounts(tc *runlog.TreeCheck, balanced bool) string {
	what := scoreName(balanced)
	leaves := fmt.Sprintf("%d leaves", tc.Leaves)
	if tc.Leaves == 1 {
		leaves = "1 leaf"
	}
	line := fmt.Sprintf("a decision tree on single columns of %s, grown on the training rows, scores %s %.2f%% on the validation rows, the walk %.2f%%",
		leaves, what, 100*tc.Score, 100*tc.WalkScore)
	if tc.Kept {
		return line + "; the tree, grown again on all the training rows, replaces the walk"
	}
	return line + "; the walk is kept"
}

// logisticCounts says in words how the logistic check's regression and
// its rival (the walk, or the tree check's tree) did on the validation
// rows, and which was kept.
func logisticCounts(lc *runlog.LogisticCheck, balanced bool) string {
	line := fmt.Sprintf("a logistic regression on all the columns, fitted to the training rows, scores %s %.2f%% on the validation rows, the %s %.2f%%",
		scoreName(balanced), 100*lc.Score, lc.Rival, 100*lc.RivalScore)
	if !balanced {
		line += fmt.Sprintf("; the %s is right on %s where the regression is wrong, and wrong on %s where it is right",
			lc.Rival, text.Count(lc.RivalOnly, "row"), text.Count(lc.RegressionOnly, "row"))
		if lc.Undecided {
			line += fmt.Sprintf(" (too few rows for a sign test at %g, so the %s must be right more often)", refine.MajorityLevel, lc.Rival)
		} else {
			line += fmt.Sprintf(" (sign test p = %.2g; the %s must beat it at %g)", lc.PValue, lc.Rival, refine.MajorityLevel)
		}
	}
	if lc.Kept {
		return line + fmt.Sprintf("; the regression, fitted again on all the training rows, replaces the %s", lc.Rival)
	}
	return line + fmt.Sprintf("; the %s is kept", lc.Rival)
}

// majorityCounts says in words how the model the majority check of a
// model with metadata meta judged (judged's "walk", "tree" or "logistic
// regression") and the constant did on the validation rows.
func majorityCounts(meta runlog.Metadata) string {
	mc, checked := meta.Refine.Majority, judged(meta)
	if regressionJudged(meta) {
		return fmt.Sprintf("on the validation rows the %s is %s (it was fitted once, not chosen on those rows, so it must be right more often, with no test)",
			checked, againstConstant(mc.Regression.RegressionOnly, mc.Regression.ConstantOnly, mc.Class))
	}
	n := mc.WalkOnly + mc.ConstantOnly
	if n == 0 {
		return fmt.Sprintf("the %s and always predicting %q are right on the same validation rows", checked, mc.Class)
	}
	line := fmt.Sprintf("on the validation rows the %s is %s", checked, againstConstant(mc.WalkOnly, mc.ConstantOnly, mc.Class))
	if mc.Undecided {
		return line + fmt.Sprintf(" (too few rows for a sign test at %g, so the one right more often wins)", refine.MajorityLevel)
	}
	return line + fmt.Sprintf(" (sign test p = %.2g)", mc.PValue)
}

// regressionJudged says whether the majority check of a model with
// metadata meta judged the logistic check's regression, which had
// replaced the walk or tree, by its rows against the constant (models
// trained before songc judged it so recorded the sign test of its
// classes in the walk's fields).
func regressionJudged(meta runlog.Metadata) bool {
	r := meta.Refine
	return r != nil && r.Logistic != nil && r.Logistic.Kept && r.Majority != nil && r.Majority.Regression != nil
}

// regressionCounts says in words how the logistic check's regression and
// the constant did on the validation rows, where the majority check
// rejected the model it judged (mc.Regression is not nil).
func regressionCounts(mc *runlog.MajorityCheck) string {
	return "it is " + againstConstant(mc.Regression.RegressionOnly, mc.Regression.ConstantOnly, mc.Class)
}

// againstConstant says on how many rows a model is right where always
// predicting class is wrong (only), and wrong where it is right
// (constantOnly).
func againstConstant(only, constantOnly int, class string) string {
	return fmt.Sprintf("right on %s where always predicting %q is wrong, and wrong on %s where it is right",
		text.Count(only, "row"), class, text.Count(constantOnly, "row"))
}

// constantNote is the note eval, analyze and compile give for a model the
// majority check made constant (meta.Constant() is not nil): what it
// returns (subject is "the model predicts" or "the classifier returns"),
// why, and how to keep the walk, tree or regression it judged.
func constantNote(subject string, meta runlog.Metadata) string {
	mc, what := meta.Constant(), judged(meta)
	return fmt.Sprintf("note: %s %q for every row: when the model was trained or refined, the majority check replaced its %s by that constant: %s; training with --no-majority-check, or refining without --majority-check, keeps the %s", subject, mc.Class, what, majorityCounts(meta), what)
}

// judged names what the majority check of a model with metadata meta
// judged: "logistic regression" where the logistic check put one in the
// walk's or tree's place, "tree" where the tree check put one in the
// walk's, else "walk". Where the majority check put the regression in
// place of the constant, it judged the logistic check's rival.
func judged(meta runlog.Metadata) string {
	if meta.Fallback() != nil {
		return meta.Refine.Logistic.Rival
	}
	if what, _, ok := refitted(meta); ok {
		return what
	}
	return "walk"
}

// refitted says, for a model whose walk the tree or logistic check
// replaced by a model fitted again on the validation rows too (what,
// judged's name), how that model scored on them when fitted on the
// training rows alone; ok is false for any other model.
func refitted(meta runlog.Metadata) (what string, score float64, ok bool) {
	if lc := meta.Logistic(); lc != nil {
		return "logistic regression", lc.Score, true
	}
	if tc := meta.Tree(); tc != nil {
		return "tree", tc.Score, true
	}
	return "", 0, false
}

// checkMajority refuses the majority check where it cannot run: without
// refining (passes 0), without validation rows (val 0), or for a model
// selected by balanced accuracy. trained says the model exists (refine),
// so that the message names the flags it was trained with.
func checkMajority(passes int, val float64, sel string, trained bool) error {
	by := ""
	if trained {
		by = "the model was trained with "
	}
	switch refine.MajorityBarred(passes, val > 0, sel) {
	case refine.MajorityNoRefine:
		return usagef("--majority-check is the last step of refining: it needs --refine above 0 (--preset paper does not refine)")
	case refine.MajorityNoVal:
		return usagef("--majority-check compares on the validation rows, and there are none (%s--val 0)", by)
	case refine.MajorityBalanced:
		return usagef("--majority-check compares with always predicting the most frequent class, which is not the baseline of balanced accuracy (%s--select balanced)", by)
	}
	return nil
}

// replacedText says, for the model lines of train and refine, that the
// majority check mc replaced the model it checked (judged's name) by a
// constant (warnConstant says more, below that line).
func replacedText(mc *runlog.MajorityCheck, checked string) string {
	return fmt.Sprintf("then the majority check replaced the %s by always predicting %q (below)", checked, mc.Class)
}

// treeText says that the tree check's tree tc replaced the walk: a tree
// of leaves leaves as saved (grown again on all the training rows, it can
// stop before tc.Leaves), its score by accuracy, or balanced accuracy.
func treeText(tc *runlog.TreeCheck, leaves int, balanced bool) string {
	return fmt.Sprintf("then the tree check replaced the walk by a decision tree of %d leaves, which scored %.2f%% %s on the validation rows when grown on the training rows alone, then grown again on all the training rows", leaves, 100*tc.Score, scoreName(balanced))
}

// logisticText says that the logistic check's regression lc replaced
// the walk or tree, its score by accuracy, or balanced accuracy, and why.
func logisticText(lc *runlog.LogisticCheck, balanced bool) string {
	why := fmt.Sprintf("the %s did not beat it there by a sign test", lc.Rival)
	if balanced {
		why = fmt.Sprintf("above the %s's", lc.Rival)
	}
	return fmt.Sprintf("then the logistic check replaced the %s by a logistic regression, which scored %.2f%% %s on the validation rows when fitted to the training rows alone (%s), then fitted again on all the training rows", lc.Rival, 100*lc.Score, scoreName(balanced), why)
}

// fallbackText says that the majority check found the model it judged
// (judged's name) no better than the constant of mc and put the logistic
// check's regression lc in its place, and the regression's score by
// accuracy.
func fallbackText(mc *runlog.MajorityCheck, lc *runlog.LogisticCheck, checked string) string {
	return fmt.Sprintf("then the majority check found the %s no better than always predicting %q and replaced it by a logistic regression, right on more validation rows than that constant, which scored %.2f%% accuracy on them when fitted to the training rows alone, then fitted again on all the training rows", checked, mc.Class, 100*lc.Score)
}

// scoreName names the validation score of a model selected by balanced
// accuracy (balanced), or by accuracy.
func scoreName(balanced bool) string {
	if balanced {
		return "balanced accuracy"
	}
	return "accuracy"
}

// warnConstant warns, on w, when the majority check of a model with
// metadata meta replaced the walk, tree or regression by a constant,
// naming the flag that keeps it (keep), and, for a regression that had
// replaced the walk or tree, the flag that keeps that one.
func warnConstant(w io.Writer, meta runlog.Metadata, keep string) {
	mc, what := meta.Constant(), judged(meta)
	if mc == nil {
		return
	}
	also := ""
	if regressionJudged(meta) {
		also = fmt.Sprintf(", and --no-logistic the %s it replaced, if that beats the constant on its own", meta.Refine.Logistic.Rival)
	}
	fmt.Fprintf(w, "warning: the model predicts %q for every row: the learned %s could not be shown to do better than that: %s. %s keeps the %s%s; more validation rows (songc train --val SHARE) can show an edge that is there, and on imbalanced data train --select balanced chooses by balanced accuracy, without this check (both are expert flags: songc train --help-all).\n",
		mc.Class, what, majorityCounts(meta), keep, what, also)
}

// printRefinePass prints pass p's line; hasVal says whether the model has
// validation rows, whose accuracy it then gives.
func printRefinePass(w io.Writer, p runlog.RefinePass, hasVal bool) {
	line := fmt.Sprintf("refine pass %d  hard train %.2f%%", p.Pass, 100*p.TrainAcc)
	if hasVal {
		line += fmt.Sprintf("  val %.2f%%", 100*p.ValAcc)
		if p.ValBalanced > 0 {
			line += fmt.Sprintf(" (balanced %.2f%%)", 100*p.ValBalanced)
		}
		if p.ValForced > 0 {
			line += fmt.Sprintf(", %.1f%% forced exits", 100*p.ValForced)
		}
	}
	if p.TestAcc > 0 {
		line += fmt.Sprintf("  test %.2f%%", 100*p.TestAcc)
	}
	if p.Pass > 0 {
		line += fmt.Sprintf("  (changed: %s, %s; %s inserted)  %.1fs", text.Count(p.Filters, "filter"), text.Count(p.Routes, "route"), text.Count(p.Grown, "node"), p.Seconds)
	}
	fmt.Fprintln(w, line)
}

// reportTest prints the test accuracies of the model k classifies by, in
// float64 by the runtime; meta is the model's training metadata. quiet
// leaves out the notes.
func reportTest(g *Globals, k *runtime.Classifier, task *trainer.Task, all *testRows, meta runlog.Metadata, quiet bool) {
	if task.Test == nil {
		return
	}
	if all == nil { // the embedded data
		all = &testRows{task.Test, task.TestTargets()}
	}
	met := k.Evaluate(all.ds.X, all.y)
	reportMetrics(g.Stdout, fmt.Sprintf("test (%s, %d rows)", all.ds.Name, met.Rows), met, reportHow{Constant: meta.Constant() != nil, Balanced: meta.Select == "balanced", Quiet: quiet})
}
