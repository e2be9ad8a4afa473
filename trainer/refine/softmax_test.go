package refine

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer/internal/dot"
	"github.com/songc/songc/trainer/internal/fixture"
)

// TestSoftmaxLossGradient: the gradient of softmaxLoss matches central
// differences of the loss, at a random point, dense and sparse.
func TestSoftmaxLossGradient(t *testing.T) {
	defer func(v float64) { sparseShare = v }(sparseShare)
	for _, sparse := range []bool{false, true} {
		sparseShare = 2 // no rows are sparse enough
		if sparse {
			sparseShare = 0 // any rows are
		}
		g := fixtureRefiner(t)
		if (g.sparse != nil) != sparse {
			t.Fatalf("sparse rows: %v, want %v", g.sparse != nil, sparse)
		}
		rnd := rand.New(rand.NewPCG(1, 2))
		s := newSoftmaxLoss(g, g.fit, 0.03)
		theta := make([]float64, len(s.grad))
		for i := range theta {
			theta[i] = rnd.NormFloat64() * 0.3
		}
		s.eval(theta)
		grad := slices.Clone(s.grad)
		const h = 1e-6
		for i := range theta {
			p := slices.Clone(theta)
			p[i] += h
			s.eval(p)
			up := s.f
			p[i] -= 2 * h
			s.eval(p)
			num := (up - s.f) / (2 * h)
			if math.Abs(num-grad[i]) > 1e-6*max(1, math.Abs(num)) {
				t.Errorf("sparse %v: d/dtheta[%d] = %v, central difference %v", sparse, i, grad[i], num)
			}
		}
	}
}

// TestSoftmaxModel: the knock-out model of a regression walks to the
// argmax of its scores (the lower class on ties) on every row, in c-1
// steps and c(c-1)/2 nodes, with no forced exit; softmaxFit's regression
// is a minimum (a small gradient) and beats the most frequent class on
// its rows.
func TestSoftmaxModel(t *testing.T) {
	task, m := refineFixture(t, 0.2)
	g := fixtureRefiner(t)
	c, d := g.c, g.d
	theta := g.softmaxFit(g.fit, 1/float64(len(g.fit)))
	if theta == nil {
		t.Fatal("softmaxFit failed")
	}
	s := newSoftmaxLoss(g, g.fit, 1/float64(len(g.fit)))
	s.eval(theta)
	if n := math.Sqrt(dot.Dot(s.grad, s.grad)); n > 1e-4 {
		t.Errorf("the gradient at the fit has norm %v", n)
	}
	lm := softmaxModel(m, theta)
	if err := lm.Validate(); err != nil {
		t.Fatal(err)
	}
	if lm.Nodes != c*(c-1)/2 || lm.Steps != c-1 {
		t.Errorf("%d nodes, %d steps; want %d, %d", lm.Nodes, lm.Steps, c*(c-1)/2, c-1)
	}
	k, err := runtime.New(lm)
	if err != nil {
		t.Fatal(err)
	}
	x, scratch := make([]float64, d), make([]float64, d)
	right := 0
	count := classCounts(c, g.y, g.fit)
	major := mostFrequent(count)
	for _, r := range g.fit {
		g.rowOf(x, r)
		best, top := 0, math.Inf(-1)
		for j := range c {
			if z := runtime.Margin(theta[j*d:(j+1)*d], theta[c*d+j], x); z > top {
				best, top = j, z
			}
		}
		w, _ := k.Walk(task.Train.Row(r), scratch, nil)
		if w.Class != best || w.Forced || w.Steps != c-1 {
			t.Fatalf("row %d: the model walks to class %d (forced %v, %d steps), the scores' argmax is %d", r, w.Class, w.Forced, w.Steps, best)
		}
		if best == g.y[r] {
			right++
		}
	}
	if right <= count[major] {
		t.Errorf("the regression is right on %d fit rows, the most frequent class on %d", right, count[major])
	}
	if got := g.modelClasses(lm, g.fit); !slices.Equal(got, g.modelClasses(lm, g.fit)) || len(got) != len(g.fit) {
		t.Error("modelClasses is not deterministic")
	}
}

