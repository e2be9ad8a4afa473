// Command songc learns Self-Organizing Neural Graphs (SONG, Struski et al.,
// WACV 2023) from CSV or IDX data, evaluates them and predicts with them.
//
// Run `songc --help` or `songc COMMAND --help` for the commands and flags.
// This is the only package that imports kong and the only caller of os.Exit.
package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/alecthomas/kong"

	"github.com/songc/songc/internal/text"
	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer"
	"github.com/songc/songc/trainer/data"
	"github.com/songc/songc/trainer/refine"
)

// version is songc's release; the build's module version is shown beside it.
const version = "0.1.0"

// CLI is the command tree.
type CLI struct {
	HelpAll helpAllFlag      `name:"help-all" help:"Show help with the expert flags too."`
	Version kong.VersionFlag `name:"version" hidden:"" help:"Print songc's version (as songc version does)."`

	Train   TrainCmd   `cmd:"" help:"Learn a SONG classifier (self-organizing neural graph) from a CSV or IDX file."`
	Refine  RefineCmd  `cmd:"" help:"Fine-tune a trained model's hard walk (the classifier that compiles) on its training rows; train already does (its expert flag --refine sets the passes)."`
	Select  SelectCmd  `cmd:"" help:"Keep the best of several graphs trained on the same split (songc train --restart), by validation accuracy."`
	Eval    EvalCmd    `cmd:"" help:"Accuracy of the soft model and of the hard walk, and their agreement, on labelled data."`
	Predict PredictCmd `cmd:"" help:"Predict the class of every row of a file, as the compiled classifier does."`
	Compile CompileCmd `cmd:"" help:"Generate a standalone Go classifier (a package of the standard library only) from a model."`
	Analyze AnalyzeCmd `cmd:"" help:"Structure statistics of the learned graph (used nodes, cycles, root-to-leaf distances); DOT drawings and plots."`
	Bench   BenchCmd   `cmd:"" help:"Time training steps on random data: seconds per batch and effective GFLOP/s (billions of floating-point operations a second)."`
	Ver     VersionCmd `cmd:"" name:"version" help:"Print songc's version."`
}

// Globals are bound into every command's Run.
type Globals struct {
	Ctx    context.Context
	Stdin  io.Reader // what --data - reads
	Stdout io.Writer
	Stderr io.Writer
	// Terminal is true when Stderr is an interactive terminal.
	Terminal bool
}

// DataFlags choose how a CSV file is read.
type DataFlags struct {
	Header   string   `enum:"auto,yes,no" default:"auto" group:"data" help:"Header row in CSV files (${enum})."`
	LabelCol string   `name:"label-col" placeholder:"last|first|N|NAME" group:"data" help:"Label column: last, first, N (from 1) or a name; default: ${label_default}."`
	Ignore   []string `sep:"," placeholder:"NAME" group:"data" help:"Columns to leave out, by header name."`
	Sep      sepFlag  `placeholder:"SEP" group:"data" help:"Field separator: , ';' '|' or tab (default: ${sep_default})."`
}

// sepFlag is --sep's separator; 0 when not given.
type sepFlag rune

// Decode implements kong.MapperValue.
func (f *sepFlag) Decode(ctx *kong.DecodeContext) error {
	var v string
	if err := ctx.Scan.PopValueInto("separator", &v); err != nil {
		return err
	}
	sep, err := data.ParseSeparator(v)
	*f = sepFlag(sep)
	return err
}

// options returns how to read a file of rows for model m: encoded by its
// input columns, matched by name when its training file's header named
// them, by position otherwise.
func (f DataFlags) options(m *runtime.Model) data.CSVOptions {
	o := f.trainOptions()
	o.Schema = m.Inputs()
	o.Named = o.Schema.Named()
	return o
}

// openFor reads the file at path for model m, with noteData's notes
// (quiet: -q was given).
func (f DataFlags) openFor(g *Globals, path string, m *runtime.Model, quiet bool) (*data.Dataset, error) {
	ds, err := data.Open(path, f.options(m))
	if err != nil {
		return nil, err
	}
	noteData(g, ds, quiet)
	return ds, nil
}

