package analysis

import (
	"math"

	"gonum.org/v1/gonum/graph/multi"

	"github.com/songc/songc/runtime"
)

// Input holds the per-input quantities of a model: the sigmoids s_i(x) and
// the columns of P_x for the internal nodes.
type Input struct {
	k *runtime.Classifier
	S []float64 // n sigmoids
	P []float64 // (n+c) x n, row-major: P_x[j, i] = s_i M1[j,i] + (1-s_i) M0[j,i]
	x []float64
}

// NewInput prepares buffers for a model.
func NewInput(k *runtime.Classifier) *Input {
	n, c := k.NumNodes(), k.NumClasses()
	return &Input{k: k, S: make([]float64, n), P: make([]float64, (n+c)*n), x: make([]float64, k.NumFeatures())}
}

// Set computes s and P_x for the raw input x.
func (in *Input) Set(x []float64) {
	k := in.k
	n, S := k.NumNodes(), k.NumNodes()+k.NumClasses()
	k.Preprocess(in.x, x)
	for i := 0; i < n; i++ {
		in.S[i] = runtime.Sigmoid(k.Margin(i, in.x))
	}
	m0, m1 := k.M0(), k.M1()
	for j := 0; j < S; j++ {
		for i := 0; i < n; i++ {
			s := in.S[i]
			in.P[j*n+i] = s*m1[j*n+i] + (1-s)*m0[j*n+i]
		}
	}
}

// PathUnion returns the union of the edges of all paths from the root in
// P_x of at most steps transitions whose probability (the product of the
// transition probabilities along the path) exceeds threshold; paths stop at
// leaves, which are absorbing.
//
// It needs no enumeration of paths and so no cap: an edge (i, j) lies on
// such a path iff some prefix reaching i at depth d < steps has probability
// p with p·P[j,i] > threshold, and then the most probable prefix does too
// (every prefix of a path above the threshold is above it as well). A
// max-product recursion over depths, best[d+1][j] = max_i best[d][i]·P[j,i],
// therefore gives the union exactly in O(steps·n·(n+c)).
func (in *Input) PathUnion(steps int, threshold float64) map[[2]int]bool {
	k := in.k
	n, S := k.NumNodes(), k.NumNodes()+k.NumClasses()
	best := make([]float64, n)
	next := make([]float64, n)
	best[0] = 1
	edges := map[[2]int]bool{}
	for d := 0; d < steps; d++ {
		clear(next)
		for i := 0; i < n; i++ {
			if best[i] <= threshold {
				continue
			}
			for j := 0; j < S; j++ {
				p := best[i] * in.P[j*n+i]
				if p > threshold {
					edges[[2]int{i, j}] = true
					if j < n && p > next[j] {
						next[j] = p
					}
				}
			}
		}
		best, next = next, best
	}
	return edges
}

// unionGraph builds a graph from a set of edges.
func unionGraph(edges map[[2]int]bool) *multi.DirectedGraph {
	g := multi.NewDirectedGraph()
	g.AddNode(multi.Node(0))
	for e := range edges {
		g.SetLine(Line{F: multi.Node(e[0]), T: multi.Node(e[1])})
	}
	return g
}

// DataStats are the statistics of a model on labelled rows.
type DataStats struct {
	Rows      int     `json:"rows"`
	Threshold float64 `json:"path_threshold"`
	// Means over rows of the DFS edge classes of each row's path union,
	// and of its size.
	MeanEdges      map[string]float64 `json:"mean_path_union_edges"`
	MeanUnionNodes float64            `json:"mean_path_union_nodes"`
	// Hard walks.
	PathLengths map[int]int `json:"hard_path_lengths"` // length -> rows
	Visits      []int       `json:"node_visits"`       // per internal node, rows whose walk visits it
	// Distances[a][b]: mean Frobenius distance between P_x of rows of class a
	// and rows of class b (pairs of distinct rows), over at most
	// DistanceRows rows per class.
	Distances    [][]float64 `json:"class_distances"`
	DistanceRows int         `json:"distance_rows_per_class"`
}

