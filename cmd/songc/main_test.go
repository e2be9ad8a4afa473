package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer/data"
)

// songc runs the CLI in-process and returns its exit code and output.
func songc(t *testing.T, ctx context.Context, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(ctx, args, &out, &errb, false)
	return code, out.String(), errb.String()
}

// blobs writes a labelled CSV of 3 well-separated classes in 4 features.
func blobs(t *testing.T, dir, name string, rows int, seed uint64) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	b.WriteString("f1,f2,f3,f4,kind\n")
	for i := 0; i < rows; i++ {
		k := i % 3
		for j := 0; j < 4; j++ {
			fmt.Fprintf(&b, "%.3f,", float64(k*(j%2+1))+rng.NormFloat64()*0.3)
		}
		b.WriteString([]string{"ant", "bee", "cat"}[k] + "\n")
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestTrainEvalPredict(t *testing.T) {
	dir := t.TempDir()
	train := blobs(t, dir, "train.csv", 300, 1)
	test := blobs(t, dir, "test.csv", 60, 2)
	model := filepath.Join(dir, "m.json")
	args := []string{"train", "--data", train, "--test", test, "-o", model, "--nodes", "4", "--steps", "4", "--epochs", "60", "--lr", "0.05", "--batch", "32", "--standardize"}
	code, out, errs := songc(t, context.Background(), args...)
	if code != 0 {
		t.Fatalf("train exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "soft accuracy") || !strings.Contains(errs, "epoch 60/60") {
		t.Errorf("train output:\n%s\n%s", out, errs)
	}
	first, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	// Same data, flags and seed: same bytes.
	if code, _, errs := songc(t, context.Background(), append(args, "-q")...); code != 0 {
		t.Fatal(errs)
	}
	if second, _ := os.ReadFile(model); !bytes.Equal(first, second) {
		t.Error("two identical runs wrote different models")
	}
	logLines, err := os.ReadFile(filepath.Join(dir, "m.log.jsonl"))
	if err != nil || bytes.Count(logLines, []byte("\n")) != 60 {
		t.Errorf("log: %v, %d lines", err, bytes.Count(logLines, []byte("\n")))
	}
	m, err := runtime.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(m.ClassNames, ",") != "ant,bee,cat" {
		t.Errorf("class names %q", m.ClassNames)
	}

	code, out, errs = songc(t, context.Background(), "eval", "--model", model, "--data", test, "--json")
	if code != 0 {
		t.Fatalf("eval: %s", errs)
	}
	var met runtime.Metrics
	if err := json.Unmarshal([]byte(out), &met); err != nil {
		t.Fatal(err)
	}
	// Three separated blobs: the soft model must be far above chance (1/3).
	if met.Rows != 60 || met.SoftAccuracy < 0.9 || len(met.ConfusionHard) != 3 {
		t.Errorf("eval: %+v", met)
	}

	// predict: soft classes, then --hard against the runtime, then --proba.
	k, _ := runtime.New(m)
	ds, err := data.ReadCSVFile(test, data.CSVOptions{Features: 4})
	if err != nil {
		t.Fatal(err)
	}
	_, soft, _ := songc(t, context.Background(), "predict", "--model", model, "--data", test)
	_, hard, _ := songc(t, context.Background(), "predict", "--model", model, "--data", test, "--hard")
	_, proba, _ := songc(t, context.Background(), "predict", "--model", model, "--data", test, "--proba")
	softL, hardL, probaL := strings.Fields(soft), strings.Fields(hard), strings.Fields(proba)
	if len(softL) != 60 || len(hardL) != 60 || len(probaL) != 60 {
		t.Fatalf("predict lines: %d %d %d", len(softL), len(hardL), len(probaL))
	}
	scratch := make([]float64, 4)
	q := make([]float64, 3)
	sc := k.NewSoftScratch()
	for i := 0; i < ds.Rows; i++ {
		w, _ := k.Walk(ds.Row(i), scratch, nil)
		if hardL[i] != m.ClassNames[w.Class] {
			t.Errorf("row %d: --hard %s, runtime %s", i, hardL[i], m.ClassNames[w.Class])
		}
		k.Soft(q, ds.Row(i), sc)
		for j, f := range strings.Split(probaL[i], ",") {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil || v != q[j] { // full precision: exact round trip
				t.Errorf("row %d: --proba %s, runtime %v", i, probaL[i], q)
			}
		}
	}

	// Rows without the label column are accepted by predict.
	noLabel := filepath.Join(dir, "nolabel.csv")
	os.WriteFile(noLabel, []byte("0,0,0,0\n2,4,2,4\n"), 0o644)
	if code, out, errs := songc(t, context.Background(), "predict", "--model", model, "--data", noLabel); code != 0 || len(strings.Fields(out)) != 2 {
		t.Errorf("unlabelled predict: %d %q %s", code, out, errs)
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

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	good := blobs(t, dir, "good.csv", 30, 1)
	ragged := filepath.Join(dir, "ragged.csv")
	os.WriteFile(ragged, []byte("1,2,a\n3,b\n"), 0o644)
	model := filepath.Join(dir, "m.json")
	if code, _, errs := songc(t, context.Background(), "train", "--data", good, "-o", model, "--nodes", "2", "--steps", "2", "--epochs", "1", "-q"); code != 0 {
		t.Fatal(errs)
	}
	badModel := filepath.Join(dir, "bad.json")
	os.WriteFile(badModel, []byte(`{"format": "songc-model/2"}`), 0o644)
	out := filepath.Join(dir, "out.json")
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"missing data", []string{"train", "--data", filepath.Join(dir, "nope.csv"), "-o", out}, 1, "songc train: open " + filepath.Join(dir, "nope.csv")},
		{"ragged", []string{"train", "--data", ragged, "-o", out}, 1, ragged + ":2: row has 2 columns, earlier rows have 3"},
		{"nodes 0", []string{"train", "--data", good, "-o", out, "--nodes", "0"}, 2, "--nodes must be at least 1"},
		{"steps 0", []string{"train", "--data", good, "-o", out, "--steps", "0"}, 2, "--steps must be at least 1"},
		{"batch 0", []string{"train", "--data", good, "-o", out, "--batch", "0"}, 2, "--batch must be at least 1"},
		{"lr negative", []string{"train", "--data", good, "-o", out, "--lr=-1"}, 2, "--lr must be a finite number > 0"},
		{"lr NaN", []string{"train", "--data", good, "-o", out, "--lr", "NaN"}, 2, "--lr must be a finite number > 0"},
		{"val 1", []string{"train", "--data", good, "-o", out, "--val", "1"}, 2, "--val must be in [0, 1)"},
		{"precision", []string{"train", "--data", good, "-o", out, "--precision", "f16"}, 2, "--precision"},
		{"straight-through 1", []string{"train", "--data", good, "-o", out, "--straight-through", "1"}, 2, "--straight-through must be in [0, 1)"},
		{"straight-through-lr alone", []string{"train", "--data", good, "-o", out, "--straight-through-lr", "0.01"}, 2, "--straight-through-lr needs --straight-through"},
		{"straight-through-lr negative", []string{"train", "--data", good, "-o", out, "--straight-through", "0.2", "--straight-through-lr=-1"}, 2, "--straight-through-lr must be a finite number >= 0"},
		{"missing folder", []string{"train", "--data", good, "-o", filepath.Join(dir, "no", "m.json")}, 1, "cannot write " + filepath.Join(dir, "no", "m.json")},
		{"unwritable folder", []string{"train", "--data", good, "-o", filepath.Join(good, "m.json")}, 1, "cannot write " + filepath.Join(good, "m.json")},
		{"unknown flag", []string{"train", "--nodez", "3"}, 2, "unknown flag --nodez"},
		{"bad model", []string{"eval", "--model", badModel, "--data", good}, 1, badModel + `: field format: unknown format "songc-model/2"`},
		{"predict both modes", []string{"predict", "--model", model, "--data", good, "--hard", "--proba"}, 2, "--proba and --hard can't be used together"},
		{"eval unknown class", []string{"eval", "--model", model, "--data", ragged}, 1, ragged + ":1: row has 3 columns; the model wants 4 features"},
		{"resume garbage", []string{"train", "--resume", good}, 1, "not a songc checkpoint"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := songc(t, context.Background(), tc.args...)
			if code != tc.code || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errs, tc.code, tc.want)
			}
			if strings.Contains(errs, "goroutine") || strings.Contains(errs, "panic") {
				t.Errorf("stack trace: %s", errs)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("a failed command left %s", out)
			}
		})
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
	code, _, errs := songc(t, ctx, "train", "--data", good, "-o", model, "--nodes", "2", "--steps", "2", "--epochs", "2", "-q")
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
	code, _, errs := songc(t, ctx, "train", "--data", good, "--test", good, "-o", model, "--nodes", "2", "--steps", "2", "--epochs", "2", "-q")
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

