package analysis

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/songc/songc/runtime"
)

// Pictures draws the pictures of one model (songc analyze --plots) into
// Dir. Each picture has a title, a caption naming the model (About) and,
// where it helps, the data; heat maps have a colour scale and name their
// leaf rows by class; legends sit beside the data, never on it.
type Pictures struct {
	Dir   string
	About About  // the model shown; a zero About leaves the model out of the captions
	Log   string // the training log of the curves, for their caption
	Data  string // the labelled rows of Distances and Flow, for their captions
}

// dpi is the resolution of the pictures.
const dpi = 110

var (
	grey     = color.Gray{Y: 90}
	lightest = color.Gray{Y: 170}
)

// textStyle is a plain text style of size pt.
func textStyle(pt float64, c color.Color) text.Style {
	return text.Style{Color: c, Font: font.From(plot.DefaultFont, vg.Points(pt)), Handler: plot.DefaultTextHandler}
}

// wrap breaks s into lines no wider than w in style sty, at spaces.
func wrap(sty text.Style, s string, w vg.Length) []string {
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		line := ""
		for _, word := range strings.Fields(para) {
			next := word
			if line != "" {
				next = line + " " + word
			}
			if line != "" && sty.Width(next) > w {
				lines = append(lines, line)
				next = word
			}
			line = next
		}
		lines = append(lines, line)
	}
	return lines
}

// caption is the model line of the pictures, and the extra lines.
func (p Pictures) caption(extra ...string) []string {
	var out []string
	if p.About != (About{}) {
		out = append(out, p.About.String())
	}
	return append(out, extra...)
}

// saveFigure draws a picture of w x h: the title and caption lines on top,
// then body, and writes it as PNG to path atomically.
func saveFigure(path string, w, h vg.Length, title string, caption []string, body func(c draw.Canvas)) error {
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi))
	dc := draw.New(img)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	pad := vg.Points(6)
	y := dc.Max.Y - pad
	put := func(sty text.Style, s string) {
		sty.XAlign, sty.YAlign = text.XCenter, text.YTop
		for _, l := range wrap(sty, s, w-2*pad) {
			dc.FillText(sty, vg.Point{X: dc.Center().X, Y: y}, l)
			y -= sty.Height(l)
		}
	}
	put(textStyle(12, color.Black), title)
	y -= vg.Points(2)
	for _, l := range caption {
		put(textStyle(9, grey), l)
	}
	body(draw.Crop(dc, pad, -pad, pad, -(dc.Max.Y - y + pad)))
	return runtime.WriteFileAtomic(path, func(out io.Writer) error {
		_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(out)
		return err
	})
}

// grid is a matrix as a heat map: column c is x, row r is drawn at y =
// rows-1-r, so that row 0 is on top as when a matrix is written.
type grid struct {
	z [][]float64 // z[r][c]
}

func (g grid) Dims() (c, r int)   { return len(g.z[0]), len(g.z) }
func (g grid) Z(c, r int) float64 { return g.z[len(g.z)-1-r][c] }
func (g grid) X(c int) float64    { return float64(c) }
func (g grid) Y(r int) float64    { return float64(r) }

// rowY is the y of matrix row r of a grid with rows rows.
func rowY(r, rows int) float64 { return float64(rows - 1 - r) }

func rowsOf(flat []float64, rows, cols int) [][]float64 {
	out := make([][]float64, rows)
	for i := range out {
		out[i] = flat[i*cols : (i+1)*cols]
	}
	return out
}

// heatColours is the colour scale of every heat map: white for the lowest
// value through yellow and red to black for the highest, so that the few
// large entries of a nearly one-hot matrix stand out on white.
func heatColours(lo, hi float64) palette.ColorMap {
	cm := palette.Reverse(moreland.BlackBody())
	cm.SetMin(lo)
	cm.SetMax(hi)
	return cm
}

// heatPlot is a heat map of z on the scale [lo, hi].
func heatPlot(x, y string, z [][]float64, cm palette.ColorMap) *plot.Plot {
	p := plot.New()
	p.X.Label.Text = x
	p.Y.Label.Text = y
	h := plotter.NewHeatMap(grid{z}, cm.Palette(256))
	h.Min, h.Max = cm.Min(), cm.Max()
	p.Add(h)
	p.X.Tick.Marker = intTicks{}
	p.Y.Tick.Marker = intTicks{}
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Tick.Label.Font.Size = vg.Points(8)
		ax.Label.TextStyle.Font.Size = vg.Points(10)
	}
	return p
}

