package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/songc/songc/runlog"
	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer"
	"github.com/songc/songc/trainer/data"
	"github.com/songc/songc/trainer/refine"
)

// TestTrain: a model of three separated blobs trains, reports its test
// accuracy, is byte-identical when trained again with the same data, flags
// and seed, and has a log line per epoch beside it.
func TestTrain(t *testing.T) {
	r := trainBlobs(t)
	if !strings.Contains(r.stdout, "soft accuracy") || !strings.Contains(r.stderr, "epoch 60/60") {
		t.Errorf("train output:\n%s\n%s", r.stdout, r.stderr)
	}
	first, err := os.ReadFile(r.model)
	if err != nil {
		t.Fatal(err)
	}
	// Same data, flags and seed: same bytes (-o names the model, so it is replaced).
	if code, _, errs := songc(t, context.Background(), append(r.args, "-q")...); code != 0 {
		t.Fatal(errs)
	}
	if second, _ := os.ReadFile(r.model); !bytes.Equal(first, second) {
		t.Error("two identical runs wrote different models")
	}
	logLines, err := os.ReadFile(filepath.Join(r.dir, "m.log.jsonl"))
	if err != nil || bytes.Count(logLines, []byte("\n")) != 60 {
		t.Errorf("log: %v, %d lines", err, bytes.Count(logLines, []byte("\n")))
	}
	m, err := runtime.Load(r.model)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(m.ClassNames, ",") != "ant,bee,cat" {
		t.Errorf("class names %q", m.ClassNames)
	}
}

// TestTrainKeepsExistingDefaultModel: without -o, train writes model.json
// and its log, but does not replace a model.json that exists (before any
// training); -o model.json does replace it.
func TestTrainKeepsExistingDefaultModel(t *testing.T) {
	dir := t.TempDir()
	good := blobs(t, dir, "good.csv", 30, 1)
	t.Chdir(dir)
	args := []string{"train", "--data", good, "--nodes", "2", "--steps", "2", "--epochs", "1", "-q"}
	if code, _, errs := songc(t, context.Background(), args...); code != 0 {
		t.Fatalf("train without -o: exit %d: %s", code, errs)
	}
	want, err := os.ReadFile("model.json")
	if err != nil {
		t.Fatalf("train without -o wrote no model.json: %v", err)
	}
	if _, err := os.Stat("model.log.jsonl"); err != nil {
		t.Errorf("no log beside the default model: %v", err)
	}
	os.Remove("model.log.jsonl")

	code, _, errs := songc(t, context.Background(), args...)
	if code != 1 || !strings.Contains(errs, "songc train: model.json exists") || !strings.Contains(errs, "pass -o model.json to replace it") {
		t.Errorf("train over an existing model.json: exit %d: %s; want exit 1 and how to replace it", code, errs)
	}
	if got, _ := os.ReadFile("model.json"); !bytes.Equal(got, want) {
		t.Error("train without -o replaced model.json")
	}
	if _, err := os.Stat("model.log.jsonl"); err == nil {
		t.Error("the refused run wrote model.log.jsonl: the log follows the model's decision")
	}

	os.WriteFile("model.json", []byte("not a model"), 0o644)
	if code, _, errs := songc(t, context.Background(), append(args, "-o", "model.json")...); code != 0 {
		t.Fatalf("train -o model.json: exit %d: %s", code, errs)
	}
	if got, _ := os.ReadFile("model.json"); !bytes.Equal(got, want) {
		t.Error("train -o model.json did not replace model.json with the same seed's model")
	}
}

// TestTrainHelp: the default help fits a screen (about 60 lines at 80
// columns) and says nothing about measured figures; the expert flags are
// hidden there and shown, grouped, by --help-all; removed research flags
// are refused.
func TestTrainHelp(t *testing.T) {
	t.Setenv("COLUMNS", "80")
	code, help, _ := songc(t, context.Background(), "train", "--help")
	if code != 0 {
		t.Fatalf("train --help: exit %d", code)
	}
	if n := strings.Count(help, "\n"); n > 60 {
		t.Errorf("train --help has %d lines, want at most 60:\n%s", n, help)
	}
	code, all, _ := songc(t, context.Background(), "train", "--help-all")
	if code != 0 {
		t.Fatalf("train --help-all: exit %d", code)
	}
	for _, h := range []string{help, all} {
		if strings.Contains(h, "%") || strings.Contains(h, "RESULTS") {
			t.Errorf("help quotes figures (a %% sign or docs/RESULTS.md); they belong in the docs:\n%s", h)
		}
	}
	for _, want := range []string{"--data=FILE", "--test=FILE", "-o, --output=MODEL", "--nodes=N", "--steps=N", "--epochs=N", "--seed=1",
		"--preset=auto|paper|fast|quick", "auto (default with --data)", "fast: one graph,", "quick: 60 epochs", "A SONG routes each row", "songc compile letter.json", "missing values are read as they are", "--budget=DURATION", "--checkpoint=FILE", "--resume=FILE", "-q, --quiet",
		"--header=", "--label-col=", "name; default: last.", "--help-all"} {
		if !strings.Contains(strings.Join(strings.Fields(help), " "), want) { // wrapped anywhere
			t.Errorf("train --help lacks %q:\n%s", want, help)
		}
	}
	expert := []string{"--batch=N", "--lr=RATE", "--lr-schedule=", "--precision=", "--val=", "--[no-]standardize", "--node-reg-gamma=", "--node-reg-lambda=",
		"--anneal=SHARE", "--anneal-temp=TAU", "--select=", "--gumbel=", "--weight-decay=", "--straight-through=SHARE", "--straight-through-lr=RATE",
		"--init=", "--refine=PASSES", "--kernel=", "--restart=R"}
	for _, flag := range expert {
		if strings.Contains(help, flag) {
			t.Errorf("train --help shows the expert flag %s", flag)
		}
		if !strings.Contains(all, flag) {
			t.Errorf("train --help-all lacks %s", flag)
		}
	}
	for _, group := range []string{"Recipe", "Research", "Engine"} {
		if !strings.Contains(all, "\n"+group) {
			t.Errorf("train --help-all lacks the group %s:\n%s", group, all)
		}
	}
	for _, removed := range [][]string{{"train", "--sharpen", "1"}, {"refine", "--polish"}} {
		if code, _, errs := songc(t, context.Background(), removed...); code != 2 || !strings.Contains(errs, "unknown flag "+removed[1]) {
			t.Errorf("%v: exit %d %s; want an unknown flag", removed, code, errs)
		}
	}
}

// TestDemoPath runs the embedded-data path for one tiny epoch.
func TestDemoPath(t *testing.T) {
	model := filepath.Join(t.TempDir(), "demo.json")
	code, out, errs := songc(t, context.Background(), "train", "--nodes", "3", "--steps", "2", "--epochs", "1", "-o", model)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "embedded Letter data") || !strings.Contains(errs, "standardized inputs") || !strings.Contains(out, "test (embedded:letter/test.csv.gz, 2000 rows)") {
		t.Errorf("demo output:\n%s\n%s", out, errs)
	}
}

// TestInterruptSavesCheckpoint: a cancelled context (what SIGINT does)
// saves a checkpoint, exits 130 and says how to resume; resuming finishes.
func TestInterruptSavesCheckpoint(t *testing.T) {
	dir := t.TempDir()
	good := blobs(t, dir, "good.csv", 60, 1)
	model := filepath.Join(dir, "m.json")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	code, _, errs := songc(t, ctx, "train", "--preset", "paper", "--data", good, "-o", model, "--nodes", "2", "--steps", "2", "--epochs", "2", "-q")
	ckpt := model + ".ckpt"
	if code != 130 || !strings.Contains(errs, "resume with: songc train --resume "+ckpt) {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, err := os.Stat(model); err == nil {
		t.Error("an interrupted run wrote the model")
	}
	code, _, errs = songc(t, context.Background(), "train", "--resume", ckpt, "-q")
	if code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errs)
	}
	if _, err := runtime.Load(model); err != nil {
		t.Error(err)
	}
	// The checkpoint Ctrl-C wrote goes with the run it resumed; one that
	// --checkpoint asked for stays.
	if _, err := os.Stat(ckpt); err == nil {
		t.Error("the resumed run left the checkpoint Ctrl-C wrote")
	}
	// Also when the resumed run saves to a --checkpoint of its own.
	code, _, errs = songc(t, ctx, "train", "--preset", "paper", "--data", good, "-o", model, "--nodes", "2", "--steps", "2", "--epochs", "2", "-q")
	if code != 130 {
		t.Fatalf("interrupted again: exit %d: %s", code, errs)
	}
	own := filepath.Join(dir, "own.ckpt")
	code, _, errs = songc(t, context.Background(), "train", "--resume", ckpt, "--checkpoint", own, "-q")
	if code != 0 {
		t.Fatalf("resume with --checkpoint: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(ckpt); err == nil {
		t.Error("a run resumed with its own --checkpoint left the checkpoint Ctrl-C wrote")
	}
	if _, err := os.Stat(own); err != nil {
		t.Errorf("the resumed run's own --checkpoint: %v", err)
	}
	// A checkpoint --checkpoint asked for stays, also when it is at
	// MODEL.ckpt, the path Ctrl-C would have used.
	for _, asked := range []string{filepath.Join(dir, "asked.ckpt"), ckpt} {
		code, _, errs = songc(t, ctx, "train", "--preset", "paper", "--data", good, "-o", model, "--nodes", "2", "--steps", "2", "--epochs", "2", "-q", "--checkpoint", asked)
		if code != 130 {
			t.Fatalf("--checkpoint %s, interrupted: exit %d: %s", asked, code, errs)
		}
		code, _, errs = songc(t, context.Background(), "train", "--resume", asked, "-q")
		if _, err := os.Stat(asked); code != 0 || err != nil {
			t.Errorf("--checkpoint %s, resumed: exit %d, %v: %s", asked, code, err, errs)
		}
	}
}

