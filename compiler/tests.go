package compiler

import (
	"bytes"
	"fmt"
	"io"

	"github.com/dave/jennifer/jen"
)

// RenderTests writes a _test.go file for the generated package: golden
// vectors (rows with the class the runtime's hard walk gives them), a
// zero-allocation test and BenchmarkPredict. rows is row-major, NumFeatures
// values per row.
func (p *Plan) RenderTests(w io.Writer, version string, rows []float64) error {
	k := p.Classifier
	d := k.NumFeatures()
	if len(rows) == 0 || len(rows)%d != 0 {
		return fmt.Errorf("compiler: %d test values are not whole rows of %d features", len(rows), d)
	}
	n := len(rows) / d
	scratch := make([]float64, d)
	f := jen.NewFile(p.Package)
	p.header(f, version)
	f.ImportName("testing", "testing")

	// var goldenX = [...][NumFeatures]float64{...}; var goldenClass = [...]int{...}
	comment(f, "goldenX are rows of the data the model was compiled with; goldenClass are the\nclasses songc's runtime gives them by the same hard walk.")
	f.Var().Id("goldenX").Op("=").Index(jen.Op("...")).Index(jen.Id("NumFeatures")).Float64().ValuesFunc(func(g *jen.Group) {
		for i := 0; i < n; i++ { // a row a line
			g.Line().ValuesFunc(func(g *jen.Group) {
				for _, v := range rows[i*d : (i+1)*d] {
					g.Add(lit(v))
				}
			})
		}
		g.Line()
	})
	f.Var().Id("goldenClass").Op("=").Index(jen.Op("...")).Int().ValuesFunc(func(g *jen.Group) {
		for i := 0; i < n; i++ {
			res, _ := k.Walk(rows[i*d:(i+1)*d], scratch, nil)
			if i%20 == 0 { // twenty classes a line
				g.Line().Lit(res.Class)
			} else {
				g.Lit(res.Class)
			}
		}
		g.Line()
	})

	f.Func().Id("TestGolden").Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(
		jen.Id("buf").Op(":=").Make(jen.Index().Id("Decision"), jen.Lit(0), jen.Id("Steps")),
		jen.For(jen.List(jen.Id("i"), jen.Id("x")).Op(":=").Range().Id("goldenX")).Block(
			jen.If(jen.Id("got").Op(":=").Id("Predict").Call(jen.Op("&").Id("x")), jen.Id("got").Op("!=").Id("goldenClass").Index(jen.Id("i"))).Block(
				jen.Id("t").Dot("Errorf").Call(jen.Lit("row %d: Predict = %d, want %d"), jen.Id("i"), jen.Id("got"), jen.Id("goldenClass").Index(jen.Id("i"))),
			),
			jen.List(jen.Id("c"), jen.Id("path")).Op(":=").Id("Explain").Call(jen.Op("&").Id("x"), jen.Id("buf")),
			jen.If(jen.Id("c").Op("!=").Id("goldenClass").Index(jen.Id("i")).Op("||").Len(jen.Id("path")).Op("==").Lit(0).Op("||").
				Id("path").Index(jen.Len(jen.Id("path")).Op("-").Lit(1)).Dot("Next").Op("!=").Id("ModelNodes").Op("+").Id("c")).Block(
				jen.Id("t").Dot("Errorf").Call(jen.Lit("row %d: Explain = %d via %v, want %d"), jen.Id("i"), jen.Id("c"), jen.Id("path"), jen.Id("goldenClass").Index(jen.Id("i"))),
			),
		),
	)
	f.Func().Id("TestPredictBatch").Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(
		jen.Id("out").Op(":=").Make(jen.Index().Int(), jen.Len(jen.Id("goldenX"))),
		jen.Id("PredictBatch").Call(jen.Id("goldenX").Index(jen.Empty(), jen.Empty()), jen.Id("out")),
		jen.Id("PredictBatch").Call(jen.Nil(), jen.Nil()),
		jen.For(jen.List(jen.Id("i"), jen.Id("c")).Op(":=").Range().Id("out")).Block(
			jen.If(jen.Id("c").Op("!=").Id("goldenClass").Index(jen.Id("i"))).Block(
				jen.Id("t").Dot("Errorf").Call(jen.Lit("row %d: PredictBatch = %d, want %d"), jen.Id("i"), jen.Id("c"), jen.Id("goldenClass").Index(jen.Id("i"))),
			),
		),
	)
	f.Func().Id("TestZeroAllocs").Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(
		jen.Id("buf").Op(":=").Make(jen.Index().Id("Decision"), jen.Lit(0), jen.Id("Steps")),
		jen.Id("x").Op(":=").Id("goldenX").Index(jen.Lit(0)),
		jen.If(jen.Id("a").Op(":=").Qual("testing", "AllocsPerRun").Call(jen.Lit(100), jen.Func().Params().Block(
			jen.Id("Predict").Call(jen.Op("&").Id("x")),
			jen.Id("Explain").Call(jen.Op("&").Id("x"), jen.Id("buf")),
		)), jen.Id("a").Op("!=").Lit(0)).Block(
			jen.Id("t").Dot("Errorf").Call(jen.Lit("%v allocations per call, want 0"), jen.Id("a")),
		),
	)
	if k.Model.Schema != nil {
		f.Func().Id("TestZeroAllocsInput").Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(
			jen.Id("buf").Op(":=").Make(jen.Index().Id("InputDecision"), jen.Lit(0), jen.Id("Steps")),
			jen.Var().Id("in").Id("Input"),
			jen.If(jen.Id("a").Op(":=").Qual("testing", "AllocsPerRun").Call(jen.Lit(100), jen.Func().Params().Block(
				jen.Id("PredictInput").Call(jen.Op("&").Id("in")),
				jen.Id("ExplainInput").Call(jen.Op("&").Id("in"), jen.Id("buf")),
			)), jen.Id("a").Op("!=").Lit(0)).Block(
				jen.Id("t").Dot("Errorf").Call(jen.Lit("%v allocations per record, want 0"), jen.Id("a")),
			),
		)
	}
	f.Var().Id("sink").Int()
	f.Func().Id("BenchmarkPredict").Params(jen.Id("b").Op("*").Qual("testing", "B")).Block(
		jen.Id("b").Dot("ReportAllocs").Call(),
		jen.For(jen.Id("i").Op(":=").Lit(0), jen.Id("i").Op("<").Id("b").Dot("N"), jen.Id("i").Op("++")).Block(
			jen.Id("sink").Op("+=").Id("Predict").Call(jen.Op("&").Id("goldenX").Index(jen.Id("i").Op("%").Len(jen.Id("goldenX")))),
		),
	)
	var b bytes.Buffer
	if err := f.Render(&b); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}
