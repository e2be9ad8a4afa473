package main

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/songc/songc/compiler"
	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer/data"
)

// PredictCmd predicts a class for every row.
type PredictCmd struct {
	ModelArg   `embed:""`
	Data       string   `required:"" placeholder:"FILE" group:"data" help:"Rows to predict: CSV, with or without the label column, or IDX images; - reads CSV from standard input."`
	Soft       bool     `xor:"mode" help:"Print the soft model's class instead of the hard walk's."`
	Proba      bool     `xor:"mode" help:"Print the soft model's leaf masses, one comma-separated column per class, at full precision; the largest mass need not be the class predict prints (the walk's): train and eval give how often they agree (fidelity)."`
	Hard       bool     `xor:"mode" hidden:"" help:"Print the hard walk's class: the default, so it changes nothing."`
	Explain    bool     `xor:"mode" help:"Print each row's class and the walk's route to it: a line per decision, the node's test in the columns' terms (as the compiled ExplainInput gives them) and what the row reads in it (for people to read, not CSV)."`
	ClassNames bool     `name:"class-names" help:"With --proba, first print a line of the class names, in the order of the columns."`
	Keep       []string `sep:"," placeholder:"NAME" help:"Columns of the file's header to print before each prediction (an ID, say), their fields trimmed of spaces and CSV-quoted where needed; a first line then names the columns."`
	Output     string   `short:"o" placeholder:"FILE" help:"Write the lines to FILE instead of stdout, only once every row is predicted (an error leaves FILE as it was)."`
	DataFlags  `embed:""`
}

func (PredictCmd) Help() string {
	return `Prints one line per row, in row order: the class of the hard walk (the one route
a row takes through the graph, a test per node), which is what the code of songc
compile returns; with --soft the class of the soft model (the graph as trained,
which spreads each row over every route); with --proba the soft model's mass on
each class (its leaf masses: they sum to at most 1, up to rounding in the last
digits, the rest being mass still in the graph after the last step). The rows stream through in constant memory. A file with a
header is matched to the model's columns by name, in any order (by position
for a model trained on a file without one); the label column may be absent,
and --ignore leaves out columns the model does not read (docs/data.md).
--keep carries columns through: each line starts with their fields, and a
first line names the columns (the kept ones, then "predicted", or the class
names with --proba); a kept column the model does not read needs no
--ignore. --explain prints a block per row instead: "line N: CLASS", then
each decision of the walk: its node, its test in the columns' terms, and the
row's value; for a test that weighs several columns, a second line gives the
row's value of the test's left side and its largest terms (docs/model.md).
On stdout, the lines of the rows before a bad one come out before its error;
with -o FILE, nothing is written unless every row is predicted.

Examples:
  songc predict letter.json --data letter-test.csv.gz
  songc predict letter.json --data rows.csv --proba --class-names -o masses.csv
  songc predict churn.json --data customers.csv --keep id -o churn.csv
  songc predict churn.json --data customers.csv --keep id --explain | less`
}

func (c *PredictCmd) Run(g *Globals) (err error) {
	k, err := runtime.LoadClassifier(c.Model)
	if err != nil {
		return err
	}
	if c.ClassNames && !c.Proba {
		return usagef("--class-names needs --proba: it names the columns of the leaf masses")
	}
	if c.Output == "" {
		return c.predict(g, g.Stdout, k)
	}
	made, err := checkOutputs([]string{"-o"}, map[string]string{"-o": c.Output}, input{"model", c.Model}, input{"--data", c.Data})
	if err != nil {
		return err
	}
	defer removeOnError(&err, &made)
	var rowErr error // a row's error, said as it is; a write error is said naming FILE
	err = runtime.WriteFileAtomic(c.Output, func(w io.Writer) error {
		fw := &failWriter{w: w}
		err := c.predict(g, fw, k)
		if !fw.caused(err) {
			rowErr = err
		}
		return err
	})
	return cmp.Or(rowErr, err)
}

// failWriter is a writer that keeps its first error.
type failWriter struct {
	w   io.Writer
	err error
}

func (f *failWriter) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if f.err == nil {
		f.err = err
	}
	return n, err
}

// caused reports whether err is a write error of f: a row's error, or one
// after which a write failed too, is not.
func (f *failWriter) caused(err error) bool { return f.err != nil && errors.Is(err, f.err) }

