package trainer_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/songc/songc/trainer"
)

// TestGraphsTrainAlone: K = 1..5 graphs of an odd shape (5 nodes, 3 steps,
// 3 classes, 7 features, batches of 13 rows), each with its own
// parameters, learning rate, weight decay, node regularisation,
// temperature, straight-through mode and noise (or none), trained four
// steps in one TrainSteps call per batch, give the loss parts, parameters
// and Adam state of each graph trained alone, bit for bit, on every kernel
// this machine runs, in float32 and float64.
func TestGraphsTrainAlone(t *testing.T) {
	type engine struct{ precision, kernel string }
	cases := []engine{{"f32", "auto"}, {"f32", "gonum"}, {"f64", "auto"}}
	for _, name := range trainer.PackedKernels {
		if trainer.HasPacked(name) {
			cases = append(cases, engine{"f32", name})
		}
	}
	base := trainer.Shape{Nodes: 5, Classes: 3, Steps: 3, Features: 7}
	const B, steps = 13, 4
	for _, c := range cases {
		for K := 1; K <= 5; K++ {
			rng := rand.New(rand.NewPCG(uint64(K), 9))
			shapes := make([]trainer.Shape, K)
			for k := range shapes {
				shapes[k] = base
				shapes[k].WeightDecay = 0.05 * float64(k%2)
				if k == 2 {
					shapes[k].NodeRegGamma, shapes[k].NodeRegLambda = 1.5, 0.1
				}
			}
			g, err := trainer.NewGraphs(shapes, c.precision, c.kernel, B)
			if err != nil {
				t.Fatal(err)
			}
			alone := make([]trainer.Engine, K)
			noise := make([][]float64, K)
			lr := make([]float64, K)
			for k, s := range shapes {
				if alone[k], _, err = trainer.NewEngine(s, c.precision, c.kernel, B); err != nil {
					t.Fatal(err)
				}
				p := trainer.NewParams(s)
				p.Init(rng)
				for _, e := range []trainer.Engine{alone[k], g.Graph(k)} {
					e.SetParams(p.Flat)
					e.SetStraightThrough(k == 3)
					if k == 1 {
						e.SetTemperature(0.5)
					}
				}
				if k%2 == 0 {
					noise[k] = make([]float64, 2*s.States()*s.Nodes)
				}
				lr[k] = 0.01 * float64(k+1)
			}
			x, y := make([]float64, B*base.Features), make([]int, B)
			out := make([]trainer.LossParts, K)
			for step := 0; step < steps; step++ {
				for i := range x {
					x[i] = rng.NormFloat64()
				}
				for i := range y {
					y[i] = rng.IntN(base.Classes)
				}
				for _, v := range noise {
					for i := range v {
						v[i] = rng.NormFloat64()
					}
				}
				g.TrainSteps(out, x, y, noise, lr)
				for k, e := range alone {
					if want := e.TrainStep(x, y, noise[k], lr[k]); out[k] != want {
						t.Fatalf("%s %s, K=%d, step %d, graph %d: loss %+v, alone %+v", c.precision, c.kernel, K, step, k, out[k], want)
					}
				}
			}
			np := base.NumParams()
			for k, e := range alone {
				got, want := make([]float64, 3*np), make([]float64, 3*np)
				g.Graph(k).Params(got[:np])
				e.Params(want[:np])
				gs := g.Graph(k).OptState(got[np:2*np], got[2*np:])
				ws := e.OptState(want[np:2*np], want[2*np:])
				if gs != ws {
					t.Fatalf("%s %s, K=%d, graph %d: %d Adam steps, alone %d", c.precision, c.kernel, K, k, gs, ws)
				}
				for i := range got {
					if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
						t.Fatalf("%s %s, K=%d, graph %d: parameter or moment %d is %v, alone %v", c.precision, c.kernel, K, k, i, got[i], want[i])
					}
				}
			}
		}
	}
}

// TestGraphsShapes: graphs of different sizes are refused, naming the
// graph; different regularisation is accepted.
func TestGraphsShapes(t *testing.T) {
	a := trainer.Shape{Nodes: 5, Classes: 3, Steps: 3, Features: 7}
	b := a
	b.Steps = 4
	if _, err := trainer.NewGraphs([]trainer.Shape{a, b}, "f32", "auto", 8); err == nil {
		t.Error("graphs of 3 and 4 steps accepted")
	}
	if _, err := trainer.NewGraphs(nil, "f32", "auto", 8); err == nil {
		t.Error("no graph accepted")
	}
	b = a
	b.WeightDecay = 0.01
	if _, err := trainer.NewGraphs([]trainer.Shape{a, b}, "f32", "auto", 8); err != nil {
		t.Errorf("graphs with different weight decay: %v", err)
	}
}

// TestGraphsAllocs: a batch of four graphs allocates nothing.
func TestGraphsAllocs(t *testing.T) {
	s := trainer.Shape{Nodes: 6, Classes: 3, Steps: 3, Features: 4}
	g, err := trainer.NewGraphs([]trainer.Shape{s, s, s, s}, "f32", "auto", 8)
	if err != nil {
		t.Fatal(err)
	}
	for k := range 4 {
		p := trainer.NewParams(s)
		p.Init(rand.New(rand.NewPCG(uint64(k), 1)))
		g.Graph(k).SetParams(p.Flat)
	}
	x, y := make([]float64, 8*4), make([]int, 8)
	noise, lr, out := make([][]float64, 4), []float64{0.01, 0.01, 0.02, 0.02}, make([]trainer.LossParts, 4)
	if a := testing.AllocsPerRun(20, func() { g.TrainSteps(out, x, y, noise, lr) }); a != 0 {
		t.Errorf("%v allocations per batch of 4 graphs", a)
	}
}
