package runtime

import (
	"bytes"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	goruntime "runtime"
	"strings"
	"testing"
)

// tiny is a hand-made model: 2 nodes, 2 classes, 3 features.
//
//	node 0: right iff x0 > 0.5 (w = (1,0,0), b = -0.5); left -> node 1, right -> leaf "yes"
//	node 1: right iff x1 > 0   (w = (0,1,0), b = 0);    left -> leaf "no", right -> node 0
func tiny() *Model {
	return &Model{
		Format: Format, Nodes: 2, Classes: 2, Steps: 4, Features: 3,
		ClassNames: []string{"no", "yes"},
		// Rows are destinations (node 0, node 1, leaf no, leaf yes), columns sources.
		M0Logits: [][]float64{{0, 0}, {5, 0}, {0, 5}, {0, 0}},
		M1Logits: [][]float64{{0, 5}, {0, 0}, {0, 0}, {5, 0}},
		W:        [][]float64{{1, 0, 0}, {0, 1, 0}},
		B:        []float64{-0.5, 0},
	}
}

func TestValidateNamesTheField(t *testing.T) {
	for _, tc := range []struct {
		name   string
		break_ func(m *Model)
		want   string
	}{
		{"format", func(m *Model) { m.Format = "songc-model/9" }, `field format: unknown format "songc-model/9"`},
		{"missing format", func(m *Model) { m.Format = "" }, "field format: missing"},
		{"negative nodes", func(m *Model) { m.Nodes = -1 }, "field nodes: -1 is out of range"},
		{"absurd features", func(m *Model) { m.Features = 1 << 40 }, "field features: 1099511627776 is out of range"},
		{"one class", func(m *Model) { m.Classes = 1 }, "field classes: 1 is out of range"},
		{"names", func(m *Model) { m.ClassNames = []string{"x"} }, "field class_names: has 1 names, want classes = 2"},
		{"duplicate names", func(m *Model) { m.ClassNames = []string{"x", "x"} }, `field class_names[1]: duplicates class_names[0] "x"`},
		{"rows", func(m *Model) { m.M0Logits = m.M0Logits[:3] }, "field M0_logits: has 3 rows, want 4"},
		{"cols", func(m *Model) { m.M1Logits[2] = []float64{1} }, "field M1_logits[2]: has 1 values, want 2"},
		{"NaN", func(m *Model) { m.W[1][2] = math.NaN() }, "field W[1][2]: is NaN; want a finite number"},
		{"Inf", func(m *Model) { m.B[0] = math.Inf(1) }, "field b[0]: is +Inf"},
		{"shift", func(m *Model) { m.InputShift = []float64{1} }, "field input_shift: has 1 values, want 3"},
	} {
		m := tiny()
		tc.break_(m)
		err := m.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	m := tiny()
	m.W[0][1] = 0.1 + 0.2 // not exactly representable: must survive exactly
	m.InputScale = []float64{1, 2, math.SmallestNonzeroFloat64}
	m.Training = []byte(`{"seed":1}`)
	var a, b bytes.Buffer
	if err := m.Encode(&a); err != nil {
		t.Fatal(err)
	}
	got, err := Decode(bytes.NewReader(a.Bytes()), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	if got.W[0][1] != m.W[0][1] || got.InputScale[2] != m.InputScale[2] {
		t.Errorf("floats changed: %v %v", got.W[0], got.InputScale)
	}
	got.Encode(&b)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Errorf("re-encoding differs:\n%s\n%s", a.Bytes(), b.Bytes())
	}
}

func TestDecodeErrors(t *testing.T) {
	var good bytes.Buffer
	tiny().Encode(&good)
	for _, tc := range []struct{ name, text, want string }{
		{"empty", "", "m.json: model file is empty or truncated"},
		{"truncated", good.String()[:good.Len()/2], "m.json: model file is empty or truncated"},
		{"syntax", `{"format": x}`, "m.json: offset"},
		{"a data file", "a,b,y\n1,2,x\n", "m.json: not a model file: songc's models are the JSON files songc train writes (-o)"},
		{"gzip", "\x1f\x8b\x08", "m.json: not a model file"},
		{"numbers", "1.5,2,x\n", "m.json: not a model file"},
		{"byte order mark", "\ufeff{}", "m.json: the model file starts with a byte order mark"},
		{"type", `{"format": "songc-model/1", "nodes": "four"}`, "m.json: field nodes"},
		{"unknown field", `{"format": "songc-model/1", "nodez": 4}`, `unknown field "nodez"`},
		{"other JSON", `{"a": 1}`, `m.json: not a model file: songc's models are the JSON files songc train writes (-o), and this one has no "format" field and a field no model has, "a"`},
		{"trailing", good.String() + "{}", "trailing data"},
		{"shape", strings.Replace(good.String(), `"features": 3`, `"features": 4`, 1), "m.json: field W[0]: has 3 values, want 4"},
	} {
		_, err := Decode(strings.NewReader(tc.text), "m.json")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestLoadDirectory: a directory given for a model is said to be one.
func TestLoadDirectory(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(dir); err == nil || err.Error() != dir+": is a directory, not a model file: songc's models are the JSON files songc train writes (-o)" {
		t.Errorf("error %v", err)
	}
}

// A file holding only the fields of issue 2 is a valid model.
func TestMinimalModelFile(t *testing.T) {
	text := `{"format": "songc-model/1", "nodes": 1, "classes": 2, "steps": 1, "features": 1,
 "M0_logits": [[0], [1], [0]], "M1_logits": [[0], [0], [1]], "W": [[1]], "b": [0]}`
	m, err := Decode(strings.NewReader(text), "min.json")
	if err != nil {
		t.Fatal(err)
	}
	if m.ClassNames[0] != "0" || m.ClassNames[1] != "1" {
		t.Errorf("default class names %q", m.ClassNames)
	}
}

func TestWalkRules(t *testing.T) {
	k, err := New(tiny())
	if err != nil {
		t.Fatal(err)
	}
	scratch := make([]float64, 3)
	for _, tc := range []struct {
		x      []float64
		class  int
		steps  int
		forced bool
	}{
		{[]float64{1, 0, 0}, 1, 1, false},                       // 0 -right-> yes
		{[]float64{0, -1, 0}, 0, 2, false},                      // 0 -left-> 1 -left-> no
		{[]float64{0.5, -1, 0}, 0, 2, false},                    // margin exactly 0 at node 0 goes left
		{[]float64{math.Nextafter(0.5, 1), -1, 0}, 1, 1, false}, // one ULP above: right
		{[]float64{0, 0, 0}, 0, 2, false},                       // margin 0 at node 1: left
		// x1 > 0 sends node 1 back to node 0, and x0 < 0.5 sends node 0 to
		// node 1: a cycle. After Steps = 4 decisions the walk is forced out
		// of node 1 through the leaf rows of its right column: "no" (both
		// leaf logits are 0, the tie goes to the lower class).
		{[]float64{0, 1, 0}, 0, 4, true},
	} {
		res, path := k.Walk(tc.x, scratch, []Step{})
		if res.Class != tc.class || res.Steps != tc.steps || res.Forced != tc.forced || len(path) != tc.steps {
			t.Errorf("x %v: got %+v (path %v), want class %d in %d steps forced %v", tc.x, res, path, tc.class, tc.steps, tc.forced)
		}
	}
}

func TestChildrenTiesGoLow(t *testing.T) {
	l := [][]float64{{1, 0}, {1, 2}, {0, 2}, {0, 2}}
	child, exit := Children(l, 2)
	if child[0] != 0 || child[1] != 1 || exit[0] != 2 || exit[1] != 2 {
		t.Errorf("children %v exits %v", child, exit)
	}
}

func TestSoftSumsToAtMostOne(t *testing.T) {
	k, _ := New(tiny())
	q := make([]float64, 2)
	sc := k.NewSoftScratch()
	for _, x := range [][]float64{{1, 0, 0}, {0, 1, 0}, {-3, 2, 9}} {
		k.Soft(q, x, sc)
		if s := q[0] + q[1]; s > 1+1e-15 || q[0] < 0 || q[1] < 0 {
			t.Errorf("x %v: leaf masses %v", x, q)
		}
	}
}

var errDiskFull = errors.New("no space left on device (simulated)")

// TestSaveIsAtomic: a write that fails midway leaves the previous file
// intact and no temporary file behind.
func TestSaveIsAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "m.json")
	if err := tiny().Save(p); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(p)
	bad := tiny()
	bad.B[0] = math.NaN()
	if err := bad.Save(p); err == nil {
		t.Fatal("saved a NaN model")
	}
	err := WriteFileAtomic(p, func(w io.Writer) error {
		w.Write([]byte("partial"))
		return errDiskFull
	})
	if err == nil {
		t.Fatal("write error lost")
	}
	after, _ := os.ReadFile(p)
	if !bytes.Equal(before, after) {
		t.Error("a failed write changed the file")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
	if _, err := Load(filepath.Join(dir, "missing", "m.json")); err == nil {
		t.Error("loaded a missing file")
	}
	if err := tiny().Save(filepath.Join(dir, "missing", "m.json")); err == nil {
		t.Error("saved into a missing folder")
	}
}

// TestAtomicErrorsNameNoTemp: WriteFileAtomic's errors name the path it
// writes, never its temporary file: a write to a closed file fails, and a
// rename over a folder that the write function put at path fails.
func TestAtomicErrorsNameNoTemp(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "gone.csv"))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := (tempWriter{f}).Write([]byte("x")); err == nil || strings.Contains(err.Error(), "gone.csv") {
		t.Errorf("a write to a closed file: %v, want an error without the file's name", err)
	}
	path := filepath.Join(dir, "out.csv")
	err = WriteFileAtomic(path, func(w io.Writer) error {
		return os.MkdirAll(filepath.Join(path, "full"), 0o755) // rename cannot replace a folder that holds something
	})
	if err == nil || !strings.Contains(err.Error(), "writing "+path+": ") || strings.Contains(err.Error(), ".tmp") {
		t.Errorf("a failed rename: %v, want it to name %s and no temporary file", err, path)
	}
}