// withColourBar returns a body that draws p with a vertical colour bar of
// cm on its right, as tall as p's data area, its axis labelled label.
func withColourBar(p *plot.Plot, cm palette.ColorMap, label string) func(c draw.Canvas) {
	return func(c draw.Canvas) {
		barW := vg.Points(62)
		main := draw.Crop(c, 0, -barW, 0, 0)
		p.Draw(main)
		da := p.DataCanvas(main)
		bar := plot.New()
		bar.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true, Colors: 256})
		bar.HideX()
		bar.X.Padding, bar.Y.Padding = 0, 0
		bar.Y.Label.Text = label
		bar.Y.Label.TextStyle.Font.Size = vg.Points(10)
		bar.Y.Tick.Label.Font.Size = vg.Points(8)
		bc := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: c.Max.X - barW + vg.Points(10), Y: da.Min.Y},
			Max: vg.Point{X: c.Max.X - vg.Points(14), Y: da.Max.Y}}}
		bar.Draw(bc)
	}
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

// every returns the stride that keeps labels of the given extent apart on an
// axis of length length holding count positions: 1, 2, 5, 10, 20, ...
func every(count int, length, extent vg.Length) int {
	if count <= 0 || length <= 0 {
		return 1
	}
	need := float64(extent) * 1.15 / (float64(length) / float64(count))
	for _, base := range []int{1, 10, 100, 1000} {
		for _, m := range []int{1, 2, 5} {
			if float64(base*m) >= need {
				return base * m
			}
		}
	}
	return 10000
}

// stateTicks labels the rows of an (n+c)-row state matrix drawn by grid:
// internal nodes by number, leaves by class name, each group thinned to
// fit an axis of the given length.
func stateTicks(n int, classNames []string, length vg.Length) plot.ConstantTicks {
	rows := n + len(classNames)
	font := vg.Points(7)
	var t plot.ConstantTicks
	step := every(rows, length, font)
	for i := 0; i < n; i++ {
		lab := ""
		if i%step == 0 {
			lab = "node " + strconv.Itoa(i)
		}
		t = append(t, plot.Tick{Value: rowY(i, rows), Label: lab})
	}
	for k, name := range classNames {
		lab := ""
		if k%step == 0 {
			lab = "leaf " + name
		}
		t = append(t, plot.Tick{Value: rowY(n+k, rows), Label: lab})
	}
	return thinMinor(t, rows, length)
}

// thinMinor drops unlabelled ticks when they would crowd the axis.
func thinMinor(t plot.ConstantTicks, count int, length vg.Length) plot.ConstantTicks {
	if float64(length)/float64(count) >= 3 {
		return t
	}
	out := t[:0]
	for _, x := range t {
		if x.Label != "" {
			out = append(out, x)
		}
	}
	return out
}

// classTicks labels positions 0..c-1 by class name, thinned to fit an
// axis of the given length: on y (flipped, as grid draws rows) by the
// labels' height, on x by their width.
func classTicks(names []string, length vg.Length, flipped bool) plot.ConstantTicks {
	sty := textStyle(8, color.Black)
	extent := sty.Height("X")
	if !flipped {
		extent = 0
		for _, name := range names {
			extent = max(extent, sty.Width(name)+vg.Points(2))
		}
	}
	step := every(len(names), length, extent)
	var t plot.ConstantTicks
	for k, name := range names {
		v := float64(k)
		if flipped {
			v = rowY(k, len(names))
		}
		lab := ""
		if k%step == 0 {
			lab = name
		}
		t = append(t, plot.Tick{Value: v, Label: lab})
	}
	return t
}

// hline is a horizontal rule across the data area at y.
type hline struct {
	y   float64
	sty draw.LineStyle
}

func (h hline) Plot(c draw.Canvas, p *plot.Plot) {
	y := c.Y(p.Y.Norm(h.y))
	c.StrokeLine2(h.sty, c.Min.X, y, c.Max.X, y)
}

// vline is a vertical rule across the data area at x, with a legend
// thumbnail.
type vline struct {
	x   float64
	sty draw.LineStyle
}

