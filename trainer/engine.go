package trainer

import (
	"fmt"
	"math"

	"github.com/songc/songc/runtime"
)

// LossParts are the parts of the training objective for one batch
// (docs/model.md). Total = BCE + Leaf + lambda*Node.
type LossParts struct {
	BCE      float64 // weighted binary cross-entropy
	Leaf     float64 // -log(mean absorbed leaf mass)
	Node     float64 // node regularisation, before lambda
	Total    float64
	LeafMass float64 // mean over the batch of the summed (clamped) leaf mass
}

// Engine runs the numeric work of training: it holds the parameters, the
// optimiser state and every workspace, so an implementation may keep them
// resident where it computes (a GPU, say) for a whole batch and beyond. The
// training loop talks to an engine only through this interface and moves
// parameters to and from it in float64 at epoch boundaries.
//
// Inputs are row-major float64 batches (rows x Features); rows may not exceed
// MaxBatch. noise, when non-nil, holds Gumbel noise for L0 then L1 (2 (n+c) n
// values, same layout as the parameters); nil means plain softmax.
type Engine interface {
	Shape() Shape
	MaxBatch() int
	Precision() string
	// SetParams loads a flat float64 parameter vector (Shape.NumParams long).
	SetParams(p []float64)
	// Params stores the parameters into dst.
	Params(dst []float64)
	// LossGrad computes the loss of a batch and, if grad is non-nil, its
	// gradient with respect to the parameters (flat layout).
	LossGrad(grad []float64, x []float64, y []int, noise []float64) LossParts
	// TrainStep computes the loss and gradient of a batch and applies one
	// Adam update with learning rate lr (AdamW when Shape.WeightDecay > 0).
	TrainStep(x []float64, y []int, noise []float64, lr float64) LossParts
	// Predict writes the leaf masses of each row of x (rows x Classes,
	// unclamped, plain softmax) into dst.
	Predict(dst []float64, x []float64)
	// OptState copies the Adam moments into m and v and returns the step
	// count; SetOptState restores them.
	OptState(m, v []float64) int
	SetOptState(m, v []float64, step int)
	// SetTemperature sets tau > 0 of softmax((L+g)/tau) and sigmoid(a/tau)
	// for the following calls (1: the plain model).
	SetTemperature(tau float64)
	// SetStraightThrough switches the straight-through mode for the
	// following LossGrad and TrainStep calls: the forward pass is the hard
	// walk (one-hot columns at the argmax of L+g, node decisions at the
	// sign of the pre-activation), the backward pass takes the soft
	// model's derivatives of the sigmoids and column softmaxes, and the
	// loss's gradient is that of the walk's expected error (Total then
	// reports the walk's BCE and leaf term). Predict is not affected.
	SetStraightThrough(on bool)
}

// Adam hyper-parameters of the authors' training (PyTorch defaults).
const (
	adamBeta1 = 0.9
	adamBeta2 = 0.999
	adamEps   = 1e-8
)

// clampLo and clampHi are the output clamp of the authors' code ("interval").
const (
	clampLo = 1e-5
	clampHi = 1 - 1e-5
)

