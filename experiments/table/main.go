// Command table prints the results of experiments/paper.sh runs as a Markdown
// table, from their result files only (eval.json, analyze.json,
// result.json, training.json, model.log.jsonl under runs/NAME/;
// model.json's "training" object where an older run has no
// training.json). Runs that differ only by seed (NAME-sSEED) and ran on the
// same kernel are grouped: mean, and min..max.
//
// "Epochs to paper" is, per seed, the first epoch whose test accuracy in
// the per-epoch log reaches the paper's figure ("paper − 1": comes within
// one percentage point of it, issue 6's target): soft model / hard walk
// (the hard walk's test accuracy is logged by songc since issue 6; "–":
// never, "?": not logged). With -curves DIR, the accuracy curves of each
// group's first run are drawn to DIR/NAME-curves.png and linked.
//
// With -refined it prints the hard walk before and after experiments/refine.sh;
// with -selected, the graphs experiments/select.sh kept (folders NAME-pickK-sS).
//
//	go run ./table [-runs runs] [-match REGEXP] [-skip REGEXP] [-curves img/curves]
//	go run ./table -refined [-refine-tag -ridge0.001] [-match REGEXP] [-skip REGEXP]
//	go run ./table -selected [-match REGEXP]
package main

import (
	"cmp"
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

	"github.com/songc/songc/analysis"
	"github.com/songc/songc/runtime"
)

// paper holds the SONG-S test accuracies of the paper (spec section 5) for
// the experiments of experiments/paper.sh.
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
	dir                       string
	log                       []analysis.LogRecord
	// After experiments/refine.sh, when refined.
	refined                      bool
	rSoft, rHard, rFid, rSeconds float64
	rUsed, rPasses, rSelected    int
}

// reach returns the first epoch whose accuracy f reaches target, "–" when
// none does and "?" when the log does not hold f.
func (r run) reach(target float64, f func(analysis.LogRecord) float64) string {
	logged := false
	for _, rec := range r.log {
		v := f(rec)
		logged = logged || v > 0
		if v >= target-1e-9 {
			return fmt.Sprint(rec.Epoch)
		}
	}
	if !logged {
		return "?"
	}
	return "–"
}

