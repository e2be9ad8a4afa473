package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/songc/songc/analysis"
	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer"
	"github.com/songc/songc/trainer/data"
)

// TrainCmd learns a model.
type TrainCmd struct {
	Data            string   `placeholder:"FILE" help:"Training data: CSV (gzip'd or not) or an IDX images file (its labels file is found beside it). Without --data, the embedded Letter data (UCI, CC BY 4.0) and its test split are used."`
	Test            string   `placeholder:"FILE" help:"Test data, only reported (never used to choose the model)."`
	Output          string   `short:"o" default:"model.json" placeholder:"MODEL" help:"Where to write the model (JSON)."`
	Nodes           *int     `placeholder:"64" help:"Internal nodes n (default 64)."`
	Steps           *int     `placeholder:"20" help:"Steps N of the Markov chain (default 20)."`
	Epochs          *int     `placeholder:"N" help:"Epochs (paper: 250, fast: 120, quick: 60)."`
	Preset          string   `enum:"paper,fast,quick," default:"" help:"Recipe. paper: the authors' (raw inputs, batch 128, Adam at 0.001, 250 epochs); the default with --data. fast: reaches the paper's accuracies in fewer epochs (standardised inputs, batch 64, Adam at 0.03 on a cosine schedule, 120 epochs, --anneal 0.2 --anneal-temp 0.4 --select hard --refine 10; see docs/RESULTS.md). quick: fast in 60 epochs, the default of the embedded demo. Flags given explicitly win."`
	Batch           *int     `placeholder:"N" help:"Rows per batch (paper: 128, fast and quick: 64)."`
	LR              *float64 `name:"lr" placeholder:"RATE" help:"Adam learning rate (paper: 0.001, fast and quick: 0.03; with fast, Letter does better at 0.1, Connect-4 at 0.01, MNIST at 0.03: docs/RESULTS.md)."`
	Seed            uint64   `default:"1" help:"Seed of every random choice: same data, flags and seed give the same model bytes."`
	Restart         int      `placeholder:"R" default:"0" help:"Number of this graph among several trained with the same --seed (0, 1, 2, ...): it changes the initialisation, batch order and noise, not the validation split, so that songc select can keep the best of them (the authors train 5 graphs and keep one)."`
	Precision       string   `enum:"f32,f64" default:"f32" help:"Training precision (${enum}); models are stored and evaluated in float64 either way."`
	Val             float64  `default:"0.1" help:"Share of the training rows held out (stratified) to choose the best epoch; 0 keeps the last epoch."`
	Standardize     *bool    `negatable:"" help:"Shift and scale every feature to mean 0, standard deviation 1 over the training rows (recorded in the model and applied at inference). Off in the paper preset, on in fast and quick."`
	NodeRegGamma    float64  `name:"node-reg-gamma" default:"1" help:"Node regularisation exponent gamma, in [1, 2)."`
	NodeRegLambda   float64  `name:"node-reg-lambda" default:"0" help:"Node regularisation weight lambda (0: off)."`
	Anneal          *float64 `placeholder:"SHARE" help:"Share of the last epochs in which the temperature of the column softmax and the node sigmoids falls from 1 to --anneal-temp, so that the soft model approaches the hard walk it compiles into (paper: 0, off; fast and quick: 0.2)."`
	AnnealTemp      *float64 `name:"anneal-temp" placeholder:"TAU" help:"Final temperature of --anneal (default 0.4 in fast and quick, 0.1 otherwise)."`
	Select          *string  `placeholder:"soft|hard" help:"Choose the epoch by the validation accuracy of the soft model or of the hard walk, which is what compiles (paper: soft, fast and quick: hard)."`
	LRSchedule      *string  `name:"lr-schedule" placeholder:"constant|cosine" help:"Learning-rate schedule: constant (paper), or cosine (fast and quick), which lowers it from --lr to 0 along a half cosine over the run."`
	Gumbel          string   `enum:"dirty,off" default:"dirty" help:"Gumbel noise on the column softmax during training (${enum}): dirty (the authors': on a share of the batches that falls from all to none over the run) or off."`
	Sharpen         float64  `placeholder:"LAMBDA" default:"0" help:"Weight of a sharpness penalty (songc's, not the authors'): the mean of 4 s(1-s) over node decisions plus the normalised entropy of the transition columns. It pushes the soft model toward the hard walk it compiles into, where annealing alone lets the model keep soft decisions (0: off)."`
	WeightDecay     float64  `name:"weight-decay" placeholder:"WD" default:"0" help:"Decoupled weight decay of the node filters (AdamW, songc's, not the authors'): every step multiplies them by 1 - lr*WD before the Adam update, which curbs overfitting on wide inputs (0: off; with --preset fast, 0.01 lifted MNIST's compiled accuracy by 1.3 to 1.7 points and Letter 64/20's at --lr 0.1 by 2, and 0.05 with --epochs 240 Connect-4 8/10's refined walk by 1.2: docs/RESULTS.md)."`
	StraightThrough float64  `name:"straight-through" placeholder:"SHARE" default:"0" help:"Share of the last epochs that train the hard walk itself (songc's, not the authors'): the forward pass routes every row along its walk, the backward pass takes the soft model's derivatives (straight-through estimator), and the loss is the walk's expected error. These epochs are not annealed. With --preset fast, 0.2 lifted Connect-4 8/10's compiled accuracy by 1.06 points trained and 0.66 refined over 10 seeds (docs/RESULTS.md). 0: off."`
	StraightLR      float64  `name:"straight-through-lr" placeholder:"RATE" default:"0" help:"Learning rate at the first straight-through epoch (songc's): those epochs then fall from RATE to 0 along their own half cosine (or keep RATE with --lr-schedule constant), where otherwise the run's schedule, near its end, goes on. On Connect-4 255/10 (360 epochs, --straight-through 0.2) 0.003 gave refined walks that scored 82.38 on validation against 82.30 without it and 81.88 on test against 81.61 (five seeds; 0.001 and 0.01 scored lower on validation, seed 1; docs/RESULTS.md). 0: off."`
	Init            string   `enum:"paper,fan-in" default:"paper" help:"Initialisation of the node filters W and biases b (${enum}): paper (uniform on +-1/sqrt(d n), the authors') or fan-in (uniform on +-1/sqrt(d), larger, for standardised inputs). The transition logits start uniform on [0, 1) either way."`
	Refine          *int     `placeholder:"PASSES" help:"After training, fine-tune the hard walk (the classifier that compiles) for at most PASSES passes, as songc refine does: node filters, children and exits are refitted on the training rows, and the pass with the best hard-walk validation accuracy is kept (paper: 0, off; fast and quick: 10)."`
	Kernel          string   `enum:"auto,gonum,avx2" default:"auto" help:"Matrix kernel (${enum}): auto picks avx2 for f32 on CPUs with AVX2 and FMA, gonum otherwise. Same data, flags, seed and kernel give the same model bytes."`
	Checkpoint      string   `placeholder:"FILE" help:"Save model, optimiser and random state to FILE after every epoch."`
	Resume          string   `placeholder:"FILE" help:"Continue the run saved in checkpoint FILE. Training flags are taken from it; --data, --test, -o and --log, when given, say where the data and outputs are now (a checkpoint moved to another folder or machine), and the data must be the rows it was trained on."`
	Log             string   `placeholder:"FILE" help:"Per-epoch log, JSON lines (default: MODEL with .log.jsonl)."`
	Quiet           bool     `short:"q" help:"No progress output."`
	DataFlags       `embed:""`
}