// CPU is the reference engine: the SONG math on a Kernel, in precision T.
//
// Notation (spec section 1): S = n+c states, B rows in the batch. Matrices
// with a column per row of the batch are "state-major" (n x B and so on).
// M is the fused transition matrix [M1 | M0] (S x 2n); the inputs of step t,
// U_t = [s∘p_t ; (1-s)∘p_t] (2n x B), are kept for all steps side by side in
// one 2n x (N B) matrix, so that the gradient of M is one GEMM over all steps.
type CPU[T Float] struct {
	shape Shape
	k     Kernel[T]
	maxB  int

	p, g   []T // flat parameters and gradient (Shape layout)
	am, av []T // Adam moments
	step   int

	m  []T // S x 2n: [M1 | M0], column softmax of the logits (+ noise)
	mt []T // 2n x S: M transposed, for the backward products
	nx []T // S x B: one step's output
	xb []T // B x d batch input
	sg []T // n x B sigmoids s
	ps []T // (N+1) blocks of n x B: internal states p_0 .. p_N
	u  []T // 2n x (N B): inputs of every step
	q  []T // c x B: leaf mass accumulated over the steps
	dq []T // c x B: gradient of the loss with respect to q
	dn []T // S x (N B): gradient w.r.t. each step's output
	du []T // 2n x B
	gs []T // n x B: gradient w.r.t. s (then w.r.t. the pre-activation)
	gm []T // S x 2n
	// invTau is 1/temperature: softmax((L+g)/tau) and sigmoid(a/tau).
	// It is 1 unless the training anneals toward hard decisions.
	invTau float64

	// straight is the straight-through mode: the forward pass is the hard
	// walk (one-hot columns at the argmax of L+g, node decisions at the
	// sign of the pre-activation), the backward pass differentiates the
	// soft model's sigmoids and softmaxes (kept in msoft and sgs).
	straight bool
	msoft    []T // S x 2n, soft columns (straight-through only)
	sgs      []T // n x B, soft sigmoids (straight-through only)

	nrA []T // N x n node-regularisation coefficients (see nodeReg)
	nrB []T
	nrZ []T
}

// NewCPU returns an engine for shape s and batches of at most maxBatch rows.
// It allocates every workspace once.
func NewCPU[T Float](s Shape, k Kernel[T], maxBatch int) (*CPU[T], error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if maxBatch < 1 {
		return nil, fmt.Errorf("batch must be at least 1, got %d", maxBatch)
	}
	n, c, S, d, N, B := s.Nodes, s.Classes, s.States(), s.Features, s.Steps, maxBatch
	np := s.NumParams()
	e := &CPU[T]{shape: s, k: k, maxB: B,
		p: make([]T, np), g: make([]T, np), am: make([]T, np), av: make([]T, np),
		m: make([]T, S*2*n), mt: make([]T, S*2*n), nx: make([]T, S*B), xb: make([]T, B*d), sg: make([]T, n*B),
		ps: make([]T, (N+1)*n*B), u: make([]T, 2*n*N*B), q: make([]T, c*B), dq: make([]T, c*B),
		dn: make([]T, S*N*B), du: make([]T, 2*n*B), gs: make([]T, n*B), gm: make([]T, S*2*n),
		nrA: make([]T, N*n), nrB: make([]T, N*n), nrZ: make([]T, N*n),
		invTau: 1, msoft: make([]T, S*2*n), sgs: make([]T, n*B),
	}
	return e, nil
}

func (e *CPU[T]) Shape() Shape  { return e.shape }
func (e *CPU[T]) MaxBatch() int { return e.maxB }
func (e *CPU[T]) Precision() string {
	var z T
	if _, ok := any(z).(float32); ok {
		return "f32"
	}
	return "f64"
}

func (e *CPU[T]) SetParams(p []float64) {
	if len(p) != len(e.p) {
		panic(fmt.Sprintf("trainer: SetParams got %d values, want %d", len(p), len(e.p)))
	}
	for i, v := range p {
		e.p[i] = T(v)
	}
}

func (e *CPU[T]) Params(dst []float64) {
	for i, v := range e.p {
		dst[i] = float64(v)
	}
}

func (e *CPU[T]) SetTemperature(tau float64) {
	if !(tau > 0) {
		panic(fmt.Sprintf("trainer: temperature %v", tau))
	}
	e.invTau = 1 / tau
}

func (e *CPU[T]) SetStraightThrough(on bool) { e.straight = on }

func (e *CPU[T]) OptState(m, v []float64) int {
	for i := range e.am {
		m[i], v[i] = float64(e.am[i]), float64(e.av[i])
	}
	return e.step
}

func (e *CPU[T]) SetOptState(m, v []float64, step int) {
	for i := range e.am {
		e.am[i], e.av[i] = T(m[i]), T(v[i])
	}
	e.step = step
}

