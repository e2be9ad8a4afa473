package runtime

import "fmt"

// Metrics compares the soft model and the hard walk on labelled rows.
type Metrics struct {
	Rows         int     `json:"rows"`
	SoftAccuracy float64 `json:"soft_accuracy"`
	HardAccuracy float64 `json:"hard_accuracy"`
	// SoftBalanced and HardBalanced are the balanced accuracies: the mean
	// over the classes present in y of the share of their rows predicted
	// right (recall), which a model that always predicts the majority
	// class cannot raise above 1/classes.
	SoftBalanced float64 `json:"soft_balanced_accuracy"`
	HardBalanced float64 `json:"hard_balanced_accuracy"`
	// Majority is the share of the most frequent class in y: the accuracy
	// of always predicting it.
	Majority float64 `json:"majority_baseline"`
	// Fidelity is the share of rows where the hard walk predicts the same
	// class as the soft model.
	Fidelity     float64 `json:"fidelity"`
	MeanLeafMass float64 `json:"mean_leaf_mass"`
	// ForcedExits counts rows whose walk reached the step limit (see the
	// package comment).
	ForcedExits int     `json:"forced_exits"`
	MeanPathLen float64 `json:"mean_path_length"`
	MaxPathLen  int     `json:"max_path_length"`
	// Confusion matrices: [true class][predicted class] row counts.
	ConfusionSoft [][]int `json:"confusion_soft"`
	ConfusionHard [][]int `json:"confusion_hard"`
}

// Evaluate runs both models on the rows of x (row-major, NumFeatures each)
// with true classes y.
func (k *Classifier) Evaluate(x []float64, y []int) Metrics {
	if len(x) != len(y)*k.d {
		panic(fmt.Sprintf("runtime: Evaluate got %d values for %d rows of %d features", len(x), len(y), k.d))
	}
	e, block := k.NewEvaluator(), k.BlockRows()
	for lo := 0; lo < len(y); lo += block { // x's rows as they are, no copy
		hi := min(len(y), lo+block)
		e.add(x[lo*k.d:hi*k.d], y[lo:hi])
	}
	return e.Metrics()
}

// Evaluator accumulates Metrics row by row, in memory that does not grow
// with the rows: eval streams files of any length through it. It holds up
// to BlockRows rows and runs their soft model on all the cores at once
// (SoftRows), then adds them to the metrics in the order they came, so
// that the metrics do not depend on the number of cores.
type Evaluator struct {
	k                         *Classifier
	m                         Metrics
	x                         []float64 // the rows Add holds, up to BlockRows x d (made by the first Add)
	y                         []int
	q                         []float64 // their leaf masses, BlockRows x c
	soft                      []int     // their soft classes
	scratch                   []float64
	right, hard, agree, paths int
	mass                      float64
}

// NewEvaluator returns an Evaluator of k's soft model and hard walk.
func (k *Classifier) NewEvaluator() *Evaluator {
	rows := k.BlockRows()
	return &Evaluator{k: k, m: Metrics{ConfusionSoft: square(k.c), ConfusionHard: square(k.c)},
		q: make([]float64, rows*k.c), soft: make([]int, rows), scratch: make([]float64, k.d)}
}

// Add measures one raw row of true class y (0 <= y < NumClasses). It
// copies the row.
func (e *Evaluator) Add(row []float64, y int) {
	if len(row) != e.k.d {
		panic(fmt.Sprintf("runtime: input has %d features, model wants %d", len(row), e.k.d))
	}
	if y < 0 || y >= e.k.c {
		panic(fmt.Sprintf("runtime: class %d is out of range [0, %d)", y, e.k.c))
	}
	if e.y == nil { // Evaluate passes its rows as they are; Add holds them
		rows := e.k.BlockRows()
		e.x, e.y = make([]float64, 0, rows*e.k.d), make([]int, 0, rows)
	}
	e.x = append(e.x, row...)
	e.y = append(e.y, y)
	if len(e.y) == cap(e.y) {
		e.flush()
	}
}

// flush adds the rows held to the metrics.
func (e *Evaluator) flush() {
	e.add(e.x, e.y)
	e.x, e.y = e.x[:0], e.y[:0]
}

// add runs the rows of x (at most BlockRows, with classes y) and adds
// them to the metrics.
func (e *Evaluator) add(x []float64, y []int) {
	rows, k := len(y), e.k
	if rows == 0 {
		return
	}
	k.SoftRows(e.q[:rows*k.c], e.soft[:rows], x)
	m := &e.m
	for r, y := range y {
		for _, v := range e.q[r*k.c : (r+1)*k.c] {
			e.mass += v
		}
		ps := e.soft[r]
		w, _ := k.Walk(x[r*k.d:(r+1)*k.d], e.scratch, nil)
		if ps == y {
			e.right++
		}
		if w.Class == y {
			e.hard++
		}
		if ps == w.Class {
			e.agree++
		}
		if w.Forced {
			m.ForcedExits++
		}
		e.paths += w.Steps
		m.MaxPathLen = max(m.MaxPathLen, w.Steps)
		m.ConfusionSoft[y][ps]++
		m.ConfusionHard[y][w.Class]++
		m.Rows++
	}
}

// Metrics returns the metrics of the rows added so far.
func (e *Evaluator) Metrics() Metrics {
	e.flush()
	m := e.m
	if m.Rows == 0 {
		return m
	}
	n := float64(m.Rows)
	m.SoftAccuracy = float64(e.right) / n
	m.HardAccuracy = float64(e.hard) / n
	m.Fidelity = float64(e.agree) / n
	m.MeanLeafMass = e.mass / n
	m.MeanPathLen = float64(e.paths) / n
	m.SoftBalanced, m.HardBalanced, m.Majority = BalancedAccuracy(m.ConfusionSoft), BalancedAccuracy(m.ConfusionHard), majority(m.ConfusionHard)
	return m
}

// BalancedAccuracy returns the mean recall over the classes (rows of the
// confusion matrix conf[true][predicted]) that have rows.
func BalancedAccuracy(conf [][]int) float64 {
	var sum float64
	classes := 0
	for k, row := range conf {
		total := 0
		for _, v := range row {
			total += v
		}
		if total > 0 {
			sum += float64(row[k]) / float64(total)
			classes++
		}
	}
	if classes == 0 {
		return 0
	}
	return sum / float64(classes)
}

// majority returns the share of the most frequent true class.
func majority(conf [][]int) float64 {
	best, all := 0, 0
	for _, row := range conf {
		total := 0
		for _, v := range row {
			total += v
		}
		best, all = max(best, total), all+total
	}
	if all == 0 {
		return 0
	}
	return float64(best) / float64(all)
}

func square(c int) [][]int {
	out := make([][]int, c)
	for i := range out {
		out[i] = make([]int, c)
	}
	return out
}
