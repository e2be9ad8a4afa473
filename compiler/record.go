package compiler

import (
	"cmp"
	"fmt"
	"go/token"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"

	"github.com/songc/songc/internal/text"
	"github.com/songc/songc/runtime"
)

// The record API: for a model that records its input columns
// (runtime.Model.Schema), the generated package also takes records, a
// field per column, and encodes them into the feature vector Predict reads,
// as songc encodes a row of a CSV file.

// maxListed and maxDocumented are how many levels a node's test and a
// field's doc comment list before saying how many more there are;
// maxTerms is how many terms the test of a node that weighs several
// columns shows.
const (
	maxListed     = 8
	maxDocumented = 64
	maxTerms      = 3
)

// fieldNames returns an exported Go identifier for each input column:
// the name's letters and digits (any script's, as Go identifiers allow),
// each word capitalised; X before a leading digit or a letter that has no
// upper case (a Go identifier is exported only by an upper-case letter);
// Column and the column number for a name with neither; and, for a name
// that another column's already took, _ and the column number.
func fieldNames(s *runtime.Schema) []string {
	out := make([]string, len(s.Inputs))
	taken := map[string]bool{}
	for i, in := range s.Inputs {
		var b strings.Builder
		up := true
		for _, r := range in.Name {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r):
				if up {
					r = unicode.ToUpper(r)
				}
				b.WriteRune(r)
				up = false
			default:
				up = true
			}
		}
		id := b.String()
		switch {
		case id == "":
			id = fmt.Sprintf("Column%d", i+1)
		case !token.IsExported(id):
			id = "X" + id
		}
		if taken[id] {
			id = fmt.Sprintf("%s_%d", id, i+1)
		}
		for taken[id] { // a name that was itself NAME_N
			id += "_"
		}
		taken[id] = true
		out[i] = id
	}
	return out
}

// display returns a column name or level as a person reads it in a test:
// unchanged when it is printable, Go-quoted otherwise.
func display(s string) string {
	if s != "" && utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) {
		return s
	}
	return strconv.Quote(s)
}

// quotedList returns levels as {"a", "b"}, at most n of them.
func quotedList(levels []string, n int) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, l := range levels {
		if i == n {
			fmt.Fprintf(&b, ", and %d more", len(levels)-n)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(l))
	}
	b.WriteByte('}')
	return b.String()
}

// column returns the input column node's filter reads, or -1 when the
// filter reads several columns or none.
func (p *Plan) column(node int) int {
	w := p.Classifier.Weights(node)
	col := -1
	s := p.schema
	for i, start := range p.first {
		for _, x := range w[start : start+s.Inputs[i].Width()] {
			if x != 0 {
				if col >= 0 && col != i {
					return -1
				}
				col = i
			}
		}
	}
	return col
}

// Column returns the input column node's filter reads (a test on one
// column, as Tests says it), or -1 when it reads several or none.
func (p *Plan) Column(node int) int {
	if node < 0 || node >= p.Classifier.Model.Nodes {
		return -1
	}
	return p.column(node)
}

