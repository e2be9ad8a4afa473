package trainer

import (
	"fmt"
	"math/rand/v2"
	goruntime "runtime"
	"slices"
	"time"
)

// FlopsPerBatch is the number of floating-point operations a training step
// necessarily performs (docs/performance.md): per step, the transition
// product [M1|M0]·U_t, its transpose product for the gradient of U_t and
// the step's share of the gradient of [M1|M0], each 2·(n+c)·2n·B; plus the
// filter products W·xᵀ and its gradient, each 2·n·d·B. Elementwise work
// (sigmoids, softmax, the optimiser) is not counted.
func FlopsPerBatch(s Shape, batch int) float64 {
	n, S, d, N, B := float64(s.Nodes), float64(s.States()), float64(s.Features), float64(s.Steps), float64(batch)
	return 12*S*n*B*N + 4*B*d*n
}

// BenchResult is the outcome of Bench.
type BenchResult struct {
	Shape           Shape     `json:"-"`
	Nodes           int       `json:"nodes"`
	Steps           int       `json:"steps"`
	Batch           int       `json:"batch"`
	Features        int       `json:"features"`
	Classes         int       `json:"classes"`
	Precision       string    `json:"precision"`
	Kernel          string    `json:"kernel"`
	Graphs          int       `json:"graphs"` // K, trained on the same batches in one call
	Batches         int       `json:"timed_batches"`
	SecondsPerBatch float64   `json:"seconds_per_batch"` // median, all K graphs' steps
	SecondsPerGraph float64   `json:"seconds_per_graph"` // SecondsPerBatch / K
	Seconds         []float64 `json:"seconds"`           // every timed batch
	FlopsPerBatch   float64   `json:"flops_per_batch"`   // one graph's
	GFlops          float64   `json:"gflops"`            // K FlopsPerBatch / SecondsPerBatch / 1e9
	AllocsPerBatch  float64   `json:"allocs_per_batch"`
}

// Bench times full training steps (forward, backward through every step,
// Adam update) of engine e on random data: one warm-up batch, then batches
// timed batches; the result is their median.
func Bench(e Engine, kernel string, batches int, seed uint64) (BenchResult, error) {
	x, y, noise := benchBatch(e.Shape(), e.MaxBatch(), seed, e)
	return bench(e.Shape(), e.MaxBatch(), e.Precision(), kernel, 1, batches, func() { e.TrainStep(x, y, noise, 1e-3) })
}

// BenchGraphs is Bench for K graphs trained in one call per batch
// (Graphs.TrainSteps), each from its own initial parameters and with its
// own noise, on graph 0's batch.
func BenchGraphs(g *Graphs, batches int, seed uint64) (BenchResult, error) {
	K, e := g.Len(), g.Graph(0)
	noise := make([][]float64, K)
	x, y, noise0 := benchBatch(e.Shape(), e.MaxBatch(), seed, e)
	noise[0] = noise0
	for k := 1; k < K; k++ {
		_, _, noise[k] = benchBatch(e.Shape(), e.MaxBatch(), seed+uint64(k), g.Graph(k))
	}
	lr := make([]float64, K)
	for k := range lr {
		lr[k] = 1e-3
	}
	out := make([]LossParts, K)
	return bench(e.Shape(), e.MaxBatch(), e.Precision(), g.Kernel(), K, batches, func() { g.TrainSteps(out, x, y, noise, lr) })
}

// benchBatch sets e's parameters to a random initial graph and returns a
// batch of random rows and labels and Gumbel noise.
func benchBatch(s Shape, B int, seed uint64, e Engine) (x []float64, y []int, noise []float64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	p := NewParams(s)
	p.Init(rng)
	e.SetParams(p.Flat)
	x = make([]float64, B*s.Features)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	y = make([]int, B)
	for i := range y {
		y[i] = rng.IntN(s.Classes)
	}
	noise = make([]float64, 2*s.States()*s.Nodes)
	gumbel(noise, rng)
	return x, y, noise
}

// bench times step, which trains graphs graphs one batch of B rows.
func bench(s Shape, B int, precision, kernel string, graphs, batches int, step func()) (BenchResult, error) {
	if batches < 1 {
		return BenchResult{}, fmt.Errorf("bench: need at least one timed batch")
	}
	step() // warm-up
	res := BenchResult{Shape: s, Nodes: s.Nodes, Steps: s.Steps, Batch: B, Features: s.Features, Classes: s.Classes,
		Precision: precision, Kernel: kernel, Graphs: graphs, Batches: batches, FlopsPerBatch: FlopsPerBatch(s, B)}
	res.Seconds = make([]float64, 0, batches) // no allocation inside the timed loop
	mallocs := readMallocs()
	for b := 0; b < batches; b++ {
		t0 := time.Now()
		step()
		res.Seconds = append(res.Seconds, time.Since(t0).Seconds())
	}
	res.AllocsPerBatch = float64(readMallocs()-mallocs) / float64(batches)
	sorted := slices.Clone(res.Seconds)
	slices.Sort(sorted)
	res.SecondsPerBatch = sorted[len(sorted)/2]
	res.SecondsPerGraph = res.SecondsPerBatch / float64(graphs)
	res.GFlops = float64(graphs) * res.FlopsPerBatch / res.SecondsPerBatch / 1e9
	return res, nil
}

func readMallocs() uint64 {
	var m goruntime.MemStats
	goruntime.ReadMemStats(&m)
	return m.Mallocs
}
