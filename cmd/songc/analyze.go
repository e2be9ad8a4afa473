package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/songc/songc/analysis"
	"github.com/songc/songc/runlog"
	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer/data"
)

// AnalyzeCmd measures and draws the learned graph.
type AnalyzeCmd struct {
	ModelArg      `embed:""`
	Data          string  `placeholder:"FILE" help:"Labelled rows for the per-input statistics (path unions, hard-walk paths, class distances)."`
	JSON          bool    `name:"json" help:"Print the statistics as JSON."`
	PathThreshold float64 `name:"path-threshold" default:"1e-4" help:"Paths of P_x with probability above this make up an input's path union."`
	MaxPerClass   int     `name:"max-rows-per-class" default:"200" help:"Rows per class used for the class-distance matrix."`
	DOT           string  `name:"dot" placeholder:"FILE" help:"Write the binary graph in Graphviz DOT."`
	SVG           string  `name:"svg" placeholder:"FILE" help:"Render the graph to SVG with Graphviz's dot program."`
	PNG           string  `name:"png" placeholder:"FILE" help:"Render the graph to PNG with Graphviz's dot program."`
	All           bool    `help:"Draw unreachable nodes too, in grey."`
	Plots         string  `placeholder:"DIR" help:"Write PNG plots into DIR: M0/M1 heat maps, training curves (from --log), class distances and a probability flow (with --data)."`
	Log           string  `placeholder:"FILE" help:"Per-epoch training log for the curves of --plots (default: MODEL with .log.jsonl, when it exists)."`
	Input         int     `default:"1" help:"Row of --data whose probability flow is plotted, counted from 1 (the first row after any header)."`
	DataFlags     `embed:""`
}

func (AnalyzeCmd) Help() string {
	return `Reports the structure of the binary graph (each node's argmax children): nodes used,
leaves reached, root-to-leaf distances, shared nodes, DFS edge classes (tree, back,
forward, cross) and how one-hot the transition matrices are. With --data, the
paper's per-input statistics: the union of P_x paths above --path-threshold per row,
classified by a DFS and averaged; hard-walk path lengths; node visits; the
class-by-class mean distance between the P_x of rows.

Examples:
  songc analyze letter.json
  songc analyze letter.json --data letter-test.csv.gz --json
  songc analyze letter.json --dot letter.dot --png letter.png --plots plots/`
}

// analyzeReport is the JSON output.
type analyzeReport struct {
	Model string `json:"model"`
	// Constant is the class a model the majority check made constant
	// predicts for every row; empty for a learned walk.
	Constant string              `json:"constant_class,omitempty"`
	Graph    analysis.Stats      `json:"graph"`
	Data     *analysis.DataStats `json:"data,omitempty"`
}

