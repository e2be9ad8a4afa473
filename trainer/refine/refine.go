package refine

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	goruntime "runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/optimize"

	"github.com/songc/songc/runlog"
	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer"
	"github.com/songc/songc/trainer/internal/dot"
)

// Config sets the hard-routing fine-tune of Run.
type Config struct {
	// Passes bounds the passes over the graph; Run stops earlier when a
	// pass changes nothing, or when two passes in a row did not raise the
	// validation accuracy.
	Passes int
	// Ridge is the weight of the L2 penalty on a node's filter in its
	// logistic refit (the bias is not penalised).
	Ridge float64
	// MajorityCheck, when set, ends Run with the majority check: unless
	// the selected walk beats always predicting the most frequent class on
	// the validation rows by a sign test at MajorityLevel, Run returns
	// that constant model instead, or, with Logistic, the logistic check's
	// regression where it is right on more of those rows than the
	// constant. A regression that replaced the walk is judged by that
	// count alone. Run skips the check where MajorityBarred says it cannot
	// run: without validation rows, and for a model selected by balanced
	// accuracy, whose baseline is not the most frequent class.
	MajorityCheck bool
	// Tree, when set, has Run grow a decision tree on single columns
	// (CART's, grown best first) on the training rows, its leaves chosen
	// among 2 to 128 on the validation rows, and keep it, grown again on
	// the training and validation rows together, in place of the walk
	// when it scores better there; before the majority check, which then
	// judges the tree by its validation rows' classes. It needs
	// validation rows.
	Tree bool
	// Logistic, when set, has Run fit a multinomial logistic regression
	// on all the columns to the training rows (softmaxFit, ridge weight
	// 1/rows) after the tree check, and keep it, fitted again on the
	// training and validation rows together, in place of the walk or the
	// tree unless that beats it on the validation rows by a sign test at
	// MajorityLevel (for a model selected by balanced accuracy: when it
	// scores higher there); before the majority check. It needs
	// validation rows.
	Logistic bool
}

// DefaultRidge is the ridge weight of Config when it is 0.
const DefaultRidge = 1e-2

// refinePatience is how many passes Run goes on without a better
// validation accuracy.
const refinePatience = 2