func (v vline) Plot(c draw.Canvas, p *plot.Plot) {
	x := c.X(p.X.Norm(v.x))
	c.StrokeLine2(v.sty, x, c.Min.Y, x, c.Max.Y)
}

func (v vline) Thumbnail(c *draw.Canvas) {
	x := (c.Min.X + c.Max.X) / 2
	c.StrokeLine2(v.sty, x, c.Min.Y, x, c.Max.Y)
}

// stateHeatmap is the figure of an (n+c)-row state matrix z.
func stateHeatmap(path, title string, caption []string, xLabel string, z [][]float64, n int, classNames []string) error {
	rows := len(z)
	w := 16 * vg.Centimeter
	// Tall enough for a label on every row up to about 45 rows.
	h := vg.Length(math.Min(40, math.Max(15, 5+float64(rows)*0.3))) * vg.Centimeter
	cm := heatColours(0, 1)
	p := heatPlot(xLabel, "state (row): internal node, or leaf of a class", z, cm)
	p.Y.Tick.Marker = stateTicks(n, classNames, h-4*vg.Centimeter)
	p.Y.Tick.Label.Font.Size = vg.Points(7)
	// A rule between the internal rows and the leaf rows.
	p.Add(hline{y: rowY(n, rows) + 0.5, sty: draw.LineStyle{Color: grey, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(3), vg.Points(2)}}})
	return saveFigure(path, w, h, title, caption, withColourBar(p, cm, "probability"))
}

// Matrices writes M0.png and M1.png: heat maps of the transition matrices,
// column i the distribution of node i's next state when its test fails
// (M0) or holds (M1); the binary graph follows each column's largest
// entry.
func (p Pictures) Matrices(k *runtime.Classifier) error {
	n, S := k.NumNodes(), k.NumNodes()+k.NumClasses()
	for _, m := range []struct {
		name, what string
		v          []float64
	}{{"M0", "fails (left)", k.M0()}, {"M1", "holds (right)", k.M1()}} {
		title := fmt.Sprintf("%s: the next state of node i when its test %s", m.name, m.what)
		caption := p.caption("Column i is a softmax over the states; its largest entry is node i's line in the binary graph (songc analyze --png).")
		if err := stateHeatmap(filepath.Join(p.Dir, m.name+".png"), title, caption, "node i (column)", rowsOf(m.v, S, n), n, k.Model.ClassNames); err != nil {
			return err
		}
	}
	return nil
}