// TestBalancedAndMajority: by hand, confusion [[3 1] [2 0]] (rows: true
// class) has recalls 3/4 and 0/2, so balanced accuracy 0.375; class 0 has
// 4 of the 6 rows, the majority baseline 4/6. A class without rows is
// left out of the mean: [[0 0] [1 1]] has balanced accuracy 1/2.
func TestBalancedAndMajority(t *testing.T) {
	if got := BalancedAccuracy([][]int{{3, 1}, {2, 0}}); got != 0.375 {
		t.Errorf("balanced %v, want 0.375", got)
	}
	if got := majority([][]int{{3, 1}, {2, 0}}); got != 4.0/6 {
		t.Errorf("majority %v, want 4/6", got)
	}
	if got := BalancedAccuracy([][]int{{0, 0}, {1, 1}}); got != 0.5 {
		t.Errorf("balanced with an empty class %v, want 0.5", got)
	}
	// A third row, a class the model lacks, has a recall of 0.
	if got := BalancedAccuracy([][]int{{3, 1}, {2, 0}, {1, 1}}); got != 0.25 {
		t.Errorf("balanced with a class the model lacks %v, want 0.25", got)
	}
}

// TestEvaluator: metrics accumulated row by row (what eval streams, a
// block of rows at a time) are those computed here directly from Walk
// and Soft, one row after another: accuracies, fidelity, forced exits,
// path lengths, both confusion matrices and the mean leaf mass to the
// bit, over more rows than an Evaluator holds at once, with rows of two
// classes the model lacks among them; and Evaluate, given all the rows at
// once, gives the same metrics.
func TestEvaluator(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, m := range []*Model{tiny(), randomModel(rng, 30, 4, 6, 12)} {
		k, err := New(m)
		if err != nil {
			t.Fatal(err)
		}
		d, c, rows := k.NumFeatures(), k.NumClasses(), 2*k.BlockRows()+45
		e := k.NewEvaluator()
		var hard, soft, agree, forced, paths, maxPath int
		var mass float64
		// Classes c and c+1 are ones the model lacks: rows after its own.
		confHard, confSoft := append(square(c), make([]int, c), make([]int, c)), append(square(c), make([]int, c), make([]int, c))
		q, scratch, sc := make([]float64, c), make([]float64, d), k.NewSoftScratch()
		x := make([]float64, d)
		var all []float64
		var ys []int
		for range rows {
			for j := range x {
				x[j] = 3 * rng.NormFloat64()
			}
			y := rng.IntN(c + 2)
			e.Add(x, y) // x is reused: Add must copy it
			all, ys = append(all, x...), append(ys, y)
			w, _ := k.Walk(x, scratch, nil)
			s := k.Soft(q, x, sc)
			for _, v := range q {
				mass += v
			}
			hard, soft, agree = hard+b2i(w.Class == y), soft+b2i(s == y), agree+b2i(s == w.Class)
			forced += b2i(w.Forced)
			paths, maxPath = paths+w.Steps, max(maxPath, w.Steps)
			confHard[y][w.Class]++
			confSoft[y][s]++
		}
		got := e.Metrics()
		n := float64(rows)
		if got.Rows != rows || got.HardAccuracy != float64(hard)/n || got.SoftAccuracy != float64(soft)/n ||
			got.Fidelity != float64(agree)/n || got.ForcedExits != forced ||
			got.MeanPathLen != float64(paths)/n || got.MaxPathLen != maxPath ||
			math.Float64bits(got.MeanLeafMass) != math.Float64bits(mass/n) ||
			!reflect.DeepEqual(got.ConfusionHard, confHard) || !reflect.DeepEqual(got.ConfusionSoft, confSoft) {
			t.Errorf("%d nodes: metrics %+v; want %d rows, hard %d, soft %d, agree %d, forced %d, paths %d (max %d), mass %v, confusion %v and %v",
				k.NumNodes(), got, rows, hard, soft, agree, forced, paths, maxPath, mass/n, confHard, confSoft)
		}
		if whole := k.Evaluate(all, ys); !reflect.DeepEqual(whole, got) {
			t.Errorf("%d nodes: Evaluate %+v; Add gave %+v", k.NumNodes(), whole, got)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// randomModel is a model of n nodes, c classes and d features with random
// parameters, whose soft walk spreads its mass over many nodes.
func randomModel(rng *rand.Rand, n, c, d, steps int) *Model {
	m := &Model{Format: Format, Nodes: n, Classes: c, Steps: steps, Features: d,
		M0Logits: make([][]float64, n+c), M1Logits: make([][]float64, n+c),
		W: make([][]float64, n), B: make([]float64, n)}
	for i := range c {
		m.ClassNames = append(m.ClassNames, string(rune('a'+i)))
	}
	for i := range n + c {
		m.M0Logits[i], m.M1Logits[i] = make([]float64, n), make([]float64, n)
		for j := range n {
			m.M0Logits[i][j], m.M1Logits[i][j] = 2*rng.NormFloat64(), 2*rng.NormFloat64()
		}
	}
	for i := range n {
		m.W[i] = make([]float64, d)
		for j := range d {
			m.W[i][j] = rng.NormFloat64()
		}
		m.B[i] = rng.NormFloat64()
	}
	return m
}

// TestSoftPlainLoop: Soft's leaf masses have the bits of the plain loop
// Soft's doc comment describes (here without skipping the nodes without
// mass, which add +0), for sizes whose columns (n+c) are and
// are not a multiple of addColumns' four.
func TestSoftPlainLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, size := range [][2]int{{13, 3}, {14, 3}, {15, 3}, {1, 2}, {40, 7}} {
		n, c, d := size[0], size[1], 5
		k, err := New(randomModel(rng, n, c, d, 9))
		if err != nil {
			t.Fatal(err)
		}
		S := n + c
		got, want := make([]float64, c), make([]float64, c)
		sc := k.NewSoftScratch()
		x, s, p, next := make([]float64, d), make([]float64, n), make([]float64, n), make([]float64, S)
		for range 20 {
			for j := range x {
				x[j] = rng.NormFloat64()
			}
			k.Soft(got, x, sc)
			for i := range n {
				s[i] = Sigmoid(k.Margin(i, x))
			}
			clear(p)
			p[0] = 1
			clear(want)
			for range k.steps {
				clear(next)
				for i, pi := range p {
					u1, u0 := s[i]*pi, (1-s[i])*pi
					for r := range next {
						next[r] += k.m1t[i*S+r]*u1 + k.m0t[i*S+r]*u0
					}
				}
				copy(p, next[:n])
				for j := range want {
					want[j] += next[n+j]
				}
			}
			for j := range want {
				if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
					t.Fatalf("n=%d c=%d: leaf %d mass %v, plain loop %v", n, c, j, got[j], want[j])
				}
			}
		}
	}
}

// TestEvaluatorCores: the metrics, the mean leaf mass to the bit
// included, are the same on one core and on three, over more rows than
// an Evaluator holds at once.
func TestEvaluatorCores(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	k, err := New(randomModel(rng, 30, 4, 6, 12))
	if err != nil {
		t.Fatal(err)
	}
	rows := 2*k.BlockRows() + 37
	x, y := make([]float64, rows*k.d), make([]int, rows)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	for i := range y {
		y[i] = rng.IntN(k.c)
	}
	var got [2]Metrics
	defer goruntime.GOMAXPROCS(goruntime.GOMAXPROCS(0))
	for i, procs := range []int{1, 3} {
		goruntime.GOMAXPROCS(procs)
		got[i] = k.Evaluate(x, y)
	}
	if !reflect.DeepEqual(got[0], got[1]) || math.Float64bits(got[0].MeanLeafMass) != math.Float64bits(got[1].MeanLeafMass) {
		t.Errorf("one core %+v\nthree cores %+v", got[0], got[1])
	}
	if got[0].Rows != rows {
		t.Errorf("%d rows measured, want %d", got[0].Rows, rows)
	}
}

// TestMarginRows checks that MarginRows gives Margin's bits on
// every row, for row counts on and off a multiple of four.
func TestMarginRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, d := range []int{1, 5, 64} {
		for _, rows := range []int{0, 1, 4, 7, 9} {
			w, x := make([]float64, d), make([]float64, rows*d)
			for i := range w {
				w[i] = rng.NormFloat64() * math.Exp2(float64(rng.IntN(30)-15))
			}
			for i := range x {
				x[i] = rng.NormFloat64() * math.Exp2(float64(rng.IntN(30)-15))
			}
			b := rng.NormFloat64()
			got := make([]float64, rows)
			MarginRows(got, w, b, x)
			for r, v := range got {
				if want := Margin(w, b, x[r*d:(r+1)*d]); math.Float64bits(v) != math.Float64bits(want) {
					t.Fatalf("d=%d rows=%d row %d: %v, Margin %v", d, rows, r, v, want)
				}
			}
		}
	}
}

// TestRawWeight checks that the raw weights and threshold reproduce a
// standardising model's margin on the inputs' own values.
func TestRawWeight(t *testing.T) {
	m := tiny()
	m.W = [][]float64{{1, -2, 0.5}, {0, 3, -1}}
	m.InputShift = []float64{10, -1, 0.25}
	m.InputScale = []float64{0.5, 2, 4}
	k, err := New(m)
	if err != nil {
		t.Fatal(err)
	}
	x, v := []float64{12, 0.5, -3}, make([]float64, 3)
	k.Preprocess(v, x)
	for i := range m.Nodes {
		sum, th := 0.0, -m.B[i]
		for j := range x {
			a, shift := m.RawWeight(i, j)
			sum += a * x[j]
			th += shift
		}
		if want := Margin(m.W[i], m.B[i], v); math.Abs(sum-th-want) > 1e-12 {
			t.Errorf("node %d: raw margin %v, standardised %v", i, sum-th, want)
		}
	}
	m.InputShift, m.InputScale = nil, nil
	if a, shift := m.RawWeight(1, 2); a != -1 || shift != 0 {
		t.Errorf("unstandardised RawWeight(1, 2) = %v, %v; want -1, 0", a, shift)
	}
}
