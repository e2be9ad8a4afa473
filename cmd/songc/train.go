package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/songc/songc/analysis"
	"github.com/songc/songc/internal/text"
	"github.com/songc/songc/runlog"
	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer"
	"github.com/songc/songc/trainer/data"
	"github.com/songc/songc/trainer/refine"
)

// defaultBudget is the auto recipe's search budget when --budget is not
// given.
const defaultBudget = 10 * time.Minute

// TrainCmd learns a model. The flags a person needs are shown by --help;
// the recipe's knobs and research options are hidden, in groups, and shown
// by --help-all. Their measured effects are in docs/RESULTS.md, not here.
type TrainCmd struct {
	Data   string         `placeholder:"FILE" group:"data" help:"Training rows: CSV (gzip'd or not) or IDX images; part is held out to choose the model. Without --data, the embedded Letter data."`
	Test   string         `placeholder:"FILE" group:"data" help:"Test rows: only scored, never used to choose."`
	Nodes  *int           `placeholder:"N" group:"training" help:"Decision nodes (64, or searched by auto unless given)."`
	Steps  *int           `placeholder:"N" group:"training" help:"At most N decisions a row (20, or searched by auto unless given); past them, a fallback class (a forced exit)."`
	Epochs *int           `placeholder:"N" group:"training" help:"Passes over the rows: fast 120, quick 60, paper 250; auto: until validation stalls, up to N (default 120-400)."`
	Preset string         `placeholder:"auto|paper|fast|quick" group:"training" help:"Recipe. auto (default with --data) searches sizes, rates and decays, then saves a tree if better on validation rows, a logistic regression unless the graph beats it by a sign test, else the majority class, warning (--no-tree, --no-logistic keep the graph). fast: one graph, 64 nodes, 120 epochs; quick: 60 epochs; paper: the SONG paper's."`
	Budget *time.Duration `placeholder:"DURATION" group:"training" help:"Auto's time to search and train, e.g. 90s (default ${budget}; 0: no limit), up to a quarter more; refining follows."`
	Seed   uint64         `default:"1" group:"training" help:"Seed of every random choice: same data, flags, seed, kernel and songc, same model (unless --budget cut it)."`

	Output     string `short:"o" placeholder:"MODEL" group:"output" help:"Where to write the model (default model.json; without -o an existing model.json is an error, not replaced)."`
	Log        string `placeholder:"FILE" group:"output" help:"Per-epoch JSON-lines log (m.log.jsonl for m.json)."`
	Checkpoint string `placeholder:"FILE" group:"output" help:"Save the run every epoch, to resume it if it stops (else Ctrl-C saves MODEL.ckpt)."`
	Resume     string `placeholder:"FILE" group:"output" help:"Continue a checkpoint's run, with its flags; give --data, --test, -o, --log only if moved."`
	Quiet      bool   `short:"q" group:"output" help:"No progress output or notes; warnings stay."`

	Batch       *int     `placeholder:"N" hidden:"" group:"recipe" help:"Rows per training batch."`
	LR          *float64 `name:"lr" placeholder:"RATE" hidden:"" group:"recipe" help:"Learning rate of the Adam optimiser."`
	LRSchedule  *string  `name:"lr-schedule" placeholder:"constant|cosine" hidden:"" group:"recipe" help:"Keep the learning rate constant, or lower it to 0 along a half cosine."`
	Standardize *bool    `negatable:"" hidden:"" group:"recipe" help:"Scale every feature to mean 0 and standard deviation 1 (recorded in the model and applied when it predicts)."`
	Anneal      *float64 `placeholder:"SHARE" hidden:"" group:"recipe" help:"Share of the last epochs over which the model is cooled toward the hard walk that compiles (0: off)."`
	AnnealTemp  *float64 `name:"anneal-temp" placeholder:"TAU" hidden:"" group:"recipe" help:"Final temperature of --anneal."`
	Patience    *int     `placeholder:"N" hidden:"" group:"recipe" help:"Keep the learning rate until the hard walk's validation accuracy has not risen for N epochs, then decay it and anneal; --epochs bounds the run and paces the Gumbel noise (0: off)."`
	Select      *string  `placeholder:"soft|hard|balanced" hidden:"" group:"recipe" help:"Keep the epoch whose soft model, hard walk, or hard walk by balanced accuracy (the mean over the classes, for imbalanced data) does best on the validation rows; the auto recipe also ranks its candidates so."`
	Ties        *string  `placeholder:"earlier|loss" hidden:"" group:"recipe" help:"Of epochs with the same validation score, keep the first, or the one whose soft model has the lower validation log loss (auto: loss)."`
	Refine      *int     `placeholder:"PASSES" hidden:"" group:"recipe" help:"After training, fine-tune the hard walk as songc refine does, for at most PASSES passes (0: off)."`
	Majority    *bool    `name:"majority-check" negatable:"" hidden:"" group:"recipe" help:"After refining (and the tree and logistic checks), keep the walk or tree only if it beats always predicting the most frequent class on the validation rows (a one-sided sign test at level ${majority_level}; with fewer than 5 rows that tell the two apart, the one right more often wins), and the logistic check's regression, in its place or where the walk lost, only if it is right on more of those rows than the constant; otherwise save that constant model, with a warning. Needs refining and validation rows, not --select balanced. Default: on with the auto recipe (off there under --select balanced)."`
	Tree        *bool    `name:"tree" negatable:"" hidden:"" group:"recipe" help:"After refining, also grow a decision tree on single columns (as CART does, up to 128 leaves, its size chosen on the validation rows) and save it, grown again on all the training rows, in place of the walk when it scores better on the validation rows. Needs refining and validation rows. Default: on with the auto recipe."`
	Logistic    *bool    `name:"logistic" negatable:"" hidden:"" group:"recipe" help:"After refining and the tree check, also fit a logistic regression on all the columns (ridge weight 1/rows) and save it, fitted again on all the training rows, in place of the walk or tree unless that beats it on the validation rows by a one-sided sign test at level ${majority_level} (under --select balanced: when the regression scores higher there). Needs refining and validation rows. Default: on with the auto recipe."`

	Val             *float64 `placeholder:"SHARE" hidden:"" group:"research" help:"Share of the training rows held out to choose the model (default 0.1; with the auto recipe 0.1 to 0.3, more on small data); 0 keeps the last epoch."`
	Restart         int      `placeholder:"R" default:"0" hidden:"" group:"research" help:"Number of this graph among several trained with one --seed and one validation split, for songc select."`
	Restarts        int      `placeholder:"K" default:"1" hidden:"" group:"research" help:"Train K graphs of the recipe (restarts --restart to --restart+K-1) side by side on shared batches and keep the one that does best on the validation rows (not with the auto recipe)."`
	Init            string   `enum:"paper,fan-in" default:"paper" hidden:"" group:"research" help:"Initial scale of the node weights (${enum}); fan-in is larger, for standardised inputs."`
	Gumbel          string   `enum:"dirty,off" default:"dirty" hidden:"" group:"research" help:"Random (Gumbel) noise on the transition logits during training (${enum}); dirty, the authors' schedule, noises fewer batches as training goes on."`
	NodeRegGamma    float64  `name:"node-reg-gamma" default:"1" hidden:"" group:"research" help:"Exponent of the node regularisation (a term that rewards nodes for splitting their rows both ways), in [1, 2)."`
	NodeRegLambda   float64  `name:"node-reg-lambda" default:"0" hidden:"" group:"research" help:"Weight of the node regularisation (0: off)."`
	WeightDecay     *float64 `name:"weight-decay" placeholder:"WD" hidden:"" group:"recipe" help:"Decoupled weight decay of the node weights, as in AdamW (0: off)."`
	StraightThrough float64  `name:"straight-through" placeholder:"SHARE" default:"0" hidden:"" group:"research" help:"Share of the last epochs that train the hard walk itself: the forward pass takes the hard walk's decisions, the gradients are the soft model's (0: off)."`
	StraightLR      float64  `name:"straight-through-lr" placeholder:"RATE" default:"0" hidden:"" group:"research" help:"Learning rate at the first --straight-through epoch, falling to 0 from there (0: the run's schedule)."`

	Precision string `enum:"f32,f64" default:"f32" hidden:"" group:"engine" help:"Training precision (${enum}); models are stored and evaluated in float64 either way."`
	Kernel    string `enum:"${kernels}" default:"auto" hidden:"" group:"engine" help:"Matrix kernel (${enum}); auto picks the widest the CPU runs (avx512, then avx2); avx512 and avx2 need --precision f32. The model's parameters are the same on avx512 and avx2, and may differ on gonum."`

	DataFlags   `embed:"" set:"label_default=last" set:"sep_default=found from the first lines"`
	Categorical []string `sep:"," placeholder:"NAME" hidden:"" group:"data" help:"Columns to read as categories, whatever their values (by header name; x1, x2... without a header)."`
	Numeric     []string `sep:"," placeholder:"NAME" hidden:"" group:"data" help:"Columns to read as numbers: a field that is neither a number nor missing is an error."`
	Missing     *string  `placeholder:"TOKENS" group:"data" help:"Missing-value tokens in place of the default (${missing})."`
}

// Help implements kong.HelpProvider.
func (TrainCmd) Help() string {
	return `Examples:
  songc train                  # the demo: quick recipe, embedded Letter data
  songc train --data train.csv --test test.csv -o letter.json
  songc compile letter.json -o letter/letter.go   # next: the Go classifier

A SONG routes each row from node to node by learned linear tests until it
reaches a class; the compiled code follows the same route (docs/model.md).
Column names, categories and missing values are read as they are (docs/data.md).
Progress goes to stderr; Ctrl-C saves a checkpoint, which --resume continues.`
}

// trainArgs is what a checkpoint needs beyond the training config to resume:
// where the data and the outputs are.
type trainArgs struct {
	Data, Test, Output, Log string
	Header, LabelCol        string
	Categorical, Numeric    []string `json:",omitempty"`
	Ignore                  []string `json:",omitempty"`
	Missing                 *string  `json:",omitempty"`
	Sep                     sepFlag  `json:",omitempty"`
	Demo                    bool
	Refine                  int   // passes of songc refine after training (0: none)
	Checkpointed            bool  `json:",omitempty"` // --checkpoint was given: the checkpoint is the run's own
	Majority                *bool `json:",omitempty"` // refine's majority check (nil: on for the auto recipe)
	Tree                    *bool `json:",omitempty"` // refine's tree check (nil: on for the auto recipe)
	Logistic                *bool `json:",omitempty"` // refine's logistic check (nil: on for the auto recipe)
}

