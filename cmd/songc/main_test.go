package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestErrors: one line on stderr for each mistake, the exit code of its
// kind (1 failed, 2 usage), no stack trace and no output file; usage errors
// end with where to read the command's help.
func TestErrors(t *testing.T) {
	dir := t.TempDir()
	good, model := tinyModel(t, dir)
	ragged := filepath.Join(dir, "ragged.csv")
	os.WriteFile(ragged, []byte("1,2,a\n3,b\n"), 0o644)
	badModel := filepath.Join(dir, "bad.json")
	os.WriteFile(badModel, []byte(`{"format": "songc-model/9"}`), 0o644)
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
		{"unwritable folder", []string{"train", "--data", good, "-o", filepath.Join(good, "m.json")}, 1, "cannot write " + filepath.Join(good, "m.json")},
		{"unknown flag", []string{"train", "--nodez", "3"}, 2, "songc train: unknown flag --nodez"},
		{"unknown flag, a near one", []string{"train", "--lrr", "3"}, 2, `songc train: unknown flag --lrr, did you mean one of "--log", "--lr"?`},
		{"unknown letter", []string{"eval", "-q", model}, 2, "songc eval: unknown flag -q\n"}, // not "did you mean -h, -m"
		{"near the model's old spelling", []string{"eval", "--modle", model}, 2, "songc eval: unknown flag --modle\n"},
		{"unknown command", []string{"trian"}, 2, "songc: unexpected argument trian"},
		{"data as an argument", []string{"predict", model, good}, 2, "songc predict: unexpected argument " + good + ": predict's one argument is the model; name a data file with --data " + good},
		{"train data as an argument", []string{"train", good}, 2, "train takes no argument; name the data file with --data " + good},
		{"compile output as an argument", []string{"compile", model, "x.go"}, 2, "compile's one argument is the model; name the classifier's file with -o x.go"},
		{"drawing as an argument", []string{"analyze", model, "g.png"}, 2, "analyze's one argument is the model; name the drawing with --png g.png"},
		{"refine output as an argument", []string{"refine", model, "r.json"}, 2, "refine's one argument is the model; name the model to write with -o r.json"},
		{"bad model", []string{"eval", badModel, "--data", good}, 1, badModel + `: field format: unknown format "songc-model/9"`},
		{"predict both modes", []string{"predict", "--model", model, "--data", good, "--hard", "--proba"}, 2, "--proba and --hard can't be used together"},
		{"predict soft and proba", []string{"predict", model, "--data", good, "--soft", "--proba"}, 2, "--soft and --proba can't be used together"},
		{"class names without proba", []string{"predict", model, "--data", good, "--class-names"}, 2, "--class-names needs --proba"},
		{"eval unknown class", []string{"eval", model, "--data", ragged}, 1, ragged + ":1: row has 3 columns; the model reads 4 (plus an optional label column)"},
		{"no model", []string{"eval", "--data", good}, 2, "songc eval: missing the model: give its file as the first argument"},
		{"model twice", []string{"predict", model, "--model", model, "--data", good}, 2, "songc predict: the model is given twice"},
		{"resume garbage", []string{"train", "--resume", good}, 1, "not a songc checkpoint"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := songc(t, context.Background(), tc.args...)
			if code != tc.code || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errs, tc.code, tc.want)
			}
			// A usage error points to the help of the command that failed.
			hint := ""
			if code == 2 {
				hint = "Run 'songc " + tc.args[0] + " --help' for usage.\n"
				if tc.name == "unknown command" {
					hint = "Run 'songc --help' for usage.\n"
				}
			}
			if hint != "" && !strings.HasSuffix(errs, hint) || hint == "" && strings.Contains(errs, "--help") {
				t.Errorf("stderr %q; want the usage hint %q only for usage errors", errs, hint)
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

// TestOutputFolders: train, predict, refine and select create the folder
// of the file they write, as compile and analyze do, and a command that
// fails leaves no folder behind.
func TestOutputFolders(t *testing.T) {
	dir := t.TempDir()
	good := blobs(t, dir, "good.csv", 30, 1)
	ragged := filepath.Join(dir, "ragged.csv")
	os.WriteFile(ragged, []byte("1,2,a\n3,b\n"), 0o644)
	model := filepath.Join(dir, "models", "v1", "m.json")
	small := []string{"--nodes", "2", "--steps", "2", "--epochs", "1", "-q"}
	ok := [][]string{
		append([]string{"train", "--data", good, "-o", model}, small...),
		{"predict", model, "--data", good, "-o", filepath.Join(dir, "preds", "p.csv")},
		{"refine", model, "--data", good, "-o", filepath.Join(dir, "refined", "r.json"), "-q"},
		{"select", model, "--data", good, "-o", filepath.Join(dir, "chosen", "c.json")},
	}
	for _, args := range ok {
		if code, _, errs := songc(t, context.Background(), args...); code != 0 {
			t.Fatalf("%s: exit %d: %s", args[0], code, errs)
		}
	}
	for _, p := range []string{model, filepath.Join(dir, "preds", "p.csv"), filepath.Join(dir, "refined", "r.json"), filepath.Join(dir, "chosen", "c.json")} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("not written: %v", err)
		}
	}
	// The data is read after the folders are made: they go again.
	bad := [][]string{
		append([]string{"train", "--data", ragged, "-o", filepath.Join(dir, "t1", "t2", "m.json")}, small...),
		// Two outputs in two folders of one new folder: x1 goes last.
		append([]string{"train", "--data", ragged, "-o", filepath.Join(dir, "x1", "a", "m.json"), "--log", filepath.Join(dir, "x1", "b", "l.jsonl")}, small...),
		{"predict", model, "--data", ragged, "-o", filepath.Join(dir, "p1", "p.csv")},
		{"refine", model, "--data", ragged, "-o", filepath.Join(dir, "r1", "r.json")},
		{"select", model, "--data", ragged, "-o", filepath.Join(dir, "s1", "c.json")},
	}
	for _, args := range bad {
		if code, _, _ := songc(t, context.Background(), args...); code != 1 {
			t.Errorf("%s on ragged data: exit %d, want 1", args[0], code)
		}
	}
	for _, d := range []string{"t1", "x1", "p1", "r1", "s1"} {
		if _, err := os.Stat(filepath.Join(dir, d)); err == nil {
			t.Errorf("a command that failed left the folder %s", d)
		}
	}
}

