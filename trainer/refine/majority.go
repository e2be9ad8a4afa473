package refine

import (
	"math"
	"slices"

	"github.com/songc/songc/runlog"
	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer"
)

// MajorityLevel is the level of the majority check's sign test: the walk is
// kept only when a walk no better than the constant would do as well on
// the validation rows with a chance below it.
const MajorityLevel = 0.05

// majorityCheck compares the hard walk of m with always predicting the
// most frequent class of the fit rows (the lower class on ties), on the
// val rows of task, by a one-sided exact sign test on the rows where
// exactly one of the two is right (McNemar's exact test). Only when the
// walk is better at MajorityLevel is it kept; otherwise the returned model
// is constantModel(m, class).
//
// A walk chosen among many candidates on the validation rows looks better
// there than it is, and on a small or hard set it may beat the constant on
// those rows by luck alone; the constant then does better on new rows.
func majorityCheck(m *runtime.Model, task *trainer.Task, fit, val []int) (*runtime.Model, *runlog.MajorityCheck, error) {
	k, err := runtime.New(m)
	if err != nil {
		return nil, nil, err
	}
	y := task.TrainTargets()
	count := make([]int, m.Classes)
	for _, r := range fit {
		count[y[r]]++
	}
	class := 0
	for c, v := range count {
		if v > count[class] {
			class = c
		}
	}
	check := &runlog.MajorityCheck{Class: m.ClassNames[class]}
	scratch := make([]float64, m.Features)
	for _, r := range val {
		w, _ := k.Walk(task.Train.Row(r), scratch, nil)
		switch walk, constant := w.Class == y[r], class == y[r]; {
		case walk && !constant:
			check.WalkOnly++
		case constant && !walk:
			check.ConstantOnly++
		}
	}
	check.PValue = signTest(check.WalkOnly, check.ConstantOnly)
	if check.PValue < MajorityLevel {
		return m, check, nil
	}
	check.Constant = true
	return constantModel(m, class), check, nil
}

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
// class's leaf: one node with zero weights whose two branches lead there.
// Its soft model puts routeMass of every row's mass on that leaf.
func constantModel(m *runtime.Model, class int) *runtime.Model {
	out := *m
	c := m.Classes
	out.Nodes, out.Steps = 1, 1
	out.W, out.B = [][]float64{make([]float64, m.Features)}, []float64{0}
	// The other c states of the column have logit 0.
	top := math.Log(routeMass / (1 - routeMass) * float64(c))
	logits := func() [][]float64 {
		l := make([][]float64, 1+c)
		for i := range l {
			l[i] = []float64{0}
		}
		l[1+class][0] = top
		return l
	}
	out.M0Logits, out.M1Logits = logits(), logits()
	out.Training = slices.Clone(m.Training)
	return &out
}