func TestHelpAndVersion(t *testing.T) {
	code, out, _ := songc(t, context.Background(), "version")
	if code != 0 || !strings.HasPrefix(out, "songc "+version) {
		t.Errorf("version: %d %q", code, out)
	}
	for _, cmd := range []string{"train", "eval", "predict"} {
		code, out, _ := songc(t, context.Background(), cmd, "--help")
		if code != 0 || !strings.Contains(out, "songc "+cmd) || !strings.Contains(out, "xample") {
			t.Errorf("%s --help: exit %d, output lacks an example:\n%s", cmd, code, out)
		}
	}
}

// TestCompile compiles a trained model with --emit-tests and runs the
// emitted tests (golden vectors, zero allocations) with go test.
func TestCompile(t *testing.T) {
	dir := t.TempDir()
	train := blobs(t, dir, "train.csv", 120, 1)
	model := filepath.Join(dir, "m.json")
	if code, _, errs := songc(t, context.Background(), "train", "--data", train, "-o", model, "--nodes", "4", "--steps", "3", "--epochs", "5", "-q"); code != 0 {
		t.Fatal(errs)
	}
	mod := filepath.Join(dir, "mod")
	os.MkdirAll(filepath.Join(mod, "blobs"), 0o755)
	os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module example.com/m\n\ngo 1.22\n"), 0o644)
	out := filepath.Join(mod, "blobs", "blobs.go")
	code, stdout, errs := songc(t, context.Background(), "compile", model, "-o", out, "--package", "blobs", "--data", train, "--emit-tests")
	if code != 0 {
		t.Fatalf("compile: exit %d: %s", code, errs)
	}
	if !strings.Contains(stdout, "reachable and emitted") || !strings.Contains(stdout, "hard-walk accuracy") {
		t.Errorf("report:\n%s", stdout)
	}
	cmd := exec.Command("go", "test", "./...")
	cmd.Dir = mod
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("emitted tests: %v\n%s", err, b)
	}

	bad := filepath.Join(dir, "bad.go")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"compile", model, "-o", bad, "--package", "func"}, 2, `package name "func" is not a valid Go package name`},
		{[]string{"compile", model, "-o", bad, "--emit-tests"}, 2, "--emit-tests needs --data"},
		{[]string{"compile", filepath.Join(dir, "none.json"), "-o", bad}, 1, "none.json"},
		{[]string{"compile", model, "-o", filepath.Join(dir, "no", "x.go")}, 1, "cannot write"},
	} {
		code, _, errs := songc(t, context.Background(), tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d %q, want %d %q", tc.args, code, errs, tc.code, tc.want)
		}
		if _, err := os.Stat(bad); err == nil {
			t.Errorf("%v left %s", tc.args, bad)
		}
	}
}

