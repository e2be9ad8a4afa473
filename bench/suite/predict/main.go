// Command predict builds the prediction-cost benchmark of bench/suite.sh:
// a Go module, in a folder of its own, that holds songc's compiled
// classifier of one set, that set's scikit-learn CART tree and XGBoost
// model exported to Go by this command, and the set's test rows; its tests
// check that each exported model predicts what the Python model predicted
// on every test row, and its benchmarks time one prediction of each,
// visiting the test rows in a shuffled order (in file order a CPU learns a
// tree's branch sequence, and trees look several times faster than they
// are).
//
//	go run ./bench/suite/predict -models DIR -name NAME -classifier FILE.go -test TEST.csv -o OUTDIR
//
// DIR holds baselines.py's NAME.cart.json, NAME.xgb.json, NAME.xgb.meta.json
// and NAME.{cart,xgboost}.pred.json; FILE.go is songc compile's output for
// the set's model (package classifier).
//
// The exported code follows the libraries' own arithmetic, so that it
// decides alike bit for bit: scikit-learn's trees read inputs as float32
// and go left when float64(float32(x)) <= threshold; XGBoost reads
// float32, goes "yes" when x < float32(threshold), and adds float32 leaf
// values in tree order to a margin per class (trees interleaved by class)
// that starts at 0.5 (multi-class) or 0 (binary: class 1 when the margin is
// > 0).
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"go/format"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/songc/songc/runtime"
)

type cart struct {
	Feature   []int     `json:"feature"`
	Threshold []float64 `json:"threshold"`
	Left      []int     `json:"left"`
	Right     []int     `json:"right"`
	Class     []int     `json:"class"`
}

type xgbNode struct {
	NodeID   int       `json:"nodeid"`
	Split    string    `json:"split"`
	Cond     float64   `json:"split_condition"`
	Yes      int       `json:"yes"`
	No       int       `json:"no"`
	Missing  int       `json:"missing"`
	Leaf     *float64  `json:"leaf"`
	Children []xgbNode `json:"children"`
}

func main() {
	models := flag.String("models", "", "folder of baselines.py's model files")
	name := flag.String("name", "", "set name")
	clf := flag.String("classifier", "", "songc compile's classifier.go for the set")
	test := flag.String("test", "", "the set's test CSV (header, features, label)")
	raw := flag.String("raw", "", "the set's test rows as songc read them (CSV, gzip'd or not), for a classifier that takes records")
	out := flag.String("o", "", "output folder (a new Go module)")
	flag.Parse()
	if *models == "" || *name == "" || *clf == "" || *test == "" || *out == "" {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*models, *name, *clf, *test, *raw, *out); err != nil {
		log.Fatalf("predict: %v", err)
	}
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}

