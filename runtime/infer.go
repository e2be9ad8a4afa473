package runtime

import (
	"fmt"
	"math"
	goruntime "runtime"
	"slices"
	"sync"
)

// Classifier is a validated model prepared for inference in float64.
// It is safe for concurrent use; per-call scratch space is passed in or
// allocated by the caller (NewSoftScratch; a SoftBlock, which runs on
// goroutines of its own, holds theirs).
type Classifier struct {
	Model *Model

	n, c, d, steps int
	w              []float64 // n x d, row-major
	b              []float64
	shift, scale   []float64 // nil when absent
	m0, m1         []float64 // (n+c) x n, row-major, column softmax of the logits
	m0t, m1t       []float64 // n x (n+c): the same, transposed (a column per row)

	// routes is the binary graph the hard walk follows.
	routes Routes
}

// New prepares a validated model for inference. It validates m first.
func New(m *Model) (*Classifier, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	n, c, d := m.Nodes, m.Classes, m.Features
	k := &Classifier{Model: m, n: n, c: c, d: d, steps: m.Steps,
		w: make([]float64, n*d), b: append([]float64(nil), m.B...),
		shift: m.InputShift, scale: m.InputScale}
	for i, row := range m.W {
		copy(k.w[i*d:], row)
	}
	k.m0 = ColumnSoftmax(m.M0Logits)
	k.m1 = ColumnSoftmax(m.M1Logits)
	k.m0t, k.m1t = transpose(k.m0, n+c, n), transpose(k.m1, n+c, n)
	k.routes = Routes{Nodes: n, Steps: m.Steps}
	k.routes.Child[0], k.routes.Exit[0] = Children(m.M0Logits, n)
	k.routes.Child[1], k.routes.Exit[1] = Children(m.M1Logits, n)
	return k, nil
}

// LoadClassifier loads the model file at path and prepares it for inference.
func LoadClassifier(path string) (*Classifier, error) {
	m, err := Load(path)
	if err != nil {
		return nil, err
	}
	return New(m)
}

// ColumnSoftmax returns softmax(L) taken down each column of the
// (rows x cols) matrix L, row-major.
func ColumnSoftmax(l [][]float64) []float64 {
	rows, cols := len(l), len(l[0])
	out := make([]float64, rows*cols)
	for j := 0; j < cols; j++ {
		mx := math.Inf(-1)
		for i := 0; i < rows; i++ {
			mx = math.Max(mx, l[i][j])
		}
		var sum float64
		for i := 0; i < rows; i++ {
			e := math.Exp(l[i][j] - mx)
			out[i*cols+j] = e
			sum += e
		}
		for i := 0; i < rows; i++ {
			out[i*cols+j] /= sum
		}
	}
	return out
}

// transpose returns the cols x rows transpose of a row-major matrix.
func transpose(a []float64, rows, cols int) []float64 {
	out := make([]float64, len(a))
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			out[c*rows+r] = a[r*cols+c]
		}
	}
	return out
}

// Children returns, for each of the n source columns of the (n+c) x n logit
// matrix l, the argmax destination state and the argmax leaf state (over
// rows n..n+c-1 only). Ties go to the lower index.
func Children(l [][]float64, n int) (child, exit []int) {
	child = make([]int, n)
	exit = make([]int, n)
	for j := 0; j < n; j++ {
		best, bestExit := 0, n
		for i := 1; i < len(l); i++ {
			if l[i][j] > l[best][j] {
				best = i
			}
			if i > n && l[i][j] > l[bestExit][j] {
				bestExit = i
			}
		}
		child[j], exit[j] = best, bestExit
	}
	return child, exit
}

// NumFeatures, NumClasses, NumNodes and Steps return the model's sizes.
func (k *Classifier) NumFeatures() int { return k.d }
func (k *Classifier) NumClasses() int  { return k.c }
func (k *Classifier) NumNodes() int    { return k.n }
func (k *Classifier) Steps() int       { return k.steps }

// Left and Right return the argmax children of internal node i (state
// indices; a value >= NumNodes is the leaf of class value-NumNodes).
func (k *Classifier) Left(i int) int  { return k.routes.Child[0][i] }
func (k *Classifier) Right(i int) int { return k.routes.Child[1][i] }

