package golden

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/songc/songc/compiler"
	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer"
	"github.com/songc/songc/trainer/data"
)

// e2eMain reads rows of float64 bit patterns (hex, one row per line) and
// prints, per row, Predict's class and Explain's class and decisions, with
// margins as bit patterns, so that the comparison is exact.
const e2eMain = `package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	gen "e2e/gen"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	buf := make([]gen.Decision, 0, gen.Steps)
	for in.Scan() {
		var x [gen.NumFeatures]float64
		for j, f := range strings.Fields(in.Text()) {
			u, _ := strconv.ParseUint(f, 16, 64)
			x[j] = math.Float64frombits(u)
		}
		c, path := gen.Explain(&x, buf)
		fmt.Fprintf(out, "%d %d", gen.Predict(&x), c)
		for _, d := range path {
			fmt.Fprintf(out, " %d:%x:%t:%d:%t", d.Node, math.Float64bits(d.Margin), d.Right, d.Next, d.Forced)
		}
		fmt.Fprintln(out)
	}
}
`

// runtimeLine is what e2eMain must print for x, computed by the runtime.
func runtimeLine(k *runtime.Classifier, x []float64) string {
	res, path := k.Walk(x, make([]float64, len(x)), []runtime.Step{})
	var b strings.Builder
	fmt.Fprintf(&b, "%d %d", res.Class, res.Class)
	for i, s := range path {
		forced := res.Forced && i == len(path)-1
		fmt.Fprintf(&b, " %d:%x:%t:%d:%t", s.Node, math.Float64bits(s.Margin), s.Right, s.Next, forced)
	}
	return b.String()
}

// boundaryInputs returns inputs on decision boundaries of k: for each
// reachable node i and feature j, x has v = 0 everywhere but feature j,
// chosen so that w_ij*x_j rounds to exactly -b_i (margin exactly 0) when
// such an x_j exists, plus its neighbours one ULP either side. It also
// returns how many inputs have a margin of exactly 0 at their node.
func boundaryInputs(k *runtime.Classifier, nodes []int) (xs [][]float64, exact int) {
	d := k.NumFeatures()
	v := make([]float64, d)
	for _, i := range nodes {
		w, b := k.Weights(i), k.Bias(i)
		for j, wj := range w {
			if wj == 0 {
				continue
			}
			q := -b / wj
			x := make([]float64, d)
			x[j] = q
			k.Preprocess(v, x)
			if k.Margin(i, v) == 0 {
				exact++
			}
			for _, xj := range []float64{q, math.Nextafter(q, math.Inf(1)), math.Nextafter(q, math.Inf(-1))} {
				x := make([]float64, d)
				x[j] = xj
				xs = append(xs, x)
			}
		}
	}
	return xs, exact
}

// TestEndToEnd trains a small Letter model, compiles it with both layouts,
// builds each with a small main in a temporary module (go run), and
// requires every decision of every test row, and of inputs on decision
// boundaries, to equal the runtime's hard walk bit for bit.
func TestEndToEnd(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatal("the go command is needed to build generated code")
	}
	train, test, err := data.Letter()
	if err != nil {
		t.Fatal(err)
	}
	task, err := trainer.NewTask(train, test)
	if err != nil {
		t.Fatal(err)
	}
	// Raw inputs (no preprocessing), so that exact boundary inputs can be
	// constructed; preprocessing is covered by the golden and fuzz tests.
	cfg := trainer.Config{Nodes: 24, Steps: 8, Epochs: 6, Batch: 128, LR: 0.05, Seed: 3, Precision: "f64", Val: 0.1}
	r, err := trainer.NewRun(cfg, task)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Train(context.Background()); err != nil {
		t.Fatal(err)
	}
	trained, err := r.Model("e2e")
	if err != nil {
		t.Fatal(err)
	}
	// A constant walk (every edge leads to one class's leaf, as the
	// majority check's model does): Predict returns that class without
	// reading x, and must still agree with the walk on every input.
	constant := randomModel(5, 26, 4, 16, 10)
	for _, logits := range [][][]float64{constant.M0Logits, constant.M1Logits} {
		for s, row := range logits {
			for j := range row {
				row[j] = 0
				if s == constant.Nodes+7 {
					row[j] = 4
				}
			}
		}
	}
	for name, m := range map[string]*runtime.Model{"trained": trained, "random": randomModel(40, 26, 4, 16, 9), "constant": constant} {
		t.Run(name, func(t *testing.T) { endToEnd(t, m, test, name == "random") })
	}
}

