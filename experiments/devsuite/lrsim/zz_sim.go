//go:build ignore

// Copied into trainer/refine by experiments/devsuite/lrsim/README.md's steps; not part of songc.

package refine

import (
	"slices"

	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer"
)

// SimOut holds, for the validation and test rows of a model's split, the
// classes, the model's and those of the logistic check's regression
// (fitted to the fit rows for the validation rows, to all the training
// rows for the test rows).
type SimOut struct {
	ValY, RivalVal, LRVal    []int
	TestY, RivalTest, LRTest []int
}

func SimLR(m *runtime.Model, task *trainer.Task) (*SimOut, error) {
	_, g, err := modelRefiner(m, task, "sim")
	if err != nil {
		return nil, err
	}
	o := &SimOut{}
	for _, r := range g.val {
		o.ValY = append(o.ValY, g.y[r])
	}
	for _, r := range g.test {
		o.TestY = append(o.TestY, g.y[r])
	}
	o.RivalVal = g.modelClasses(m, g.val)
	o.RivalTest = g.modelClasses(m, g.test)
	theta := g.softmaxFit(g.fit, 1/float64(len(g.fit)))
	o.LRVal = g.modelClasses(softmaxModel(m, theta), g.val)
	all := append(slices.Clone(g.fit), g.val...)
	theta = g.softmaxFit(all, 1/float64(len(all)))
	o.LRTest = g.modelClasses(softmaxModel(m, theta), g.test)
	return o, nil
}