// Exit returns the forced-exit leaf state of node i for a decision (see the
// package comment).
func (k *Classifier) Exit(i int, right bool) int {
	if right {
		return k.routes.Exit[1][i]
	}
	return k.routes.Exit[0][i]
}

// Routes returns a copy of the binary graph the hard walk follows.
func (k *Classifier) Routes() Routes { return k.routes.Clone() }

// M0 and M1 return the column-softmax transition matrices, (n+c) x n
// row-major. The slices are the classifier's own: callers must not change
// them.
func (k *Classifier) M0() []float64 { return k.m0 }
func (k *Classifier) M1() []float64 { return k.m1 }

// Weights returns the filter of node i. The slice is the classifier's own:
// callers must not change it.
func (k *Classifier) Weights(i int) []float64 { return k.w[i*k.d : (i+1)*k.d] }

// Bias returns the bias of node i.
func (k *Classifier) Bias(i int) float64 { return k.b[i] }

// Preprocess writes (x - shift) * scale into dst. dst and x may be the same.
func (k *Classifier) Preprocess(dst, x []float64) {
	if len(x) != k.d || len(dst) != k.d {
		panic(fmt.Sprintf("runtime: input has %d features, model wants %d", len(x), k.d))
	}
	Preprocess(dst, x, k.shift, k.scale)
}

// Preprocess writes (x[j] - shift[j]) * scale[j] into each dst[j], leaving
// out a nil shift or scale: the inputs as a model with that shift and
// scale reads them. dst and x may be the same.
func Preprocess(dst, x, shift, scale []float64) {
	for j, v := range x {
		if shift != nil {
			v -= shift[j]
		}
		if scale != nil {
			v *= scale[j]
		}
		dst[j] = v
	}
}

// Margin returns w_i·x + b_i for a preprocessed input x, computed by the
// routing rule of the package documentation.
func (k *Classifier) Margin(i int, x []float64) float64 {
	return Margin(k.w[i*k.d:(i+1)*k.d], k.b[i], x)
}

// Margin returns w·x + b as the routing rule computes it: each product
// rounded before it is added, in feature order, the bias last. Every
// hard walk (the runtime's, refining's, generated code's) computes its
// margins this way, so that they decide alike bit for bit.
func Margin(w []float64, b float64, x []float64) float64 {
	var s float64
	for j, wj := range w {
		s += float64(wj * x[j])
	}
	return s + b
}

// MarginRows writes Margin(w, b, row) of each row of x (rows of len(w)
// values, one after another) into dst, bit for bit: it takes four rows
// at a time, whose margins are four chains of dependent additions that
// run side by side in about the time of one.
func MarginRows(dst, w []float64, b float64, x []float64) {
	d := len(w)
	if len(x) != len(dst)*d {
		panic(fmt.Sprintf("runtime: MarginRows got %d values for %d rows of %d", len(x), len(dst), d))
	}
	r := 0
	for ; r+4 <= len(dst); r += 4 {
		x0, x1, x2, x3 := x[r*d:(r+1)*d], x[(r+1)*d:(r+2)*d], x[(r+2)*d:(r+3)*d], x[(r+3)*d:(r+4)*d]
		var s0, s1, s2, s3 float64
		for j, wj := range w {
			s0 += float64(wj * x0[j])
			s1 += float64(wj * x1[j])
			s2 += float64(wj * x2[j])
			s3 += float64(wj * x3[j])
		}
		dst[r], dst[r+1], dst[r+2], dst[r+3] = s0+b, s1+b, s2+b, s3+b
	}
	for ; r < len(dst); r++ {
		dst[r] = Margin(w, b, x[r*d:(r+1)*d])
	}
}

// Routes is the binary graph the hard walk follows: for each internal node
// and branch (0: left, 1: right), the argmax child state and the
// forced-exit leaf state. States from Nodes on are leaves (class
// state-Nodes).
type Routes struct {
	Nodes, Steps int
	Child, Exit  [2][]int
}

// Clone returns a copy of r that shares no memory with it.
func (r Routes) Clone() Routes {
	for s := range 2 {
		r.Child[s], r.Exit[s] = slices.Clone(r.Child[s]), slices.Clone(r.Exit[s])
	}
	return r
}

// Side is the routing rule's decision: 1 (right) when margin > 0, else 0
// (left; NaN goes left).
func Side(margin float64) int {
	if margin > 0 {
		return 1
	}
	return 0
}