// Run fine-tunes the hard walk of a trained model, the classifier that
// compiles, directly: it changes node filters, argmax children and forced
// exits, and puts unused nodes into the walk, so that the walk's training
// accuracy never falls, and returns the model of the pass with the best
// validation accuracy (pass 0, the model as given, included), or, when
// Config.MajorityCheck says so, the constant model of the majority check.
//
// The rows are the model's own split: Run rebuilds its training and
// validation rows from the seed and share recorded in the metadata, and
// fails when task's training data is not the data the model was trained on.
// It is deterministic, and returns a new model; m is not changed.
//
// A pass is one round of alternating optimisation in the manner of TAO
// (Carreira-Perpiñán and Tavallali, "Alternating optimization of decision
// trees", NeurIPS 2018), carried over from trees to SONG's graph, where a
// walk may visit a node more than once but always takes the same branch
// there, since the decision depends on the input alone:
//
//   - For each reachable node j, the rows whose walk visits j are walked
//     once more from their first visit of j, with j's decision forced to
//     the other branch. Where exactly one of the two branches ends in the
//     true class, that branch is the row's target; elsewhere j's
//     decision does not matter. A logistic regression fitted to the
//     targets (from j's filter, with Ridge) replaces the filter when it
//     routes more of them right: the walk's training accuracy rises by
//     exactly that many rows.
//   - For each edge (j, branch), every state is tried as its child on the
//     rows whose walk takes the edge, and the best replaces the child when
//     it is strictly better; likewise the forced-exit leaf of the edge for
//     the rows that end there.
//   - Unused nodes are put on the edges where a new filter with the edge's
//     old child on its left gains most rows (grow).
//
// A changed child gets routeMass of its column's probability and a changed
// exit a logit just above the other leaves', so the soft model changes a
// little too; the hard walk is what Run optimises.
func Run(ctx context.Context, m *runtime.Model, task *trainer.Task, cfg Config, progress func(runlog.RefinePass)) (*runtime.Model, error) {
	if cfg.Passes < 1 {
		return nil, fmt.Errorf("refine: passes must be at least 1, got %d", cfg.Passes)
	}
	if cfg.Ridge == 0 {
		cfg.Ridge = DefaultRidge
	}
	if !(cfg.Ridge > 0) || math.IsInf(cfg.Ridge, 0) {
		return nil, fmt.Errorf("refine: ridge must be a finite number > 0, got %v", cfg.Ridge)
	}
	meta, g, err := modelRefiner(m, task, "refine")
	if err != nil {
		return nil, err
	}

	out := cloneModel(m)
	var log []runlog.RefinePass
	best, bestVal := 0, -1.0
	var bestW, bestB []float64
	var bestRoutes runtime.Routes
	var valClass, bestValClass []int // the walk's class of each validation row
	// A model chosen by balanced accuracy keeps the pass that scores
	// best by it: refitting counts rows, and on unbalanced classes a pass
	// can gain rows by giving up a small class.
	balanced := meta.Select == "balanced"
	report := func(p runlog.RefinePass, start time.Time) {
		var forced int
		valClass, forced = g.classes(valClass, g.val)
		p.TrainAcc, p.ValAcc, p.TestAcc = g.accuracy(g.fit), g.share(valClass, g.val), g.accuracy(g.test)
		p.ValForced = float64(forced) / float64(max(1, len(g.val)))
		score := p.ValAcc
		if balanced && len(g.val) > 0 {
			p.ValBalanced = g.balancedShare(valClass, g.val)
			score = p.ValBalanced
		}
		p.Seconds = time.Since(start).Seconds()
		if score > bestVal || (len(g.val) == 0 && p.Pass > 0) {
			best, bestVal = p.Pass, score
			bestW, bestB, bestRoutes = slices.Clone(g.w), slices.Clone(g.b), g.routes.Clone()
			bestValClass = slices.Clone(valClass)
		}
		log = append(log, p)
		if progress != nil {
			progress(p)
		}
	}
	report(runlog.RefinePass{Pass: 0}, time.Now())
	for pass := 1; pass <= cfg.Passes; pass++ {
		start := time.Now()
		p := runlog.RefinePass{Pass: pass}
		order := g.reachable()
		for _, j := range order {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("refine: %w", err)
			}
			if g.refitNode(j, cfg.Ridge) {
				p.Filters++
			}
		}
		for _, j := range order {
			for s := range 2 {
				if g.refitChild(j, s) {
					p.Routes++
				}
				if g.refitExit(j, s) {
					p.Routes++
				}
			}
		}
		p.Grown = g.grow(ctx, cfg.Ridge)
		report(p, start)
		if p.Filters == 0 && p.Routes == 0 && p.Grown == 0 {
			break
		}
		if len(g.val) > 0 && pass-best >= refinePatience {
			break // validation accuracy has stopped rising
		}
	}
	log[best].Best = true

	n, d := g.n, g.d
	for i := range n {
		copy(out.W[i], bestW[i*d:(i+1)*d])
	}
	copy(out.B, bestB)
	bestChild, bestExit := bestRoutes.Child, bestRoutes.Exit
	setRoutes(out.M0Logits, bestChild[0], bestExit[0], n)
	setRoutes(out.M1Logits, bestChild[1], bestExit[1], n)
	// The model must walk exactly as the refiner did.
	for s, l := range [2][][]float64{out.M0Logits, out.M1Logits} {
		child, exit := runtime.Children(l, n)
		for j := range n {
			if child[j] != bestChild[s][j] || (child[j] < n && exit[j] != bestExit[s][j]) {
				panic(fmt.Sprintf("refine: route of node %d branch %d encoded as %d/%d, want %d/%d", j, s, child[j], exit[j], bestChild[s][j], bestExit[s][j]))
			}
		}
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(m.Training, &raw); err != nil {
		return nil, fmt.Errorf("refine: training metadata: %v", err)
	}
	rec := runlog.Refine{Passes: cfg.Passes, Ridge: cfg.Ridge, Selected: best, Log: log}
	score := g.share
	if balanced {
		score = g.balancedShare
	}
	rival := "walk"
	if cfg.Tree && len(g.val) > 0 {
		var tm *runtime.Model
		var treeClass []int
		tm, treeClass, rec.Tree = g.treeCheck(out, bestVal, score)
		if tm != nil {
			out, bestValClass, bestVal, rival = tm, treeClass, rec.Tree.Score, "tree"
		}
	}
	var alt *regression // the logistic check's regression
	if cfg.Logistic && len(g.val) > 0 {
		alt, rec.Logistic = g.logisticCheck(out, rival, bestValClass, bestVal, score, balanced)
		if alt != nil && alt.model != nil {
			out = alt.model
		}
	}
	if cfg.MajorityCheck && MajorityBarred(cfg.Passes, len(g.val) > 0, meta.Select) == MajorityRuns {
		out, rec.Majority = majorityCheck(out, task.TrainTargets(), g.fit, g.val, bestValClass, alt)
	}
	rm, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	raw["refine"] = rm
	if out.Training, err = json.Marshal(raw); err != nil {
		return nil, err
	}
	return out, out.Validate()
}

// cloneModel returns a deep copy of the parts of m that Run changes.
func cloneModel(m *runtime.Model) *runtime.Model {
	out := *m
	out.W, out.M0Logits, out.M1Logits = clone2(m.W), clone2(m.M0Logits), clone2(m.M1Logits)
	out.B = slices.Clone(m.B)
	out.Training = slices.Clone(m.Training)
	return &out
}

// clone2 returns a deep copy of a.
func clone2(a [][]float64) [][]float64 {
	b := make([][]float64, len(a))
	for i, row := range a {
		b[i] = slices.Clone(row)
	}
	return b
}

// setRoutes changes the columns of the logits l, where needed, so that the
// argmax of column j is child[j] and, when that is an internal node, its
// argmax over the leaf rows is exit[j] (as runtime.Children reads them).
func setRoutes(l [][]float64, child, exit []int, n int) {
	cur, curExit := runtime.Children(l, n)
	for j := range child {
		setRoute(l, j, child[j], exit[j], n, cur[j], curExit[j])
	}
}

// setRoute changes column j of l, whose argmax is cur and top leaf
// curExit, if needed, so that its argmax is child and, when child is an
// internal node, its top leaf is exit. A child that has to be raised gets
// routeMass of the column's probability, so that the soft model follows the
// new route too; an exit that has to be raised gets a logit just above the
// other leaves'.
func setRoute(l [][]float64, j, child, exit, n, cur, curExit int) {
	if cur == child && (child >= n || curExit == exit) {
		return
	}
	if child < n && curExit != exit {
		l[exit][j] = l[curExit][j] + 1
	}
	// The child must beat every other state strictly.
	lse, top := math.Inf(-1), math.Inf(-1)
	for i := range l {
		if i != child {
			top = max(top, l[i][j])
			lse = logAddExp(lse, l[i][j])
		}
	}
	if cur != child || l[child][j] <= top {
		l[child][j] = lse + math.Log(routeMass/(1-routeMass))
	}
}

