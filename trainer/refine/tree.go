package refine

import (
	"math"
	"slices"
	"sort"

	"github.com/songc/songc/runlog"
	"github.com/songc/songc/runtime"
)

// A tree is a decision tree on single columns, grown best first as CART
// grows one with a bound on its leaves (Breiman et al., 1984; the
// max_leaf_nodes of scikit-learn's DecisionTreeClassifier): each split is
// the one of largest decrease of Gini impurity among the leaves, and the
// tree of L leaves is the first L-1 splits of the tree grown to its bound.
// It is a SONG whose filters each read one column and whose routes form a
// tree, so tree.model writes it as a model that walks, compiles and
// refines like any other.
//
// The columns are binned once (treeBins): up to maxBins bins per column,
// cut at the midpoints between neighbouring values of the training rows
// (at the quantiles of a sample of them when a column has more values),
// so that a split is a cut and growing costs a pass over a node's rows
// per level.
type tree struct {
	c      int
	nodes  []treeNode
	splits []int // nodes in the order they were split
	bins   *treeBins
}

// treeNode is a node of a tree: a leaf until it is split, then a test
// "column f > cuts[f][cut]" whose rows go right when it holds.
type treeNode struct {
	rows        []int32 // the rows that reach it, indices of tree's rows; nil once split
	count       []int   // their classes' counts
	depth       int     // the root's is 0
	f, cut      int     // the best split, or f < 0 when none gains
	gain        float64 // its decrease of count-weighted Gini impurity
	left, right int     // children, once split
	order       int     // the node's place in tree.splits; -1 while a leaf
}

// treeBins holds the binned rows, a column after another: codes[f*rows+r]
// is the bin of row r's column f, the number of column f's cuts below the
// value.
type treeBins struct {
	d, rows int
	cuts    [][]float64 // ascending cut values of each column
	gaps    [][]float64 // half the gap between the values either side of each cut
	codes   []uint8
}

// maxBins bounds the bins of a column.
const maxBins = 256

// binSample bounds the rows whose values place the cuts of a column.
const binSample = 10000

// newTreeBins bins the rows, given by row(dst, i) for i < rows (dst has d
// elements).
func newTreeBins(d, rows int, row func(dst []float64, i int)) *treeBins {
	step := max(1, (rows+binSample-1)/binSample)
	var sample []int
	for i := 0; i < rows; i += step {
		sample = append(sample, i)
	}
	cols := make([][]float64, d)
	for f := range cols {
		cols[f] = make([]float64, 0, len(sample))
	}
	buf := make([]float64, d)
	for _, i := range sample {
		row(buf, i)
		for f, v := range buf {
			if !math.IsNaN(v) {
				cols[f] = append(cols[f], v)
			}
		}
	}
	b := &treeBins{d: d, rows: rows, cuts: make([][]float64, d), gaps: make([][]float64, d), codes: make([]uint8, rows*d)}
	for f, v := range cols {
		sort.Float64s(v)
		uniq := slices.Compact(v)
		// Cut after the value at each quantile, or after every value when
		// the column has few.
		var after []int
		if len(uniq) <= maxBins {
			for k := 0; k+1 < len(uniq); k++ {
				after = append(after, k)
			}
		} else {
			for q := 1; q < maxBins; q++ {
				k := sort.SearchFloat64s(uniq, v[q*len(v)/maxBins])
				if k+1 < len(uniq) && (len(after) == 0 || after[len(after)-1] < k) {
					after = append(after, k)
				}
			}
		}
		for _, k := range after {
			lo, hi := uniq[k], uniq[k+1]
			b.cuts[f] = append(b.cuts[f], lo+(hi-lo)/2)
			b.gaps[f] = append(b.gaps[f], (hi-lo)/2)
		}
		cols[f] = nil
	}
	for i := range rows {
		row(buf, i)
		for f, v := range buf {
			// The bin counts the cuts below v; NaN goes left, as the
			// walk sends it.
			k := 0
			if !math.IsNaN(v) {
				k = sort.SearchFloat64s(b.cuts[f], v)
			}
			b.codes[f*rows+i] = uint8(k)
		}
	}
	return b
}