func main() {
	dir := flag.String("runs", "runs", "folder of runs")
	match := flag.String("match", ".", "only runs whose name matches this regular expression")
	skip := flag.String("skip", "", "leave out runs whose name matches this regular expression")
	curves := flag.String("curves", "", "draw each group's accuracy curves into this folder and link them")
	refined := flag.Bool("refined", false, "the before/after table of experiments/refine.sh, for the runs it refined")
	flag.StringVar(&refineTag, "refine-tag", "", "with -refined, the files of a experiments/refine.sh variant (-ridge0.001 for RIDGE=0.001)")
	selected := flag.Bool("selected", false, "the table of experiments/select.sh: the graph kept of several restarts")
	flag.Parse()
	re, err := regexp.Compile(*match)
	if err != nil {
		fail(err)
	}
	skipRe, err := regexp.Compile(*skip)
	if err != nil {
		fail(err)
	}
	if *skip == "" {
		skipRe = nil
	}
	entries, err := os.ReadDir(*dir)
	if err != nil {
		fail(err)
	}
	seedRe := regexp.MustCompile(`^(.*)-s(\d+)$`)
	if *selected {
		selectedTable(*dir, entries, re, seedRe)
		return
	}
	groups := map[string][]run{}
	var order []string
	for _, e := range entries {
		if !e.IsDir() || !re.MatchString(e.Name()) || pickRe.MatchString(e.Name()) || skipRe != nil && skipRe.MatchString(e.Name()) {
			continue
		}
		r, err := load(filepath.Join(*dir, e.Name()))
		if err != nil {
			fmt.Fprintf(os.Stderr, "table: skipping %s: %v\n", e.Name(), err)
			continue
		}
		if *refined && !r.refined {
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
	for _, rs := range groups { // seed 10 after 9, not after 1
		slices.SortStableFunc(rs, func(a, b run) int { return cmp.Compare(seedNumber(a.seed), seedNumber(b.seed)) })
	}
	if *refined {
		refinedTable(order, groups)
		return
	}
	fmt.Println("| run | paper | soft test % | hard walk (compiled) % | fidelity % | used nodes | best epoch / epochs | epochs to paper (soft / hard) | epochs to paper − 1 (soft / hard) | wall time | seeds | kernel | curves |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	drawn := map[string]bool{}
	for _, g := range order {
		rs := groups[g]
		name, _, _ := strings.Cut(g, " | ")
		key := experiment(name)
		seeds := make([]string, 0, len(rs))
		for _, r := range rs {
			if r.seed == "" {
				seeds = append(seeds, "1")
			} else {
				seeds = append(seeds, r.seed)
			}
		}
		reach, reach1 := "–", "–"
		if target, err := strconv.ParseFloat(strings.Fields(paper[key] + " x")[0], 64); err == nil {
			reachAll := func(target float64) string {
				var per []string
				for _, r := range rs {
					per = append(per, r.reach(target/100, func(l analysis.LogRecord) float64 { return l.TestAcc })+" / "+
						r.reach(target/100, func(l analysis.LogRecord) float64 { return l.HardTestAcc }))
				}
				return strings.Join(per, ", ")
			}
			reach, reach1 = reachAll(target), reachAll(target-1)
		}
		link := "–"
		if *curves != "" {
			file := name
			if drawn[file] { // the same runs on another kernel
				file += "-" + rs[0].kernel
			}
			drawn[file] = true
			if err := drawCurves(rs[0], file, *curves); err != nil {
				fail(err)
			}
			link = fmt.Sprintf("[png](%s)", filepath.ToSlash(filepath.Join(*curves, file+"-curves.png")))
		}
		fmt.Printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", name, orDash(paper[key]),
			stat(rs, func(r run) float64 { return 100 * r.soft }, "%.2f"),
			stat(rs, func(r run) float64 { return 100 * r.hard }, "%.2f"),
			stat(rs, func(r run) float64 { return 100 * r.fid }, "%.1f"),
			stat(rs, func(r run) float64 { return float64(r.used) }, "%.0f")+fmt.Sprintf(" of %d", rs[0].nodes),
			fmt.Sprintf("%s / %d", stat(rs, func(r run) float64 { return float64(r.best) }, "%.0f"), rs[0].epochs),
			reach, reach1,
			stat(rs, func(r run) float64 { return r.seconds / 60 }, "%.1f")+" min",
			strings.Join(seeds, ","), rs[0].kernel, link)
	}
}

// refinedTable prints the hard walk before and after experiments/refine.sh.
func refinedTable(order []string, groups map[string][]run) {
	fmt.Println("| run | paper | hard walk (compiled) % before | after refine | soft after % | fidelity after % | used nodes before → after | passes (selected) | refine time | seeds |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
	for _, g := range order {
		rs := groups[g]
		name, _, _ := strings.Cut(g, " | ")
		var seeds []string
		for _, r := range rs {
			seeds = append(seeds, orDash(r.seed))
		}
		passes := make([]string, len(rs))
		for i, r := range rs {
			passes[i] = fmt.Sprintf("%d (%d)", r.rPasses, r.rSelected)
		}
		fmt.Printf("| %s | %s | %s | %s | %s | %s | %s → %s | %s | %s | %s |\n", name, orDash(paper[experiment(name)]),
			stat(rs, func(r run) float64 { return 100 * r.hard }, "%.2f"),
			stat(rs, func(r run) float64 { return 100 * r.rHard }, "%.2f"),
			stat(rs, func(r run) float64 { return 100 * r.rSoft }, "%.2f"),
			stat(rs, func(r run) float64 { return 100 * r.rFid }, "%.1f"),
			stat(rs, func(r run) float64 { return float64(r.used) }, "%.0f"),
			stat(rs, func(r run) float64 { return float64(r.rUsed) }, "%.0f"),
			strings.Join(passes, ", "),
			stat(rs, func(r run) float64 { return r.rSeconds / 60 }, "%.1f")+" min",
			strings.Join(seeds, ","))
	}
}

// pickRe matches the folders of experiments/select.sh.
var pickRe = regexp.MustCompile(`-pick\d+(-ridge[^-]*)?-s\d+$`)

// pick is one experiments/select.sh result.
type pick struct {
	seed                string
	soft, hard, fid     float64
	used, nodes         int
	restart, candidates int
	seconds             float64
	candHard            []float64 // each candidate's hard-walk test accuracy
}

// selectedTable prints the graphs that experiments/select.sh kept, grouped by
// seed like the other tables.
func selectedTable(dir string, entries []os.DirEntry, re, seedRe *regexp.Regexp) {
	groups := map[string][]pick{}
	var order []string
	for _, e := range entries {
		if !e.IsDir() || !re.MatchString(e.Name()) || !pickRe.MatchString(e.Name()) {
			continue
		}
		p, err := loadPick(filepath.Join(dir, e.Name()))
		if err != nil {
			fmt.Fprintf(os.Stderr, "table: skipping %s: %v\n", e.Name(), err)
			continue
		}
		m := seedRe.FindStringSubmatch(e.Name())
		g := m[1]
		p.seed = m[2]
		if _, ok := groups[g]; !ok {
			order = append(order, g)
		}
		groups[g] = append(groups[g], p)
	}
	slices.Sort(order)
	fmt.Println("| run | paper | hard walk (compiled) % | soft % | fidelity % | used nodes | one graph: hard walk % (all candidates) | best candidate on test (the authors' choice; not songc's) | restart kept | wall time, all candidates | seeds |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|")
	for _, g := range order {
		ps := groups[g]
		col := func(f func(pick) float64, format string) string { return stat(ps, f, format) }
		var cand []float64
		var kept, seeds []string
		for _, p := range ps {
			for _, h := range p.candHard {
				cand = append(cand, h)
			}
			kept = append(kept, fmt.Sprintf("%d of %d", p.restart, p.candidates))
			seeds = append(seeds, p.seed)
		}
		fmt.Printf("| %s | %s | %s | %s | %s | %s of %d | %s | %s | %s | %s | %s |\n", g, orDash(paper[experiment(g)]),
			col(func(p pick) float64 { return 100 * p.hard }, "%.2f"),
			col(func(p pick) float64 { return 100 * p.soft }, "%.2f"),
			col(func(p pick) float64 { return 100 * p.fid }, "%.1f"),
			col(func(p pick) float64 { return float64(p.used) }, "%.0f"), ps[0].nodes,
			stat(cand, func(h float64) float64 { return 100 * h }, "%.2f"),
			col(func(p pick) float64 { return 100 * slices.Max(p.candHard) }, "%.2f"),
			strings.Join(kept, ", "),
			col(func(p pick) float64 { return p.seconds / 60 }, "%.1f")+" min",
			strings.Join(seeds, ","))
	}
}

// loadPick reads what experiments/select.sh wrote.
func loadPick(dir string) (pick, error) {
	var p pick
	ev, an, err := readEvalAnalyze(dir, "eval.json", "analyze.json")
	if err != nil {
		return p, err
	}
	var sel struct {
		Selected   string `json:"selected"`
		Candidates []struct {
			Model   string `json:"model"`
			Restart int    `json:"restart"`
			Test    struct {
				Hard float64 `json:"hard_accuracy"`
			} `json:"test"`
		} `json:"candidates"`
	}
	if err := readJSON(filepath.Join(dir, "select.json"), &sel); err != nil {
		return p, err
	}
	var res struct {
		Seconds float64 `json:"wall_seconds_all_candidates"`
	}
	if err := readJSON(filepath.Join(dir, "result.json"), &res); err != nil {
		return p, err
	}
	for _, c := range sel.Candidates {
		p.candHard = append(p.candHard, c.Test.Hard)
		if c.Model == sel.Selected {
			p.restart = c.Restart
		}
	}
	p.soft, p.hard, p.fid = ev.Soft, ev.Hard, ev.Fid
	p.used, p.nodes = an.Used, an.Nodes
	p.candidates, p.seconds = len(sel.Candidates), res.Seconds
	return p, nil
}

// experiment is the experiment of a run name: its first three fields.
func experiment(name string) string {
	base := strings.SplitN(name, "-", 4)
	return strings.Join(base[:min(3, len(base))], "-")
}

// drawCurves draws the accuracy curves of r's log to dir/name-curves.png.
func drawCurves(r run, name, dir string) error {
	tmp, err := os.MkdirTemp("", "table-curves")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := analysis.PlotCurves(r.log, tmp); err != nil {
		return fmt.Errorf("%s: %v", r.dir, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	b, err := os.ReadFile(filepath.Join(tmp, "curves.png"))
	if err != nil {
		return err
	}
	return runtime.WriteFileAtomic(filepath.Join(dir, name+"-curves.png"), func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

// stat is the mean of f over rs, with the range when there are several.
func stat[T any](rs []T, f func(T) float64, format string) string {
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
	ev, an, err := readEvalAnalyze(dir, "eval.json", "analyze.json")
	if err != nil {
		return r, err
	}
	var training struct {
		Epochs    int    `json:"epochs"`
		BestEpoch int    `json:"best_epoch"`
		Kernel    string `json:"kernel"`
	}
	if err := readTraining(dir, "training.json", "model.json", &training); err != nil {
		return r, err
	}
	// Wall time: the sum of the epochs' seconds in the log (a resumed run's
	// sessions add up).
	log, err := analysis.ReadLog(filepath.Join(dir, "model.log.jsonl"))
	if err != nil {
		return r, err
	}
	for _, rec := range log {
		r.seconds += rec.Seconds
	}
	r.log, r.dir = log, dir
	r.soft, r.hard, r.fid = ev.Soft, ev.Hard, ev.Fid
	r.used, r.nodes = an.Used, an.Nodes
	r.epochs, r.best, r.kernel = training.Epochs, training.BestEpoch, training.Kernel
	return r, loadRefined(&r, dir)
}

// refineTag names the experiments/refine.sh variant that -refined reads.
var refineTag string

// loadRefined reads what experiments/refine.sh wrote, if it ran.
func loadRefined(r *run, dir string) error {
	if _, err := os.Stat(filepath.Join(dir, "refine"+refineTag+"-eval.json")); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	ev, an, err := readEvalAnalyze(dir, "refine"+refineTag+"-eval.json", "refine"+refineTag+"-analyze.json")
	if err != nil {
		return err
	}
	var training struct {
		Refine struct {
			Selected int               `json:"selected_pass"`
			Log      []json.RawMessage `json:"log"`
		} `json:"refine"`
	}
	if err := readTraining(dir, "refine"+refineTag+"-training.json", "refined"+refineTag+".json", &training); err != nil {
		return err
	}
	var res struct {
		Seconds float64 `json:"wall_seconds"`
	}
	if err := readJSON(filepath.Join(dir, "refine"+refineTag+"-result.json"), &res); err != nil {
		return err
	}
	r.refined = true
	r.rSoft, r.rHard, r.rFid, r.rSeconds = ev.Soft, ev.Hard, ev.Fid, res.Seconds
	r.rUsed, r.rSelected = an.Used, training.Refine.Selected
	r.rPasses = len(training.Refine.Log) - 1
	return nil
}

// readTraining reads a model's training metadata into v: the file name
// (what experiments/paper.sh and experiments/refine.sh write, and commit, beside the
// model) or, for runs made before they wrote it, the "training" object of
// the model file modelName.
func readTraining(dir, name, modelName string, v any) error {
	err := readJSON(filepath.Join(dir, name), v)
	if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	var model struct {
		Training json.RawMessage `json:"training"`
	}
	if err := readJSON(filepath.Join(dir, modelName), &model); err != nil {
		return err
	}
	return json.Unmarshal(model.Training, v)
}

// evalFile is what table reads of songc eval --json.
type evalFile struct {
	Soft float64 `json:"soft_accuracy"`
	Hard float64 `json:"hard_accuracy"`
	Fid  float64 `json:"fidelity"`
}

// graphSize is what table reads of songc analyze --json.
type graphSize struct {
	Nodes int `json:"nodes"`
	Used  int `json:"used_nodes"`
}

// readEvalAnalyze reads an eval and an analyze file of dir.
func readEvalAnalyze(dir, evalName, analyzeName string) (evalFile, graphSize, error) {
	var ev evalFile
	var an struct {
		Graph graphSize `json:"graph"`
	}
	if err := readJSON(filepath.Join(dir, evalName), &ev); err != nil {
		return ev, an.Graph, err
	}
	err := readJSON(filepath.Join(dir, analyzeName), &an)
	return ev, an.Graph, err
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

// seedNumber is a run's seed as a number, 0 when it has none.
func seedNumber(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