func TestAnalyze(t *testing.T) {
	dir := t.TempDir()
	train := blobs(t, dir, "train.csv", 120, 1)
	model := filepath.Join(dir, "m.json")
	if code, _, errs := songc(t, context.Background(), "train", "--data", train, "-o", model, "--nodes", "5", "--steps", "4", "--epochs", "4", "-q"); code != 0 {
		t.Fatal(errs)
	}
	plots := filepath.Join(dir, "plots")
	dotFile := filepath.Join(dir, "g.dot")
	code, out, errs := songc(t, context.Background(), "analyze", model, "--data", train, "--json", "--plots", plots, "--dot", dotFile)
	if code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, errs)
	}
	var rep struct {
		Graph struct {
			Nodes     int `json:"nodes"`
			UsedNodes int `json:"used_nodes"`
		} `json:"graph"`
		Data struct {
			Rows      int         `json:"rows"`
			Distances [][]float64 `json:"class_distances"`
			Visits    []int       `json:"node_visits"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if rep.Graph.Nodes != 5 || rep.Graph.UsedNodes < 1 || rep.Data.Rows != 120 || len(rep.Data.Distances) != 3 || rep.Data.Visits[0] != 120 {
		t.Errorf("report: %+v", rep)
	}
	// Every picture is a valid PNG; structure.png comes from the log's graph
	// statistics, which songc train recorded.
	for _, name := range []string{"M0.png", "M1.png", "curves.png", "loss.png", "structure.png", "distances.png", "flow.png"} {
		f, err := os.Open(filepath.Join(plots, name))
		if err != nil {
			t.Error(err)
			continue
		}
		if _, err := png.DecodeConfig(f); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		f.Close()
	}
	if b, err := os.ReadFile(dotFile); err != nil || !strings.HasPrefix(string(b), "digraph song {") || !strings.Contains(string(b), "peripheries=2") {
		t.Errorf("dot file: %v\n%s", err, b)
	}
	if _, err := exec.LookPath("dot"); err != nil {
		code, _, errs := songc(t, context.Background(), "analyze", model, "--svg", filepath.Join(dir, "g.svg"))
		if code != 1 || !strings.Contains(errs, "apt-get install graphviz") {
			t.Errorf("--svg without Graphviz: exit %d %s", code, errs)
		}
	} else if code, _, errs := songc(t, context.Background(), "analyze", model, "--svg", filepath.Join(dir, "g.svg")); code != 0 {
		t.Errorf("--svg: %s", errs)
	}
	if code, _, errs := songc(t, context.Background(), "analyze", model, "--data", train, "--input", "999"); code != 2 || !strings.Contains(errs, "--input 999") {
		t.Errorf("--input out of range: exit %d %s", code, errs)
	}
}

// TestNonUTF8Labels: labels with invalid UTF-8 train, save, and map back to
// the same classes in eval (the model file can only hold valid UTF-8).
func TestNonUTF8Labels(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "%d,%d,%s\n", i%2, (i/2)%2, []string{"caf\xe9", "ok\xff\xfe"}[i%2])
	}
	p := filepath.Join(dir, "latin1.csv")
	os.WriteFile(p, []byte(b.String()), 0o644)
	model := filepath.Join(dir, "m.json")
	if code, _, errs := songc(t, context.Background(), "train", "--data", p, "-o", model, "--nodes", "2", "--steps", "2", "--epochs", "2", "-q"); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := songc(t, context.Background(), "eval", "--model", model, "--data", p); code != 0 {
		t.Fatalf("eval on the training file: %s", errs)
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
	code, _, errs := songc(t, context.Background(), "train", "--data", good, "-o", model, "--checkpoint", ckpt, "--nodes", "4", "--steps", "3", "--epochs", "2", "--batch", "16", "--lr", "1e38", "-q")
	if code != 1 || !strings.Contains(errs, "epoch 1, batch ") || !strings.Contains(errs, "loss is NaN") || !strings.Contains(errs, ckpt+" holds the last good state (after epoch 0)") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, err := os.Stat(model); err == nil {
		t.Error("a failed run wrote the model")
	}
	if code, _, errs := songc(t, context.Background(), "train", "--resume", ckpt, "--lr", "0.01", "-q"); code != 0 && !strings.Contains(errs, "NaN") {
		t.Errorf("the kept checkpoint does not load: %s", errs)
	}
}

// TestPresets: --preset fast and quick change the recipe with --data, the
// demo defaults to quick, and explicit flags win over every preset.
func TestPresets(t *testing.T) {
	dir := t.TempDir()
	train := blobs(t, dir, "train.csv", 60, 1)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--data", train}, "batch 128, lr 0.001, 1 epochs\n"},
		{[]string{"--data", train, "--preset", "quick"}, "batch 64, lr 0.03, 1 epochs, standardized inputs, cosine lr schedule, annealed to temperature 0.4 over the last 20% of epochs, epoch chosen by the hard walk, then refined (at most 10 passes)\n"},
		{[]string{"--data", train, "--preset", "fast"}, "batch 64, lr 0.03, 1 epochs, standardized inputs, cosine lr schedule, annealed to temperature 0.4 over the last 20% of epochs, epoch chosen by the hard walk, then refined (at most 10 passes)\n"},
		{[]string{"--data", train, "--preset", "fast", "--lr", "0.5", "--no-standardize", "--batch", "16", "--lr-schedule", "constant", "--anneal", "0", "--select", "soft", "--refine", "0"}, "batch 16, lr 0.5, 1 epochs\n"},
		{[]string{"--data", train, "--refine", "2"}, "lr 0.001, 1 epochs, then refined (at most 2 passes)\n"},
		{[]string{"--data", train, "--anneal", "0.5"}, "lr 0.001, 1 epochs, annealed to temperature 0.1 over the last 50% of epochs\n"},
		{[]string{"--data", train, "--gumbel", "off"}, "lr 0.001, 1 epochs, no Gumbel noise\n"},
		// The one epoch trains the walk, and its line says so.
		{[]string{"--data", train, "--straight-through", "0.5"}, "lr 0.001, 1 epochs, the hard walk trained straight-through over the last 50% of epochs\nepoch 1/1  walk loss "},
		{[]string{"--preset", "paper"}, "lr 0.001, 1 epochs\n"},
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

// TestRefine: train --refine N equals train, then refine --passes N; the
// refined model's log is in its metadata; refine refuses other data.
func TestRefine(t *testing.T) {
	dir := t.TempDir()
	train := blobs(t, dir, "train.csv", 300, 1)
	test := blobs(t, dir, "test.csv", 60, 2)
	common := []string{"--data", train, "--test", test, "--nodes", "6", "--steps", "4", "--epochs", "5", "--lr", "0.05", "--batch", "32", "--standardize", "--seed", "3"}
	plain, refined, again := filepath.Join(dir, "plain.json"), filepath.Join(dir, "refined.json"), filepath.Join(dir, "again.json")
	code, _, errs := songc(t, context.Background(), append([]string{"train", "-o", plain}, common...)...)
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	code, out, errs := songc(t, context.Background(), append([]string{"train", "-o", refined, "--refine", "3"}, common...)...)
	if code != 0 {
		t.Fatalf("train --refine: exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "then refined (at most 3 passes)") || !strings.Contains(errs, "refine pass 0  hard train") ||
		!strings.Contains(out, "hard-walk accuracy") || !strings.Contains(out, "then refined: hard-walk validation accuracy") {
		t.Errorf("train --refine output:\n%s\n%s", out, errs)
	}
	code, out, errs = songc(t, context.Background(), "refine", "-m", plain, "--data", train, "--test", test, "--passes", "3", "-o", again)
	if code != 0 || !strings.Contains(out, "hard-walk accuracy") {
		t.Fatalf("refine: exit %d:\n%s\n%s", code, out, errs)
	}
	a, _ := os.ReadFile(refined)
	b, _ := os.ReadFile(again)
	if !bytes.Equal(a, b) {
		t.Error("train --refine 3 and train + refine --passes 3 wrote different models")
	}
	var meta struct {
		Refine struct {
			Passes int               `json:"passes"`
			Log    []json.RawMessage `json:"log"`
		} `json:"refine"`
	}
	m, err := runtime.Load(refined)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(m.Training, &meta); err != nil || meta.Refine.Passes != 3 || len(meta.Refine.Log) < 2 {
		t.Errorf("refine metadata %s (%v)", m.Training, err)
	}
	other := blobs(t, dir, "other.csv", 300, 9)
	bad := filepath.Join(dir, "bad.json")
	code, _, errs = songc(t, context.Background(), "refine", "-m", plain, "--data", other, "-o", bad)
	if code != 1 || !strings.Contains(errs, "not the data the model was trained on") {
		t.Errorf("refine on other data: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(bad); err == nil {
		t.Error("a failed refine left its output behind")
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	code, _, errs = songc(t, cancelled, "refine", "-m", plain, "--data", train, "-o", bad)
	if code != 130 || !strings.Contains(errs, "canceled") {
		t.Errorf("interrupted refine: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(bad); err == nil {
		t.Error("an interrupted refine left its output behind")
	}
	code, _, errs = songc(t, context.Background(), "refine", "-m", plain, "--data", train, "-o", bad, "--passes", "0")
	if code != 2 || !strings.Contains(errs, "--passes must be at least 1") {
		t.Errorf("refine --passes 0: exit %d: %s", code, errs)
	}
}

func TestSelect(t *testing.T) {
	dir := t.TempDir()
	train := blobs(t, dir, "train.csv", 300, 1)
	test := blobs(t, dir, "test.csv", 60, 2)
	common := []string{"--data", train, "--nodes", "6", "--steps", "4", "--epochs", "3", "--lr", "0.05", "--batch", "32", "--standardize", "-q"}
	var models []string
	for r := range 3 {
		m := filepath.Join(dir, fmt.Sprintf("r%d.json", r))
		code, _, errs := songc(t, context.Background(), append([]string{"train", "-o", m, "--seed", "3", "--restart", strconv.Itoa(r)}, common...)...)
		if code != 0 {
			t.Fatalf("train --restart %d: exit %d: %s", r, code, errs)
		}
		models = append(models, m)
	}
	a, _ := os.ReadFile(models[0])
	b, _ := os.ReadFile(models[1])
	if bytes.Equal(a, b) {
		t.Fatal("restarts 0 and 1 wrote the same model")
	}
	best := filepath.Join(dir, "best.json")
	code, out, errs := songc(t, context.Background(), append([]string{"select", "--data", train, "--test", test, "--json", "-o", best}, models...)...)
	if code != 0 {
		t.Fatalf("select: exit %d: %s", code, errs)
	}
	var sel struct {
		Selected   string `json:"selected"`
		Candidates []struct {
			Model   string  `json:"model"`
			Restart int     `json:"restart"`
			HardVal float64 `json:"hard_val_accuracy"`
			ValRows int     `json:"val_rows"`
			Test    *struct {
				HardAccuracy float64 `json:"hard_accuracy"`
			} `json:"test"`
		} `json:"candidates"`
	}
	if err := json.Unmarshal([]byte(out), &sel); err != nil || len(sel.Candidates) != 3 {
		t.Fatalf("select --json: %v\n%s", err, out)
	}
	want := 0
	for i, c := range sel.Candidates {
		if c.Model != models[i] || c.Restart != i || c.ValRows != 30 || c.Test == nil {
			t.Errorf("candidate %d: %+v", i, c)
		}
		if c.HardVal > sel.Candidates[want].HardVal {
			want = i
		}
	}
	if sel.Selected != models[want] {
		t.Errorf("selected %s, want %s: %s", sel.Selected, models[want], out)
	}
	a, _ = os.ReadFile(models[want])
	b, _ = os.ReadFile(best)
	if !bytes.Equal(a, b) {
		t.Error("the selected model is not a byte copy of the best candidate")
	}
	code, out, _ = songc(t, context.Background(), append([]string{"select", "--data", train, "-o", best}, models...)...)
	if code != 0 || !strings.Contains(out, "* "+models[want]) || !strings.Contains(out, "best hard-walk validation accuracy") {
		t.Errorf("select: exit %d:\n%s", code, out)
	}

	// Another seed has other validation rows: refused, nothing written.
	seed4 := filepath.Join(dir, "seed4.json")
	if code, _, errs := songc(t, context.Background(), append([]string{"train", "-o", seed4, "--seed", "4"}, common...)...); code != 0 {
		t.Fatalf("train --seed 4: exit %d: %s", code, errs)
	}
	bad := filepath.Join(dir, "bad.json")
	code, _, errs = songc(t, context.Background(), "select", "--data", train, "-o", bad, models[0], seed4)
	if code != 1 || !strings.Contains(errs, "validation splits differ") {
		t.Errorf("select across seeds: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(bad); err == nil {
		t.Error("a failed select left its output behind")
	}
	code, _, errs = songc(t, context.Background(), "select", "--data", train, "-o", bad, filepath.Join(dir, "missing.json"))
	if code != 1 || !strings.Contains(errs, "missing.json") {
		t.Errorf("select of a missing model: exit %d: %s", code, errs)
	}
	code, _, errs = songc(t, context.Background(), "train", "--data", train, "--restart=-1", "-o", bad)
	if code != 2 || !strings.Contains(errs, "--restart must be in") {
		t.Errorf("train --restart -1: exit %d: %s", code, errs)
	}
}