// TestHelpAndVersion: every command's help names it and shows an example;
// commands that read one model take it as their first argument.
func TestHelpAndVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, _ := songc(t, context.Background(), args...)
		if code != 0 || !strings.HasPrefix(out, "songc "+version) {
			t.Errorf("%s: %d %q", args[0], code, out)
		}
	}
	// songc help [COMMAND] is its --help.
	for _, cmd := range []string{"", "train"} {
		_, want, _ := songc(t, context.Background(), strings.Fields(cmd+" --help")...)
		code, out, _ := songc(t, context.Background(), strings.Fields("help "+cmd)...)
		if code != 0 || out != want {
			t.Errorf("help %s: exit %d:\n%s", cmd, code, out)
		}
	}
	for _, cmd := range []string{"train", "refine", "select", "eval", "predict", "compile", "analyze", "bench", "version"} {
		code, out, _ := songc(t, context.Background(), cmd, "--help")
		if code != 0 || !strings.Contains(out, "songc "+cmd) || !strings.Contains(out, "xample") {
			t.Errorf("%s --help: exit %d, output lacks an example:\n%s", cmd, code, out)
		}
		if usage, _, _ := strings.Cut(out, "\n"); modelCommands[cmd] && !strings.Contains(usage, " <model>") {
			t.Errorf("%s --help: the usage line %q does not show the model as an argument", cmd, usage)
		}
	}
}

// modelCommands are the commands that read one model.
var modelCommands = map[string]bool{"eval": true, "predict": true, "refine": true, "compile": true, "analyze": true}

