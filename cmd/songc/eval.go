package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer/data"
)

// EvalCmd measures a model on labelled data.
type EvalCmd struct {
	Model     string `required:"" placeholder:"MODEL" help:"Model file written by songc train."`
	Data      string `required:"" placeholder:"FILE" help:"Labelled data: CSV or IDX images."`
	JSON      bool   `name:"json" help:"Print the metrics, with both confusion matrices, as JSON."`
	DataFlags `embed:""`
}

func (EvalCmd) Help() string {
	return `Reports, in float64 whatever precision trained the model:
  soft accuracy      argmax of the leaf masses after N steps (the model as trained)
  hard accuracy      the hard walk (go right iff w.x+b > 0, argmax child), as compiled code runs it
  fidelity           share of rows where the two agree
  mean leaf mass     mass absorbed by the leaves after N steps (the rest is lost)
  forced exits       rows whose walk hit the step limit (see docs/model-format.md)

Example:
  songc eval --model letter.json --data ../shared/data/letter/test.csv.gz`
}

func loadModelAndData(model, path string, f DataFlags) (*runtime.Classifier, *data.Dataset, error) {
	k, err := runtime.LoadClassifier(model)
	if err != nil {
		return nil, nil, err
	}
	m := k.Model
	ds, err := data.Open(path, f.options(m.Features))
	if err != nil {
		return nil, nil, err
	}
	return k, ds, nil
}

func (c *EvalCmd) Run(g *Globals) error {
	k, ds, err := loadModelAndData(c.Model, c.Data, c.DataFlags)
	if err != nil {
		return err
	}
	if ds.Labels == nil {
		return fmt.Errorf("%s: has no label column; eval needs labelled rows", ds.Name)
	}
	y, err := ds.Targets(k.Model.ClassNames)
	if err != nil {
		return err
	}
	met := k.Evaluate(ds.X, y)
	if c.JSON {
		out := struct {
			Model   string   `json:"model"`
			Data    string   `json:"data"`
			Classes []string `json:"classes"`
			runtime.Metrics
		}{c.Model, c.Data, k.Model.ClassNames, met}
		enc := json.NewEncoder(g.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	w := bufio.NewWriter(g.Stdout)
	fmt.Fprintf(w, "model %s: %d nodes, %d steps, %d classes\n", c.Model, k.NumNodes(), k.Steps(), k.NumClasses())
	fmt.Fprintf(w, "data  %s: %d rows\n", c.Data, met.Rows)
	fmt.Fprintf(w, "soft accuracy      %6.2f%%\n", 100*met.SoftAccuracy)
	fmt.Fprintf(w, "hard accuracy      %6.2f%%\n", 100*met.HardAccuracy)
	fmt.Fprintf(w, "fidelity           %6.2f%%\n", 100*met.Fidelity)
	fmt.Fprintf(w, "mean leaf mass     %8.4f\n", met.MeanLeafMass)
	fmt.Fprintf(w, "hard path length   mean %.2f, max %d\n", met.MeanPathLen, met.MaxPathLen)
	fmt.Fprintf(w, "forced exits       %d\n", met.ForcedExits)
	if k.NumClasses() <= 12 {
		fmt.Fprintln(w, "hard-walk confusion (rows: true class, columns: predicted):")
		writeConfusion(w, k.Model.ClassNames, met.ConfusionHard)
	}
	return w.Flush()
}

func writeConfusion(w *bufio.Writer, names []string, m [][]int) {
	width := 6
	for _, n := range names {
		width = max(width, len(n)+1)
	}
	fmt.Fprintf(w, "%*s", width, "")
	for _, n := range names {
		fmt.Fprintf(w, "%*s", width, n)
	}
	fmt.Fprintln(w)
	for i, row := range m {
		fmt.Fprintf(w, "%*s", width, names[i])
		for _, v := range row {
			fmt.Fprintf(w, "%*d", width, v)
		}
		fmt.Fprintln(w)
	}
}

// PredictCmd predicts a class for every row.
type PredictCmd struct {
	Model     string `required:"" placeholder:"MODEL" help:"Model file written by songc train."`
	Data      string `required:"" placeholder:"FILE" help:"Rows to predict: CSV with or without the label column, or IDX images."`
	Proba     bool   `xor:"mode" help:"Print the c leaf masses of the soft model, comma-separated, at full float64 precision."`
	Hard      bool   `xor:"mode" help:"Print the class of the hard walk (what compiled code returns) instead of the soft model's."`
	DataFlags `embed:""`
}

func (PredictCmd) Help() string {
	return `Prints one line per row, in row order: the class name predicted by the soft model,
or with --hard by the hard walk, or with --proba the leaf masses (they sum to at most 1).

Examples:
  songc predict --model letter.json --data ../shared/data/letter/test.csv.gz
  songc predict --model letter.json --data rows.csv --proba`
}

func (c *PredictCmd) Run(g *Globals) error {
	k, err := runtime.LoadClassifier(c.Model)
	if err != nil {
		return err
	}
	m := k.Model
	w := bufio.NewWriterSize(g.Stdout, 1<<16)
	p := newPredictor(k, c.Proba, c.Hard)
	opt := c.options(m.Features)
	if data.IsIDX(c.Data) { // bounded by the format; read whole
		ds, err := data.Open(c.Data, opt)
		if err != nil {
			return err
		}
		for i := 0; i < ds.Rows; i++ {
			if err := p.write(w, ds.Row(i)); err != nil {
				return err
			}
		}
		return w.Flush()
	}
	// CSV streams through in constant memory, whatever its size.
	r, closer, err := data.OpenReader(c.Data)
	if err != nil {
		return err
	}
	defer closer.Close()
	st := data.NewCSVStream(r, c.Data, opt)
	for {
		ok, err := st.Next()
		if err != nil {
			w.Flush()
			return err
		}
		if !ok {
			return w.Flush()
		}
		if err := p.write(w, st.Row()); err != nil {
			return err
		}
	}
}

// predictor writes one output line per row.
type predictor struct {
	k           *runtime.Classifier
	proba, hard bool
	q, scratch  []float64
	sc          *runtime.SoftScratch
	line        []byte
}

func newPredictor(k *runtime.Classifier, proba, hard bool) *predictor {
	return &predictor{k: k, proba: proba, hard: hard, q: make([]float64, k.NumClasses()),
		scratch: make([]float64, k.NumFeatures()), sc: k.NewSoftScratch()}
}

func (p *predictor) write(w *bufio.Writer, row []float64) error {
	names := p.k.Model.ClassNames
	switch {
	case p.hard:
		res, _ := p.k.Walk(row, p.scratch, nil)
		w.WriteString(names[res.Class])
	case p.proba:
		p.k.Soft(p.q, row, p.sc)
		p.line = p.line[:0]
		for j, v := range p.q {
			if j > 0 {
				p.line = append(p.line, ',')
			}
			p.line = strconv.AppendFloat(p.line, v, 'g', -1, 64)
		}
		w.Write(p.line)
	default:
		w.WriteString(names[p.k.Soft(p.q, row, p.sc)])
	}
	return w.WriteByte('\n')
}