func run(models, name, clf, test, raw, out string) error {
	var c cart
	if err := readJSON(filepath.Join(models, name+".cart.json"), &c); err != nil {
		return err
	}
	var trees []xgbNode
	if err := readJSON(filepath.Join(models, name+".xgb.json"), &trees); err != nil {
		return err
	}
	var meta struct {
		Classes int `json:"classes"`
	}
	if err := readJSON(filepath.Join(models, name+".xgb.meta.json"), &meta); err != nil {
		return err
	}
	files := map[string][]byte{}
	var b bytes.Buffer

	// CART: a loop over the node arrays.
	fmt.Fprintf(&b, "package bench\n\nvar cartFeature = %#v\nvar cartThreshold = %#v\nvar cartLeft = %#v\nvar cartRight = %#v\nvar cartClass = %#v\n",
		c.Feature, c.Threshold, c.Left, c.Right, c.Class)
	b.WriteString(`
// predictCART walks scikit-learn's tree: left when float64(float32(x)) <= threshold.
func predictCART(x []float64) int {
	i := 0
	for cartLeft[i] >= 0 {
		if float64(float32(x[cartFeature[i]])) <= cartThreshold[i] {
			i = cartLeft[i]
		} else {
			i = cartRight[i]
		}
	}
	return cartClass[i]
}
`)
	files["cart.go"] = b.Bytes()

	// XGBoost: one function per tree, nested ifs.
	b = bytes.Buffer{}
	k := meta.Classes
	outputs := k
	if k == 2 {
		outputs = 1
	}
	b.WriteString("package bench\n\n")
	for t, tree := range trees {
		fmt.Fprintf(&b, "func xgbTree%d(x []float32) float32 {\n", t)
		if err := writeXGB(&b, tree, 1); err != nil {
			return fmt.Errorf("tree %d: %v", t, err)
		}
		b.WriteString("}\n\n")
	}
	fmt.Fprintf(&b, "// predictXGB adds the trees' leaves per class in tree order, in float32.\nfunc predictXGB(x []float64) int {\n\tvar f [%d]float32\n\tfor i, v := range x {\n\t\tf[i] = float32(v)\n\t}\n\tvar m [%d]float32\n", len(firstRow(test)), outputs)
	if outputs > 1 {
		b.WriteString("\tfor i := range m {\n\t\tm[i] = 0.5\n\t}\n")
	}
	for t := range trees {
		fmt.Fprintf(&b, "\tm[%d] += xgbTree%d(f[:])\n", t%outputs, t)
	}
	if outputs == 1 {
		b.WriteString("\tif m[0] > 0 {\n\t\treturn 1\n\t}\n\treturn 0\n}\n")
	} else {
		b.WriteString("\tbest := 0\n\tfor i, v := range m {\n\t\tif v > m[best] {\n\t\t\tbest = i\n\t\t}\n\t}\n\treturn best\n}\n")
	}
	files["xgb.go"] = b.Bytes()

	// The songc classifier, as compiled, in a package of its own.
	src, err := os.ReadFile(clf)
	if err != nil {
		return err
	}
	files["classifier/classifier.go"] = src
	testCSV, err := os.ReadFile(test)
	if err != nil {
		return err
	}
	files["testdata/test.csv"] = testCSV
	for _, m := range []string{"cart", "xgboost"} {
		p, err := os.ReadFile(filepath.Join(models, name+"."+m+".pred.json"))
		if err != nil {
			return err
		}
		files["testdata/"+m+".pred.json"] = p
	}
	files["go.mod"] = []byte("module bench\n\ngo 1.26\n")
	files["bench_test.go"] = []byte(benchTest)
	// songc's benchmark: on the prepared rows, or, for a classifier that
	// takes records, on the raw test rows as records (PredictInput) and
	// encoded once (Predict).
	files["songc_test.go"] = []byte(songcBench)
	if bytes.Contains(src, []byte("func PredictInput(")) {
		if raw == "" {
			return fmt.Errorf("%s takes records: give -raw, the test rows songc read", clf)
		}
		rows, err := readMaybeGzip(raw)
		if err != nil {
			return err
		}
		files["testdata/raw.csv"] = rows
		files["songc_test.go"] = []byte(strings.Replace(songcRecordsBench, "MISSING_TOKENS", missingLiteral(), 1))
	}
	for path, content := range files {
		if strings.HasSuffix(path, ".go") {
			if content, err = format.Source(content); err != nil {
				return fmt.Errorf("%s: %v", path, err)
			}
		}
		full := filepath.Join(out, path)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, content, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// firstRow returns the feature names of a CSV's header.
func firstRow(path string) []string {
	b, _ := os.ReadFile(path)
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Split(line, ",")
	return f[:len(f)-1]
}

func writeXGB(b *bytes.Buffer, n xgbNode, depth int) error {
	ind := strings.Repeat("\t", depth)
	if n.Leaf != nil {
		fmt.Fprintf(b, "%sreturn %v\n", ind, float32(*n.Leaf))
		return nil
	}
	var f int
	if _, err := fmt.Sscanf(n.Split, "f%d", &f); err != nil {
		return fmt.Errorf("split %q: %v", n.Split, err)
	}
	var yes, no *xgbNode
	for i := range n.Children {
		switch n.Children[i].NodeID {
		case n.Yes:
			yes = &n.Children[i]
		case n.No:
			no = &n.Children[i]
		}
	}
	if yes == nil || no == nil {
		return fmt.Errorf("node %d: children %d and %d not found", n.NodeID, n.Yes, n.No)
	}
	fmt.Fprintf(b, "%sif x[%d] < %v {\n", ind, f, float32(n.Cond))
	if err := writeXGB(b, *yes, depth+1); err != nil {
		return err
	}
	fmt.Fprintf(b, "%s}\n", ind)
	return writeXGB(b, *no, depth)
}

const benchTest = `package bench

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

)

// rows reads the test CSV: features and the label's class index, in
// sorted-name order as scikit-learn's and XGBoost's indices are.
func rows(t testing.TB) ([][]float64, []string) {
	b, err := os.ReadFile("testdata/test.csv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")[1:]
	x := make([][]float64, len(lines))
	y := make([]string, len(lines))
	for i, l := range lines {
		f := strings.Split(l, ",")
		for _, v := range f[:len(f)-1] {
			n, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatal(err)
			}
			x[i] = append(x[i], n)
		}
		y[i] = f[len(f)-1]
	}
	return x, y
}

func preds(t testing.TB, model string) (classes []string, p []int) {
	var v struct {
		Classes     []string ` + "`json:\"classes\"`" + `
		Predictions []int    ` + "`json:\"predictions\"`" + `
	}
	b, err := os.ReadFile("testdata/" + model + ".pred.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v.Classes, v.Predictions
}

// TestSameAsPython: the exported CART and XGBoost models predict what the
// Python models predicted, on every test row.
func TestSameAsPython(t *testing.T) {
	x, _ := rows(t)
	for _, m := range []struct {
		name    string
		predict func([]float64) int
	}{{"cart", predictCART}, {"xgboost", predictXGB}} {
		_, want := preds(t, m.name)
		if len(want) != len(x) {
			t.Fatalf("%s: %d predictions for %d rows", m.name, len(want), len(x))
		}
		for i, row := range x {
			if got := m.predict(row); got != want[i] {
				t.Errorf("%s: row %d: Go says %d, Python said %d", m.name, i+1, got, want[i])
			}
		}
	}
}

// order is a fixed shuffle of the row indices.
func order(n int) []int {
	return rand.New(rand.NewPCG(1, 2)).Perm(n)
}

var sink int

func BenchmarkCART(b *testing.B) {
	x, _ := rows(b)
	ord := order(len(x))
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		sink += predictCART(x[ord[i%len(ord)]])
	}
}

func BenchmarkXGBoost(b *testing.B) {
	x, _ := rows(b)
	ord := order(len(x))
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		sink += predictXGB(x[ord[i%len(ord)]])
	}
}
`

const songcBench = `package bench

import (
	"testing"

	"bench/classifier"
)

func BenchmarkSongc(b *testing.B) {
	x, _ := rows(b)
	v := make([][classifier.NumFeatures]float64, len(x))
	for i, r := range x {
		copy(v[i][:], r)
	}
	ord := order(len(x))
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		sink += classifier.Predict(&v[ord[i%len(ord)]])
	}
}
`

// songcRecordsBench times a classifier that takes records on the raw test
// rows: PredictInput (encoding and walk, what a service calls) and Predict
// on the rows encoded once.
const songcRecordsBench = `package bench

import (
	"encoding/csv"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"bench/classifier"
)

// missingTokens are the fields besides an empty one that mean missing:
// songc's default tokens.
var missingTokens = map[string]bool{MISSING_TOKENS}

// records reads testdata/raw.csv as records: columns by name, a missing
// numeric field NaN, a missing categorical one "".
func records(t testing.TB) []classifier.Input {
	f, err := os.Open("testdata/raw.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cr := csv.NewReader(f)
	cr.TrimLeadingSpace = true
	recs, err := cr.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for j, n := range recs[0] {
		col[strings.TrimSpace(n)] = j
	}
	out := make([]classifier.Input, len(recs)-1)
	for i, r := range recs[1:] {
		v := reflect.ValueOf(&out[i]).Elem()
		for k, name := range classifier.ColumnNames {
			j, ok := col[name]
			if !ok {
				t.Fatalf("raw.csv has no column %q", name)
			}
			fv := strings.TrimSpace(r[j])
			missing := fv == "" || missingTokens[fv]
			if v.Field(k).Kind() == reflect.Float64 {
				x := math.NaN()
				if !missing {
					if x, err = strconv.ParseFloat(fv, 64); err != nil {
						t.Fatal(err)
					}
				}
				v.Field(k).SetFloat(x)
			} else if !missing {
				v.Field(k).SetString(fv)
			}
		}
	}
	return out
}

func BenchmarkSongc(b *testing.B) {
	in := records(b)
	v := make([][classifier.NumFeatures]float64, len(in))
	for i := range in {
		classifier.Encode(&v[i], &in[i])
	}
	ord := order(len(in))
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		sink += classifier.Predict(&v[ord[i%len(ord)]])
	}
}

func BenchmarkSongcInput(b *testing.B) {
	in := records(b)
	ord := order(len(in))
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		sink += classifier.PredictInput(&in[ord[i%len(ord)]])
	}
}
`

// readMaybeGzip returns the bytes of the file at path, decompressed when
// it is gzip'd.
func readMaybeGzip(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		return b, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return io.ReadAll(zr)
}

// missingLiteral is runtime.DefaultMissing as the entries of a Go
// map[string]bool literal, for the records benchmark.
func missingLiteral() string {
	var b strings.Builder
	for _, tok := range runtime.DefaultMissing {
		fmt.Fprintf(&b, "%q: true, ", tok)
	}
	return b.String()
}
