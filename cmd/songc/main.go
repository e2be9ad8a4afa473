// Command songc learns Self-Organizing Neural Graphs (SONG, Struski et al.,
// WACV 2023) from CSV or IDX data, evaluates them and predicts with them.
//
// Run `songc --help` or `songc COMMAND --help` for the commands and flags.
// This is the only package that imports kong and the only caller of os.Exit.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/alecthomas/kong"

	"github.com/songc/songc/trainer"
	"github.com/songc/songc/trainer/data"
)

// version is songc's release; the build's module version is shown beside it.
const version = "0.1.0"

// CLI is the command tree.
type CLI struct {
	Train   TrainCmd   `cmd:"" help:"Learn a SONG from a CSV or IDX file (or the embedded Letter data)."`
	Refine  RefineCmd  `cmd:"" help:"Fine-tune a trained model's hard walk (the classifier that compiles) on its training rows."`
	Select  SelectCmd  `cmd:"" help:"Keep the best of several graphs trained on the same split (songc train --restart), by validation accuracy."`
	Eval    EvalCmd    `cmd:"" help:"Accuracy of the soft model and of the hard walk, and their agreement, on labelled data."`
	Predict PredictCmd `cmd:"" help:"Predict a class (or leaf masses) for every row of a file."`
	Compile CompileCmd `cmd:"" help:"Generate a standalone Go classifier (standard library only) from a model."`
	Analyze AnalyzeCmd `cmd:"" help:"Structure statistics of the learned graph, as in the paper; DOT drawings and plots."`
	Bench   BenchCmd   `cmd:"" help:"Time training steps on random data: seconds per batch and effective GFLOP/s."`
	Version VersionCmd `cmd:"" help:"Print songc's version."`
}

// Globals are bound into every command's Run.
type Globals struct {
	Ctx    context.Context
	Stdout io.Writer
	Stderr io.Writer
	// Terminal is true when Stderr is an interactive terminal.
	Terminal bool
}

// DataFlags choose how a CSV file is read.
type DataFlags struct {
	Header   string `enum:"auto,yes,no" default:"auto" help:"Whether CSV files start with a header row (${enum}); auto: a first row with a non-numeric feature is a header."`
	LabelCol string `name:"label-col" default:"last" placeholder:"last|first|N" help:"The label column of CSV files: last, first, or its 1-based number."`
}

func (f DataFlags) options(features int) data.CSVOptions {
	h := data.HeaderAuto
	switch f.Header {
	case "yes":
		h = data.HeaderYes
	case "no":
		h = data.HeaderNo
	}
	return data.CSVOptions{Header: h, LabelCol: f.LabelCol, Features: features}
}

type exitCode int

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, isTerminal(os.Stderr))
	stop()
	os.Exit(code)
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// run parses args and runs the command; it returns the process exit code:
// 0 on success, 1 on a failed command, 2 on bad usage, 130 when interrupted.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, terminal bool) (code int) {
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
		kong.Description("songc learns Self-Organizing Neural Graphs (SONG) and runs them.\n\n"+
			"Quick start: 'songc train' trains on the embedded Letter data and prints its accuracy."),
		kong.Writers(stdout, stderr),
		kong.Exit(func(c int) { panic(exitCode(c)) }),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
	)
	if err != nil {
		fmt.Fprintf(stderr, "songc: %v\n", err)
		return 2
	}
	kctx, err := parser.Parse(args)
	if err != nil {
		fmt.Fprintf(stderr, "songc: %v\n", err)
		fmt.Fprintln(stderr, "Run 'songc --help' for usage.")
		return 2
	}
	g := &Globals{Ctx: ctx, Stdout: stdout, Stderr: stderr, Terminal: terminal}
	if err := kctx.Run(g); err != nil {
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(stderr, "songc %s: %v\n", strings.Fields(kctx.Command())[0], err)
			return 2
		}
		fmt.Fprintf(stderr, "songc %s: %v\n", strings.Fields(kctx.Command())[0], err)
		if errors.Is(err, trainer.ErrInterrupted) || errors.Is(err, context.Canceled) {
			return 130
		}
		return 1
	}
	return 0
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
	mod := "devel"
	if bi, ok := debug.ReadBuildInfo(); ok {
		mod = bi.Main.Version + " " + bi.GoVersion
	}
	fmt.Fprintf(g.Stdout, "songc %s (%s)\n", version, mod)
	return nil
}
