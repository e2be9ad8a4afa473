package refine

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"

	"github.com/songc/songc/runlog"
	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer/internal/dot"
)

// A multinomial logistic regression on all the preprocessed columns is a
// SONG too. Its class is the argmax of c linear scores z_k = w_k·x + b_k,
// which a knock-out walks: the first class is the champion, each further
// class k challenges it at a node whose test is (w_k - w_champion)·x +
// (b_k - b_champion) > 0, and the winner meets class k+1. The node of
// champion a against challenger k (a < k) is k(k-1)/2 + a, so the model
// has c(c-1)/2 nodes, walks c-1 steps and never exits by force; ties stay
// with the champion, the lower class, as argmax's do.

// softmaxIterations bounds L-BFGS's iterations in softmaxFit.
const softmaxIterations = 200

// softmaxLoss is the objective of softmaxFit: the mean cross-entropy of a
// multinomial logistic regression on the preprocessed rows of g (indices
// of g.x or g.sparse) plus ridge/2 times the squared weights (the biases
// are not penalised). Its parameters theta are the c weight vectors of g.d
// values, then the c biases.
//
// As logistic's, the sums are taken over fixed blocks of rows in parallel
// and the blocks' sums added in order: the result does not depend on the
// number of threads.
type softmaxLoss struct {
	g     *refiner
	rows  []int
	ridge float64

	f            float64   // the loss at last
	grad         []float64 // its gradient
	last         []float64 // the parameters of f and grad
	partF, partG []float64 // each block's sums
	z            []float64 // each block's scores of its current row
}

func newSoftmaxLoss(g *refiner, rows []int, ridge float64) *softmaxLoss {
	np := g.c * (g.d + 1)
	nb := (len(rows) + logisticBlock - 1) / logisticBlock
	return &softmaxLoss{g: g, rows: rows, ridge: ridge, grad: make([]float64, np),
		partF: make([]float64, nb), partG: make([]float64, nb*np), z: make([]float64, nb*g.c)}
}

// eval computes the loss and its gradient at theta, unless they are
// those of theta already: L-BFGS asks for both at the same points.
func (s *softmaxLoss) eval(theta []float64) {
	if s.last != nil && slices.Equal(theta, s.last) {
		return
	}
	g, rows := s.g, s.rows
	c, d, m := g.c, g.d, len(rows)
	np, nb := len(s.grad), len(s.partF)
	w, b := theta[:c*d], theta[c*d:]
	// A product of an infinite weight and a zero is NaN, which the sparse
	// rows would skip: with such weights the rows are made dense, and so
	// is a row whose score gives a NaN, as in logistic.
	dense := g.sparse == nil || !finite(theta)
	parallelFor(nb, func(k int) {
		gk, zk := s.partG[k*np:(k+1)*np], s.z[k*c:(k+1)*c]
		clear(gk)
		var fk float64
		var row []float64 // a sparse row made dense, when one is needed
		for _, r := range rows[k*logisticBlock : min(m, (k+1)*logisticBlock)] {
			var x []float64
			switch {
			case g.sparse == nil:
				x = g.x[r*d : (r+1)*d]
			case dense:
				row = resize(row, d)
				g.sparse.Dense(row, r)
				x = row
			}
			top := math.Inf(-1)
			for j := range c {
				if x != nil {
					zk[j] = dot.Dot(w[j*d:(j+1)*d], x)
				} else {
					zk[j] = g.sparse.Dot(w[j*d:(j+1)*d], r)
				}
				zk[j] += b[j]
				top = max(top, zk[j])
			}
			y := g.y[r]
			zy := zk[y]
			var sum float64
			for j := range c {
				zk[j] = math.Exp(zk[j] - top)
				sum += zk[j]
			}
			fk += top + math.Log(sum) - zy
			for j := range c {
				e := zk[j] / sum
				if j == y {
					e--
				}
				if x == nil && math.IsNaN(e) {
					row = resize(row, d)
					g.sparse.Dense(row, r)
					x = row
				}
				if x != nil {
					dot.AddScaled(gk[j*d:(j+1)*d], e, x)
				} else {
					g.sparse.AddScaled(gk[j*d:(j+1)*d], e, r)
				}
				gk[c*d+j] += e
			}
		}
		s.partF[k] = fk
	})
	s.f = ridgeLoss(s.grad, s.partF, s.partG, w, m, s.ridge)
	s.last = append(s.last[:0], theta...)
}