// Help implements kong.HelpProvider.
func (TrainCmd) Help() string {
	return `Examples:
  songc train                                   # embedded Letter demo, about a minute
  songc train --data ../shared/data/letter/train.csv.gz --test ../shared/data/letter/test.csv.gz \
      --nodes 64 --steps 20 -o letter.json --checkpoint letter.ckpt
  songc train --resume letter.ckpt              # continue an interrupted run
  songc train --data ../shared/data/mnist/train-images-idx3-ubyte.gz --nodes 255 --steps 50
  for r in 0 1 2 3 4; do songc train --restart $r -o g$r.json; done
  songc select g?.json -o best.json             # keep the graph with the best validation accuracy

Progress goes to stderr: a live line on a terminal, one line per epoch otherwise.
Ctrl-C saves a checkpoint (the --checkpoint file, or MODEL.ckpt) and prints how to resume.`
}

// trainArgs is what a checkpoint needs beyond the training config to resume:
// where the data and the outputs are.
type trainArgs struct {
	Data, Test, Output, Log string
	Header, LabelCol        string
	Demo                    bool
	Refine                  int // passes of songc refine after training (0: none)
}

func (c *TrainCmd) Run(g *Globals) error {
	var args trainArgs
	var cfg trainer.Config
	var ckpt *trainer.Checkpoint
	if c.Resume != "" {
		var err error
		if ckpt, err = trainer.LoadCheckpoint(c.Resume); err != nil {
			return err
		}
		if err := json.Unmarshal(ckpt.Args, &args); err != nil {
			return fmt.Errorf("%s: checkpoint has no readable data paths: %v", c.Resume, err)
		}
		cfg = ckpt.Config
		// The checkpoint's paths are absolute; where a flag says where the
		// data or outputs are now, it wins (ResumeRun checks that the rows
		// are the same by their fingerprint).
		if c.Data != "" {
			args.Data, args.Demo = c.Data, false
		}
		if c.Test != "" {
			args.Test = c.Test
		}
		if c.Output != "model.json" {
			args.Output = c.Output
			args.Log = "" // follows the model, as without --resume
		}
		if c.Log != "" {
			args.Log = c.Log
		}
		if c.Refine != nil {
			args.Refine = *c.Refine
		}
		if c.Checkpoint == "" {
			c.Checkpoint = c.Resume
		}
	} else {
		args = trainArgs{Data: c.Data, Test: c.Test, Output: c.Output, Log: c.Log,
			Header: c.Header, LabelCol: c.LabelCol, Demo: c.Data == ""}
		if args.Demo && c.Test != "" {
			return usagef("--test needs --data (the embedded demo brings its own test split)")
		}
		preset := c.Preset
		if preset == "" {
			preset = "paper"
			if args.Demo {
				preset = "quick"
			}
		}
		var err error
		if cfg, err = trainer.PresetConfig(preset); err != nil {
			return usageError{err}
		}
		cfg.Seed, cfg.Restart, cfg.Precision, cfg.Val, cfg.Kernel = c.Seed, c.Restart, c.Precision, c.Val, c.Kernel
		cfg.NodeRegGamma, cfg.NodeRegLambda = c.NodeRegGamma, c.NodeRegLambda
		cfg.Gumbel, cfg.Init, cfg.Sharpen, cfg.WeightDecay = c.Gumbel, c.Init, c.Sharpen, c.WeightDecay
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
		setIf(&cfg.LRSchedule, c.LRSchedule)
		if err := cfg.Validate(); err != nil {
			return usageError{err}
		}
		if preset != "paper" {
			args.Refine = presetRefine
		}
		setIf(&args.Refine, c.Refine)
	}
	if args.Refine < 0 {
		return usagef("--refine must be at least 0, got %d", args.Refine)
	}
	if args.Log == "" {
		args.Log = strings.TrimSuffix(args.Output, filepath.Ext(args.Output)) + ".log.jsonl"
	}
	if err := checkWritable(args.Output); err != nil {
		return err
	}

	train, test, err := loadTrainData(args)
	if err != nil {
		return err
	}
	task, err := trainer.NewTask(train, test)
	if err != nil {
		return err
	}
	var r *trainer.Run
	if ckpt != nil {
		r, err = trainer.ResumeRun(ckpt, task)
	} else {
		r, err = trainer.NewRun(cfg, task)
	}
	if err != nil {
		return err
	}
	saved := args // the checkpoint keeps absolute paths: resumable from any folder
	saved.Data, saved.Test, saved.Output, saved.Log = abs(args.Data), abs(args.Test), abs(args.Output), abs(args.Log)
	r.Args, _ = json.Marshal(saved)
	r.CheckpointPath = c.Checkpoint
	// Structure of the binary graph after every epoch, for the paper's
	// "back edges fall as the loss falls" curves (songc analyze --plots).
	r.OnEpoch = func(rec *trainer.EpochRecord, p *trainer.Params) {
		if eg, err := analysis.EpochGraphOf(p, task.ClassNames); err == nil {
			rec.Graph, _ = json.Marshal(eg)
		}
	}
	r.InterruptPath = args.Output + ".ckpt"
	// The log is rewritten after every epoch, so a long run can be watched
	// and an interrupted one keeps its curve.
	var show func(trainer.Progress)
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
	if !c.Quiet {
		src := train.Name
		if args.Demo {
			src = "embedded Letter data"
		}
		s := r.Shape()
		fmt.Fprintf(g.Stderr, "songc: training %d nodes, %d steps on %s: %d classes, %d features, %d training rows, %d validation rows; %s, batch %d, lr %g, %d epochs",
			s.Nodes, s.Steps, src, s.Classes, s.Features, r.TrainRows(), r.ValRows(), cfg.Precision, cfg.Batch, cfg.LR, cfg.Epochs)
		if cfg.Restart > 0 {
			fmt.Fprintf(g.Stderr, ", graph %d of seed %d", cfg.Restart, cfg.Seed)
		}
		if cfg.Standardize {
			fmt.Fprint(g.Stderr, ", standardized inputs")
		}
		if cfg.LRSchedule == "cosine" {
			fmt.Fprint(g.Stderr, ", cosine lr schedule")
		}
		if cfg.Gumbel == "off" {
			fmt.Fprint(g.Stderr, ", no Gumbel noise")
		}
		if cfg.Anneal > 0 {
			fmt.Fprintf(g.Stderr, ", annealed to temperature %g over the last %g%% of epochs", cfg.AnnealTemp, 100*cfg.Anneal)
		}
		if cfg.Sharpen > 0 {
			fmt.Fprintf(g.Stderr, ", sharpened (%g)", cfg.Sharpen)
		}
		if cfg.WeightDecay > 0 {
			fmt.Fprintf(g.Stderr, ", weight decay %g", cfg.WeightDecay)
		}
		if cfg.StraightThrough > 0 {
			fmt.Fprintf(g.Stderr, ", the hard walk trained straight-through over the last %g%% of epochs", 100*cfg.StraightThrough)
			if cfg.StraightLR > 0 {
				fmt.Fprintf(g.Stderr, " from lr %g", cfg.StraightLR)
			}
		}
		if cfg.Select == "hard" {
			fmt.Fprint(g.Stderr, ", epoch chosen by the hard walk")
		}
		if args.Refine > 0 {
			fmt.Fprintf(g.Stderr, ", then refined (at most %d passes)", args.Refine)
		}
		if done := r.EpochsDone(); done > 0 {
			fmt.Fprintf(g.Stderr, " (resuming after epoch %d)", done)
		}
		fmt.Fprintln(g.Stderr)
		show = newProgressPrinter(g.Stderr, g.Terminal)
	}
	start := time.Now()
	err = r.Train(g.Ctx)
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
		refined, err := refine(g, model, task, trainer.RefineConfig{Passes: args.Refine}, c.Quiet)
		if err != nil {
			// Hours of training are not lost to a failed or interrupted refine.
			if serr := model.Save(args.Output); serr != nil {
				return fmt.Errorf("%v; saving the trained model failed too: %v", err, serr)
			}
			return fmt.Errorf("%w; the trained model, not refined, is saved in %s (songc refine -m %s continues)", err, args.Output, args.Output)
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
	return reportTraining(g, model, test, r, args, time.Since(start))
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

// presetRefine is the --refine of the fast and quick presets. Refine stops
// earlier when validation accuracy stops rising.
const presetRefine = 10

func setIf[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// checkWritable fails early when the model could not be written, instead of
// after hours of training.
func checkWritable(path string) error {
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("cannot write %s: %v", path, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("cannot write %s: %s is not a folder", path, dir)
	}
	f, err := os.CreateTemp(dir, ".songc-write-test*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %v", path, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

func loadTrainData(a trainArgs) (train, test *data.Dataset, err error) {
	if a.Demo {
		return data.Letter()
	}
	opt := DataFlags{Header: a.Header, LabelCol: a.LabelCol}.options(0)
	if train, err = data.Open(a.Data, opt); err != nil {
		return nil, nil, err
	}
	if a.Test != "" {
		if test, err = data.Open(a.Test, opt); err != nil {
			return nil, nil, err
		}
	}
	return train, test, nil
}

func writeLog(path string, recs []trainer.EpochRecord) error {
	return runtime.WriteFileAtomic(path, func(w io.Writer) error {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		for _, r := range recs {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		_, err := w.Write(buf.Bytes())
		return err
	})
}

// reportTraining prints where the model went and how it does on the test
// data (or the embedded test split), evaluated in float64 by the runtime.
func reportTraining(g *Globals, m *runtime.Model, test *data.Dataset, r *trainer.Run, a trainArgs, took time.Duration) error {
	var meta trainer.Metadata
	_ = json.Unmarshal(m.Training, &meta)
	by := fmt.Sprintf("validation accuracy %.2f%%", 100*meta.ValAccuracy)
	if recs := r.Records(); meta.Select == "hard" && meta.BestEpoch >= 1 && meta.BestEpoch <= len(recs) {
		by = fmt.Sprintf("hard-walk validation accuracy %.2f%%", 100*recs[meta.BestEpoch-1].HardValAcc)
	}
	var refined struct {
		Refine *trainer.RefineMetadata `json:"refine"`
	}
	if json.Unmarshal(m.Training, &refined) == nil && refined.Refine != nil && len(refined.Refine.Log) > 0 {
		rm := refined.Refine
		by += fmt.Sprintf(", then refined: hard-walk validation accuracy %.2f%% (pass %d of %d)",
			100*rm.Log[rm.Selected].ValAcc, rm.Selected, len(rm.Log)-1)
	}
	fmt.Fprintf(g.Stdout, "model: %s (best epoch %d of %d by %s); log: %s; %s\n",
		a.Output, meta.BestEpoch, r.EpochsDone(), by, a.Log, took.Round(time.Second))
	return reportTest(g, m, test)
}

// newProgressPrinter returns a Progress callback: a live, rewritten line on
// a terminal, one line per epoch otherwise.
func newProgressPrinter(w io.Writer, terminal bool) func(trainer.Progress) {
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
			if rec.Sharp != 0 {
				line += fmt.Sprintf(", sharp %.4f", rec.Sharp)
			}
			line += fmt.Sprintf(")  leaf mass %.3f  train %.2f%%", rec.LeafMass, 100*rec.TrainAcc)
			if rec.ValAcc > 0 || rec.Best {
				line += fmt.Sprintf("  val %.2f%% (hard %.2f%%)", 100*rec.ValAcc, 100*rec.HardValAcc)
			}
			if rec.Temp != 0 {
				line += fmt.Sprintf("  tau %.3g", rec.Temp)
			}
			if rec.TestAcc > 0 || rec.HardTestAcc > 0 {
				line += fmt.Sprintf("  test %.2f%% (hard %.2f%%)", 100*rec.TestAcc, 100*rec.HardTestAcc)
			}
			if rec.Best {
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
		const width = 20
		done := width * p.Batch / p.Batches
		bar := strings.Repeat("=", done) + strings.Repeat(" ", width-done)
		val := ""
		if p.LastValAcc >= 0 {
			val = fmt.Sprintf("  val %.2f%%", 100*p.LastValAcc)
		}
		fmt.Fprintf(w, "\r\033[Kepoch %d/%d [%s] %d/%d  loss %.4f (bce %.4f, leaf %.4f)%s  ETA %s",
			p.Epoch, p.Epochs, bar, p.Batch, p.Batches, p.Loss.Total, p.Loss.BCE, p.Loss.Leaf, val, p.ETA.Round(time.Second))
	}
}