// rows returns the batch size of x, panicking on a shape error.
func (e *CPU[T]) rows(x []float64) int {
	d := e.shape.Features
	if len(x)%d != 0 || len(x) == 0 || len(x)/d > e.maxB {
		panic(fmt.Sprintf("trainer: batch of %d values is not 1..%d rows of %d features", len(x), e.maxB, d))
	}
	return len(x) / d
}

// transitions fills e.m from the logits and the optional Gumbel noise.
func (e *CPU[T]) transitions(noise []float64) {
	s := e.shape
	n, S := s.Nodes, s.States()
	l0o, l1o, _, _, _ := s.offsets()
	tiny := sqrtMinNormal[T]()
	fill := func(logits []T, off int, noise []float64, col0 int) {
		for i := 0; i < n; i++ {
			mx := math.Inf(-1)
			for r := 0; r < S; r++ {
				v := float64(logits[r*n+i])
				if noise != nil {
					v += noise[off+r*n+i]
				}
				v *= e.invTau
				mx = math.Max(mx, v)
			}
			var sum float64
			for r := 0; r < S; r++ {
				v := float64(logits[r*n+i])
				if noise != nil {
					v += noise[off+r*n+i]
				}
				ev := math.Exp(v*e.invTau - mx)
				e.m[r*2*n+col0+i] = T(ev)
				sum += ev
			}
			inv := 1 / sum
			for r := 0; r < S; r++ {
				v := T(float64(e.m[r*2*n+col0+i]) * inv)
				if v < tiny {
					// Subnormal numbers are up to 100 times slower on x86;
					// they appear when the temperature is low. Their
					// contribution is below the smallest normal number.
					v = 0
				}
				e.m[r*2*n+col0+i] = v
			}
		}
	}
	fill(e.p[l1o:l1o+S*n], l1o, noise, 0)
	fill(e.p[l0o:l0o+S*n], l0o, noise, n)
	if !e.straight {
		return
	}
	// One-hot columns at the argmax of the logits (+ noise), the first of
	// equal ones, as the runtime chooses children.
	copy(e.msoft, e.m)
	for half, off := range [2]int{l1o, l0o} {
		for i := 0; i < n; i++ {
			best, bv := 0, math.Inf(-1)
			for r := 0; r < S; r++ {
				v := float64(e.p[off+r*n+i])
				if noise != nil {
					v += noise[off+r*n+i]
				}
				if v > bv {
					best, bv = r, v
				}
			}
			col := half*n + i
			for r := 0; r < S; r++ {
				e.m[r*2*n+col] = 0
			}
			e.m[best*2*n+col] = 1
		}
	}
}

// forward runs the N steps on the B rows of x and leaves q (c x B) filled.
func (e *CPU[T]) forward(x []float64, B int) {
	s := e.shape
	n, c, d, N, S := s.Nodes, s.Classes, s.Features, s.Steps, s.States()
	_, _, wo, bo, _ := s.offsets()
	for i, v := range x {
		e.xb[i] = T(v)
	}
	// Pre-activations a = W x^T (n x B), then s = sigmoid(a + b).
	e.k.Gemm(false, true, n, B, d, 1, e.p[wo:], d, e.xb, d, 0, e.sg, B)
	for i := 0; i < n; i++ {
		bi := float64(e.p[bo+i])
		row := e.sg[i*B : (i+1)*B]
		if e.straight {
			// The walk's decision (runtime: a margin > 0 goes right) and,
			// for the backward pass, the soft sigmoid.
			soft := e.sgs[i*B : (i+1)*B]
			for j, a := range row {
				z := float64(a) + bi
				soft[j] = T(runtime.Sigmoid(z * e.invTau))
				row[j] = 0
				if z > 0 {
					row[j] = 1
				}
			}
			continue
		}
		for j, a := range row {
			row[j] = T(runtime.Sigmoid((float64(a) + bi) * e.invTau))
		}
	}
	p0 := e.ps[:n*B]
	clear(p0)
	for j := 0; j < B; j++ {
		p0[j] = 1 // root
	}
	NB := N * B
	tiny := sqrtMinNormal[T]()
	for t := 0; t < N; t++ {
		pt := e.ps[t*n*B : (t+1)*n*B]
		for i := 0; i < n; i++ {
			u1 := e.u[i*NB+t*B : i*NB+t*B+B]
			u0 := e.u[(n+i)*NB+t*B : (n+i)*NB+t*B+B]
			si := e.sg[i*B : (i+1)*B]
			for j, p := range pt[i*B : (i+1)*B] {
				a, b := si[j]*p, (1-si[j])*p
				if a < tiny { // no subnormals into the GEMM (see transitions)
					a = 0
				}
				if b < tiny {
					b = 0
				}
				u1[j], u0[j] = a, b
			}
		}
		// One product per step: next = [M1 | M0] U_t (S x B). Its internal
		// rows are p_{t+1}; its leaf rows accumulate into q.
		e.k.Gemm(false, false, S, B, 2*n, 1, e.m, 2*n, e.u[t*B:], NB, 0, e.nx, B)
		copy(e.ps[(t+1)*n*B:(t+2)*n*B], e.nx[:n*B])
		if t == 0 {
			copy(e.q[:c*B], e.nx[n*B:])
		} else {
			for i, v := range e.nx[n*B : S*B] {
				e.q[i] += v
			}
		}
	}
}