// nodeTest describes emitted node e's test in the input columns' terms:
// the column (-1 when the filter reads several, or none) and the test as
// the walk takes it left and right: a threshold on the column (to 6
// significant digits) or its category, or else linearTest's largest terms
// (empty for a node without weights). The decision itself is always the
// margin's sign.
func (p *Plan) nodeTest(e int) (col int, test [2]string) {
	k := p.Classifier
	m := k.Model
	s := p.schema
	node := p.Nodes[e]
	col = p.column(node)
	if col < 0 {
		return -1, p.linearTest(e)
	}
	o := p.first[col]
	in := &s.Inputs[col]
	// side returns the walk's side for a record whose column encodes to
	// the features f (the other columns, with weight 0, do not count).
	x, v := make([]float64, k.NumFeatures()), make([]float64, k.NumFeatures())
	side := func(f []float64) int {
		clear(x)
		copy(x[o:], f)
		k.Preprocess(v, x)
		return runtime.Side(k.Margin(node, v))
	}
	name := display(in.Name)
	var missingSide int
	if in.Kind == runtime.Numeric {
		f := []float64{in.Fill, 1}
		missingSide = side(f[:in.Width()])
		shift := 0.0
		if m.InputShift != nil {
			shift = m.InputShift[o]
		}
		a, _ := m.RawWeight(node, o)
		if a == 0 { // the missing-value feature alone
			test[missingSide] = name + " is missing"
			test[1-missingSide] = name + " is not missing"
			return col, test
		}
		t := strconv.FormatFloat(shift-k.Bias(node)/a, 'g', 6, 64)
		if a > 0 {
			test = [2]string{name + " <= " + t, name + " > " + t}
		} else {
			test = [2]string{name + " >= " + t, name + " < " + t}
		}
	} else {
		var sides [2][]string
		f := make([]float64, in.Width())
		for l, level := range in.Levels {
			clear(f)
			f[l] = 1
			sd := side(f)
			sides[sd] = append(sides[sd], level)
		}
		clear(f)
		unseenSide := side(f)
		if in.MissingFeature {
			f[len(f)-1] = 1
		}
		missingSide = side(f)
		for sd := range 2 {
			var parts []string
			switch len(sides[sd]) {
			case 0:
			case 1:
				parts = append(parts, name+" = "+strconv.Quote(sides[sd][0]))
			default:
				parts = append(parts, name+" in "+quotedList(sides[sd], maxListed))
			}
			if unseenSide == sd {
				parts = append(parts, "an unseen value")
			}
			if missingSide == sd {
				parts = append(parts, "missing")
			}
			test[sd] = strings.Join(parts, " or ")
			if len(parts) == 0 {
				test[sd] = "no value of " + name
			}
		}
		return col, test
	}
	if !math.IsNaN(in.Fill) { // else a model without a schema: no field is missing
		test[missingSide] += " or missing"
	}
	return col, test
}

// Tests returns the test of each node the walk reaches, by its number in
// the model, as the walk takes it left ([0]) and right ([1]): what
// ExplainInput's InputDecision.Test says of it, in the terms of the input
// columns (of the features x1, x2, ... for a model without a schema).
func (p *Plan) Tests() map[int][2]string {
	out := make(map[int][2]string, len(p.Nodes))
	for e, node := range p.Nodes {
		_, out[node] = p.nodeTest(e)
	}
	return out
}

// linearTest describes the test of emitted node e, whose filter weighs
// several columns (or none), as an inequality in the columns' own units,
// each term centred on a typical row's value, so that the terms shown can
// be read against the threshold with the others left out: a number's term
// reads its value less its column's median (the fill; a model without a
// schema centres on 0), a level's term its weight less the mean weight of
// its column's levels (a row has one of them; a missing one's term has
// that mean taken off too), and a missing-value term is 1 or 0. With a_j =
// w_j scale_j, the test w·(x - shift)·scale + b > 0 then reads sum_j c_j
// term_j > t, with t = -b + sum_j a_j (shift_j - centre_j) less the
// levels' mean weights: exact for every row but one with a category no
// training row had (it sets no level, and counts as its column's mean),
// and a row whose terms not shown are at their centres is decided by the
// terms shown alone. The terms come
// in the order of how far they move the margin, the largest first: a
// number's by its weight on what the node reads (per standard deviation,
// when the model standardises), a missing-value feature's by its weight,
// and a level's by its centred weight. maxTerms of them are shown, and the
// rest counted; [sex = "F"] and [age is missing] are 1 or 0.
func (p *Plan) linearTest(e int) (test [2]string) {
	k := p.Classifier
	m := k.Model
	node := p.Nodes[e]
	w := k.Weights(node)
	type term struct {
		a    float64
		name string
		rank float64
	}
	var terms []term
	j := 0
	centre, mean, t := p.centres(node)
	for i, in := range p.schema.Inputs {
		name := display(in.Name)
		centre, mean := centre[i], mean[i]
		for f := range in.Width() {
			a, _ := m.RawWeight(node, j)
			tm := term{a, operand(in.Name), math.Abs(w[j])}
			switch {
			case in.Kind == runtime.Numeric && f == 0: // the value
				if centre != 0 {
					c := strconv.FormatFloat(math.Abs(centre), 'g', 6, 64)
					tm.name = "(" + tm.name + text.Sign(1, centre > 0) + c + ")"
				}
			default: // a level, or the missing-value feature: 1 or 0
				// A missing field sets no level either: the mean the
				// threshold holds comes off its term too (mean is 0 for a
				// numeric column), so that the test stays exact.
				tm.a -= mean
				tm.rank = math.Abs(tm.a)
				tm.name = "[" + name + " is missing]"
				if f < len(in.Levels) {
					tm.name = "[" + name + " = " + strconv.Quote(in.Levels[f]) + "]"
				}
			}
			if tm.a != 0 {
				terms = append(terms, tm)
			}
			j++
		}
	}
	if len(terms) == 0 {
		return test // no weight: the bias alone decides, and Margin says how
	}
	slices.SortStableFunc(terms, func(x, y term) int { return cmp.Compare(y.rank, x.rank) })
	var b strings.Builder
	for i, tm := range terms[:min(maxTerms, len(terms))] {
		b.WriteString(text.Sign(i, tm.a < 0))
		b.WriteString(strconv.FormatFloat(math.Abs(tm.a), 'g', 3, 64) + "*" + tm.name)
	}
	if n := len(terms) - maxTerms; n > 0 {
		b.WriteString(" + " + text.Count(n, "smaller term"))
	}
	sum, th := b.String(), strconv.FormatFloat(t, 'g', 4, 64)
	return [2]string{sum + " <= " + th, sum + " > " + th}
}