// TestTrainRestarts: --restarts 3 keeps the graph best on the validation
// rows, byte for byte the one --restart R trains alone, says which it
// kept, and an interrupted run resumes from its checkpoint of all three
// to the same model.
func TestTrainRestarts(t *testing.T) {
	dir := t.TempDir()
	data := blobs(t, dir, "train.csv", 90, 1)
	flags := []string{"--data", data, "--preset", "fast", "--nodes", "3", "--steps", "3", "--epochs", "3", "--refine", "0"}
	model := filepath.Join(dir, "m.json")
	code, _, errs := songc(t, context.Background(), append([]string{"train", "-o", model, "--restarts", "3", "--restart", "4"}, flags...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	kept := -1
	if _, err := fmt.Sscanf(errs[strings.Index(errs, "kept restart "):], "kept restart %d of 3", &kept); err != nil {
		t.Fatalf("no kept restart in %s", errs)
	}
	got := readFile(t, model)
	for r := 4; r < 7; r++ {
		alone := filepath.Join(dir, fmt.Sprintf("r%d.json", r))
		if code, _, errs := songc(t, context.Background(), append([]string{"train", "-o", alone, "--restart", strconv.Itoa(r), "-q"}, flags...)...); code != 0 {
			t.Fatalf("restart %d: exit %d: %s", r, code, errs)
		}
		if same := bytes.Equal(readFile(t, alone), got); same != (r == kept) {
			t.Errorf("restart %d alone equal to the kept model: %v; kept restart %d", r, same, kept)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cut := filepath.Join(dir, "cut.json")
	if code, _, errs := songc(t, ctx, append([]string{"train", "-o", cut, "--restarts", "3", "--restart", "4", "-q"}, flags...)...); code != 130 || !strings.Contains(errs, "of the 3 graphs are saved in "+cut+".ckpt") {
		t.Fatalf("interrupted: exit %d: %s", code, errs)
	}
	if code, _, errs := songc(t, context.Background(), "train", "--resume", cut+".ckpt", "-q"); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errs)
	}
	if !bytes.Equal(readFile(t, cut), got) {
		t.Error("the resumed restarts kept another model than the uninterrupted run")
	}
	if _, err := os.Stat(cut + ".ckpt"); err == nil {
		t.Error("the resumed restarts left their checkpoint")
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestResumeMovedCheckpoint: a checkpoint whose data and folder have moved
// (another machine) resumes where --data, --test and -o say they are now,
// writes its log beside the new model, and refuses other rows.
func TestResumeMovedCheckpoint(t *testing.T) {
	old, moved := t.TempDir(), t.TempDir()
	good := blobs(t, old, "good.csv", 60, 1)
	model := filepath.Join(old, "m.json")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	code, _, errs := songc(t, ctx, "train", "--preset", "paper", "--data", good, "--test", good, "-o", model, "--nodes", "2", "--steps", "2", "--epochs", "2", "-q")
	if code != 130 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	ckpt := filepath.Join(moved, "m.json.ckpt")
	for from, to := range map[string]string{model + ".ckpt": ckpt, good: filepath.Join(moved, "good.csv")} {
		if err := os.Rename(from, to); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, errs := songc(t, context.Background(), "train", "--resume", ckpt, "-q"); code == 0 || !strings.Contains(errs, good) {
		t.Errorf("resume with the data gone: exit %d, want an error naming %s: %s", code, good, errs)
	}
	other := blobs(t, moved, "other.csv", 60, 2)
	if code, _, errs := songc(t, context.Background(), "train", "--resume", ckpt, "--data", other, "--test", other, "-q"); code == 0 || !strings.Contains(errs, "data differs") {
		t.Errorf("resume on other rows: exit %d, want an error saying the data differs: %s", code, errs)
	}
	newModel := filepath.Join(moved, "m.json")
	newData := filepath.Join(moved, "good.csv")
	code, _, errs = songc(t, context.Background(), "train", "--resume", ckpt, "--data", newData, "--test", newData, "-o", newModel, "-q")
	if code != 0 {
		t.Fatalf("resume moved: exit %d: %s", code, errs)
	}
	if _, err := runtime.Load(newModel); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(moved, "m.log.jsonl")); err != nil {
		t.Errorf("the log did not follow the model: %v", err)
	}
	if entries, _ := os.ReadDir(old); len(entries) != 0 {
		t.Errorf("resume wrote into the old folder: %v", entries)
	}
}

// TestNaNLossStops: a learning rate that overflows the float32 parameters
// makes the loss NaN; training stops with an error naming the epoch and
// batch, writes no model, and keeps the checkpoint of the last good state.
func TestNaNLossStops(t *testing.T) {
	dir := t.TempDir()
	good := blobs(t, dir, "good.csv", 300, 1)
	model := filepath.Join(dir, "m.json")
	ckpt := filepath.Join(dir, "m.ckpt")
	code, _, errs := songc(t, context.Background(), "train", "--preset", "paper", "--data", good, "-o", model, "--checkpoint", ckpt, "--nodes", "4", "--steps", "3", "--epochs", "2", "--batch", "16", "--lr", "1e38", "-q")
	if code != 1 || !strings.Contains(errs, "epoch 1, batch ") || !strings.Contains(errs, "loss is NaN") || !strings.Contains(errs, ckpt+" holds the last good state (after epoch 0)") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, err := os.Stat(model); err == nil {
		t.Error("a failed run wrote the model")
	}
	if code, _, errs := songc(t, context.Background(), "train", "--resume", ckpt, "-q"); code != 0 && !strings.Contains(errs, "NaN") {
		t.Errorf("the kept checkpoint does not load: %s", errs)
	}
}

// TestPresets: --preset paper, fast and quick set the recipe with --data,
// the demo defaults to quick, and explicit flags win over every preset.
func TestPresets(t *testing.T) {
	dir := t.TempDir()
	train := blobs(t, dir, "train.csv", 60, 1)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--data", train, "--preset", "paper"}, "batch 128, lr 0.001, 1 epoch\n"},
		{[]string{"--data", train, "--preset", "quick"}, "batch 64, lr 0.03, 1 epoch, standardized inputs, cosine lr schedule, annealed to temperature 0.4 over the last 20% of epochs, epoch chosen by the hard walk, then refined (at most 10 passes)\n"},
		{[]string{"--data", train, "--preset", "fast"}, "batch 64, lr 0.03, 1 epoch, standardized inputs, cosine lr schedule, annealed to temperature 0.4 over the last 20% of epochs, epoch chosen by the hard walk, then refined (at most 10 passes)\n"},
		{[]string{"--data", train, "--preset", "fast", "--lr", "0.5", "--no-standardize", "--batch", "16", "--lr-schedule", "constant", "--anneal", "0", "--select", "soft", "--refine", "0"}, "batch 16, lr 0.5, 1 epoch\n"},
		{[]string{"--data", train, "--preset", "paper", "--refine", "2"}, "lr 0.001, 1 epoch, then refined (at most 2 passes)\n"},
		{[]string{"--data", train, "--preset", "paper", "--anneal", "0.5"}, "lr 0.001, 1 epoch, annealed to temperature 0.1 over the last 50% of epochs\n"},
		{[]string{"--data", train, "--preset", "paper", "--gumbel", "off"}, "lr 0.001, 1 epoch, no Gumbel noise\n"},
		// The one epoch trains the walk, and its line says so.
		{[]string{"--data", train, "--preset", "paper", "--straight-through", "0.5"}, "lr 0.001, 1 epoch, the hard walk trained straight-through over the last 50% of epochs\nepoch 1/1  walk loss "},
		{[]string{"--preset", "paper"}, "lr 0.001, 1 epoch\n"},
	} {
		args := append([]string{"train", "-o", filepath.Join(dir, "m.json"), "--nodes", "2", "--steps", "2", "--epochs", "1"}, tc.args...)
		code, out, errs := songc(t, context.Background(), args...)
		if code != 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, want %q in:\n%s", tc.args, code, tc.want, errs)
		}
		// The summary names what chose the epoch.
		by := "(best epoch 1 of 1 by validation accuracy "
		if strings.Contains(tc.want, "epoch chosen by the hard walk") {
			by = "(best epoch 1 of 1 by hard-walk validation accuracy "
		}
		if !strings.Contains(out, by) {
			t.Errorf("%v: want %q in:\n%s", tc.args, by, out)
		}
	}
}

// TestAutoSearch: with --data and no preset, train searches: every
// candidate of the plan is recorded in the model with its epochs and
// validation score, the chosen one is the best (ties to the first), the
// flags given fix what they name, and the same flags give the same bytes.
func TestAutoSearch(t *testing.T) {
	dir := t.TempDir()
	train := blobs(t, dir, "train.csv", 200, 1)
	var models [2][]byte
	var lastErrs string
	for i := range models {
		model := filepath.Join(dir, fmt.Sprintf("m%d.json", i))
		code, out, errs := songc(t, context.Background(), "train", "--data", train, "-o", model, "--nodes", "3", "--steps", "2", "--epochs", "6", "--refine", "0")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if !strings.Contains(errs, "songc: searching on "+train+": 6 candidates (nodes/steps 3/2; lr 0.01, 0.03, 0.1; weight decay 0, 0.01), in rounds cut to a third at epochs") ||
			!strings.Contains(errs, "round 1/2") || !strings.Contains(out, "by hard-walk validation accuracy") {
			t.Errorf("output:\n%s\n%s", out, errs)
		}
		models[i], _ = os.ReadFile(model)
		lastErrs = errs
	}
	if !bytes.Equal(models[0], models[1]) {
		t.Error("two searches with the same flags wrote different models")
	}
	m, err := runtime.Decode(bytes.NewReader(models[0]), "m0.json")
	if err != nil {
		t.Fatal(err)
	}
	meta, err := runlog.ReadMetadata(m.Training)
	if err != nil || meta.Search == nil {
		t.Fatalf("metadata %s: %v", m.Training, err)
	}
	s := meta.Search
	if len(s.Candidates) != 6 || s.Chosen < 0 || s.Chosen >= 6 || s.By != "hard" {
		t.Fatalf("search record %+v", s)
	}
	// The summary says whether the chosen run still trains on.
	chosen := fmt.Sprintf("; chosen by the search after %d epochs, it trains on to its end", s.Candidates[s.Chosen].Epochs)
	if s.Candidates[s.Chosen].Epochs == 6 {
		chosen = "; chosen by the search, which had trained it to its end: all 6 epochs"
	}
	if !strings.Contains(lastErrs, chosen) {
		t.Errorf("want %q in:\n%s", chosen, lastErrs)
	}
	for i, c := range s.Candidates {
		if c.Nodes != 3 || c.Steps != 2 || c.Epochs < 1 {
			t.Errorf("candidate %d: %+v", i, c)
		}
		if c.Score > s.Candidates[s.Chosen].Score {
			t.Errorf("candidate %d scored %v, above the chosen %d (%v)", i, c.Score, s.Chosen, s.Candidates[s.Chosen].Score)
		}
	}
	if c := s.Candidates[s.Chosen]; m.Nodes != 3 || meta.LR != c.LR || meta.WeightDecay != c.WeightDecay || meta.Epochs != c.Epochs {
		t.Errorf("model (lr %v, wd %v, %d epochs) is not the chosen candidate %+v", meta.LR, meta.WeightDecay, meta.Epochs, c)
	}
}

// TestAutoSearchResume: Ctrl-C during the auto recipe's search saves the
// search (exit 130, with the command that resumes it); resuming writes the
// model an uninterrupted run writes.
func TestAutoSearchResume(t *testing.T) {
	dir := t.TempDir()
	train := blobs(t, dir, "train.csv", 200, 1)
	flags := []string{"--data", train, "--nodes", "3", "--steps", "2", "--epochs", "6", "--refine", "0", "-q"}
	want := filepath.Join(dir, "want.json")
	if code, _, errs := songc(t, context.Background(), append([]string{"train", "-o", want}, flags...)...); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	model := filepath.Join(dir, "m.json")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	code, _, errs := songc(t, ctx, append([]string{"train", "-o", model}, flags...)...)
	if code != 130 || !strings.Contains(errs, "during the search") || !strings.Contains(errs, "resume with: songc train --resume "+model+".ckpt") {
		t.Fatalf("interrupted: exit %d: %s", code, errs)
	}
	if code, _, errs := songc(t, context.Background(), "train", "--resume", model+".ckpt", "-q"); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errs)
	}
	a, _ := os.ReadFile(want)
	b, _ := os.ReadFile(model)
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Error("the resumed search wrote another model than an uninterrupted one")
	}
}

// TestOutputsChecked: outputs are checked before any training: two outputs
// at one path are a usage error (exit 2), a folder at -o is refused (exit
// 1), and nothing is written.
func TestOutputsChecked(t *testing.T) {
	dir := t.TempDir()
	train := blobs(t, dir, "train.csv", 60, 1)
	model := filepath.Join(dir, "m.json")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-o", model, "--log", model}, 2, "-o and --log name the same file"},
		{[]string{"-o", model, "--checkpoint", model}, 2, "name the same file"},
		{[]string{"-o", dir}, 1, "is a folder"},
		// An output over the data: the training file, through another
		// path to it too.
		{[]string{"-o", train}, 2, "-o " + train + " is the --data file: writing it would replace the data"},
		{[]string{"--log", filepath.Join(dir, ".", "train.csv")}, 2, "is the --data file"},
	} {
		args := append([]string{"train", "--data", train, "--preset", "paper", "--epochs", "1", "--nodes", "2", "--steps", "2"}, tc.args...)
		code, _, errs := songc(t, context.Background(), args...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, want %d and %q: %s", tc.args, code, tc.code, tc.want, errs)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("refused runs wrote files: %v", entries)
	}
	if b, _ := os.ReadFile(train); !bytes.HasPrefix(b, []byte("f1,f2,f3,f4,kind\n")) {
		t.Errorf("the training file changed: %.80q", b)
	}
	// refine and analyze refuse it too.
	_, tiny := tinyModel(t, t.TempDir())
	for _, args := range [][]string{
		{"refine", tiny, "--data", train, "-o", train},
		{"analyze", tiny, "--data", train, "--dot", train},
	} {
		if code, _, errs := songc(t, context.Background(), args...); code != 2 || !strings.Contains(errs, "is the --data file") {
			t.Errorf("%v: exit %d, %s", args, code, errs)
		}
	}
	if code, _, errs := songc(t, context.Background(), "analyze", tiny, "--dot", tiny); code != 2 || !strings.Contains(errs, "is the model file: writing it would replace the model") {
		t.Errorf("analyze --dot MODEL: exit %d, %s", code, errs)
	}
}

// TestRecipeRefusals: a preset that is not a recipe, and the auto recipe
// with nothing to choose on, are usage errors that name the flag.
func TestRecipeRefusals(t *testing.T) {
	dir := t.TempDir()
	train := blobs(t, dir, "train.csv", 60, 1)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--preset", "bogus"}, `--preset must be auto, paper, fast or quick, got "bogus"`},
		{[]string{"--val", "0"}, "the auto recipe chooses on validation rows: --val must be above 0"},
		{[]string{"--patience", "0"}, "--patience must be at least 1"},
		{[]string{"--budget=-1s"}, "--budget must be 0 (no limit) or more"},
		{[]string{"--restarts", "2"}, "--restarts trains several graphs of one recipe; the auto recipe searches instead"},
		{[]string{"--preset", "fast", "--restarts", "0"}, "--restarts must be in [1, 64], got 0"},
		{[]string{"--preset", "fast", "--restarts", "2", "--restart", "1048576"}, "--restart 1048576 --restarts 2 goes past the last restart, 1048576"},
		{[]string{"--preset", "fast", "--restarts", "2", "--val", "0"}, "--restarts 2 keeps the graph that does best on the validation rows; --val 0 leaves none"},
		{[]string{"--preset", "fast", "--budget", "5s"}, "--budget bounds the auto recipe's search, and --preset fast trains one fixed recipe: leave --budget out"},
		{[]string{"--budget", "10"}, `--budget: expected duration but got "10": time: missing unit in duration "10": give a unit, e.g. 90s, 10m or 1h30m`},
	} {
		args := append([]string{"train", "--data", train, "-o", filepath.Join(dir, "m.json")}, tc.args...)
		if code, _, errs := songc(t, context.Background(), args...); code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, want 2 and %q: %s", tc.args, code, tc.want, errs)
		}
	}
}

// TestDefaultBudget: --budget is the auto recipe's, given or not: with
// a fixed recipe (the demo's too) it is refused even at its default value,
// and its help shows the default as a person writes it.
func TestDefaultBudget(t *testing.T) {
	for d, want := range map[time.Duration]string{defaultBudget: "10m", 90 * time.Second: "1m30s", 90 * time.Minute: "1h30m", 2 * time.Hour: "2h"} {
		if got := durationText(d); got != want {
			t.Errorf("durationText(%v) = %q, want %q", d, got, want)
		}
	}
	out := filepath.Join(t.TempDir(), "m.json")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "--budget", "5s", "-o", out}, "--budget bounds the auto recipe's search, and without --data, the embedded demo trains the quick recipe, one fixed recipe"},
		{[]string{"train", "--budget", "10m", "--preset", "fast", "-o", out}, "--budget bounds the auto recipe's search, and --preset fast trains one fixed recipe"},
	} {
		if code, _, errs := songc(t, context.Background(), tc.args...); code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d: %s", tc.args, code, errs)
		}
	}
	if _, help, _ := songc(t, context.Background(), "train", "--help"); !strings.Contains(strings.Join(strings.Fields(help), " "), "(default 10m; 0: no limit), up to a quarter more") {
		t.Errorf("--help: %s", help)
	}
}

// TestResumeRefusesRecipeFlags: --resume continues a run with its own
// recipe; a recipe or data flag is a usage error naming it, before
// the checkpoint is read.
func TestResumeRefusesRecipeFlags(t *testing.T) {
	code, _, errs := songc(t, context.Background(), "train", "--resume", "none.ckpt", "--lr", "0.01", "--nodes", "8")
	if code != 2 || !strings.Contains(errs, "--resume continues a run with the flags it was started with, which its checkpoint holds: leave out --lr, --nodes (or") {
		t.Errorf("exit %d: %s", code, errs)
	}
	// The reading of the data is the checkpoint's too.
	code, _, errs = songc(t, context.Background(), "train", "--resume", "none.ckpt", "--categorical", "a", "--missing", "NA", "--numeric", "b")
	if code != 2 || !strings.Contains(errs, "leave out --categorical, --missing, --numeric (or") {
		t.Errorf("exit %d: %s", code, errs)
	}
}

// TestTreeCheckCLI: on four classes that three single-column cuts
// decide, a two-node walk, which reaches at most three leaves, cannot be
// right on every row, and the auto recipe saves the tree of 4 leaves in
// its place, and says so; --no-tree keeps the walk; the other recipes
// grow no tree unless asked, and --tree without refining or validation
// rows is refused.
func TestTreeCheckCLI(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	data := csvFile(t, "u,v,label", 300, func(int) string {
		u, v := rng.IntN(1000), rng.IntN(1000)
		label := "low"
		switch {
		case v > 750:
			label = "top"
		case u > 650:
			label = "high"
		case u > 350:
			label = "mid"
		}
		return fmt.Sprintf("%d,%d,%s", u, v, label)
	})
	dir := filepath.Dir(data)
	train := smallTrainer(t, data)
	m, meta, out, errs := train("tree.json")
	if tc := meta.Tree(); tc == nil || tc.Leaves != 4 || m.Nodes != 3 || m.Steps < 2 || m.Steps > 3 ||
		!strings.Contains(errs, "songc: tree check: a decision tree on single columns of 4 leaves, grown on the training rows, scores accuracy ") ||
		!strings.Contains(errs, "; the tree, grown again on all the training rows, replaces the walk\n") ||
		!strings.Contains(out, "; then the tree check replaced the walk by a decision tree of 4 leaves, which scored ") ||
		!strings.Contains(out, "rows, learned by the tree): ") ||
		!strings.Contains(errs, "songc: majority check: on the validation rows the tree is right on ") || !strings.Contains(errs, "; the tree is kept\n") ||
		!strings.Contains(out, "note: the tree was fitted again on these validation rows too, so they cannot measure it; ") {
		t.Fatalf("auto recipe: %d nodes, %d steps, tree check %+v; output:\n%s\n%s", m.Nodes, m.Steps, meta.Refine.Tree, out, errs)
	}
	code, out, errs := songc(t, context.Background(), "eval", filepath.Join(dir, "tree.json"), "--data", data, "--json")
	var ev struct {
		Hard float64 `json:"hard_accuracy"`
	}
	if err := json.Unmarshal([]byte(out), &ev); code != 0 || err != nil || ev.Hard < 0.99 {
		t.Errorf("eval of the tree: exit %d:\n%s\n%s", code, out, errs)
	}
	m, meta, _, errs = train("walk.json", "--no-tree", "--no-logistic")
	if m.Nodes != 2 || meta.Refine.Tree != nil || strings.Contains(errs, "tree check") {
		t.Errorf("--no-tree: %d nodes, tree check %+v; output:\n%s", m.Nodes, meta.Refine.Tree, errs)
	}
	checkOptIn(t, train, data, "--tree", "--tree compares a tree with the refined walk on the validation rows",
		func(meta runlog.Metadata) bool { return meta.Refine.Tree != nil })
}