// sqrtMinNormal returns the square root of the smallest positive normal
// number of T. Values below it in the GEMM inputs are flushed to zero: then
// every product of two inputs is normal, and subnormal arithmetic, up to
// 100 times slower on x86 (it appears at low annealing temperatures), never
// happens. Such values are far below T's resolution of the O(1) masses.
func sqrtMinNormal[T Float]() T {
	var z T
	if _, ok := any(z).(float32); ok {
		return T(0x1p-63)
	}
	return T(0x1p-511)
}

// minNormal returns the smallest positive normal number of T.
func minNormal[T Float]() T {
	var z T
	if _, ok := any(z).(float32); ok {
		return T(0x1p-126)
	}
	return T(0x1p-1022)
}

// clampOut is the authors' interval(): values <= 0 become 1e-5, values >= 1
// become 1-1e-5. ok is false where a value was replaced (zero gradient).
func clampOut(v float64) (out float64, ok bool) {
	switch {
	case v <= 0:
		return clampLo, false
	case v >= 1:
		return clampHi, false
	}
	return v, true
}

// loss computes the BCE and leaf terms from e.q and writes dq (the gradient
// of BCE + Leaf with respect to the unclamped q).
func (e *CPU[T]) loss(y []int, B int) LossParts {
	c := e.shape.Classes
	wOther := 1.0
	if c > 2 {
		wOther = 1 / float64(c-1)
	}
	// Sums run row by row (each row's mass over the classes, then over the
	// batch), the order of the authors' q.sum(1).mean().
	var bce, mass float64
	for j := 0; j < B; j++ {
		var rowMass float64
		for k := 0; k < c; k++ {
			qc, _ := clampOut(float64(e.q[k*B+j]))
			w, yk := wOther, 0.0
			if y[j] == k {
				w, yk = 1, 1
			}
			bce -= w * (yk*math.Max(math.Log(qc), -100) + (1-yk)*math.Max(math.Log(1-qc), -100))
			rowMass += qc
		}
		mass += rowMass
	}
	mean := mass / float64(B)
	lp := LossParts{BCE: bce / float64(B*c), Leaf: -math.Log(mean), LeafMass: mean}
	dLeaf := -1 / (mean * float64(B))
	scale := 1 / float64(B*c)
	if e.straight {
		// The hard walk's q is 0 or 1, where the clamp has no gradient:
		// the gradient is that of the walk's expected error instead,
		// -q_y + sum_{k != y} q_k w.
		for k := 0; k < c; k++ {
			for j := 0; j < B; j++ {
				g := wOther * scale
				if y[j] == k {
					g = -scale
				}
				e.dq[k*B+j] = T(g + dLeaf)
			}
		}
		return lp
	}
	for k := 0; k < c; k++ {
		for j := 0; j < B; j++ {
			qc, ok := clampOut(float64(e.q[k*B+j]))
			if !ok {
				e.dq[k*B+j] = 0
				continue
			}
			w, yk := wOther, 0.0
			if y[j] == k {
				w, yk = 1, 1
			}
			g := w * scale * (qc - yk) / math.Max((1-qc)*qc, 1e-12)
			e.dq[k*B+j] = T(g + dLeaf)
		}
	}
	return lp
}

