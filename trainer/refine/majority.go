package refine

import (
	"math"
	"slices"

	"github.com/songc/songc/runlog"
	"github.com/songc/songc/runtime"
)

// MajorityLevel is the level of the sign tests of the majority and
// logistic checks: the walk is kept only when a walk no better than the
// constant, or than the regression, would do as well on the validation
// rows with a chance below it.
const MajorityLevel = 0.05

// MajorityBar says why the majority check cannot end refining a model
// (MajorityRuns: it can). It is the one rule of where the check runs:
// Run, and the command line before any work, both ask MajorityBarred.
type MajorityBar int

const (
	MajorityRuns     MajorityBar = iota
	MajorityNoRefine             // no refining passes: the check is their last step
	MajorityNoVal                // no validation rows to compare on
	MajorityBalanced             // selected by balanced accuracy, whose baseline is not the most frequent class
)

// MajorityBarred returns what bars the majority check after passes
// refining passes of a model with validation rows or not (val) that was
// selected by sel (its Config.Select).
func MajorityBarred(passes int, val bool, sel string) MajorityBar {
	switch {
	case passes < 1:
		return MajorityNoRefine
	case !val:
		return MajorityNoVal
	case sel == "balanced":
		return MajorityBalanced
	}
	return MajorityRuns
}

// majorityCheck compares the hard walk (or the tree check's tree) that
// gives the val rows the classes walked, which is m unless a regression
// replaced it (below), with always predicting the most frequent class of
// the fit rows (the lower class on ties; y holds every row's class), on
// the val rows, by beats: the walk is kept when it is better.
//
// A walk chosen among many candidates on the validation rows looks better
// there than it is, and on a small or hard set it may beat the constant on
// those rows by luck alone; the constant then does better on new rows.
//
// alt is the logistic check's regression, or nil. When it is m (alt.model
// is set: it replaced the walk, whose classes walked still are), it is
// judged in the walk's place; when the walk is not kept, it is the
// runner-up. Either way it is counted against the constant on the same
// rows and kept (its refit) when it is right on more of them: its score
// there was not chosen among candidates, so the better of the two on
// those rows is taken without a test. Otherwise the returned model is
// constantModel(m, the fit rows' class counts).
func majorityCheck(m *runtime.Model, y, fit, val, walked []int, alt *regression) (*runtime.Model, *runlog.MajorityCheck) {
	count := classCounts(m.Classes, y, fit)
	class := mostFrequent(count)
	constant := make([]int, len(val))
	for i := range constant {
		constant[i] = class
	}
	check := &runlog.MajorityCheck{Class: m.ClassNames[class]}
	check.WalkOnly, check.ConstantOnly = discordant(y, val, walked, constant)
	var keep bool
	check.PValue, check.Undecided, keep = beats(check.WalkOnly, check.ConstantOnly)
	if keep && (alt == nil || alt.model == nil) {
		return m, check
	}
	if alt != nil {
		r := &runlog.MajorityRegression{}
		r.RegressionOnly, r.ConstantOnly = discordant(y, val, alt.class, constant)
		check.Regression = r
		if r.RegressionOnly > r.ConstantOnly {
			lm := alt.model
			if lm == nil {
				lm = alt.refit()
			}
			if lm != nil {
				r.Kept = true
				return lm, check
			}
		}
	}
	check.Constant = true
	return constantModel(m, count), check
}

// beats says whether a model right on a rows of a validation set where
// another is wrong, and wrong on b where it is right, is the better of
// the two: by a one-sided exact sign test on those rows (McNemar's exact
// test) at MajorityLevel, whose p-value it returns. When fewer rows tell
// the two apart than the test needs to reach MajorityLevel at all (5 at
// 0.05), the test is undecided and the model is better when a > b.
func beats(a, b int) (p float64, undecided, better bool) {
	p = signTest(a, b)
	if !(signTest(a+b, 0) < MajorityLevel) {
		return p, true, a > b
	}
	return p, false, p < MajorityLevel
}

// discordant counts the rows (of y's) where the classes a gives (one per
// row) are right and those b gives wrong (aOnly), and the other way round
// (bOnly).
func discordant(y, rows, a, b []int) (aOnly, bOnly int) {
	for i, r := range rows {
		switch ra, rb := a[i] == y[r], b[i] == y[r]; {
		case ra && !rb:
			aOnly++
		case rb && !ra:
			bOnly++
		}
	}
	return aOnly, bOnly
}

// classCounts counts the rows of each class among rows.
func classCounts(classes int, y, rows []int) []int {
	count := make([]int, classes)
	for _, r := range rows {
		count[y[r]]++
	}
	return count
}

// mostFrequent returns the class of the largest count, the lower on ties.
func mostFrequent(count []int) int { return slices.Index(count, slices.Max(count)) }

// signTest returns the chance of at least a heads in a+b tosses of a fair
// coin: the one-sided p-value of the exact sign test. It is 1 when a+b is 0.
func signTest(a, b int) float64 {
	n := a + b
	lf := func(x int) float64 { v, _ := math.Lgamma(float64(x) + 1); return v }
	p := 0.0
	for i := a; i <= n; i++ {
		p += math.Exp(lf(n) - lf(i) - lf(n-i) - float64(n)*math.Ln2)
	}
	return min(1, p)
}

// constantModel returns the model of m's shape of data (its input columns,
// preprocessing, classes and training metadata) whose every walk ends in
// the leaf of the most frequent class of count (the lower class on ties):
// one node with zero weights whose two branches lead there. Its soft model
// gives every row the classes' shares of count, as leaf masses: a class
// without rows gets the share of half a row.
func constantModel(m *runtime.Model, count []int) *runtime.Model {
	out := *m
	c := m.Classes
	out.Nodes, out.Steps = 1, 1
	out.W, out.B = [][]float64{make([]float64, m.Features)}, []float64{0}
	// Column 0 is node 0's distribution over the 1+c states: itself, with
	// a share of constantLoss (mass left inside after the one step is
	// lost), then the leaves by their counts.
	total := 0.0
	for _, v := range count {
		total += max(float64(v), 0.5)
	}
	l := make([][]float64, 1+c)
	l[0] = []float64{math.Log(constantLoss)}
	for k, v := range count {
		l[1+k] = []float64{math.Log(max(float64(v), 0.5) / total)}
	}
	out.M0Logits, out.M1Logits = l, clone2(l)
	out.Training = slices.Clone(m.Training)
	return &out
}

// constantLoss is the share of the mass that a constant model's soft walk
// leaves inside the graph.
const constantLoss = 1e-9