// routeMass is the probability setRoute gives a child it raises.
const routeMass = 0.99

// logAddExp is log(exp(a) + exp(b)).
func logAddExp(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	if math.IsInf(b, -1) {
		return a
	}
	return a + math.Log1p(math.Exp(b-a))
}

// refiner holds the hard walk being refined and the rows it is fitted to.
type refiner struct {
	n, c, d int
	w, b    []float64      // n x d filters and biases, in the preprocessed space
	routes  runtime.Routes // the walk's graph, changed by child and exit moves and insertions

	// x holds the preprocessed rows, the training rows then the test rows,
	// unless sparse does.
	x []float64
	y []int
	// sides holds each row's routing decision at every node, runtime.Side
	// of its margin, a bit per node (1: right): words uint64s a row.
	sides []uint64
	words int
	// fit, val and test index the rows (of x, or of sparse).
	fit, val, test []int

	hops []hop // scratch of trace
	// walked is what the fit rows' walks on the graph as it is give, by
	// node and by edge; changed clears it when a filter or route changes.
	walked walkLists
	// scratch of refitNode and bestInsertion, and logistic's care rows
	care   []int
	target []float64
	theta  []float64
	xCare  []float64 // the care rows of logistic, one after another
	// sparse holds the rows by their nonzero values in place of x when at
	// least half the values are zeros, and sparseCare the care rows of
	// logistic; else sparse is nil.
	sparse, sparseCare *dot.Sparse
	margin             []float64 // scratch of decide
}

// hop is one move of a walk: the node, its branch, and whether the move was
// a forced exit.
type hop struct {
	node   int
	side   int
	forced bool
}

// modelRefiner returns the training metadata of m and the refiner of m
// on its own fit and validation rows, which trainer.ModelSplit rebuilds
// from task (op names the caller in its errors).
func modelRefiner(m *runtime.Model, task *trainer.Task, op string) (runlog.Metadata, *refiner, error) {
	meta, fit, val, err := trainer.ModelSplit(m, task, op)
	if err != nil {
		return meta, nil, err
	}
	k, err := runtime.New(m)
	if err != nil {
		return meta, nil, err
	}
	return meta, newRefiner(k, task, fit, val), nil
}

func newRefiner(k *runtime.Classifier, task *trainer.Task, fit, val []int) *refiner {
	n, c, d := k.NumNodes(), k.NumClasses(), k.NumFeatures()
	g := &refiner{n: n, c: c, d: d, w: make([]float64, n*d), b: make([]float64, n),
		fit: fit, val: val}
	for i := range n {
		copy(g.w[i*d:], k.Weights(i))
		g.b[i] = k.Bias(i)
	}
	g.routes = k.Routes()
	rows := task.Train.Rows
	if task.Test != nil {
		rows += task.Test.Rows
	}
	g.words = (n + 63) / 64
	g.y, g.sides = make([]int, rows), make([]uint64, rows*g.words)
	g.margin = make([]float64, rows)
	yTrain, yTest := task.TrainTargets(), task.TestTargets()
	copy(g.y, yTrain)
	// row preprocesses row r into dst.
	row := func(dst []float64, r int) {
		if r < task.Train.Rows {
			k.Preprocess(dst, task.Train.Row(r))
		} else {
			k.Preprocess(dst, task.Test.Row(r-task.Train.Rows))
		}
	}
	for r := task.Train.Rows; r < rows; r++ {
		g.y[r] = yTest[r-task.Train.Rows]
		g.test = append(g.test, r)
	}
	buf := make([]float64, d)
	zeros := 0
	for r := range rows {
		row(buf, r)
		for _, v := range buf {
			if v == 0 {
				zeros++
			}
		}
	}
	if rows > 0 && float64(zeros) >= sparseShare*float64(rows*d) {
		g.sparse, g.sparseCare = new(dot.Sparse), new(dot.Sparse)
		g.sparse.Reset(d, rows*d-zeros)
		for r := range rows {
			row(buf, r)
			g.sparse.Append(buf)
		}
	} else {
		g.x = make([]float64, rows*d)
		for r := range rows {
			row(g.x[r*d:(r+1)*d], r)
		}
	}
	for j := range n {
		g.decide(j)
	}
	return g
}

// decide recomputes node j's decision on every row, runtime.Side of its
// margin.
func (g *refiner) decide(j int) {
	g.changed()
	d := g.d
	w := g.w[j*d : (j+1)*d]
	rows := len(g.y)
	blocks := (rows + marginBlock - 1) / marginBlock
	word, bit := j/64, uint(j%64)
	parallelFor(blocks, func(k int) {
		lo, hi := k*marginBlock, min(rows, (k+1)*marginBlock)
		m := g.margin[lo:hi]
		if g.x != nil {
			runtime.MarginRows(m, w, g.b[j], g.x[lo*d:hi*d])
		} else {
			margin := g.marginOf(w, g.b[j])
			for i := range m {
				m[i] = margin(lo + i)
			}
		}
		for i, v := range m {
			p := &g.sides[(lo+i)*g.words+word]
			*p = *p&^(1<<bit) | uint64(runtime.Side(v))<<bit
		}
	})
}