// nodeReg computes the node regularisation (spec section 2.3) from the
// forward states and stores, per step t and node i, the coefficients of its
// gradient: d(lambda L)/d z_{b,t,i} = nrA s^g + nrB (1-s)^g + nrZ, and
// d/ds_{b,t,i} = z (g nrA s^(g-1) - g nrB (1-s)^(g-1)).
func (e *CPU[T]) nodeReg(B int) float64 {
	s := e.shape
	n, N := s.Nodes, s.Steps
	gamma, lambda := s.NodeRegGamma, s.NodeRegLambda
	var total float64
	for t := 0; t < N; t++ {
		w := math.Pow(2, -float64(t))
		var ct float64
		for i := 0; i < n; i++ {
			pt := e.ps[t*n*B+i*B : t*n*B+(i+1)*B]
			si := e.sg[i*B : (i+1)*B]
			var zs, as, bs float64
			for j := range pt {
				z, _ := clampOut(float64(pt[j]))
				sv := float64(si[j])
				zs += z
				as += z * math.Pow(sv, gamma)
				if gamma != 1 {
					bs += z * math.Pow(1-sv, gamma)
				}
			}
			if zs == 0 {
				zs = 1
			}
			alpha := as / zs
			beta := 1 - alpha
			if gamma != 1 {
				beta = bs / zs
			}
			ac, aok := clampOut(alpha)
			bc, bok := clampOut(beta)
			ct += (math.Log(ac) + math.Log(bc)) / 2
			// d(lambda * -w * (log ac + log bc)/2)
			da, db := 0.0, 0.0
			if aok {
				da = -lambda * w / (2 * ac)
			}
			if bok {
				db = -lambda * w / (2 * bc)
			}
			var dA, dB, dZ float64
			if gamma == 1 {
				dAlpha := da - db // beta = 1 - alpha
				dA = dAlpha / zs
				dZ = -dAlpha * alpha / zs
			} else {
				dA = da / zs
				dB = db / zs
				dZ = -(da*alpha + db*beta) / zs
			}
			e.nrA[t*n+i], e.nrB[t*n+i], e.nrZ[t*n+i] = T(dA), T(dB), T(dZ)
		}
		total -= w * ct
	}
	return total
}

// LossGrad implements Engine.
func (e *CPU[T]) LossGrad(grad []float64, x []float64, y []int, noise []float64) LossParts {
	lp := e.lossGrad(x, y, noise, grad != nil)
	if grad != nil {
		for i, v := range e.g {
			grad[i] = float64(v)
		}
	}
	return lp
}

