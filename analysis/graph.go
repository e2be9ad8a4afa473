package analysis

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/multi"
	"gonum.org/v1/gonum/graph/topo"

	"github.com/songc/songc/runtime"
)

// Binary is the argmax binary graph of a model (spec section 6): each
// internal node i has a left line to argmax M0[:, i] and a right line to
// argmax M1[:, i] (ties to the lower state). Node IDs are state indices:
// 0..n-1 internal (0 is the root), n+k the leaf of class k. Leaves have no
// lines out.
type Binary struct {
	K     *runtime.Classifier
	Graph *multi.DirectedGraph // every state, every line
}

// Side says which transition matrix a line comes from.
type Side int

const (
	Left  Side = 0 // M0
	Right Side = 1 // M1
)

// Line is a line of the binary graph.
type Line struct {
	F, T graph.Node
	Side Side
}

func (l Line) From() graph.Node         { return l.F }
func (l Line) To() graph.Node           { return l.T }
func (l Line) ID() int64                { return int64(l.Side) }
func (l Line) ReversedLine() graph.Line { return Line{F: l.T, T: l.F, Side: l.Side} }

// NewBinary extracts the binary graph of k.
func NewBinary(k *runtime.Classifier) *Binary {
	g := multi.NewDirectedGraph()
	n, c := k.NumNodes(), k.NumClasses()
	for s := 0; s < n+c; s++ {
		g.AddNode(multi.Node(s))
	}
	for i := 0; i < n; i++ {
		g.SetLine(Line{F: multi.Node(i), T: multi.Node(k.Left(i)), Side: Left})
		g.SetLine(Line{F: multi.Node(i), T: multi.Node(k.Right(i)), Side: Right})
	}
	return &Binary{K: k, Graph: g}
}

// Reachable returns the states reachable from the root, ascending.
func (b *Binary) Reachable() []int { return b.K.Reachable() }

// Stats are the structure statistics of the binary graph.
type Stats struct {
	Nodes       int      `json:"nodes"`
	UsedNodes   int      `json:"used_nodes"` // internal nodes reachable from the root
	LeavesUsed  int      `json:"leaves_reached"`
	Unreachable []string `json:"unreachable_classes"`
	// Root-to-leaf distances (shortest, in edges) over the reachable leaves.
	DistMin  int     `json:"root_leaf_distance_min"`
	DistMean float64 `json:"root_leaf_distance_mean"`
	DistMax  int     `json:"root_leaf_distance_max"`
	// Shared nodes: reachable internal nodes with more than one reachable
	// predecessor (distinct nodes, self excluded).
	SharedNodes int        `json:"shared_nodes"`
	Edges       EdgeCounts `json:"edges"` // DFS classes from the root
	Acyclic     bool       `json:"acyclic"`
	// How binary the model is: mean over columns of the largest column
	// probability of M0 and M1 (1 = one-hot columns).
	BinarisationM0 float64 `json:"binarisation_M0"`
	BinarisationM1 float64 `json:"binarisation_M1"`
}

// Stats computes the structure statistics of b.
func (b *Binary) Stats() Stats {
	k := b.K
	n, c := k.NumNodes(), k.NumClasses()
	reach := b.Reachable()
	st := Stats{Nodes: n, Unreachable: []string{}} // JSON [], not null
	inReach := map[int]bool{}
	for _, s := range reach {
		inReach[s] = true
		if s < n {
			st.UsedNodes++
		} else {
			st.LeavesUsed++
		}
	}
	for cl := 0; cl < c; cl++ {
		if !inReach[n+cl] {
			st.Unreachable = append(st.Unreachable, k.Model.ClassNames[cl])
		}
	}
	// Shortest distances from the root (breadth-first, successors by ID).
	dist := map[int64]int{0: 0}
	queue := []int64{0}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, v := range sortedFrom(b.Graph, u) {
			if _, ok := dist[v]; !ok {
				dist[v] = dist[u] + 1
				queue = append(queue, v)
			}
		}
	}
	first := true
	var sum float64
	for _, s := range reach {
		if s < n {
			continue
		}
		d := dist[int64(s)]
		if first || d < st.DistMin {
			st.DistMin = d
		}
		st.DistMax = max(st.DistMax, d)
		sum += float64(d)
		first = false
	}
	if st.LeavesUsed > 0 {
		st.DistMean = sum / float64(st.LeavesUsed)
	}
	for _, s := range reach {
		if s >= n {
			continue
		}
		preds := 0
		it := b.Graph.To(int64(s))
		for it.Next() {
			p := it.Node().ID()
			if p != int64(s) && inReach[int(p)] {
				preds++
			}
		}
		if preds > 1 {
			st.SharedNodes++
		}
	}
	edges, _ := ClassifyEdges(b.Graph, 0)
	st.Edges = Count(edges)
	st.Acyclic = st.Edges.Back == 0
	st.BinarisationM0 = binarisation(k.Model.M0Logits)
	st.BinarisationM1 = binarisation(k.Model.M1Logits)
	return st
}

func sortedFrom(g graph.Directed, u int64) []int64 {
	var s []int64
	it := g.From(u)
	for it.Next() {
		s = append(s, it.Node().ID())
	}
	slices.Sort(s)
	return s
}

// binarisation is the mean over columns of the largest softmax probability.
func binarisation(logits [][]float64) float64 {
	m := runtime.ColumnSoftmax(logits)
	rows, cols := len(logits), len(logits[0])
	var sum float64
	for j := 0; j < cols; j++ {
		best := 0.0
		for i := 0; i < rows; i++ {
			best = math.Max(best, m[i*cols+j])
		}
		sum += best
	}
	return sum / float64(cols)
}

// Cyclic reports whether the part of g reachable from root has a cycle
// other than a self-loop, by gonum's topological sort (which, being based
// on strongly connected components, does not count self-loops).
func Cyclic(g graph.Directed, root int64) bool {
	sub := multi.NewDirectedGraph()
	seen := map[int64]bool{root: true}
	stack := []int64{root}
	sub.AddNode(multi.Node(root))
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, v := range sortedFrom(g, u) {
			if u != v {
				sub.SetLine(sub.NewLine(multi.Node(u), multi.Node(v)))
			}
			if !seen[v] {
				seen[v] = true
				stack = append(stack, v)
			}
		}
	}
	_, err := topo.Sort(sub)
	return err != nil
}