// predict writes the line of every row of c.Data to out.
func (c *PredictCmd) predict(g *Globals, out io.Writer, k *runtime.Classifier) error {
	m := k.Model
	w := bufio.NewWriterSize(out, 1<<16)
	opt := c.options(m)
	keep := data.CleanNames(c.Keep) // as the data layer reads them
	opt.Keep, opt.KeepHint = keep, true
	p := newPredictor(k, c.Proba, c.Soft, len(keep))
	if c.Explain {
		plan, err := compiler.NewPlan(m, compiler.Options{})
		if err != nil {
			return err
		}
		p.plan, p.tests, p.keepNames, p.path = plan, plan.Tests(), keep, make([]runtime.Step, 0, k.Steps())
	}
	// The first line, when there is one, once the file's header has
	// matched: the columns' names.
	var names []string
	switch {
	case c.Explain: // each row's block names its kept fields
	case len(keep) > 0 && c.Proba:
		names = slices.Concat(keep, m.ClassNames)
	case len(keep) > 0:
		names = append(slices.Clone(keep), "predicted")
	case c.ClassNames:
		names = m.ClassNames
	}
	head := func() error {
		if names == nil {
			return nil
		}
		line := appendFields(nil, printableAll(names))
		line[len(line)-1] = '\n' // the last field's comma
		names = nil
		_, err := w.Write(line)
		return err
	}
	var unseen data.UnseenTally
	rows, err := eachRow(g, c.Data, opt, func(st data.Stream) error {
		if err := head(); err != nil {
			return err
		}
		unseen.Add(st)
		if p.tests != nil {
			return p.explain(w, st.Line(), st.Row(), st.Kept())
		}
		return p.write(w, st.Row(), st.Kept())
	})
	if errors.Is(err, data.ErrNoRows) { // a batch with no rows: nothing to predict
		fmt.Fprintf(g.Stderr, "songc: %s holds a header and no rows: nothing to predict\n", shown(c.Data))
		err = head()
	}
	// The rows held, also before an error: their lines come first.
	err = cmp.Or(err, p.flush(w))
	if err != nil {
		w.Flush()
		return err
	}
	if unseen.Rows > 0 {
		fmt.Fprintln(g.Stderr, unseenNote(shown(c.Data), &unseen, rows, m.Schema))
	}
	return w.Flush()
}

// eachRow streams the rows of path (- for CSV on standard input) through
// f in constant memory, whatever the file's size: it says once when the
// file's columns were matched by name in another order, stops at Ctrl-C,
// and returns the rows read.
func eachRow(g *Globals, path string, opt data.CSVOptions, f func(data.Stream) error) (rows int, err error) {
	var st data.Stream
	if path == "-" {
		st, err = data.ReadStream(g.Stdin, shown(path), opt)
	} else {
		st, err = data.OpenStream(path, opt)
	}
	if err != nil {
		return 0, err
	}
	defer st.Close()
	for i := 0; ; i++ {
		if err := stopped(g.Ctx, i); err != nil {
			return i, err
		}
		ok, err := st.Next()
		if err != nil || !ok {
			return i, err
		}
		if i == 0 {
			noteColumns(g, shown(path), st, opt.Schema)
		}
		if err := f(st); err != nil {
			return i, err
		}
	}
}

// shown is how messages name the data file path: "stdin" for -.
func shown(path string) string {
	if path == "-" {
		return "stdin"
	}
	return path
}

// stopped returns an error wrapping ctx's when ctx is done, looked at once
// every 4096 rows, so that Ctrl-C stops a long prediction at once.
func stopped(ctx context.Context, row int) error {
	if row%4096 != 0 || ctx.Err() == nil {
		return nil
	}
	return fmt.Errorf("interrupted after %d rows: %w", row, ctx.Err())
}

// predictor writes one output line per row. The soft model's lines wait
// for a block of rows (runtime.SoftBlock), which runs on all the cores.
type predictor struct {
	k       *runtime.Classifier
	soft    bool               // the soft model's class, else (with block) its leaf masses
	block   *runtime.SoftBlock // the rows held for the soft model; nil for the hard walk
	scratch []float64
	line    []byte
	names   []string // the class names, printable, and CSV-quoted when lines have kept fields
	keep    int      // the kept fields a line starts with
	kept    []string // those of the rows held, one after another
	// tests are the tests of the nodes the walk reaches (compiler's
	// Plan.Tests), for --explain, which names each row's kept fields by
	// keepNames; path is the walk's.
	plan      *compiler.Plan
	tests     map[int][2]string
	keepNames []string
	path      []runtime.Step
}

func newPredictor(k *runtime.Classifier, proba, soft bool, keep int) *predictor {
	p := &predictor{k: k, soft: soft, scratch: make([]float64, k.NumFeatures()),
		names: printableAll(k.Model.ClassNames), keep: keep}
	if keep > 0 { // a line of several fields: a class is one of them
		for i, n := range p.names {
			q := appendFields(nil, []string{n})
			p.names[i] = string(q[:len(q)-1])
		}
	}
	if proba || soft {
		p.block = k.NewSoftBlock()
	}
	return p
}

// printable returns s as it may be printed to a terminal or a file read
// line by line: unchanged when it is valid UTF-8 without control
// characters, else quoted with Go's escapes (strconv.Quote), so that a
// class name can neither break a line nor send escape codes.
func printable(s string) string {
	if utf8.ValidString(s) && !strings.ContainsFunc(s, unicode.IsControl) {
		return s
	}
	return strconv.Quote(s)
}