func (c *AnalyzeCmd) Run(g *Globals) (err error) {
	k, err := runtime.LoadClassifier(c.Model)
	if err != nil {
		return err
	}
	m := k.Model
	meta, _ := runlog.ReadMetadata(m.Training) // none: nothing to say or check
	if !(c.PathThreshold > 0 && c.PathThreshold < 1) {
		return usagef("--path-threshold must be in (0, 1), got %v", c.PathThreshold)
	}
	if c.MaxPerClass < 1 {
		return usagef("--max-rows-per-class must be at least 1, got %d", c.MaxPerClass)
	}
	// The outputs are checked before the data, which may be large, is read.
	flags := []string{"--dot", "--svg", "--png"}
	outputs := map[string]string{"--dot": c.DOT, "--svg": c.SVG, "--png": c.PNG}
	made, err := checkOutputs(flags, outputs, input{"model", c.Model}, input{"--data", c.Data})
	if err != nil {
		return err
	}
	defer removeOnError(&err, &made) // on the data, say: the folders made go again
	if c.Plots != "" {
		if made, err = makeFolder(c.Plots, made); err != nil {
			return fmt.Errorf("cannot write plots into %s: %v", c.Plots, err)
		}
	}
	// The log too, so that one of another run fails before the data is read.
	var recs []analysis.LogRecord
	logPath := c.Log
	switch {
	case logPath != "" && c.Plots == "":
		return usagef("--log %s: the log is read for the training curves of --plots; give --plots DIR too", logPath)
	case logPath == "" && c.Plots != "":
		guess := logFor(c.Model)
		if _, err := os.Stat(guess); err == nil {
			logPath = guess
		} else {
			fmt.Fprintf(g.Stderr, "songc: note: --plots draws no training curves: there is no training log beside the model (%s; songc select writes none); --log FILE names one\n", guess)
		}
	}
	if c.Plots != "" && c.Data == "" {
		fmt.Fprintln(g.Stderr, "songc: note: --plots draws the class distances and a row's probability flow only with --data FILE")
	}
	if logPath != "" {
		var ours bool
		if recs, ours, err = readLogFor(logPath, meta, c.Log == ""); err != nil {
			return err
		}
		if !ours {
			fmt.Fprintf(g.Stderr, "songc: warning: %s is not the log of the run that trained %s, so --plots draws no training curves\n", logPath, c.Model)
			logPath = ""
		}
	}
	if (c.SVG != "" || c.PNG != "") && !hasDot() {
		return fmt.Errorf("--svg and --png need Graphviz's dot program, which is not installed (Debian/Ubuntu: apt-get install graphviz; macOS: brew install graphviz); --dot FILE writes the graph without it")
	}
	bin := analysis.NewBinary(k)
	rep := analyzeReport{Model: c.Model, Graph: bin.Stats()}
	mc := meta.Constant()
	if mc != nil {
		rep.Constant = mc.Class
	}
	var ds *data.Dataset
	var y []int
	if c.Data != "" {
		if ds, err = c.openFor(g, c.Data, m, false); err != nil {
			return err
		}
		if y, err = ds.Targets(m.ClassNames); err != nil {
			return err
		}
		if c.Input < 1 || c.Input > ds.Rows {
			return usagef("--input %d: %s has rows 1 to %d", c.Input, c.Data, ds.Rows)
		}
		st := analysis.Data(k, ds.X, y, c.PathThreshold, c.MaxPerClass)
		rep.Data = &st
	}

	about, err := analysis.AboutModel(m, c.Model)
	if err != nil {
		return err
	}
	dotSrc, err := bin.DOT(analysis.DrawOptions{All: c.All, About: about})
	if err != nil {
		return err
	}
	if c.DOT != "" {
		if err := writeFile(c.DOT, dotSrc); err != nil {
			return err
		}
	}
	for _, out := range []struct{ path, format string }{{c.SVG, "svg"}, {c.PNG, "png"}} {
		if out.path == "" {
			continue
		}
		if err := renderDot(dotSrc, out.format, out.path); err != nil {
			return err
		}
	}
	if c.Plots != "" {
		if err := c.writePlots(k, about, ds, y, rep, logPath, recs); err != nil {
			return err
		}
	}
	if c.JSON {
		enc := json.NewEncoder(g.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return printAnalysis(g.Stdout, k, rep, meta)
}

func hasDot() bool {
	_, err := exec.LookPath("dot")
	return err == nil
}

// renderDot runs Graphviz on src and writes the result atomically (Run
// has made the folders of the outputs).
func renderDot(src []byte, format, path string) error {
	cmd := exec.Command("dot", "-T"+format)
	cmd.Stdin = bytes.NewReader(src)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("dot -T%s: %v: %s", format, err, strings.TrimSpace(errb.String()))
	}
	return writeFile(path, out.Bytes())
}

func printAnalysis(w io.Writer, k *runtime.Classifier, rep analyzeReport, meta runlog.Metadata) error {
	b := bufio.NewWriter(w)
	st := rep.Graph
	fmt.Fprintln(b, modelLine(rep.Model, k))
	if meta.Constant() != nil {
		fmt.Fprintln(b, constantNote("the model predicts", meta))
	}
	fmt.Fprintf(b, "binary graph (argmax children):\n")
	fmt.Fprintf(b, "  used nodes         %d of %d\n", st.UsedNodes, st.Nodes)
	fmt.Fprintf(b, "  leaves reached     %d of %d", st.LeavesUsed, k.NumClasses())
	if len(st.Unreachable) > 0 {
		fmt.Fprintf(b, " (unreachable: %s)", strings.Join(printableAll(st.Unreachable), ", "))
	}
	fmt.Fprintln(b)
	fmt.Fprintf(b, "  root-leaf distance min %d, mean %.2f, max %d\n", st.DistMin, st.DistMean, st.DistMax)
	fmt.Fprintf(b, "  shared nodes       %d\n", st.SharedNodes)
	fmt.Fprintf(b, "  DFS edges          tree %d, back %d, forward %d, cross %d (%s)\n", st.Edges.Tree, st.Edges.Back, st.Edges.Forward, st.Edges.Cross,
		map[bool]string{true: "acyclic", false: "has cycles"}[st.Acyclic])
	fmt.Fprintf(b, "  binarisation       M0 %.4f, M1 %.4f (mean largest column probability)\n", st.BinarisationM0, st.BinarisationM1)
	if d := rep.Data; d != nil {
		fmt.Fprintf(b, "on %d rows (paths of P_x above %g):\n", d.Rows, d.Threshold)
		fmt.Fprintf(b, "  mean path union    %.2f nodes; edges tree %.2f, back %.2f, forward %.2f, cross %.2f\n",
			d.MeanUnionNodes, d.MeanEdges["tree"], d.MeanEdges["back"], d.MeanEdges["forward"], d.MeanEdges["cross"])
		lens := make([]int, 0, len(d.PathLengths))
		for l := range d.PathLengths {
			lens = append(lens, l)
		}
		slices.Sort(lens)
		fmt.Fprintf(b, "  hard path lengths ")
		for _, l := range lens {
			fmt.Fprintf(b, " %d:%d", l, d.PathLengths[l])
		}
		fmt.Fprintln(b, " (length:rows)")
		fmt.Fprintf(b, "  busiest nodes     ")
		type nv struct{ node, visits int }
		var v []nv
		for i, c := range d.Visits {
			if c > 0 {
				v = append(v, nv{i, c})
			}
		}
		slices.SortStableFunc(v, func(a, b nv) int { return b.visits - a.visits })
		for _, x := range v[:min(8, len(v))] {
			fmt.Fprintf(b, " %d:%d", x.node, x.visits)
		}
		fmt.Fprintln(b, " (node:rows)")
		fmt.Fprintf(b, "  class distances    see --json or --plots (mean P_x distance within classes %.4f, between classes %.4f)\n", meanDiag(d.Distances, true), meanDiag(d.Distances, false))
	}
	return b.Flush()
}

func meanDiag(m [][]float64, diag bool) float64 {
	var sum float64
	n := 0
	for i := range m {
		for j := range m[i] {
			if (i == j) == diag {
				sum += m[i][j]
				n++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// writePlots writes the pictures of --plots into c.Plots. Every picture's
// caption names the model (about); the curves come from the training log,
// which covers the epochs before any refining, so structure.png marks the
// saved model's statistics (rep) beside them.
func (c *AnalyzeCmd) writePlots(k *runtime.Classifier, about analysis.About, ds *data.Dataset, y []int, rep analyzeReport, logPath string, recs []analysis.LogRecord) error {
	pics := analysis.Pictures{Dir: c.Plots, About: about, Data: c.Data}
	if err := pics.Matrices(k); err != nil {
		return err
	}
	if logPath != "" {
		pics.Log = logPath
		if err := pics.Curves(recs, &rep.Graph); err != nil {
			return err
		}
	}
	if ds != nil {
		if err := pics.Distances(rep.Data.Distances, k.Model.ClassNames, rep.Data.DistanceRows); err != nil {
			return err
		}
		if err := pics.Flow(k, ds.Row(c.Input-1), c.Input, k.Model.ClassNames[y[c.Input-1]]); err != nil {
			return err
		}
	}
	return nil
}

// readLogFor reads the per-epoch log at path and checks that the run that
// wrote it trained the model of training metadata meta
// (runlog.Metadata.MatchLog; a model without metadata checks nothing)
// before it decodes the epochs' graphs. A log of another run is an error
// when the user named it; when guessed (MODEL.log.jsonl beside the model),
// ours is false instead, for a warning.
func readLogFor(path string, meta runlog.Metadata, guessed bool) (recs []analysis.LogRecord, ours bool, err error) {
	ep, err := runlog.ReadLog(path)
	if err != nil {
		return nil, false, err
	}
	if err := meta.MatchLog(ep); err != nil {
		if guessed {
			return nil, false, nil
		}
		return nil, false, fmt.Errorf("--log %s is not the log of the run that trained the model: %v", path, err)
	}
	recs, err = analysis.LogRecords(path, ep)
	return recs, err == nil, err
}