// TrainStep implements Engine with PyTorch's Adam update, preceded, when
// Shape.WeightDecay > 0, by PyTorch AdamW's decoupled decay of W.
func (e *CPU[T]) TrainStep(x []float64, y []int, noise []float64, lr float64) LossParts {
	lp := e.lossGrad(x, y, noise, true)
	if wd := e.shape.WeightDecay; wd > 0 {
		_, _, w, b, _ := e.shape.offsets()
		f := T(1 - lr*wd)
		for i := w; i < b; i++ {
			e.p[i] *= f
		}
	}
	e.step++
	bc1 := 1 - math.Pow(adamBeta1, float64(e.step))
	bc2 := math.Sqrt(1 - math.Pow(adamBeta2, float64(e.step)))
	stepSize := T(lr / bc1)
	b1, b2, eps, ibc2 := T(adamBeta1), T(adamBeta2), T(adamEps), T(1/bc2)
	// No subnormal numbers in the moments or parameters: a moment whose
	// gradient stays 0 (a node no walk visits, a column entry flushed to
	// 0) decays geometrically into the subnormal range and stays there for
	// hundreds of steps, and subnormal arithmetic is up to 100 times
	// slower on x86 (late in Connect-4 255/10 runs, annealed or
	// straight-through, over 70% of the first moments were subnormal:
	// docs/RESULTS.md). Gradients below sqrtMinNormal (whose square would
	// be subnormal) count as 0, and moments and parameters that fall below
	// minNormal become 0. The change to an update is then at most
	// (1-beta1)*sqrtMinNormal/adamEps times the step size (about 1e-12 in
	// float32), far below the resolution of any parameter that matters.
	tinyG, tinyM := sqrtMinNormal[T](), minNormal[T]()
	for i, g := range e.g {
		if g < tinyG && g > -tinyG {
			g = 0
		}
		m := e.am[i] + (1-b1)*(g-e.am[i])
		if m < tinyM && m > -tinyM {
			m = 0
		}
		v := b2*e.av[i] + (1-b2)*g*g
		if v < tinyM {
			v = 0
		}
		e.am[i], e.av[i] = m, v
		p := e.p[i] - stepSize*m/(T(math.Sqrt(float64(v)))*ibc2+eps)
		if p < tinyM && p > -tinyM {
			p = 0 // a weight-decayed filter entry, in the GEMMs next
		}
		e.p[i] = p
	}
	return lp
}

