package compiler

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/songc/songc/internal/text"
	"github.com/songc/songc/runtime"
)

// Render writes the generated, gofmt'd source of p to w.
func (p *Plan) Render(w io.Writer, version string) error {
	k := p.Classifier
	m := k.Model
	d, c, nn := k.NumFeatures(), k.NumClasses(), len(p.Nodes)
	pre := m.InputShift != nil || m.InputScale != nil

	f := jen.NewFile(p.Package)
	p.header(f, version)
	doc := packageComment
	what := "Package " + p.Package
	if p.Package == "main" { // the program's own doc comment is the package's
		doc, what = fileComment, "This file"
	}
	doc(f, fmt.Sprintf(`%s is a Self-Organizing Neural Graph classifier compiled by songc.

It walks the learned binary graph with hard decisions: at each node it goes
right iff w·x + b > 0 (w·x summed in float64 in feature order), to the most
probable child, until it reaches a class leaf. %s

The model has %s, %s, %s and %s;
%s reachable from the root and emitted here.%s
Layout: %s (%s).%s`, what, importsDoc(m), text.Count(k.NumNodes(), "internal node"), text.Count(k.Steps(), "step"), text.Count(d, "feature"), text.Count(c, "class"),
		text.Is(nn, "node"), constantDoc(p), p.Layout, p.Why, recordDoc(m)))

	// const NumFeatures = 16 ...
	comment(f, "NumFeatures is the length of an input vector.")
	f.Const().Id("NumFeatures").Op("=").Lit(d)
	comment(f, "NumClasses is the number of classes; Predict returns an index into ClassNames.")
	f.Const().Id("NumClasses").Op("=").Lit(c)
	comment(f, "Steps is the most decisions a walk takes (the model's N steps).")
	f.Const().Id("Steps").Op("=").Lit(k.Steps())
	comment(f, "ModelNodes is the number of internal nodes of the model; in a Decision,")
	comment(f, "Next >= ModelNodes is the leaf of class Next - ModelNodes.")
	f.Const().Id("ModelNodes").Op("=").Lit(k.NumNodes())
	f.Const().Id("numNodes").Op("=").Lit(nn).Comment("nodes emitted: those reachable from the root")
	f.Line()

	// var ClassNames = [NumClasses]string{"A", ...}
	comment(f, "ClassNames are the class labels, by class index.")
	f.Var().Id("ClassNames").Op("=").Index(jen.Id("NumClasses")).String().Add(list(litValues(m.ClassNames, litOf)))

	// var next = [numNodes][2]int32{{1, ^3}, ...}: by decision, an emitted
	// node index, or ^class for a leaf; exit holds the forced exits.
	table := func(name, doc string, state func(i int, right bool) int) {
		comment(f, doc)
		f.Var().Id(name).Op("=").Index(jen.Id("numNodes")).Index(jen.Lit(2)).Int32().Add(list(values(len(p.Nodes), func(i int) (jen.Code, int) {
			l, r := state(p.Nodes[i], false), state(p.Nodes[i], true)
			return jen.Values(p.stateLit(l), p.stateLit(r)), 4 + width(p.encode(l)) + width(p.encode(r))
		})))
	}
	child := func(i int, right bool) int {
		if right {
			return k.Right(i)
		}
		return k.Left(i)
	}
	table("next", "next[i][d] is where emitted node i moves on decision d (0: left, 1: right):\nanother emitted node, or ^class for a leaf.", child)
	table("exit", "exit[i][d] is the leaf (^class) that node i exits to when the walk reaches\nthe step limit on decision d without having reached a leaf.", k.Exit)
	comment(f, "nodeID maps an emitted node to the model's node number.")
	f.Var().Id("nodeID").Op("=").Index(jen.Id("numNodes")).Int().Add(list(litValues(p.Nodes, litOf)))
	vector := func(name, doc string, v []float64) {
		comment(f, doc)
		f.Var().Id(name).Op("=").Index(jen.Id("NumFeatures")).Float64().Add(list(litValues(v, lit)))
	}
	if m.InputShift != nil {
		vector("shift", "shift and scale preprocess an input: v = (x - shift) * scale.", m.InputShift)
	}
	if m.InputScale != nil {
		vector("scale", "scale multiplies the shifted input.", m.InputScale)
	}
	if p.Layout == LayoutTables {
		comment(f, "weights and bias are the filters of the emitted nodes.")
		f.Var().Id("weights").Op("=").Index(jen.Id("numNodes")).Index(jen.Id("NumFeatures")).Float64().Add(list(values(len(p.Nodes), func(i int) (jen.Code, int) {
			return litValues(k.Weights(p.Nodes[i]), lit)
		})))
		bias := make([]float64, len(p.Nodes))
		for i, node := range p.Nodes {
			bias[i] = k.Bias(node)
		}
		f.Var().Id("bias").Op("=").Index(jen.Id("numNodes")).Float64().Add(list(litValues(bias, lit)))
	}
	f.Line()

	p.renderMargin(f)
	if pre {
		// func preprocess(v, x *[NumFeatures]float64) { for j, xj := range x { xj -= shift[j]; xj *= scale[j]; v[j] = xj } }
		comment(f, "preprocess applies the model's input transformation, in the runtime's order.")
		f.Func().Id("preprocess").Params(jen.Id("v"), jen.Id("x").Op("*").Index(jen.Id("NumFeatures")).Float64()).BlockFunc(func(g *jen.Group) {
			g.For(jen.List(jen.Id("j"), jen.Id("xj")).Op(":=").Range().Id("x")).BlockFunc(func(g *jen.Group) {
				if m.InputShift != nil {
					g.Id("xj").Op("-=").Id("shift").Index(jen.Id("j"))
				}
				if m.InputScale != nil {
					g.Id("xj").Op("*=").Id("scale").Index(jen.Id("j"))
				}
				g.Id("v").Index(jen.Id("j")).Op("=").Id("xj")
			})
		})
	}
	xParam := jen.Id("x").Op("*").Index(jen.Id("NumFeatures")).Float64()

	// func Predict(x *[NumFeatures]float64) int
	comment(f, "Predict returns the class index that the hard walk reaches for input x.\nx should hold finite numbers: a NaN makes every margin NaN, which is not\n> 0, so the walk goes left at every node.")
	f.Func().Id("Predict").Params(xParam.Clone()).Int().BlockFunc(func(g *jen.Group) {
		if class, ok := p.constant(); ok {
			// Every walk ends at class: neither the input's preprocessing
			// nor a margin can change it (a NaN margin goes left, to the
			// same class).
			g.Return(jen.Lit(class))
			return
		}
		p.input(g)
		g.Id("i").Op(":=").Lit(0)
		g.For(jen.Id("t").Op(":=").Lit(1), jen.Empty(), jen.Id("t").Op("++")).BlockFunc(func(g *jen.Group) {
			g.Id("d").Op(":=").Lit(0)
			g.If(jen.Id("margin").Call(jen.Id("i"), jen.Id("v")).Op(">").Lit(0)).Block(jen.Id("d").Op("=").Lit(1))
			g.Id("n").Op(":=").Id("next").Index(jen.Id("i")).Index(jen.Id("d"))
			g.If(jen.Id("n").Op(">=").Lit(0).Op("&&").Id("t").Op("==").Id("Steps")).Block(
				jen.Id("n").Op("=").Id("exit").Index(jen.Id("i")).Index(jen.Id("d")))
			g.If(jen.Id("n").Op("<").Lit(0)).Block(jen.Return(jen.Int().Call(jen.Op("^").Id("n"))))
			g.Id("i").Op("=").Int().Call(jen.Id("n"))
		})
	})

	// func PredictBatch(xs []*[NumFeatures]float64... ) — a slice of inputs.
	comment(f, "PredictBatch writes Predict(&xs[i]) into out[i] for every row; out must be at\nleast as long as xs. It allocates nothing.")
	f.Func().Id("PredictBatch").Params(jen.Id("xs").Index().Index(jen.Id("NumFeatures")).Float64(), jen.Id("out").Index().Int()).Block(
		jen.Id("out").Op("=").Id("out").Index(jen.Empty(), jen.Len(jen.Id("xs"))).Comment("panics at once if out is too short"),
		jen.For(jen.Id("i").Op(":=").Range().Id("xs")).Block(
			jen.Id("out").Index(jen.Id("i")).Op("=").Id("Predict").Call(jen.Op("&").Id("xs").Index(jen.Id("i"))),
		),
	)

	// type Decision struct{...}; func Explain(x, path) (int, []Decision)
	comment(f, "Decision is one step of a walk, as Explain reports it.")
	f.Type().Id("Decision").Struct(
		jen.Id("Node").Int().Comment("the model's node number"),
		jen.Id("Margin").Float64().Comment("w·x + b at Node, on the preprocessed input"),
		jen.Id("Right").Bool().Comment("Margin > 0: the walk took the node's right (M1) edge"),
		jen.Id("Next").Int().Comment("the model state moved to; >= ModelNodes is the leaf of class Next-ModelNodes"),
		jen.Id("Forced").Bool().Comment("the step limit forced an exit to a leaf"),
	)
	comment(f, `Explain returns the class of x and the walk's decisions, appended to
path[:0]. It allocates nothing when cap(path) >= Steps.`)
	f.Func().Id("Explain").Params(xParam.Clone(), jen.Id("path").Index().Id("Decision")).Params(jen.Int(), jen.Index().Id("Decision")).BlockFunc(func(g *jen.Group) {
		p.walk(g, func(d jen.Code) jen.Code { return d })
	})
	if m.Schema != nil {
		p.renderRecord(f)
	}
	return f.Render(w)
}

