package trainer

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/songc/songc/runtime"
)

// stWalk is an independent hard walk of one row: the states it visits, one
// per step (internal nodes), its decisions, and the leaf it reaches (-1 if
// none within the steps). Columns are the argmax of L (+ noise).
type stWalk struct {
	nodes []int
	right []bool
	next  []int // state after each step (node or n+class)
	leaf  int
}

// stMargin is node i's pre-activation w_i·x + b_i.
func stMargin(p *Params, i int, x []float64) float64 {
	d := p.Shape.Features
	z := p.B()[i]
	for f := 0; f < d; f++ {
		z += p.W()[i*d+f] * x[f]
	}
	return z
}

// stChild is the argmax state of node i's column in the logits at offset
// off (L0 or L1), plus noise when non-nil; the first of equal ones.
func stChild(p *Params, noise []float64, off, i int) int {
	n := p.Shape.Nodes
	best, bv := 0, math.Inf(-1)
	for r := 0; r < p.Shape.States(); r++ {
		v := p.Flat[off+r*n+i]
		if noise != nil {
			v += noise[off+r*n+i]
		}
		if v > bv {
			best, bv = r, v
		}
	}
	return best
}

func walkRow(p *Params, noise []float64, x []float64) stWalk {
	s := p.Shape
	n := s.Nodes
	l0o, l1o, _, _, _ := s.offsets()
	var w stWalk
	w.leaf = -1
	node := 0
	for t := 0; t < s.Steps; t++ {
		right := stMargin(p, node, x) > 0
		off := l0o
		if right {
			off = l1o
		}
		best := stChild(p, noise, off, node)
		w.nodes, w.right, w.next = append(w.nodes, node), append(w.right, right), append(w.next, best)
		if best >= n {
			w.leaf = best - n
			break
		}
		node = best
	}
	return w
}

// stParams returns parameters whose node decisions and columns are far
// from ties, so that float rounding cannot change a walk.
func stParams(s Shape, rng *rand.Rand) *Params {
	p := NewParams(s)
	p.Init(rng)
	for i := range p.W() {
		p.W()[i] = rng.NormFloat64()
	}
	for i := range p.L0() {
		p.L0()[i] = 3 * rng.NormFloat64()
		p.L1()[i] = 3 * rng.NormFloat64()
	}
	return p
}

// TestStraightThroughForward: in straight-through mode the engine's leaf
// masses are the hard walk's, one-hot at the leaf it reaches (zero where it
// reaches none within the steps), with and without Gumbel noise; and they
// agree with the runtime's Walk on the rows it does not force to a leaf.
func TestStraightThroughForward(t *testing.T) {
	s := Shape{Nodes: 6, Classes: 3, Steps: 4, Features: 5}
	const B = 40
	rng := rand.New(rand.NewPCG(3, 4))
	p := stParams(s, rng)
	x, _, noise := randomBatch(rng, s, B)
	k, err := runtime.New(p.Model([]string{"a", "b", "c"}))
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewCPU[float64](s, Gonum64{}, B)
	if err != nil {
		t.Fatal(err)
	}
	e.SetParams(p.Flat)
	e.SetStraightThrough(true)
	c, d := s.Classes, s.Features
	absorbed, agreed := 0, 0
	for _, nz := range [][]float64{nil, noise} {
		e.transitions(nz)
		e.forward(x, B)
		for j := 0; j < B; j++ {
			xr := x[j*d : (j+1)*d]
			w := walkRow(p, nz, xr)
			for cl := 0; cl < c; cl++ {
				want := 0.0
				if cl == w.leaf {
					want = 1
				}
				if got := e.q[cl*B+j]; got != want {
					t.Fatalf("noise %v, row %d, class %d: q = %v, want %v (walk %+v)", nz != nil, j, cl, got, want, w)
				}
			}
			if w.leaf >= 0 {
				absorbed++
			}
			if nz == nil && w.leaf >= 0 {
				r, _ := k.Walk(xr, make([]float64, d), nil)
				if r.Class != w.leaf || r.Forced {
					t.Fatalf("row %d: runtime walk %+v, engine leaf %d", j, r, w.leaf)
				}
				agreed++
			}
		}
	}
	if absorbed < B/2 || agreed < B/4 {
		t.Fatalf("only %d walks of %d reached a leaf (%d without noise): the test checks too little", absorbed, 2*B, agreed)
	}
}