func (c *TrainCmd) Run(g *Globals) (err error) {
	var args trainArgs
	var cfg trainer.Config
	var preset string
	var ckpt *trainer.Checkpoint
	var sckpt *trainer.SearchCheckpoint // a search's checkpoint, resumed by --resume
	var interrupted string              // the resumed checkpoint, when Ctrl-C wrote it
	if c.Resume != "" {
		if err := c.resumeConflicts(); err != nil {
			return err
		}
		var err error
		var ckArgs []byte
		if trainer.IsSearchCheckpoint(c.Resume) {
			if sckpt, err = trainer.LoadSearchCheckpoint(c.Resume); err != nil {
				return err
			}
			ckArgs, cfg, preset = sckpt.Args, sckpt.Search.Base, "auto"
		} else {
			if ckpt, err = trainer.LoadCheckpoint(c.Resume); err != nil {
				return err
			}
			ckArgs, cfg = ckpt.Args, ckpt.Config
		}
		if err := json.Unmarshal(ckArgs, &args); err != nil {
			return fmt.Errorf("%s: checkpoint has no readable data paths: %v", c.Resume, err)
		}
		ctrlC := !args.Checkpointed && sameFile(c.Resume, ctrlCFor(args.Output))
		switch {
		case ctrlC && !sameFile(c.Checkpoint, c.Resume):
			// The checkpoint Ctrl-C wrote for a run without
			// --checkpoint: it goes once the model is saved, also when
			// the resumed run saves to a --checkpoint of its own.
			interrupted = c.Resume
		case c.Checkpoint == "":
			c.Checkpoint = c.Resume // the run's own, saved to as before
		}
		// The checkpoint's paths are absolute; where a flag says where the
		// data or outputs are now, it wins (ResumeRun checks that the rows
		// are the same by their fingerprint).
		if c.Data != "" {
			args.Data, args.Demo = c.Data, false
		}
		if c.Test != "" {
			args.Test = c.Test
		}
		if c.Output != "" {
			args.Output = c.Output
			args.Log = "" // follows the model, as without --resume
		}
		if c.Log != "" {
			args.Log = c.Log
		}
	} else {
		args = trainArgs{Data: c.Data, Test: c.Test, Output: c.Output, Log: c.Log,
			Header: c.Header, LabelCol: c.LabelCol, Categorical: c.Categorical, Numeric: c.Numeric, Ignore: c.Ignore, Missing: c.Missing, Sep: c.Sep, Demo: c.Data == ""}
		if args.Output == "" {
			args.Output = defaultModel
			if err := checkNotClobbered(args.Output); err != nil {
				return err
			}
		}
		if args.Demo && c.Test != "" {
			return usagef("--test needs --data (the embedded demo brings its own test split)")
		}
		preset = c.Preset
		if !slices.Contains(append(trainer.Presets, ""), preset) {
			return usagef("--preset must be auto, paper, fast or quick, got %q", preset)
		}
		if preset == "" {
			preset = "auto"
			if args.Demo {
				preset = "quick"
			}
		}
		var err error
		if cfg, err = trainer.PresetConfig(preset); err != nil {
			return usageError{err}
		}
		cfg.Seed, cfg.Restart, cfg.Precision, cfg.Kernel = c.Seed, c.Restart, c.Precision, c.Kernel
		setIf(&cfg.Val, c.Val)
		cfg.NodeRegGamma, cfg.NodeRegLambda = c.NodeRegGamma, c.NodeRegLambda
		cfg.Gumbel, cfg.Init = c.Gumbel, c.Init
		setIf(&cfg.WeightDecay, c.WeightDecay)
		cfg.StraightThrough, cfg.StraightLR = c.StraightThrough, c.StraightLR
		// Flags given on the command line win over the recipe.
		setIf(&cfg.Nodes, c.Nodes)
		setIf(&cfg.Steps, c.Steps)
		setIf(&cfg.Epochs, c.Epochs)
		setIf(&cfg.Batch, c.Batch)
		setIf(&cfg.LR, c.LR)
		setIf(&cfg.Standardize, c.Standardize)
		setIf(&cfg.Anneal, c.Anneal)
		setIf(&cfg.AnnealTemp, c.AnnealTemp)
		setIf(&cfg.Select, c.Select)
		setIf(&cfg.Ties, c.Ties)
		setIf(&cfg.Patience, c.Patience)
		setIf(&cfg.LRSchedule, c.LRSchedule)
		if preset == "auto" {
			if err := c.autoConflicts(); err != nil {
				return err
			}
		} else if c.Budget != nil {
			fixed := "--preset " + preset + " trains"
			if c.Preset == "" {
				fixed = "without --data, the embedded demo trains the quick recipe,"
			}
			return usagef("--budget bounds the auto recipe's search, and %s one fixed recipe: leave --budget out, or set its length with --epochs", fixed)
		}
		if err := trainer.CheckConfig(&cfg); err != nil {
			return usageError{err}
		}
		if err := trainer.CheckRestarts(cfg, c.Restarts); err != nil {
			return usageError{err}
		}
		if preset != "paper" {
			args.Refine = presetRefine
		}
	}
	// Given on the command line, they replace the checkpoint's or the
	// recipe's.
	setIf(&args.Refine, c.Refine)
	if c.Majority != nil {
		args.Majority = c.Majority
	}
	if c.Tree != nil {
		args.Tree = c.Tree
	}
	if c.Logistic != nil {
		args.Logistic = c.Logistic
	}
	if args.Refine < 0 {
		return usagef("--refine must be at least 0, got %d", args.Refine)
	}
	if c.Majority != nil && *c.Majority {
		if err := checkMajority(args.Refine, cfg.Val, cfg.Select, false); err != nil {
			return err
		}
	}
	for _, check := range []struct {
		flag, what string
		on         *bool
	}{{"--tree", "a tree", c.Tree}, {"--logistic", "a logistic regression", c.Logistic}} {
		if check.on == nil || !*check.on {
			continue
		}
		// The tree and logistic checks run where the majority check
		// could, whatever the selection.
		switch refine.MajorityBarred(args.Refine, cfg.Val > 0, "") {
		case refine.MajorityNoRefine:
			return usagef("%s compares %s with the refined walk on the validation rows: it needs --refine above 0 (--preset paper does not refine)", check.flag, check.what)
		case refine.MajorityNoVal:
			return usagef("%s compares %s with the refined walk on the validation rows, and there are none (--val 0)", check.flag, check.what)
		}
	}
	if args.Log == "" {
		args.Log = logFor(args.Output)
	}
	// The model first, so that an error names it.
	interrupt := ctrlCFor(args.Output) // the checkpoint Ctrl-C writes
	flags := []string{"-o", "--log", "--checkpoint"}
	outputs := map[string]string{"-o": args.Output, "--log": args.Log, "--checkpoint": c.Checkpoint}
	if c.Checkpoint == "" {
		const ctrlC = "the checkpoint Ctrl-C writes (MODEL.ckpt)"
		flags, outputs[ctrlC] = append(flags, ctrlC), interrupt
	}
	made, err := checkOutputs(flags, outputs, dataFiles(args.Data, args.Test)...)
	if err != nil {
		return err
	}
	defer removeOnError(&err, &made) // on the data, say: the folders made go again

	train, test, err := loadTrainData(args)
	if err != nil {
		return err
	}
	// The training rows first: a label that is no label is said before
	// the test file is matched to its classes, and before the columns are
	// described.
	task, err := trainer.NewTask(train, nil)
	if err != nil {
		return err
	}
	warned, err := readWarnings(train, task, args.Header, args.LabelCol != "")
	if err != nil {
		return err
	}
	if train.Schema != nil && !c.Quiet { // a CSV file
		fmt.Fprintf(g.Stderr, "songc: %s: %s%s\n", train.Name, separatedBy(train.Separator, train.CommaPoints), describeColumns(task))
	}
	for _, w := range warned { // always said: the file may be misread
		fmt.Fprintf(g.Stderr, "songc: warning: %s: %s\n", train.Name, w)
	}
	if test != nil && sameFile(args.Data, args.Test) { // not a misreading: not recalled with those
		fmt.Fprintf(g.Stderr, "songc: warning: %s: --test names this file too, so the test scores measure rows the model trained on and flatter it: give --test a file of other rows\n", train.Name)
	} else if test != nil {
		// Three quarters: data of few distinct values repeats rows in
		// earnest (zoo's test file: 54%, of animals alike).
		if n := test.Shared(train); 4*n >= 3*test.Rows && test.Rows >= 20 {
			fmt.Fprintf(g.Stderr, "songc: warning: %s: %d of its %d rows repeat a row of %s exactly (features and label), so the test scores mostly measure rows the model trained on and flatter it: if the file was made from the training rows, give --test rows that are not among them\n", test.Name, n, test.Rows, train.Name)
		}
	}
	for _, ds := range []*data.Dataset{train, test} {
		if ds != nil {
			noteData(g, ds, c.Quiet)
		}
	}
	all, err := attachTest(g, task, test, !c.Quiet) // its warning below the files' notes
	if err != nil {
		return err
	}
	src := train.Name
	if args.Demo {
		src = "embedded Letter data"
	}
	args.Checkpointed = c.Checkpoint != "" // resumed from its own, or given one now
	saved := args                          // the checkpoint keeps absolute paths: resumable from any folder
	saved.Data, saved.Test, saved.Output, saved.Log = abs(args.Data), abs(args.Test), abs(args.Output), abs(args.Log)
	ckArgs := prepareArgs(saved)
	var show func(trainer.Progress)
	// measure records the structure of the binary graph after every epoch,
	// for the paper's "back edges fall as the loss falls" curves (songc
	// analyze --plots).
	measure := func(r *trainer.Run) {
		r.OnEpoch = func(rec *runlog.EpochRecord, p *trainer.Params) {
			if eg, err := analysis.EpochGraphOf(p.Model(task.ClassNames)); err == nil {
				rec.Graph, _ = json.Marshal(eg)
			}
		}
	}
	// prepare sets where the run's checkpoint, log and progress go.
	prepare := func(r *trainer.Run) {
		r.Args, r.CheckpointPath, r.InterruptPath = ckArgs, c.Checkpoint, interrupt
		measure(r)
		// The log is rewritten after every epoch, so a long run can be
		// watched and an interrupted one keeps its curve.
		r.Progress = func(p trainer.Progress) {
			if p.EpochDone {
				if err := writeLog(args.Log, r.Records()); err != nil && !c.Quiet {
					fmt.Fprintf(g.Stderr, "songc: warning: %v\n", err)
				}
			}
			if show != nil {
				show(p)
			}
		}
		if r.ValRows() == 0 && r.Config.Val > 0 {
			kept := "the last epoch is kept"
			if args.Refine > 0 {
				kept += ", refining keeps its last pass"
			}
			fmt.Fprintf(g.Stderr, "songc: warning: the validation split (%g of each class, rounded, keeping at least one row of each class to train on) holds no row of %s: %s, and no accuracy below is measured on held-out rows; train on more rows or raise --val\n",
				r.Config.Val, src, kept)
		}
		if !c.Quiet {
			s := r.Shape()
			fmt.Fprintf(g.Stderr, "songc: training on %s: %s, %s, %s, %s; %s",
				src, text.Count(s.Classes, "class"), text.Count(s.Features, "feature"), text.Count(r.TrainRows(), "training row"), text.Count(r.ValRows(), "validation row"), r.Config)
			if args.Refine > 0 {
				fmt.Fprintf(g.Stderr, ", then refined (at most %s)", text.Count(args.Refine, "pass"))
			}
			switch done := r.EpochsDone(); {
			case r.Search != nil && ckpt == nil && r.Done():
				end := text.Verb(done, "its one epoch", "all "+text.Count(done, "epoch"))
				if done < r.Config.Epochs {
					end = fmt.Sprintf("%d of at most %d epochs", done, r.Config.Epochs)
				}
				fmt.Fprintf(g.Stderr, "; chosen by the search, which had trained it to its end: %s", end)
			case r.Search != nil && ckpt == nil:
				fmt.Fprintf(g.Stderr, "; chosen by the search after %s, it trains on to its end", text.Count(done, "epoch"))
			case done > 0:
				fmt.Fprintf(g.Stderr, "; resuming after epoch %d", done)
			}
			fmt.Fprintln(g.Stderr)
			show = newProgressPrinter(g.Stderr, g.Terminal, r.ValRows() > 0)
		}
	}
	start := time.Now()
	var r *trainer.Run
	switch {
	case ckpt != nil && ckpt.Graphs() > 1:
		var rs *trainer.Restarts
		if rs, err = trainer.ResumeRestarts(ckpt, task); err != nil {
			return err
		}
		r, err = c.trainRestarts(g, rs, ckArgs, interrupt, prepare, measure)
	case ckpt != nil:
		if r, err = trainer.ResumeRun(ckpt, task); err != nil {
			return err
		}
		prepare(r)
		err = r.Train(g.Ctx)
	case preset == "auto":
		var s trainer.Search
		if sckpt != nil {
			s = sckpt.Search
		} else if s, err = c.plan(cfg, task); err != nil {
			return err
		}
		s.Args, s.CheckpointPath, s.InterruptPath = ckArgs, c.Checkpoint, interrupt
		s.Each, s.Chosen = measure, prepare
		r, err = c.search(g, s, task, src, sckpt)
	case c.Restarts > 1:
		var rs *trainer.Restarts
		if rs, err = trainer.NewRestarts(cfg, task, c.Restarts); err != nil {
			return err
		}
		r, err = c.trainRestarts(g, rs, ckArgs, interrupt, prepare, measure)
	default:
		if r, err = trainer.NewRun(cfg, task); err != nil {
			return err
		}
		prepare(r)
		err = r.Train(g.Ctx)
	}
	if err != nil {
		var ie *trainer.InterruptError
		if errors.As(err, &ie) {
			return fmt.Errorf("%w; resume with: songc train --resume %s", err, ie.Checkpoint)
		}
		return err
	}
	model, err := r.Model(version)
	if err != nil {
		return err
	}
	if args.Refine > 0 {
		// By default the auto recipe (a search chose the run) runs the
		// checks: the tree's, the logistic regression's, the majority's.
		auto := func(flag *bool) bool {
			on := r.Search != nil
			setIf(&on, flag)
			return on
		}
		refined, err := refineModel(g, model, task, refine.Config{Passes: args.Refine, MajorityCheck: auto(args.Majority), Tree: auto(args.Tree), Logistic: auto(args.Logistic)}, c.Quiet)
		if err != nil {
			// Hours of training are not lost to a failed or interrupted refine.
			if serr := model.Save(args.Output); serr != nil {
				return fmt.Errorf("%v; saving the trained model failed too: %v", err, serr)
			}
			return fmt.Errorf("%w; the trained model, not refined, is saved in %s (songc refine %s continues)", err, args.Output, args.Output)
		}
		model = refined
	}
	if err := model.Save(args.Output); err != nil {
		return err
	}
	if err := writeLog(args.Log, r.Records()); err != nil {
		return err
	}
	if r.CheckpointPath == "" {
		os.Remove(r.InterruptPath) // a stale one from an earlier interrupted run
	}
	if interrupted != "" {
		os.Remove(interrupted) // resumed, and done with
	}
	meta, _ := runlog.ReadMetadata(model.Training)
	if err := reportTraining(g, model, meta, r, all, args, time.Since(start), c.Quiet, len(warned) == 0); err != nil {
		return err
	}
	if meta.Constant() != nil && args.LabelCol == "" && train.Schema != nil && !c.Quiet {
		// The label taken by default may not be the one meant.
		label := "its last column"
		if train.Schema.Label != "" {
			label = fmt.Sprintf("its last column, %q", train.Schema.Label)
		}
		fmt.Fprintf(g.Stderr, "songc: the label of %s is %s, as no --label-col was given: if another column is the label, name it with --label-col%s\n", train.Name, label, labelHint(train))
	}
	// The warnings came before the progress lines, which can push them
	// out of sight.
	if len(warned) > 0 && !c.Quiet {
		what := text.Verb(len(warned), "a warning", text.Count(len(warned), "warning"))
		why := "as the file may have been misread"
		if meta.Constant() != nil && numbersAsWords(train) {
			// A column of numbers read as categories may hold what the
			// walk lacked.
			why += ", and a column of numbers read as categories may be why the walk could not beat the constant: write its numbers plainly and train again"
		}
		fmt.Fprintf(g.Stderr, "songc: %s about %s came before training, above: read %s before you use the model, %s\n", what, train.Name, text.Verb(len(warned), "it", "them"), why)
	}
	return nil
}

