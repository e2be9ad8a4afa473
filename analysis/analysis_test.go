package analysis

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/graph/multi"

	"github.com/songc/songc/runtime"
)

// TestBackEdgesIffCycle: on random graphs, the DFS finds a back edge exactly
// when the part reachable from the root has a cycle: one that gonum's
// topological sort reports, or a self-loop (which topo.Sort does not count).
func TestBackEdgesIffCycle(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	cyclic, acyclic := 0, 0
	for trial := 0; trial < 2000; trial++ {
		n := 1 + rng.IntN(9)
		g := multi.NewDirectedGraph()
		for i := 0; i < n; i++ {
			g.AddNode(multi.Node(i))
		}
		selfLoopReachable := false
		edges := rng.IntN(2 * n)
		for e := 0; e < edges; e++ {
			u, v := rng.IntN(n), rng.IntN(n)
			if rng.IntN(3) > 0 && u > v { // bias toward DAGs so both outcomes occur
				u, v = v, u
			}
			g.SetLine(g.NewLine(multi.Node(u), multi.Node(v)))
		}
		classified, order := ClassifyEdges(g, 0)
		reach := map[int64]bool{}
		for _, id := range order {
			reach[id] = true
		}
		for _, id := range order {
			if g.HasEdgeFromTo(id, id) {
				selfLoopReachable = true
			}
		}
		back := Count(classified).Back > 0
		want := Cyclic(g, 0) || selfLoopReachable
		if back != want {
			t.Fatalf("trial %d: back edges %v, cycle %v", trial, back, want)
		}
		// Every edge out of a reachable node is classified exactly once.
		total := 0
		for id := range reach {
			it := g.From(id)
			total += it.Len()
		}
		if total != len(classified) {
			t.Fatalf("trial %d: %d edges classified, %d reachable", trial, len(classified), total)
		}
		if want {
			cyclic++
		} else {
			acyclic++
		}
	}
	if cyclic < 100 || acyclic < 100 {
		t.Errorf("unbalanced random graphs: %d cyclic, %d acyclic", cyclic, acyclic)
	}
}

// TestClassifyKnown checks a hand-drawn graph: 0->1, 0->2, 1->2, 2->0, 0->3, 3->1.
func TestClassifyKnown(t *testing.T) {
	g := multi.NewDirectedGraph()
	for _, e := range [][2]int64{{0, 1}, {0, 2}, {1, 2}, {2, 0}, {0, 3}, {3, 1}} {
		g.SetLine(g.NewLine(multi.Node(e[0]), multi.Node(e[1])))
	}
	edges, order := ClassifyEdges(g, 0)
	// DFS in ID order: 0 -> 1 (tree) -> 2 (tree) -> 0 (back); 0 -> 2 (forward);
	// 0 -> 3 (tree) -> 1 (cross).
	want := []DFSEdge{{0, 1, Tree}, {1, 2, Tree}, {2, 0, Back}, {0, 2, Forward}, {0, 3, Tree}, {3, 1, Cross}}
	if len(edges) != len(want) {
		t.Fatalf("edges %v", edges)
	}
	for i := range want {
		if edges[i] != want[i] {
			t.Errorf("edge %d: %v, want %v", i, edges[i], want[i])
		}
	}
	if len(order) != 4 || order[3] != 3 {
		t.Errorf("order %v", order)
	}
}

func randomModel(rng *rand.Rand, n, c, steps, d int, spread float64) *runtime.Model {
	mat := func(rows, cols int, s float64) [][]float64 {
		out := make([][]float64, rows)
		for i := range out {
			out[i] = make([]float64, cols)
			for j := range out[i] {
				out[i][j] = s * rng.NormFloat64()
			}
		}
		return out
	}
	return &runtime.Model{Format: runtime.Format, Nodes: n, Classes: c, Steps: steps, Features: d,
		M0Logits: mat(n+c, n, spread), M1Logits: mat(n+c, n, spread), W: mat(n, d, 1), B: make([]float64, n)}
}

// bruteUnion enumerates every path explicitly.
func bruteUnion(in *Input, n, S, steps int, threshold float64) map[[2]int]bool {
	out := map[[2]int]bool{}
	var walk func(i, depth int, p float64)
	walk = func(i, depth int, p float64) {
		if depth == steps {
			return
		}
		for j := 0; j < S; j++ {
			q := p * in.P[j*n+i]
			if q <= threshold {
				continue
			}
			out[[2]int{i, j}] = true
			if j < n {
				walk(j, depth+1, q)
			}
		}
	}
	walk(0, 0, 1)
	return out
}

