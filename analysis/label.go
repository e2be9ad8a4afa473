package analysis

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/songc/songc/internal/text"
	"github.com/songc/songc/runlog"
	"github.com/songc/songc/runtime"
)

// About says which model a picture shows: the file, the epoch training kept
// and whether songc refine changed it afterwards. Every picture carries it
// in its caption (String).
type About struct {
	File         string // the model file as given; captions show its base name
	Epochs       int    // epochs trained; 0 when the model has no training record
	BestEpoch    int    // the epoch whose parameters were kept
	Refined      bool   // songc refine (or train --refine) ran on the model
	RefinePass   int    // the refine pass kept; 0: refining changed nothing
	RefinePasses int    // refine passes run
	// The hard walk's accuracies after refining (of RefinePass), on the
	// model's validation rows and the test rows; 0 when not recorded.
	RefineValAcc, RefineTestAcc float64
	// Constant is the class the majority check put in place of the walk
	// ("" when it kept the walk or did not run).
	Constant string
}

// AboutModel reads the training metadata of m, loaded from file. A model
// without metadata (one not written by songc train) gives an About with
// only the file; metadata that is not a JSON object of the expected field
// types is an error.
func AboutModel(m *runtime.Model, file string) (About, error) {
	a := About{File: file}
	t, err := runlog.ReadMetadata(m.Training)
	switch {
	case errors.Is(err, runlog.ErrNoMetadata):
		return a, nil
	case err != nil:
		return a, fmt.Errorf("%s: %v", file, err)
	}
	a.Epochs, a.BestEpoch = t.Epochs, t.BestEpoch
	if r := t.Refine; r != nil {
		a.Refined, a.RefinePass, a.RefinePasses = true, r.Selected, r.Passes
		if len(r.Log) > 0 { // pass 0 is the model as given
			a.RefinePasses = len(r.Log) - 1
		}
		for _, l := range r.Log {
			if l.Pass == r.Selected {
				a.RefineValAcc, a.RefineTestAcc = l.ValAcc, l.TestAcc
			}
		}
		if mc := t.Constant(); mc != nil {
			a.Constant = mc.Class
		}
	}
	return a, nil
}

// String is the caption line, e.g.
//
//	m.json: epoch 3 of 3, then refined (pass 9 of 10)
func (a About) String() string {
	name := filepath.Base(a.File)
	if a.File == "" {
		name = "model"
	}
	var b strings.Builder
	b.WriteString(name)
	switch {
	case a.BestEpoch > 0 && a.Epochs > 0:
		fmt.Fprintf(&b, ": epoch %d of %d", a.BestEpoch, a.Epochs)
	case a.Epochs > 0:
		b.WriteString(": " + text.Count(a.Epochs, "epoch"))
	case !a.Refined:
		b.WriteString(" (no training record)")
	}
	switch {
	case a.Refined && a.RefinePass > 0:
		fmt.Fprintf(&b, ", then refined (pass %d of %d)", a.RefinePass, a.RefinePasses)
	case a.Refined:
		b.WriteString(", not changed by refining")
	}
	if a.Constant != "" {
		fmt.Fprintf(&b, ", then replaced by the constant %q (majority check)", a.Constant)
	}
	return b.String()
}

// FeatureNames returns the names of the model's input features: those its
// input columns give (runtime.Schema.FeatureNames: a column's name, or
// NAME=LEVEL for a category), or, for a model without them, x1..xd,
// 1-based, as the CLI names the columns of a file without a header.
func FeatureNames(m *runtime.Model) []string {
	if m.Schema != nil {
		return m.Schema.FeatureNames()
	}
	names := make([]string, m.Features)
	for j := range names {
		names[j] = "x" + strconv.Itoa(j+1)
	}
	return names
}

// Term is a feature's weight in a node's test.
type Term struct {
	Feature int    // 0-based column
	Name    string // its name
	Weight  float64
}