func (e *CPU[T]) lossGrad(x []float64, y []int, noise []float64, wantGrad bool) LossParts {
	B := e.rows(x)
	if len(y) != B {
		panic(fmt.Sprintf("trainer: %d labels for %d rows", len(y), B))
	}
	s := e.shape
	n, c, S, d, N := s.Nodes, s.Classes, s.States(), s.Features, s.Steps
	e.transitions(noise)
	e.forward(x, B)
	lp := e.loss(y, B)
	// The node regularisation acts on soft decisions: the walk of the
	// straight-through mode has none, and it is left out.
	reg := s.NodeRegLambda > 0 && !e.straight
	if reg {
		lp.Node = e.nodeReg(B)
	}
	lp.Total = lp.BCE + lp.Leaf + s.NodeRegLambda*lp.Node
	if !wantGrad {
		return lp
	}

	// Backward through the steps. dn holds, for each step t, the gradient
	// with respect to that step's output: rows 0..n-1 are d/dp_{t+1}, rows
	// n..S-1 are dq (the same for every step, since q sums the steps).
	NB := N * B
	gamma := s.NodeRegGamma
	tiny := sqrtMinNormal[T]()
	for t := 0; t < N; t++ {
		for k := 0; k < c; k++ {
			copy(e.dn[(n+k)*NB+t*B:(n+k)*NB+t*B+B], e.dq[k*B:(k+1)*B])
		}
	}
	for i := 0; i < n; i++ {
		clear(e.dn[i*NB+(N-1)*B : i*NB+N*B]) // p_N is not used by the loss
	}
	clear(e.gs[:n*B])
	for r := 0; r < S; r++ { // mt = M^T (2n x S), once per batch
		for j, v := range e.m[r*2*n : (r+1)*2*n] {
			e.mt[j*S+r] = v
		}
	}
	for t := N - 1; t >= 0; t-- {
		// dU_t = M^T dn_t (2n x B), from the transposed copy of M.
		e.k.Gemm(false, false, 2*n, B, S, 1, e.mt, S, e.dn[t*B:], NB, 0, e.du, B)
		pt := e.ps[t*n*B : (t+1)*n*B]
		for i := 0; i < n; i++ {
			du1 := e.du[i*B : (i+1)*B]
			du0 := e.du[(n+i)*B : (n+i+1)*B]
			si := e.sg[i*B : (i+1)*B]
			gsi := e.gs[i*B : (i+1)*B]
			pi := pt[i*B : (i+1)*B]
			var nA, nB, nZ float64
			if reg {
				nA, nB, nZ = float64(e.nrA[t*n+i]), float64(e.nrB[t*n+i]), float64(e.nrZ[t*n+i])
			}
			var gp []T
			if t > 0 {
				gp = e.dn[i*NB+(t-1)*B : i*NB+t*B]
			}
			for j := range si {
				sv := si[j]
				gsi[j] += pi[j] * (du1[j] - du0[j])
				if gp != nil {
					g := sv*du1[j] + (1-sv)*du0[j]
					if g < tiny && g > -tiny { // no subnormals into the GEMMs
						g = 0
					}
					gp[j] = g
				}
				if !reg {
					continue
				}
				z, zok := clampOut(float64(pi[j]))
				s64 := float64(sv)
				if gamma == 1 {
					if gp != nil && zok {
						gp[j] += T(nA*s64 + nZ)
					}
					gsi[j] += T(z * nA)
				} else {
					if gp != nil && zok {
						gp[j] += T(nA*math.Pow(s64, gamma) + nB*math.Pow(1-s64, gamma) + nZ)
					}
					gsi[j] += T(z * gamma * (nA*math.Pow(s64, gamma-1) - nB*math.Pow(1-s64, gamma-1)))
				}
			}
		}
	}
	// dM = sum_t dn_t U_t^T: one GEMM over all steps (S x 2n).
	e.k.Gemm(false, true, S, 2*n, NB, 1, e.dn, NB, e.u, NB, 0, e.gm, 2*n)

	// Through the sigmoid, then into W and b (both scaled by the
	// temperature's 1/tau; exactly 1 unless annealing).
	invTau := T(e.invTau)
	l0o, l1o, wo, bo, _ := s.offsets()
	sgd, md := e.sg, e.m // the values the derivatives are taken at
	if e.straight {
		sgd, md = e.sgs, e.msoft
	}
	for i := 0; i < n; i++ {
		var sum T
		for j := 0; j < B; j++ {
			sv := sgd[i*B+j]
			g := e.gs[i*B+j] * sv * (1 - sv) * invTau
			e.gs[i*B+j] = g
			sum += g
		}
		e.g[bo+i] = sum
	}
	e.k.Gemm(false, false, n, d, B, 1, e.gs, B, e.xb, d, 0, e.g[wo:], d)

	// Through the column softmax: dL[:,i] = M[:,i] ∘ (dM[:,i] - <M[:,i], dM[:,i]>).
	for half, off := range [2]int{l1o, l0o} {
		col0 := half * n
		for i := 0; i < n; i++ {
			var dot float64
			for r := 0; r < S; r++ {
				dot += float64(md[r*2*n+col0+i]) * float64(e.gm[r*2*n+col0+i])
			}
			for r := 0; r < S; r++ {
				mv := md[r*2*n+col0+i]
				e.g[off+r*n+i] = mv * (e.gm[r*2*n+col0+i] - T(dot)) * invTau
			}
		}
	}
	return lp
}

// Predict implements Engine: leaf masses with plain softmax, in chunks of
// MaxBatch rows.
func (e *CPU[T]) Predict(dst []float64, x []float64) {
	d, c := e.shape.Features, e.shape.Classes
	rows := len(x) / d
	if len(x) != rows*d || len(dst) != rows*c {
		panic(fmt.Sprintf("trainer: Predict got %d inputs and %d outputs for %d features, %d classes", len(x), len(dst), d, c))
	}
	defer e.SetStraightThrough(e.straight)
	e.straight = false
	e.transitions(nil)
	for r0 := 0; r0 < rows; r0 += e.maxB {
		B := min(e.maxB, rows-r0)
		e.forward(x[r0*d:(r0+B)*d], B)
		for k := 0; k < c; k++ {
			for j := 0; j < B; j++ {
				dst[(r0+j)*c+k] = float64(e.q[k*B+j])
			}
		}
	}
}
