package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/songc/songc/internal/text"
	"github.com/songc/songc/runlog"
	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer"
	"github.com/songc/songc/trainer/data"
)

// EvalCmd measures a model on labelled data.
type EvalCmd struct {
	ModelArg  `embed:""`
	Data      string `required:"" placeholder:"FILE" group:"data" help:"Labelled rows: CSV (gzip'd or not) or IDX images; - reads CSV from standard input."`
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
(docs/data.md). Rows whose label no training row had count as wrong, and a
warning names those labels; more than ` + strconv.Itoa(maxLacking) + ` distinct such labels (an ID
column read as the label, say) is an error. A warning also says when the rows are the
model's own training file (the same rows, in the same order), whose scores
flatter it.

The terms are explained in docs/model.md.

Example:
  songc eval letter.json --data letter-test.csv.gz`
}

func (c *EvalCmd) Run(g *Globals) error {
	k, err := runtime.LoadClassifier(c.Model)
	if err != nil {
		return err
	}
	meta, _ := runlog.ReadMetadata(k.Model.Training)
	check := newTrainingCheck(meta)
	met, unseen, lab, err := evaluate(g, k, c.Data, c.options(k.Model), check)
	if err != nil {
		return err
	}
	if w := lab.warning(); w != "" {
		fmt.Fprintln(g.Stderr, w)
	}
	if check.same() {
		fmt.Fprintf(g.Stderr, "warning: %s holds the rows the model was trained on (their fingerprint is the model's data_sha256): they fitted it and chose it, so its scores here flatter it; measure it on rows it never saw\n", shown(c.Data))
	}
	if c.JSON {
		out := struct {
			Model   string   `json:"model"`
			Data    string   `json:"data"`
			Classes []string `json:"classes"`
			// Lacking names the confusion matrices' rows past the
			// model's classes: labels its training rows never had.
			Lacking []string `json:"labels_the_model_lacks,omitempty"`
			runtime.Metrics
			Unseen  int            `json:"unseen_rows"`
			Columns map[string]int `json:"unseen_by_column,omitempty"`
		}{c.Model, shown(c.Data), k.Model.ClassNames, lab.names(), met, unseen.Rows, unseen.ByName(k.Model.Schema)}
		enc := json.NewEncoder(g.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	w := bufio.NewWriter(g.Stdout)
	fmt.Fprintln(w, modelLine(c.Model, k))
	fmt.Fprintf(w, "data  %s: %s\n", shown(c.Data), text.Count(met.Rows, "row"))
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
	mc := meta.Constant()
	if mc != nil {
		fmt.Fprintln(w, constantNote("the model predicts", meta))
	}
	if b := baselineWarning(met, meta.Select == "balanced", mc != nil); b != "" {
		fmt.Fprintf(w, "warning: %s\n", b)
	}
	if b := softBaselineWarning(met, meta.Select == "balanced", mc != nil); b != "" {
		fmt.Fprintf(w, "warning: %s\n", b)
	}
	if n := fidelityNote(met, "", mc != nil); n != "" {
		fmt.Fprintln(w, n)
	}
	if len(met.ConfusionHard) <= 12 { // the model's classes and the labels it lacks
		fmt.Fprintln(w, "hard-walk confusion (rows: true class, columns: predicted):")
		writeConfusion(w, slices.Concat(k.Model.ClassNames, lab.names()), k.Model.ClassNames, met.ConfusionHard)
	}
	return w.Flush()
}

// trainingCheck tells whether the rows evaluate streams are a model's
// own training file, the same rows in the same order: whether their
// fingerprint, computed as they pass, is the model's data_sha256. It holds
// at most the labels of as many rows as the model trained and validated
// on, and gives up past them.
type trainingCheck struct {
	want string
	rows int // the model's training and validation rows
	n    int // the rows added
	fp   *trainer.Fingerprinter
}

// newTrainingCheck returns the check for a model with training metadata
// meta, or nil, a check that is never true, for a model without a
// fingerprint.
func newTrainingCheck(meta runlog.Metadata) *trainingCheck {
	if meta.DataSHA256 == "" {
		return nil
	}
	return &trainingCheck{want: meta.DataSHA256, rows: meta.TrainRows + meta.ValRows, fp: trainer.NewFingerprinter()}
}

// add adds a labelled row.
func (c *trainingCheck) add(x []float64, label string) {
	if c == nil {
		return
	}
	if c.n++; c.n <= c.rows { // past them, not the model's training file
		c.fp.Add(x, label)
	}
}

// same reports whether the rows added are the model's training file; it
// ends the check.
func (c *trainingCheck) same() bool {
	return c != nil && c.n == c.rows && c.fp.Sum() == c.want
}

// evaluate measures k on the labelled rows of path, streamed through in
// constant memory whatever the file's size, and counts those with an
// unseen category; rows with a missing label are left out, and said so.
// Rows whose label is none of the model's classes are measured too, as
// classes after the model's own that it never predicts (they count as
// wrong), and kept by the labeller returned; when no row's label is one
// of the model's classes, that is an error. Every row measured is added
// to check.
func evaluate(g *Globals, k *runtime.Classifier, path string, opt data.CSVOptions, check *trainingCheck) (met runtime.Metrics, unseen data.UnseenTally, lab *labeller, err error) {
	name := shown(path)
	lab = newLabeller(name, k.Model.ClassNames)
	e := k.NewEvaluator()
	var left data.Unlabelled
	_, err = eachRow(g, path, opt, func(st data.Stream) error {
		if !st.Labelled() {
			return fmt.Errorf("%s: has no label column; eval needs labelled rows", name)
		}
		if left.Leave(st) {
			return nil
		}
		unseen.Add(st)
		check.add(st.Row(), st.Label())
		y, err := lab.class(st.Label(), st.Line())
		if err != nil {
			return err
		}
		e.Add(st.Row(), y)
		return nil
	})
	if err != nil {
		return met, unseen, lab, err
	}
	met = e.Metrics()
	if err := left.Err(name, met.Rows, opt.Schema.Missing); err != nil {
		return met, unseen, lab, err
	}
	if err := lab.noneKnown(); err != nil {
		return met, unseen, lab, err
	}
	if left.Rows > 0 {
		fmt.Fprintln(g.Stderr, noLabelNote(name, left, opt.Schema.Missing))
	}
	return met, unseen, lab, nil
}

// labeller maps the labels of rows to the model's classes, and a label
// that is none of them to a class after the model's own, which it never
// predicts, so that its rows are measured as wrong. A label that is a
// number is matched by its value, as training matched them: "07", "7.0"
// and "7" are one class, and one lacking label.
type labeller struct {
	path    string // the file the labels are read from
	classes []string
	whose   string // whose classes they are, for errors: "the model's"
	index   func(string) (int, bool)
	extra   map[string]int // a lacking label's index in lacking, by its key
	lacking []lackingLabel // in the order first met
	rows    int            // the labels given
}

// maxLacking is how many distinct labels that are none of the model's
// classes a file may have. Each costs a row of the confusion matrices,
// and a file with more is read with the wrong label column (an ID, a
// measurement) or is data for another model.
const maxLacking = 1000

func newLabeller(path string, classes []string) *labeller {
	return &labeller{path: path, classes: classes, whose: "the model's", index: data.ClassLookup(classes), extra: map[string]int{}}
}

// class returns the class of label, read on line; it is an error when
// label is a lacking label past the first maxLacking.
func (l *labeller) class(label string, line int) (int, error) {
	j, ok := l.extra[label] // a lacking label met before, written as its LabelKey: no lookup
	if !ok {
		if y, known := l.index(label); known {
			l.rows++
			return y, nil
		}
		key := data.LabelKey(label) // met before, perhaps, written otherwise
		if j, ok = l.extra[key]; !ok {
			if len(l.lacking) == maxLacking {
				return 0, fmt.Errorf("%s:%d: label %q: more than %d distinct labels are none of %s %s (%s); is this the label column (--label-col), and the data the model is for?",
					l.path, line, label, maxLacking, l.whose, text.Count(len(l.classes), "class"), data.QuoteList(l.classes, 8))
			}
			j = len(l.lacking)
			l.extra[key] = j
			l.lacking = append(l.lacking, lackingLabel{Name: label, Line: line})
		}
	}
	l.rows++
	l.lacking[j].Rows++
	return len(l.classes) + j, nil
}

// targets returns the class of every row of ds, which is labelled.
func (l *labeller) targets(ds *data.Dataset) ([]int, error) {
	y := make([]int, ds.Rows)
	for i, label := range ds.Labels {
		var err error
		if y[i], err = l.class(label, ds.Line[i]); err != nil {
			return nil, err
		}
	}
	return y, nil
}

// without returns how many of the labels given are none of the model's
// classes.
func (l *labeller) without() int {
	n := 0
	for _, x := range l.lacking {
		n += x.Rows
	}
	return n
}

// noneKnown is an error when every label given is none of the model's
// classes.
func (l *labeller) noneKnown() error {
	if n := l.without(); n == 0 || n < l.rows {
		return nil
	}
	return fmt.Errorf("%s: no row's label is one of %s %s (%s): line %d has %q; is this the label column, and the data the model is for?",
		l.path, l.whose, text.Count(len(l.classes), "class"), data.QuoteList(l.classes, 8), l.lacking[0].Line, l.lacking[0].Name)
}

// lackingLabel is a label of the evaluated rows that is none of the
// model's classes: how many rows have it, and the line of the first.
type lackingLabel struct {
	Name       string
	Rows, Line int
}

// names returns the labels given that are none of the model's classes,
// in the order first met.
func (l *labeller) names() []string {
	var out []string
	for _, x := range l.lacking {
		out = append(out, x.Name)
	}
	return out
}

// warning says which labels of the file are none of the model's classes,
// which it cannot predict, so that their rows count as wrong; a label that
// differs from a class only in case is named with it. It is "" when every
// label is a class.
func (l *labeller) warning() string {
	n := l.without()
	if n == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "warning: %s: %s no training row had:", l.path, text.Verb(len(l.lacking), "a label", "labels"))
	for i, x := range l.lacking {
		if i == 8 {
			fmt.Fprintf(&b, " and %d more", len(l.lacking)-8)
			break
		}
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %q (%s, line %d", x.Name, text.Count(x.Rows, "row"), x.Line)
		if x.Rows > 1 {
			fmt.Fprintf(&b, " first")
		}
		for _, c := range l.classes {
			if strings.EqualFold(x.Name, c) { // never equal: x is no class
				fmt.Fprintf(&b, "; the class %q differs only in case", c)
				break
			}
		}
		b.WriteString(")")
	}
	fmt.Fprintf(&b, "; the model cannot predict %s, so %s (%.1f%% of %d) %s as wrong; its classes: %s",
		text.Verb(len(l.lacking), "it", "them"), text.Verb(n, "that row", fmt.Sprintf("those %d rows", n)), 100*float64(n)/float64(max(1, l.rows)), l.rows, text.Verb(n, "counts", "count"), data.QuoteList(l.classes, 8))
	return b.String()
}

// noteColumns says once, on stderr, that a file's columns were matched to
// the model's by name in another order, or read by position below a header
// that was skipped, or by position for want of a header; s is the model's
// schema.
func noteColumns(g *Globals, path string, st data.Stream, s *runtime.Schema) {
	if st.Reordered() {
		fmt.Fprintln(g.Stderr, reorderedNote(path))
	}
	if st.SkippedHeader() {
		fmt.Fprintln(g.Stderr, skippedHeaderNote(path))
	}
	if st.ByPosition() {
		fmt.Fprintln(g.Stderr, byPositionNote(path, s))
	}
}

// writeConfusion writes m, whose rows are the true classes rows and
// columns the predicted classes cols.
func writeConfusion(w *bufio.Writer, rows, cols []string, m [][]int) {
	rows, cols = printableAll(rows), printableAll(cols)
	width := 6
	for _, n := range rows {
		width = max(width, len(n)+1)
	}
	fmt.Fprintf(w, "%*s", width, "")
	for _, n := range cols {
		fmt.Fprintf(w, "%*s", width, n)
	}
	fmt.Fprintln(w)
	for i, row := range m {
		fmt.Fprintf(w, "%*s", width, rows[i])
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