// noteData says on stderr when the columns of a file read for a model were
// matched to the model's in another order, or read by position below a
// header the model cannot match or for want of a header, how many rows hold a category
// no training row had, and how many rows of it (a training file's too)
// were left out for a missing label. With quiet (-q), the first, which
// changes nothing the command computes, is not said.
func noteData(g *Globals, ds *data.Dataset, quiet bool) {
	if ds.Reordered && !quiet {
		fmt.Fprintln(g.Stderr, reorderedNote(ds.Name))
	}
	if ds.SkippedHeader {
		fmt.Fprintln(g.Stderr, skippedHeaderNote(ds.Name))
	}
	if ds.ByPosition {
		fmt.Fprintln(g.Stderr, byPositionNote(ds.Name, ds.Schema))
	}
	if ds.Unseen.Rows > 0 {
		fmt.Fprintln(g.Stderr, unseenNote(ds.Name, &ds.Unseen, ds.Rows, ds.Schema))
	}
	if ds.NoLabel.Rows > 0 {
		fmt.Fprintln(g.Stderr, noLabelNote(ds.Name, ds.NoLabel, ds.Schema.Missing))
	}
}

// noLabelNote says how many rows of path were left out for a missing label
// and, when a missing-value token of missing was one, which, and how to
// make it a class.
func noLabelNote(path string, u data.Unlabelled, missing []string) string {
	note := fmt.Sprintf("songc: %s: %s no label (empty, or a missing-value token) and %s left out; the first is line %d", path, text.Has(u.Rows, "row"), text.Verb(u.Rows, "is", "are"), u.First)
	if u.Token == "" {
		return note
	}
	var rest []string
	for _, m := range missing {
		if m != u.Token {
			rest = append(rest, m)
		}
	}
	return note + fmt.Sprintf(`; %q is read as a missing value: if it is a class, train with --missing %q`, u.Token, strings.Join(rest, ","))
}

// reorderedNote says that path's columns were matched by name.
func reorderedNote(path string) string {
	return fmt.Sprintf("songc: %s: columns matched to the model's by name (the file has them in another order)", path)
}

// skippedHeaderNote says that path's header row was skipped and its
// columns read by position, as the model's training file had no header.
func skippedHeaderNote(path string) string {
	return fmt.Sprintf("songc: %s: the first row is read as a header and skipped; the model was trained on a file without one, so the columns are read by position, in the training file's order, whatever the header names them", path)
}

// byPositionNote says that path has no header, so that its columns were
// read by position, in the order of the columns of s, the model's, which
// names them.
func byPositionNote(path string, s *runtime.Schema) string {
	return fmt.Sprintf("songc: %s: the file has no header, so its columns are read by position, as the model's training file had them (%s); a header naming them would match them by name, in any order", path, data.QuoteList(s.Names(), 8))
}

// unseenNote says how many rows of path hold an unseen category, and in
// which columns of s.
func unseenNote(path string, u *data.UnseenTally, rows int, s *runtime.Schema) string {
	return fmt.Sprintf("songc: %s: %d of %d rows %s a category no training row had (it sets none of its column's features): %s", path, u.Rows, rows, text.Verb(u.Rows, "holds", "hold"), u.Columns(s))
}

func (f DataFlags) trainOptions() data.CSVOptions {
	h := data.HeaderAuto
	switch f.Header {
	case "yes":
		h = data.HeaderYes
	case "no":
		h = data.HeaderNo
	}
	return data.CSVOptions{Header: h, LabelCol: f.LabelCol, Ignore: f.Ignore, Separator: rune(f.Sep)}
}

