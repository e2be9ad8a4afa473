package analysis

import (
	"bufio"
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer"
)

// EpochGraph is the structure of the binary graph after an epoch, recorded
// in the training log ("graph" field) for the paper's "back edges fall as the
// loss falls" plot.
type EpochGraph struct {
	UsedNodes      int     `json:"used_nodes"`
	Back           int     `json:"back_edges"`
	Cross          int     `json:"cross_edges"`
	Forward        int     `json:"forward_edges"`
	BinarisationM0 float64 `json:"binarisation_M0"`
	BinarisationM1 float64 `json:"binarisation_M1"`
}

// EpochGraphOf measures the binary graph of parameters p.
func EpochGraphOf(p *trainer.Params, classNames []string) (EpochGraph, error) {
	k, err := runtime.New(p.Model(classNames))
	if err != nil {
		return EpochGraph{}, err
	}
	st := NewBinary(k).Stats()
	return EpochGraph{UsedNodes: st.UsedNodes, Back: st.Edges.Back, Cross: st.Edges.Cross, Forward: st.Edges.Forward,
		BinarisationM0: st.BinarisationM0, BinarisationM1: st.BinarisationM1}, nil
}

// LogRecord is a line of the training log as read back.
type LogRecord struct {
	trainer.EpochRecord
	Graph *EpochGraph `json:"graph"`
}

// ReadLog reads a per-epoch training log (JSON lines).
func ReadLog(path string) ([]LogRecord, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []LogRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for line := 1; sc.Scan(); line++ {
		var r LogRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return out, nil
}

// grid is a matrix as a heat map: column c is x, row r is y (row 0 at the
// bottom).
type grid struct {
	z        [][]float64 // z[r][c]
	min, max float64
}

func (g grid) Dims() (c, r int)   { return len(g.z[0]), len(g.z) }
func (g grid) Z(c, r int) float64 { return g.z[r][c] }
func (g grid) X(c int) float64    { return float64(c) }
func (g grid) Y(r int) float64    { return float64(r) }
func (g grid) Min() float64       { return g.min }
func (g grid) Max() float64       { return g.max }

func newGrid(z [][]float64, lo, hi float64) grid {
	return grid{z: z, min: lo, max: hi}
}

func rowsOf(flat []float64, rows, cols int) [][]float64 {
	out := make([][]float64, rows)
	for i := range out {
		out[i] = flat[i*cols : (i+1)*cols]
	}
	return out
}

func heatPlot(title, x, y string, g grid) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Add(plotter.NewHeatMap(g, moreland.SmoothBlueRed().Palette(64)))
	p.X.Tick.Marker = intTicks{}
	p.Y.Tick.Marker = intTicks{}
	return p
}

// intTicks labels integer positions only, at most about 10 of them.
type intTicks struct{}

func (intTicks) Ticks(lo, hi float64) []plot.Tick {
	lo, hi = math.Ceil(lo), math.Floor(hi)
	step := math.Max(1, math.Ceil((hi-lo)/10))
	var t []plot.Tick
	for v := lo; v <= hi; v += step {
		t = append(t, plot.Tick{Value: v, Label: strconv.Itoa(int(v))})
	}
	return t
}

// save writes p as PNG to path atomically.
func save(p *plot.Plot, w, h vg.Length, path string) error {
	wt, err := p.WriterTo(w, h, "png")
	if err != nil {
		return err
	}
	return runtime.WriteFileAtomic(path, func(out io.Writer) error {
		_, err := wt.WriteTo(out)
		return err
	})
}

// PlotMatrices writes M0.png and M1.png: heat maps of the transition
// matrices (rows: destination states, internal then leaves; columns: source
// nodes; row 0 at the bottom).
func PlotMatrices(k *runtime.Classifier, dir string) error {
	n, S := k.NumNodes(), k.NumNodes()+k.NumClasses()
	for _, m := range []struct {
		name string
		v    []float64
	}{{"M0", k.M0()}, {"M1", k.M1()}} {
		p := heatPlot(m.name+" = softmax(L) by column", "source node", "destination state (leaves above the internal nodes)", newGrid(rowsOf(m.v, S, n), 0, 1))
		if err := save(p, 12*vg.Centimeter, 14*vg.Centimeter, filepath.Join(dir, m.name+".png")); err != nil {
			return err
		}
	}
	return nil
}