// Next returns the state the walk moves to from node at step t (0-based)
// on branch side: the branch's child, or, when that child is an internal
// node and t is the last step, the branch's forced-exit leaf (forced is
// then true). It is the one definition of a hard-walk move.
func (r *Routes) Next(node, t, side int) (next int, forced bool) {
	next = r.Child[side][node]
	if next < r.Nodes && t == r.Steps-1 {
		return r.Exit[side][node], true
	}
	return next, false
}

// Reachable returns the states reachable from the root in the binary graph
// (each internal node's argmax children), internal nodes and leaves,
// ascending. The root is always among them.
func (k *Classifier) Reachable() []int {
	seen := make([]bool, k.n+k.c)
	seen[0] = true
	stack := []int{0}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, c := range [2]int{k.routes.Child[0][i], k.routes.Child[1][i]} {
			if !seen[c] {
				seen[c] = true
				if c < k.n {
					stack = append(stack, c)
				}
			}
		}
	}
	var out []int
	for s, ok := range seen {
		if ok {
			out = append(out, s)
		}
	}
	return out
}

// Step is one decision of a hard walk.
type Step struct {
	Node   int     // internal node
	Margin float64 // w·x + b at Node
	Right  bool    // Margin > 0
	Next   int     // state moved to
}

// WalkResult summarises a hard walk.
type WalkResult struct {
	Class  int  // predicted class index
	Steps  int  // number of decisions taken
	Forced bool // the walk hit the step limit and made a forced exit
}

// Walk runs the hard walk on a raw input x. scratch must have NumFeatures
// elements (it receives the preprocessed input). If path is non-nil, each
// decision is appended to it and the extended slice is returned.
func (k *Classifier) Walk(x, scratch []float64, path []Step) (WalkResult, []Step) {
	k.Preprocess(scratch, x)
	return k.WalkPreprocessed(scratch, path)
}

// WalkPreprocessed runs the hard walk on an input x already preprocessed
// (Preprocess), as Walk does after preprocessing.
func (k *Classifier) WalkPreprocessed(x []float64, path []Step) (WalkResult, []Step) {
	node := 0
	for t := 0; ; t++ {
		m := k.Margin(node, x)
		side := Side(m)
		next, forced := k.routes.Next(node, t, side)
		if path != nil {
			path = append(path, Step{Node: node, Margin: m, Right: side == 1, Next: next})
		}
		if next >= k.n {
			return WalkResult{Class: next - k.n, Steps: t + 1, Forced: forced}, path
		}
		node = next
	}
}

// SoftScratch holds the per-call buffers of Soft.
type SoftScratch struct {
	x, s, p, next []float64
}

// NewSoftScratch allocates buffers for Soft.
func (k *Classifier) NewSoftScratch() *SoftScratch {
	n := k.n
	return &SoftScratch{x: make([]float64, k.d), s: make([]float64, n), p: make([]float64, n),
		next: make([]float64, n+k.c)}
}

// Soft runs the soft model for exactly N steps on the raw input x and writes
// the c leaf masses into dst (no output clamp; their sum is at most 1).
// It returns the predicted class, argmax of dst with ties to the lower index.
//
// Each step adds, for every internal node i holding mass p_i, the columns
// u1_i·M1[:, i] + u0_i·M0[:, i] with u1 = s∘p and u0 = (1-s)∘p, reading
// the transposed matrices so that a column is contiguous; nodes without mass
// are skipped.
func (k *Classifier) Soft(dst, x []float64, sc *SoftScratch) int {
	if len(dst) != k.c {
		panic(fmt.Sprintf("runtime: dst has %d elements, want %d", len(dst), k.c))
	}
	n, S := k.n, k.n+k.c
	k.Preprocess(sc.x, x)
	for i := 0; i < n; i++ {
		sc.s[i] = Sigmoid(k.Margin(i, sc.x))
	}
	clear(sc.p)
	sc.p[0] = 1
	clear(dst)
	for t := 0; t < k.steps; t++ {
		clear(sc.next)
		for i, p := range sc.p {
			if p == 0 {
				continue
			}
			u1, u0 := sc.s[i]*p, (1-sc.s[i])*p
			addColumns(sc.next, k.m1t[i*S:(i+1)*S], k.m0t[i*S:(i+1)*S], u1, u0)
		}
		copy(sc.p, sc.next[:n])
		for j := range dst {
			dst[j] += sc.next[n+j]
		}
	}
	best := 0
	for j, v := range dst {
		if v > dst[best] {
			best = j
		}
	}
	return best
}