// TestRefineLogistic: with Config.Logistic, Run records the regression
// against the walk (or the tree, after the tree check) on the validation
// rows, and keeps the regression unless the rival beats it by the sign
// test; a rival it does not beat is the model Run gives without the check.
// logisticCheck keeps or drops the regression by the rows the two get
// right, or, for balanced accuracy, by the rival's score.
func TestRefineLogistic(t *testing.T) {
	task, m := refineFixture(t, 0.2)
	for _, tree := range []bool{false, true} {
		plain := mustRun(t, m, task, Config{Passes: 2, Tree: tree})
		out := mustRun(t, m, task, Config{Passes: 2, Tree: tree, Logistic: true})
		again := mustRun(t, m, task, Config{Passes: 2, Tree: tree, Logistic: true})
		if !bytes.Equal(fixture.Encode(t, out), fixture.Encode(t, again)) {
			t.Error("two runs with the logistic check give different models")
		}
		rec := refineMeta(t, out)
		lc := rec.Logistic
		if lc == nil || refineMeta(t, plain).Logistic != nil {
			t.Fatalf("tree %v: logistic check %+v", tree, lc)
		}
		rival, score := "walk", rec.Log[rec.Selected].ValAcc
		if tc := rec.Tree; tc != nil && tc.Kept {
			rival, score = "tree", tc.Score
		}
		if lc.Rival != rival || lc.RivalScore != score {
			t.Errorf("tree %v: the rival is the %s at %v, want the %s at %v", tree, lc.Rival, lc.RivalScore, rival, score)
		}
		if p, undecided, better := beats(lc.RivalOnly, lc.RegressionOnly); lc.Kept == better || p != lc.PValue || undecided != lc.Undecided {
			t.Errorf("tree %v: %+v, want kept %v, p %v, undecided %v", tree, lc, !better, p, undecided)
		}
		a, b := *plain, *out
		a.Training, b.Training = nil, nil
		if same := bytes.Equal(fixture.Encode(t, &a), fixture.Encode(t, &b)); same == lc.Kept {
			t.Errorf("tree %v: the model is the one without the check: %v; the regression kept: %v", tree, same, lc.Kept)
		}
	}

	g := fixtureRefiner(t)
	truth := make([]int, len(g.val))
	for i, r := range g.val {
		truth[i] = g.y[r]
	}
	// A rival right on every validation row beats a regression wrong on
	// some; one that gives the regression's own classes does not.
	r, lc := g.logisticCheck(m, "walk", truth, 1, g.share, false)
	if r == nil || r.model != nil || lc.Kept || lc.RegressionOnly != 0 {
		t.Fatalf("a rival right on every row: %+v", lc)
	}
	wrong := len(g.val) - int(math.Round(lc.Score*float64(len(g.val))))
	if wrong == 0 || lc.RivalOnly != wrong {
		t.Fatalf("the regression is wrong on %d validation rows, the record says %d", wrong, lc.RivalOnly)
	}
	r2, lc2 := g.logisticCheck(m, "walk", r.class, lc.Score, g.share, false)
	if r2 == nil || r2.model == nil || !lc2.Kept || lc2.RivalOnly != 0 || lc2.RegressionOnly != 0 || !lc2.Undecided {
		t.Fatalf("a rival with the regression's classes: %+v", lc2)
	}
	if !slices.Equal(r2.class, r.class) || !bytes.Equal(fixture.Encode(t, r.refit()), fixture.Encode(t, r2.model)) {
		t.Error("the regression not kept differs from the one kept")
	}

	// By balanced accuracy, the scores decide.
	var kept []int
	var runnerUp *regression
	lm := checkKeeps(t, g, func(rival float64) (*runtime.Model, []int, bool, float64) {
		r, lc := g.logisticCheck(m, "walk", truth, rival, g.share, true)
		if r == nil {
			t.Fatalf("rival score %v: no regression", rival)
		}
		if lc.RivalOnly != 0 || lc.PValue != 0 {
			t.Errorf("rival score %v: a sign test by balanced accuracy: %+v", rival, lc)
		}
		var class []int
		if lc.Kept {
			kept, class = r.class, r.class
		} else {
			runnerUp = r
		}
		return r.model, class, lc.Kept, lc.Score
	})
	if lm.Nodes != g.c*(g.c-1)/2 {
		t.Errorf("the regression kept has %d nodes, want %d", lm.Nodes, g.c*(g.c-1)/2)
	}
	// The runner-up, for the majority check, is the regression kept
	// against a lower rival.
	if runnerUp == nil || !slices.Equal(runnerUp.class, kept) {
		t.Fatal("the runner-up's classes of the validation rows are not those of the regression kept")
	}
	if !bytes.Equal(fixture.Encode(t, runnerUp.refit()), fixture.Encode(t, lm)) {
		t.Error("the runner-up's refit is not the regression kept")
	}
}
