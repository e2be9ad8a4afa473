package analysis_test

import (
	"bytes"
	"encoding/json"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/songc/songc/analysis"
	"github.com/songc/songc/runlog"
	"github.com/songc/songc/runtime"
)

// standardised is a one-node model on three features whose numbers make the
// folding easy by hand (see TestNodeRuleFolds).
func standardised() *runtime.Model {
	return &runtime.Model{Format: runtime.Format, Nodes: 1, Classes: 2, Steps: 1, Features: 3,
		ClassNames: []string{"no", "yes"},
		M0Logits:   [][]float64{{0}, {9}, {0}}, M1Logits: [][]float64{{0}, {0}, {9}},
		W: [][]float64{{2, -0.5, 1}}, B: []float64{0.4},
		InputShift: []float64{10, 4, 1}, InputScale: []float64{0.5, 2, 0.1}}
}

// TestNodeRuleFolds checks the standardisation folded into a node's test,
// computed by hand. The node's margin on a raw input is
// w·((x - shift)·scale) + b with w = (2, -0.5, 1), b = 0.4,
// shift = (10, 4, 1), scale = (0.5, 2, 0.1), so the raw weights are
// a = w·scale = (1, -1, 0.1). By |w| the order is x1 (2), x3 (1), x2 (0.5).
//
//   - All three terms: right iff a·x - a·shift + b > 0, a·shift = 10 - 4 + 0.1
//     = 6.1, so a·x > 6.1 - 0.4 = 5.7.
//   - Two terms: x2 is left out as a2 (x2 - shift2), so the threshold is
//     a1 shift1 + a3 shift3 - b = 10 + 0.1 - 0.4 = 9.7.
//   - One term: 10 - 0.4 = 9.6.
func TestNodeRuleFolds(t *testing.T) {
	m := standardised()
	for _, c := range []struct {
		top  int
		want string
	}{
		{3, "1 x1 + 0.1 x3 - 1 x2 > 5.7"},
		{5, "1 x1 + 0.1 x3 - 1 x2 > 5.7"}, // more terms asked than there are
		{2, "1 x1 + 0.1 x3 + ... > 9.7"},
		{1, "1 x1 + ... > 9.6"},
		{0, "... > -0.4"}, // no terms: everything as deviations from the means, -b
	} {
		if got := analysis.NodeRule(m, 0, nil, c.top).String(); got != c.want {
			t.Errorf("top %d: %q, want %q", c.top, got, c.want)
		}
	}
	r := analysis.NodeRule(m, 0, []string{"height", "width", "depth"}, 2)
	if got, want := r.String(), "1 height + 0.1 depth + ... > 9.7"; got != want {
		t.Errorf("named: %q, want %q", got, want)
	}
	if r.Rest != 1 || r.Terms[0].Feature != 0 || r.Terms[1].Feature != 2 || math.Abs(r.Threshold-9.7) > 1e-12 {
		t.Errorf("rule %+v", r)
	}
}

// TestNodeRuleRaw: without standardisation the weights are the model's,
// the threshold is -b, and zero weights are no terms (W = (-3, 0, 0.2),
// b = -1: right iff -3 x1 + 0.2 x3 > 1).
func TestNodeRuleRaw(t *testing.T) {
	m := standardised()
	m.InputShift, m.InputScale = nil, nil
	m.W, m.B = [][]float64{{-3, 0, 0.2}}, []float64{-1}
	r := analysis.NodeRule(m, 0, nil, 3)
	if got, want := r.String(), "-3 x1 + 0.2 x3 > 1"; got != want || r.Rest != 0 {
		t.Errorf("%q (rest %d), want %q", got, r.Rest, want)
	}
}