// SoftBlock holds rows for the soft model until a block of BlockRows is
// full, then runs them on all the cores at once (each row with the bits
// Soft gives it): what a caller
// streaming rows of any number (eval, predict) needs, with its buffers,
// the workers' scratch included, made once.
type SoftBlock struct {
	k     *Classifier
	x     []float64 // the rows held, up to BlockRows x NumFeatures
	q     []float64 // leaf masses of the rows last run
	class []int     // and their soft classes
	sc    []*SoftScratch
}

// NewSoftBlock returns an empty SoftBlock of k.
func (k *Classifier) NewSoftBlock() *SoftBlock {
	rows := k.BlockRows()
	return &SoftBlock{k: k, x: make([]float64, 0, rows*k.d), q: make([]float64, rows*k.c), class: make([]int, rows)}
}

// Hold copies row (NumFeatures values) into the block and reports whether
// the block is now full, to be run.
func (b *SoftBlock) Hold(row []float64) (full bool) {
	if len(row) != b.k.d {
		panic(fmt.Sprintf("runtime: input has %d features, model wants %d", len(row), b.k.d))
	}
	b.x = append(b.x, row...)
	return len(b.x) == cap(b.x)
}

// Run runs the soft model on the rows of x (at most BlockRows, row-major,
// used in place) and returns their leaf masses (row-major, NumClasses
// each) and classes, valid until the next Run or Flush.
func (b *SoftBlock) Run(x []float64) (q []float64, class []int) {
	k, rows := b.k, len(x)/b.k.d
	q, class = b.q[:rows*k.c], b.class[:rows]
	if rows == 0 {
		return q, class
	}
	workers := min(goruntime.GOMAXPROCS(0), rows)
	for len(b.sc) < workers {
		b.sc = append(b.sc, k.NewSoftScratch())
	}
	run := func(w, lo, hi int) {
		for r := lo; r < hi; r++ {
			class[r] = k.Soft(q[r*k.c:(r+1)*k.c], x[r*k.d:(r+1)*k.d], b.sc[w])
		}
	}
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Go(func() { run(w, w*rows/workers, (w+1)*rows/workers) })
	}
	run(0, 0, rows/workers)
	wg.Wait()
	return q, class
}

// Flush runs the soft model on the rows held and lets them go: it returns
// them, their leaf masses and their classes, valid until the next Hold,
// Run or Flush.
func (b *SoftBlock) Flush() (x, q []float64, class []int) {
	x, b.x = b.x, b.x[:0]
	q, class = b.Run(x)
	return x, q, class
}

// BlockRows is how many rows a SoftBlock holds for one run: 256,
// fewer for a model so wide that 256 rows of its features or classes
// would take more than 8 MiB.
func (k *Classifier) BlockRows() int {
	return max(1, min(256, (1<<20)/max(k.d, k.c)))
}

// addColumns adds c1[r]·u1 + c0[r]·u0 into each dst[r], as Soft's doc
// comment describes, four elements an iteration: unrolled, the loop runs
// about 1.4 times faster, with the same operations on each element.
func addColumns(dst, c1, c0 []float64, u1, u0 float64) {
	c1, c0 = c1[:len(dst)], c0[:len(dst)]
	r := 0
	for ; r+4 <= len(dst); r += 4 {
		d, a, b := dst[r:r+4:r+4], c1[r:r+4:r+4], c0[r:r+4:r+4]
		d[0] += a[0]*u1 + b[0]*u0
		d[1] += a[1]*u1 + b[1]*u0
		d[2] += a[2]*u1 + b[2]*u0
		d[3] += a[3]*u1 + b[3]*u0
	}
	for ; r < len(dst); r++ {
		dst[r] += c1[r]*u1 + c0[r]*u0
	}
}

// Sigmoid is 1/(1+exp(-a)), computed without overflow for any a.
func Sigmoid(a float64) float64 {
	if a >= 0 {
		return 1 / (1 + math.Exp(-a))
	}
	e := math.Exp(a)
	return e / (1 + e)
}