// Distances writes distances.png, the class-by-class matrix of mean P_x
// distances (DataStats.Distances), over at most rowsPerClass rows of each
// class.
func (p Pictures) Distances(d [][]float64, classNames []string, rowsPerClass int) error {
	lo, hi := d[0][0], d[0][0]
	for _, row := range d {
		for _, v := range row {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if hi == lo {
		hi = lo + 1
	}
	w, h := 16*vg.Centimeter, 15*vg.Centimeter
	cm := heatColours(lo, hi)
	pl := heatPlot("class of x", "class of y", d, cm)
	pl.X.Tick.Marker = classTicks(classNames, w-5*vg.Centimeter, false)
	pl.Y.Tick.Marker = classTicks(classNames, h-4*vg.Centimeter, true)
	data := "the rows"
	if p.Data != "" {
		data = filepath.Base(p.Data)
	}
	caption := p.caption(fmt.Sprintf("Over %s, at most %d rows per class. Light: the model routes rows of the two classes alike.", data, rowsPerClass))
	return saveFigure(filepath.Join(p.Dir, "distances.png"), w, h, "Mean distance ||P_x - P_y||_F between rows x, y of two classes", caption,
		withColourBar(pl, cm, "mean ||P_x - P_y||_F"))
}

// Flow writes flow.png: the probability of each state over the steps of
// the soft model for one input x, row row of the data (counted from 1),
// of class class.
func (p Pictures) Flow(k *runtime.Classifier, x []float64, row int, class string) error {
	z := Flow(k, x)
	n := k.NumNodes()
	soft, best := 0, -1.0
	for j := n; j < len(z); j++ {
		if v := z[j][len(z[j])-1]; v > best {
			soft, best = j-n, v
		}
	}
	res, _ := k.Walk(x, make([]float64, k.NumFeatures()), nil)
	data := "the data"
	if p.Data != "" {
		data = filepath.Base(p.Data)
	}
	title := fmt.Sprintf("Probability of each state before each step, row %d of %s", row, data)
	if class != "" {
		title += " (class " + class + ")"
	}
	names := k.Model.ClassNames
	caption := p.caption(fmt.Sprintf("The soft model ends with %.2f of the mass on leaf %s; the hard walk (compiled) answers %s after %d steps.",
		best, names[soft], names[res.Class], res.Steps))
	return stateHeatmap(filepath.Join(p.Dir, "flow.png"), title, caption, "step t", z, n, names)
}

// PlotCurves writes the curves of a training log into dir, with no model
// named in the captions (see Pictures.Curves).
func PlotCurves(recs []LogRecord, dir string) error {
	return Pictures{Dir: dir}.Curves(recs, nil)
}

// Curves writes curves.png (accuracies per epoch), loss.png (BCE and
// leaves term) and, when the log has graph statistics, structure.png (back
// and cross edges and used nodes of the binary graph after each epoch).
// A vertical line marks the epoch kept. The log covers training only: when
// saved is not nil, structure.png marks at the kept epoch the statistics of
// the model as saved (after refining, when it was refined), the numbers
// songc analyze prints; and curves.png marks the refined hard walk's
// accuracies when p.About has them.
func (p Pictures) Curves(recs []LogRecord, saved *Stats) error {
	if len(recs) == 0 {
		return fmt.Errorf("analysis: the training log is empty")
	}
	kept := p.About.BestEpoch
	if kept == 0 {
		for _, r := range recs {
			if r.Best {
				kept = r.Epoch
			}
		}
	}
	red, blue, green, dark := color.RGBA{R: 200, A: 255}, color.RGBA{B: 200, A: 255}, color.RGBA{G: 140, A: 255}, color.RGBA{R: 90, G: 90, B: 90, A: 255}
	type series struct {
		name   string
		c      color.Color
		dashed bool
		f      func(LogRecord) (float64, bool)
	}
	type mark struct {
		name  string
		c     color.Color
		y     float64
		shape draw.GlyphDrawer
	}
	type figure struct {
		file, title, y string
		caption        []string
		s              []series
		marks          []mark
	}
	logName := "the training log"
	if p.Log != "" {
		logName = filepath.Base(p.Log)
	}
	figures := []figure{
		{file: "curves.png", title: "Accuracy per epoch (soft model; green: the hard walk, which compiles)", y: "accuracy",
			caption: p.caption("Training log: " + logName + "."),
			s: []series{
				{"train", dark, false, func(r LogRecord) (float64, bool) { return r.TrainAcc, true }},
				{"validation", blue, false, func(r LogRecord) (float64, bool) { return r.ValAcc, r.ValAcc > 0 }},
				{"validation, hard walk", green, false, func(r LogRecord) (float64, bool) { return r.HardValAcc, r.HardValAcc > 0 }},
				{"test", red, true, func(r LogRecord) (float64, bool) { return r.TestAcc, r.TestAcc > 0 }},
				{"test, hard walk", green, true, func(r LogRecord) (float64, bool) { return r.HardTestAcc, r.HardTestAcc > 0 }},
			}},
		{file: "loss.png", title: "Training loss per epoch", y: "loss", caption: p.caption("Training log: " + logName + "."),
			s: []series{
				{"weighted BCE", blue, false, func(r LogRecord) (float64, bool) { return r.BCE, true }},
				{"leaves term", red, false, func(r LogRecord) (float64, bool) { return r.Leaf, true }},
			}},
	}
	if p.About.Refined && p.About.RefinePass > 0 && kept > 0 {
		f := &figures[0]
		if v := p.About.RefineValAcc; v > 0 {
			f.marks = append(f.marks, mark{"validation, hard walk refined", green, v, draw.BoxGlyph{}})
		}
		if v := p.About.RefineTestAcc; v > 0 {
			f.marks = append(f.marks, mark{"test, hard walk refined", green, v, draw.SquareGlyph{}})
		}
		if len(f.marks) > 0 {
			f.caption = append(f.caption, fmt.Sprintf("The squares at epoch %d: the hard walk after refining (pass %d), the model as saved (filled: validation, open: test).", kept, p.About.RefinePass))
		}
	}
	if recs[len(recs)-1].Graph != nil {
		f := figure{file: "structure.png", title: "Binary graph after each training epoch", y: "count",
			caption: p.caption("Training log: " + logName + "."),
			s: []series{
				{"back edges", red, false, func(r LogRecord) (float64, bool) { return graphOf(r, func(g *EpochGraph) int { return g.Back }) }},
				{"cross edges", blue, false, func(r LogRecord) (float64, bool) { return graphOf(r, func(g *EpochGraph) int { return g.Cross }) }},
				{"used nodes", green, true, func(r LogRecord) (float64, bool) { return graphOf(r, func(g *EpochGraph) int { return g.UsedNodes }) }},
			}}
		if p.About.Refined {
			f.title = "Binary graph after each training epoch, before refining"
		}
		if saved != nil && kept > 0 {
			state := "as saved"
			if p.About.Refined && p.About.RefinePass > 0 {
				state = "as saved, after refining"
			}
			f.marks = []mark{{"back edges, " + state, red, float64(saved.Edges.Back), draw.BoxGlyph{}},
				{"cross edges, " + state, blue, float64(saved.Edges.Cross), draw.BoxGlyph{}},
				{"used nodes, " + state, green, float64(saved.UsedNodes), draw.BoxGlyph{}}}
			f.caption = append(f.caption, fmt.Sprintf("The squares at epoch %d: the model %s, which songc analyze reports: %d used nodes, %d back and %d cross edges.",
				kept, state, saved.UsedNodes, saved.Edges.Back, saved.Edges.Cross))
		}
		figures = append(figures, f)
	}
	for _, fig := range figures {
		pl := plot.New()
		pl.X.Label.Text = "epoch"
		pl.Y.Label.Text = fig.y
		pl.Add(plotter.NewGrid())
		leg := plot.NewLegend()
		leg.TextStyle.Font.Size = vg.Points(9)
		leg.Padding = vg.Points(2)
		leg.Top, leg.Left = true, true
		for _, s := range fig.s {
			var xy plotter.XYs
			for _, r := range recs {
				if v, ok := s.f(r); ok {
					xy = append(xy, plotter.XY{X: float64(r.Epoch), Y: v})
				}
			}
			if len(xy) == 0 {
				continue
			}
			l, err := plotter.NewLine(xy)
			if err != nil {
				return err
			}
			l.Color = s.c
			l.Width = vg.Points(1.2)
			if s.dashed {
				l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			}
			pl.Add(l)
			leg.Add(s.name, l)
		}
		for _, m := range fig.marks {
			sc, err := plotter.NewScatter(plotter.XYs{{X: float64(kept), Y: m.y}})
			if err != nil {
				return err
			}
			sc.GlyphStyle = draw.GlyphStyle{Color: m.c, Radius: vg.Points(4), Shape: m.shape}
			pl.Add(sc)
			leg.Add(m.name, sc)
		}
		if kept > 0 {
			v := vline{x: float64(kept), sty: draw.LineStyle{Color: lightest, Width: vg.Points(1.5), Dashes: []vg.Length{vg.Points(1), vg.Points(2)}}}
			pl.Add(v)
			leg.Add(fmt.Sprintf("epoch kept (%d)", kept), v)
		}
		pl.X.Tick.Marker = intTicks{}
		if err := saveFigure(filepath.Join(p.Dir, fig.file), 18*vg.Centimeter, 10*vg.Centimeter, fig.title, fig.caption, withLegend(pl, leg)); err != nil {
			return err
		}
	}
	return nil
}

func graphOf(r LogRecord, f func(*EpochGraph) int) (float64, bool) {
	if r.Graph == nil {
		return 0, false
	}
	return float64(f(r.Graph)), true
}

// withLegend returns a body that draws p with leg to its right, level
// with the top of the data area, so that the legend never covers a line.
func withLegend(p *plot.Plot, leg plot.Legend) func(c draw.Canvas) {
	return func(c draw.Canvas) {
		r := leg.Rectangle(c)
		legW := r.Max.X - r.Min.X + vg.Points(16)
		main := draw.Crop(c, 0, -legW, 0, 0)
		p.Draw(main)
		da := p.DataCanvas(main)
		leg.Draw(draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: c.Max.X - legW + vg.Points(12), Y: da.Min.Y},
			Max: vg.Point{X: c.Max.X, Y: da.Max.Y}}})
	}
}