// trainRestarts trains the graphs of rs side by side, the first showing
// the progress and writing the log, and returns the one kept: the best on
// the validation rows.
func (c *TrainCmd) trainRestarts(g *Globals, rs *trainer.Restarts, ckArgs []byte, interrupt string, prepare, measure func(*trainer.Run)) (*trainer.Run, error) {
	rs.Args, rs.CheckpointPath, rs.InterruptPath = ckArgs, c.Checkpoint, interrupt
	lead := rs.Runs[0]
	prepare(lead)
	lead.CheckpointPath, lead.InterruptPath = "", "" // rs saves every graph
	for _, r := range rs.Runs[1:] {
		measure(r)
	}
	if !c.Quiet {
		fmt.Fprintf(g.Stderr, "songc: %d graphs side by side on shared batches (restarts %d to %d); progress shows the first, and the one best on the validation rows is kept\n",
			len(rs.Runs), lead.Config.Restart, rs.Runs[len(rs.Runs)-1].Config.Restart)
	}
	if err := rs.Train(g.Ctx); err != nil {
		return nil, err
	}
	best := rs.Best()
	if !c.Quiet {
		var scores []string
		for _, r := range rs.Runs {
			scores = append(scores, fmt.Sprintf("restart %d %.2f%%", r.Config.Restart, 100*r.BestScore()))
		}
		by := map[string]string{"": "soft model's accuracy", "soft": "soft model's accuracy", "hard": "hard walk's accuracy", "balanced": "hard walk's balanced accuracy"}[best.Config.Select]
		fmt.Fprintf(g.Stderr, "songc: kept restart %d of %d, the best by the %s on the validation rows (%s)\n", best.Config.Restart, len(rs.Runs), by, strings.Join(scores, ", "))
	}
	best.CheckpointPath, best.InterruptPath = rs.CheckpointPath, rs.InterruptPath
	return best, nil
}

// plan is the auto recipe's search: trainer.DefaultSearch for the task,
// with the sizes, rate, decay, epochs and patience the user gave, if any,
// fixed.
func (c *TrainCmd) plan(cfg trainer.Config, task *trainer.Task) (trainer.Search, error) {
	if c.Val == nil {
		cfg.Val = trainer.DefaultValShare(task.Train.Rows)
	}
	s := trainer.DefaultSearch(task, cfg)
	if c.Epochs == nil {
		cfg.Epochs = s.Base.Epochs
	}
	if c.Patience == nil {
		cfg.Patience = s.Base.Patience
	}
	s.Derived.Epochs, s.Derived.Patience = c.Epochs == nil, c.Patience == nil
	s.Base = cfg
	s.Sizes = fixSize(s.Sizes, c.Nodes, c.Steps)
	if c.LR != nil {
		s.LRs = []float64{cfg.LR}
	}
	if c.WeightDecay != nil {
		s.WeightDecays = []float64{cfg.WeightDecay}
	}
	s.Budget = defaultBudget
	setIf(&s.Budget, c.Budget)
	if c.Val == nil { // a share the user gives is kept
		s.AimSE = trainer.DefaultAimSE
	}
	if err := s.Validate(); err != nil {
		return s, usageError{err}
	}
	return s, nil
}

// resumeConflicts refuses, with --resume, the flags that would change the
// run: a resumed run continues with the checkpoint's own recipe. Only where
// files are (--data, --test, -o, --log, --checkpoint), --refine,
// --[no-]majority-check, --[no-]tree, --[no-]logistic and --quiet may be given, and the others are
// refused even at the value the run started with, since the checkpoint
// holds them. A flag given at its default value cannot be told from one not
// given, and is let through.
func (c *TrainCmd) resumeConflicts() error {
	var given []string
	for flag, set := range map[string]bool{
		"--nodes": c.Nodes != nil, "--steps": c.Steps != nil, "--epochs": c.Epochs != nil, "--batch": c.Batch != nil,
		"--lr": c.LR != nil, "--lr-schedule": c.LRSchedule != nil, "--standardize": c.Standardize != nil,
		"--anneal": c.Anneal != nil, "--anneal-temp": c.AnnealTemp != nil, "--select": c.Select != nil, "--ties": c.Ties != nil,
		"--patience": c.Patience != nil, "--weight-decay": c.WeightDecay != nil, "--val": c.Val != nil,
		"--preset": c.Preset != "", "--seed": c.Seed != 1, "--restart": c.Restart != 0, "--precision": c.Precision != "f32",
		"--init": c.Init != "paper", "--gumbel": c.Gumbel != "dirty", "--node-reg-gamma": c.NodeRegGamma != 1,
		"--node-reg-lambda": c.NodeRegLambda != 0, "--straight-through": c.StraightThrough != 0,
		"--straight-through-lr": c.StraightLR != 0, "--kernel": c.Kernel != "auto", "--budget": c.Budget != nil,
		"--header": c.Header != "auto", "--label-col": c.LabelCol != "", "--restarts": c.Restarts != 1,
		"--categorical": c.Categorical != nil, "--numeric": c.Numeric != nil, "--missing": c.Missing != nil,
		"--ignore": c.Ignore != nil, "--sep": c.Sep != 0,
	} {
		if set {
			given = append(given, flag)
		}
	}
	if len(given) > 0 {
		slices.Sort(given)
		return usagef("--resume continues a run with the flags it was started with, which its checkpoint holds: leave out %s (or start a new run to change them)", strings.Join(given, ", "))
	}
	return nil
}

