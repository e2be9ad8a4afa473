// Command table prints the results of bench/paper.sh runs as a Markdown
// table, from their result files only (eval.json, analyze.json,
// result.json, model.json, model.log.jsonl under bench/runs/NAME/). Runs
// that differ only by seed (NAME-sSEED) and ran on the same kernel are
// grouped: mean, and min..max.
//
//	go run ./bench/table [-runs bench/runs] [-match REGEXP]
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// paper holds the SONG-S test accuracies of the paper (spec section 5) for
// the experiments of bench/paper.sh.
var paper = map[string]string{
	"letter-64-20":    "78.70",
	"letter-128-30":   "83.05",
	"letter-511-50":   "86.25",
	"connect4-8-10":   "80.27",
	"connect4-255-10": "82.82",
	"mnist-64-20":     "94.66",
	"mnist-255-50":    "95.74",
	"mnistcnn-16-8":   "98.23 (98.81 fine-tuned)",
}

type run struct {
	name, group, seed         string
	soft, hard, fid           float64
	used, nodes, epochs, best int
	seconds                   float64
	kernel, flags             string
}

func main() {
	dir := flag.String("runs", "bench/runs", "folder of runs")
	match := flag.String("match", ".", "only runs whose name matches this regular expression")
	flag.Parse()
	re, err := regexp.Compile(*match)
	if err != nil {
		fail(err)
	}
	entries, err := os.ReadDir(*dir)
	if err != nil {
		fail(err)
	}
	seedRe := regexp.MustCompile(`^(.*)-s(\d+)$`)
	groups := map[string][]run{}
	var order []string
	for _, e := range entries {
		if !e.IsDir() || !re.MatchString(e.Name()) {
			continue
		}
		r, err := load(filepath.Join(*dir, e.Name()))
		if err != nil {
			fmt.Fprintf(os.Stderr, "table: skipping %s: %v\n", e.Name(), err)
			continue
		}
		r.name, r.group = e.Name(), e.Name()
		if m := seedRe.FindStringSubmatch(e.Name()); m != nil {
			r.group, r.seed = m[1], m[2]
		}
		r.group += " | " + r.kernel // runs of different kernels are not pooled
		if _, ok := groups[r.group]; !ok {
			order = append(order, r.group)
		}
		groups[r.group] = append(groups[r.group], r)
	}
	slices.Sort(order)
	fmt.Println("| run | paper | soft test % | hard walk (compiled) % | fidelity % | used nodes | best epoch / epochs | wall time | seeds | kernel |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
	for _, g := range order {
		rs := groups[g]
		name, _, _ := strings.Cut(g, " | ")
		base := strings.SplitN(name, "-", 4)
		key := strings.Join(base[:min(3, len(base))], "-")
		seeds := make([]string, 0, len(rs))
		for _, r := range rs {
			if r.seed == "" {
				seeds = append(seeds, "1")
			} else {
				seeds = append(seeds, r.seed)
			}
		}
		fmt.Printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", name, orDash(paper[key]),
			stat(rs, func(r run) float64 { return 100 * r.soft }, "%.2f"),
			stat(rs, func(r run) float64 { return 100 * r.hard }, "%.2f"),
			stat(rs, func(r run) float64 { return 100 * r.fid }, "%.1f"),
			stat(rs, func(r run) float64 { return float64(r.used) }, "%.0f")+fmt.Sprintf(" of %d", rs[0].nodes),
			fmt.Sprintf("%s / %d", stat(rs, func(r run) float64 { return float64(r.best) }, "%.0f"), rs[0].epochs),
			stat(rs, func(r run) float64 { return r.seconds / 60 }, "%.1f")+" min",
			strings.Join(seeds, ","), rs[0].kernel)
	}
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

// stat is the mean of f over rs, with the range when there are several.
func stat(rs []run, f func(run) float64, format string) string {
	var sum float64
	lo, hi := f(rs[0]), f(rs[0])
	for _, r := range rs {
		v := f(r)
		sum += v
		lo, hi = min(lo, v), max(hi, v)
	}
	mean := fmt.Sprintf(format, sum/float64(len(rs)))
	if len(rs) == 1 {
		return mean
	}
	return fmt.Sprintf("%s (%s..%s)", mean, fmt.Sprintf(format, lo), fmt.Sprintf(format, hi))
}

func load(dir string) (run, error) {
	var r run
	var ev struct {
		Soft float64 `json:"soft_accuracy"`
		Hard float64 `json:"hard_accuracy"`
		Fid  float64 `json:"fidelity"`
	}
	if err := readJSON(filepath.Join(dir, "eval.json"), &ev); err != nil {
		return r, err
	}
	var an struct {
		Graph struct {
			Nodes int `json:"nodes"`
			Used  int `json:"used_nodes"`
		} `json:"graph"`
	}
	if err := readJSON(filepath.Join(dir, "analyze.json"), &an); err != nil {
		return r, err
	}
	var model struct {
		Training struct {
			Epochs    int    `json:"epochs"`
			BestEpoch int    `json:"best_epoch"`
			Kernel    string `json:"kernel"`
		} `json:"training"`
	}
	if err := readJSON(filepath.Join(dir, "model.json"), &model); err != nil {
		return r, err
	}
	// Wall time: the sum of the epochs' seconds in the log (a resumed run's
	// sessions add up).
	f, err := os.Open(filepath.Join(dir, "model.log.jsonl"))
	if err != nil {
		return r, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var rec struct {
			Seconds float64 `json:"seconds"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return r, err
		}
		r.seconds += rec.Seconds
	}
	r.soft, r.hard, r.fid = ev.Soft, ev.Hard, ev.Fid
	r.used, r.nodes = an.Graph.Used, an.Graph.Nodes
	r.epochs, r.best, r.kernel = model.Training.Epochs, model.Training.BestEpoch, model.Training.Kernel
	return r, nil
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "table:", err)
	os.Exit(1)
}