// TestModelArgument: every command that reads one model takes it as its
// first argument, or with --model or -m as earlier releases did, with the
// same result; neither or both is a usage error that points to the
// command's help.
func TestModelArgument(t *testing.T) {
	dir := t.TempDir()
	data, model := tinyModel(t, dir)
	for _, tc := range []struct {
		cmd  string
		rest []string
		out  string // the file the command writes, if any
	}{
		{"eval", []string{"--data", data}, ""},
		{"predict", []string{"--data", data}, ""},
		{"analyze", nil, ""},
		{"compile", []string{"-o", filepath.Join(dir, "c.go")}, filepath.Join(dir, "c.go")},
		{"refine", []string{"--data", data, "-o", filepath.Join(dir, "r.json"), "--passes", "1", "-q"}, filepath.Join(dir, "r.json")},
	} {
		var first, firstFile string
		for i, spelling := range [][]string{{tc.cmd, model}, {tc.cmd, "--model", model}, {tc.cmd, "-m", model}} {
			args := append(spelling, tc.rest...)
			code, out, errs := songc(t, context.Background(), args...)
			if code != 0 {
				t.Errorf("%v: exit %d: %s", args, code, errs)
				continue
			}
			var file string
			if tc.out != "" {
				b, _ := os.ReadFile(tc.out)
				file = string(b)
			}
			if i == 0 {
				first, firstFile = out, file
			} else if out != first && tc.cmd != "refine" || file != firstFile {
				t.Errorf("%v: another output than %v", args, append([]string{tc.cmd, model}, tc.rest...))
			}
		}
		hint := "Run 'songc " + tc.cmd + " --help' for usage.\n"
		for _, args := range [][]string{append([]string{tc.cmd}, tc.rest...), append([]string{tc.cmd, model, "--model", model}, tc.rest...)} {
			code, _, errs := songc(t, context.Background(), args...)
			if code != 2 || !strings.Contains(errs, "songc "+tc.cmd+": ") || !strings.HasSuffix(errs, hint) {
				t.Errorf("%v: exit %d %q; want exit 2 and %q", args, code, errs, hint)
			}
		}
	}
}

// TestNonUTF8: a file in a legacy encoding (Latin-1 here) is refused by
// train, and by predict for a model trained on its UTF-8 copy, naming
// the first byte that is not UTF-8; read on, "café" and "cafë" would both
// be "caf\uFFFD", one class.
func TestNonUTF8(t *testing.T) {
	dir := t.TempDir()
	var latin, utf strings.Builder
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&latin, "%d,%d,%s\n", i%2, (i/2)%2, []string{"caf\xe9", "caf\xeb"}[i%2])
		fmt.Fprintf(&utf, "%d,%d,%s\n", i%2, (i/2)%2, []string{"café", "cafë"}[i%2])
	}
	p, u := filepath.Join(dir, "latin1.csv"), filepath.Join(dir, "utf8.csv")
	os.WriteFile(p, []byte(latin.String()), 0o644)
	os.WriteFile(u, []byte(utf.String()), 0o644)
	model := filepath.Join(dir, "m.json")
	train := []string{"train", "-o", model, "--nodes", "2", "--steps", "2", "--epochs", "2", "-q", "--data"}
	want := "latin1.csv:1:8: byte 0xE9 is not UTF-8 text"
	if code, _, errs := songc(t, context.Background(), append(train, p)...); code == 0 || !strings.Contains(errs, want) || !strings.Contains(errs, "iconv") {
		t.Errorf("train on Latin-1: exit %d, %s; want %q", code, errs, want)
	}
	if _, err := os.Stat(model); err == nil {
		t.Error("train on Latin-1 wrote a model")
	}
	if code, _, errs := songc(t, context.Background(), append(train, u)...); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := songc(t, context.Background(), "predict", model, "--data", p); code == 0 || !strings.Contains(errs, want) {
		t.Errorf("predict on Latin-1: exit %d, %s; want %q", code, errs, want)
	}
}
