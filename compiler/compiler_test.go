package compiler

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"

	"github.com/songc/songc/internal/testmodels"
	"github.com/songc/songc/runtime"
)

// chain: node 0 -> node 2 (left) or leaf (right); node 2 -> leaves; node 1
// is unreachable.
func chain() *runtime.Model {
	return &runtime.Model{Format: runtime.Format, Nodes: 3, Classes: 2, Steps: 3, Features: 2,
		M0Logits: [][]float64{{0, 0, 0}, {0, 0, 0}, {5, 0, 0}, {0, 5, 5}, {0, 0, 0}},
		M1Logits: [][]float64{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {5, 5, 5}},
		W:        [][]float64{{1, -0.0}, {0, 1}, {-1, 1}}, B: []float64{0, 0, -0.0}}
}

func TestPlanReachableAndLayout(t *testing.T) {
	p, err := NewPlan(chain(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Nodes) != 2 || p.Nodes[0] != 0 || p.Nodes[1] != 2 {
		t.Errorf("emitted nodes %v, want [0 2]", p.Nodes)
	}
	if p.Layout != LayoutUnrolled || !strings.Contains(p.Why, "<= 8192") {
		t.Errorf("small model: %v (%s)", p.Layout, p.Why)
	}
	big, err := NewPlan(testmodels.MNISTShaped(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// 255 reachable nodes x 784 features = 199920 weights > UnrollLimit.
	if big.Layout != LayoutTables || len(big.Nodes) != 255 || !strings.Contains(big.Why, "199920 weights > 8192") {
		t.Errorf("MNIST-sized model: %v, %d nodes (%s)", big.Layout, len(big.Nodes), big.Why)
	}
}

func TestRenderSaysWhyAndNormalisesNegativeZero(t *testing.T) {
	src, p, err := Compile(chain(), Options{Package: "c", Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(src, []byte("// Layout: unrolled ("+p.Why+").")) {
		t.Error("the header does not say which layout was chosen and why")
	}
	if bytes.Contains(src, []byte("-0.0")) || bytes.Contains(src, []byte("-0 ")) {
		t.Errorf("negative zero rendered:\n%s", src)
	}
	if !bytes.Contains(src, []byte("var nodeID = [numNodes]int{0, 2}")) {
		t.Errorf("unreachable node emitted:\n%s", src)
	}
}

// TestHostileClassNames: very long names and names with control characters,
// quotes and Go syntax compile to source that parses and holds them exactly.
func TestHostileClassNames(t *testing.T) {
	m := chain()
	m.ClassNames = []string{strings.Repeat("x\"\\\n\t\x00", 20000), "`; panic(0) /*"}
	src, _, err := Compile(m, Options{Package: "c"})
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), "c.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	ast.Inspect(f, func(n ast.Node) bool {
		if bl, ok := n.(*ast.BasicLit); ok && bl.Kind == token.STRING {
			s, err := strconv.Unquote(bl.Value)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, s)
		}
		return true
	})
	if len(got) != 2 || got[0] != m.ClassNames[0] || got[1] != m.ClassNames[1] {
		t.Errorf("class names did not survive: %d literals", len(got))
	}
}

// TestFieldNames: the record's field names keep every script's letters and
// digits, capitalise words, start with an upper-case letter (X otherwise)
// and are unique, and each is a Go identifier that is exported.
func TestFieldNames(t *testing.T) {
	names := []string{"age", "Größe (cm)", "naïve bayes", "年龄", "2nd try", "ßig", "", "?!", "age", "Age_2", "x-ray"}
	want := []string{"Age", "GrößeCm", "NaïveBayes", "X年龄", "X2ndTry", "Xßig", "Column7", "Column8", "Age_9", "Age2", "XRay"}
	s := &runtime.Schema{}
	for _, n := range names {
		s.Inputs = append(s.Inputs, runtime.Input{Name: n})
	}
	got := fieldNames(s)
	seen := map[string]bool{}
	for i, id := range got {
		if id != want[i] {
			t.Errorf("column %q: field %q, want %q", names[i], id, want[i])
		}
		if !token.IsIdentifier(id) || !token.IsExported(id) || seen[id] {
			t.Errorf("column %q: field %q is not a new exported identifier", names[i], id)
		}
		seen[id] = true
	}
}

// TestLinearTest: a node that weighs several columns is described as an
// inequality in the columns' own units, each term centred (a number on its
// median, a level on its column's mean level weight), its largest terms
// first, that holds exactly where its margin is positive; past maxTerms,
// the rest are counted.
func TestLinearTest(t *testing.T) {
	m := ageSexModel()
	p, err := NewPlan(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	col, test := p.nodeTest(0)
	// sex's levels weigh 0 and 3: a row's sex moves the margin by 1.5
	// either way from their mean, less than a missing age's 2, and the
	// mean goes into the threshold: -1 - 1.5.
	want := `-2*[age is missing] - 1.5*[sex = "F"] + 1.5*[sex = "M"] + 1 smaller term`
	if col != -1 || test != [2]string{want + " <= -2.5", want + " > -2.5"} {
		t.Errorf("nodeTest: column %d, %q; want -1 and %q > -2.5", col, test, want)
	}
	// The whole inequality and the margin agree on every record with a
	// level of sex (a missing age reads as its fill, 40).
	for _, x := range [][]float64{{50, 0, 0, 1}, {20, 0, 1, 0}, {40, 1, 0, 1}, {60, 0, 1, 0}, {40, 1, 1, 0}, {40.04, 0, 1, 0}} {
		v := make([]float64, 4)
		p.Classifier.Preprocess(v, x)
		sum := -2*x[1] - 1.5*x[2] + 1.5*x[3] + 0.05*(x[0]-40)
		if (sum > -2.5) != (p.Classifier.Margin(0, v) > 0) {
			t.Errorf("record %v: the test says %v, the margin %v", x, sum > -2.5, p.Classifier.Margin(0, v))
		}
	}
	// Four terms: the smallest is counted, not shown. sex's levels now
	// weigh 2.9 and 3, nearly alike: it moves the margin least.
	m.W[0][2] = 2.9
	p, err = NewPlan(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, test := p.nodeTest(0); test[1] != `-2*[age is missing] + 0.05*(age - 40) - 0.05*[sex = "F"] + 1 smaller term > -3.95` {
		t.Errorf("four terms: %q", test[1])
	}
	// A name that would not read as one in a sum is quoted.
	m.Schema.Inputs[0].Name = "Na - K"
	p, err = NewPlan(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, test := p.nodeTest(0); !strings.Contains(test[1], `0.05*("Na - K" - 40)`) || !strings.Contains(test[1], `[Na - K is missing]`) {
		t.Errorf("a name of arithmetic: %q", test[1])
	}
	// So is one of two words.
	m.Schema.Inputs[0].Name = "fixed acidity"
	p, err = NewPlan(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, test := p.nodeTest(0); !strings.Contains(test[1], `0.05*("fixed acidity" - 40)`) {
		t.Errorf("a name of two words: %q", test[1])
	}
}

// ageSexModel returns a model of one node over age (numeric, with a
// missing-value feature) and sex (F, M), which reads 0.5·(age - 40)·0.1 -
// 2·[age missing] + 3·[sex = M] + 1.
func ageSexModel() *runtime.Model {
	return &runtime.Model{Format: runtime.FormatInputs, Nodes: 1, Classes: 2, Steps: 2, Features: 4,
		M0Logits: [][]float64{{0}, {5}, {0}}, M1Logits: [][]float64{{0}, {0}, {5}},
		W: [][]float64{{0.5, -2, 0, 3}}, B: []float64{1},
		InputShift: []float64{40, 0, 0, 0}, InputScale: []float64{0.1, 1, 1, 1},
		Schema: &runtime.Schema{Label: "y", Inputs: []runtime.Input{
			{Name: "age", Kind: runtime.Numeric, Fill: 40, MissingFeature: true},
			{Name: "sex", Kind: runtime.Categorical, Levels: []string{"F", "M"}},
		}}}
}

// TestReading: a row's reading of a test on several columns sums its
// columns' centred terms to the test's left side, which less the
// threshold is the node's margin (also for a category no training row
// had, where the test's own terms are not exact), and names the row's
// largest terms with their values; a test on one column reads the
// column's value.
func TestReading(t *testing.T) {
	// As TestLinearTest's node: 0.05·(age - 40) - 2·[age missing] -
	// 1.5·[sex = F] + 1.5·[sex = M] > -2.5, sex's mean weight 1.5.
	m := ageSexModel()
	p, err := NewPlan(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		x    []float64
		want string
	}{
		{[]float64{50, 0, 0, 1}, `2 > -2.5; largest terms: sex = "M" (+1.5), age = 50 (+0.5)`},
		{[]float64{20, 0, 1, 0}, `-2.5 <= -2.5; largest terms: sex = "F" (-1.5), age = 20 (-1)`},
		{[]float64{40, 1, 0, 1}, `-0.5 > -2.5; largest terms: age is missing (-2), sex = "M" (+1.5)`},
		// An unseen sex sets no level: its term is the mean's -1.5, and
		// the margin, -1, is -3.5 less -2.5.
		{[]float64{40, 1, 0, 0}, `-3.5 <= -2.5; largest terms: age is missing (-2), sex is missing or an unseen value (-1.5)`},
	} {
		if got := p.Reading(0, c.x); got != c.want {
			t.Errorf("Reading(%v) = %q, want %q", c.x, got, c.want)
		}
		v := make([]float64, 4)
		p.Classifier.Preprocess(v, c.x)
		lhs, th := 0.0, 0.0
		fmt.Sscanf(c.want, "%g", &lhs)
		_, rest, _ := strings.Cut(c.want, "> ")
		if strings.Contains(c.want, "<= ") {
			_, rest, _ = strings.Cut(c.want, "<= ")
		}
		fmt.Sscanf(rest, "%g", &th)
		if mg := p.Classifier.Margin(0, v); math.Abs(lhs-th-mg) > 1e-12 {
			t.Errorf("record %v: left side %g less threshold %g, margin %g", c.x, lhs, th, mg)
		}
	}
	// A test on one column: the row's value.
	m.W[0] = []float64{0, 0, 0, 3}
	p, err = NewPlan(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for x, want := range map[[4]float64]string{{40, 0, 0, 1}: `"M"`, {40, 0, 1, 0}: `"F"`, {40, 0, 0, 0}: "missing or an unseen value"} {
		if got := p.Reading(0, x[:]); p.Column(0) != 1 || got != want {
			t.Errorf("one column: Column %d, Reading(%v) = %q, want 1 and %q", p.Column(0), x, got, want)
		}
	}
	m.W[0] = []float64{0.5, -2, 0, 0}
	p, err = NewPlan(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, got2 := p.Reading(0, []float64{52.5, 0, 0, 1}), p.Reading(0, []float64{40, 1, 0, 1}); got != "52.5" || got2 != "missing" {
		t.Errorf("one numeric column: %q and %q, want 52.5 and missing", got, got2)
	}
	// A row whose terms are all 0 (its age the median, its sex's levels
	// alike) still reads.
	m.W[0] = []float64{0.5, 0, 3, 3}
	if p, err = NewPlan(m, Options{}); err != nil || p.Reading(0, []float64{40, 0, 1, 0}) != "0 > -4" {
		t.Errorf("at the centres: %v, %q, want 0 > -4", err, p.Reading(0, []float64{40, 0, 1, 0}))
	}
	// Without a missing-value feature, the fill may be a missing field.
	m2 := ageSexModel()
	m2.Features, m2.W, m2.InputShift, m2.InputScale = 3, [][]float64{{0.5, 0, 0}}, []float64{40, 0, 0}, []float64{0.1, 1, 1}
	m2.Schema.Inputs[0].MissingFeature = false
	if p, err := NewPlan(m2, Options{}); err != nil || p.Reading(0, []float64{40, 1, 0}) != "40 or missing" || p.Reading(0, []float64{41, 1, 0}) != "41" {
		t.Errorf("no missing-value feature: %v", err)
	}
	// No reading for a row of the wrong width, a node not in the model,
	// or one without weights.
	if got := p.Reading(0, []float64{50}) + p.Reading(7, []float64{50, 0, 0, 1}); got != "" {
		t.Errorf("no reading: %q", got)
	}
	m.W[0] = []float64{0, 0, 0, 0}
	if p, err = NewPlan(m, Options{}); err != nil || p.Reading(0, []float64{50, 0, 0, 1}) != "" {
		t.Errorf("a node without weights: %v, %q", err, p.Reading(0, []float64{50, 0, 0, 1}))
	}
}

// TestInputDocFill: the Input doc gives a numeric column's fill in ten
// digits, so that a median halfway between two values reads as a person
// would write it, while the code holds the fill exactly.
func TestInputDocFill(t *testing.T) {
	fill := (12.95 + 13.0) / 2 // 12.975000000000001
	m := &runtime.Model{Format: runtime.FormatInputs, Nodes: 1, Classes: 2, Steps: 2, Features: 1,
		M0Logits: [][]float64{{0}, {5}, {0}}, M1Logits: [][]float64{{0}, {0}, {5}},
		W: [][]float64{{1}}, B: []float64{-13},
		Schema: &runtime.Schema{Label: "y", Inputs: []runtime.Input{{Name: "ph", Kind: runtime.Numeric, Fill: fill}}}}
	src, _, err := Compile(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(src, []byte("missing reads as 12.975, its training rows' median.")) ||
		!bytes.Contains(src, []byte(strconv.FormatFloat(fill, 'g', -1, 64))) {
		t.Errorf("want the doc's 12.975 and the code's %v:\n%s", fill, src)
	}
}

// TestValuesWrap: a short list stays on one line; a long one (a model's
// hundreds of category levels, say) is wrapped at about lineWidth columns
// and keeps its values in order.
func TestValuesWrap(t *testing.T) {
	render := func(names []string) string {
		f := jen.NewFile("p")
		f.Var().Id("x").Op("=").Index().String().Add(list(litValues(names, litOf)))
		return fmt.Sprintf("%#v", f)
	}
	if got := render([]string{"a", "b"}); !strings.Contains(got, `var x = []string{"a", "b"}`) {
		t.Errorf("a short list is not on one line:\n%s", got)
	}
	var names []string
	for i := range 790 {
		names = append(names, fmt.Sprintf("purpose=level %d", i))
	}
	got := render(names)
	lines := strings.Split(got, "\n")
	for _, l := range lines {
		if len(l) > lineWidth+8 {
			t.Fatalf("a line of %d columns:\n%s", len(l), l)
		}
	}
	if len(lines) < 790/4 {
		t.Errorf("790 names on %d lines", len(lines))
	}
	if strings.Count(got, `"purpose=level `) != 790 || !strings.Contains(got, `"purpose=level 0", "purpose=level 1",`) || !strings.Contains(got, `"purpose=level 789",`) {
		t.Errorf("values lost or out of order:\n%s", got)
	}
}

// TestQuotedList: a list of levels longer than it may show counts the rest
// in words a person reading a test on the command line can use, naming no
// Go identifier.
func TestQuotedList(t *testing.T) {
	levels := []string{"a", "b", "c", `d"`}
	if got := quotedList(levels, 4); got != `{"a", "b", "c", "d\""}` {
		t.Errorf("all shown: %s", got)
	}
	if got := quotedList(levels, 2); got != `{"a", "b", and 2 more}` {
		t.Errorf("two shown: %s", got)
	}
}