// TestStraightThroughGradient checks the straight-through gradient against
// a direct computation from the walks: with the loss's gradient g_j(k) for
// each row j ending in leaf k, and V_j(state, t) the g_j of the leaf the
// walk reaches from state after step t (0 if none), the gradient of the
// bias of node i is the sum over the visits of row j to node i of
// sigmoid'(z) (V_j(child1) - V_j(child0)), that of W the same times x_j,
// and that of the logits is the softmax derivative (at the soft columns)
// of G[r, i] = sum over the visits that leave i on that side of V_j(r).
// Node regularisation does not apply.
func TestStraightThroughGradient(t *testing.T) {
	for _, tc := range []struct {
		s     Shape
		noise bool
	}{
		{Shape{Nodes: 6, Classes: 3, Steps: 4, Features: 5}, false},
		{Shape{Nodes: 6, Classes: 3, Steps: 4, Features: 5}, true},
		{Shape{Nodes: 4, Classes: 2, Steps: 6, Features: 3}, true},
		// The penalties on soft decisions are left out: same gradient.
		{Shape{Nodes: 6, Classes: 3, Steps: 4, Features: 5, NodeRegGamma: 1.3, NodeRegLambda: 0.2}, true},
	} {
		s := tc.s
		const B = 30
		rng := rand.New(rand.NewPCG(5, 6))
		p := stParams(s, rng)
		x, y, noise := randomBatch(rng, s, B)
		if !tc.noise {
			noise = nil
		}
		e, err := NewCPU[float64](s, Gonum64{}, B)
		if err != nil {
			t.Fatal(err)
		}
		e.SetParams(p.Flat)
		e.SetStraightThrough(true)
		grad := make([]float64, len(p.Flat))
		e.LossGrad(grad, x, y, noise)

		n, S, d, N := s.Nodes, s.States(), s.Features, s.Steps
		l0o, l1o, wo, bo, _ := s.offsets()
		want := make([]float64, len(p.Flat))
		G := make([]float64, S*2*n) // [G1 | G0], rows = states
		for j := 0; j < B; j++ {
			xr := x[j*d : (j+1)*d]
			// value(state, t): the loss gradient of the leaf reached from
			// state, which is the output of step t.
			var value func(state, t int) float64
			value = func(state, t int) float64 {
				if state >= n {
					return e.dq[(state-n)*B+j]
				}
				if t+1 >= N {
					return 0
				}
				off := l0o
				if stMargin(p, state, xr) > 0 {
					off = l1o
				}
				return value(stChild(p, noise, off, state), t+1)
			}
			w := walkRow(p, noise, xr)
			for t, i := range w.nodes {
				sg := runtime.Sigmoid(stMargin(p, i, xr))
				dv := sg * (1 - sg) * (value(stChild(p, noise, l1o, i), t) - value(stChild(p, noise, l0o, i), t))
				want[bo+i] += dv
				for f := 0; f < d; f++ {
					want[wo+i*d+f] += dv * xr[f]
				}
				col := n + i // M0 half
				if w.right[t] {
					col = i
				}
				for r := 0; r < S; r++ {
					G[r*2*n+col] += value(r, t)
				}
			}
		}
		// Through the soft column softmax.
		for half, off := range [2]int{l1o, l0o} {
			for i := 0; i < n; i++ {
				col := half*n + i
				m := make([]float64, S)
				mx := math.Inf(-1)
				for r := 0; r < S; r++ {
					m[r] = p.Flat[off+r*n+i]
					if noise != nil {
						m[r] += noise[off+r*n+i]
					}
					mx = math.Max(mx, m[r])
				}
				var sum, dot float64
				for r := range m {
					m[r] = math.Exp(m[r] - mx)
					sum += m[r]
				}
				for r := range m {
					m[r] /= sum
					dot += m[r] * G[r*2*n+col]
				}
				for r := range m {
					want[off+r*n+i] = m[r] * (G[r*2*n+col] - dot)
				}
			}
		}
		var maxDiff, maxAbs float64
		for i := range want {
			maxDiff = math.Max(maxDiff, math.Abs(grad[i]-want[i]))
			maxAbs = math.Max(maxAbs, math.Abs(want[i]))
		}
		if maxDiff > 1e-12*math.Max(1, maxAbs) || maxAbs == 0 {
			t.Errorf("%+v noise %v: max |grad - walk gradient| = %.3g (max %.3g)", s, tc.noise, maxDiff, maxAbs)
		}
	}
}

// TestStraightThroughPredictSoft: Predict gives the soft model's leaf masses
// whatever the mode, so that training logs keep the soft accuracy.
func TestStraightThroughPredictSoft(t *testing.T) {
	s := Shape{Nodes: 5, Classes: 3, Steps: 4, Features: 6}
	rng := rand.New(rand.NewPCG(7, 8))
	p := stParams(s, rng)
	x, _, _ := randomBatch(rng, s, 9)
	e, err := NewCPU[float64](s, Gonum64{}, 9)
	if err != nil {
		t.Fatal(err)
	}
	e.SetParams(p.Flat)
	soft := make([]float64, 9*3)
	e.Predict(soft, x)
	e.SetStraightThrough(true)
	got := make([]float64, 9*3)
	e.Predict(got, x)
	for i := range soft {
		if got[i] != soft[i] {
			t.Fatalf("value %d: %v in straight-through mode, %v without", i, got[i], soft[i])
		}
	}
	if !e.straight {
		t.Error("Predict turned the straight-through mode off")
	}
}