// softmaxFit minimises softmaxLoss by L-BFGS from zero and returns the
// minimiser, or nil when the optimiser fails or leaves the finite numbers.
func (g *refiner) softmaxFit(rows []int, ridge float64) []float64 {
	s := newSoftmaxLoss(g, rows, ridge)
	return minimizeLBFGS(make([]float64, len(s.grad)), softmaxIterations, func(theta []float64) (float64, []float64) {
		s.eval(theta)
		return s.f, s.grad
	})
}

// softmaxModel returns the knock-out SONG of the regression theta (as
// softmaxFit returns it) as a model of m's data.
func softmaxModel(m *runtime.Model, theta []float64) *runtime.Model {
	c, d := m.Classes, m.Features
	w, b := theta[:c*d], theta[c*d:]
	nn := c * (c - 1) / 2
	out := newGraph(m, nn, c-1)
	top := topLogit(nn + c)
	for k := 1; k < c; k++ {
		for a := range k {
			j := k*(k-1)/2 + a
			floats.SubTo(out.W[j], w[k*d:(k+1)*d], w[a*d:(a+1)*d])
			out.B[j] = b[k] - b[a]
			for side, winner := range [2]int{a, k} {
				state := nn + winner
				if k < c-1 {
					state = (k+1)*k/2 + winner
				}
				writeRoute([2][][]float64{out.M0Logits, out.M1Logits}[side], j, state, winner, nn, top)
			}
		}
	}
	return out
}

// modelClasses returns the classes the hard walk of model m gives the rows
// of g (indices of g.x or g.sparse).
func (g *refiner) modelClasses(m *runtime.Model, rows []int) []int {
	k, err := runtime.New(m)
	if err != nil {
		panic("refine: " + err.Error()) // the models built here are valid
	}
	class := make([]int, len(rows))
	x := make([]float64, g.d)
	for i, r := range rows {
		g.rowOf(x, r)
		w, _ := k.WalkPreprocessed(x, nil)
		class[i] = w.Class
	}
	return class
}

// rowOf writes g's preprocessed row r (an index of g.x or g.sparse) into
// dst.
func (g *refiner) rowOf(dst []float64, r int) {
	if g.x != nil {
		copy(dst, g.x[r*g.d:(r+1)*g.d])
		return
	}
	g.sparse.Dense(dst, r)
}

// logisticCheck fits a multinomial logistic regression to the fit rows of
// g, with the ridge weight 1/rows (scikit-learn's default, C = 1), and
// compares it on the val rows with the model it would replace (rival:
// "walk" or "tree"), which gives them the classes rivalClass and scored
// rivalScore by score. It returns the regression, whose model is its
// refit where it replaces the rival (nil otherwise), and the record; the
// regression is nil when the fit fails (the record then too) or when it
// would replace the rival and the refit fails.
//
// The rival is kept only when it beats the regression by beats, the
// majority check's sign test, on the val rows: the rival was chosen among
// many candidates on those rows and the regression fitted once, so the
// rival's lead there is partly luck. A model selected by balanced
// accuracy (balanced) is compared by score alone, the regression kept
// when it scores higher: the sign test counts rows, not that score.
func (g *refiner) logisticCheck(m *runtime.Model, rival string, rivalClass []int, rivalScore float64, score func(class, rows []int) float64, balanced bool) (*regression, *runlog.LogisticCheck) {
	theta := g.softmaxFit(g.fit, 1/float64(len(g.fit)))
	if theta == nil {
		return nil, nil
	}
	r := &regression{class: g.modelClasses(softmaxModel(m, theta), g.val), refit: func() *runtime.Model {
		all := append(slices.Clone(g.fit), g.val...)
		if theta := g.softmaxFit(all, 1/float64(len(all))); theta != nil {
			return softmaxModel(m, theta)
		}
		return nil
	}}
	check := &runlog.LogisticCheck{Score: score(r.class, g.val), Rival: rival, RivalScore: rivalScore}
	stays := !(check.Score > rivalScore) // the rival
	if !balanced {
		check.RivalOnly, check.RegressionOnly = discordant(g.y, g.val, rivalClass, r.class)
		check.PValue, check.Undecided, stays = beats(check.RivalOnly, check.RegressionOnly)
	}
	if stays {
		return r, check
	}
	if r.model = r.refit(); r.model == nil {
		return nil, check // the majority check's refit would fail too
	}
	check.Kept = true
	return r, check
}

// regression is a logistic regression fitted to the fit rows: the classes
// it gives the val rows, for the majority check; refit, which fits it
// again on the fit and val rows together, as a model, or returns nil when
// that fit fails; and model, that refit, once the regression replaced the
// walk or tree. The refit waits until it is needed: where the regression
// did not replace the walk, the majority check needs it only when it
// rejects the walk.
type regression struct {
	class []int
	refit func() *runtime.Model
	model *runtime.Model
}