// marginOf returns the function that gives runtime.Margin(w, b, row r):
// on the sparse rows when it can, with the same bits. The function is for
// one goroutine at a time.
func (g *refiner) marginOf(w []float64, b float64) func(r int) float64 {
	d := g.d
	switch {
	case g.x != nil:
		return func(r int) float64 { return runtime.Margin(w, b, g.x[r*d:(r+1)*d]) }
	case finite(w):
		return func(r int) float64 { return g.sparse.Sequential(w, r) + b }
	}
	x := make([]float64, d)
	return func(r int) float64 {
		g.sparse.Dense(x, r)
		return runtime.Margin(w, b, x)
	}
}

// sparseShare is the share of zeros among the rows' values from which
// the refiner reads them as dot.Sparse rows (a variable for the tests).
var sparseShare = 0.5

// marginBlock is the rows per goroutine task of decide.
const marginBlock = 2048

// side is row r's decision at node: runtime.Side of its margin.
func (g *refiner) side(r, node int) int {
	return int(g.sides[r*g.words+node>>6]>>(uint(node)&63)) & 1
}

// walk returns the class of row r's hard walk. It moves by runtime's
// routing rule on the decisions kept in sides.
func (g *refiner) walk(r int) int { return g.walkOn(&g.routes, r, 0, 0, -1, 0) }

// walkOn is walk on the routes rt from node at step t0 (the rest of a
// walk that is at node after t0 steps), with node f's branch forced to side
// fs at every visit when f >= 0.
func (g *refiner) walkOn(rt *runtime.Routes, r, node, t0, f, fs int) int {
	for t := t0; ; t++ {
		s := g.side(r, node)
		if node == f {
			s = fs
		}
		next, _ := rt.Next(node, t, s)
		if next >= g.n {
			return next - g.n
		}
		node = next
	}
}

// eachState returns, for every state c but skip, score(rt) on a copy rt of
// base whose entries for node set(rt, c) has changed: the candidates of a
// child or of an inserted node's right child, scored on up to GOMAXPROCS
// goroutines, each with its own copy. set may change node's children and
// exits only; they are restored after each candidate. The scores are those
// of a loop over c on base itself.
func (g *refiner) eachState(base *runtime.Routes, node, skip int, set func(rt *runtime.Routes, c int), score func(rt *runtime.Routes) int) []int {
	states := g.n + g.c
	scores := make([]int, states)
	workers := min(states, goruntime.GOMAXPROCS(0))
	parallelFor(workers, func(w int) {
		rt := base.Clone()
		for c := w; c < states; c += workers {
			if c == skip {
				continue
			}
			set(&rt, c)
			scores[c] = score(&rt)
			for s := range 2 {
				rt.Child[s][node], rt.Exit[s][node] = base.Child[s][node], base.Exit[s][node]
			}
		}
	})
	return scores
}

// countRight counts the rows whose walk on rt, from steps[i] with node
// f's decision forced to fs (f = -1: none), ends in their class, or which
// known says are right already (known may be nil). The count stops once
// it cannot exceed floor, and is then at most floor.
func (g *refiner) countRight(rt *runtime.Routes, rows, steps []int, j, f, fs int, known []bool, floor int) int {
	k, most := 0, len(rows)
	for i, r := range rows {
		if known != nil && known[i] || g.walkOn(rt, r, j, steps[i], f, fs) == g.y[r] {
			k++
		} else if most--; most <= floor {
			return most
		}
	}
	return k
}

// trace is walk without forcing that also records the hops in g.hops.
func (g *refiner) trace(r int) int {
	g.hops = g.hops[:0]
	node := 0
	for t := 0; ; t++ {
		s := g.side(r, node)
		next, forced := g.routes.Next(node, t, s)
		g.hops = append(g.hops, hop{node: node, side: s, forced: forced})
		if next >= g.n {
			return next - g.n
		}
		node = next
	}
}

// walkLists holds what every fit row's walk gives, by node and by edge (edge
// 2j+s is node j's branch s), each list in the order of the fit rows:
// refitNode needs the rows that visit a node, refitChild and grow those
// that take an edge, refitExit those whose walk a forced exit ends. One
// trace of the rows serves every node and edge until the graph changes.
type walkLists struct {
	valid bool
	class []int // the walk's class, by row (fit rows only)
	// node[j] lists the rows whose walk visits node j, with the step and
	// the branch of their first visit.
	node [][]visit
	// edgeRow[e] lists the rows whose walk takes edge e, edgeStep[e] the
	// step at which each first takes it; edgeRight[e] of them end in their
	// class.
	edgeRow, edgeStep [][]int
	edgeRight         []int
	// exits[e*c+k] counts the rows of class k whose walk ends in edge e's
	// forced exit.
	exits []int
	// seen stamps the build: the last row (its index in fit, plus 1) that
	// visited each node. A row's branch at a node is always the same, so
	// its first visit of a node is its first move along that edge.
	seen []int
}

// visit is a row's first visit of a node: the step and the branch taken.
type visit struct{ row, step, side int }

// changed says that a filter or a route changed: the walks are traced
// again when next needed.
func (g *refiner) changed() { g.walked.valid = false }