// inParens returns s as it may stand in --explain's list of kept fields,
// (id=7, name="Smith, J"): printable, and Go-quoted where it is empty or
// holds what would break the list (a comma, =, a bracket, a quote) or
// spaces at its ends.
func inParens(s string) string {
	if s == "" || strings.ContainsAny(s, ",=()[]{}\"") || strings.TrimSpace(s) != s {
		return strconv.Quote(s)
	}
	return printable(s)
}

// printableAll is printable of each of names.
func printableAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = printable(n)
	}
	return out
}

// write writes the line of row, whose kept fields are kept, or holds the
// row until a block is full.
func (p *predictor) write(w *bufio.Writer, row []float64, kept []string) error {
	if p.block == nil { // the hard walk, as compiled code runs it
		res, _ := p.k.Walk(row, p.scratch, nil)
		return p.writeClass(w, kept, res.Class)
	}
	p.kept = append(p.kept, kept...)
	if p.block.Hold(row) {
		return p.flush(w)
	}
	return nil
}

// explain writes the block of the row on line of the file, whose kept
// fields are kept: its class, then a line per decision of the walk.
func (p *predictor) explain(w *bufio.Writer, line int, row []float64, kept []string) error {
	var res runtime.WalkResult
	res, p.path = p.k.Walk(row, p.scratch, p.path[:0])
	b := fmt.Appendf(p.line[:0], "line %d", line)
	for i, f := range kept {
		sep := ", "
		if i == 0 {
			sep = " ("
		}
		b = fmt.Appendf(b, "%s%s=%s", sep, inParens(p.keepNames[i]), inParens(f))
	}
	if len(kept) > 0 {
		b = append(b, ')')
	}
	b = fmt.Appendf(b, ": %s\n", printable(p.k.Model.ClassNames[res.Class]))
	for i, s := range p.path {
		test := p.tests[s.Node][0]
		if s.Right {
			test = p.tests[s.Node][1]
		}
		if test == "" {
			test = "no column weighs in: its bias alone decides"
		}
		b = fmt.Appendf(b, "  node %d: %s", s.Node, test)
		reading := p.plan.Reading(s.Node, row)
		if p.plan.Column(s.Node) >= 0 && reading != "" { // the column's value
			b = fmt.Appendf(b, " (this row: %s)", reading)
			reading = ""
		}
		if i == len(p.path)-1 && res.Forced {
			b = fmt.Appendf(b, ", then a forced exit to %s (the walk's %d decisions are spent)", printable(p.k.Model.ClassNames[res.Class]), p.k.Steps())
		}
		b = append(b, '\n')
		if reading != "" { // the left side's value and the row's largest terms
			b = fmt.Appendf(b, "    this row: %s\n", reading)
		}
	}
	p.line = b
	_, err := w.Write(b)
	return err
}

// flush writes the lines of the rows held.
func (p *predictor) flush(w *bufio.Writer) error {
	if p.block == nil {
		return nil
	}
	c := p.k.NumClasses()
	_, q, class := p.block.Flush()
	for r, k := range class {
		kept := p.kept[r*p.keep : (r+1)*p.keep]
		if p.soft {
			if err := p.writeClass(w, kept, k); err != nil {
				return err
			}
			continue
		}
		p.line = appendFields(p.line[:0], kept)
		for j, v := range q[r*c : (r+1)*c] {
			if j > 0 {
				p.line = append(p.line, ',')
			}
			p.line = strconv.AppendFloat(p.line, v, 'g', -1, 64)
		}
		p.line = append(p.line, '\n')
		if _, err := w.Write(p.line); err != nil {
			return err
		}
	}
	p.kept = p.kept[:0]
	return nil
}

// writeClass writes the line of a row with kept fields kept and class k.
func (p *predictor) writeClass(w *bufio.Writer, kept []string, k int) error {
	p.line = append(append(appendFields(p.line[:0], kept), p.names[k]...), '\n')
	_, err := w.Write(p.line)
	return err
}

// appendFields appends to b each of fields and a comma after it, each
// quoted where encoding/csv's Writer quotes it: when it holds a comma, a
// quote or a line break, starts with a space of any kind, or is \. (as
// that Writer writes it, without its allocation per line).
func appendFields(b []byte, fields []string) []byte {
	for _, f := range fields {
		r, _ := utf8.DecodeRuneInString(f)
		if !strings.ContainsAny(f, ",\"\r\n") && !unicode.IsSpace(r) && f != `\.` {
			b = append(b, f...)
			b = append(b, ',')
			continue
		}
		b = append(b, '"')
		for i := range len(f) { // a quote doubled
			if f[i] == '"' {
				b = append(b, '"')
			}
			b = append(b, f[i])
		}
		b = append(b, '"', ',')
	}
	return b
}
