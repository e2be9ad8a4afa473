package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/table.md with the table printed")

// TestTable prints the table of testdata/runs and compares it with
// testdata/table.md. The runs are made up so that every figure can be
// checked by hand: Letter 64/20 has two refined seeds (hard walk 81% and
// 83% refined, so 82.00 (81.00..83.00); 120 s and 180 s of logged epochs,
// so 2.5 min (2.0..3.0); a blank line in seed 2's log is skipped), an
// unfinished seed 3 (no eval.json) and a folder of another recipe, which
// are left out; MNIST 255/50 has one seed trained, not refined (3600 s:
// 60.0 min); the other rows have no runs.
func TestTable(t *testing.T) {
	var got bytes.Buffer
	if err := write(&got, filepath.Join("testdata", "runs"), true); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "table.md")
	if *update {
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		gl, wl := strings.Split(got.String(), "\n"), strings.Split(string(want), "\n")
		for i := range max(len(gl), len(wl)) {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Errorf("line %d:\n got %s\nwant %s", i+1, g, w)
			}
		}
	}
}

// TestTableNoTimes: with times off, the table is the golden one without
// its training and refining columns, the 8th and 9th.
func TestTableNoTimes(t *testing.T) {
	var got bytes.Buffer
	if err := write(&got, filepath.Join("testdata", "runs"), false); err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile(filepath.Join("testdata", "table.md"))
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for _, line := range strings.SplitAfter(string(golden), "\n") {
		if line == "" {
			continue
		}
		cells := strings.Split(line, "|") // cells[0] is before the first bar
		want.WriteString(strings.Join(append(cells[:8], cells[10:]...), "|"))
	}
	if got.String() != want.String() {
		t.Errorf("got\n%s\nwant\n%s", got.String(), want.String())
	}
}

// TestBadLog checks that a log line that is not JSON, or has no seconds,
// is an error naming the file and line, not a time of zero.
func TestBadLog(t *testing.T) {
	for _, tc := range []struct{ log, want string }{
		{"{\"seconds\": 1}\n{\"seconds\": \n", "model.log.jsonl:2:"},
		{"{\"seconds\": 1}\n{\"epoch\": 2}\n", "model.log.jsonl:2: no seconds"},
	} {
		dir := t.TempDir()
		run := filepath.Join(dir, "letter-64-20-fastlr10wd01-s1")
		if err := os.Mkdir(run, 0o755); err != nil {
			t.Fatal(err)
		}
		files := map[string]string{
			"eval.json":       `{"soft_accuracy": 0.8, "hard_accuracy": 0.8, "fidelity": 1}`,
			"model.log.jsonl": tc.log,
		}
		for name, body := range files {
			if err := os.WriteFile(filepath.Join(run, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		err := write(new(bytes.Buffer), dir, true)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("log %q: error %v, want one containing %q", tc.log, err, tc.want)
		}
	}
}

// TestRefineWithoutResult checks that a refined run without
// refine-result.json is an error: its refining time would be missing.
func TestRefineWithoutResult(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "mnist-64-20-wd01-s1")
	if err := os.Mkdir(run, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"eval.json":        `{"hard_accuracy": 0.9}`,
		"refine-eval.json": `{"hard_accuracy": 0.91}`,
		"model.log.jsonl":  `{"seconds": 3}`,
	} {
		if err := os.WriteFile(filepath.Join(run, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := write(new(bytes.Buffer), dir, true); err == nil || !strings.Contains(err.Error(), "refine-result.json") {
		t.Errorf("error %v, want one naming refine-result.json", err)
	}
}

// TestRecipesInScript checks that bench/recipe.sh writes the run folders
// this table reads: each recipe's name appears in it.
func TestRecipesInScript(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("..", "recipe.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recipes {
		if !bytes.Contains(script, []byte(r.Name)) {
			t.Errorf("bench/recipe.sh does not name %s", r.Name)
		}
	}
}
