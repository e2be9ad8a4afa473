package compiler

import (
	"io"
	"math/rand/v2"
	"testing"

	"github.com/songc/songc/runtime"
)

// mnistShaped returns a random model shaped like the paper's MNIST SONG
// (255 nodes, 50 steps, 784 features, 10 classes) whose every node is
// reachable: node i's children are 2i+1 and 2i+2 (a complete binary tree),
// the last level pointing at leaves.
func mnistShaped() *runtime.Model {
	const n, c, steps, d = 255, 10, 50, 784
	rng := rand.New(rand.NewPCG(1, 2))
	mat := func(rows, cols int) [][]float64 {
		out := make([][]float64, rows)
		for i := range out {
			out[i] = make([]float64, cols)
			for j := range out[i] {
				out[i][j] = rng.NormFloat64()
			}
		}
		return out
	}
	m := &runtime.Model{Format: runtime.Format, Nodes: n, Classes: c, Steps: steps, Features: d,
		M0Logits: mat(n+c, n), M1Logits: mat(n+c, n), W: mat(n, d), B: make([]float64, n)}
	for i := 0; i < n; i++ {
		l, r := 2*i+1, 2*i+2
		if l >= n {
			l, r = n+rng.IntN(c), n+rng.IntN(c)
		}
		m.M0Logits[l][i] = 50
		m.M1Logits[r][i] = 50
	}
	return m
}

func BenchmarkCompileMNIST255Nodes784Features(b *testing.B) {
	m := mnistShaped()
	b.ReportAllocs()
	for b.Loop() {
		p, err := NewPlan(m, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if len(p.Nodes) != 255 {
			b.Fatalf("%d nodes reachable", len(p.Nodes))
		}
		if err := p.Render(io.Discard, "bench"); err != nil {
			b.Fatal(err)
		}
	}
}