// input emits v := x, or v := a preprocessed copy of x when the model
// shifts or scales its inputs.
func (p *Plan) input(g *jen.Group) {
	if m := p.Classifier.Model; m.InputShift != nil || m.InputScale != nil {
		g.Var().Id("buf").Index(jen.Id("NumFeatures")).Float64()
		g.Id("preprocess").Call(jen.Op("&").Id("buf"), jen.Id("x"))
		g.Id("v").Op(":=").Op("&").Id("buf")
	} else {
		g.Id("v").Op(":=").Id("x")
	}
}

// walk emits the body of Explain and ExplainInput: the hard walk from the
// root over the input x (a pointer in scope), appending elem(Decision{...})
// to path for each step, then returning the class and path.
func (p *Plan) walk(g *jen.Group, elem func(decision jen.Code) jen.Code) {
	p.input(g)
	g.Id("path").Op("=").Id("path").Index(jen.Empty(), jen.Lit(0))
	g.Id("i").Op(":=").Lit(0)
	g.For(jen.Id("t").Op(":=").Lit(1), jen.Empty(), jen.Id("t").Op("++")).BlockFunc(func(g *jen.Group) {
		g.Id("m").Op(":=").Id("margin").Call(jen.Id("i"), jen.Id("v"))
		g.Id("d").Op(":=").Lit(0)
		g.If(jen.Id("m").Op(">").Lit(0)).Block(jen.Id("d").Op("=").Lit(1))
		g.Id("n").Op(":=").Id("next").Index(jen.Id("i")).Index(jen.Id("d"))
		g.Id("forced").Op(":=").Id("n").Op(">=").Lit(0).Op("&&").Id("t").Op("==").Id("Steps")
		g.If(jen.Id("forced")).Block(jen.Id("n").Op("=").Id("exit").Index(jen.Id("i")).Index(jen.Id("d")))
		g.Id("next").Op(":=").Id("ModelNodes").Op("+").Int().Call(jen.Op("^").Id("n"))
		g.If(jen.Id("n").Op(">=").Lit(0)).Block(jen.Id("next").Op("=").Id("nodeID").Index(jen.Id("n")))
		g.Id("path").Op("=").Append(jen.Id("path"), elem(jen.Id("Decision").Values(jen.Dict{
			jen.Id("Node"): jen.Id("nodeID").Index(jen.Id("i")), jen.Id("Margin"): jen.Id("m"), jen.Id("Right"): jen.Id("d").Op("==").Lit(1),
			jen.Id("Next"): jen.Id("next"), jen.Id("Forced"): jen.Id("forced"),
		})))
		g.If(jen.Id("n").Op("<").Lit(0)).Block(jen.Return(jen.Int().Call(jen.Op("^").Id("n")), jen.Id("path")))
		g.Id("i").Op("=").Int().Call(jen.Id("n"))
	})
}