// TestLogisticCheckCLI: on rows whose class is the argmax of three
// linear scores of two columns, which no tree of single-column cuts draws
// exactly, the auto recipe's logistic check keeps a logistic regression,
// as a graph of 3 nodes walked in 2 steps, and says so; --no-logistic
// keeps the walk or tree; the other recipes check only when asked, and
// the check is refused where it cannot run.
func TestLogisticCheckCLI(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	data := csvFile(t, "u,v,label", 300, func(int) string {
		u, v := rng.Float64()*10, rng.Float64()*10
		label, top := "east", u-v
		if s := u + v - 10; s > top {
			label, top = "north", s
		}
		if s := 4 - u; s > top {
			label = "west"
		}
		return fmt.Sprintf("%.4f,%.4f,%s", u, v, label)
	})
	dir := filepath.Dir(data)
	train := smallTrainer(t, data)
	m, meta, out, errs := train("logistic.json")
	if lc := meta.Logistic(); lc == nil || m.Nodes != 3 || m.Steps != 2 || meta.Tree() != nil || judged(meta) != "logistic regression" ||
		!strings.Contains(errs, "songc: logistic check: a logistic regression on all the columns, fitted to the training rows, scores accuracy ") ||
		!strings.Contains(errs, "; the regression, fitted again on all the training rows, replaces the "+lc.Rival+"\n") ||
		!strings.Contains(out, "; then the logistic check replaced the "+lc.Rival+" by a logistic regression, which scored ") ||
		!strings.Contains(out, "rows, learned by the logistic regression): ") ||
		!strings.Contains(errs, "songc: majority check: on the validation rows the logistic regression is right on ") ||
		!strings.Contains(errs, "; the logistic regression is kept\n") ||
		!strings.Contains(out, "note: the logistic regression was fitted again on these validation rows too, so they cannot measure it; ") ||
		!strings.Contains(out, "note: the model is the logistic regression, written as a graph whose nodes each compare two classes' scores, as the learned "+lc.Rival+" did not beat it by a sign test on the validation rows; --no-logistic keeps the "+lc.Rival+"\n") {
		t.Fatalf("auto recipe: %d nodes, %d steps, logistic check %+v; output:\n%s\n%s", m.Nodes, m.Steps, meta.Refine.Logistic, out, errs)
	}
	code, out, errs := songc(t, context.Background(), "eval", filepath.Join(dir, "logistic.json"), "--data", data, "--json")
	var ev struct {
		Hard   float64 `json:"hard_accuracy"`
		Forced int     `json:"forced_exits"`
	}
	if err := json.Unmarshal([]byte(out), &ev); code != 0 || err != nil || ev.Hard < 0.97 || ev.Forced != 0 {
		t.Errorf("eval of the regression: exit %d:\n%s\n%s", code, out, errs)
	}
	_, meta, _, errs = train("walk.json", "--no-logistic")
	if meta.Refine.Logistic != nil || strings.Contains(errs, "logistic check") {
		t.Errorf("--no-logistic: logistic check %+v; output:\n%s", meta.Refine.Logistic, errs)
	}
	checkOptIn(t, train, data, "--logistic", "--logistic compares a logistic regression with the refined walk on the validation rows",
		func(meta runlog.Metadata) bool { return meta.Refine.Logistic != nil })
}

// TestMajorityRegressionCLI: where the majority check finds the walk no
// better than the constant, the logistic check's regression takes the
// constant's place when it is right on more of the validation rows, and
// train says so; a regression that replaced the walk and is not right on
// more of them than the constant gives way to it, with its warning. The
// two files have a weak linear signal, drawn with two seeds.
func TestMajorityRegressionCLI(t *testing.T) {
	weak := func(seed uint64) func(name string, flags ...string) (*runtime.Model, runlog.Metadata, string, string) {
		rng := rand.New(rand.NewPCG(seed, 1))
		data := csvFile(t, "u,v,w,label", 300, func(int) string {
			u, v, w := rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()
			label := "often"
			if u+v+w+2*rng.NormFloat64() > 2 {
				label = "rarely"
			}
			return fmt.Sprintf("%.3f,%.3f,%.3f,%s", u, v, w, label)
		})
		return smallTrainer(t, data, "--no-tree")
	}
	m, meta, out, errs := weak(4)("regression.json")
	mc := meta.Refine.Majority
	if fb := meta.Fallback(); fb == nil || meta.Logistic() == nil || meta.Constant() != nil || judged(meta) != "walk" ||
		!(mc.PValue >= refine.MajorityLevel) || !(fb.Regression.RegressionOnly > fb.Regression.ConstantOnly) || m.W[0][0] == 0 ||
		!strings.Contains(errs, "; the logistic check's regression is right more often: it is right on ") ||
		!strings.Contains(errs, "; the regression, fitted again on all the training rows, replaces the walk\n") ||
		!strings.Contains(out, `; then the majority check found the walk no better than always predicting "often" and replaced it by a logistic regression, right on more validation rows than that constant, which scored `) ||
		!strings.Contains(out, "rows, learned by the logistic regression): ") || strings.Contains(out, "warning:") {
		t.Fatalf("regression in the constant's place: check %+v, regression %+v; output:\n%s\n%s", mc, mc.Regression, out, errs)
	}
	_, meta, out, errs = weak(2)("constant.json")
	if mc := meta.Constant(); mc == nil || mc.Regression == nil || mc.Regression.Kept || mc.Regression.RegressionOnly > mc.Regression.ConstantOnly ||
		!meta.Refine.Logistic.Kept || !regressionJudged(meta) || judged(meta) != "logistic regression" ||
		!strings.Contains(errs, "songc: majority check: on the validation rows the logistic regression is right on ") ||
		!strings.Contains(errs, `(it was fitted once, not chosen on those rows, so it must be right more often, with no test); the logistic regression is replaced by always predicting "often"`+"\n") ||
		!strings.Contains(out, `warning: the model predicts "often" for every row: the learned logistic regression could not be shown to do better than that: on the validation rows the logistic regression is right on `) ||
		!strings.Contains(out, ". --no-majority-check keeps the logistic regression, and --no-logistic the walk it replaced, if that beats the constant on its own; ") {
		t.Fatalf("the constant kept: check %+v; output:\n%s\n%s", meta.Refine.Majority, out, errs)
	}
}

// checkOptIn tests a check of refining that the auto recipe runs by
// default, flag (--tree, --logistic): --preset fast runs it only when
// given flag (ran says whether a model's metadata records it), and flag
// is refused, exit 2 with a message holding refused, without refining or
// without validation rows. train trains a model of data with the test's
// own flags and flags.
func checkOptIn(t *testing.T, train func(name string, flags ...string) (*runtime.Model, runlog.Metadata, string, string), data, flag, refused string, ran func(runlog.Metadata) bool) {
	t.Helper()
	if _, meta, _, _ := train("fast.json", "--preset", "fast"); ran(meta) {
		t.Errorf("--preset fast ran %s's check: %+v", flag, meta.Refine)
	}
	if _, meta, _, _ := train("fast-check.json", "--preset", "fast", flag); !ran(meta) {
		t.Errorf("--preset fast %s did not run its check", flag)
	}
	for _, flags := range [][]string{{"--refine", "0", flag}, {"--val", "0", flag}} {
		code, _, errs := songc(t, context.Background(), append([]string{"train", "--data", data, "-o", filepath.Join(t.TempDir(), "refused.json"), "--preset", "fast"}, flags...)...)
		if code != 2 || !strings.Contains(errs, refused) {
			t.Errorf("train %v: exit %d, want 2: %s", flags, code, errs)
		}
	}
}

// TestMajorityCheckCLI: on labels that the features do not predict, the
// auto recipe saves the constant model of the most frequent class, says so,
// and --no-majority-check keeps the walk; on blobs the walk is kept; the
// other recipes check only when asked. The file's warning (prices read as
// categories) is recalled as a possible cause of the constant, and so is
// the label, the last column by default.
func TestMajorityCheckCLI(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(5, 1))
	var b strings.Builder
	b.WriteString("u,v,price,label\n")
	for i := range 200 {
		label := "often"
		if rng.Float64() < 0.3 {
			label = "rarely"
		}
		fmt.Fprintf(&b, "%.3f,%.3f,$%d.50,%s\n", rng.Float64(), rng.Float64(), i%7, label)
	}
	noise := filepath.Join(dir, "noise.csv")
	if err := os.WriteFile(noise, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	small := []string{"--nodes", "3", "--steps", "2", "--epochs", "4", "--refine", "1"}
	train := func(name, data string, flags ...string) (*runtime.Model, string, string) {
		t.Helper()
		m, _, out, errs := trainModel(t, filepath.Join(dir, name), append(append([]string{"--data", data}, small...), flags...)...)
		return m, out, errs
	}
	const why = "a column of numbers read as categories may be why the walk could not beat the constant: write its numbers plainly and train again"
	m, out, errs := train("constant.json", noise)
	if m.Nodes != 1 || !strings.Contains(out, `warning: the model predicts "often" for every row`) ||
		!strings.Contains(errs, `songc: majority check: `) || strings.Contains(out, "no better than always predicting") ||
		!strings.Contains(errs, "songc: a warning about "+noise+" came before training, above: read it before you use the model, as the file may have been misread, and "+why) ||
		!strings.Contains(errs, "songc: the label of "+noise+` is its last column, "label", as no --label-col was given: if another column is the label, name it with --label-col (columns of few values: "price")`+"\n") {
		t.Errorf("noise, auto recipe: %d nodes; output:\n%s\n%s", m.Nodes, out, errs)
	}
	if code, out, errs := songc(t, context.Background(), "compile", filepath.Join(dir, "constant.json"), "-o", filepath.Join(dir, "c", "classifier.go")); code != 0 ||
		!strings.Contains(out, `note: the classifier returns "often" for every row: when the model was trained or refined, the majority check replaced its walk by that constant: `) {
		t.Errorf("compile the constant model: exit %d:\n%s\n%s", code, out, errs)
	}
	// eval names the constant instead of warning that it is one.
	if code, out, errs := songc(t, context.Background(), "eval", filepath.Join(dir, "constant.json"), "--data", noise); code != 0 ||
		!strings.Contains(out, `note: the model predicts "often" for every row`) || strings.Contains(out, "warning:") {
		t.Errorf("eval of the constant model: exit %d:\n%s\n%s", code, out, errs)
	}
	// analyze names it too, in its text and its JSON.
	if code, out, errs := songc(t, context.Background(), "analyze", filepath.Join(dir, "constant.json")); code != 0 ||
		!strings.Contains(out, "model "+filepath.Join(dir, "constant.json")+": 1 node, 1 step, 2 classes\n") ||
		!strings.Contains(out, `note: the model predicts "often" for every row: when the model was trained or refined, the majority check replaced its walk by that constant: `) {
		t.Errorf("analyze of the constant model: exit %d:\n%s\n%s", code, out, errs)
	}
	if code, out, errs := songc(t, context.Background(), "analyze", filepath.Join(dir, "constant.json"), "--json"); code != 0 ||
		!strings.Contains(out, `"constant_class": "often"`) {
		t.Errorf("analyze --json of the constant model: exit %d:\n%s\n%s", code, out, errs)
	}
	m, out, errs = train("walk.json", noise, "--no-majority-check")
	if meta, _ := runlog.ReadMetadata(m.Training); m.Nodes != 3 || meta.Refine.Majority != nil || strings.Contains(out, "for every row") ||
		!strings.Contains(errs, "came before training") || strings.Contains(errs, why) || strings.Contains(errs, "no --label-col was given") {
		t.Errorf("noise, --no-majority-check: %d nodes, check %+v; output:\n%s\n%s", m.Nodes, meta.Refine.Majority, out, errs)
	}
	m, _, errs = train("blobs.json", blobs(t, dir, "blobs.csv", 300, 1))
	if meta, _ := runlog.ReadMetadata(m.Training); m.Nodes != 3 || meta.Refine.Majority == nil || !strings.Contains(errs, "the walk is kept") {
		t.Errorf("blobs, auto recipe: %d nodes, check %+v; output:\n%s", m.Nodes, meta.Refine.Majority, errs)
	}
	m, _, _ = train("fast.json", noise, "--preset", "fast")
	if meta, _ := runlog.ReadMetadata(m.Training); meta.Refine.Majority != nil {
		t.Errorf("--preset fast checked: %+v", meta.Refine.Majority)
	}
	m, out, errs = train("fast-checked.json", noise, "--preset", "fast", "--majority-check", "--label-col", "label")
	if meta, _ := runlog.ReadMetadata(m.Training); meta.Refine.Majority == nil || !meta.Refine.Majority.Constant || m.Nodes != 1 ||
		!strings.Contains(out, `then the majority check replaced the walk by always predicting "often"`) ||
		!strings.Contains(errs, why) || strings.Contains(errs, "no --label-col was given") { // the label given
		t.Errorf("--preset fast --majority-check: %d nodes, check %+v; output:\n%s", m.Nodes, meta.Refine.Majority, out)
	}
	// songc refine --majority-check on the walk kept above.
	code, out, errs := songc(t, context.Background(), "refine", filepath.Join(dir, "walk.json"), "--data", noise, "--passes", "1", "--majority-check", "-o", filepath.Join(dir, "refined.json"))
	if code != 0 || !strings.Contains(out, "Refining without --majority-check keeps the walk") ||
		!strings.Contains(out, `; then the majority check replaced the walk by always predicting "often" (below))`) {
		t.Errorf("refine --majority-check: exit %d:\n%s\n%s", code, out, errs)
	}
	// The check cannot run without refining or validation rows, and is
	// not made for balanced selection.
	for _, flags := range [][]string{
		{"--preset", "paper", "--majority-check"},
		{"--preset", "fast", "--refine", "0", "--majority-check"},
		{"--preset", "fast", "--val", "0", "--majority-check"},
		{"--preset", "fast", "--select", "balanced", "--majority-check"},
	} {
		code, _, errs := songc(t, context.Background(), append([]string{"train", "--data", noise, "-o", filepath.Join(dir, "refused.json")}, flags...)...)
		if code != 2 || !strings.Contains(errs, "--majority-check") {
			t.Errorf("train %v: exit %d, want 2: %s", flags, code, errs)
		}
	}
	// Nor on --resume of a run that does not refine.
	ckpt := filepath.Join(dir, "norefine.ckpt")
	train("norefine.json", noise, "--preset", "fast", "--refine", "0", "--checkpoint", ckpt)
	if code, _, errs := songc(t, context.Background(), "train", "--resume", ckpt, "--majority-check"); code != 2 || !strings.Contains(errs, "--majority-check is the last step of refining") {
		t.Errorf("train --resume %s --majority-check: exit %d, want 2: %s", ckpt, code, errs)
	}
}

