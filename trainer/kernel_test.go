package trainer

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestKernelsAgree runs the whole loss and gradient with each packed kernel
// and with gonum's, on random shapes including the edge cases B = 1, N = 1,
// n = 1 and odd sizes, and requires float32-level agreement with gonum and
// the same bits from every packed kernel.
func TestKernelsAgree(t *testing.T) {
	var packed []Kernel[float32]
	for _, name := range PackedKernels {
		if k, err := NewKernel32(name); err == nil {
			packed = append(packed, k)
		}
	}
	if len(packed) == 0 {
		t.Skip("no packed kernel runs on this machine: they are never used here")
	}
	rng := rand.New(rand.NewPCG(4, 4))
	shapes := []struct {
		s Shape
		b int
	}{
		{Shape{Nodes: 1, Classes: 2, Steps: 1, Features: 1}, 1},
		{Shape{Nodes: 1, Classes: 3, Steps: 7, Features: 5}, 33},
		{Shape{Nodes: 7, Classes: 26, Steps: 1, Features: 16}, 1},
		{Shape{Nodes: 33, Classes: 10, Steps: 5, Features: 7}, 7},
		{Shape{Nodes: 64, Classes: 26, Steps: 20, Features: 16}, 128},
		{Shape{Nodes: 527, Classes: 3, Steps: 2, Features: 33}, 9},
		{Shape{Nodes: 16, Classes: 4, Steps: 6, Features: 3, NodeRegGamma: 1.5, NodeRegLambda: 0.1}, 31},
	}
	for _, tc := range shapes {
		p := NewParams(tc.s)
		p.Init(rng)
		x, y, noise := randomBatch(rng, tc.s, tc.b)
		kernels := append([]Kernel[float32]{Gonum32{}}, packed...)
		grads := make([][]float64, len(kernels))
		losses := make([]LossParts, len(kernels))
		for i, k := range kernels {
			e, err := NewCPU[float32](tc.s, k, tc.b)
			if err != nil {
				t.Fatal(err)
			}
			e.SetParams(p.Flat)
			grads[i] = make([]float64, len(p.Flat))
			losses[i] = e.LossGrad(grads[i], x, y, noise)
		}
		if d := math.Abs(losses[0].Total - losses[1].Total); d > 1e-4*math.Max(1, math.Abs(losses[0].Total)) {
			t.Errorf("%+v B=%d: loss %v (gonum) vs %v (%s)", tc.s, tc.b, losses[0].Total, losses[1].Total, kernels[1].Name())
		}
		var scale, worst float64
		for i := range grads[0] {
			scale = math.Max(scale, math.Abs(grads[0][i]))
			worst = math.Max(worst, math.Abs(grads[0][i]-grads[1][i]))
		}
		if worst > 1e-4*scale {
			t.Errorf("%+v B=%d: gradients differ by %.3g of max %.3g", tc.s, tc.b, worst, scale)
		}
		for i := 2; i < len(kernels); i++ {
			if losses[i] != losses[1] || !slices.Equal(grads[i], grads[1]) {
				t.Errorf("%+v B=%d: %s and %s give different bits", tc.s, tc.b, kernels[1].Name(), kernels[i].Name())
			}
		}
	}
}

// TestTrainStepAllocs: a training step allocates nothing in steady state
// with the default float32 kernel where it is a packed one (gonum's parallel
// GEMM allocates its own goroutine bookkeeping).
func TestTrainStepAllocs(t *testing.T) {
	k, ok := DefaultKernel32().(*Packed)
	if !ok {
		t.Skip("no packed kernel runs on this machine")
	}
	s := Shape{Nodes: 64, Classes: 26, Steps: 20, Features: 16, NodeRegGamma: 1.2, NodeRegLambda: 0.1}
	e, err := NewCPU[float32](s, k, 128)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 5))
	p := NewParams(s)
	p.Init(rng)
	e.SetParams(p.Flat)
	x := make([]float64, 128*16)
	y := make([]int, 128)
	noise := make([]float64, 2*s.States()*s.Nodes)
	if a := testing.AllocsPerRun(10, func() { e.TrainStep(x, y, noise, 1e-3) }); a != 0 {
		t.Errorf("%v allocations per training step", a)
	}
}