// autoConflicts refuses flags that leave the auto recipe nothing to choose
// by, before any data is read.
func (c *TrainCmd) autoConflicts() error {
	switch {
	case c.Val != nil && *c.Val == 0:
		return usagef("the auto recipe chooses on validation rows: --val must be above 0 (or choose another --preset)")
	case c.Patience != nil && *c.Patience < 1:
		return usagef("the auto recipe stops each candidate by its patience: --patience must be at least 1 (or choose another --preset)")
	case c.Budget != nil && *c.Budget < 0:
		return usagef("--budget must be 0 (no limit) or more, got %s", *c.Budget)
	case c.Restarts != 1:
		return usagef("--restarts trains several graphs of one recipe; the auto recipe searches instead (give --preset fast, paper or quick)")
	}
	return nil
}

// fixSize returns the sizes the search tries when the user gave the nodes,
// the steps or both: the given pair, or for one of them the ladder's size
// nearest to it with that one replaced.
func fixSize(ladder [][2]int, nodes, steps *int) [][2]int {
	if nodes == nil && steps == nil {
		return ladder
	}
	near := ladder[0]
	for _, sz := range ladder {
		dist := func(s [2]int) int {
			if nodes != nil {
				return max(s[0]-*nodes, *nodes-s[0])
			}
			return max(s[1]-*steps, *steps-s[1])
		}
		if dist(sz) < dist(near) {
			near = sz
		}
	}
	if nodes != nil {
		near[0] = *nodes
	}
	if steps != nil {
		near[1] = *steps
	}
	return [][2]int{near}
}

// sameFile reports whether paths a and b name one existing file.
func sameFile(a, b string) bool {
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}

// prepareArgs is what a checkpoint keeps of the command line: where the
// data and outputs are, with absolute paths.
func prepareArgs(a trainArgs) []byte {
	b, _ := json.Marshal(a)
	return b
}

// list formats numbers as a comma-separated list.
func list[T int | float64](v []T) string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = fmt.Sprint(x)
	}
	return strings.Join(out, ", ")
}

// fraction names 1/eta in words where it has a common name.
func fraction(eta int) string {
	switch eta {
	case 2:
		return "a half"
	case 3:
		return "a third"
	case 4:
		return "a quarter"
	}
	return fmt.Sprintf("1/%d", eta)
}

// search runs the auto recipe's search s (resuming ck when it is set),
// with progress per candidate (searchPrinter).
func (c *TrainCmd) search(g *Globals, s trainer.Search, task *trainer.Task, src string, ck *trainer.SearchCheckpoint) (*trainer.Run, error) {
	if err := s.Ready(task); err != nil { // before the first line of progress
		return nil, err
	}
	if !c.Quiet {
		n := len(s.Candidates())
		resumed := ""
		if ck != nil {
			resumed = " (resuming " + ck.Path + ")"
		}
		rounds := ""
		if rungs := s.Rungs(); len(rungs) > 0 {
			rounds = fmt.Sprintf(", in rounds cut to %s at epochs %s (a candidate whose validation accuracy stalls stops sooner)", fraction(s.Eta), list(rungs))
		}
		budget := "budget " + durationText(s.Budget)
		if s.Budget == 0 {
			budget = "no time limit"
		}
		fmt.Fprintf(g.Stderr, "songc: searching on %s: %s (nodes/steps %s; lr %s; weight decay %s)%s, %s%s\n",
			src, text.Count(n, "candidate"), sizeList(s.Sizes), list(s.LRs), list(s.WeightDecays), rounds, budget, resumed)
		sp := &searchPrinter{w: g.Stderr, terminal: g.Terminal}
		defer sp.end()
		s.Progress = sp.progress
		if chosen := s.Chosen; chosen != nil { // a search cut short ends mid-round
			s.Chosen = func(r *trainer.Run) { sp.end(); chosen(r) }
		}
		s.Again = func(t *trainer.Search) { // after a round's last line: no live line
			p, n := t.Pilot.Best, t.Pilot.ValRows
			fmt.Fprintf(g.Stderr, "songc: the best finalist's %.2f%% on %d validation rows has a standard error of %.1f points, above %.1f: searching again on %d validation rows (%.0f%% of the training rows), cut to %s at epochs %s\n",
				100*p, n, 100*trainer.StdErr(p, n), 100*t.AimSE, task.ValRows(t.Base.Val), 100*t.Base.Val, fraction(t.Eta), list(t.Rungs()))
		}
	}
	r, _, err := s.Resume(g.Ctx, task, ck)
	return r, err
}

// searchPrinter prints a search's progress: a line per candidate, or on a
// terminal a short live line rewritten for each candidate (at most 80
// columns, so that it does not wrap) and one line kept per round, with the
// round's best.
type searchPrinter struct {
	w        io.Writer
	terminal bool
	live     bool // a live line is on the terminal, not ended
}

// progress is the search's Progress callback.
func (sp *searchPrinter) progress(p trainer.SearchProgress) {
	cd, b := p.Candidate, p.Best
	elapsed := p.Elapsed.Round(time.Second)
	switch {
	case !sp.terminal:
		fmt.Fprintf(sp.w, "round %d/%d  %2d/%d  %3d nodes %2d steps lr %-5g wd %-5g  %3d epochs  val %6.2f%%   best: %d/%d lr %g wd %g %6.2f%%  %s\n",
			p.Rung+1, p.Rungs, p.Index+1, p.Of, cd.Nodes, cd.Steps, cd.LR, cd.WeightDecay, cd.Epochs, 100*cd.Score,
			b.Nodes, b.Steps, b.LR, b.WeightDecay, 100*b.Score, elapsed)
	case p.Index+1 < p.Of:
		line := fmt.Sprintf("round %d/%d  %d/%d  %d/%d lr %g wd %g  val %.2f%%  best %.2f%%  %s",
			p.Rung+1, p.Rungs, p.Index+1, p.Of, cd.Nodes, cd.Steps, cd.LR, cd.WeightDecay, 100*cd.Score, 100*b.Score, elapsed)
		fmt.Fprintf(sp.w, "\r\033[K%s", line[:min(len(line), 79)]) // ASCII: bytes are columns
		sp.live = true
	default:
		fmt.Fprintf(sp.w, "\r\033[Kround %d/%d  %s  best %d/%d lr %g wd %g  %.2f%%  %s\n",
			p.Rung+1, p.Rungs, text.Count(p.Of, "candidate"), b.Nodes, b.Steps, b.LR, b.WeightDecay, 100*b.Score, elapsed)
		sp.live = false
	}
}

// end ends a live line, so that what is written next starts a line.
func (sp *searchPrinter) end() {
	if sp.live {
		fmt.Fprintln(sp.w)
		sp.live = false
	}
}

// abs makes a data path absolute, so that a checkpoint can be resumed from
// another folder; errors and empty paths leave it as it is.
func abs(path string) string {
	if path == "" {
		return ""
	}
	if a, err := filepath.Abs(path); err == nil {
		return a
	}
	return path
}

// presetRefine is the --refine of every preset but paper. Refine stops
// earlier when validation accuracy stops rising.
const presetRefine = 10

func setIf[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// defaultModel is where train writes without -o. An existing file of that
// name is not replaced (checkNotClobbered): a model is hours of work, and a
// name the user did not type should not cost it.
const defaultModel = "model.json"

// checkNotClobbered refuses to replace an existing file at a default output
// path, which the user did not name.
func checkNotClobbered(path string) error {
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("%s exists, and a model is replaced only when -o names it: pass -o %s to replace it, or -o with another name to keep it", path, path)
	}
	return nil
}

// checkOutputs checks a command's outputs before its work starts, so that
// a bad one is an error now, not after hours of training; in the order of
// flags: no two at the same path (checkDistinct), none the same file as
// one of inputs (checkNotInputs), each writable (runtime.CheckOutput),
// with its folder and missing parents made first. It returns the folders
// it made, for removeFolders should the command fail; when it fails
// itself, it has removed them.
func checkOutputs(flags []string, outputs map[string]string, inputs ...input) (made []string, err error) {
	if err := checkDistinct(flags, outputs); err != nil {
		return nil, err
	}
	if err := checkNotInputs(flags, outputs, inputs...); err != nil {
		return nil, err
	}
	for _, flag := range flags {
		p := outputs[flag]
		if p == "" {
			continue
		}
		if made, err = makeFolder(filepath.Dir(p), made); err != nil {
			removeFolders(made)
			return nil, fmt.Errorf("cannot write %s: %v", p, err)
		}
		if _, err := runtime.CheckOutput(p); err != nil {
			removeFolders(made)
			return nil, err
		}
	}
	return made, nil
}

// makeFolder makes dir and its missing parents, and returns made with
// those it made added, in the order they were made (parents first).
func makeFolder(dir string, made []string) ([]string, error) {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || !os.IsNotExist(err) || filepath.Dir(d) == d {
			break
		}
		missing = append(missing, d)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return made, err
	}
	slices.Reverse(missing)
	return append(made, missing...), nil
}

// removeOnError removes the folders *made (removeFolders) when *err, a
// command's result, is an error: a deferred call's cleanup, reading both
// when the command returns.
func removeOnError(err *error, made *[]string) {
	if *err != nil {
		removeFolders(*made)
	}
}

// removeFolders removes the folders checkOutputs made, the last made
// first, so that a folder goes after those made in it, where they are
// still empty: those of a command that failed before writing into them.
func removeFolders(made []string) {
	for _, dir := range slices.Backward(made) {
		os.Remove(dir)
	}
}