// TestPathUnionBruteForce compares the max-product recursion with explicit
// enumeration of all paths on small random graphs.
func TestPathUnionBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for trial := 0; trial < 200; trial++ {
		n, c, steps, d := 1+rng.IntN(4), 2+rng.IntN(2), 1+rng.IntN(5), 3
		m := randomModel(rng, n, c, steps, d, 1+2*rng.Float64())
		k, err := runtime.New(m)
		if err != nil {
			t.Fatal(err)
		}
		in := NewInput(k)
		x := []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		in.Set(x)
		threshold := []float64{1e-4, 1e-2, 0.1}[rng.IntN(3)]
		got := in.PathUnion(steps, threshold)
		want := bruteUnion(in, n, n+c, steps, threshold)
		if len(got) != len(want) {
			t.Fatalf("trial %d: %d edges, brute force %d", trial, len(got), len(want))
		}
		for e := range want {
			if !got[e] {
				t.Fatalf("trial %d: edge %v missing", trial, e)
			}
		}
	}
}

// TestDistancesClosedForm compares the O(n) distance with the Frobenius
// norm of P_x - P_y computed from the full matrices.
func TestDistancesClosedForm(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	m := randomModel(rng, 5, 3, 4, 2, 2)
	k, _ := runtime.New(m)
	a, b := NewInput(k), NewInput(k)
	xs := [][]float64{{0.3, -1}, {2, 0.5}, {-1, -1}}
	a.Set(xs[0])
	b.Set(xs[1])
	var direct float64
	for i := range a.P {
		d := a.P[i] - b.P[i]
		direct += d * d
	}
	direct = math.Sqrt(direct)
	got := classDistances(k, [][][]float64{{a.S}, {b.S}, {}})
	if math.Abs(got[0][1]-direct) > 1e-12 || got[0][1] != got[1][0] || got[0][0] != 0 {
		t.Errorf("closed form %v, direct %v", got, direct)
	}
}

// TestStatsTiny checks the statistics of a hand-made model:
// node 0: left -> 1, right -> leaf yes; node 1: left -> leaf no, right -> 0.
func TestStatsTiny(t *testing.T) {
	m := &runtime.Model{Format: runtime.Format, Nodes: 2, Classes: 3, Steps: 4, Features: 1,
		ClassNames: []string{"no", "yes", "never"},
		M0Logits:   [][]float64{{0, 0}, {9, 0}, {0, 9}, {0, 0}, {0, 0}},
		M1Logits:   [][]float64{{0, 9}, {0, 0}, {0, 0}, {9, 0}, {0, 0}},
		W:          [][]float64{{1}, {1}}, B: []float64{0, 0}}
	k, err := runtime.New(m)
	if err != nil {
		t.Fatal(err)
	}
	st := NewBinary(k).Stats()
	if st.UsedNodes != 2 || st.LeavesUsed != 2 || len(st.Unreachable) != 1 || st.Unreachable[0] != "never" {
		t.Errorf("reach: %+v", st)
	}
	// 0->1 tree, 1->0 back, 1->2 (leaf no) tree, 0->3 (leaf yes) tree.
	if st.Edges != (EdgeCounts{Tree: 3, Back: 1}) || st.Acyclic {
		t.Errorf("edges %+v acyclic %v", st.Edges, st.Acyclic)
	}
	// Leaf yes at distance 1, leaf no at distance 2.
	if st.DistMin != 1 || st.DistMax != 2 || st.DistMean != 1.5 {
		t.Errorf("distances %d %v %d", st.DistMin, st.DistMean, st.DistMax)
	}
	// Node 0 has predecessor 1 only; node 1 has predecessor 0 only.
	if st.SharedNodes != 0 {
		t.Errorf("shared %d", st.SharedNodes)
	}
	// Each column: exp(9) / (exp(9) + 4).
	want := math.Exp(9) / (math.Exp(9) + 4)
	if math.Abs(st.BinarisationM0-want) > 1e-15 || math.Abs(st.BinarisationM1-want) > 1e-15 {
		t.Errorf("binarisation %v %v, want %v", st.BinarisationM0, st.BinarisationM1, want)
	}
	// With every leaf reached, the JSON lists none, as [] and not null.
	m.Classes, m.ClassNames = 2, m.ClassNames[:2]
	m.M0Logits, m.M1Logits = m.M0Logits[:4], m.M1Logits[:4]
	if k, err = runtime.New(m); err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(NewBinary(k).Stats())
	if err != nil || !bytes.Contains(js, []byte(`"unreachable_classes":[]`)) {
		t.Errorf("every leaf reached: %s, %v", js, err)
	}
}
