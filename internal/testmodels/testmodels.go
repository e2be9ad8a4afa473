// Package testmodels builds synthetic models for benchmarks and tests.
package testmodels

import (
	"math/rand/v2"

	"github.com/songc/songc/runtime"
)

// MNISTShaped returns a random model shaped like the paper's MNIST SONG
// (255 nodes, 50 steps, 784 features, 10 classes) whose every node is
// reachable: node i's children are 2i+1 and 2i+2 (a complete binary tree),
// the last level pointing at leaves.
func MNISTShaped() *runtime.Model {
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