// writeFile writes b to path atomically (runtime.WriteFileAtomic).
func writeFile(path string, b []byte) error {
	return runtime.WriteFileAtomic(path, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// An input is a file a command reads: its flag ("--data"), or "model"
// for a model named by its place, and its path.
type input struct{ flag, path string }

// dataFiles are the inputs --data and --test.
func dataFiles(data, test string) []input {
	return []input{{"--data", data}, {"--test", test}}
}

// checkNotInputs refuses an output of outputs (by flag, in the order of
// flags) that is the same file as one of inputs, the command's data files
// or models: writing it would replace them.
func checkNotInputs(flags []string, outputs map[string]string, inputs ...input) error {
	for _, flag := range flags {
		for _, in := range inputs {
			if sameFile(outputs[flag], in.path) {
				what := "the data"
				if in.flag == "model" {
					what = "the model"
				}
				return usagef("%s %s is the %s file: writing it would replace %s; name another file", flag, outputs[flag], in.flag, what)
			}
		}
	}
	return nil
}

// checkDistinct refuses two outputs of one command at the same path,
// looking at them in the order of flags.
func checkDistinct(flags []string, outputs map[string]string) error {
	seen := map[string]string{}
	for _, flag := range flags {
		path := outputs[flag]
		if path == "" {
			continue
		}
		key := filepath.Clean(abs(path))
		if other, ok := seen[key]; ok {
			return usagef("%s and %s name the same file, %s", other, flag, path)
		}
		seen[key] = flag
	}
	return nil
}

func loadTrainData(a trainArgs) (train, test *data.Dataset, err error) {
	if a.Demo {
		return data.Letter()
	}
	opt := DataFlags{Header: a.Header, LabelCol: a.LabelCol, Ignore: a.Ignore, Sep: a.Sep}.trainOptions()
	opt.Categorical, opt.Numeric = a.Categorical, a.Numeric
	if a.Test != "" && len(a.Ignore) > 0 && !data.IsIDX(a.Test) {
		// A column only the test file holds is left out of it.
		if opt.MayLack, err = data.HeaderNames(a.Test, opt.Separator); err != nil {
			return nil, nil, err
		}
	}
	if a.Missing != nil {
		opt.Missing = missingTokens(*a.Missing)
	}
	if train, err = data.Open(a.Data, opt); err != nil {
		return nil, nil, err
	}
	if a.Test != "" {
		opt.Schema, opt.Named = train.Schema, train.Header
		opt.Ignore = nil // the schema records them, and the test file may lack them
		if test, err = data.Open(a.Test, opt); err != nil {
			return nil, nil, err
		}
	}
	return train, test, nil
}

// leaveOut says how to leave out the training file's columns ignore (them:
// "it" or "them"): with --ignore, which takes more than 10 without their
// list, or, in a file without a header, by removing them from it.
func leaveOut(header bool, them string, ignore ...string) string {
	switch {
	case !header:
		return fmt.Sprintf("leave %s out of the file (--ignore needs a header)", them)
	case len(ignore) > 10:
		return fmt.Sprintf("leave %s out with --ignore", them)
	}
	return fmt.Sprintf("leave %s out with %s", them, data.IgnoreFlag(ignore...))
}

// columnNames returns the names of cols, and the names --ignore knows them
// by.
func columnNames(cols []data.NamedColumn) (names, ignore []string) {
	for _, c := range cols {
		names, ignore = append(names, c.Name), append(ignore, c.Ignore)
	}
	return names, ignore
}

// numbersAsWords reports whether train warned of a column of ds whose
// numbers or dates were read as categories, so that the model cannot
// compare them.
func numbersAsWords(ds *data.Dataset) bool {
	return len(ds.Mixed)+len(ds.DecimalComma)+len(ds.Thousands)+len(ds.Units)+len(ds.Dates) > 0
}

// unnamedNote explains, when one of cols has no name in the header of a
// file with one, why its name and --ignore's differ: an unnamed column is
// named by its place among the inputs (the label left out), and --ignore
// counts the file's columns.
func unnamedNote(header bool, cols []data.NamedColumn) string {
	for _, c := range cols {
		if header && c.Ignore != "" && c.Ignore != c.Name {
			return fmt.Sprintf(" (%q has no name in the header: that name is its place among the inputs; --ignore counts the file's columns, so it takes %q)", c.Name, c.Ignore)
		}
	}
	return ""
}

// readWarnings returns what may have gone wrong in reading the training
// file ds of task: a column read as categorical for a few values that are
// not numbers, for dates, or for numbers written with a decimal comma,
// thousands separators or a unit; categories that may be one value spelled
// in several ways (Yes, yes and TRUE); numbers
// written with both decimal marks; a first
// row of column numbers read as data; a row index or an identifier read
// as a feature; columns with one value or none; a column that alone tells
// the classes apart (a leak); and a label column that looks like an
// identifier or a measurement, that may not be the label at all (another
// column is named like one), whose first row is a header read as data, or
// that has a class of a single row. Where the label does not read as
// classes and another column is named like one, it returns an error
// instead, before any training: that file's label is the other column.
// header is --header's value; labelGiven says --label-col was given.
func readWarnings(ds *data.Dataset, task *trainer.Task, header string, labelGiven bool) ([]string, error) {
	headerNo := header == "no"
	var out []string
	if names := ds.DecimalComma; len(names) > 0 {
		what, _ := subject("column", names, 5, "holds", "hold")
		out = append(out, what+` numbers written with a decimal comma, read as categories (a feature per distinct value): songc reads decimal commas only in files separated by semicolons; write the file with sep=";" and decimal="," (pandas' to_csv), or with decimal points`)
	}
	if cols := ds.Thousands; len(cols) > 0 {
		names := make([]string, len(cols))
		for i, c := range cols {
			names[i] = c.Name
		}
		what, _ := subject("column", names, 5, "holds", "hold")
		out = append(out, what+fmt.Sprintf(` numbers written with thousands separators (like %q), read as categories (a feature per distinct value): songc reads numbers without them; write the file without separators (pandas' to_csv writes none unless told), or convert them to plain numbers first`, cols[0].Like))
	}
	for _, d := range ds.Dates {
		out = append(out, fmt.Sprintf("column %q holds dates (like %q), read as categories (a feature per distinct value), so the model can neither order them nor read a date it has not seen: write them as numbers first (days since a fixed day, the month, the day of the week), or %s", d.Name, d.Like, leaveOut(ds.Header, "it", d.Ignore)))
	}
	for _, z := range ds.Zeros {
		out = append(out, fmt.Sprintf(`column %q holds whole numbers written with a leading zero (like %q), read as numbers: the zero is lost and the model orders them by size; if they are codes (postal codes, account numbers), --categorical %q reads them as categories (a feature per distinct value)`, z.Name, z.Like, z.Name))
	}
	for _, u := range ds.Units {
		out = append(out, fmt.Sprintf(`column %q holds %s (like %q), read as categories (a feature per distinct value), so the model cannot compare them: write them as plain numbers`, u.Name, u.Written(), u.Like))
	}
	for _, c := range ds.Twins {
		out = append(out, fmt.Sprintf("column %q holds values that %s, each a category of its own: if they mean the same, write them alike", c.Name, twinsPhrase(c.Groups)))
	}
	for _, m := range ds.Marks {
		out = append(out, fmt.Sprintf(`column %q holds numbers written with a decimal point (%q) and others with a comma (%q, read as %s): in a file separated by semicolons songc reads a comma as the decimal mark, but one of the two may separate thousands; write the file with one decimal mark and no thousands separators`, m.Name, m.Point, m.Comma, strconv.FormatFloat(m.CommaRead(), 'g', -1, 64)))
	}
	var first []data.MixedColumn
	for _, mc := range ds.Mixed {
		if mc.FirstOnly {
			first = append(first, mc)
			continue
		}
		out = append(out, mixedNote(mc, ds.Schema.Missing))
	}
	if len(first) > 0 {
		out = append(out, firstRowNote(first, headerNo))
	}
	for _, sc := range ds.Scattered {
		out = append(out, fmt.Sprintf("column %q has %d distinct values in %d rows (%s, ...), so most of its values are seen once and the model learns little from them; "+
			"an identifier, a date, free text or numbers written with a unit or a decimal comma read so: %s, or write it as numbers",
			sc.Name, sc.Levels, sc.Values, data.QuoteList(sc.Some, len(sc.Some)), leaveOut(ds.Header, "it", sc.Ignore)))
	}
	if ds.NumberedFirstRow {
		out = append(out, "the first row is read as data, but its fields number the columns (0, 1, 2, ...), as the header of a table without column names does; if it is a header, pass --header yes")
	}
	if ds.IndexColumn {
		out = append(out, "the first column has no name and holds a distinct whole number in every row, like the row index pandas' to_csv writes; it is read as the input x1, which tells rows apart and nothing more (and leaks the label if the rows were sorted by it): leave it out with --ignore x1, or write the file with to_csv(index=False)")
	}
	for _, name := range ds.Identifiers {
		out = append(out, fmt.Sprintf("column %q holds a distinct whole number in every row and is named like an identifier; read as a number, it tells the training rows apart and nothing more, and new rows' identifiers often lie outside the values it saw: if it is one, leave it out with %s", name, data.IgnoreFlag(name)))
	}
	if len(ds.Constant) > 0 {
		names, ignore := columnNames(ds.Constant)
		what, them := subject("column", names, 5, "holds", "hold")
		out = append(out, fmt.Sprintf("%s one value in every training row, so the model learns nothing from %s; %s%s", what, them, leaveOut(ds.Header, them, ignore...), unnamedNote(ds.Header, ds.Constant)))
	}
	for _, c := range ds.Separating {
		out = append(out, fmt.Sprintf("column %q alone tells apart the classes of every training row, which real data seldom allows: a column recorded after the outcome, derived from the label, or numbering rows sorted by it leaks the label, and a model that reads it fails on new rows; if so, %s%s", c.Name, leaveOut(ds.Header, "it", c.Ignore), unnamedNote(ds.Header, []data.NamedColumn{c})))
	}
	if len(ds.NoValue) > 0 {
		names, ignore := columnNames(ds.NoValue)
		what, them := subject("column", names, len(names), "has", "have")
		out = append(out, fmt.Sprintf("%s no value in any labelled row (every field is empty or a missing-value token), so the model learns nothing from %s; check how the file was written, or %s%s", what, them, leaveOut(ds.Header, them, ignore...), unnamedNote(ds.Header, ds.NoValue)))
	}
	if r := ds.Repeats(); 2*r >= ds.Rows && ds.Rows >= 20 {
		out = append(out, fmt.Sprintf("%d of the %d training rows repeat an earlier row exactly (features and label), so most validation rows have a copy among the rows trained on: validation scores flatter the model, and the search may keep a graph that learnt the rows by heart; if the copies are not real repeats (a file appended to itself, a class copied to balance the classes), remove them, and measure the model with --test on rows it never saw", r, ds.Rows))
	}
	label := "label column"
	if ds.Schema != nil && ds.Schema.Label != "" {
		label = fmt.Sprintf("label column %q", ds.Schema.Label)
	}
	counts := task.ClassCounts()
	odd := labelOddity(task.ClassNames, counts, ds.Rows)
	if name := likeLabel(ds.Schema, labelGiven); name != "" {
		if odd != classesLike {
			return nil, fmt.Errorf("%s: the label is the last column, %q, whose %d distinct values in %d rows do not read as classes, and column %q is named like a label: pass --label-col %q (or --label-col %q to learn the last column all the same)",
				ds.Name, ds.Schema.Label, len(task.ClassNames), ds.Rows, name, name, ds.Schema.Label)
		}
		out = append(out, fmt.Sprintf("the label is the last column, %q, but column %q is named like a label: if it is the label, pass --label-col %q", ds.Schema.Label, name, name))
	}
	if g := data.Twins(task.ClassNames); g != nil {
		out = append(out, fmt.Sprintf("the %s holds classes that %s, each a class of its own: if they mean the same, write them alike", label, twinsPhrase(g)))
	}
	headerLabel := false // the first row's label, a class of its own, is said to be a header's
	if header == "auto" && !ds.Header && len(ds.Labels) > 0 {
		if k, err := data.ClassIndex(task.ClassNames)(ds.Labels[0]); err == nil && counts[k] == 1 && len(counts) > 2 && minOther(counts, k) >= 5 {
			out = append(out, fmt.Sprintf("the first row's label %q is a class of that row alone, while every other class has 5 rows or more: if the first row is a header (its other names read as numbers), pass --header yes", ds.Labels[0]))
			headerLabel = true
		}
	}
	// A label of numbers is seldom the classes of a classifier.
	const notClasses = "songc learns classes, not numbers: if it is the label, group its values into a few classes first (ranges, say), and if it is not, name the right column with --label-col"
	n, rows := len(task.ClassNames), ds.Rows
	switch odd {
	case mostlySingle:
		advice := "if it is not the label, name the right column with --label-col"
		if numbers, fraction := numberNames(task.ClassNames); numbers && fraction { // a measurement; whole numbers may be an identifier
			advice = notClasses
		}
		out = append(out, fmt.Sprintf("the %s has %d distinct values in %d rows, so most classes have a single row; %s%s", label, n, rows, advice, labelHint(ds)))
	case fractions:
		out = append(out, fmt.Sprintf("the %s holds numbers with fractions (%d distinct values), which reads like a measurement, not classes; %s%s", label, n, notClasses, labelHint(ds)))
	case wholeCounts:
		out = append(out, fmt.Sprintf("the %s holds %d distinct whole numbers, %d of them in fewer than %d rows, which reads like a count or a measurement, not classes; %s%s", label, n, rareClasses(counts), rareRows, notClasses, labelHint(ds)))
	case classesLike:
		// The classes of fewer than rareRows training rows, where others
		// have more: in a file too small for any class to have as many,
		// saying so of every class would not help.
		var rare []string
		most := 0 // the most rows of one of them
		for k, c := range counts {
			if c < rareRows {
				rare = append(rare, task.ClassNames[k])
				most = max(most, c)
			}
		}
		if len(rare) > 0 && len(rare) < len(counts) && !headerLabel {
			what, it := subject("class", rare, 5, "has", "have")
			switch {
			case most == 1:
				out = append(out, fmt.Sprintf("%s a single training row: no validation row can measure %[2]s, and a model learns little from one row, so it will seldom predict %[2]s; gather more rows of %[2]s, or merge %[2]s into kindred classes", what, it))
			default:
				few := fmt.Sprintf("only %d training rows", most)
				if len(rare) > 1 {
					few = fmt.Sprintf("fewer than %d training rows each", rareRows)
				}
				out = append(out, fmt.Sprintf("%s %s: too few for the validation rows to measure %[3]s, and a model learns little from so few rows, so it will seldom predict %[3]s; gather more rows of %[3]s, or merge %[3]s into kindred classes", what, few, it))
			}
		}
	}
	return out, nil
}

// oddity says why a label's values do not read as the classes of a
// classifier, or that they do (classesLike).
type oddity int

const (
	classesLike  oddity = iota
	mostlySingle        // most classes have a single row
	fractions           // numbers with fractions: a measurement
	wholeCounts         // many whole numbers, most of them rare: a count
)

// labelOddity returns the oddity of a label whose classes are names, with
// counts rows each, in a file of rows rows.
func labelOddity(names []string, counts []int, rows int) oddity {
	numbers, fraction := numberNames(names)
	switch n := len(names); {
	case trainer.MostlySingle(n, rows):
		return mostlySingle
	case numbers && fraction:
		return fractions
	case n >= manyClasses && numbers && 2*rareClasses(counts) > n:
		return wholeCounts
	}
	return classesLike
}

// likeLabel returns the first input of s named like a label, when the label
// is the last column by default (not given) and is not named like one, or
// "".
func likeLabel(s *runtime.Schema, labelGiven bool) string {
	if labelGiven || s == nil || labelName(s.Label) {
		return ""
	}
	for _, in := range s.Inputs {
		if labelName(in.Name) {
			return in.Name
		}
	}
	return ""
}

// A label of at least manyClasses whole numbers, most of them in fewer than
// rareRows rows, reads like a count or a measurement (a price, sales)
// rather than classes coded as numbers, which are fewer or each common.
const (
	manyClasses = 20
	rareRows    = 5
)

// numberNames reports whether every class name is a number, and whether
// some of them have a fraction.
func numberNames(names []string) (numbers, fraction bool) {
	for _, n := range names {
		v, err := strconv.ParseFloat(n, 64)
		if err != nil {
			return false, false
		}
		fraction = fraction || v != math.Trunc(v)
	}
	return true, fraction
}

// rareClasses returns how many classes have fewer than rareRows rows.
func rareClasses(counts []int) int {
	rare := 0
	for _, c := range counts {
		if c < rareRows {
			rare++
		}
	}
	return rare
}

// subject names names (columns or classes, by noun), at most n of them,
// as a sentence's subject with its verb in the singular or plural
// ("column "a" holds", "columns "a", "b" hold"), and returns the pronoun
// that refers back to them.
func subject(noun string, names []string, n int, verb, verbs string) (what, them string) {
	k := len(names)
	return text.Plural(k, noun) + " " + data.QuoteList(names, n) + " " + text.Verb(k, verb, verbs), text.Verb(k, "it", "them")
}

// labelName reports whether a column's name is one a label column
// usually has (class, label, target, y, outcome, in any case).
func labelName(name string) bool {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "class", "label", "target", "y", "outcome":
		return true
	}
	return false
}

// twinsPhrase says what groups (as data.Twins returns them) hold:
// values that differ only in case ("Yes" and "yes"; "No" and "no"), or
// that may be one value spelled in several ways ("yes", "Yes" and "TRUE").
// It names at most 3 groups.
func twinsPhrase(groups [][]string) string {
	what := "differ only in case"
	for _, g := range groups {
		for _, l := range g[1:] {
			if !strings.EqualFold(l, g[0]) {
				what = "may be one value spelled in several ways"
			}
		}
	}
	var parts []string
	for i, g := range groups {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(groups)-i))
			break
		}
		quoted := make([]string, len(g))
		for j, l := range g {
			quoted[j] = strconv.Quote(l)
		}
		parts = append(parts, text.And(quoted))
	}
	return what + " (" + strings.Join(parts, "; ") + ")"
}