// TestWeightDecay: with Shape.WeightDecay, a training step differs from the
// plain Adam step by exactly -lr*wd times the old node filters W, and
// nowhere else (AdamW's decoupled decay does not touch the gradient).
func TestWeightDecay(t *testing.T) {
	const lr, wd = 0.03, 0.5
	s := Shape{Nodes: 6, Classes: 3, Steps: 4, Features: 5}
	rng := rand.New(rand.NewPCG(9, 9))
	p := NewParams(s)
	p.Init(rng)
	x, y, noise := randomBatch(rng, s, 7)
	step := func(s Shape) []float64 {
		e, err := NewCPU[float64](s, Gonum64{}, 7)
		if err != nil {
			t.Fatal(err)
		}
		e.SetParams(p.Flat)
		e.TrainStep(x, y, noise, lr)
		out := make([]float64, s.NumParams())
		e.Params(out)
		return out
	}
	plain := step(s)
	s.WeightDecay = wd
	decayed := step(s)
	_, _, w, b, _ := s.offsets()
	for i := range plain {
		want := 0.0
		if i >= w && i < b {
			want = -lr * wd * p.Flat[i]
		}
		if got := decayed[i] - plain[i]; math.Abs(got-want) > 1e-12 {
			t.Fatalf("param %d: decayed - plain = %v, want %v", i, got, want)
		}
	}
	if err := (Shape{Nodes: 1, Classes: 2, Steps: 1, Features: 1, WeightDecay: -1}).Validate(); err == nil {
		t.Error("negative weight decay accepted")
	}
}

// TestNoSubnormalMoments: Adam moments and parameters that decay into the
// subnormal range become 0 (engine.go, TrainStep), in both precisions.
// Feature 0 is 0 in every row, so its filter entries get no gradient: their
// moments, set subnormal here, would stay subnormal, and so would the
// entries themselves.
func TestNoSubnormalMoments(t *testing.T) {
	s := Shape{Nodes: 6, Classes: 3, Steps: 4, Features: 5, WeightDecay: 0.1}
	rng := rand.New(rand.NewPCG(9, 10))
	p := NewParams(s)
	p.Init(rng)
	x, y, noise := randomBatch(rng, s, 7)
	for j := 0; j < 7; j++ {
		x[j*s.Features] = 0
	}
	_, _, w, _, _ := s.offsets()
	for name, tc := range map[string]struct {
		newEngine func(Shape, int) (Engine, error)
		sub       float64 // a subnormal number of the precision
		min       float64 // its smallest normal number
	}{
		"f32": {newF32, 1e-40, 0x1p-126},
		"f64": {newF64, 1e-310, 0x1p-1022},
	} {
		e, err := tc.newEngine(s, 7)
		if err != nil {
			t.Fatal(err)
		}
		np := s.NumParams()
		m, v := make([]float64, np), make([]float64, np)
		for i := range m {
			m[i], v[i] = tc.sub, tc.sub
		}
		flat := append([]float64(nil), p.Flat...)
		for i := 0; i < s.Nodes; i++ {
			flat[w+i*s.Features] = tc.sub // W[i][0]
		}
		e.SetParams(flat)
		e.SetOptState(m, v, 3)
		e.TrainStep(x, y, noise, 0.01)
		e.OptState(m, v)
		e.Params(flat)
		for i := range m {
			for what, val := range map[string]float64{"first moment": m[i], "second moment": v[i], "parameter": flat[i]} {
				if val != 0 && math.Abs(val) < tc.min {
					t.Errorf("%s: %s %d is subnormal (%g)", name, what, i, val)
				}
			}
		}
		for i := 0; i < s.Nodes; i++ {
			if k := w + i*s.Features; m[k] != 0 || flat[k] != 0 {
				t.Errorf("%s: W[%d][0] (no gradient): moment %g, value %g, want 0 and 0", name, i, m[k], flat[k])
			}
		}
	}
}