// walks returns the fit rows' walks on the graph as it is, tracing them
// when a filter or route changed since the last call.
func (g *refiner) walks() *walkLists {
	w := &g.walked
	if w.valid {
		if verifyWalks {
			g.checkWalks()
		}
		return w
	}
	n, edges := g.n, 2*g.n
	w.class = resize(w.class, len(g.y))
	w.node = resize(w.node, n)
	w.edgeRow, w.edgeStep = resize(w.edgeRow, edges), resize(w.edgeStep, edges)
	w.edgeRight, w.exits = resize(w.edgeRight, edges), resize(w.exits, edges*g.c)
	w.seen = resize(w.seen, n)
	for j := range w.node {
		w.node[j] = w.node[j][:0]
	}
	for e := range edges {
		w.edgeRow[e], w.edgeStep[e] = w.edgeRow[e][:0], w.edgeStep[e][:0]
	}
	clear(w.edgeRight)
	clear(w.exits)
	clear(w.seen)
	for k, r := range g.fit {
		c := g.trace(r)
		w.class[r] = c
		last := g.hops[len(g.hops)-1]
		for t, h := range g.hops {
			if w.seen[h.node] == k+1 {
				continue
			}
			w.seen[h.node] = k + 1
			w.node[h.node] = append(w.node[h.node], visit{r, t, h.side})
			e := 2*h.node + h.side
			w.edgeRow[e], w.edgeStep[e] = append(w.edgeRow[e], r), append(w.edgeStep[e], t)
			if c == g.y[r] {
				w.edgeRight[e]++
			}
		}
		if last.forced {
			w.exits[(2*last.node+last.side)*g.c+g.y[r]]++
		}
	}
	w.valid = true
	return w
}

// verifyWalks, set by the tests, makes walks check that the walks it keeps
// are those a new trace gives: that every change of a filter or route
// called changed.
var verifyWalks = false

// checkWalks panics unless the walks kept are those of the graph as it is.
func (g *refiner) checkWalks() {
	kept := g.walked
	g.walked = walkLists{}
	if fresh := g.walks(); !kept.same(fresh) {
		panic("refine: the walks kept are not the graph's: a change did not call changed")
	}
	g.walked = kept
}

// same reports whether w and o hold the same walks (an empty list and none
// are the same).
func (w *walkLists) same(o *walkLists) bool {
	lists := func(a, b [][]int) bool { return slices.EqualFunc(a, b, slices.Equal[[]int]) }
	return slices.Equal(w.class, o.class) && slices.EqualFunc(w.node, o.node, slices.Equal[[]visit]) &&
		lists(w.edgeRow, o.edgeRow) && lists(w.edgeStep, o.edgeStep) &&
		slices.Equal(w.edgeRight, o.edgeRight) && slices.Equal(w.exits, o.exits)
}

// resize returns s with length n, reusing its memory when it can.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// accuracy is the walk's accuracy on rows (0 without rows).
func (g *refiner) accuracy(rows []int) float64 {
	correct := 0
	for _, r := range rows {
		if g.walk(r) == g.y[r] {
			correct++
		}
	}
	return float64(correct) / float64(max(1, len(rows)))
}

// classes returns the walk's class of each of rows, in dst's memory, and
// how many of the walks end in a forced exit.
func (g *refiner) classes(dst, rows []int) (class []int, forced int) {
	class = dst[:0]
	for _, r := range rows {
		class = append(class, g.trace(r))
		if g.hops[len(g.hops)-1].forced {
			forced++
		}
	}
	return class, forced
}

// share is the accuracy of the classes of rows (0 without rows).
func (g *refiner) share(class, rows []int) float64 {
	correct := 0
	for i, r := range rows {
		if class[i] == g.y[r] {
			correct++
		}
	}
	return float64(correct) / float64(max(1, len(rows)))
}

// balancedShare is the balanced accuracy (the mean over the classes that
// have rows of the share of their rows classed right) of the classes of
// rows (0 without rows).
func (g *refiner) balancedShare(class, rows []int) float64 {
	conf := make([][]int, g.c)
	for k := range conf {
		conf[k] = make([]int, g.c)
	}
	for i, r := range rows {
		conf[g.y[r]][class[i]]++
	}
	return runtime.BalancedAccuracy(conf)
}

// reachable returns the internal nodes reachable from the root, in
// breadth-first order with children left before right.
func (g *refiner) reachable() []int {
	seen := make([]bool, g.n)
	seen[0] = true
	order := []int{0}
	for q := 0; q < len(order); q++ {
		j := order[q]
		for s := range 2 {
			if c := g.routes.Child[s][j]; c < g.n && !seen[c] {
				seen[c] = true
				order = append(order, c)
			}
		}
	}
	return order
}

// refitNode replaces node j's filter by a logistic regression on the rows
// whose outcome its branch decides, if that routes more of them right.
func (g *refiner) refitNode(j int, ridge float64) bool {
	g.care, g.target = g.care[:0], g.target[:0]
	before := 0 // care rows the current filter routes to their target
	w := g.walks()
	for _, v := range w.node[j] {
		// The walk's own branch at j ends in c; the other, forced at every
		// visit of j, is unchanged up to the first.
		r, t, side := v.row, v.step, v.side
		c := w.class[r]
		own, other := c == g.y[r], g.walkOn(&g.routes, r, j, t, j, 1-side) == g.y[r]
		left, right := own, other
		if side == 1 {
			left, right = other, own
		}
		if left == right {
			continue
		}
		g.care = append(g.care, r)
		g.target = append(g.target, b2f(right))
		if own {
			before++ // the filter sends the row to its target already
		}
	}
	if before == len(g.care) {
		return false
	}
	d := g.d
	g.theta = append(g.theta[:0], g.w[j*d:(j+1)*d]...)
	g.theta = append(g.theta, g.b[j])
	theta := g.logistic(g.theta, ridge)
	if theta == nil {
		return false
	}
	k := g.routed(theta)
	if k <= before {
		return false
	}
	g.sharpen(theta, k)
	copy(g.w[j*d:(j+1)*d], theta[:d])
	g.b[j] = theta[d]
	g.decide(j)
	return true
}