// minOther returns the smallest of counts but counts[skip].
func minOther(counts []int, skip int) int {
	least := math.MaxInt
	for k, n := range counts {
		if k != skip {
			least = min(least, n)
		}
	}
	return least
}

// firstRowNote says that the columns cols are read as categorical only for
// their first row's value, which is not a number, as a header's names are
// not: one warning for them all, so that a header read as data (--header
// no, or a header of numbers' names that looked like data) is one line,
// not one per numeric column. headerNo: --header no was given.
func firstRowNote(cols []data.MixedColumn, headerNo bool) string {
	fix := "pass --header yes"
	if headerNo {
		fix = "leave out --header no"
	}
	if len(cols) == 1 {
		return fmt.Sprintf("column %q is read as categorical (a feature per distinct value) because its first row's value %q is not a number; if the first row is a header, %s",
			cols[0].Name, cols[0].Some[0], fix)
	}
	names, values := make([]string, len(cols)), make([]string, len(cols))
	for i, mc := range cols {
		names[i], values[i] = mc.Name, mc.Some[0]
	}
	return fmt.Sprintf("columns %s are read as categorical (a feature per distinct value) because their first row's values (%s) are not numbers, while the rows below hold numbers; if the first row is a header, %s",
		data.QuoteList(names, 5), data.QuoteList(values, 3), fix)
}

// mixedNote says that column mc is read as categorical for a few values
// that are not numbers, and what to do about them; missing is the
// missing-value tokens the file was read with.
func mixedNote(mc data.MixedColumn, missing []string) string {
	// Inf and NAN are numbers to strconv, but not to a model.
	v := func(one, many string) string { return text.Verb(mc.Words, one, many) }
	return fmt.Sprintf("column %q is read as categorical (a feature per distinct value) because %d of its %d values %s (%s); "+
		"if %s missing, list %s: %s; if %s written otherwise, fix %s, or --numeric %q makes each an error naming its line",
		mc.Name, mc.Words, mc.Words+mc.Numbers, v("is not a finite number", "are not finite numbers"), mc.Examples(),
		v("it means", "they mean"), v("it", "them"), data.MissingFlag(missing, mc.Some), v("it is a number", "they are numbers"), v("it", "them"), mc.Name)
}

// labelHint names the columns of ds that could be a label, for a warning
// that the label column looks wrong: categorical columns of 2 to 50
// levels, and numeric columns of 2 to 20 distinct whole numbers (classes
// coded as numbers, as 0 and 1 often are); none when more than five could.
func labelHint(ds *data.Dataset) string {
	if ds.Schema == nil {
		return ""
	}
	var names []string
	at := 0 // the column's first feature
	for i, in := range ds.Schema.Inputs {
		if in.Kind == runtime.Categorical && len(in.Levels) >= 2 && len(in.Levels) <= 50 ||
			in.Kind == runtime.Numeric && fewWholes(ds.X, at, ds.Features, 20) {
			if ds.Header {
				names = append(names, strconv.Quote(in.Name))
			} else { // --label-col takes a place in a file without a header
				place := i + 1
				if l := ds.Schema.LabelAt; l > 0 && l <= place {
					place++
				}
				names = append(names, strconv.Itoa(place))
			}
		}
		at += in.Width()
	}
	if len(names) == 0 || len(names) > 5 {
		return ""
	}
	if !ds.Header {
		return fmt.Sprintf(" (columns of few values, by place: %s)", strings.Join(names, ", "))
	}
	return fmt.Sprintf(" (columns of few values: %s)", strings.Join(names, ", "))
}

// fewWholes reports whether feature j of the row-major x, of width
// features, holds 2 to most distinct values, all whole numbers.
func fewWholes(x []float64, j, width, most int) bool {
	seen := make(map[float64]bool)
	for i := j; i < len(x); i += width {
		v := x[i]
		if v != math.Trunc(v) {
			return false
		}
		if !seen[v] {
			if len(seen) == most {
				return false
			}
			seen[v] = true
		}
	}
	return len(seen) >= 2
}

