package trainer

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/songc/songc/internal/shared"
	"github.com/songc/songc/trainer/data"
)

// Benchmarks of a full training step (forward, backward, Adam) with the
// default float32 kernel, named by size; GFLOP/s uses FlopsPerBatch.
// `songc bench` measures the same thing from the command line.
func benchStep(b *testing.B, s Shape, batch int) {
	benchStepMode(b, s, batch, false)
}

// benchStepMode is benchStep, in straight-through mode when straight.
func benchStepMode(b *testing.B, s Shape, batch int, straight bool) {
	e, err := NewCPU[float32](s, DefaultKernel32(), batch)
	if err != nil {
		b.Fatal(err)
	}
	e.SetStraightThrough(straight)
	res, err := Bench(e, "default", 1, 1) // warm-up, parameters, data
	if err != nil {
		b.Fatal(err)
	}
	x := make([]float64, batch*s.Features)
	y := make([]int, batch)
	b.ReportAllocs()
	for b.Loop() {
		benchSink = e.TrainStep(x, y, nil, 1e-3).Total
	}
	b.ReportMetric(res.FlopsPerBatch*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

var benchSink float64

func BenchmarkStep511Nodes50Steps128Batch(b *testing.B) {
	benchStep(b, Shape{Nodes: 511, Classes: 26, Steps: 50, Features: 16}, 128)
}
func BenchmarkStep64Nodes20Steps128Batch(b *testing.B) {
	benchStep(b, Shape{Nodes: 64, Classes: 26, Steps: 20, Features: 16}, 128)
}
func BenchmarkStep255Nodes50Steps128Batch784Features(b *testing.B) {
	benchStep(b, Shape{Nodes: 255, Classes: 10, Steps: 50, Features: 784}, 128)
}
func BenchmarkStep16Nodes8Steps128Batch64Features(b *testing.B) {
	benchStep(b, Shape{Nodes: 16, Classes: 10, Steps: 8, Features: 64}, 128)
}

// Connect-4 255/10 at the fast preset's batch, without and with the
// straight-through mode.
func BenchmarkStep255Nodes10Steps64Batch126Features(b *testing.B) {
	benchStep(b, Shape{Nodes: 255, Classes: 3, Steps: 10, Features: 126}, 64)
}
func BenchmarkStep255Nodes10Steps64Batch126FeaturesStraightThrough(b *testing.B) {
	benchStepMode(b, Shape{Nodes: 255, Classes: 3, Steps: 10, Features: 126}, 64, true)
}

// BenchmarkStepFromCheckpoint times training steps from the parameters and
// optimiser state of a checkpoint that $SONGC_BENCH_CHECKPOINT names (for
// example one that experiments/paper.sh leaves late in a run), on random inputs,
// without and with the straight-through mode. Late in a run many Adam
// moments would be subnormal without the flush in TrainStep; a checkpoint
// keeps them, so this measures what a run pays for them (run it at a commit
// before the flush to see the difference). Skipped without the variable;
// the test runs in this package's folder, so give an absolute path.
func BenchmarkStepFromCheckpoint(b *testing.B) {
	path := os.Getenv("SONGC_BENCH_CHECKPOINT")
	if path == "" {
		b.Skip("set SONGC_BENCH_CHECKPOINT to a checkpoint file")
	}
	c, err := LoadCheckpoint(path)
	if err != nil {
		b.Fatal(err)
	}
	cfg, st := c.Config, c.state
	s := Shape{Nodes: cfg.Nodes, Classes: len(st.ClassNames), Steps: cfg.Steps,
		NodeRegGamma: cfg.NodeRegGamma, NodeRegLambda: cfg.NodeRegLambda,
		WeightDecay: cfg.WeightDecay}
	// The parameter vector's length gives the features: 2Sn + nd + n.
	s.Features = (len(st.Params) - 2*s.States()*s.Nodes - s.Nodes) / s.Nodes
	if s.NumParams() != len(st.Params) {
		b.Fatalf("%s: %d parameters do not fit %d nodes and %d classes", path, len(st.Params), s.Nodes, s.Classes)
	}
	// The checkpoint's moments that are subnormal in float32.
	var subM, subV int
	for i := range st.AdamM {
		subM += isSubnormal32(st.AdamM[i])
		subV += isSubnormal32(st.AdamV[i])
	}
	for _, straight := range []bool{false, true} {
		b.Run(fmt.Sprintf("straight=%v", straight), func(b *testing.B) {
			e, err := NewCPU[float32](s, DefaultKernel32(), cfg.Batch)
			if err != nil {
				b.Fatal(err)
			}
			e.SetStraightThrough(straight)
			rng := rand.New(rand.NewPCG(1, 2))
			x, y, _ := randomBatch(rng, s, cfg.Batch)
			e.SetParams(st.Params)
			e.SetOptState(st.AdamM, st.AdamV, st.AdamStep)
			// Consecutive steps, as in a run: a moment that gets no
			// gradient keeps decaying.
			for b.Loop() {
				benchSink = e.TrainStep(x, y, nil, 1e-4).Total
			}
			b.ReportMetric(float64(subM), "subnormal-m")
			b.ReportMetric(float64(subV), "subnormal-v")
			b.ReportMetric(float64(len(st.AdamM)), "params")
		})
	}
}

// isSubnormal32 is 1 if v is a subnormal float32 number, 0 otherwise.
func isSubnormal32(v float64) int {
	if f, lim := float32(v), minNormal[float32](); f != 0 && f > -lim && f < lim {
		return 1
	}
	return 0
}

// The smallest size the default recipe searches, on Letter's shape at the
// fast preset's batch.
func BenchmarkStep16Nodes8Steps64Batch(b *testing.B) {
	benchStep(b, Shape{Nodes: 16, Classes: 26, Steps: 8, Features: 16}, 64)
}

// Connect-4's smallest paper graph, 8/10, at the fast preset's batch.
func BenchmarkStep8Nodes10Steps64Batch126Features(b *testing.B) {
	benchStep(b, Shape{Nodes: 8, Classes: 3, Steps: 10, Features: 126}, 64)
}

// Whole epochs (training steps, the validation passes, batch assembly) of
// --preset fast, for profiles of where an epoch's time goes:
//
//	go test ./trainer -run XXX -bench Epoch -benchtime 3x -cpuprofile cpu.out
//	go tool pprof -top -cum trainer.test cpu.out
//
// Connect-4 8/10 reads ../shared (skipped without it); Letter 64/20 is the
// embedded data.
func BenchmarkEpochConnect4Nodes8Steps10(b *testing.B) {
	train, err := data.ReadCSVFile(shared.Path(b, "data/connect4/train.csv.gz"), data.CSVOptions{})
	if err != nil {
		b.Fatal(err)
	}
	benchEpoch(b, train, nil, 8, 10)
}

func BenchmarkEpochLetterNodes64Steps20(b *testing.B) {
	train, test, err := data.Letter()
	if err != nil {
		b.Fatal(err)
	}
	benchEpoch(b, train, test, 64, 20)
}

func benchEpoch(b *testing.B, train, test *data.Dataset, nodes, steps int) {
	task, err := NewTask(train, test)
	if err != nil {
		b.Fatal(err)
	}
	cfg, err := PresetConfig("fast")
	if err != nil {
		b.Fatal(err)
	}
	cfg.Nodes, cfg.Steps, cfg.Epochs = nodes, steps, b.N
	r, err := NewRun(cfg, task)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	if err := r.Train(context.Background()); err != nil {
		b.Fatal(err)
	}
}