// TestLabelLikeAnIdentifier: a label column with a value per row (a
// measurement or an identifier taken for the label) is warned of (a label of
// numbers with fractions with the advice to group them into classes), and the
// auto recipe, left with no validation rows, refuses before training,
// naming the label as the cause (more validation rows cannot help), and
// writes nothing.
func TestLabelLikeAnIdentifier(t *testing.T) {
	train := csvFile(t, "cls,a,b", 30, func(i int) string { return fmt.Sprintf("%c,%d,%.3f", "pq"[i%2], i%3, float64(i)*0.37) })
	model := filepath.Join(filepath.Dir(train), "m.json")
	code, _, errs := songc(t, context.Background(), "train", "--data", train, "-o", model)
	if code != 1 || !strings.Contains(errs, `the label column "b" has 30 distinct values in 30 rows, so most classes have a single row; songc learns classes, not numbers`) ||
		!strings.Contains(errs, "each of the 30 classes has a single row") || !strings.Contains(errs, "(--label-col names it)") ||
		strings.Contains(errs, "raise --val") {
		t.Errorf("exit %d:\n%s", code, errs)
	}
	if _, err := os.Stat(model); !os.IsNotExist(err) {
		t.Errorf("a model was written: %v", err)
	}
	// Most classes of one row, a few of two: the label is still the cause,
	// said before the search's first line.
	// (600 rows, so that the validation share is 10% and a class of two
	// rows holds none out.)
	pairs := csvFile(t, "a,b,y", 600, func(i int) string { return fmt.Sprintf("%d,%d,%.2f", i%3, i, 1.5*float64(min(i, 400+(i-400)/2))) })
	code, _, errs = songc(t, context.Background(), "train", "--data", pairs, "-o", model)
	if code != 1 || !strings.Contains(errs, "the 600 rows hold 500 classes, each too small to hold a row out at 10% (most have a single row)") || strings.Contains(errs, "raise --val") || strings.Contains(errs, "searching on") {
		t.Errorf("classes of one or two rows: exit %d:\n%s", code, errs)
	}
	// A label of names, one per row, is an identifier rather than a
	// measurement: the advice is to name the right column.
	// So is one of whole numbers.
	for _, form := range []string{"u%d", "%d"} {
		ids := csvFile(t, "a,b,id", 30, func(i int) string { return fmt.Sprintf("%d,%.3f,"+form, i%3, float64(i)*0.37, 1000+i) })
		_, _, errs = songc(t, context.Background(), "train", "--data", ids, "-o", model)
		if !strings.Contains(errs, `the label column "id" has 30 distinct values in 30 rows, so most classes have a single row; if it is not the label, name the right column with --label-col`) {
			t.Errorf("a label of %s:\n%s", form, errs)
		}
	}
}

// TestLabelLikeACount: a label of many whole numbers, most of them rare (a
// count or a price taken for classes), is warned of with what to do; as
// many classes coded as numbers, each common, are not.
func TestLabelLikeACount(t *testing.T) {
	const warn = `holds 60 distinct whole numbers, 60 of them in fewer than 5 rows, which reads like a count or a measurement, not classes; songc learns classes, not numbers`
	for _, tc := range []struct {
		name    string
		classes int
		want    bool
	}{{"count", 60, true}, {"coded classes", 25, false}} {
		train := csvFile(t, "a,b,n", 150, func(i int) string { return fmt.Sprintf("%d,%d,%d", i, i%7, 3*(i%tc.classes)) })
		code, errs := trainQuick(t, train)
		if code != 0 || strings.Contains(errs, "reads like a count") != tc.want || tc.want && !strings.Contains(errs, warn) {
			t.Errorf("%s: exit %d:\n%s", tc.name, code, errs)
		}
	}
}

// TestMissingLabelsLeftOut: train and eval leave out the rows whose label
// is missing and say how many, and from which line, and which token was
// read as missing, with the --missing that would make it a class; the
// model's classes are the labels there are.
func TestMissingLabelsLeftOut(t *testing.T) {
	train := csvFile(t, "a,b,y\n1,2,\n3,4,NA", 20, func(i int) string { return fmt.Sprintf("%d,%d,%c", i, i%4, "xz"[i%2]) })
	model := filepath.Join(filepath.Dir(train), "m.json")
	const note = `train.csv: 2 rows have no label (empty, or a missing-value token) and are left out; the first is line 2; "NA" is read as a missing value: if it is a class, train with --missing "N/A,n/a,?,NaN,nan,-nan,NULL,null,None,<NA>,#N/A"`
	code, _, errs := songc(t, context.Background(), "train", "--data", train, "-o", model, "--preset", "fast", "--nodes", "3", "--steps", "2", "--epochs", "2", "--refine", "0")
	if code != 0 || !strings.Contains(errs, note) {
		t.Fatalf("train: exit %d:\n%s", code, errs)
	}
	m, err := runtime.Load(model)
	if err != nil || !reflect.DeepEqual(m.ClassNames, []string{"x", "z"}) {
		t.Errorf("classes %v (%v), want x, z", m.ClassNames, err)
	}
	code, out, errs := songc(t, context.Background(), "eval", model, "--data", train)
	if code != 0 || !strings.Contains(errs, note) || !strings.Contains(out, "20 rows") {
		t.Errorf("eval: exit %d:\n%s\n%s", code, out, errs)
	}
}

// TestMixedColumnWarned: a column read as categorical for a few values that
// are not numbers is warned of, even with -q, with what to do.
func TestMixedColumnWarned(t *testing.T) {
	train := csvFile(t, "a,b,y", 20, func(i int) string {
		v := strconv.Itoa(i % 5)
		if i == 3 {
			v = "unknown"
		}
		return fmt.Sprintf("%d,%s,%c", i, v, "xz"[i%2])
	})
	code, errs := trainQuick(t, train)
	if code != 0 || !strings.Contains(errs, `column "b" is read as categorical (a feature per distinct value) because 1 of its 20 values is not a finite number ("unknown"); if it means missing, list it: --missing "NA,N/A,n/a,?,NaN,nan,-nan,NULL,null,None,<NA>,#N/A,unknown"`) {
		t.Errorf("exit %d:\n%s", code, errs)
	}
}

// TestMixedFirstRow: a first row read as data, its one word the column's
// only one, gets the flag that reads it as a header, in one warning for all
// the columns it makes categorical.
func TestMixedFirstRow(t *testing.T) {
	mc := data.MixedColumn{Name: "b", Numbers: 3, Words: 1, Some: []string{"tall"}, FirstOnly: true}
	for headerNo, want := range map[bool]string{false: "pass --header yes", true: "leave out --header no"} {
		if got := firstRowNote([]data.MixedColumn{mc}, headerNo); !strings.HasSuffix(got, "if the first row is a header, "+want) {
			t.Errorf("--header no %v: %s", headerNo, got)
		}
	}
	train := csvFile(t, "a,b,c,y", 20, func(i int) string {
		return fmt.Sprintf("%d,%d,%d,%c", i, i%3, i%7, "xz"[i%2])
	})
	code, _, errs := songc(t, context.Background(), "train", "--data", train, "-o", filepath.Join(t.TempDir(), "m.json"), "-q",
		"--preset", "fast", "--nodes", "3", "--steps", "2", "--epochs", "1", "--refine", "0", "--header", "no")
	want := `warning: ` + train + `: columns "x1", "x2", "x3" are read as categorical (a feature per distinct value) because their first row's values ("a", "b", "c") are not numbers, while the rows below hold numbers; if the first row is a header, leave out --header no`
	if code != 0 || !strings.Contains(errs, want) || strings.Count(errs, "read as categorical") != 1 {
		t.Errorf("exit %d, want one warning\n%s\n%s", code, want, errs)
	}
}

// TestHeaderlessSummary: for a file of numbers without a header, train says
// that its columns are read by position, and which classes the last one
// holds, so that a label elsewhere is noticed before the search runs.
func TestHeaderlessSummary(t *testing.T) {
	train := csvFile(t, "", 30, func(i int) string { return fmt.Sprintf("%d,%d.5,%c", i%2, i%7, "pqr"[i%3]) })
	code, _, errs := songc(t, context.Background(), "train", "--data", train, "-o", filepath.Join(filepath.Dir(train), "m.json"),
		"--preset", "fast", "--nodes", "3", "--steps", "2", "--epochs", "1", "--refine", "0")
	want := `train.csv: no header, so the 3 columns are read by position: 2 numeric input columns (x1 to x2), and the label is the last, 3 classes ("p", "q", "r")`
	if code != 0 || !strings.Contains(errs, want) {
		t.Errorf("exit %d, want %s:\n%s", code, want, errs)
	}
}

// TestScatteredColumnWarned: train warns, even with -q, of a categorical
// column with a distinct value in most rows.
func TestScatteredColumnWarned(t *testing.T) {
	train := csvFile(t, "order,a,y", 30, func(i int) string {
		return fmt.Sprintf("ord-%03d,%d,%c", i+1, i%5, "xz"[i%2])
	})
	code, errs := trainQuick(t, train)
	if code != 0 || !strings.Contains(errs, `column "order" has 30 distinct values in 30 rows ("ord-001", "ord-002", "ord-003", ...), so most of its values are seen once and the model learns little from them;`) ||
		!strings.Contains(errs, `read so: leave it out with --ignore "order", or write it as numbers`) {
		t.Errorf("exit %d:\n%s", code, errs)
	}
}

// TestIdentifierWarned: train warns, even with -q, of a column named like
// an identifier with a distinct whole number in every row.
func TestIdentifierWarned(t *testing.T) {
	train := csvFile(t, "customer_id,a,y", 30, func(i int) string {
		return fmt.Sprintf("%d,%d,%c", 100000+7*i, i%5, "xz"[i%2])
	})
	code, errs := trainQuick(t, train)
	if code != 0 || !strings.Contains(errs, `column "customer_id" holds a distinct whole number in every row and is named like an identifier;`) ||
		!strings.Contains(errs, `leave it out with --ignore "customer_id"`) {
		t.Errorf("exit %d:\n%s", code, errs)
	}
}

// TestIgnoreFlag: train --ignore leaves a column out, the model records
// it, and predict reads files with or without it alike; eval and predict
// leave out with --ignore a column the model does not know.
func TestIgnoreFlag(t *testing.T) {
	row := func(id bool) func(int) string {
		return func(i int) string {
			r := fmt.Sprintf("%d,%c", i%5, "xz"[i%2])
			if id {
				r = fmt.Sprintf("%d,%s", 9000+i, r)
			}
			return r
		}
	}
	train := csvFile(t, "id,a,y", 30, row(true))
	model := filepath.Join(filepath.Dir(train), "m.json")
	code, _, errs := songc(t, context.Background(), "train", "--data", train, "--ignore", "id", "-o", model,
		"--preset", "fast", "--nodes", "3", "--steps", "2", "--epochs", "1", "--refine", "0")
	if code != 0 || !strings.Contains(errs, `1 input column (1 numeric, 0 categorical) makes 1 feature; label column "y"`) {
		t.Fatalf("exit %d:\n%s", code, errs)
	}
	m, err := runtime.Load(model)
	if err != nil || !slices.Equal(m.Schema.Ignored, []string{"id"}) {
		t.Fatalf("model: %v, schema %+v", err, m.Schema)
	}
	_, a, _ := songc(t, context.Background(), "predict", model, "--data", train)
	code, b, errs := songc(t, context.Background(), "predict", model, "--data", csvFile(t, "a,y", 30, row(false)))
	if code != 0 || a != b || strings.Count(a, "\n") != 30 {
		t.Errorf("exit %d, %s; predictions with and without the ignored column differ:\n%s\n%s", code, errs, a, b)
	}
	// A column the model never saw: eval and predict refuse it, naming
	// the flag, and leave it out with --ignore.
	extra := csvFile(t, "a,note,y", 30, func(i int) string { r := row(false)(i); return r[:1] + ",n" + r[1:] })
	if code, _, errs := songc(t, context.Background(), "eval", model, "--data", extra); code != 1 || !strings.Contains(errs, `leave it out with --ignore "note"`) {
		t.Errorf("eval, an unknown column: exit %d, %s", code, errs)
	}
	code, c, errs := songc(t, context.Background(), "predict", model, "--data", extra, "--ignore", "note")
	if code != 0 || c != a {
		t.Errorf("predict --ignore note: exit %d, %s; predictions differ:\n%s\n%s", code, errs, a, c)
	}
	if code, _, errs := songc(t, context.Background(), "eval", model, "--data", extra, "--ignore", "note"); code != 0 {
		t.Errorf("eval --ignore note: exit %d, %s", code, errs)
	}
	// train --ignore may name a column only its --test file holds; the
	// model records it, and a name in neither file is still an error.
	both := filepath.Join(filepath.Dir(train), "both.json")
	code, _, errs = songc(t, context.Background(), "train", "--data", train, "--test", extra, "--ignore", "id,note", "-o", both,
		"--preset", "fast", "--nodes", "3", "--steps", "2", "--epochs", "1", "--refine", "0")
	if m, err := runtime.Load(both); code != 0 || err != nil || !slices.Equal(m.Schema.Ignored, []string{"id", "note"}) {
		t.Errorf("train --test with a column of its own: exit %d, %v, %s", code, err, errs)
	}
	if code, _, errs := songc(t, context.Background(), "eval", both, "--data", extra); code != 0 {
		t.Errorf("eval of the test file, its column recorded as ignored: exit %d, %s", code, errs)
	}
	code, _, errs = songc(t, context.Background(), "train", "--data", train, "--test", extra, "--ignore", "id,nte", "-o", both,
		"--preset", "fast", "--nodes", "3", "--steps", "2", "--epochs", "1", "--refine", "0")
	if code != 1 || !strings.Contains(errs, `--ignore "nte": the header has no such column`) {
		t.Errorf("train --ignore naming a column of neither file: exit %d, %s", code, errs)
	}
}

// TestSemicolonsSaid: train names a separator other than the comma, and
// decimal commas where it read some; a model trained on a file separated by semicolons, with decimal commas,
// reads the same rows written with commas alike.
func TestSemicolonsSaid(t *testing.T) {
	row := func(sep, point string) func(int) string {
		return func(i int) string {
			return fmt.Sprintf("%d%s%d%s5%s%c", i%7, point, i%3, sep, sep, "xz"[i%2])
		}
	}
	semi := csvFile(t, "a;b;y", 20, row(";", ","))
	model := filepath.Join(filepath.Dir(semi), "m.json")
	code, _, errs := songc(t, context.Background(), "train", "--data", semi, "-o", model,
		"--preset", "fast", "--nodes", "3", "--steps", "2", "--epochs", "1", "--refine", "0")
	if code != 0 || !strings.Contains(errs, "train.csv: fields separated by semicolons, decimal commas read as points; 2 input columns (2 numeric, 0 categorical)") {
		t.Fatalf("exit %d:\n%s", code, errs)
	}
	// With decimal points, the commas go unsaid.
	points := csvFile(t, "a;b;y", 20, row(";", "."))
	code, _, errs = songc(t, context.Background(), "train", "--data", points, "-o", filepath.Join(filepath.Dir(points), "m.json"),
		"--preset", "fast", "--nodes", "3", "--steps", "2", "--epochs", "1", "--refine", "0")
	if code != 0 || !strings.Contains(errs, "train.csv: fields separated by semicolons; 2 input columns (2 numeric, 0 categorical)") {
		t.Errorf("points: exit %d:\n%s", code, errs)
	}
	comma := csvFile(t, "a,b,y", 20, row(",", "."))
	_, a, _ := songc(t, context.Background(), "predict", model, "--data", semi)
	code, b, errs := songc(t, context.Background(), "predict", model, "--data", comma)
	if code != 0 || a != b || a == "" {
		t.Errorf("exit %d, %s; predictions of the two files differ:\n%s\n%s", code, errs, a, b)
	}
}

