package runtime

import "fmt"

// Metrics compares the soft model and the hard walk on labelled rows.
type Metrics struct {
	Rows         int     `json:"rows"`
	SoftAccuracy float64 `json:"soft_accuracy"`
	HardAccuracy float64 `json:"hard_accuracy"`
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
	m := Metrics{Rows: len(y), ConfusionSoft: square(k.c), ConfusionHard: square(k.c)}
	if len(y) == 0 {
		return m
	}
	sc := k.NewSoftScratch()
	q := make([]float64, k.c)
	scratch := make([]float64, k.d)
	var soft, hard, agree, paths int
	var mass float64
	for i, yi := range y {
		row := x[i*k.d : (i+1)*k.d]
		ps := k.Soft(q, row, sc)
		for _, v := range q {
			mass += v
		}
		w, _ := k.Walk(row, scratch, nil)
		if ps == yi {
			soft++
		}
		if w.Class == yi {
			hard++
		}
		if ps == w.Class {
			agree++
		}
		if w.Forced {
			m.ForcedExits++
		}
		paths += w.Steps
		m.MaxPathLen = max(m.MaxPathLen, w.Steps)
		m.ConfusionSoft[yi][ps]++
		m.ConfusionHard[yi][w.Class]++
	}
	n := float64(len(y))
	m.SoftAccuracy = float64(soft) / n
	m.HardAccuracy = float64(hard) / n
	m.Fidelity = float64(agree) / n
	m.MeanLeafMass = mass / n
	m.MeanPathLen = float64(paths) / n
	return m
}

func square(c int) [][]int {
	out := make([][]int, c)
	for i := range out {
		out[i] = make([]int, c)
	}
	return out
}
