package trainer

import (
	"fmt"
)

// LossParts are the parts of the training objective for one batch
// (docs/model.md). Total = BCE + Leaf + lambda*Node.
type LossParts struct {
	BCE      float64 // weighted binary cross-entropy
	Leaf     float64 // -log(mean absorbed leaf mass)
	Node     float64 // node regularisation, before lambda
	Total    float64
	LeafMass float64 // mean over the batch of the summed (clamped) leaf mass
	// Correct counts the rows whose largest leaf mass, in this pass, is
	// at their class (the first of equal ones): the batch's accuracy as
	// the step saw it, with its noise, temperature or hard walk, before
	// the update.
	Correct int
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
	k     PackingKernel[T]
	maxB  int

	p, g   []T // flat parameters and gradient (Shape layout)
	am, av []T // Adam moments
	step   int

	m  []T // S x 2n: [M1 | M0], column softmax of the logits (+ noise)
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
	// col holds one column of scaled logits while transitions takes its
	// softmax.
	col []float64
	// Per row of a batch, for loss: the leaf mass so far, and the class
	// with the largest mass and that mass.
	rowMass []float64
	best    []int
	top     []T
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

// SetThreads sets how many goroutines the engine's kernel may split a
// product between, where it can (Packed): fewer when several graphs train
// side by side. The bits do not depend on it.
func (e *CPU[T]) SetThreads(n int) {
	if k, ok := e.k.(interface{ SetThreads(int) }); ok {
		k.SetThreads(n)
	}
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
	e := &CPU[T]{shape: s, k: packing(k), maxB: B,
		p: make([]T, np), g: make([]T, np), am: make([]T, np), av: make([]T, np),
		m: make([]T, S*2*n), nx: make([]T, S*B), xb: make([]T, B*d), sg: make([]T, n*B),
		ps: make([]T, (N+1)*n*B), u: make([]T, 2*n*N*B), q: make([]T, c*B), dq: make([]T, c*B),
		dn: make([]T, S*N*B), du: make([]T, 2*n*B), gs: make([]T, n*B), gm: make([]T, S*2*n),
		nrA: make([]T, N*n), nrB: make([]T, N*n), nrZ: make([]T, N*n),
		invTau: 1, msoft: make([]T, S*2*n), sgs: make([]T, n*B), col: make([]float64, S),
		rowMass: make([]float64, B), best: make([]int, B), top: make([]T, B),
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