// TestNoValueWarned: train warns, even with -q, of columns with no value in
// any row (rows whose label is missing, which are left out, not counted),
// with the --ignore that leaves them out; an unnamed one, after the label
// (a spreadsheet's trailing comma), is named as --ignore counts it.
func TestNoValueWarned(t *testing.T) {
	train := csvFile(t, "a,b,c,y", 20, func(i int) string {
		b, y := "NA", "xz"[i%2:i%2+1]
		if i == 5 {
			b, y = "7", "" // the one value of b is on a row without a label
		}
		return fmt.Sprintf("%d,%s,,%s", i, b, y)
	})
	code, errs := trainQuick(t, train)
	if code != 0 || !strings.Contains(errs, `: columns "b", "c" have no value in any labelled row (every field is empty or a missing-value token), so the model learns nothing from them; check how the file was written, or leave them out with --ignore "b,c"`+"\n") {
		t.Errorf("exit %d:\n%s", code, errs)
	}
	train = csvFile(t, "a,y,", 20, func(i int) string { return fmt.Sprintf("%d,%s,", i, "xz"[i%2:i%2+1]) })
	code, errs = trainQuick(t, train, "--label-col", "y")
	if code != 0 || !strings.Contains(errs, `: column "x2" has no value in any labelled row (every field is empty or a missing-value token), so the model learns nothing from it; check how the file was written, or leave it out with --ignore "x3" ("x2" has no name in the header: that name is its place among the inputs; --ignore counts the file's columns, so it takes "x3")`) {
		t.Errorf("unnamed: exit %d:\n%s", code, errs)
	}
	if code, errs := trainQuick(t, train, "--label-col", "y", "--ignore", "x3"); code != 0 || strings.Contains(errs, "no value") {
		t.Errorf("--ignore x3: exit %d:\n%s", code, errs)
	}
}

// TestNumberedFirstRowWarned: a first row of column numbers read as data is
// warned of, even with -q.
func TestNumberedFirstRowWarned(t *testing.T) {
	train := csvFile(t, "0,1,2", 20, func(i int) string { return fmt.Sprintf("%d,%d,%d", i, i%3, i%2+1) })
	code, errs := trainQuick(t, train)
	if code != 0 || !strings.Contains(errs, "the first row is read as data, but its fields number the columns (0, 1, 2, ...)") {
		t.Errorf("exit %d:\n%s", code, errs)
	}
}

// TestFractionLabelsWarned: a label column of numbers with fractions (the
// label first in the file, the last column a measurement) is warned of,
// naming the columns that could be the label: words, and a few whole
// numbers (0 and 1 here), not a count of 30 values nor a column of one.
func TestFractionLabelsWarned(t *testing.T) {
	train := csvFile(t, "survived,species,a,k,w", 30, func(i int) string { // k: one value, no label
		return fmt.Sprintf("%d,%s,%d,3,%.1f", i%3/2, []string{"setosa", "virginica"}[i%2], i, float64(i%4)/2)
	})
	code, errs := trainQuick(t, train)
	if code != 0 || !strings.Contains(errs, `the label column "w" holds numbers with fractions (4 distinct values), which reads like a measurement, not classes; songc learns classes, not numbers: if it is the label, group its values into a few classes first (ranges, say), and if it is not, name the right column with --label-col (columns of few values: "survived", "species")`) {
		t.Errorf("exit %d:\n%s", code, errs)
	}
}

// TestLabelHintByPlace: in a file without a header, the columns that could
// be the label are given by place, as --label-col takes them (the label
// first here), and an empty column is not said to be unnamed in a header.
func TestLabelHintByPlace(t *testing.T) {
	row := func(i int) string { return fmt.Sprintf("%.1f,%d,%d,", float64(i%4)/2, i, i%2) }
	train := csvFile(t, row(0), 30, func(i int) string { return row(i + 1) })
	code, errs := trainQuick(t, train, "--label-col", "first")
	if code != 0 || !strings.Contains(errs, `name the right column with --label-col (columns of few values, by place: 3)`) ||
		!strings.Contains(errs, `column "x3" has no value in any labelled row (every field is empty or a missing-value token), so the model learns nothing from it; check how the file was written, or leave it out of the file (--ignore needs a header)`+"\n") {
		t.Errorf("exit %d:\n%s", code, errs)
	}
	if code, errs := trainQuick(t, train, "--label-col", "3"); code != 0 || strings.Contains(errs, "reads like a measurement") {
		t.Errorf("--label-col 3: exit %d:\n%s", code, errs)
	}
}