// routed counts the care rows that filter theta (w then b) sends to their
// target branch, by the routing rule.
func (g *refiner) routed(theta []float64) int {
	margin := g.marginOf(theta[:g.d], theta[g.d])
	n := 0
	for i, r := range g.care {
		right := runtime.Side(margin(r)) == 1
		if right == (g.target[i] == 1) {
			n++
		}
	}
	return n
}

// logistic minimises the mean logistic loss of the care rows plus
// ridge/2 |w|^2 by L-BFGS from theta0, and returns the minimiser, or nil
// when the optimiser fails or leaves the finite numbers.
//
// The loss and its gradient are summed over fixed blocks of rows, in
// parallel, and the blocks' sums added in order: the result does not
// depend on the number of threads. (Only the fit uses BLAS-style dot
// products, package dot's; whether a filter is kept is decided by the
// routing rule's own arithmetic, in routed.) The care rows are copied next
// to each other first, as every evaluation reads them all.
func (g *refiner) logistic(theta0 []float64, ridge float64) []float64 {
	d, m := g.d, len(g.care)
	sp := g.sparseCare
	if sp != nil {
		nonzeros := 0
		for _, r := range g.care {
			nonzeros += g.sparse.Start[r+1] - g.sparse.Start[r]
		}
		sp.Reset(d, nonzeros)
		for _, r := range g.care {
			sp.AppendFrom(g.sparse, r)
		}
	} else {
		g.xCare = resize(g.xCare, m*d)
		for i, r := range g.care {
			copy(g.xCare[i*d:(i+1)*d], g.x[r*d:(r+1)*d])
		}
	}
	nb := (m + logisticBlock - 1) / logisticBlock
	partF := make([]float64, nb)
	partG := make([]float64, nb*(d+1))
	grad := make([]float64, d+1)
	var f float64
	// L-BFGS asks for the value and the gradient at the same points: both
	// are computed at once and kept for the last point.
	var last []float64
	eval := func(theta []float64) {
		if last != nil && slices.Equal(theta, last) {
			return
		}
		w, b := theta[:d], theta[d]
		if sp != nil && !finite(w) {
			// A product of an infinite weight and a zero is NaN, which the
			// sparse rows would skip: the dense rows give it.
			g.xCare = resize(g.xCare, m*d)
			for i := range m {
				sp.Dense(g.xCare[i*d:(i+1)*d], i)
			}
			sp = nil
		}
		parallelFor(nb, func(k int) {
			gk := partG[k*(d+1) : (k+1)*(d+1)]
			clear(gk)
			var fk float64
			// loss adds row i's loss to fk and returns d/da of it.
			loss := func(i int, a float64) float64 {
				a += b
				if g.target[i] == 1 {
					fk += softplus(-a)
				} else {
					fk += softplus(a)
				}
				e := runtime.Sigmoid(a) - g.target[i]
				gk[d] += e
				return e
			}
			i, end := k*logisticBlock, min(m, (k+1)*logisticBlock)
			if sp != nil {
				var row []float64 // a row made dense, when one is needed
				for ; i < end; i++ {
					e := loss(i, sp.Dot(w, i))
					if math.IsNaN(e) {
						// NaN times a zero is NaN: the dense row's bits.
						if row == nil {
							row = make([]float64, d)
						}
						sp.Dense(row, i)
						dot.AddScaled(gk[:d], e, row)
						continue
					}
					sp.AddScaled(gk[:d], e, i)
				}
			}
			for ; i+4 <= end; i += 4 {
				x := g.xCare[i*d:]
				a := dot.Dot4(w, x, d)
				var e [4]float64
				for r := range e {
					e[r] = loss(i+r, a[r])
				}
				dot.AddScaled4(gk[:d], e, x, d)
			}
			for ; i < end; i++ {
				x := g.xCare[i*d : (i+1)*d]
				dot.AddScaled(gk[:d], loss(i, dot.Dot(w, x)), x)
			}
			partF[k] = fk
		})
		f = ridgeLoss(grad, partF, partG, w, m, ridge)
		last = append(last[:0], theta...)
	}
	return minimizeLBFGS(theta0, 100, func(theta []float64) (float64, []float64) {
		eval(theta)
		return f, grad
	})
}

// ridgeLoss adds the blocks' sums of a loss, partF, and of its gradient,
// partG (blocks of len(grad)), in order, into the mean over m rows, and
// adds ridge/2 |w|^2 to it and ridge w to the first len(w) values of the
// gradient, which it writes to grad; it returns the loss.
func ridgeLoss(grad, partF, partG, w []float64, m int, ridge float64) float64 {
	np := len(grad)
	f := 0.0
	clear(grad)
	for k := range partF {
		f += partF[k]
		floats.Add(grad, partG[k*np:(k+1)*np])
	}
	f /= float64(m)
	floats.Scale(1/float64(m), grad)
	f += ridge / 2 * dot.Dot(w, w)
	dot.AddScaled(grad[:len(w)], ridge, w)
	return f
}