// Data computes the per-input statistics on the rows x (row-major) with
// classes y. A row's path union holds the paths of its P_x whose
// probability is above threshold (the SONG paper's analysis takes 1e-4,
// songc analyze's default). maxPerClass bounds the rows per class used for
// distances.
func Data(k *runtime.Classifier, x []float64, y []int, threshold float64, maxPerClass int) DataStats {
	n, c, d := k.NumNodes(), k.NumClasses(), k.NumFeatures()
	rows := len(y)
	ds := DataStats{Rows: rows, Threshold: threshold, MeanEdges: map[string]float64{},
		PathLengths: map[int]int{}, Visits: make([]int, n), DistanceRows: maxPerClass}
	in := NewInput(k)
	scratch := make([]float64, d)
	path := make([]runtime.Step, 0, k.Steps())
	var sums EdgeCounts
	var nodes float64
	perClass := make([][][]float64, c) // sigmoid vectors of the rows kept for distances
	for r := 0; r < rows; r++ {
		row := x[r*d : (r+1)*d]
		in.Set(row)
		u := in.PathUnion(k.Steps(), threshold)
		g := unionGraph(u)
		edges, order := ClassifyEdges(g, 0)
		cnt := Count(edges)
		sums.Tree += cnt.Tree
		sums.Back += cnt.Back
		sums.Forward += cnt.Forward
		sums.Cross += cnt.Cross
		nodes += float64(len(order))

		res, p := k.Walk(row, scratch, path[:0])
		path = p
		ds.PathLengths[res.Steps]++
		seen := map[int]bool{}
		for _, s := range p {
			if !seen[s.Node] {
				seen[s.Node] = true
				ds.Visits[s.Node]++
			}
		}
		if len(perClass[y[r]]) < maxPerClass {
			perClass[y[r]] = append(perClass[y[r]], append([]float64(nil), in.S...))
		}
	}
	if rows > 0 {
		f := float64(rows)
		ds.MeanEdges["tree"] = float64(sums.Tree) / f
		ds.MeanEdges["back"] = float64(sums.Back) / f
		ds.MeanEdges["forward"] = float64(sums.Forward) / f
		ds.MeanEdges["cross"] = float64(sums.Cross) / f
		ds.MeanUnionNodes = nodes / f
	}
	ds.Distances = classDistances(k, perClass)
	return ds
}

// classDistances computes the mean ||P_x - P_y||_F between classes. For
// internal columns P_x[:,i] - P_y[:,i] = (s_i(x) - s_i(y)) (M1[:,i] - M0[:,i])
// and leaf columns are equal, so ||P_x - P_y||_F^2 = sum_i w_i (s_i(x)-s_i(y))^2
// with w_i = ||M1[:,i] - M0[:,i]||^2: O(n) per pair instead of O((n+c) n).
func classDistances(k *runtime.Classifier, perClass [][][]float64) [][]float64 {
	n, S := k.NumNodes(), k.NumNodes()+k.NumClasses()
	m0, m1 := k.M0(), k.M1()
	w := make([]float64, n)
	for j := 0; j < S; j++ {
		for i := 0; i < n; i++ {
			dm := m1[j*n+i] - m0[j*n+i]
			w[i] += dm * dm
		}
	}
	c := len(perClass)
	out := make([][]float64, c)
	for a := range out {
		out[a] = make([]float64, c)
		for b := 0; b < c; b++ {
			var sum float64
			pairs := 0
			for ia, sa := range perClass[a] {
				for ib, sb := range perClass[b] {
					if a == b && ia == ib {
						continue
					}
					var d2 float64
					for i, wi := range w {
						ds := sa[i] - sb[i]
						d2 += wi * ds * ds
					}
					sum += math.Sqrt(d2)
					pairs++
				}
			}
			if pairs > 0 {
				out[a][b] = sum / float64(pairs)
			}
		}
	}
	return out
}

// Flow returns the state probabilities of the soft model for input x
// before each step: a (n+c) x (N+1) matrix, column t = p_t (leaves hold the
// mass absorbed so far).
func Flow(k *runtime.Classifier, x []float64) [][]float64 {
	n, S, N := k.NumNodes(), k.NumNodes()+k.NumClasses(), k.Steps()
	in := NewInput(k)
	in.Set(x)
	out := make([][]float64, S)
	for j := range out {
		out[j] = make([]float64, N+1)
	}
	p := make([]float64, S)
	next := make([]float64, S)
	p[0] = 1
	for t := 0; ; t++ {
		for j := range p {
			out[j][t] = p[j]
		}
		if t == N {
			return out
		}
		copy(next[n:], p[n:]) // leaves are absorbing
		clear(next[:n])
		for j := 0; j < S; j++ {
			var v float64
			for i := 0; i < n; i++ {
				v += in.P[j*n+i] * p[i]
			}
			next[j] += v
		}
		p, next = next, p
	}
}