// Reading says what node's test reads in the row whose features are x (a
// record as songc encodes it, before the model's standardisation), for a
// person to set beside the test (Tests): for a test on one column, the
// row's value of it (a number to 6 significant digits, a quoted level,
// missing, or an unseen value); for a test on several, the value of the
// test's left side, compared with its threshold as the walk decided, and
// the row's largest terms, a column each, as linearTest centres them:
//
//	28.9 > 12.3; largest terms: TSH = 39 (+25.2), sex = "F" (+3.47), FTI = 80 (-2.05)
//
// The left side sums every column's term unrounded, so it is exact also
// where the test's own terms are not (a category no training row had).
// Reading returns "" for a node without weights, or one not in the plan.
func (p *Plan) Reading(node int, x []float64) string {
	k := p.Classifier
	if _, ok := p.index[node]; !ok || len(x) != k.NumFeatures() {
		return ""
	}
	starts := p.first
	if col := p.column(node); col >= 0 {
		v, _ := p.value(col, starts[col], x)
		return v
	}
	if !slices.ContainsFunc(k.Weights(node), func(w float64) bool { return w != 0 }) {
		return "" // no weight: the bias alone decides
	}
	m := k.Model
	s := p.schema
	centre, mean, t := p.centres(node)
	type term struct {
		col int
		v   float64
	}
	terms := make([]term, 0, len(s.Inputs))
	lhs := 0.0
	for i, j := range starts {
		v := -mean[i]
		for f := range s.Inputs[i].Width() {
			a, _ := m.RawWeight(node, j+f)
			v += a * x[j+f]
			if f == 0 && s.Inputs[i].Kind == runtime.Numeric {
				v -= a * centre[i]
			}
		}
		lhs += v
		if v != 0 {
			terms = append(terms, term{i, v})
		}
	}
	scratch := make([]float64, k.NumFeatures())
	k.Preprocess(scratch, x)
	cmpSign := " <= "
	if runtime.Side(k.Margin(node, scratch)) == 1 {
		cmpSign = " > "
	}
	var b strings.Builder
	b.WriteString(strconv.FormatFloat(lhs, 'g', 4, 64) + cmpSign + strconv.FormatFloat(t, 'g', 4, 64))
	slices.SortStableFunc(terms, func(x, y term) int { return cmp.Compare(math.Abs(y.v), math.Abs(x.v)) })
	for i, tm := range terms[:min(maxTerms, len(terms))] {
		if i == 0 {
			b.WriteString("; largest terms: ")
		} else {
			b.WriteString(", ")
		}
		sign := "+"
		if tm.v < 0 {
			sign = "-"
		}
		v, ok := p.value(tm.col, starts[tm.col], x)
		is := " = "
		if !ok {
			is = " is "
		}
		fmt.Fprintf(&b, "%s%s%s (%s%s)", operand(s.Inputs[tm.col].Name), is, v, sign, strconv.FormatFloat(math.Abs(tm.v), 'g', 3, 64))
	}
	return b.String()
}