// minimizeLBFGS minimises the loss that eval gives, with its gradient, by
// L-BFGS from theta0 in at most iters iterations, and returns the
// minimiser, or nil when the optimiser fails or leaves the finite numbers.
// L-BFGS asks for the value and the gradient at the same points: eval
// computes both at once.
func minimizeLBFGS(theta0 []float64, iters int, eval func(theta []float64) (float64, []float64)) []float64 {
	p := optimize.Problem{
		Func: func(theta []float64) float64 {
			f, _ := eval(theta)
			return f
		},
		Grad: func(dst, theta []float64) {
			_, grad := eval(theta)
			copy(dst, grad)
		},
	}
	res, err := optimize.Minimize(p, theta0, &optimize.Settings{MajorIterations: iters, GradientThreshold: 1e-6}, &optimize.LBFGS{})
	if err != nil && res == nil {
		return nil
	}
	if !finite(res.X) {
		return nil
	}
	return res.X
}

// sharpen scales a fitted filter theta (w then b) by a power of two so that
// the median |margin| over the care rows is at least sharpMargin: the soft
// model then decides at that node as the walk does on most of them, where
// a ridge-penalised fit alone would leave its sigmoid near 1/2. Scaling by
// a power of two scales every product and partial sum of the margin
// exactly (barring overflow), so every routing decision stays bit for bit
// the same (routed, which theta gives, is compared anyway).
func (g *refiner) sharpen(theta []float64, routed int) {
	margin := g.marginOf(theta[:g.d], theta[g.d])
	a := make([]float64, len(g.care))
	for i, r := range g.care {
		a[i] = math.Abs(margin(r))
	}
	slices.Sort(a)
	med := a[len(a)/2]
	if !(med > 0) || med >= sharpMargin {
		return
	}
	k := math.Exp2(math.Ceil(math.Log2(sharpMargin / med)))
	scaled := slices.Clone(theta)
	for i := range scaled {
		scaled[i] *= k
	}
	if g.routed(scaled) == routed {
		copy(theta, scaled)
	}
}

// sharpMargin is the median |margin| sharpen gives a refitted filter:
// sigmoid(4) = 0.982.
const sharpMargin = 4

// logisticBlock is the rows per block of logistic's sums.
const logisticBlock = 1024

// parallelFor calls f(0), ..., f(n-1) on up to GOMAXPROCS goroutines.
func parallelFor(n int, f func(k int)) {
	workers := min(n, goruntime.GOMAXPROCS(0))
	if workers <= 1 {
		for k := range n {
			f(k)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := int(next.Add(1) - 1); k < n; k = int(next.Add(1) - 1) {
				f(k)
			}
		}()
	}
	wg.Wait()
}

// finite reports whether every element of v is finite.
func finite(v []float64) bool {
	for _, x := range v {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return false
		}
	}
	return true
}

// softplus is log(1+exp(a)) without overflow.
func softplus(a float64) float64 {
	if a > 0 {
		return a + math.Log1p(math.Exp(-a))
	}
	return math.Log1p(math.Exp(a))
}

// edgeRows returns the fit rows whose walk takes edge (j, s) at least once,
// the step at which each first takes it, and how many of them the walk
// gets right. A change of the edge's child leaves each walk as it is up
// to that step, so the candidates are scored from there (walkOn).
func (g *refiner) edgeRows(j, s int) (rows, steps []int, correct int) {
	w := g.walks()
	e := 2*j + s
	rows, steps = w.edgeRow[e], w.edgeStep[e]
	return rows[:len(rows):len(rows)], steps[:len(steps):len(steps)], w.edgeRight[e]
}

// refitChild tries every state as the child of (j, s) on the rows whose
// walk takes that edge and keeps the best when it is strictly better.
func (g *refiner) refitChild(j, s int) bool {
	rows, steps, bestN := g.edgeRows(j, s)
	if len(rows) == 0 {
		return false
	}
	cur := g.routes.Child[s][j]
	// Only a child that gets more than floor rows right can be chosen: a
	// candidate stops counting when it cannot.
	floor := bestN
	// The walk up to the edge is unchanged.
	scores := g.eachState(&g.routes, j, cur, func(rt *runtime.Routes, c int) { setChild(rt, j, s, c, cur) }, func(rt *runtime.Routes) int {
		return g.countRight(rt, rows, steps, j, -1, 0, nil, floor)
	})
	best := cur
	for c, k := range scores {
		if c != cur && k > bestN {
			best, bestN = c, k
		}
	}
	if best == cur {
		return false
	}
	setChild(&g.routes, j, s, best, cur)
	g.changed()
	return true
}

// setChild makes c the child of (j, s) in rt in place of old, with the
// exit the logits will encode: c itself when it is a leaf, the old leaf
// when the old child was one (it stays its column's top leaf), else
// unchanged.
func setChild(rt *runtime.Routes, j, s, c, old int) {
	rt.Child[s][j] = c
	if c >= rt.Nodes {
		rt.Exit[s][j] = c
	} else if old >= rt.Nodes {
		rt.Exit[s][j] = old
	}
}

// refitExit gives the forced exit of (j, s) the most common class of the
// rows whose walk ends there, when that is strictly better.
func (g *refiner) refitExit(j, s int) bool {
	if g.routes.Child[s][j] >= g.n {
		return false // the child is a leaf: the exit is never taken
	}
	w := g.walks()
	e := 2*j + s
	counts := w.exits[e*g.c : (e+1)*g.c]
	cur := g.routes.Exit[s][j] - g.n
	best := cur
	for k, v := range counts {
		if v > counts[best] {
			best = k
		}
	}
	if best == cur {
		return false
	}
	g.routes.Exit[s][j] = g.n + best
	g.changed()
	return true
}

// insertion is a candidate growth of the walk: unused node u put on edge
// (j, s), with the edge's old child on its left, other on its right, and
// filter theta.
type insertion struct {
	j, s, u, other int
	theta          []float64
	gain           int // rows of the fit set that become correct
}