// PlotCurves writes curves.png (accuracies per epoch), loss.png (BCE and
// leaves term) and, when the log has graph statistics, structure.png (back
// and cross edges and used nodes of the binary graph).
func PlotCurves(recs []LogRecord, dir string) error {
	if len(recs) == 0 {
		return fmt.Errorf("analysis: the training log is empty")
	}
	line := func(p *plot.Plot, name string, c color.Color, dashed bool, f func(r LogRecord) (float64, bool)) error {
		var xy plotter.XYs
		for _, r := range recs {
			if v, ok := f(r); ok {
				xy = append(xy, plotter.XY{X: float64(r.Epoch), Y: v})
			}
		}
		if len(xy) == 0 {
			return nil
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return err
		}
		l.Color = c
		if dashed {
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		}
		p.Add(l)
		p.Legend.Add(name, l)
		return nil
	}
	red, blue, green, grey := color.RGBA{R: 200, A: 255}, color.RGBA{B: 200, A: 255}, color.RGBA{G: 140, A: 255}, color.RGBA{R: 90, G: 90, B: 90, A: 255}
	type series struct {
		name   string
		c      color.Color
		dashed bool
		f      func(LogRecord) (float64, bool)
	}
	figures := []struct {
		file, title, y string
		s              []series
	}{
		{"curves.png", "Accuracy per epoch (soft model; green: hard walk)", "accuracy", []series{
			{"train", grey, false, func(r LogRecord) (float64, bool) { return r.TrainAcc, true }},
			{"validation", blue, false, func(r LogRecord) (float64, bool) { return r.ValAcc, r.ValAcc > 0 }},
			{"validation, hard walk", green, false, func(r LogRecord) (float64, bool) { return r.HardValAcc, r.HardValAcc > 0 }},
			{"test", red, true, func(r LogRecord) (float64, bool) { return r.TestAcc, r.TestAcc > 0 }},
			{"test, hard walk (compiled)", green, true, func(r LogRecord) (float64, bool) { return r.HardTestAcc, r.HardTestAcc > 0 }},
		}},
		{"loss.png", "Loss per epoch", "loss", []series{
			{"weighted BCE", blue, false, func(r LogRecord) (float64, bool) { return r.BCE, true }},
			{"leaves term", red, false, func(r LogRecord) (float64, bool) { return r.Leaf, true }},
		}},
	}
	if recs[len(recs)-1].Graph != nil {
		figures = append(figures, struct {
			file, title, y string
			s              []series
		}{"structure.png", "Binary graph per epoch", "count", []series{
			{"back edges", red, false, func(r LogRecord) (float64, bool) { return float64(r.Graph.Back), r.Graph != nil }},
			{"cross edges", blue, false, func(r LogRecord) (float64, bool) { return float64(r.Graph.Cross), r.Graph != nil }},
			{"used nodes", green, true, func(r LogRecord) (float64, bool) { return float64(r.Graph.UsedNodes), r.Graph != nil }},
		}})
	}
	for _, fig := range figures {
		p := plot.New()
		p.Title.Text = fig.title
		p.X.Label.Text = "epoch"
		p.Y.Label.Text = fig.y
		p.Add(plotter.NewGrid())
		for _, s := range fig.s {
			if err := line(p, s.name, s.c, s.dashed, s.f); err != nil {
				return err
			}
		}
		if err := save(p, 14*vg.Centimeter, 9*vg.Centimeter, filepath.Join(dir, fig.file)); err != nil {
			return err
		}
	}
	return nil
}

// PlotDistances writes distances.png, the class-by-class matrix of mean
// P_x distances.
func PlotDistances(d [][]float64, dir string) error {
	lo, hi := d[0][0], d[0][0]
	for _, row := range d {
		for _, v := range row {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if hi == lo {
		hi = lo + 1
	}
	p := heatPlot("Mean ||P_x - P_y||_F between classes", "class", "class", newGrid(d, lo, hi))
	return save(p, 12*vg.Centimeter, 11*vg.Centimeter, filepath.Join(dir, "distances.png"))
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

// PlotFlow writes flow.png: the probability of each state over the steps
// for one input.
func PlotFlow(k *runtime.Classifier, x []float64, row int, dir string) error {
	p := heatPlot(fmt.Sprintf("Probability flow of row %d", row), "step", "state (leaves above the internal nodes)", newGrid(Flow(k, x), 0, 1))
	return save(p, 12*vg.Centimeter, 14*vg.Centimeter, filepath.Join(dir, "flow.png"))
}