// value says input column i's value in the row whose features are x, the
// column's first feature at j: a number (6 significant digits; the fill,
// without a missing-value feature, with "or missing", as a missing field
// reads so) or a quoted level, with ok true; else missing, or an unseen value (missing or
// an unseen value, for a categorical column without a missing-value
// feature).
func (p *Plan) value(i, j int, x []float64) (v string, ok bool) {
	in := &p.schema.Inputs[i]
	if in.MissingFeature && x[j+in.Width()-1] == 1 {
		return "missing", false
	}
	if in.Kind == runtime.Numeric {
		v := strconv.FormatFloat(x[j], 'g', 6, 64)
		if !in.MissingFeature && x[j] == in.Fill { // a missing field reads as its fill
			v += " or missing"
		}
		return v, true
	}
	for l, level := range in.Levels {
		if x[j+l] == 1 {
			return strconv.Quote(level), true
		}
	}
	if !in.MissingFeature {
		return "missing or an unseen value", false
	}
	return "an unseen value", false
}

// centres returns, for each input column, what linearTest centres node's
// terms of it on: a number's median (its fill; 0 for a model without a
// schema) and a categorical column's mean level weight (0 for a number).
// A row sets one level of a categorical column (unless it is missing or
// unseen), so what moves the margin is how far a level's weight is from
// the others': its term is that distance, and the mean goes into the
// threshold. t is the threshold the centred terms' sum is compared with:
// -b + sum_j a_j (shift_j - centre_j) less the columns' mean level
// weights (linearTest).
func (p *Plan) centres(node int) (centre, mean []float64, t float64) {
	c := &p.centred[p.index[node]]
	return c.centre, c.mean, c.t
}

// centred is what centres returns of a node, made once by NewPlan
// (centresOf).
type centred struct {
	centre, mean []float64
	t            float64
}

// centresOf computes centres' values of node.
func (p *Plan) centresOf(node int) (centre, mean []float64, t float64) {
	m := p.Classifier.Model
	s := p.schema
	centre, mean = make([]float64, len(s.Inputs)), make([]float64, len(s.Inputs))
	t = -p.Classifier.Bias(node)
	for i, j := range p.first {
		in := &s.Inputs[i]
		switch n := len(in.Levels); {
		case in.Kind == runtime.Numeric && !math.IsNaN(in.Fill):
			centre[i] = in.Fill
		case in.Kind == runtime.Categorical && n > 0:
			for f := range n {
				a, _ := m.RawWeight(node, j+f)
				mean[i] += a
			}
			mean[i] /= float64(n)
		}
		t -= mean[i]
		for f := range in.Width() {
			a, shift := m.RawWeight(node, j+f)
			t += shift
			if f == 0 && in.Kind == runtime.Numeric && centre[i] != 0 {
				t -= a * centre[i]
			}
		}
	}
	return centre, mean, t
}

// operand returns a column's name as it stands in a sum: quoted (Go's
// quoting) where it would not read as one name, as "Na - K", "Mg*2" or
// "free sulfur".
func operand(name string) string {
	if d := display(name); d != name || !strings.ContainsAny(name, "+-*/()[]=<>\" \t") {
		return d
	}
	return strconv.Quote(name)
}

// recordDoc is the package comment's paragraph on the record API.
func recordDoc(m *runtime.Model) string {
	if m.Schema == nil {
		return ""
	}
	return fmt.Sprintf(`

Records: Input has a field per input column of the training file (%d
columns encoded into the %d features). PredictInput classifies a record and
ExplainInput says why, in the columns' terms; Encode gives the feature
vector Predict reads.`, len(m.Schema.Inputs), m.Features)
}

