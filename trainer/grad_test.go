package trainer

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
)

// TestGradientFiniteDifference checks the hand-written backward pass against
// central differences (gonum diff/fd) on shapes the reference cases do not
// cover: gamma off the reference values, Gumbel noise, a single node, a
// single step, a single row.
func TestGradientFiniteDifference(t *testing.T) {
	for _, s := range []struct {
		shape Shape
		batch int
		noise bool
		tau   float64 // 0: the plain model
	}{
		{Shape{Nodes: 5, Classes: 3, Steps: 4, Features: 6}, 7, false, 0},
		{Shape{Nodes: 5, Classes: 3, Steps: 4, Features: 6}, 7, true, 0},
		{Shape{Nodes: 4, Classes: 2, Steps: 5, Features: 3, NodeRegGamma: 1.3, NodeRegLambda: 0.2}, 6, true, 0},
		{Shape{Nodes: 3, Classes: 4, Steps: 3, Features: 2, NodeRegGamma: 1, NodeRegLambda: 0.5}, 5, false, 0},
		{Shape{Nodes: 1, Classes: 2, Steps: 1, Features: 1}, 1, false, 0},
		{Shape{Nodes: 6, Classes: 5, Steps: 1, Features: 4}, 3, true, 0},
		{Shape{Nodes: 5, Classes: 3, Steps: 4, Features: 6}, 7, true, 0.5},
		{Shape{Nodes: 4, Classes: 2, Steps: 5, Features: 3, NodeRegGamma: 1.3, NodeRegLambda: 0.2}, 6, false, 0.3},
	} {
		rng := rand.New(rand.NewPCG(1, 2))
		p := NewParams(s.shape)
		p.Init(rng)
		for i := range p.W() { // larger filters than the init, so sigmoids are not all ~0.5
			p.W()[i] = rng.NormFloat64()
		}
		x, y, noise := randomBatch(rng, s.shape, s.batch)
		if !s.noise {
			noise = nil
		}
		e, err := NewCPU[float64](s.shape, Gonum64{}, s.batch)
		if err != nil {
			t.Fatal(err)
		}
		if s.tau > 0 {
			e.SetTemperature(s.tau)
		}
		e.SetParams(p.Flat)
		grad := make([]float64, len(p.Flat))
		e.LossGrad(grad, x, y, noise)

		f := func(q []float64) float64 {
			e.SetParams(q)
			return e.LossGrad(nil, x, y, noise).Total
		}
		want := fd.Gradient(nil, f, p.Flat, &fd.Settings{Formula: fd.Central, Step: 1e-6})
		var maxDiff, maxAbs float64
		for i := range want {
			maxDiff = math.Max(maxDiff, math.Abs(grad[i]-want[i]))
			maxAbs = math.Max(maxAbs, math.Abs(want[i]))
		}
		// Central differences with step 1e-6 are accurate to about 1e-9 here.
		if maxDiff > 1e-7*math.Max(1, maxAbs) {
			t.Errorf("%+v batch %d noise %v: max |grad - fd| = %.3g (max |fd| %.3g)", s.shape, s.batch, s.noise, maxDiff, maxAbs)
		}
	}
}

// randomBatch returns normal inputs, uniform labels and Gumbel noise for a
// batch of shape s.
func randomBatch(rng *rand.Rand, s Shape, batch int) (x []float64, y []int, noise []float64) {
	x = make([]float64, batch*s.Features)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	y = make([]int, batch)
	for i := range y {
		y[i] = rng.IntN(s.Classes)
	}
	noise = make([]float64, 2*s.States()*s.Nodes)
	gumbel(noise, rng)
	return x, y, noise
}

// TestLossCorrect checks LossParts.Correct against the rows of a batch
// whose predicted leaf masses (Predict, the same forward pass without
// noise) are largest at their class.
func TestLossCorrect(t *testing.T) {
	s := Shape{Nodes: 7, Classes: 4, Steps: 5, Features: 3}
	rng := rand.New(rand.NewPCG(3, 4))
	p := NewParams(s)
	p.Init(rng)
	for i := range p.W() {
		p.W()[i] = 3 * rng.NormFloat64()
	}
	const batch = 50
	x, _, _ := randomBatch(rng, s, batch)
	for _, k := range []Kernel[float32]{DefaultKernel32(), Gonum32{}} {
		e, err := NewCPU[float32](s, k, batch)
		if err != nil {
			t.Fatal(err)
		}
		e.SetParams(p.Flat)
		q := make([]float64, batch*s.Classes)
		e.Predict(q, x)
		y := make([]int, batch)
		for i := range y {
			y[i] = argmax(q[i*s.Classes : (i+1)*s.Classes])
		}
		if got := e.LossGrad(nil, x, y, nil).Correct; got != batch {
			t.Errorf("%T: labels at the largest masses: %d of %d rows correct", k, got, batch)
		}
		want := 0
		for i := range y {
			y[i] = (y[i] + i%2) % s.Classes // half the rows moved to another class
			if i%2 == 0 {
				want++
			}
		}
		if got := e.LossGrad(nil, x, y, nil).Correct; got != want {
			t.Errorf("%T: %d rows correct, want %d", k, got, want)
		}
	}
}