// growTree grows a tree on the rows of b listed in rows, whose classes y
// holds (by row of b), to at most leaves leaves.
func growTree(b *treeBins, y []int, c int, rows []int, leaves int) *tree {
	t := &tree{c: c, bins: b}
	root := make([]int32, len(rows))
	for i, r := range rows {
		root[i] = int32(r)
	}
	hist := make([]int, maxBins*c)
	t.add(root, y, 0, hist)
	for len(t.splits)+1 < leaves {
		best := -1
		for i := range t.nodes {
			if n := &t.nodes[i]; n.order < 0 && n.f >= 0 && (best < 0 || n.gain > t.nodes[best].gain) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		n := &t.nodes[best]
		var l, r []int32
		for _, i := range n.rows {
			if int(b.codes[n.f*b.rows+int(i)]) > n.cut {
				r = append(r, i)
			} else {
				l = append(l, i)
			}
		}
		n.order, n.rows = len(t.splits), nil // its rows are its children's now
		t.splits = append(t.splits, best)
		depth := n.depth + 1
		li := t.add(l, y, depth, hist)
		ri := t.add(r, y, depth, hist)
		t.nodes[best].left, t.nodes[best].right = li, ri
	}
	return t
}

// add appends a leaf of rows and finds its best split; hist is scratch of
// maxBins*c.
func (t *tree) add(rows []int32, y []int, depth int, hist []int) int {
	b, c := t.bins, t.c
	n := treeNode{rows: rows, count: make([]int, c), depth: depth, f: -1, order: -1}
	for _, i := range rows {
		n.count[y[i]]++
	}
	if parent := impurity(n.count, len(rows)); parent > 0 {
		left := make([]int, c)
		right := make([]int, c)
		// Each column's histogram of classes by bin, then its cuts in
		// order.
		for f := range b.d {
			if len(b.cuts[f]) == 0 {
				continue // one value: no split
			}
			clear(hist[:(len(b.cuts[f])+1)*c])
			col := b.codes[f*b.rows : (f+1)*b.rows]
			for _, i := range rows {
				hist[int(col[i])*c+y[i]]++
			}
			clear(left)
			nl := 0
			for cut := range b.cuts[f] {
				for k, v := range hist[cut*c : (cut+1)*c] {
					left[k] += v
					nl += v
				}
				nr := len(rows) - nl
				if nl == 0 || nr == 0 {
					continue
				}
				for k := range right {
					right[k] = n.count[k] - left[k]
				}
				gain := parent - impurity(left, nl) - impurity(right, nr)
				if gain > n.gain+1e-9 {
					n.f, n.cut, n.gain = f, cut, gain
				}
			}
		}
	}
	t.nodes = append(t.nodes, n)
	return len(t.nodes) - 1
}

// impurity is the Gini impurity of counts times their sum n.
func impurity(count []int, n int) float64 {
	if n == 0 {
		return 0
	}
	s := 0.0
	for _, v := range count {
		s += float64(v) * float64(v)
	}
	return float64(n) - s/float64(n)
}

// internal says whether node i is split in the tree of leaves leaves.
func (t *tree) internal(i, leaves int) bool {
	o := t.nodes[i].order
	return o >= 0 && o < leaves-1
}

// class is the class of node i's rows: the most frequent, the lower on
// ties.
func (t *tree) class(i int) int { return mostFrequent(t.nodes[i].count) }

// predict returns the class that the tree of leaves leaves gives row r of
// its bins.
func (t *tree) predict(r, leaves int) int {
	i := 0
	for t.internal(i, leaves) {
		n := &t.nodes[i]
		if int(t.bins.codes[n.f*t.bins.rows+r]) > n.cut {
			i = n.right
		} else {
			i = n.left
		}
	}
	return t.class(i)
}

// treeLeaves are the leaf counts of the trees treeCheck chooses among.
var treeLeaves = []int{2, 4, 8, 16, 32, 64, 128}

// treeSharpness is the margin, in the sigmoid's units, that a tree
// model's test gives the nearest values of its column on either side of
// the cut: its soft routing sends them the hard walk's way with a chance
// of 1/(1+e^-4), 98%.
const treeSharpness = 4

// model returns the tree of leaves leaves as a model of m's data (its
// input columns, preprocessing, classes and training metadata): one node
// per split, numbered breadth first from the root, each testing one
// column of the preprocessed input against its cut, steps the tree's
// depth. Its soft model routes with sharpness treeSharpness and gives each
// edge's child about routeMass of the column's probability (exactly that
// where the child is a node, whose column also holds a forced exit).
func (t *tree) model(m *runtime.Model, leaves int) *runtime.Model {
	// Number the internal nodes breadth first.
	index := map[int]int{0: 0}
	order := []int{0}
	for q := 0; q < len(order); q++ {
		n := &t.nodes[order[q]]
		for _, ch := range [2]int{n.left, n.right} {
			if t.internal(ch, leaves) {
				index[ch] = len(order)
				order = append(order, ch)
			}
		}
	}
	nn := len(order)
	out := newGraph(m, nn, 1)
	top := topLogit(nn + m.Classes)
	for j, i := range order {
		n := &t.nodes[i]
		s := treeSharpness / t.bins.gaps[n.f][n.cut]
		out.W[j][n.f], out.B[j] = s, -s*t.bins.cuts[n.f][n.cut]
		out.Steps = max(out.Steps, n.depth+1)
		for side, ch := range [2]int{n.left, n.right} {
			class := t.class(ch)
			state := nn + class
			if t.internal(ch, leaves) {
				state = index[ch]
			}
			writeRoute([2][][]float64{out.M0Logits, out.M1Logits}[side], j, state, class, nn, top)
		}
	}
	return out
}

// newGraph returns a model of m's data (its input columns, preprocessing,
// classes and training metadata) of nn nodes and steps steps, its
// filters, biases and route logits zeros, for tree.model and
// softmaxModel to fill.
func newGraph(m *runtime.Model, nn, steps int) *runtime.Model {
	out := *m
	c := m.Classes
	out.Nodes, out.Steps = nn, steps
	out.W, out.B = make([][]float64, nn), make([]float64, nn)
	for j := range out.W {
		out.W[j] = make([]float64, m.Features)
	}
	out.M0Logits, out.M1Logits = make([][]float64, nn+c), make([][]float64, nn+c)
	for i := range out.M0Logits {
		out.M0Logits[i], out.M1Logits[i] = make([]float64, nn), make([]float64, nn)
	}
	out.Training = slices.Clone(m.Training)
	return &out
}

// topLogit is the logit that gives a child routeMass of its column's
// probability against the other states of states, at logit 0 but for one
// at 1, the forced exit (writeRoute).
func topLogit(states int) float64 {
	return math.Log(routeMass/(1-routeMass)) + math.Log(float64(states-2)+math.E)
}

// writeRoute sets column j of the logits l, all zeros, so that its argmax
// is state (with the logit top, topLogit's) and, when that is an internal
// node (below nn), its forced exit is the leaf of class. The models built
// here never exit by force within their steps; the exit is the sensible
// class all the same.
func writeRoute(l [][]float64, j, state, class, nn int, top float64) {
	l[state][j] = top
	if state < nn {
		l[nn+class][j] = 1
	}
}

// treeCheck grows a tree on the fit rows of g, chooses its leaves among
// treeLeaves by its score on the val rows (score: accuracy, or balanced
// accuracy; the fewer leaves on ties), and compares it with the walk's
// score walkScore there. When the tree is better it returns the tree of
// that many leaves grown again on the fit and val rows together, as a
// model of m's data, and the fit rows' tree's classes of the val rows, for
// the majority check; otherwise nil.
func (g *refiner) treeCheck(m *runtime.Model, walkScore float64, score func(class, rows []int) float64) (*runtime.Model, []int, *runlog.TreeCheck) {
	check := &runlog.TreeCheck{WalkScore: walkScore}
	rows := len(g.fit) + len(g.val)
	bins := newTreeBins(g.d, rows, g.row)
	// The bins' rows are the fit rows, then the val rows.
	y := make([]int, rows)
	for i, r := range g.fit {
		y[i] = g.y[r]
	}
	for i, r := range g.val {
		y[len(g.fit)+i] = g.y[r]
	}
	fit, val := make([]int, len(g.fit)), make([]int, len(g.val))
	for i := range fit {
		fit[i] = i
	}
	for i := range val {
		val[i] = len(g.fit) + i
	}
	bound := treeLeaves[len(treeLeaves)-1]
	t := growTree(bins, y, g.c, fit, bound)
	var best []int
	class := make([]int, len(g.val))
	last := 0
	for _, leaves := range treeLeaves {
		leaves = min(leaves, len(t.splits)+1)
		if leaves == last {
			break // the whole tree, scored already
		}
		last = leaves
		for i, r := range val {
			class[i] = t.predict(r, leaves)
		}
		s := score(class, g.val)
		check.Scores = append(check.Scores, runlog.TreeScore{Leaves: leaves, Score: s})
		if check.Leaves == 0 || s > check.Score {
			check.Leaves, check.Score, best = leaves, s, slices.Clone(class)
		}
	}
	if check.Leaves < 2 || !(check.Score > walkScore) {
		return nil, nil, check
	}
	all := append(fit, val...)
	refit := growTree(bins, y, g.c, all, check.Leaves)
	if len(refit.splits) == 0 {
		return nil, nil, check
	}
	check.Kept = true
	return refit.model(m, len(refit.splits)+1), best, check
}

// row writes the preprocessed training row of the tree's row i (the fit
// rows, then the val rows) into dst.
func (g *refiner) row(dst []float64, i int) {
	if i < len(g.fit) {
		g.rowOf(dst, g.fit[i])
		return
	}
	g.rowOf(dst, g.val[i-len(g.fit)])
}