// randomModel returns a model with spread-out logits (many reachable nodes,
// cycles, forced exits) and filters centred on Letter's feature range.
func randomModel(n, c, steps, d int, seed uint64) *runtime.Model {
	rng := rand.New(rand.NewPCG(seed, 1))
	logit := func() float64 { return 4 * rng.NormFloat64() }
	m := &runtime.Model{Format: runtime.Format, Nodes: n, Classes: c, Steps: steps, Features: d,
		M0Logits: randMatrix(n+c, n, logit), M1Logits: randMatrix(n+c, n, logit),
		W: randMatrix(n, d, rng.NormFloat64), B: make([]float64, n)}
	for i, w := range m.W {
		var sum float64
		for _, v := range w {
			sum += v
		}
		m.B[i] = -7.5*sum + rng.NormFloat64()
	}
	return m
}

// endToEnd checks one model; wantForced requires some test rows to need a
// forced exit, so that the rule is exercised.
func endToEnd(t *testing.T, m *runtime.Model, test *data.Dataset, wantForced bool) {
	k, err := runtime.New(m)
	if err != nil {
		t.Fatal(err)
	}
	forced := k.Evaluate(test.X, make([]int, test.Rows)).ForcedExits
	if wantForced && forced == 0 {
		t.Fatal("no test row needs a forced exit; the test would not exercise the rule")
	}
	var rows [][]float64
	for i := 0; i < test.Rows; i++ {
		rows = append(rows, test.Row(i))
	}
	plan, err := compiler.NewPlan(m, compiler.Options{})
	if err != nil {
		t.Fatal(err)
	}
	bound, exact := boundaryInputs(k, plan.Nodes)
	if exact == 0 {
		t.Fatal("no input with a margin of exactly 0 could be constructed")
	}
	t.Logf("%d test rows (%d with forced exits), %d boundary inputs (%d exactly on a boundary), %d nodes emitted", len(rows), forced, len(bound), exact, len(plan.Nodes))
	rows = append(rows, bound...)
	// A few hostile inputs: infinities and NaN route left wherever they make
	// a margin NaN, in both implementations.
	for _, v := range []float64{math.Inf(1), math.Inf(-1), math.NaN(), math.MaxFloat64, -0.0} {
		x := make([]float64, k.NumFeatures())
		for j := range x {
			x[j] = v
		}
		rows = append(rows, x)
	}

	var input strings.Builder
	want := make([]string, len(rows))
	for i, x := range rows {
		for j, v := range x {
			if j > 0 {
				input.WriteByte(' ')
			}
			input.WriteString(strconv.FormatUint(math.Float64bits(v), 16))
		}
		input.WriteByte('\n')
		want[i] = runtimeLine(k, x)
	}

	for _, layout := range []compiler.Layout{compiler.LayoutUnrolled, compiler.LayoutTables} {
		t.Run(layout.String(), func(t *testing.T) {
			runGenerated(t, m, layout, e2eMain, input.String(), want, func(i int) any { return rows[i] })
		})
	}
}

// runGenerated compiles m with layout into package gen of a temporary
// module whose main is mainSrc, runs it (go run) with input on stdin, and
// requires its output lines to equal want; row(i) shows input i in an
// error.
func runGenerated(t *testing.T, m *runtime.Model, layout compiler.Layout, mainSrc, input string, want []string, row func(i int) any) {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module e2e\n\ngo 1.22\n")
	writeFile(t, filepath.Join(dir, "main.go"), mainSrc)
	if err := os.Mkdir(filepath.Join(dir, "gen"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := compiler.Save(filepath.Join(dir, "gen", "gen.go"), m, compiler.Options{Package: "gen", Layout: layout, Version: "e2e"}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", ".")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(input)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go run: %v", err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	i, bad := 0, 0
	for sc.Scan() {
		if i < len(want) && sc.Text() != want[i] && bad < 5 {
			t.Errorf("row %d (%v):\n  generated %s\n  runtime   %s", i, row(i), sc.Text(), want[i])
			bad++
		}
		i++
	}
	if i != len(want) {
		t.Errorf("generated code printed %d lines for %d rows", i, len(want))
	}
}

// randMatrix returns a rows x cols matrix of f's values, row by row.
func randMatrix(rows, cols int, f func() float64) [][]float64 {
	out := make([][]float64, rows)
	for i := range out {
		out[i] = make([]float64, cols)
		for j := range out[i] {
			out[i][j] = f()
		}
	}
	return out
}