type exitCode int

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, isTerminal(os.Stderr))
	stop()
	os.Exit(code)
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// run parses args and runs the command; it returns the process exit code:
// 0 on success, 1 on a failed command, 2 on bad usage, 130 when interrupted.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, terminal bool) (code int) {
	var cli CLI
	defer func() {
		if r := recover(); r != nil {
			c, ok := r.(exitCode)
			if !ok {
				panic(r)
			}
			code = int(c)
		}
	}()
	parser, err := kong.New(&cli,
		kong.Name("songc"),
		kong.Description("songc trains a Self-Organizing Neural Graph (SONG) classifier on your CSV or IDX (MNIST-style) data, "+
			"and compiles it into Go code that needs only the standard library.\n\n"+
			"Quick start: 'songc train' trains on the embedded Letter data (UCI letter recognition, 26 classes) and prints its accuracy; "+
			"'songc train --data FILE' trains on yours.\n\n"+
			"A SONG routes each row from node to node by learned decisions until it reaches a class: "+
			"the soft model weighs every route, the hard walk (what compiles) follows one. "+
			"The terms: docs/model.md."),
		kong.Writers(stdout, stderr),
		kong.Exit(func(c int) { panic(exitCode(c)) }),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
		kong.Help(helpPrinter),
		kong.ExplicitGroups(flagGroups),
		kong.Vars{"version": versionText(), "label_default": "the model's own, else last", "sep_default": "the model's, if train was given one, else found from each file's first lines", "missing": strings.Join(runtime.DefaultMissing, ","), "majority_level": strconv.FormatFloat(refine.MajorityLevel, 'g', -1, 64), "sizes": sizeList(trainer.DefaultSizes), "budget": durationText(defaultBudget), "kernels": "auto,gonum," + strings.Join(trainer.PackedKernels, ",")},
	)
	if err != nil {
		fmt.Fprintf(stderr, "songc: %v\n", err)
		return 2
	}
	if len(args) > 0 && args[0] == "help" { // songc help [COMMAND]: its --help
		args = append(slices.Clone(args[1:]), "--help")
	}
	kctx, err := parser.Parse(args)
	if err != nil {
		cmd := ""
		var pe *kong.ParseError
		if errors.As(err, &pe) && pe.Context != nil {
			cmd = commandOf(pe.Context)
		}
		// songc predict m.json rows.csv: the data file comes by a flag.
		if arg, ok := strings.CutPrefix(err.Error(), "unexpected argument "); ok {
			if hint := extraArgHint(cmd, arg); hint != "" {
				err = fmt.Errorf("%w: %s", err, hint)
			}
		}
		// eval -q: kong suggests every other letter ("-h", "-m"), and
		// --model and -m, the model's old spellings, which help does not
		// show.
		letter := strings.HasPrefix(err.Error(), "unknown flag -") && !strings.HasPrefix(err.Error(), "unknown flag --")
		err = dropSuggestions(err, func(flag string) bool {
			return flag == `"--model"` || letter && len(flag) == len(`"-m"`)
		})
		// --budget 10: Go's durations need a unit.
		if strings.Contains(err.Error(), "missing unit in duration") {
			err = fmt.Errorf("%w: give a unit, e.g. 90s, 10m or 1h30m", err)
		}
		usage(stderr, cmd, err)
		return 2
	}
	cmd := commandOf(kctx)
	g := &Globals{Ctx: ctx, Stdin: stdin, Stdout: stdout, Stderr: stderr, Terminal: terminal}
	if err := runStoppable(ctx, cmd, func() error { return kctx.Run(g) }); err != nil {
		var ue usageError
		if errors.As(err, &ue) {
			usage(stderr, cmd, err)
			return 2
		}
		// A package's error may name the command already (refine:, select:).
		msg, _ := strings.CutPrefix(err.Error(), cmd+": ")
		fmt.Fprintf(stderr, "songc %s: %s\n", cmd, msg)
		if errors.Is(err, trainer.ErrInterrupted) || errors.Is(err, context.Canceled) {
			return 130
		}
		return 1
	}
	return 0
}

