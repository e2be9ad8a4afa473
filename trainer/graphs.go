package trainer

import (
	"fmt"
	goruntime "runtime"

	"github.com/songc/songc/trainer/internal/workers"
)

// Graphs trains K graphs of one size (nodes, steps, classes, features) on
// the same batches, one call per batch: restarts, seeds, learning rates
// and regularisation strengths of one recipe side by side. It is the
// engine-level harness that songc bench times; training runs go through
// TrainTogether and Restarts, which spread runs over the cores alike. Each graph has
// its own engine (parameters, Adam state, temperature, straight-through
// mode) and its own learning rate, weight decay and node regularisation,
// and trains with the bits it would have alone: a graph's step is its own
// engine's TrainStep, whichever goroutine runs it.
//
// The graphs' steps run on up to GOMAXPROCS persistent goroutines, graph k
// on worker k mod workers. Small graphs, whose products are too small to
// split between cores, thereby keep every core busy; each graph's kernel
// gets the cores left per worker. Graphs is not safe for concurrent use;
// its workers stop when it becomes unreachable.
type Graphs struct{ *graphsState }

// graphsState is what the workers see (no reference to the Graphs, so
// that its cleanup can stop them).
type graphsState struct {
	engines []Engine
	kernel  string
	pool    *workers.Pool // runs work

	// The current batch, read by the workers, and where their losses go.
	x     []float64
	y     []int
	noise [][]float64
	lr    []float64
	out   []LossParts
}

// NewGraphs returns an engine for len(shapes) graphs, graph k of shape
// shapes[k], in precision "f32" or "f64" on the named kernel (as
// NewEngine), for batches of at most batch rows; Kernel names the kernel.
// The shapes must agree in nodes, steps, classes and features; they may
// differ in weight decay and node regularisation.
func NewGraphs(shapes []Shape, precision, kernel string, batch int) (*Graphs, error) {
	if len(shapes) == 0 {
		return nil, fmt.Errorf("graphs: no graph")
	}
	for k, s := range shapes {
		if err := s.Validate(); err != nil {
			return nil, fmt.Errorf("graph %d: %v", k, err)
		}
		if a := shapes[0]; s.Nodes != a.Nodes || s.Steps != a.Steps || s.Classes != a.Classes || s.Features != a.Features {
			return nil, fmt.Errorf("graph %d is %d nodes, %d steps, %d classes, %d features; graph 0 is %d, %d, %d, %d",
				k, s.Nodes, s.Steps, s.Classes, s.Features, a.Nodes, a.Steps, a.Classes, a.Features)
		}
	}
	if err := checkMemory(shapes[0], batch, 0, len(shapes)); err != nil {
		return nil, err
	}
	procs := goruntime.GOMAXPROCS(0)
	nw := min(len(shapes), procs)
	threads := coreShare(procs, nw) // each graph's kernel
	st := &graphsState{engines: make([]Engine, len(shapes))}
	for k, s := range shapes {
		e, name, err := newEngineThreads(s, precision, kernel, batch, threads)
		if err != nil {
			return nil, err
		}
		st.engines[k], st.kernel = e, name
	}
	st.pool = workers.New(nw, st.work)
	g := &Graphs{st}
	goruntime.AddCleanup(g, (*workers.Pool).Stop, st.pool)
	return g, nil
}

// Len returns K, the number of graphs.
func (g *Graphs) Len() int { return len(g.engines) }

// Graph returns graph k's engine: its parameters, optimiser state,
// temperature, straight-through mode and Predict. Its TrainStep trains
// it alone.
func (g *Graphs) Graph(k int) Engine { return g.engines[k] }

// Kernel returns the name of the graphs' kernel.
func (g *Graphs) Kernel() string { return g.kernel }

// TrainSteps runs one training step of every graph on the batch x, y
// (TrainStep's arguments): graph k with noise[k] (nil: plain softmax) and
// learning rate lr[k]. Graph k's loss parts go to out[k].
func (g *Graphs) TrainSteps(out []LossParts, x []float64, y []int, noise [][]float64, lr []float64) {
	K := len(g.engines)
	if len(out) != K || len(noise) != K || len(lr) != K {
		panic(fmt.Sprintf("trainer: TrainSteps of %d graphs got %d results, %d noises, %d rates", K, len(out), len(noise), len(lr)))
	}
	g.x, g.y, g.noise, g.lr, g.out = x, y, noise, lr, out
	g.pool.Run(g.pool.Size())
	g.x, g.y, g.noise, g.lr, g.out = nil, nil, nil, nil, nil
}

// work trains graphs w, w+active, ... one step on the current batch.
func (st *graphsState) work(w, active int) {
	for k := w; k < len(st.engines); k += active {
		st.out[k] = st.engines[k].TrainStep(st.x, st.y, st.noise[k], st.lr[k])
	}
}