// separatedBy says what separates a CSV file's fields, when it is not a
// comma, and whether numbers written with a decimal comma were read
// (commaPoints).
func separatedBy(sep rune, commaPoints bool) string {
	switch {
	case sep == 0 || sep == ',':
		return ""
	case commaPoints:
		return "fields separated by " + data.Separators[sep] + ", decimal commas read as points; "
	}
	return "fields separated by " + data.Separators[sep] + "; "
}

// describeColumns says in a line how the columns of a task's CSV training
// file are read; for a file of numbers without a header, read by
// position, it names the label's classes, so that a label that is not the
// last column shows.
func describeColumns(task *trainer.Task) string {
	s := task.Schema()
	if s == nil {
		n, names := len(task.Train.Schema.Inputs), runtime.Unnamed(0)
		if n > 1 {
			names += " to " + runtime.Unnamed(n-1)
		}
		return fmt.Sprintf("no header, so the %d columns are read by position: %s (%s), and the label is the last, %s (%s)",
			n+1, text.Count(n, "numeric input column"), names, text.Count(len(task.ClassNames), "class"), data.QuoteList(task.ClassNames, 5))
	}
	var cat, miss int
	for _, in := range s.Inputs {
		if in.Kind == runtime.Categorical {
			cat++
		}
		if in.MissingFeature {
			miss++
		}
	}
	encoded := ""
	if cat > 0 {
		encoded = ", one-hot encoded"
	}
	line := fmt.Sprintf("%s (%d numeric, %d categorical%s) %s %s", text.Count(len(s.Inputs), "input column"), len(s.Inputs)-cat, cat, encoded,
		text.Verb(len(s.Inputs), "makes", "make"), text.Count(s.Width(), "feature"))
	if miss > 0 {
		line += fmt.Sprintf("; %s missing values, each with a feature that says so", text.Has(miss, "column"))
	}
	if s.Label != "" {
		line += fmt.Sprintf("; label column %q", s.Label)
	}
	if len(s.Ignored) > 0 {
		line += fmt.Sprintf("; left out: %s", data.QuoteList(s.Ignored, len(s.Ignored)))
	}
	return line
}