// renderRecord emits the record API of a model with a schema.
func (p *Plan) renderRecord(f *jen.File) {
	s := p.Classifier.Model.Schema
	ids := fieldNames(s)
	missing := append([]string{""}, s.Missing...)
	quoted := make([]string, len(missing))
	// The missing tokens of a categorical column's switch: those holding
	// U+FFFD apart (replaced), since a value whose invalid bytes become
	// U+FFFD is not missing but unseen, as runtime.Encoder reads it.
	var cases, replaced []jen.Code
	for i, t := range missing {
		quoted[i] = strconv.Quote(t)
		if strings.ContainsRune(t, utf8.RuneError) {
			replaced = append(replaced, jen.Lit(t))
		} else {
			cases = append(cases, jen.Lit(t))
		}
	}

	comment(f, "NumColumns is the number of input columns: the fields of Input.")
	f.Const().Id("NumColumns").Op("=").Lit(len(s.Inputs))
	comment(f, "ColumnNames are the input columns' names in the training file, in the order\nof Input's fields.")
	f.Var().Id("ColumnNames").Op("=").Index(jen.Id("NumColumns")).String().Add(list(litValues(s.Names(), litOf)))
	comment(f, "FeatureNames name the features of the vector Predict reads, as Encode fills\nit: a numeric column's name, NAME=LEVEL for a category, NAME=(missing) for the\nfeature that says a column is missing.")
	f.Var().Id("FeatureNames").Op("=").Index(jen.Id("NumFeatures")).String().Add(list(litValues(s.FeatureNames(), litOf)))

	comment(f, fmt.Sprintf(`Input is one record, a field per input column of the training file.

A numeric field is missing when it is NaN or an infinity; it then reads as
the column's training median. A numeric field left unset is 0, a value like
any other: set it to math.NaN() where the number is missing. A categorical
field is missing when it is one of %s; any other value
not listed in its comment was seen in no training row (unseen) and sets none
of the column's features.
A value is read as songc reads a CSV field: spaces around it are removed,
and bytes that are not UTF-8 become U+FFFD.`, strings.Join(quoted, ", ")))
	f.Type().Id("Input").StructFunc(func(g *jen.Group) {
		for i, in := range s.Inputs {
			var doc string
			if in.Kind == runtime.Numeric {
				// Ten digits: a median halfway between two values prints
				// 12.975, not 12.975000000000001; the code holds it exactly.
				doc = fmt.Sprintf("%s is column %s, a number; missing reads as %s, its training rows' median.", ids[i], strconv.Quote(in.Name), strconv.FormatFloat(in.Fill, 'g', 10, 64))
				g.Comment(doc)
				g.Id(ids[i]).Float64()
			} else {
				doc = fmt.Sprintf("%s is column %s, one of %s.", ids[i], strconv.Quote(in.Name), quotedList(in.Levels, maxDocumented))
				if len(in.Levels) > maxDocumented {
					doc += " FeatureNames lists them all."
				}
				g.Comment(doc)
				g.Id(ids[i]).String()
			}
		}
	})

	comment(f, "Encode writes the feature vector of in to x, as songc encodes a row of a\nCSV file, and reports whether a categorical field held an unseen value.")
	f.Func().Id("Encode").Params(jen.Id("x").Op("*").Index(jen.Id("NumFeatures")).Float64(), jen.Id("in").Op("*").Id("Input")).Params(jen.Id("unseen").Bool()).BlockFunc(func(g *jen.Group) {
		for i, in := range s.Inputs {
			o, field := p.first[i], jen.Id("in").Dot(ids[i])
			if in.Kind == runtime.Numeric {
				present := []jen.Code{jen.Id("x").Index(jen.Lit(o)).Op("=").Id("v")}
				absent := []jen.Code{jen.Id("x").Index(jen.Lit(o)).Op("=").Add(lit(in.Fill))}
				if in.MissingFeature {
					present = append(present, jen.Id("x").Index(jen.Lit(o+1)).Op("=").Lit(0))
					absent = append(absent, jen.Id("x").Index(jen.Lit(o+1)).Op("=").Lit(1))
				}
				// v-v is 0 for a finite v, NaN for NaN and the infinities.
				g.If(jen.Id("v").Op(":=").Add(field), jen.Id("v").Op("-").Id("v").Op("==").Lit(0)).Block(present...).Else().Block(absent...)
			} else {
				g.Clear(jen.Id("x").Index(jen.Lit(o), jen.Lit(o+in.Width())))
				// As runtime.Encoder reads a field: first the value as it
				// is (a level or a missing token, as a clean field holds
				// them), then, if that matches nothing, as fieldLevel
				// reads it (with spaces around it, or invalid UTF-8).
				missingFeature := jen.Id("x").Index(jen.Lit(o + len(in.Levels))).Op("=").Lit(1)
				g.For(jen.List(jen.Id("v"), jen.Id("again")).Op(":=").List(field, jen.True()), jen.Empty(), jen.Id("again").Op("=").False()).Block(
					jen.Switch(jen.Id("v")).BlockFunc(func(g *jen.Group) {
						for l, level := range in.Levels {
							g.Case(jen.Lit(level)).Block(jen.Id("x").Index(jen.Lit(o + l)).Op("=").Lit(1))
						}
						switch {
						case in.MissingFeature:
							g.Case(cases...).Block(missingFeature)
						default:
							g.Case(cases...).Comment("missing: no feature")
						}
						switch {
						case replaced != nil && in.MissingFeature:
							g.Case(replaced...).If(jen.Id("again")).Block(missingFeature).Else().Block(jen.Id("unseen").Op("=").True())
						case replaced != nil:
							g.Case(replaced...).If(jen.Op("!").Id("again")).Block(jen.Id("unseen").Op("=").True()).Comment("else missing: no feature")
						}
						g.Default().Block(
							jen.If(jen.Id("w").Op(":=").Id("fieldLevel").Call(jen.Id("v")), jen.Id("again").Op("&&").Id("w").Op("!=").Id("v")).Block(
								jen.Id("v").Op("=").Id("w"),
								jen.Continue(),
							),
							jen.Id("unseen").Op("=").True(),
						)
					}),
					jen.Break(),
				)
			}
		}
		g.Return()
	})

	if categorical(s) {
		comment(f, "fieldLevel returns a categorical value as songc reads a CSV field: with spaces\naround it removed and bytes that are not UTF-8 replaced by U+FFFD.")
		f.Func().Id("fieldLevel").Params(jen.Id("v").String()).String().Block(
			jen.Return(jen.Qual("strings", "ToValidUTF8").Call(jen.Qual("strings", "TrimSpace").Call(jen.Id("v")), jen.Lit("\uFFFD"))),
		)
	}

	comment(f, "PredictInput returns the class index that the hard walk reaches for the\nrecord in. It allocates nothing (but for a categorical value that is not\nvalid UTF-8).")
	f.Func().Id("PredictInput").Params(jen.Id("in").Op("*").Id("Input")).Int().Block(
		jen.Var().Id("x").Index(jen.Id("NumFeatures")).Float64(),
		jen.Id("Encode").Call(jen.Op("&").Id("x"), jen.Id("in")),
		jen.Return(jen.Id("Predict").Call(jen.Op("&").Id("x"))),
	)

	cols := make([]int, len(p.Nodes))
	tests := make([][2]string, len(p.Nodes))
	for e := range p.Nodes {
		cols[e], tests[e] = p.nodeTest(e)
	}
	comment(f, "nodeColumn is the input column emitted node i tests, or -1 when its filter\nreads several; nodeTest[i][d] says its test as decision d takes it.")
	f.Var().Id("nodeColumn").Op("=").Index(jen.Id("numNodes")).Int().Add(list(litValues(cols, litOf)))
	f.Var().Id("nodeTest").Op("=").Index(jen.Id("numNodes")).Index(jen.Lit(2)).String().Add(list(values(len(tests), func(i int) (jen.Code, int) {
		return litValues(tests[i][:], litOf)
	})))

	comment(f, "InputDecision is one step of a walk, as ExplainInput reports it.")
	f.Type().Id("InputDecision").Struct(
		jen.Id("Decision"),
		jen.Id("Column").Int().Comment("the input column the node tests alone, or -1 when it weighs several (see Margin)"),
		jen.Id("Test").String().Comment(`the test as the walk took it, such as "age > 38.5" or "sex = \"F\""; for several columns, its largest terms, such as "0.05*(age - 38) - 1.2*[sex = \"F\"] + 4 smaller terms > -0.3", each term centred on a typical row (a number on its median); empty where the node weighs no column and its bias alone decides`),
	)
	comment(f, `ExplainInput returns the class of the record in and the walk's decisions,
appended to path[:0], each with its test in the terms of the input columns:
a threshold (to 6 significant digits) or a category where its node tests
one column, its largest terms where it weighs several (the walk decides by
the margin's sign; the test's numbers are rounded). It allocates nothing when
cap(path) >= Steps.`)
	f.Func().Id("ExplainInput").Params(jen.Id("in").Op("*").Id("Input"), jen.Id("path").Index().Id("InputDecision")).Params(jen.Int(), jen.Index().Id("InputDecision")).BlockFunc(func(g *jen.Group) {
		g.Var().Id("rec").Index(jen.Id("NumFeatures")).Float64()
		g.Id("Encode").Call(jen.Op("&").Id("rec"), jen.Id("in"))
		g.Id("x").Op(":=").Op("&").Id("rec")
		p.walk(g, func(d jen.Code) jen.Code {
			return jen.Id("InputDecision").Values(jen.Dict{
				jen.Id("Decision"): d,
				jen.Id("Column"):   jen.Id("nodeColumn").Index(jen.Id("i")),
				jen.Id("Test"):     jen.Id("nodeTest").Index(jen.Id("i")).Index(jen.Id("d")),
			})
		})
	})
}
