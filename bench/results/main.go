// Command results prints the results table of docs/RESULTS.md from run
// folders: one row per row of the paper's tables, with the recipe songc
// recommends for it.
//
//	go run ./bench/results [-runs bench/runs] [-times=false]
//
// A run folder is what bench/recipe.sh writes, RUNS/NAME-sSEED with NAME one
// of the names in recipes: eval.json (songc eval --json of the trained model
// on the test rows), model.log.jsonl (the per-epoch log), and, once the
// model is refined, refine-eval.json and refine-result.json. The folders
// that docs/RESULTS.md quotes are kept in git under experiments/runs:
//
//	go run ./bench/results -runs experiments/runs -times=false
//
// The seeds of a recipe are pooled: mean (min..max). Training time is the
// sum of the logged epoch times, so a run resumed from a checkpoint counts
// every epoch once. Only the standard library and songc's runtime are used,
// so that the table does not depend on the trainer.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/songc/songc/runtime"
)

// recipe is one row of the table: the run folders NAME-sSEED of the recipe
// recommended for one row of the paper's tables.
type recipe struct {
	Name  string // run folder name without -sSEED; bench/recipe.sh uses the same
	Set   string
	Size  string // nodes / steps
	Paper string // the paper's test accuracy (SONG-S), %
}

// recipes are the rows of docs/RESULTS.md, in its order. The paper's
// figures are the test accuracies of its shallow SONG (Struski et al.,
// WACV 2023: the comparison with soft decision trees and the node-by-step
// grids of its supplement); for the CNN-feature row, of its deep SONG with
// 16 nodes and 8 steps before fine-tuning.
var recipes = []recipe{
	{"letter-64-20-fastlr10wd01", "Letter", "64 / 20", "78.70"},
	{"letter-128-30-fastlr10", "Letter", "128 / 30", "83.05"},
	{"letter-511-50-fastlr10", "Letter", "511 / 50", "86.25"},
	{"connect4-8-10-wd05e240st20", "Connect-4", "8 / 10", "80.27"},
	{"connect4-255-10-wd05e360st20lr003", "Connect-4", "255 / 10", "82.82"},
	{"mnist-64-20-wd01", "MNIST", "64 / 20", "94.66"},
	{"mnist-255-50-fast60wd01", "MNIST", "255 / 50", "95.74"},
	{"mnistcnn-16-8-fast", "MNIST, CNN features", "16 / 8", "98.23"},
}

// run holds the figures of one run folder.
type run struct {
	seed     int
	trained  runtime.Metrics // eval.json
	refined  *runtime.Metrics
	trainSec float64 // sum of the logged epoch times
	refSec   float64 // refine-result.json's wall_seconds
}

func main() {
	dir := flag.String("runs", "bench/runs", "folder of run folders")
	times := flag.Bool("times", true, "print the training and refining times (-times=false leaves them out, for runs of older builds)")
	flag.Parse()
	if err := write(os.Stdout, *dir, *times); err != nil {
		fmt.Fprintln(os.Stderr, "results:", err)
		os.Exit(1)
	}
}