// missingTokens splits --missing's comma-separated tokens, spaces around
// each removed and empty ones dropped (an empty field is always missing).
func missingTokens(s string) []string {
	out := []string{}
	for _, t := range strings.Split(s, ",") {
		if t = strings.TrimSpace(t); t != "" && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

func writeLog(path string, recs []runlog.EpochRecord) error {
	return runtime.WriteFileAtomic(path, func(w io.Writer) error { return runlog.Write(w, recs) })
}

// refinedText says which pass of refining rm (with validation rows) the
// model is, and its hard walk's score on the validation rows by sel.
func refinedText(sel string, rm *runlog.Refine) string {
	pass := fmt.Sprintf("pass %d of %d", rm.Selected, len(rm.Log)-1)
	if rm.Selected == 0 {
		pass = fmt.Sprintf("no pass of %d raised it, so the trained walk is kept", len(rm.Log)-1)
		if len(rm.Log) == 2 {
			pass = "its one pass did not raise it, so the trained walk is kept"
		}
	}
	return fmt.Sprintf("%s (%s)", hardBy(sel, rm.Log[rm.Selected].ValAcc, rm.Log[rm.Selected].ValBalanced), pass)
}

// reportTraining prints where the model went and how it does on the test
// data (or the embedded test split), evaluated in float64 by the runtime;
// meta is m's training metadata; quiet (-q) leaves out its notes, not
// its warnings; next says the next step (compile) unless the file was
// warned of.
func reportTraining(g *Globals, m *runtime.Model, meta runlog.Metadata, r *trainer.Run, all *testRows, a trainArgs, took time.Duration, quiet, next bool) error {
	rm := meta.Refine
	if rm != nil && len(rm.Log) == 0 {
		rm = nil
	}
	var kept string // which epoch and refine pass the model is, and why
	if meta.ValRows == 0 {
		kept = fmt.Sprintf("epoch %d of %d, the last: no validation rows", meta.BestEpoch, r.EpochsDone())
		if rm != nil {
			kept += fmt.Sprintf("; then refined: pass %d of %d, the last", rm.Selected, len(rm.Log)-1)
		}
	} else {
		by := fmt.Sprintf("validation accuracy %.2f%%", 100*meta.ValAccuracy)
		if recs := r.Records(); meta.BestEpoch >= 1 && meta.BestEpoch <= len(recs) {
			if rec := recs[meta.BestEpoch-1]; meta.Select == "hard" || meta.Select == "balanced" {
				by = hardBy(meta.Select, rec.HardValAcc, rec.HardValBalanced)
			}
		}
		kept = fmt.Sprintf("best epoch %d of %d by %s", meta.BestEpoch, r.EpochsDone(), by)
		if rm != nil {
			kept += ", then refined: " + refinedText(meta.Select, rm)
		}
	}
	mc, lc := meta.Constant(), meta.Logistic()
	if tc := meta.TreeKept(); tc != nil {
		leaves := tc.Leaves // as chosen, where a check replaced the tree since
		if meta.Tree() != nil && mc == nil {
			leaves = m.Nodes + 1 // as saved, grown again
		}
		kept += "; " + treeText(tc, leaves, meta.Select == "balanced")
	}
	switch fb := meta.Fallback(); {
	case fb != nil:
		kept += "; " + fallbackText(fb, lc, judged(meta))
	case lc != nil:
		kept += "; " + logisticText(lc, meta.Select == "balanced")
	}
	if mc != nil {
		kept += "; " + replacedText(mc, judged(meta))
	}
	fmt.Fprintf(g.Stdout, "model: %s (%s); log: %s; %s\n", a.Output, kept, a.Log, took.Round(time.Second))
	if s := meta.Search; s != nil {
		fmt.Fprintln(g.Stdout, searchLine(s))
	}
	warnConstant(g.Stdout, meta, "--no-majority-check")
	k, err := runtime.New(m)
	if err != nil {
		return err
	}
	if mc == nil && !quiet {
		fmt.Fprint(g.Stdout, walkNote(k))
	}
	if lc != nil && lc.Kept && mc == nil && !quiet {
		fmt.Fprintf(g.Stdout, "note: the model is the logistic regression, written as a graph whose nodes each compare two classes' scores, as the learned %s did not beat it by a sign test on the validation rows; --no-logistic keeps the %s\n", lc.Rival, lc.Rival)
	}
	if r.ValRows() > 0 {
		x, y := r.Task.ValidationRows(r.Config.Seed, r.Config.Val)
		met := k.Evaluate(x, y)
		balanced := meta.Select == "balanced"
		what := fmt.Sprintf("validation (%d rows)", len(y))
		learner, fitScore, refit := refitted(meta)
		refit = refit && mc == nil
		if refit {
			what = fmt.Sprintf("validation (%d rows, learned by the %s)", len(y), learner)
		}
		reportMetrics(g.Stdout, what, met, reportHow{Constant: mc != nil, Balanced: balanced, Quiet: quiet})
		if !balanced && mc == nil && !quiet {
			fmt.Fprint(g.Stdout, smallClassesNote(met))
		}
		switch {
		case refit && !quiet:
			fmt.Fprintf(g.Stdout, "note: the %s was fitted again on these validation rows too, so they cannot measure it; fitted to the training rows alone it scored %.2f%% %s; to measure it on rows it never saw: songc eval %s --data FILE\n", learner, 100*fitScore, scoreName(balanced), shellQuote(a.Output))
		case r.Task.Test == nil && !quiet:
			fmt.Fprintf(g.Stdout, "note: these validation rows chose the model, so their scores flatter it; to measure it on rows it never saw: songc eval %s --data FILE\n", shellQuote(a.Output))
		}
	}
	reportTest(g, k, r.Task, all, meta, quiet)
	if mc == nil && !quiet && next {
		fmt.Fprintf(g.Stdout, "next: songc compile %s -o %s writes it as Go code of the standard library only\n", shellQuote(a.Output), shellQuote(compileOut(a.Output)))
	}
	return nil
}

// compileOut is where train suggests songc compile write the classifier of
// the model at model: a folder beside it named as its package, which is
// the model's name in lower-case letters and digits, leading digits left
// out, when that makes a package name compile takes from a folder
// (folderPackage); else classifier.
func compileOut(model string) string {
	base := filepath.Base(model)
	name := strings.Map(func(r rune) rune {
		if r = unicode.ToLower(r); 'a' <= r && r <= 'z' || '0' <= r && r <= '9' {
			return r
		}
		return -1
	}, strings.TrimSuffix(base, filepath.Ext(base)))
	name = strings.TrimLeft(name, "0123456789")
	if !folderPackage(name) || name == base { // base: the folder would be the model file
		name = "classifier"
	}
	if name == base { // a model file named classifier
		name = "goclassifier"
	}
	return filepath.Join(filepath.Dir(model), name, name+".go")
}

// shellQuote returns s as a shell reads it back: unchanged when it holds
// only letters, digits and _ . / : = + , @ % -, else in single quotes.
func shellQuote(s string) string {
	plain := s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=+,@%-") == ""
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// walkNote says how many of k's nodes its walk reaches from the root, as
// a line, when that is not all of them; else it returns "".
func walkNote(k *runtime.Classifier) string {
	n := k.NumNodes()
	used, _ := slices.BinarySearch(k.Reachable(), n) // the nodes before the leaves
	switch {
	case used == n:
		return ""
	case used == 1:
		return fmt.Sprintf("walk: it reaches 1 of the %d nodes: the compiled classifier is a single linear test\n", n)
	}
	return fmt.Sprintf("walk: it reaches %d of the %d nodes; the others are never visited, and songc compile leaves them out\n", used, n)
}

// reportMetrics prints a line naming what was measured, with the hard walk's
// and the soft model's accuracy and balanced accuracy, their fidelity, the
// majority-class baseline and the forced exits, then a warning when the
// hard walk does no better than the baseline (baselineWarning), falls far
// below the soft model, or often hits the step limit, and when the soft
// model (predict --proba's) does no better than the baseline while the
// walk does (softBaselineWarning); and a note when the two give different
// classes on more than 5% of the rows, unless how.Quiet.
func reportMetrics(w io.Writer, what string, met runtime.Metrics, how reportHow) {
	constant, balanced := how.Constant, how.Balanced
	forced := float64(met.ForcedExits) / float64(max(1, met.Rows))
	fmt.Fprintf(w, "%s: soft accuracy %.2f%%, hard-walk accuracy %.2f%%, fidelity %.2f%%; balanced accuracy soft %.2f%%, hard %.2f%%; majority class %.2f%%; forced exits %.1f%%\n",
		what, 100*met.SoftAccuracy, 100*met.HardAccuracy, 100*met.Fidelity, 100*met.SoftBalanced, 100*met.HardBalanced, 100*met.Majority, 100*forced)
	rows := strings.Fields(what)[0]
	if b := baselineWarning(met, balanced, constant); b != "" {
		fmt.Fprintf(w, "warning: on the %s rows %s\n", rows, b)
	} else if gap := softGap(met, balanced); gap > 0.05 {
		of := ""
		if balanced {
			of = " of balanced accuracy"
		}
		fmt.Fprintf(w, "warning: on the %s rows the hard walk (what compiles) is %.1f points%s below the soft model\n", rows, 100*gap, of)
	}
	if b := softBaselineWarning(met, balanced, constant); b != "" {
		fmt.Fprintf(w, "warning: on the %s rows %s\n", rows, b)
	}
	if forced > 0.05 {
		fmt.Fprintf(w, "warning: %.1f%% of the %s rows reach the step limit and take a forced exit\n", 100*forced, rows)
	}
	if n := fidelityNote(met, rows+" ", constant); n != "" && !how.Quiet {
		fmt.Fprintln(w, n)
	}
}

// reportHow says how reportMetrics reads and reports a model's metrics.
type reportHow struct {
	Constant bool // the majority check made the model a constant, as a warning already said
	Balanced bool // the model was selected by balanced accuracy, which the baseline is then measured by
	Quiet    bool // warnings only, no notes (--quiet)
}

// fidelityNote says, when the soft model gives another class than the walk
// on more than 5% of met's rows, that predict --proba's largest mass is
// then not predict's class; otherwise, or for a model the majority check
// made constant, it is empty. rows names the rows ("validation "), or is
// empty.
func fidelityNote(met runtime.Metrics, rows string, constant bool) string {
	if met.Fidelity >= 0.95 || constant {
		return ""
	}
	return fmt.Sprintf("note: on %.1f%% of the %srows the soft model gives another class than the walk, so the largest of predict --proba's masses is not always the class predict gives (the walk's, what compiles)", 100*(1-met.Fidelity), rows)
}

// scores are a model's soft and hard-walk scores and a constant's, by the
// measure the model was selected by: accuracy against always predicting
// the most frequent class, or (balanced) balanced accuracy against always
// predicting one class.
type scores struct{ soft, hard, constant float64 }

func scoresOf(met runtime.Metrics, balanced bool) scores {
	if balanced {
		return scores{met.SoftBalanced, met.HardBalanced, met.ConstantBalanced()}
	}
	return scores{met.SoftAccuracy, met.HardAccuracy, met.Majority}
}

// softBaselineWarning says that the soft model does no better than a
// constant by the measure the model was selected by, while the hard walk
// does, or is empty. The walk is what compiles, but predict --soft and
// --proba read the soft model. A model the majority check made constant
// (constant) has no soft model to speak of: empty.
func softBaselineWarning(met runtime.Metrics, balanced, constant bool) string {
	sc := scoresOf(met, balanced)
	if constant || sc.soft > sc.constant || sc.hard <= sc.constant {
		return ""
	}
	what := "always predicting the most frequent class"
	if balanced {
		what = "always predicting one class, by balanced accuracy"
	}
	return fmt.Sprintf("the soft model is no better than %s (%.2f%%), while the hard walk (what compiles) scores %.2f%%: predict --soft and --proba read the soft model, and say little", what, 100*sc.constant, 100*sc.hard)
}

// baselineWarning says that the hard walk is no better than a constant by
// the measure the model was selected by (balanced: balanced accuracy),
// or is empty. A model the majority check made constant (constant) is no
// better by design, and is warned of only when these rows' most frequent
// class is another and scores higher: on test rows, or on validation rows
// where two classes are nearly as frequent.
func baselineWarning(met runtime.Metrics, balanced, constant bool) string {
	sc := scoresOf(met, balanced)
	switch {
	case sc.hard > sc.constant, constant && sc.hard >= sc.constant:
		return ""
	case constant:
		return fmt.Sprintf("the majority check's constant (the class of most training rows) scores %.2f%%, below these rows' most frequent class (%.2f%%)", 100*sc.hard, 100*sc.constant)
	case balanced:
		return fmt.Sprintf("the hard walk's balanced accuracy is no better than always predicting one class (%.2f%%)", 100*sc.constant)
	}
	return "the hard walk is no better than always predicting the most frequent class"
}

// softGap is how far the hard walk falls below the soft model, by the
// measure the model was selected by.
func softGap(met runtime.Metrics, balanced bool) float64 {
	sc := scoresOf(met, balanced)
	return sc.soft - sc.hard
}

// searchLine says what the search s chose, by what, and what it passed
// over.
func searchLine(s *runlog.Search) string {
	c := s.Candidates[s.Chosen]
	cut := ""
	if s.Cut {
		cut = "; the time budget cut the search short"
	}
	by := "validation"
	if s.By == "balanced" {
		by = "balanced validation accuracy"
	}
	// The last cut keeps the simplest finalist within one standard error
	// of the best (trainer.Search); the earlier cuts keep the best, so
	// only a finalist can score above the chosen one.
	best := s.Chosen
	for i, f := range s.Candidates {
		if f.Score > s.Candidates[best].Score {
			best = i
		}
	}
	if f := s.Candidates[best]; best != s.Chosen {
		// The rule's order: the smaller graph, then the lower rate, then
		// the lower decay.
		why := "as the simpler"
		switch {
		case c.Nodes < f.Nodes:
			why = "as the smaller graph"
		case c.Nodes == f.Nodes && c.LR < f.LR:
			why = "for its lower learning rate"
		case c.Nodes == f.Nodes && c.LR == f.LR && c.WeightDecay < f.WeightDecay:
			why = "for its lower weight decay"
		}
		cut = fmt.Sprintf("; kept over %d/%d, lr %g, weight decay %g at %.2f%% %s, within one standard error", f.Nodes, f.Steps, f.LR, f.WeightDecay, 100*f.Score, why) + cut
	}
	if p := s.Pilot; p != nil {
		cut += fmt.Sprintf("; a first pass on %d validation rows, best %.2f%%, measured too roughly to choose by", p.ValRows, 100*p.Best)
	}
	if s.NoTimeAgain {
		cut += "; the validation rows measured it too roughly, but the search had spent more than half of --budget, so it did not search again on more of them"
	}
	return fmt.Sprintf("search: chose %s, %s, lr %g, weight decay %g among %s (%s %.2f%%)%s",
		text.Count(c.Nodes, "node"), text.Count(c.Steps, "step"), c.LR, c.WeightDecay, text.Count(len(s.Candidates), "candidate"), by, 100*c.Score, cut)
}

// hardBy names the hard walk's validation score that chose a model of
// selection sel: its balanced accuracy bal for "balanced", else acc.
func hardBy(sel string, acc, bal float64) string {
	if sel == "balanced" {
		return fmt.Sprintf("hard-walk balanced validation accuracy %.2f%%", 100*bal)
	}
	return fmt.Sprintf("hard-walk validation accuracy %.2f%%", 100*acc)
}

// smallClassesNote points to --select balanced when the walk's balanced
// accuracy is more than 10 points below its accuracy on met's rows: it
// does worse on the smaller classes. Otherwise it is empty.
func smallClassesNote(met runtime.Metrics) string {
	gap := met.HardAccuracy - met.HardBalanced
	if gap <= 0.1 {
		return ""
	}
	return fmt.Sprintf("note: the walk's balanced accuracy is %.1f points below its accuracy: it does worse on the smaller classes; if they matter, train --select balanced chooses the model by balanced accuracy (an expert flag: songc train --help-all)\n", 100*gap)
}

// newProgressPrinter returns a Progress callback: a live, rewritten line on
// a terminal, one line per epoch otherwise. Without validation rows
// (hasVal false) it gives the hard walk's accuracy on the training rows.
func newProgressPrinter(w io.Writer, terminal, hasVal bool) func(trainer.Progress) {
	var last time.Time
	return func(p trainer.Progress) {
		if p.EpochDone {
			rec := p.Record
			kind := "loss"
			if rec.Straight {
				kind = "walk loss" // straight-through: the hard walk's BCE
			}
			line := fmt.Sprintf("epoch %d/%d  %s %.4f (bce %.4f, leaf %.4f", p.Epoch, p.Epochs, kind, rec.Total, rec.BCE, rec.Leaf)
			if rec.Node != 0 {
				line += fmt.Sprintf(", node %.4f", rec.Node)
			}
			line += fmt.Sprintf(")  leaf mass %.3f  train %.2f%%", rec.LeafMass, 100*rec.TrainAcc)
			switch {
			case !hasVal:
				line += fmt.Sprintf("  hard walk on train %.2f%%", 100*rec.HardValAcc)
			case rec.ValAcc > 0 || rec.Best:
				line += fmt.Sprintf("  val %.2f%% (hard %.2f%%)", 100*rec.ValAcc, 100*rec.HardValAcc)
			}
			if rec.Temp != 0 {
				line += fmt.Sprintf("  tau %.3g", rec.Temp)
			}
			if rec.TestAcc > 0 || rec.HardTestAcc > 0 {
				line += fmt.Sprintf("  test %.2f%% (hard %.2f%%)", 100*rec.TestAcc, 100*rec.HardTestAcc)
			}
			if rec.Best && hasVal {
				line += " *"
			}
			line += fmt.Sprintf("  %.1fs", rec.Seconds)
			if terminal {
				fmt.Fprintf(w, "\r\033[K%s\n", line)
			} else {
				fmt.Fprintln(w, line)
			}
			return
		}
		if !terminal || time.Since(last) < 100*time.Millisecond {
			return
		}
		last = time.Now()
		const width = 10
		done := width * p.Batch / p.Batches
		bar := strings.Repeat("=", done) + strings.Repeat(" ", width-done)
		val := ""
		if hasVal && p.LastValAcc >= 0 {
			val = fmt.Sprintf("  val %.2f%%", 100*p.LastValAcc)
		}
		// Short enough for 80 columns: a line that wraps is not rewritten.
		fmt.Fprintf(w, "\r\033[Kepoch %d/%d [%s] %d/%d  loss %.4f%s  ETA %s",
			p.Epoch, p.Epochs, bar, p.Batch, p.Batches, p.Loss.Total, val, p.ETA.Round(time.Second))
	}
}

// logFor is the per-epoch log that training writes beside model unless
// --log names another, and that analyze looks for: m.log.jsonl for m.json.
func logFor(model string) string {
	return strings.TrimSuffix(model, filepath.Ext(model)) + ".log.jsonl"
}

// ctrlCFor is the checkpoint that Ctrl-C saves a training of model to,
// when --checkpoint names none: MODEL.ckpt.
func ctrlCFor(model string) string { return model + ".ckpt" }
