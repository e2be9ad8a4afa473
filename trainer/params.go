package trainer

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/songc/songc/runtime"
)

// Shape is the size of a SONG and of its loss.
type Shape struct {
	Nodes    int // n, internal nodes
	Classes  int // c, leaves
	Steps    int // N, Markov chain steps
	Features int // d, input features

	// Node regularisation (spec section 2.3); off when Lambda is 0.
	NodeRegGamma  float64
	NodeRegLambda float64

	// WeightDecay is the decoupled weight decay of the node filters W
	// (AdamW: each step multiplies W by 1 - lr*WeightDecay before the Adam
	// update); off when 0. It is not part of the loss. songc's addition.
	WeightDecay float64
}

// States returns n+c.
func (s Shape) States() int { return s.Nodes + s.Classes }

// Validate reports a shape no engine can run.
func (s Shape) Validate() error {
	switch {
	case s.Nodes < 1:
		return fmt.Errorf("nodes must be at least 1, got %d", s.Nodes)
	case s.Classes < 2:
		return fmt.Errorf("classes must be at least 2, got %d", s.Classes)
	case s.Steps < 1:
		return fmt.Errorf("steps must be at least 1, got %d", s.Steps)
	case s.Features < 1:
		return fmt.Errorf("features must be at least 1, got %d", s.Features)
	case s.NodeRegLambda < 0 || math.IsNaN(s.NodeRegLambda) || math.IsInf(s.NodeRegLambda, 0):
		return fmt.Errorf("node-reg-lambda must be a finite number >= 0, got %v", s.NodeRegLambda)
	case !(s.WeightDecay >= 0) || math.IsInf(s.WeightDecay, 0):
		return fmt.Errorf("weight-decay must be a finite number >= 0, got %v", s.WeightDecay)
	case s.NodeRegLambda > 0 && !(s.NodeRegGamma >= 1 && s.NodeRegGamma < 2):
		return fmt.Errorf("node-reg-gamma must be in [1, 2), got %v", s.NodeRegGamma)
	}
	return nil
}

// Layout of the flat parameter vector shared by engines, the optimiser and
// checkpoints: L0 ((n+c) x n, row-major), L1 (same), W (n x d), b (n).
func (s Shape) offsets() (l0, l1, w, b, total int) {
	S, n, d := s.States(), s.Nodes, s.Features
	l0 = 0
	l1 = S * n
	w = 2 * S * n
	b = w + n*d
	total = b + n
	return
}

// NumParams returns the length of the flat parameter vector.
func (s Shape) NumParams() int {
	_, _, _, _, total := s.offsets()
	return total
}

// Params is a flat float64 parameter vector with views of its parts.
type Params struct {
	Shape Shape
	Flat  []float64
}

// NewParams returns zero parameters of shape s.
func NewParams(s Shape) *Params { return &Params{Shape: s, Flat: make([]float64, s.NumParams())} }

// L0, L1, W and B return views into Flat.
func (p *Params) L0() []float64 { a, b, _, _, _ := p.Shape.offsets(); return p.Flat[a:b] }
func (p *Params) L1() []float64 { _, a, b, _, _ := p.Shape.offsets(); return p.Flat[a:b] }
func (p *Params) W() []float64  { _, _, a, b, _ := p.Shape.offsets(); return p.Flat[a:b] }
func (p *Params) B() []float64  { _, _, _, a, b := p.Shape.offsets(); return p.Flat[a:b] }

// Init fills p with the authors' initialisation (spec section 3): L0 and L1
// uniform on [0, 1); W and b uniform on [-r, r] with r = 1/sqrt(d n).
func (p *Params) Init(rng *rand.Rand) {
	for i := range p.L0() {
		p.L0()[i] = rng.Float64()
	}
	for i := range p.L1() {
		p.L1()[i] = rng.Float64()
	}
	r := 1 / math.Sqrt(float64(p.Shape.Features*p.Shape.Nodes))
	for i := range p.W() {
		p.W()[i] = (2*rng.Float64() - 1) * r
	}
	for i := range p.B() {
		p.B()[i] = (2*rng.Float64() - 1) * r
	}
}

// InitFanIn is Init with W and b uniform on [-1/sqrt(d), 1/sqrt(d)]
// (PyTorch's default for a linear layer of d inputs).
func (p *Params) InitFanIn(rng *rand.Rand) {
	p.Init(rng)
	r := 1 / math.Sqrt(float64(p.Shape.Features))
	for i := range p.W() {
		p.W()[i] = (2*rng.Float64() - 1) * r
	}
	for i := range p.B() {
		p.B()[i] = (2*rng.Float64() - 1) * r
	}
}

// Model converts p to a model file structure (without preprocessing or
// training metadata).
func (p *Params) Model(classNames []string) *runtime.Model {
	s := p.Shape
	S, n, d := s.States(), s.Nodes, s.Features
	rows := func(flat []float64, r, c int) [][]float64 {
		out := make([][]float64, r)
		for i := range out {
			out[i] = append([]float64(nil), flat[i*c:(i+1)*c]...)
		}
		return out
	}
	return &runtime.Model{
		Format: runtime.Format, Nodes: n, Classes: s.Classes, Steps: s.Steps, Features: d,
		ClassNames: append([]string(nil), classNames...),
		M0Logits:   rows(p.L0(), S, n), M1Logits: rows(p.L1(), S, n),
		W: rows(p.W(), n, d), B: append([]float64(nil), p.B()...),
	}
}

// ParamsFromModel copies a validated model's parameters into a flat vector.
func ParamsFromModel(m *runtime.Model) *Params {
	p := NewParams(Shape{Nodes: m.Nodes, Classes: m.Classes, Steps: m.Steps, Features: m.Features})
	flat := func(dst []float64, rows [][]float64) {
		k := 0
		for _, r := range rows {
			k += copy(dst[k:], r)
		}
	}
	flat(p.L0(), m.M0Logits)
	flat(p.L1(), m.M1Logits)
	flat(p.W(), m.W)
	copy(p.B(), m.B)
	return p
}