// renderMargin emits func margin(i int, v *[NumFeatures]float64) float64,
// computed exactly as runtime.Classifier.Margin.
func (p *Plan) renderMargin(f *jen.File) {
	k := p.Classifier
	vParam := jen.Id("v").Op("*").Index(jen.Id("NumFeatures")).Float64()
	comment(f, "margin returns w·v + b of emitted node i: the sum starts at 0 and adds each\nproduct, rounded to float64 (no fused multiply-add), in feature order; then the bias.")
	if p.Layout == LayoutTables {
		f.Func().Id("margin").Params(jen.Id("i").Int(), vParam).Float64().Block(
			jen.Id("w").Op(":=").Op("&").Id("weights").Index(jen.Id("i")),
			jen.Var().Id("s").Float64(),
			jen.For(jen.Id("j").Op(":=").Range().Id("w")).Block(
				jen.Id("s").Op("+=").Float64().Call(jen.Id("w").Index(jen.Id("j")).Op("*").Id("v").Index(jen.Id("j"))),
			),
			jen.Return(jen.Id("s").Op("+").Id("bias").Index(jen.Id("i"))),
		)
		return
	}
	f.Func().Id("margin").Params(jen.Id("i").Int(), vParam).Float64().BlockFunc(func(g *jen.Group) {
		g.Var().Id("s").Float64()
		g.Switch(jen.Id("i")).BlockFunc(func(g *jen.Group) {
			for e, node := range p.Nodes {
				body := []jen.Code{jen.Comment(fmt.Sprintf("node %d", node))}
				for j, w := range k.Weights(node) {
					body = append(body, jen.Id("s").Op("+=").Float64().Call(lit(w).Op("*").Id("v").Index(jen.Lit(j))))
				}
				body = append(body, jen.Return(jen.Id("s").Op("+").Add(lit(k.Bias(node)))))
				cs := jen.Case(jen.Lit(e))
				if e == len(p.Nodes)-1 {
					cs = jen.Default()
				}
				g.Add(cs.Block(body...))
			}
		})
	})
}

