package runtime

import (
	"fmt"
)

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
	// of always predicting it (out of reach when it is a class the model
	// lacks, Evaluator.Add).
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
	// Confusion matrices: [true class][predicted class] row counts; rows
	// past NumClasses are true classes the model lacks (Evaluator.Add).
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
		q, soft := e.block.Run(x[lo*k.d : hi*k.d])
		e.add(x[lo*k.d:hi*k.d], q, soft, y[lo:hi])
	}
	return e.Metrics()
}

// Evaluator accumulates Metrics row by row, in memory that does not grow
// with the rows, only with the classes the model lacks that Add is given
// (each adds a row to each confusion matrix): eval streams files of any
// length through it. It holds up to BlockRows rows and runs their soft
// model on all the cores at once (a SoftBlock), then adds them to the
// metrics in the order they came, so that the metrics do not depend on the
// number of cores.
type Evaluator struct {
	k                         *Classifier
	m                         Metrics
	block                     *SoftBlock
	y                         []int // the classes of the rows the block holds
	scratch                   []float64
	right, hard, agree, paths int
	mass                      float64
}

// NewEvaluator returns an Evaluator of k's soft model and hard walk.
func (k *Classifier) NewEvaluator() *Evaluator {
	return &Evaluator{k: k, m: Metrics{ConfusionSoft: square(k.c), ConfusionHard: square(k.c)},
		block: k.NewSoftBlock(), y: make([]int, 0, k.BlockRows()), scratch: make([]float64, k.d)}
}

// Add measures one raw row of true class y. It copies the row. A y of
// NumClasses or more is a class the model lacks (a label its training
// rows never had): the row is always wrong, and the confusion matrices
// get rows up to y for such classes, after the model's own (Evaluate
// takes such classes too).
func (e *Evaluator) Add(row []float64, y int) {
	if y < 0 {
		panic(fmt.Sprintf("runtime: class %d is negative", y))
	}
	full := e.block.Hold(row)
	e.y = append(e.y, y)
	if full {
		e.flush()
	}
}

// flush adds the rows held to the metrics.
func (e *Evaluator) flush() {
	x, q, soft := e.block.Flush()
	e.add(x, q, soft, e.y)
	e.y = e.y[:0]
}

// add adds to the metrics the rows of x, with classes y, whose soft model
// gave leaf masses q and classes soft.
func (e *Evaluator) add(x, q []float64, soft, y []int) {
	k := e.k
	m := &e.m
	for r, y := range y {
		for len(m.ConfusionSoft) <= y { // a class the model lacks (Add)
			m.ConfusionSoft = append(m.ConfusionSoft, make([]int, k.c))
			m.ConfusionHard = append(m.ConfusionHard, make([]int, k.c))
		}
		for _, v := range q[r*k.c : (r+1)*k.c] {
			e.mass += v
		}
		ps := soft[r]
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
// confusion matrix conf[true][predicted]) that have rows; a row past the
// predicted classes (a class the model lacks) has a recall of 0.
func BalancedAccuracy(conf [][]int) float64 {
	var sum float64
	classes := 0
	for k, row := range conf {
		if total := rowTotal(row); total > 0 {
			if k < len(row) {
				sum += float64(row[k]) / float64(total)
			}
			classes++
		}
	}
	if classes == 0 {
		return 0
	}
	return sum / float64(classes)
}

// ConstantBalanced is the hard walk's balanced accuracy were it to predict
// one class for every row: one over the classes that have rows.
func (m Metrics) ConstantBalanced() float64 {
	classes := 0
	for _, row := range m.ConfusionHard {
		if rowTotal(row) > 0 {
			classes++
		}
	}
	return 1 / float64(max(1, classes))
}

// majority returns the share of the most frequent true class.
func majority(conf [][]int) float64 {
	best, all := 0, 0
	for _, row := range conf {
		total := rowTotal(row)
		best, all = max(best, total), all+total
	}
	if all == 0 {
		return 0
	}
	return float64(best) / float64(all)
}

// rowTotal is the number of rows of a confusion matrix's row: those of
// its true class.
func rowTotal(row []int) int {
	total := 0
	for _, v := range row {
		total += v
	}
	return total
}

func square(c int) [][]int {
	out := make([][]int, c)
	for i := range out {
		out[i] = make([]int, c)
	}
	return out
}