// TestNodeRuleDecides: on random models and inputs, the terms of the rule
// plus each left-out feature as a_j (x_j - shift_j), minus the threshold,
// is the runtime's margin on the preprocessed input.
func TestNodeRuleDecides(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for trial := 0; trial < 200; trial++ {
		d := 1 + rng.IntN(6)
		m := standardised()
		m.Features = d
		m.W, m.B = [][]float64{make([]float64, d)}, []float64{rng.NormFloat64()}
		m.InputShift, m.InputScale = make([]float64, d), make([]float64, d)
		for j := 0; j < d; j++ {
			m.W[0][j] = rng.NormFloat64()
			m.InputShift[j] = 10 * rng.NormFloat64()
			m.InputScale[j] = 0.1 + rng.Float64()
		}
		if trial%2 == 1 {
			m.InputShift, m.InputScale = nil, nil
		}
		k, err := runtime.New(m)
		if err != nil {
			t.Fatal(err)
		}
		x := make([]float64, d)
		for j := range x {
			x[j] = 10 * rng.NormFloat64()
		}
		pre := make([]float64, d)
		k.Preprocess(pre, x)
		want := k.Margin(0, pre)
		r := analysis.NodeRule(m, 0, nil, rng.IntN(d+1))
		in := map[int]bool{}
		got := -r.Threshold
		for _, term := range r.Terms {
			in[term.Feature] = true
			got += term.Weight * x[term.Feature]
		}
		for j := 0; j < d; j++ {
			if in[j] {
				continue
			}
			a, s := m.W[0][j], 0.0
			if m.InputScale != nil {
				a, s = a*m.InputScale[j], m.InputShift[j]
			}
			got += a * (x[j] - s)
		}
		if math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
			t.Fatalf("trial %d: rule gives %v, margin %v (%+v)", trial, got, want, r)
		}
	}
}