// lineWidth is about the widest a line of generated values gets, its
// indentation aside.
const lineWidth = 72

// values returns the composite literal's values {item(0), ..., item(n-1)}
// and its width in columns: on one line when they fit in lineWidth
// columns, else as many to a line as fit (an item wider than that, such as
// a nested list that spans lines, on a line of its own), so that a long
// list (a model's hundreds of category levels, a weight table's rows)
// stays readable instead of one line thousands of columns wide. item
// returns value i and about its width as gofmt writes it (width).
func values(n int, item func(i int) (jen.Code, int)) (*jen.Statement, int) {
	items := make([]jen.Code, n)
	widths := make([]int, n)
	total := 2 // the braces
	for i := range items {
		items[i], widths[i] = item(i)
		total += widths[i] + 2 // ", "
	}
	if total <= lineWidth {
		return jen.Values(items...), total
	}
	var lines []jen.Code
	var line *jen.Statement
	width := 0
	for i, it := range items {
		if line != nil && width+widths[i]+2 > lineWidth {
			lines = append(lines, line)
			line = nil
		}
		if line == nil {
			line, width = jen.Add(it), widths[i]
			continue
		}
		line.Op(",").Add(it)
		width += widths[i] + 2
	}
	if line != nil {
		lines = append(lines, line)
	}
	return jen.Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, lines...), lineWidth + 1
}

// width is the width of v written as a Go literal by jennifer's Lit (a
// float64 without a point or an exponent gets ".0").
func width(v any) int {
	s := fmt.Sprintf("%#v", v)
	if _, ok := v.(float64); ok && !strings.ContainsAny(s, ".e") {
		return len(s) + 2
	}
	return len(s)
}

// litValues is values for a list of literals, with lit writing each.
func litValues[T any, C jen.Code](vs []T, lit func(T) C) (*jen.Statement, int) {
	return values(len(vs), func(i int) (jen.Code, int) { return lit(vs[i]), width(vs[i]) })
}

// litOf is jen.Lit for a value of type T, for litValues.
func litOf[T any](v T) jen.Code { return jen.Lit(v) }

// list drops values' width, for a literal that is not nested.
func list(s *jen.Statement, _ int) *jen.Statement { return s }

// comment adds a comment of one or more lines as // lines.
func comment(f *jen.File, doc string) {
	eachLine(doc, func(line string) { f.Comment(line) })
}

// packageComment writes doc as the package's doc comment.
func packageComment(f *jen.File, doc string) {
	eachLine(doc, f.PackageComment)
}

// fileComment writes doc as lines of the comment above the package
// clause, after the header's and apart from the package's doc comment.
func fileComment(f *jen.File, doc string) {
	f.HeaderComment("")
	eachLine(doc, f.HeaderComment)
}

// eachLine adds doc to a comment one line at a time (jennifer would
// render a multi-line comment as a /* */ block).
func eachLine(doc string, add func(line string)) {
	for _, line := range strings.Split(doc, "\n") {
		add(line)
	}
}

// stateLit renders an encoded state: an emitted node index, or ^class.
func (p *Plan) stateLit(s int) jen.Code {
	e := p.encode(s)
	if e < 0 {
		return jen.Op("^").Lit(int(^e))
	}
	return jen.Lit(int(e))
}

// importsDoc says what the code imports and allocates: nothing, unless
// the model reads categorical columns, whose values it reads with the
// standard library's strings, as songc reads a CSV field.
func importsDoc(m *runtime.Model) string {
	if m.Schema != nil && categorical(m.Schema) {
		return "It imports only the standard\nlibrary's strings, to read categorical values as songc does, and allocates\nnothing (but for a categorical value that is not valid UTF-8)."
	}
	return "It imports nothing and\nallocates nothing."
}

// categorical reports whether s has a categorical input, whose values the
// record API reads as strings (fieldLevel).
func categorical(s *runtime.Schema) bool {
	return slices.ContainsFunc(s.Inputs, func(in runtime.Input) bool { return in.Kind == runtime.Categorical })
}

// constantDoc says, for a walk that ends at one class whatever the input
// (the majority check's constant, say), which; "" otherwise.
func constantDoc(p *Plan) string {
	if class, ok := p.constant(); ok {
		return fmt.Sprintf("\nWhatever the input, the walk ends at one class: it returns %q.", p.Classifier.Model.ClassNames[class])
	}
	return ""
}