// TestTrainNoValidationRows: classes too small for the validation split
// (12 rows, --val 0.1) leave no validation rows. train warns once, names no
// validation accuracy in its epoch and refine lines (the walk's accuracy it
// gives is on the training rows) and says the last epoch and pass are kept.
func TestTrainNoValidationRows(t *testing.T) {
	dir := t.TempDir()
	data := blobs(t, dir, "tiny.csv", 12, 3)
	code, out, errs := songc(t, context.Background(), "train", "--data", data, "--preset", "fast", "--nodes", "4", "--steps", "4",
		"--epochs", "3", "--refine", "2", "-o", filepath.Join(dir, "m.json"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if n := strings.Count(errs, "warning: the validation split (0.1 of each class"); n != 1 {
		t.Errorf("%d warnings of the empty validation split, want 1:\n%s", n, errs)
	}
	if strings.Contains(errs, "val ") || strings.Contains(errs, " *") {
		t.Errorf("a line reports validation rows there are none of:\n%s", errs)
	}
	if !strings.Contains(errs, "hard walk on train ") || !strings.Contains(errs, "refine pass 1  hard train ") {
		t.Errorf("the epoch and refine lines lack the training rows' hard walk:\n%s", errs)
	}
	if !strings.Contains(out, "(epoch 3 of 3, the last: no validation rows; then refined: pass ") || strings.Contains(out, "validation accuracy") {
		t.Errorf("the summary does not say the last epoch and pass are kept:\n%s", out)
	}
	if !strings.Contains(errs, "the last epoch is kept, refining keeps its last pass, and") {
		t.Errorf("the warning does not say refining keeps its last pass:\n%s", errs)
	}
	// Without refining, the warning does not speak of it.
	if _, _, errs = songc(t, context.Background(), "train", "--data", data, "--preset", "fast", "--nodes", "4", "--steps", "4",
		"--epochs", "1", "--refine", "0", "-o", filepath.Join(dir, "m1.json")); !strings.Contains(errs, "the last epoch is kept, and no accuracy") {
		t.Errorf("--refine 0:\n%s", errs)
	}
	// --val 0 asks for no validation rows: no warning.
	if _, _, errs = songc(t, context.Background(), "train", "--data", data, "--preset", "fast", "--nodes", "4", "--steps", "4",
		"--epochs", "1", "--refine", "0", "--val", "0", "-o", filepath.Join(dir, "m0.json")); strings.Contains(errs, "warning") {
		t.Errorf("--val 0 warned:\n%s", errs)
	}
}

// TestReportMetricsBaseline: the walk is warned of when it is no better
// than the constant by the measure its model was selected by: accuracy
// against the most frequent class, or balanced accuracy against one over
// the classes.
func TestReportMetricsBaseline(t *testing.T) {
	// 95 rows of class 0, 5 of class 1; the walk gets 90 and 4 right.
	conf := [][]int{{90, 5}, {1, 4}}
	met := runtime.Metrics{Rows: 100, HardAccuracy: 0.94, SoftAccuracy: 0.94, Fidelity: 1, Majority: 0.95,
		ConfusionHard: conf, HardBalanced: runtime.BalancedAccuracy(conf), SoftBalanced: runtime.BalancedAccuracy(conf)}
	for _, tc := range []struct {
		balanced bool
		warned   string
	}{
		{false, "no better than always predicting the most frequent class"},
		{true, ""},
	} {
		var b strings.Builder
		reportMetrics(&b, "test (t.csv, 100 rows)", met, reportHow{Balanced: tc.balanced})
		if got := strings.Contains(b.String(), "warning"); got != (tc.warned != "") || !strings.Contains(b.String(), tc.warned) {
			t.Errorf("balanced %v:\n%s", tc.balanced, b.String())
		}
	}
	one := [][]int{{95, 0}, {5, 0}} // always class 0
	met.ConfusionHard, met.HardBalanced = one, runtime.BalancedAccuracy(one)
	var b strings.Builder
	reportMetrics(&b, "test (t.csv, 100 rows)", met, reportHow{Balanced: true})
	if !strings.Contains(b.String(), "warning: on the test rows the hard walk's balanced accuracy is no better than always predicting one class (50.00%)") {
		t.Errorf("a constant walk selected by balanced accuracy:\n%s", b.String())
	}
	// The majority check's constant: no warning where it predicts these
	// rows' most frequent class, one where that is another class.
	for _, hard := range []float64{0.95, 0.05} {
		met := runtime.Metrics{Rows: 100, HardAccuracy: hard, SoftAccuracy: hard, Fidelity: 1, Majority: 0.95}
		var b strings.Builder
		reportMetrics(&b, "test (t.csv, 100 rows)", met, reportHow{Constant: true})
		if warned := strings.Contains(b.String(), "warning: on the test rows the majority check's constant (the class of most training rows) scores 5.00%, below these rows' most frequent class (95.00%)"); warned != (hard < 0.95) || strings.Contains(b.String(), "hard walk is no better") {
			t.Errorf("the constant scoring %.2f where the most frequent class scores 0.95:\n%s", hard, b.String())
		}
	}
	// Nor is its soft model warned of, whatever the scores say.
	met = runtime.Metrics{Rows: 100, HardAccuracy: 0.97, SoftAccuracy: 0.5, Fidelity: 0.5, Majority: 0.95}
	if softBaselineWarning(met, false, false) == "" || softBaselineWarning(met, false, true) != "" {
		t.Errorf("soft model of a walk, then of the constant: %q, %q", softBaselineWarning(met, false, false), softBaselineWarning(met, false, true))
	}
}

// TestReportMetricsFidelity: a soft model that gives another class than the
// walk on more than 5% of the rows is noted (predict --proba reads it), not
// for the constant, whose soft model is not its own.
func TestReportMetricsFidelity(t *testing.T) {
	const note = "note: on 6.0% of the validation rows the soft model gives another class than the walk, so the largest of predict --proba's masses is not always the class predict gives (the walk's, what compiles)\n"
	for _, tc := range []struct {
		fidelity float64
		constant bool
		want     bool
	}{{0.94, false, true}, {0.95, false, false}, {0.94, true, false}} {
		met := runtime.Metrics{Rows: 100, SoftAccuracy: 0.9, HardAccuracy: 0.9, SoftBalanced: 0.9, HardBalanced: 0.9, Majority: 0.5, Fidelity: tc.fidelity}
		var b strings.Builder
		reportMetrics(&b, "validation (100 rows)", met, reportHow{Constant: tc.constant})
		if strings.Contains(b.String(), note) != tc.want || strings.Contains(b.String(), "note:") != tc.want {
			t.Errorf("%+v:\n%s", tc, b.String())
		}
		b.Reset()
		reportMetrics(&b, "validation (100 rows)", met, reportHow{Constant: tc.constant, Quiet: true})
		if strings.Contains(b.String(), "note:") {
			t.Errorf("%+v, quiet:\n%s", tc, b.String())
		}
	}
}

// TestReportMetricsSoftBaseline: a soft model no better than the constant
// is warned of where the walk is better, and only there.
func TestReportMetricsSoftBaseline(t *testing.T) {
	for _, tc := range []struct {
		soft, hard, softBal, hardBal float64
		balanced                     bool
		warned                       string
	}{
		{0.58, 0.89, 0.5, 0.9, false, "the soft model is no better than always predicting the most frequent class (58.00%), while the hard walk (what compiles) scores 89.00%"},
		{0.58, 0.89, 0.5, 0.9, true, "the soft model is no better than always predicting one class, by balanced accuracy (50.00%), while the hard walk (what compiles) scores 90.00%"},
		{0.60, 0.89, 0.52, 0.9, false, ""}, // the soft model above the constant
		{0.58, 0.58, 0.5, 0.5, false, "the hard walk is no better"},
	} {
		met := runtime.Metrics{Rows: 100, SoftAccuracy: tc.soft, HardAccuracy: tc.hard, SoftBalanced: tc.softBal, HardBalanced: tc.hardBal,
			Majority: 0.58, Fidelity: 0.6, ConfusionHard: [][]int{{50, 8}, {3, 39}}}
		var b strings.Builder
		reportMetrics(&b, "validation (100 rows)", met, reportHow{Balanced: tc.balanced})
		soft := strings.Contains(b.String(), "the soft model is no better")
		if tc.warned == "" && soft || !strings.Contains(b.String(), tc.warned) || strings.Contains(tc.warned, "hard walk is") && soft {
			t.Errorf("%+v:\n%s", tc, b.String())
		}
	}
}

// TestSearchLine: the search's summary names the finalist that scored
// above the chosen one, and the measure.
func TestSearchLine(t *testing.T) {
	s := &runlog.Search{By: "hard", Chosen: 0, Candidates: []runlog.Candidate{
		{Nodes: 16, Steps: 8, LR: 0.1, Epochs: 120, Score: 0.9},
		{Nodes: 64, Steps: 20, LR: 0.03, WeightDecay: 0.01, Epochs: 90, Score: 0.925},
	}}
	want := "search: chose 16 nodes, 8 steps, lr 0.1, weight decay 0 among 2 candidates (validation 90.00%); kept over 64/20, lr 0.03, weight decay 0.01 at 92.50% as the smaller graph, within one standard error"
	if got := searchLine(s); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// Of one size, the lower rate, then the lower decay, is the reason.
	s.Candidates[1].Nodes, s.Candidates[1].Steps, s.Candidates[1].LR = 16, 8, 0.3
	if got := searchLine(s); !strings.HasSuffix(got, "at 92.50% for its lower learning rate, within one standard error") {
		t.Errorf("one size: %s", got)
	}
	s.Candidates[1].LR = 0.1
	if got := searchLine(s); !strings.HasSuffix(got, "at 92.50% for its lower weight decay, within one standard error") {
		t.Errorf("one size and rate: %s", got)
	}
	s.Candidates[1] = runlog.Candidate{Nodes: 64, Steps: 20, LR: 0.03, WeightDecay: 0.01, Epochs: 90, Score: 0.925}
	s.Chosen, s.By, s.Cut = 1, "balanced", true
	want = "search: chose 64 nodes, 20 steps, lr 0.03, weight decay 0.01 among 2 candidates (balanced validation accuracy 92.50%); the time budget cut the search short"
	if got := searchLine(s); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// A second pass called for, with no time left for it.
	s.Cut, s.NoTimeAgain = false, true
	if got := searchLine(s); !strings.HasSuffix(got, "; the validation rows measured it too roughly, but the search had spent more than half of --budget, so it did not search again on more of them") {
		t.Errorf("no time to search again: %s", got)
	}
	// One node and one step (--nodes 1 --steps 1) are said in the singular.
	one := &runlog.Search{By: "hard", Candidates: []runlog.Candidate{{Nodes: 1, Steps: 1, LR: 0.1, Score: 0.7}}}
	if got := searchLine(one); !strings.HasPrefix(got, "search: chose 1 node, 1 step, lr 0.1, weight decay 0 among 1 candidate (") {
		t.Errorf("one node: %s", got)
	}
}

// TestSmallClassesNote: --select balanced is pointed to only when the
// walk's balanced accuracy is more than 10 points below its accuracy.
func TestSmallClassesNote(t *testing.T) {
	for _, tc := range []struct {
		acc, bal float64
		note     bool
	}{{0.98, 0.85, true}, {0.98, 0.9, false}, {0.7, 0.7, false}} {
		got := smallClassesNote(runtime.Metrics{HardAccuracy: tc.acc, HardBalanced: tc.bal})
		if (got != "") != tc.note || tc.note && (!strings.Contains(got, "13.0 points below its accuracy") || !strings.Contains(got, "songc train --help-all")) {
			t.Errorf("accuracy %v, balanced %v: %q", tc.acc, tc.bal, got)
		}
	}
}

// TestReorderedTestQuiet: a --test file whose columns are in another order
// is matched by name, and train says so, except with -q.
func TestReorderedTestQuiet(t *testing.T) {
	train := csvFile(t, "a,b,y", 20, func(i int) string { return fmt.Sprintf("%d,%d,%c", i, i%3, "xz"[i%2]) })
	test := filepath.Join(filepath.Dir(train), "test.csv")
	if err := os.WriteFile(test, []byte("b,a,y\n1,2,x\n0,3,z\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, quiet := range []bool{false, true} {
		args := []string{"train", "--data", train, "--test", test, "-o", filepath.Join(t.TempDir(), "m.json"),
			"--preset", "fast", "--nodes", "3", "--steps", "2", "--epochs", "1", "--refine", "0"}
		if quiet {
			args = append(args, "-q")
		}
		code, _, errs := songc(t, context.Background(), args...)
		if said := strings.Contains(errs, "columns matched to the model's by name"); code != 0 || said == quiet {
			t.Errorf("-q %v: exit %d, note said %v:\n%s", quiet, code, said, errs)
		}
	}
}

// TestAutoSearchAgain: where the validation rows measure the best
// finalist's accuracy too roughly (labels at random: near 50%), the auto
// recipe searches again on a larger share and says so; a --val the user
// gives is kept.
func TestAutoSearchAgain(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	train := csvFile(t, "a,b,y", 300, func(i int) string {
		return fmt.Sprintf("%.3f,%.3f,%c", rng.Float64(), rng.Float64(), "xz"[rng.IntN(2)])
	})
	flags := []string{"train", "--data", train, "--nodes", "3", "--steps", "2", "--epochs", "4", "--refine", "0"}
	code, out, errs := songc(t, context.Background(), append(flags, "-o", filepath.Join(t.TempDir(), "m.json"))...)
	if code != 0 || !strings.Contains(errs, "validation rows has a standard error of") ||
		!strings.Contains(errs, "searching again on 90 validation rows (30% of the training rows)") ||
		!strings.Contains(out, "; a first pass on 60 validation rows, best ") {
		t.Errorf("exit %d:\n%s\n%s", code, out, errs)
	}
	code, out, errs = songc(t, context.Background(), append(flags, "--val", "0.2", "-o", filepath.Join(t.TempDir(), "m.json"))...)
	if code != 0 || strings.Contains(errs, "searching again") || strings.Contains(out, "a first pass") {
		t.Errorf("--val 0.2: exit %d:\n%s\n%s", code, out, errs)
	}
}

// TestThousandsWarned: train says a column holds numbers with thousands
// separators, and does not advise decimal commas for it.
func TestThousandsWarned(t *testing.T) {
	train := csvFile(t, "qty,x,y", 60, func(i int) string {
		q := fmt.Sprint(i * 37)
		if i*37 >= 1000 {
			q = fmt.Sprintf("\"%d,%03d\"", i*37/1000, i*37%1000)
		}
		return fmt.Sprintf("%s,%d,%s", q, i%7, []string{"lo", "hi"}[i%2])
	})
	code, errs := trainQuick(t, train)
	if code != 0 || !strings.Contains(errs, `column "qty" holds numbers written with thousands separators (like "1,036"), read as categories`) || strings.Contains(errs, "decimal comma") {
		t.Errorf("exit %d:\n%s", code, errs)
	}
}

// TestNumberFormatsWarned: train names a semicolon file's columns of
// numbers with thousands points, or with both decimal marks, and a
// column of numbers with a unit, and a column of dates.
func TestNumberFormatsWarned(t *testing.T) {
	train := csvFile(t, "qty;mix;pct;day;y", 60, func(i int) string {
		q := fmt.Sprintf("%d,5", i*37)
		if i*37 >= 1000 {
			q = fmt.Sprintf("%d.%03d,5", i*37/1000, i*37%1000)
		}
		mix := fmt.Sprintf("%d.25", i)
		if i == 7 {
			mix = "1,500"
		}
		return fmt.Sprintf("%s;%s;%d%%;%02d.%02d.2025;%s", q, mix, i%9, 1+i%28, 1+i%12, []string{"lo", "hi"}[i%2])
	})
	code, errs := trainQuick(t, train)
	for _, want := range []string{
		`column "qty" holds numbers written with thousands separators (like "1.036,5"), read as categories`,
		`column "mix" holds numbers written with a decimal point ("0.25") and others with a comma ("1,500", read as 1.5)`,
		`column "pct" holds numbers written with "%" (like "0%"), read as categories (a feature per distinct value), so the model cannot compare them: write them as plain numbers`,
		`column "day" holds dates (like "01.01.2025"), read as categories (a feature per distinct value), so the model can neither order them nor read a date it has not seen: write them as numbers first (days since a fixed day, the month, the day of the week), or leave it out with --ignore "day"`,
	} {
		if code != 0 || !strings.Contains(errs, want) {
			t.Errorf("exit %d, want %s:\n%s", code, want, errs)
		}
	}
}

// TestMarkedNumbersWarned: a column of plain numbers and others written
// with a currency sign, or negatives in parentheses as accounts write
// them, is named as numbers to write plainly, not as values to list as
// missing; a column of whole numbers, some with a leading zero, as codes
// that --categorical reads.
func TestMarkedNumbersWarned(t *testing.T) {
	train := csvFile(t, "cost,net,zip,y", 60, func(i int) string {
		cost := fmt.Sprintf("%d.50", i)
		if i%3 == 0 {
			cost = "$" + cost
		}
		net := fmt.Sprintf("%d.25", i)
		if i%4 == 0 {
			net = "(" + net + ")"
		}
		return fmt.Sprintf("%s,%s,%05d,%s", cost, net, 997*i, []string{"lo", "hi"}[i%2])
	})
	code, errs := trainQuick(t, train)
	for _, want := range []string{
		`column "zip" holds whole numbers written with a leading zero (like "00000"), read as numbers: the zero is lost and the model orders them by size; if they are codes (postal codes, account numbers), --categorical "zip" reads them as categories (a feature per distinct value)`,
		`column "cost" holds numbers written with "$" (like "$0.50"), read as categories (a feature per distinct value), so the model cannot compare them: write them as plain numbers`,
		`column "net" holds negative numbers written in parentheses (like "(0.25)"), read as categories`,
	} {
		if code != 0 || !strings.Contains(errs, want) || strings.Contains(errs, "--missing") {
			t.Errorf("exit %d, want %s, and no --missing:\n%s", code, want, errs)
		}
	}
}

// TestSeparatingWarned: train names a column that alone tells the
// training rows' classes apart, as a leak would.
func TestSeparatingWarned(t *testing.T) {
	train := csvFile(t, "x,step,y", 60, func(i int) string {
		return fmt.Sprintf("%d,%d,%s", i%7, i, []string{"lo", "hi"}[i/30])
	})
	code, errs := trainQuick(t, train)
	if want := `column "step" alone tells apart the classes of every training row, which real data seldom allows: a column recorded after the outcome, derived from the label, or numbering rows sorted by it leaks the label, and a model that reads it fails on new rows; if so, leave it out with --ignore "step"`; code != 0 || !strings.Contains(errs, want) || strings.Contains(errs, `column "x" alone`) {
		t.Errorf("exit %d, want %s:\n%s", code, want, errs)
	}
}

// TestLabelDoubts: train warns when a column named like a label is not
// the label (without --label-col), and when the first row's label is a
// class of that row alone, as a header of numbers' names makes it.
func TestLabelDoubts(t *testing.T) {
	first := csvFile(t, "Class,age,flag", 60, func(i int) string {
		return fmt.Sprintf("%s,%d,%s", []string{"up", "down"}[i%2], i, []string{"TRUE", "FALSE"}[i%3%2])
	})
	years := csvFile(t, "2019,2020,outcome", 60, func(i int) string { return fmt.Sprintf("%d,%d,%s", i, i%7, []string{"up", "down"}[i%2]) })
	for _, tc := range []struct {
		train string
		flags []string
		want  string // "" for neither warning
	}{
		{first, nil, `the label is the last column, "flag", but column "Class" is named like a label: if it is the label, pass --label-col "Class"`},
		{first, []string{"--label-col", "flag"}, ""},
		{years, nil, `the first row's label "outcome" is a class of that row alone, while every other class has 5 rows or more: if the first row is a header (its other names read as numbers), pass --header yes`},
		{years, []string{"--header", "yes"}, ""},
		{csvFile(t, "y,age,class", 60, func(i int) string { return fmt.Sprintf("%d,%d,%s", i%3, i, []string{"up", "down"}[i%2]) }), nil, ""}, // the label is named like one too
	} {
		code, errs := trainQuick(t, tc.train, tc.flags...)
		if code != 0 || tc.want != "" && !strings.Contains(errs, tc.want) || tc.want == "" && (strings.Contains(errs, "named like a label") || strings.Contains(errs, "a class of that row alone")) {
			t.Errorf("%s %q: exit %d:\n%s", tc.train, tc.flags, code, errs)
		}
	}
}

// TestWrongLabel: a last column that does not read as classes, with
// another column named like a label, stops train before it trains (no
// model) and before it describes the columns, naming both; --label-col
// either one goes on.
func TestWrongLabel(t *testing.T) {
	train := csvFile(t, "class,age,weight", 60, func(i int) string {
		return fmt.Sprintf("%s,%d,%d.%d", []string{"up", "down"}[i%2], i%7, 50+i, i%10)
	})
	out := filepath.Join(t.TempDir(), "m.json")
	code, _, errs := songc(t, context.Background(), "train", "--data", train, "--preset", "quick", "--epochs", "1", "-o", out)
	want := `the label is the last column, "weight", whose 60 distinct values in 60 rows do not read as classes, and column "class" is named like a label: pass --label-col "class" (or --label-col "weight" to learn the last column all the same)`
	if _, err := os.Stat(out); code != 1 || !strings.Contains(errs, want) || err == nil {
		t.Errorf("exit %d, want 1 and %q, and no model (%v):\n%s", code, want, err, errs)
	}
	if strings.Contains(errs, `label column "weight"`) { // said before the error, it read as accepted
		t.Errorf("the columns described before the error:\n%s", errs)
	}
	// Also with --test, whose labels (other weights) are then not matched
	// to the classes first.
	test := csvFile(t, "class,age,weight", 20, func(i int) string {
		return fmt.Sprintf("%s,%d,%d.%d", []string{"up", "down"}[i%2], i%7, 150+i, i%10)
	})
	if code, _, errs := songc(t, context.Background(), "train", "--data", train, "--test", test, "--preset", "quick", "--epochs", "1", "-o", out); code != 1 || !strings.Contains(errs, want) {
		t.Errorf("with --test: exit %d, want 1 and %q:\n%s", code, want, errs)
	}
	for _, label := range []string{"class", "weight"} {
		if code, errs := trainQuick(t, train, "--label-col", label); code != 0 {
			t.Errorf("--label-col %s: exit %d:\n%s", label, code, errs)
		}
	}
}

// TestTrainIDX: train reads IDX images, whose data has no schema (no
// column names or categories), and warns of nothing.
func TestTrainIDX(t *testing.T) {
	dir := t.TempDir()
	gzFile := func(name string, b []byte) {
		var z bytes.Buffer
		w := gzip.NewWriter(&z)
		w.Write(b)
		w.Close()
		if err := os.WriteFile(filepath.Join(dir, name), z.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const n = 60 // 2x2 images: class 1 bright on the left, class 0 on the right
	images := binary.BigEndian.AppendUint32(nil, 0x803)
	labels := binary.BigEndian.AppendUint32(nil, 0x801)
	images = binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(images, n), 2), 2)
	labels = binary.BigEndian.AppendUint32(labels, n)
	for i := range n {
		k := byte(i % 2)
		images = append(images, 200*k, 200*(1-k), 10, byte(i))
		labels = append(labels, k)
	}
	gzFile("x-images-idx3-ubyte.gz", images)
	gzFile("x-labels-idx1-ubyte.gz", labels)
	code, errs := trainQuick(t, filepath.Join(dir, "x-images-idx3-ubyte.gz"))
	if code != 0 || strings.Contains(errs, "warning") {
		t.Errorf("exit %d:\n%s", code, errs)
	}
}

// TestTrainRecalls: after training, train recalls the data warnings that
// came before its progress, says how many nodes the walk reaches when it
// leaves some unvisited, and without --test says that the validation rows'
// scores flatter the model they chose; the next step, compile, is said
// only when no warning came before.
func TestTrainRecalls(t *testing.T) {
	dir := t.TempDir()
	train := csvFile(t, "Class,age,flag", 60, func(i int) string {
		return fmt.Sprintf("%s,%d,%s", []string{"up", "down"}[i%2], i, []string{"TRUE", "FALSE"}[i%3%2])
	})
	out := filepath.Join(dir, "m.json")
	base := []string{"-o", out, "--preset", "fast", "--nodes", "3", "--steps", "2", "--epochs", "1", "--refine", "0"}
	const recall = "came before training, above: read it before you use the model"
	const flatter = "note: these validation rows chose the model, so their scores flatter it; to measure it on rows it never saw: songc eval " // then the model
	code, stdout, errs := songc(t, context.Background(), append([]string{"train", "--data", train}, base...)...)
	next := "\nnext: songc compile " + out + " -o " + filepath.Join(dir, "m", "m.go") + " writes it as Go code of the standard library only\n"
	if code != 0 || !strings.Contains(errs, "songc: a warning about "+train+" "+recall) || !strings.Contains(stdout, flatter+out+" --data FILE") || strings.Contains(stdout, "next:") {
		t.Errorf("exit %d:\n%s\n%s", code, stdout, errs)
	}
	// The summary carries walkNote's line (TestWalkNote), which this
	// graph of 3 nodes, some never visited, has.
	k, err := runtime.LoadClassifier(out)
	if err != nil {
		t.Fatal(err)
	}
	if walkNote(k) == "" || !strings.Contains(stdout, walkNote(k)) {
		t.Errorf("want %q in the summary:\n%s", walkNote(k), stdout)
	}
	// -q keeps the summary and the warnings, and leaves out the notes and
	// the reminder of the warnings.
	code, stdout, errs = songc(t, context.Background(), append([]string{"train", "--data", train, "-q"}, base...)...)
	if code != 0 || !strings.Contains(stdout, "model: ") || !strings.Contains(errs, "is named like a label") || strings.Contains(errs, recall) || strings.Contains(stdout, "note:") || strings.Contains(stdout, "walk:") || strings.Contains(stdout, "next:") {
		t.Errorf("-q: exit %d:\n%s\n%s", code, stdout, errs)
	}
	train = csvFile(t, "a,b,kind", 60, func(i int) string { return fmt.Sprintf("%d,%d,%s", i%5, i*7%11, []string{"up", "down"}[i%2]) })
	test := csvFile(t, "a,b,kind", 20, func(i int) string { return fmt.Sprintf("%d,%d,%s", i%3, i%4, []string{"up", "down"}[i%2]) })
	code, stdout, errs = songc(t, context.Background(), append([]string{"train", "--data", train, "--test", test}, base...)...)
	if code != 0 || strings.Contains(errs, recall[:20]) || strings.Contains(stdout, flatter) || !strings.HasSuffix(stdout, next) {
		t.Errorf("no warning, --test: exit %d:\n%s\n%s", code, stdout, errs)
	}
}

// TestWalkNote: the nodes a walk reaches are counted without its leaves.
func TestWalkNote(t *testing.T) {
	// Three nodes, two classes; rows are destinations (nodes 0-2, leaves
	// a and b), columns sources. Node 0 goes left to leaf a and right to
	// node 1 or leaf b; node 1 to the leaves; node 2 is never reached.
	m := &runtime.Model{Format: runtime.Format, Nodes: 3, Classes: 2, Steps: 4, Features: 1, ClassNames: []string{"a", "b"},
		M0Logits: [][]float64{{0, 0, 0}, {0, 0, 0}, {0, 0, 5}, {5, 5, 0}, {0, 0, 0}},
		W:        [][]float64{{1}, {1}, {1}}, B: []float64{0, 0, 0}}
	for _, tc := range []struct {
		right [5]float64 // node 0's column of M1Logits
		want  string
	}{
		{[5]float64{0, 5, 0, 0, 0}, "walk: it reaches 2 of the 3 nodes; the others are never visited, and songc compile leaves them out\n"},
		{[5]float64{0, 0, 0, 0, 5}, "walk: it reaches 1 of the 3 nodes: the compiled classifier is a single linear test\n"},
	} {
		m.M1Logits = [][]float64{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 5, 5}}
		for i, v := range tc.right {
			m.M1Logits[i][0] = v
		}
		k, err := runtime.New(m)
		if err != nil {
			t.Fatal(err)
		}
		if got := walkNote(k); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

// TestIgnoreCommaName: a column whose name holds a comma can be left out,
// with the --ignore that songc's own message gives.
func TestIgnoreCommaName(t *testing.T) {
	train := csvFile(t, `age,"comment, free",y`, 1100, func(i int) string { return fmt.Sprintf("%d,text %d,%s", i%50, i, []string{"lo", "hi"}[i%50/25]) })
	code, errs := trainQuick(t, train)
	const flag = `--ignore 'comment\, free'`
	if code != 1 || !strings.Contains(errs, "leave it out with "+flag) {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// What the shell passes for the single-quoted list.
	if code, errs := trainQuick(t, train, "--ignore", `comment\, free`); code != 0 {
		t.Errorf("%s: exit %d: %s", flag, code, errs)
	}
}

// TestConstantColumnsWarned: train names the columns that hold one value
// in every training row, numeric or categorical, and not the others, each
// by the name --ignore knows it by.
func TestConstantColumnsWarned(t *testing.T) {
	train := csvFile(t, "a,k,c,m,y", 40, func(i int) string {
		return fmt.Sprintf("%d,5,same,%s,%s", i, []string{"x", ""}[i%2], []string{"lo", "hi"}[i%2])
	})
	code, errs := trainQuick(t, train)
	if code != 0 || !strings.Contains(errs, `columns "k", "c" hold one value in every training row, so the model learns nothing from them; leave them out with --ignore "k,c"`) {
		t.Errorf("exit %d:\n%s", code, errs)
	}
	// An unnamed column is left out by its place in the file, which, with
	// the label first, is not its place among the inputs.
	train = csvFile(t, "y,a,", 40, func(i int) string {
		return fmt.Sprintf("%s,%d,5", []string{"lo", "hi"}[i%2], i)
	})
	code, errs = trainQuick(t, train, "--label-col", "y")
	if code != 0 || !strings.Contains(errs, `column "x2" holds one value in every training row, so the model learns nothing from it; leave it out with --ignore "x3"`) {
		t.Errorf("unnamed: exit %d:\n%s", code, errs)
	}
}

// TestRepeatedRowsWarned: train warns, even with -q, when at least half
// the training rows repeat an earlier row, features and label; a repeated
// row whose label differs is no repeat, and fewer repeats no warning.
func TestRepeatedRowsWarned(t *testing.T) {
	const warning = "training rows repeat an earlier row exactly (features and label), so most validation rows have a copy among the rows trained on"
	train := csvFile(t, "a,b,y", 40, func(i int) string { return fmt.Sprintf("%d,%d,%s", i%20, i%20*3, []string{"lo", "hi"}[i%20%2]) })
	if code, errs := trainQuick(t, train); code != 0 || !strings.Contains(errs, "songc: warning: "+train+": 20 of the 40 "+warning) {
		t.Errorf("exit %d:\n%s", code, errs)
	}
	for _, row := range []func(i int) string{
		func(i int) string { return fmt.Sprintf("%d,%d,%s", i%20, i%20*3, []string{"lo", "hi"}[i/20]) },   // the copies' labels differ
		func(i int) string { return fmt.Sprintf("%d,%d,%s", i%21, i%21*3, []string{"lo", "hi"}[i%21%2]) }, // 19 repeats of 40
	} {
		if code, errs := trainQuick(t, csvFile(t, "a,b,y", 40, row)); code != 0 || strings.Contains(errs, warning) {
			t.Errorf("exit %d:\n%s", code, errs)
		}
	}
}

// headerPair writes in dir 20 rows of a number, a colour and a class,
// without a header to the file plain and with the header
// size,colour,kind to the file named, and returns the rows.
func headerPair(t *testing.T, dir, plain, named string) string {
	t.Helper()
	var rows strings.Builder
	for i := range 20 {
		fmt.Fprintf(&rows, "%d,%s,%c\n", i%9, []string{"red", "blue"}[i%2], "xz"[i%2])
	}
	if err := os.WriteFile(filepath.Join(dir, plain), []byte(rows.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, named), []byte("size,colour,kind\n"+rows.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return rows.String()
}

// TestHeaderForPositionalModel: a model trained on a file without a
// header (with a categorical column, so that it records its columns)
// reads a file with a header by position, skipping the header and saying
// so, in eval and predict alike.
func TestHeaderForPositionalModel(t *testing.T) {
	dir := t.TempDir()
	nh := headerPair(t, dir, "train.csv", "test.csv")
	train, test := filepath.Join(dir, "train.csv"), filepath.Join(dir, "test.csv")
	if code, errs := trainQuick(t, train); code != 0 {
		t.Fatalf("train: exit %d:\n%s", code, errs)
	}
	model := filepath.Join(dir, "m.json")
	const note = "test.csv: the first row is read as a header and skipped; the model was trained on a file without one, so the columns are read by position"
	code, out, errs := songc(t, context.Background(), "eval", model, "--data", test)
	if code != 0 || !strings.Contains(out, "20 rows") || !strings.Contains(errs, note) {
		t.Errorf("eval: exit %d:\n%s\n%s", code, out, errs)
	}
	code, out, errs = songc(t, context.Background(), "predict", model, "--data", test)
	if code != 0 || strings.Count(out, "\n") != 20 || !strings.Contains(errs, note) {
		t.Errorf("predict: exit %d:\n%s\n%s", code, out, errs)
	}
	code, _, errs = songc(t, context.Background(), "eval", model, "--data", train)
	if code != 0 || strings.Contains(errs, "skipped") {
		t.Errorf("eval on the training file: exit %d:\n%s", code, errs)
	}
	// A first row with a word in the numeric column but a known colour is
	// a bad row, not a header.
	typo := filepath.Join(dir, "typo.csv")
	if err := os.WriteFile(typo, []byte("abc,red,x\n"+strings.SplitN(nh, "\n", 2)[1]), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs = songc(t, context.Background(), "predict", model, "--data", typo)
	if code != 1 || !strings.Contains(errs, `typo.csv:1:1: column 1 ("x1"): "abc" is not a number`) {
		t.Errorf("predict on a first row with a typo: exit %d:\n%s", code, errs)
	}
}

// TestNoHeaderForNamedModel: a file without a header, read for a model
// whose training file named its columns, is read by position, and eval,
// predict and train --test say so, naming the model's columns in order; a
// file with the header is not noted.
func TestNoHeaderForNamedModel(t *testing.T) {
	dir := t.TempDir()
	headerPair(t, dir, "test.csv", "train.csv")
	train, test := filepath.Join(dir, "train.csv"), filepath.Join(dir, "test.csv")
	model := filepath.Join(dir, "m.json")
	const note = `test.csv: the file has no header, so its columns are read by position, as the model's training file had them ("size", "colour"); a header naming them would match them by name, in any order`
	code, _, errs := songc(t, context.Background(), "train", "--data", train, "--test", test, "-o", model, "--preset", "quick", "--epochs", "1", "-q")
	if code != 0 || !strings.Contains(errs, note) {
		t.Errorf("train --test: exit %d:\n%s", code, errs)
	}
	for _, cmd := range []string{"eval", "predict"} {
		if code, _, errs := songc(t, context.Background(), cmd, model, "--data", test); code != 0 || strings.Count(errs, note) != 1 {
			t.Errorf("%s: exit %d:\n%s", cmd, code, errs)
		}
		if code, _, errs := songc(t, context.Background(), cmd, model, "--data", train); code != 0 || strings.Contains(errs, "no header") {
			t.Errorf("%s with a header: exit %d:\n%s", cmd, code, errs)
		}
	}
}

// TestCaseTwinsWarned: a categorical column holding "yes" and "Yes" is
// warned of; one whose levels differ otherwise is not.
func TestCaseTwinsWarned(t *testing.T) {
	train := csvFile(t, "a,ok,kind,y", 20, func(i int) string {
		return fmt.Sprintf("%d,%s,%s,%c", i, []string{"yes", "Yes", "no"}[i%3], []string{"red", "blue"}[i%2], "xz"[i%2])
	})
	code, errs := trainQuick(t, train)
	if code != 0 || !strings.Contains(errs, `column "ok" holds values that differ only in case ("Yes" and "yes"), each a category of its own`) || strings.Contains(errs, `column "kind" holds values`) || strings.Contains(errs, "classes that differ") {
		t.Errorf("exit %d:\n%s", code, errs)
	}
	// Labels so written are classes of their own.
	labels := csvFile(t, "a,y", 30, func(i int) string { return fmt.Sprintf("%d,%s", i, []string{"yes", "Yes", "no"}[i%3]) })
	if code, errs := trainQuick(t, labels); code != 0 || !strings.Contains(errs, `the label column "y" holds classes that differ only in case ("Yes" and "yes"), each a class of its own: if they mean the same, write them alike`) {
		t.Errorf("labels: exit %d:\n%s", code, errs)
	}
	// One answer in several spellings, in two groups.
	labels = csvFile(t, "a,y", 30, func(i int) string {
		return fmt.Sprintf("%d,%s", i, []string{"yes", "Yes", "TRUE", "no", "No", "FALSE"}[i%6])
	})
	if code, errs := trainQuick(t, labels); code != 0 || !strings.Contains(errs, `the label column "y" holds classes that may be one value spelled in several ways ("FALSE", "No" and "no"; "TRUE", "Yes" and "yes"), each a class of its own`) {
		t.Errorf("spellings: exit %d:\n%s", code, errs)
	}
}

func TestTwinsPhrase(t *testing.T) {
	for _, c := range []struct {
		groups [][]string
		want   string
	}{
		{[][]string{{"No", "no"}, {"Yes", "yes"}}, `differ only in case ("No" and "no"; "Yes" and "yes")`},
		{[][]string{{"a", "A"}, {"b", "B"}, {"c", "C"}, {"n", "no"}}, `may be one value spelled in several ways ("a" and "A"; "b" and "B"; "c" and "C"; and 1 more)`},
	} {
		if got := twinsPhrase(c.groups); got != c.want {
			t.Errorf("twinsPhrase(%q) = %s, want %s", c.groups, got, c.want)
		}
	}
}

// TestSingleRowClassWarned: a class of one training row is warned of, and
// so are classes of fewer than 5.
func TestSingleRowClassWarned(t *testing.T) {
	train := csvFile(t, "a,b,y", 30, func(i int) string {
		y := "xz"[i%2 : i%2+1]
		if i == 17 {
			y = "w"
		}
		return fmt.Sprintf("%d,%d,%s", i, i%4, y)
	})
	code, errs := trainQuick(t, train)
	if code != 0 || !strings.Contains(errs, `class "w" has a single training row: no validation row can measure it`) {
		t.Errorf("exit %d:\n%s", code, errs)
	}
	// Many classes coded as whole numbers, each common but one.
	train = csvFile(t, "a,b,y", 241, func(i int) string {
		y := i % 24
		if i == 240 {
			y = 99
		}
		return fmt.Sprintf("%d,%d,%d", i, i%4, y)
	})
	code, errs = trainQuick(t, train)
	if code != 0 || !strings.Contains(errs, `class "99" has a single training row`) || strings.Contains(errs, "reads like a count") {
		t.Errorf("coded classes: exit %d:\n%s", code, errs)
	}
	// A class of 2 rows, then two rare classes; a class of 5 rows is not
	// rare.
	for _, c := range []struct {
		rare map[int]string
		want string
	}{
		{map[int]string{3: "w", 11: "w"}, `class "w" has only 2 training rows: too few for the validation rows to measure it`},
		{map[int]string{3: "w", 11: "w", 20: "v"}, `classes "v", "w" have fewer than 5 training rows each: too few for the validation rows to measure them`},
		{map[int]string{1: "w", 3: "w", 5: "w", 7: "w", 9: "w"}, ""},
	} {
		train = csvFile(t, "a,b,y", 40, func(i int) string {
			y := "xz"[i%2 : i%2+1]
			if r, ok := c.rare[i]; ok {
				y = r
			}
			return fmt.Sprintf("%d,%d,%s", i, i%4, y)
		})
		code, errs = trainQuick(t, train)
		if code != 0 || (c.want == "") != !strings.Contains(errs, "training row") || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d:\n%s", c.rare, code, errs)
		}
	}
}

// TestTrainQuietNotes: -q leaves the summary's notes out (here, that the
// validation rows flatter a model trained without --test), and keeps the
// summary.
func TestTrainQuietNotes(t *testing.T) {
	dir := t.TempDir()
	good := blobs(t, dir, "good.csv", 30, 1)
	args := []string{"train", "--data", good, "-o", filepath.Join(dir, "m.json"), "--nodes", "2", "--steps", "2", "--epochs", "1", "--no-logistic"}
	const note = "note: these validation rows chose the model"
	if code, out, errs := songc(t, context.Background(), args...); code != 0 || !strings.Contains(out, note) {
		t.Fatalf("exit %d, stdout %q, stderr %s; want the note %q", code, out, errs, note)
	}
	code, out, errs := songc(t, context.Background(), append(args, "-q")...)
	if code != 0 || !strings.Contains(out, "model: ") || strings.Contains(out, "note:") {
		t.Errorf("-q: exit %d, stdout %q, stderr %s; want the summary without notes", code, out, errs)
	}
}

// TestTestIsTrainingFile: --test naming the training file, by another
// path too, is warned of, and so is a test file of which three quarters
// of the rows or more are training rows; another file is not.
func TestTestIsTrainingFile(t *testing.T) {
	dir := t.TempDir()
	train := blobs(t, dir, "train.csv", 30, 1)
	other := blobs(t, dir, "other.csv", 30, 2)
	const warning = "--test names this file too, so the test scores measure rows the model trained on"
	if err := os.Mkdir(filepath.Join(dir, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		test string
		warn bool
	}{{train, true}, {dir + "/x/../train.csv", true}, {other, false}} {
		if code, errs := trainQuick(t, train, "--test", tc.test); code != 0 || strings.Contains(errs, warning) != tc.warn {
			t.Errorf("--test %s: exit %d, stderr %q; want the warning: %v", tc.test, code, errs, tc.warn)
		}
	}
	// A file of other rows and copies of training rows: a warning when the
	// copies are three quarters of it or more.
	rows := func(path string) []string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
	}
	ours, theirs := rows(train), rows(other)
	for _, tc := range []struct {
		copies int
		want   string
	}{
		{30, "copy.csv: 30 of its 30 rows repeat a row of " + train + " exactly (features and label), so the test scores mostly measure rows the model trained on and flatter it: if the file was made from the training rows, give --test rows that are not among them"},
		{23, "copy.csv: 23 of its 30 rows repeat a row"},
		{22, ""},
	} {
		text := strings.Join(slices.Concat(ours[:1+tc.copies], theirs[1:31-tc.copies]), "") + "\n"
		test := filepath.Join(dir, "copy.csv")
		os.WriteFile(test, []byte(text), 0o644)
		code, errs := trainQuick(t, train, "--test", test)
		if code != 0 || tc.want != "" && !strings.Contains(errs, tc.want) || tc.want == "" && strings.Contains(errs, "repeat a row") {
			t.Errorf("%d copies: exit %d, stderr %q; want %q", tc.copies, code, errs, tc.want)
		}
	}
}

// TestTestClassesLacking: --test rows of a class no training row has are
// left out of the progress lines' test accuracy and counted as wrong in
// the final test scores, which then equal songc eval's on the same file,
// for train, refine and select; a test file of no known class is an
// error, as for eval.
func TestTestClassesLacking(t *testing.T) {
	dir := t.TempDir()
	train, model := tinyModel(t, dir)
	test := filepath.Join(dir, "test.csv")
	os.WriteFile(test, []byte("f1,f2,f3,f4,kind\n0,0,0,0,ant\n0,0,0,0,yak\n1,1,1,1,bee\n"), 0o644)
	const warning = `test.csv: a label no training row had: "yak" (1 row, line 3); the model cannot predict it, so that row (33.3% of 3) counts as wrong; its classes: "ant", "bee", "cat"`
	// finalTest returns the scores of a test line, less its label.
	finalTest := func(out string) string {
		_, line, _ := strings.Cut(out, "test.csv, 3 rows): ")
		line, _, _ = strings.Cut(line, "\n")
		return line
	}
	evalOf := func(model string) string {
		code, out, errs := songc(t, context.Background(), "eval", model, "--data", test, "--json")
		var e struct {
			Hard float64 `json:"hard_accuracy"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &e) != nil {
			t.Fatalf("eval: exit %d: %s", code, errs)
		}
		return fmt.Sprintf("hard-walk accuracy %.2f%%", 100*e.Hard)
	}
	out := filepath.Join(dir, "m.json")
	code, stdout, errs := songc(t, context.Background(), "train", "--data", train, "--test", test, "-o", out, "--preset", "quick", "--epochs", "2")
	if got := finalTest(stdout); code != 0 || !strings.Contains(errs, warning+progressLeavesOut) || !strings.Contains(got, evalOf(out)) {
		t.Errorf("train: exit %d, test line %q, want %s:\n%s", code, got, evalOf(out), errs)
	}
	refined := filepath.Join(dir, "r.json")
	code, stdout, errs = songc(t, context.Background(), "refine", model, "--data", train, "--test", test, "-o", refined)
	if got := finalTest(stdout); code != 0 || !strings.Contains(errs, warning+progressLeavesOut) || !strings.Contains(got, evalOf(refined)) {
		t.Errorf("refine: exit %d, test line %q, want %s:\n%s", code, got, evalOf(refined), errs)
	}
	code, stdout, errs = songc(t, context.Background(), "select", model, "--data", train, "--test", test, "-o", filepath.Join(dir, "s.json"), "--json")
	if code != 0 || !strings.Contains(errs, warning) || strings.Contains(errs, "progress lines") || !strings.Contains(stdout, `"rows": 3`) {
		t.Errorf("select: exit %d: %s\n%s", code, stdout, errs)
	}
	// No known class at all: the label column is likely another.
	os.WriteFile(test, []byte("f1,f2,f3,f4,kind\n0,0,0,0,yak\n"), 0o644)
	if code, _, errs := songc(t, context.Background(), "train", "--data", train, "--test", test, "-o", filepath.Join(dir, "n.json"), "-q"); code != 1 || !strings.Contains(errs, "no row's label is one of the training rows' 3 classes") {
		t.Errorf("train with no known class: exit %d: %s", code, errs)
	}
	// A test file without labels has nothing to do with classes.
	os.WriteFile(test, []byte("0,0,0,0\n1,1,1,1\n"), 0o644)
	if code, _, errs := songc(t, context.Background(), "train", "--data", train, "--test", test, "-o", filepath.Join(dir, "u.json"), "--preset", "fast", "-q"); code != 1 || strings.Contains(errs, "no training row had") {
		t.Errorf("train with an unlabelled test file: exit %d: %s", code, errs)
	}
}

// TestSearchPrinter: a line per candidate in a file; on a terminal, a
// live line rewritten per candidate and one line kept per round, ended
// before anything else is written (the end of a round cut short).
func TestSearchPrinter(t *testing.T) {
	feed := func(sp *searchPrinter) {
		for r, of := range []int{3, 2} {
			for i := range of {
				sp.progress(trainer.SearchProgress{Rung: r, Rungs: 3, Index: i, Of: of,
					Candidate: runlog.Candidate{Nodes: 16, Steps: 8, LR: 0.03, Epochs: 5, Score: 0.5 + 0.1*float64(i)},
					Best:      runlog.Candidate{Nodes: 32, Steps: 10, LR: 0.1, WeightDecay: 0.01, Score: 0.75}, Elapsed: 3 * time.Second})
			}
		}
		sp.progress(trainer.SearchProgress{Rung: 2, Rungs: 3, Index: 0, Of: 2, Elapsed: 4 * time.Second}) // cut short
		sp.end()
		sp.end()
	}
	var file bytes.Buffer
	feed(&searchPrinter{w: &file})
	lines := strings.Split(strings.TrimSuffix(file.String(), "\n"), "\n")
	if len(lines) != 6 || strings.Contains(file.String(), "\r") ||
		lines[1] != "round 1/3   2/3   16 nodes  8 steps lr 0.03  wd 0        5 epochs  val  60.00%   best: 32/10 lr 0.1 wd 0.01  75.00%  3s" {
		t.Errorf("in a file, got %d lines:\n%s", len(lines), file.String())
	}
	var term bytes.Buffer
	feed(&searchPrinter{w: &term, terminal: true})
	want := "\r\033[Kround 1/3  1/3  16/8 lr 0.03 wd 0  val 50.00%  best 75.00%  3s" +
		"\r\033[Kround 1/3  2/3  16/8 lr 0.03 wd 0  val 60.00%  best 75.00%  3s" +
		"\r\033[Kround 1/3  3 candidates  best 32/10 lr 0.1 wd 0.01  75.00%  3s\n" +
		"\r\033[Kround 2/3  1/2  16/8 lr 0.03 wd 0  val 50.00%  best 75.00%  3s" +
		"\r\033[Kround 2/3  2 candidates  best 32/10 lr 0.1 wd 0.01  75.00%  3s\n" +
		"\r\033[Kround 3/3  1/2  0/0 lr 0 wd 0  val 0.00%  best 0.00%  4s\n"
	if term.String() != want {
		t.Errorf("on a terminal:\n%q\nwant\n%q", term.String(), want)
	}
	// The widest lines fit in 80 columns, so that none wraps.
	var wide bytes.Buffer
	sp := &searchPrinter{w: &wide, terminal: true}
	c := runlog.Candidate{Nodes: 128, Steps: 30, LR: 0.0003, WeightDecay: 0.0001, Score: 1} // rates a user may give: 80 columns untrimmed
	for i := range 24 {
		sp.progress(trainer.SearchProgress{Rung: 2, Rungs: 3, Index: i, Of: 24, Candidate: c, Best: c, Elapsed: time.Hour + 2*time.Minute + 30*time.Second})
	}
	for _, line := range strings.FieldsFunc(wide.String(), func(r rune) bool { return r == '\r' || r == '\n' }) {
		if n := len(strings.TrimPrefix(line, "\033[K")); n >= 80 {
			t.Errorf("%d columns: %q", n, line)
		}
	}
}

// TestEpochBarFits: the live line of an epoch in progress on a terminal
// fits in 80 columns at its widest, so that it is rewritten, not wrapped.
func TestEpochBarFits(t *testing.T) {
	var b bytes.Buffer
	show := newProgressPrinter(&b, true, true)
	show(trainer.Progress{Epoch: 400, Epochs: 400, Batch: 9375, Batches: 9375, Loss: trainer.LossParts{Total: 12.3456},
		LastValAcc: 1, ETA: 10*time.Hour + 59*time.Minute + 59*time.Second})
	line := strings.TrimPrefix(b.String(), "\r\033[K")
	if !strings.HasPrefix(line, "epoch 400/400 [==========] 9375/9375  loss 12.3456  val 100.00%") || len(line) >= 80 {
		t.Errorf("%d columns: %q", len(line), line)
	}
}

// TestSearchCutOnTerminal: a search that the budget cuts short in the
// middle of a round ends its live line before the chosen candidate's
// training line, and leaves no blank line.
func TestSearchCutOnTerminal(t *testing.T) {
	dir := t.TempDir()
	data := blobs(t, dir, "b.csv", 120, 2)
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"train", "--data", data, "-o", filepath.Join(dir, "m.json"), "--budget", "1ns",
		"--nodes", "3", "--steps", "2", "--epochs", "2", "--refine", "0"}, nil, &out, &errb, true)
	errs := errb.String()
	at := strings.Index(errs, "songc: training on")
	if code != 0 || at < 1 || errs[at-1] != '\n' || !strings.Contains(errs[:at], "\r\033[Kround 1/") || strings.Contains(errs, "\n\n") {
		t.Errorf("exit %d:\n%q", code, errs)
	}
}

// TestEvalFidelityNote: eval notes a soft model that gives another class
// than the walk on more than 5% of the rows (a graph trained for one epoch
// on labels its inputs do not predict), and only then (one trained on
// blobs).
func TestEvalFidelityNote(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 1))
	noise := csvFile(t, "u,v,label", 300, func(int) string {
		return fmt.Sprintf("%.3f,%.3f,%c", rng.Float64(), rng.Float64(), "abc"[rng.IntN(3)])
	})
	model := filepath.Join(dir, "m.json")
	for _, tc := range []struct {
		data, epochs string
		noted        bool
	}{{noise, "1", true}, {blobs(t, dir, "b.csv", 200, 3), "30", false}} {
		if code, _, errs := songc(t, context.Background(), "train", "--data", tc.data, "-o", model, "-q", "--preset", "fast",
			"--nodes", "6", "--steps", "3", "--epochs", tc.epochs, "--refine", "0"); code != 0 {
			t.Fatalf("train: exit %d: %s", code, errs)
		}
		code, out, errs := songc(t, context.Background(), "eval", model, "--data", tc.data)
		var fid float64
		for _, line := range strings.Split(out, "\n") {
			if f, ok := strings.CutPrefix(line, "fidelity"); ok {
				fid, _ = strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(f), "%"), 64)
			}
		}
		noted := strings.Contains(out, "\nnote: on ") && strings.Contains(out, "% of the rows the soft model gives another class than the walk, so the largest of predict --proba's masses is not always the class predict gives")
		if code != 0 || fid == 0 || noted != tc.noted || noted != (fid < 95) {
			t.Errorf("%s: exit %d, fidelity %v, noted %v:\n%s%s", tc.data, code, fid, noted, out, errs)
		}
	}
}

// TestLabelColHelp: --label-col, declared once, gives its default as each
// command has it: the last column for train, the model's own for the
// commands that read a model.
func TestLabelColHelp(t *testing.T) {
	t.Setenv("COLUMNS", "200")
	for cmd, want := range map[string]string{"train": "default: last.", "eval": "default: the model's own, else last.", "predict": "default: the model's own, else last."} {
		_, help, _ := songc(t, context.Background(), cmd, "--help")
		if !strings.Contains(help, want) {
			t.Errorf("%s --help lacks %q:\n%s", cmd, want, help)
		}
	}
}

// TestCompileOut: train's next step names a folder that compile takes as
// the package's name, or the folder classifier, never the model file's
// own path; shellQuote quotes what a shell would split or expand.
func TestCompileOut(t *testing.T) {
	for model, want := range map[string]string{
		"letter.json":      filepath.Join("letter", "letter.go"),
		"out/m2.json":      filepath.Join("out", "m2", "m2.go"),
		"My-Model.json":    filepath.Join("mymodel", "mymodel.go"),
		"2model.json":      filepath.Join("model", "model.go"),
		"main.json":        filepath.Join("classifier", "classifier.go"),
		"_.json":           filepath.Join("classifier", "classifier.go"),
		"type.json":        filepath.Join("classifier", "classifier.go"),
		"v1.2.json":        filepath.Join("classifier", "classifier.go"),
		"Модель.json":      filepath.Join("classifier", "classifier.go"),
		"model":            filepath.Join("classifier", "classifier.go"),
		"classifier":       filepath.Join("goclassifier", "goclassifier.go"),
		"dir/Letter.model": filepath.Join("dir", "letter", "letter.go"),
	} {
		if got := compileOut(model); got != want {
			t.Errorf("compileOut(%q) = %q, want %q", model, got, want)
		} else if pkg := defaultPackage(got); pkg != filepath.Base(filepath.Dir(got)) {
			t.Errorf("compile -o %s would write package %s", got, pkg)
		}
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{"m.json": "m.json", "out/m-2.json": "out/m-2.json", "with space.json": "'with space.json'", "it's.json": `'it'\''s.json'`, "a;b": "'a;b'", "": "''", "$HOME/x": "'$HOME/x'"} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}