// Rule is what an internal node tests, in the units of the raw input: the
// walk goes right iff
//
//	sum over Terms of Weight·x[Feature] + (the other features) > Threshold
//
// The model's standardisation is folded in: the node's margin on the raw
// input x is w·((x - shift)·scale) + b = a·x - a·shift + b with a = w·scale,
// so Weight is a_j. Terms are the features of largest |w_j| (the weight on
// the model's own, standardised, inputs, which compares features measured
// in different units), strongest first. Each feature left out enters as
// a_j (x_j - shift_j), which is 0 when x_j sits at its training mean
// (shift_j, or 0 without standardisation), so
//
//	Threshold = sum over Terms of a_j shift_j - b
//
// and with every other feature at its mean the Terms alone decide. Rest
// counts the left-out features with a nonzero weight; with Rest 0 the rule
// is the node's exact test.
type Rule struct {
	Terms     []Term
	Rest      int
	Threshold float64
}

// NodeRule returns the rule of internal node i of m, with at most top
// terms. names gives the feature names (nil: FeatureNames(m)). It panics
// when i is not an internal node or names has the wrong length.
func NodeRule(m *runtime.Model, i int, names []string, top int) Rule {
	if i < 0 || i >= m.Nodes {
		panic(fmt.Sprintf("analysis: node %d out of range [0, %d)", i, m.Nodes))
	}
	if names == nil {
		names = FeatureNames(m)
	}
	if len(names) != m.Features {
		panic(fmt.Sprintf("analysis: %d feature names for %d features", len(names), m.Features))
	}
	w := m.W[i]
	order := make([]int, 0, len(w))
	for j, v := range w {
		if v != 0 {
			order = append(order, j)
		}
	}
	// Strongest first; ties to the lower column, for deterministic labels.
	slices.SortStableFunc(order, func(p, q int) int { return cmp.Compare(math.Abs(w[q]), math.Abs(w[p])) })
	top = max(0, min(top, len(order)))
	r := Rule{Rest: len(order) - top, Threshold: -m.B[i]}
	for _, j := range order[:top] {
		a, shift := m.RawWeight(i, j)
		r.Threshold += shift
		r.Terms = append(r.Terms, Term{Feature: j, Name: names[j], Weight: a})
	}
	return r
}

// String writes the rule with numbers as Short writes them, e.g.
//
//	0.8 x12 - 0.5 x3 + ... > 1.2
//
// where "..." stands for the Rest features, each as a_j (x_j - mean_j).
func (r Rule) String() string {
	var b strings.Builder
	for k, t := range r.Terms {
		b.WriteString(text.Sign(k, t.Weight < 0))
		b.WriteString(Short(math.Abs(t.Weight)))
		b.WriteString(" ")
		b.WriteString(t.Name)
	}
	switch {
	case r.Rest > 0 && len(r.Terms) > 0:
		b.WriteString(" + ...")
	case r.Rest > 0:
		b.WriteString("...")
	case len(r.Terms) == 0:
		b.WriteString("0") // a node with no weights: its bias alone decides
	}
	b.WriteString(" > ")
	b.WriteString(Short(r.Threshold))
	return b.String()
}

// Short formats v with at most two significant digits, in plain decimals
// from 0.001 to 10000 without trailing zeros (0.8, 1.2, 3, 0.0042, 120) and
// in exponent form outside.
func Short(v float64) string {
	if v == 0 {
		return "0"
	}
	a := math.Abs(v)
	if a < 1e-3 || a >= 1e4 || math.IsInf(v, 0) || math.IsNaN(v) {
		return strconv.FormatFloat(v, 'g', 2, 64)
	}
	// Round to two significant digits first, so that 9.96 becomes 10.
	e := int(math.Floor(math.Log10(a)))
	p := math.Pow(10, float64(1-e))
	r := math.Round(a*p) / p
	e = int(math.Floor(math.Log10(r)))
	s := strconv.FormatFloat(r, 'f', max(0, 1-e), 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if v < 0 {
		s = "-" + s
	}
	return s
}