// grow puts unused nodes into the walk where they help most: for every
// edge it finds the best insertion, then applies them, best first, each
// after the first evaluated again on the graph as it is by then, while
// unused nodes remain and the gain is at least growMinShare of the fit
// rows (and one row). It returns the number of nodes inserted.
func (g *refiner) grow(ctx context.Context, ridge float64) int {
	minGain := max(1, int(growMinShare*float64(len(g.fit))))
	spare := g.unused()
	if len(spare) == 0 {
		return 0
	}
	var cands []insertion
	for _, j := range g.reachable() {
		for s := range 2 {
			if ctx.Err() != nil {
				return 0
			}
			if in, ok := g.bestInsertion(j, s, spare[0], ridge, minGain); ok {
				cands = append(cands, in)
			}
		}
	}
	// Best first; ties in edge order, so the result is deterministic.
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].gain > cands[b].gain })
	grown := 0
	for _, c := range cands {
		if spare = g.unused(); len(spare) == 0 || ctx.Err() != nil {
			break
		}
		// Until a node is inserted, the graph and the spare node are as they
		// were when c was found.
		in, ok := c, true
		if grown > 0 {
			in, ok = g.bestInsertion(c.j, c.s, spare[0], ridge, minGain)
		}
		if ok {
			g.insert(in)
			grown++
		}
	}
	return grown
}

// growMinShare is the smallest gain, as a share of the fit rows, for which
// grow spends a node.
const growMinShare = 1e-3

// unused returns the internal nodes the walk cannot reach, ascending.
func (g *refiner) unused() []int {
	seen := make([]bool, g.n)
	for _, j := range g.reachable() {
		seen[j] = true
	}
	var out []int
	for j, ok := range seen {
		if !ok {
			out = append(out, j)
		}
	}
	return out
}

// bestInsertion evaluates putting unused node u on edge (j, s), on a copy
// of the routes, and returns the best such insertion if it gains at least
// minGain rows.
func (g *refiner) bestInsertion(j, s, u int, ridge float64, minGain int) (insertion, bool) {
	rows, steps, base := g.edgeRows(j, s)
	if len(rows) == 0 {
		return insertion{}, false
	}
	rt := g.routes.Clone()
	e0 := splice(&rt, j, s, u)
	left := make([]bool, len(rows))
	for i, r := range rows {
		left[i] = g.walkOn(&rt, r, j, steps[i], u, 0) == g.y[r]
	}
	// The right child with the most rows that either branch gets right:
	// the most the filter could do.
	// A right child whose oracle is at most floor is never tried (below): a
	// candidate stops counting when its oracle cannot be more, and its
	// score is then at most that too.
	floor := base + minGain - 1
	const tries = 3
	type cand struct{ c, oracle int }
	oracle := g.eachState(&rt, u, u, func(rt *runtime.Routes, c int) { setInserted(rt, u, c, e0) }, func(rt *runtime.Routes) int {
		return g.countRight(rt, rows, steps, j, u, 1, left, floor)
	})
	var top []cand
	for c, k := range oracle {
		if c != u {
			top = append(top, cand{c, k})
		}
	}
	sort.SliceStable(top, func(a, b int) bool { return top[a].oracle > top[b].oracle })
	best := insertion{j: j, s: s, u: u, gain: minGain - 1}
	found := false
	for _, t := range top[:min(tries, len(top))] {
		if t.oracle-base <= best.gain {
			break // the filter cannot beat what is found
		}
		setInserted(&rt, u, t.c, e0)
		g.care, g.target = g.care[:0], g.target[:0]
		both := 0 // rows right whichever way the filter sends them
		for i, r := range rows {
			right := g.walkOn(&rt, r, j, steps[i], u, 1) == g.y[r]
			switch {
			case left[i] != right:
				g.care = append(g.care, r)
				g.target = append(g.target, b2f(right))
			case left[i]:
				both++
			}
		}
		if len(g.care) == 0 {
			continue
		}
		theta := g.logistic(make([]float64, g.d+1), ridge)
		if theta == nil {
			continue
		}
		// The rows the walk gets right with the filter: the care rows it
		// routes to their side (sharpen keeps that count) and the rest
		// that either side gets right.
		routed := g.routed(theta)
		g.sharpen(theta, routed)
		k := routed + both
		if k-base > best.gain {
			best.other, best.theta, best.gain = t.c, theta, k-base
			found = true
		}
	}
	return best, found
}

// splice puts node u on edge (j, s) of rt, with the edge's child and exit
// as u's left ones, and returns that exit.
func splice(rt *runtime.Routes, j, s, u int) (e0 int) {
	c0, e0 := rt.Child[s][j], rt.Exit[s][j]
	rt.Child[s][j] = u
	rt.Child[0][u], rt.Exit[0][u] = c0, e0
	return e0
}

// setInserted sets the routes in rt of node u when inserted on an edge
// whose old exit leaf is e0: right child c, exits the old one (or c, a
// leaf).
func setInserted(rt *runtime.Routes, u, c, e0 int) {
	rt.Child[1][u], rt.Exit[1][u] = c, e0
	if c >= rt.Nodes {
		rt.Exit[1][u] = c
	}
}

// insert applies an insertion found by bestInsertion.
func (g *refiner) insert(in insertion) {
	setInserted(&g.routes, in.u, in.other, splice(&g.routes, in.j, in.s, in.u))
	d := g.d
	copy(g.w[in.u*d:(in.u+1)*d], in.theta[:d])
	g.b[in.u] = in.theta[d]
	g.decide(in.u)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