func TestShort(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0, "0"}, {0.8, "0.8"}, {1.24, "1.2"}, {-0.5, "-0.5"}, {3, "3"}, {0.0042, "0.0042"},
		{123, "120"}, {9.96, "10"}, {0.999, "1"}, {1234, "1200"},
		{1.234e-5, "1.2e-05"}, {12345, "1.2e+04"},
	} {
		if got := analysis.Short(c.v); got != c.want {
			t.Errorf("Short(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

func TestAboutModel(t *testing.T) {
	m := standardised()
	a, err := analysis.AboutModel(m, "/runs/m.json")
	if err != nil || a.String() != "m.json (no training record)" {
		t.Errorf("no metadata: %q, %v", a, err)
	}
	// A refined model: pass 2 of the 3 run (the log has pass 0, the model
	// as given, too).
	m.Training = json.RawMessage(`{"epochs":30,"best_epoch":27,"seed":1,
		"refine":{"passes":10,"ridge":0.01,"selected_pass":2,"log":[
		{"pass":0,"hard_train_accuracy":0.5,"hard_val_accuracy":0.4},
		{"pass":1,"hard_train_accuracy":0.6,"hard_val_accuracy":0.5},
		{"pass":2,"hard_train_accuracy":0.7,"hard_val_accuracy":0.6,"hard_test_accuracy":0.55,"selected":true},
		{"pass":3,"hard_train_accuracy":0.7,"hard_val_accuracy":0.6}]}}`)
	a, err = analysis.AboutModel(m, "m.json")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := a.String(), "m.json: epoch 27 of 30, then refined (pass 2 of 3)"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if a.RefineValAcc != 0.6 || a.RefineTestAcc != 0.55 {
		t.Errorf("refined accuracies %v %v", a.RefineValAcc, a.RefineTestAcc)
	}
	m.Training = json.RawMessage(`{"epochs":30,"best_epoch":27,"refine":{"passes":10,"selected_pass":0,"log":[{"pass":0},{"pass":1}]}}`)
	if a, _ = analysis.AboutModel(m, "m.json"); a.String() != "m.json: epoch 27 of 30, not changed by refining" {
		t.Errorf("refine kept pass 0: %q", a)
	}
	m.Training = json.RawMessage(`{"epochs":30,"best_epoch":27,"refine":{"passes":10,"selected_pass":0,"log":[{"pass":0},{"pass":1}],
		"majority_check":{"class":"no","walk_only":9,"constant_only":4,"p_value":0.13,"constant":true}}}`)
	if a, _ = analysis.AboutModel(m, "m.json"); a.String() != `m.json: epoch 27 of 30, not changed by refining, then replaced by the constant "no" (majority check)` {
		t.Errorf("replaced by the majority check: %q", a)
	}
	m.Training = json.RawMessage(`{"epochs":5,"best_epoch":4}`)
	if a, _ = analysis.AboutModel(m, "m.json"); a.String() != "m.json: epoch 4 of 5" {
		t.Errorf("trained: %q", a)
	}
	m.Training = json.RawMessage(`[1, 2]`)
	if _, err := analysis.AboutModel(m, "m.json"); err == nil || !strings.Contains(err.Error(), "m.json") {
		t.Errorf("malformed metadata: %v", err)
	}
}

// tiny is the model of TestStatsTiny: node 0 goes left to node 1 and right
// to leaf "yes"; node 1 left to leaf "no" and right back to node 0; class
// "never" has no line in.
func tiny(t *testing.T) *runtime.Classifier {
	m := &runtime.Model{Format: runtime.Format, Nodes: 2, Classes: 3, Steps: 4, Features: 1,
		ClassNames: []string{"no", "yes", "never"},
		M0Logits:   [][]float64{{0, 0}, {9, 0}, {0, 9}, {0, 0}, {0, 0}},
		M1Logits:   [][]float64{{0, 9}, {0, 0}, {0, 0}, {9, 0}, {0, 0}},
		W:          [][]float64{{1.5}, {-2}}, B: []float64{0.25, 1},
		Training: json.RawMessage(`{"epochs":3,"best_epoch":2}`)}
	k, err := runtime.New(m)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestDOTReadable(t *testing.T) {
	k := tiny(t)
	about, err := analysis.AboutModel(k.Model, "runs/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	b := analysis.NewBinary(k)
	src, err := b.DOT(analysis.DrawOptions{About: about})
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	for _, want := range []string{
		"tiny.json: epoch 2 of 3",          // which model
		"2 of 2 internal nodes used",       // what the drawing holds
		"classes no walk can reach: never", // and what it leaves out
		"cluster_legend",                   // a legend, saying which line is which
		`"test false:\nleft child (M0)"`,
		`"test true:\nright child (M1)"`,
		// Node tests: 1.5 x1 + 0.25 > 0 and -2 x1 + 1 > 0.
		`"node 0 (root)\n1.5 x1 > -0.25"`,
		`"node 1\n-2 x1 > -1"`,
		`label="no"`, `label="yes"`, // leaves by class name
	} {
		if !strings.Contains(s, want) {
			t.Errorf("DOT lacks %s:\n%s", want, s)
		}
	}
	if strings.Contains(s, `label="never"`) || strings.Contains(s, "not reachable") {
		t.Errorf("DOT draws the unreachable leaf without All:\n%s", s)
	}
	again, _ := b.DOT(analysis.DrawOptions{About: about})
	if !bytes.Equal(src, again) {
		t.Error("DOT differs between two calls")
	}
	all, err := b.DOT(analysis.DrawOptions{About: about, All: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`label="never"`, "not reachable"} {
		if !strings.Contains(string(all), want) {
			t.Errorf("DOT with All lacks %s", want)
		}
	}
	if _, err := b.DOT(analysis.DrawOptions{FeatureNames: []string{"a", "b"}}); err == nil {
		t.Error("two feature names for one feature accepted")
	}
}

// TestPictures draws every picture of a tiny model and decodes each PNG.
func TestPictures(t *testing.T) {
	k := tiny(t)
	about, _ := analysis.AboutModel(k.Model, "tiny.json")
	dir := t.TempDir()
	p := analysis.Pictures{Dir: dir, About: about, Log: "tiny.log.jsonl", Data: "rows.csv"}
	if err := p.Matrices(k); err != nil {
		t.Fatal(err)
	}
	x, y := []float64{-1, 1, 0.5, -0.5}, []int{0, 1, 1, 0}
	st := analysis.Data(k, x, y, 1e-4, 10)
	if err := p.Distances(st.Distances, k.Model.ClassNames, st.DistanceRows); err != nil {
		t.Fatal(err)
	}
	if err := p.Flow(k, x[:1], 0, "no"); err != nil {
		t.Fatal(err)
	}
	var recs []analysis.LogRecord
	for e := 1; e <= 3; e++ {
		recs = append(recs, analysis.LogRecord{
			EpochRecord: runlog.EpochRecord{Epoch: e, BCE: 1 / float64(e), TrainAcc: 0.5, ValAcc: 0.4, HardValAcc: 0.3, Best: e == 2},
			Graph:       &analysis.EpochGraph{UsedNodes: e, Back: 1}})
	}
	stats := analysis.NewBinary(k).Stats()
	if err := p.Curves(recs, &stats); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"M0.png", "M1.png", "distances.png", "flow.png", "curves.png", "loss.png", "structure.png"} {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", name, err)
		} else if b := img.Bounds(); b.Dx() < 400 || b.Dy() < 300 {
			t.Errorf("%s: %v", name, b)
		}
	}
}