// dropSuggestions returns err without the flags its "did you mean"
// suggests for which drop, given the flag as kong quotes it, is true.
func dropSuggestions(err error, drop func(flag string) bool) error {
	msg := err.Error()
	i := strings.LastIndex(msg, ", did you mean ")
	if i < 0 || !strings.HasSuffix(msg, "?") {
		return err
	}
	suggested := strings.Split(strings.TrimPrefix(msg[i+len(", did you mean "):len(msg)-1], "one of "), ", ")
	kept := slices.DeleteFunc(slices.Clone(suggested), drop)
	switch len(kept) {
	case len(suggested):
		return err
	case 0:
		return errors.New(msg[:i])
	case 1:
		return fmt.Errorf("%s, did you mean %s?", msg[:i], kept[0])
	}
	return fmt.Errorf("%s, did you mean one of %s?", msg[:i], strings.Join(kept, ", "))
}

// extraArgHint says which flag a path given as an argument to cmd, which
// takes none or only the model, belongs to, by what it names: a data file
// unless its extension says an output (or nothing for other commands).
func extraArgHint(cmd, arg string) string {
	one := "train takes no argument"
	switch cmd {
	case "train":
	case "eval", "predict", "refine", "compile", "analyze":
		one = cmd + "'s one argument is the model"
	default:
		return ""
	}
	ext := strings.ToLower(filepath.Ext(arg))
	switch {
	case ext == ".go" && cmd == "compile":
		return fmt.Sprintf("%s; name the classifier's file with -o %s", one, arg)
	case (ext == ".png" || ext == ".svg" || ext == ".dot") && cmd == "analyze":
		return fmt.Sprintf("%s; name the drawing with --%s %s", one, ext[1:], arg)
	case ext == ".json" && (cmd == "train" || cmd == "refine"):
		return fmt.Sprintf("%s; name the model to write with -o %s", one, arg)
	case cmd == "train":
		return fmt.Sprintf("%s; name the data file with --data %s", one, arg)
	}
	return fmt.Sprintf("%s; name a data file with --data %s", one, arg)
}

// stopGrace is how long a command may take to stop by itself once it is
// interrupted: train and refine save their checkpoint first; the others
// check the signal only in their loops, if at all.
func stopGrace(cmd string) time.Duration {
	if cmd == "train" || cmd == "refine" {
		return 5 * time.Minute
	}
	return 500 * time.Millisecond
}