// write prints the table of the runs under dir, with the training and
// refining times when times is set. A recipe without a finished run is a
// row of dashes, so that a partial reproduction still prints.
func write(w io.Writer, dir string, times bool) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	seedRe := regexp.MustCompile(`^(.+)-s(\d+)$`)
	runs := map[string][]run{}
	for _, e := range entries {
		m := seedRe.FindStringSubmatch(e.Name())
		if !e.IsDir() || m == nil || !slices.ContainsFunc(recipes, func(r recipe) bool { return r.Name == m[1] }) {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, e.Name(), "eval.json")); errors.Is(err, fs.ErrNotExist) {
			continue // not finished
		}
		r, err := load(filepath.Join(dir, e.Name()))
		if err != nil {
			return err
		}
		r.seed, _ = strconv.Atoi(m[2])
		runs[m[1]] = append(runs[m[1]], r)
	}
	var b bytes.Buffer
	head := []string{"set", "nodes / steps", "published", "compiled", "soft", "fidelity", "compiled before refining"}
	if times {
		head = append(head, "training", "refining")
	}
	head = append(head, "seeds")
	fmt.Fprintf(&b, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
	for _, rc := range recipes {
		rs := runs[rc.Name]
		slices.SortFunc(rs, func(a, b run) int { return a.seed - b.seed })
		var ref []run
		for _, r := range rs {
			if r.refined != nil {
				ref = append(ref, r)
			}
		}
		cells := []string{rc.Set, rc.Size, rc.Paper,
			stat(ref, func(r run) float64 { return 100 * r.refined.HardAccuracy }, "**%.2f**"),
			stat(ref, func(r run) float64 { return 100 * r.refined.SoftAccuracy }, "%.2f"),
			stat(ref, func(r run) float64 { return 100 * r.refined.Fidelity }, "%.1f"),
			stat(rs, func(r run) float64 { return 100 * r.trained.HardAccuracy }, "%.2f")}
		if times {
			cells = append(cells,
				stat(rs, func(r run) float64 { return r.trainSec / 60 }, "%.1f min"),
				stat(ref, func(r run) float64 { return r.refSec / 60 }, "%.1f min"))
		}
		fmt.Fprintf(&b, "| %s |\n", strings.Join(append(cells, seeds(rs, ref)), " | "))
	}
	_, err = w.Write(b.Bytes())
	return err
}

// load reads the result files of one run folder.
func load(dir string) (run, error) {
	var r run
	if err := readJSON(filepath.Join(dir, "eval.json"), &r.trained); err != nil {
		return r, err
	}
	sec, err := logSeconds(filepath.Join(dir, "model.log.jsonl"))
	if err != nil {
		return r, err
	}
	r.trainSec = sec
	var ref runtime.Metrics
	switch err := readJSON(filepath.Join(dir, "refine-eval.json"), &ref); {
	case errors.Is(err, fs.ErrNotExist):
		return r, nil // not refined (yet)
	case err != nil:
		return r, err
	}
	var res struct {
		Seconds *float64 `json:"wall_seconds"`
	}
	if err := readJSON(filepath.Join(dir, "refine-result.json"), &res); err != nil {
		return r, err
	}
	if res.Seconds == nil {
		return r, fmt.Errorf("%s: no wall_seconds", filepath.Join(dir, "refine-result.json"))
	}
	r.refined, r.refSec = &ref, *res.Seconds
	return r, nil
}

// logSeconds sums the "seconds" of every line of a per-epoch log
// (runlog.EpochRecord's JSON lines).
func logSeconds(path string) (float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var sum float64
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var rec struct {
			Seconds *float64 `json:"seconds"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return 0, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		if rec.Seconds == nil {
			return 0, fmt.Errorf("%s:%d: no seconds", path, line)
		}
		sum += *rec.Seconds
	}
	return sum, sc.Err()
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}

// stat is the mean of f over rs in format, which holds one %f verb
// between an optional "**" and an optional " min", followed by the range
// min..max in the plain verb when there are several runs; "–" when there
// are none.
func stat(rs []run, f func(run) float64, format string) string {
	if len(rs) == 0 {
		return "–"
	}
	var sum float64
	lo, hi := f(rs[0]), f(rs[0])
	for _, r := range rs {
		v := f(r)
		sum += v
		lo, hi = min(lo, v), max(hi, v)
	}
	out := fmt.Sprintf(format, sum/float64(len(rs)))
	if len(rs) > 1 {
		verb := strings.Trim(strings.TrimSuffix(format, " min"), "*")
		out += fmt.Sprintf(" ("+verb+".."+verb+")", lo, hi)
	}
	return out
}

// seeds lists the seeds of rs, and those of ref, the refined ones, when
// they are not all.
func seeds(rs, ref []run) string {
	list := func(rs []run) string {
		s := make([]string, len(rs))
		for i, r := range rs {
			s[i] = strconv.Itoa(r.seed)
		}
		return strings.Join(s, ",")
	}
	if len(rs) == 0 {
		return "–"
	}
	if len(ref) == len(rs) {
		return list(rs)
	}
	if len(ref) == 0 {
		return list(rs) + " (none refined)"
	}
	return list(rs) + " (refined: " + list(ref) + ")"
}