// runStoppable runs work and returns its error, or, once ctx is done
// (Ctrl-C, SIGTERM) and work has not returned within the command's grace
// (stopGrace),
// an error wrapping context.Canceled: the process then exits with 130
// while work, abandoned, may be reading a large file. Outputs are written
// to a temporary file and renamed, so an abandoned write leaves no partial
// output in place.
func runStoppable(ctx context.Context, cmd string, work func() error) error {
	done := make(chan error, 1)
	go func() { done <- work() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	select {
	case err := <-done:
		return err
	case <-time.After(stopGrace(cmd)):
		return fmt.Errorf("interrupted: %w", ctx.Err())
	}
}

// commandOf is the name of the command that was parsed ("" when none was).
func commandOf(kctx *kong.Context) string {
	if n := kctx.Selected(); n != nil {
		return n.Name
	}
	return ""
}

// usage reports a usage error and where to read about the command's flags.
func usage(w io.Writer, cmd string, err error) {
	if cmd == "" {
		fmt.Fprintf(w, "songc: %v\nRun 'songc --help' for usage.\n", err)
		return
	}
	fmt.Fprintf(w, "songc %s: %v\nRun 'songc %s --help' for usage.\n", cmd, err, cmd)
}

// helpPrinter is kong's, except that the model of ModelArg, optional to
// kong so that --model can stand in for it, is shown as the argument it is.
// Printed through a buffer, help wraps at 80 columns (or $COLUMNS) on a
// terminal too.
func helpPrinter(opts kong.HelpOptions, ctx *kong.Context) error {
	out := ctx.Stdout
	var b bytes.Buffer
	ctx.Stdout = &b
	err := kong.DefaultHelpPrinter(opts, ctx)
	ctx.Stdout = out
	if err != nil {
		return err
	}
	_, err = io.WriteString(out, strings.ReplaceAll(b.String(), "[<model>]", "<model>"))
	return err
}

// flagGroups are the headings of the flags in help. The expert groups hold
// only hidden flags, which --help-all shows.
var flagGroups = []kong.Group{
	{Key: "data", Title: "Data:"},
	{Key: "training", Title: "Training:"},
	{Key: "output", Title: "Output:"},
	{Key: "recipe", Title: "Recipe (expert; --preset sets these, a flag given explicitly wins):"},
	{Key: "research", Title: "Research (expert):"},
	{Key: "engine", Title: "Engine (expert):"},
}

// helpAllFlag is --help-all: the help of a command with its expert flags,
// those that are hidden and in a group, shown.
type helpAllFlag bool

// IgnoreDefault keeps kong from resetting the flag.
func (helpAllFlag) IgnoreDefault() {}

// BeforeReset prints the help and exits, as kong's own --help does, before
// any flag is checked.
func (helpAllFlag) BeforeReset(ctx *kong.Context) error {
	node := ctx.Selected()
	if node == nil {
		node = ctx.Model.Node
	}
	for _, level := range node.AllFlags(false) {
		for _, f := range level {
			if f.Group != nil {
				f.Hidden = false
			}
		}
	}
	if err := ctx.PrintUsage(false); err != nil {
		return err
	}
	ctx.Kong.Exit(0)
	return nil
}

// ModelArg is how every command that reads one model takes it: as its first
// argument or, the spelling of earlier releases, with --model (-m). Exactly
// one of the two must be given; AfterApply leaves the path in Model.
type ModelArg struct {
	Model     string `arg:"" optional:"" help:"Model file written by songc train (or refine, or select)."`
	ModelFlag string `name:"model" short:"m" hidden:"" placeholder:"MODEL" help:"The model; same as the MODEL argument."`
}

// AfterApply resolves the two spellings; kong calls it after parsing, so a
// missing or doubled model is a usage error like any other.
func (a *ModelArg) AfterApply() error {
	switch {
	case a.Model == "" && a.ModelFlag == "":
		return errors.New("missing the model: give its file as the first argument")
	case a.Model != "" && a.ModelFlag != "":
		return fmt.Errorf("the model is given twice (%s as argument, %s with --model); give it once", a.Model, a.ModelFlag)
	case a.Model == "":
		a.Model = a.ModelFlag
	}
	return nil
}

// usageError marks an error in the flags (exit code 2).
type usageError struct{ error }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// VersionCmd prints the version.
type VersionCmd struct{}

func (VersionCmd) Help() string {
	return `Example:
  songc version`
}

func (VersionCmd) Run(g *Globals) error {
	fmt.Fprintln(g.Stdout, versionText())
	return nil
}

// versionText is songc's version and the build's, as songc version and
// --version print them.
func versionText() string {
	mod := "devel"
	if bi, ok := debug.ReadBuildInfo(); ok {
		mod = bi.Main.Version + " " + bi.GoVersion
	}
	return fmt.Sprintf("songc %s (%s)", version, mod)
}

// sizeList writes graph sizes as "16/8, 32/10 and 64/20".
func sizeList(sizes [][2]int) string {
	var parts []string
	for _, s := range sizes {
		parts = append(parts, fmt.Sprintf("%d/%d", s[0], s[1]))
	}
	return text.And(parts)
}

// durationText writes d as a person would: 10m, 1h30m, 1m30s, without the
// zero units Duration.String ends with (10m0s, 1h30m0s).
func durationText(d time.Duration) string {
	t := d.String()
	if strings.HasSuffix(t, "m0s") {
		t = strings.TrimSuffix(t, "0s")
	}
	if strings.HasSuffix(t, "h0m") {
		t = strings.TrimSuffix(t, "0m")
	}
	return t
}
