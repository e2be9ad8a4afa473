package golden

import (
	"compress/gzip"
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/songc/songc/compiler"
	"github.com/songc/songc/internal/shared"
	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer/data"
)

// recordsMain reads records, a tab-separated field per input column (a
// numeric field as float64 bits in hex, a categorical one Go-quoted), and
// prints, per record, PredictInput's class, ExplainInput's class, Encode's
// unseen flag and features (bits), and ExplainInput's decisions.
const recordsMain = `package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"

	gen "e2e/gen"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	buf := make([]gen.InputDecision, 0, gen.Steps)
	for in.Scan() {
		var rec gen.Input
		v := reflect.ValueOf(&rec).Elem()
		for j, f := range strings.Split(in.Text(), "\t") {
			if v.Field(j).Kind() == reflect.Float64 {
				u, _ := strconv.ParseUint(f, 16, 64)
				v.Field(j).SetFloat(math.Float64frombits(u))
			} else {
				s, _ := strconv.Unquote(f)
				v.Field(j).SetString(s)
			}
		}
		var x [gen.NumFeatures]float64
		unseen := gen.Encode(&x, &rec)
		c, path := gen.ExplainInput(&rec, buf)
		fmt.Fprintf(out, "%d %d %t", gen.PredictInput(&rec), c, unseen)
		for _, f := range x {
			fmt.Fprintf(out, " %x", math.Float64bits(f))
		}
		for _, d := range path {
			fmt.Fprintf(out, " %d:%x:%t:%d:%t:%q", d.Node, math.Float64bits(d.Margin), d.Right, d.Next, d.Forced, d.Test)
		}
		fmt.Fprintln(out)
	}
}
`

// TestRecordsEndToEnd proves the generated record API equal to songc
// predict --hard on every row of every tabular set of ../shared with
// categorical or missing columns: rows are read as predict reads them
// (data.OpenStream by the model's columns) and walked by the runtime, and
// the same rows, as records, go through the generated Encode, PredictInput
// and ExplainInput; features, unseen flags, classes and every decision
// must agree bit for bit, and each decision's test must read as the
// compiler's Plan.Tests says it (what songc predict --explain prints). To the test rows are added, for each column,
// copies of the first rows with that field missing and, for a categorical
// column, with a value seen in no training row. The model of each set is
// random over the set's inferred columns (many reachable nodes, some that
// test one column); whether it was trained does not change the encoding.
func TestRecordsEndToEnd(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatal("the go command is needed to build generated code")
	}
	dir := shared.Path(t, "data/tabular")
	paths, _ := filepath.Glob(filepath.Join(dir, "*.train.csv.gz"))
	tested := 0
	for i, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".train.csv.gz")
		train, err := data.Open(path, data.CSVOptions{})
		if err != nil {
			t.Fatal(err)
		}
		s := train.Schema
		special := false
		for _, in := range s.Inputs {
			special = special || in.Kind == runtime.Categorical || in.MissingFeature
		}
		if !special {
			continue
		}
		tested++
		t.Run(name, func(t *testing.T) {
			classes, err := train.ClassNames()
			if err != nil {
				t.Fatal(err)
			}
			m := randomRecordsModel(s, classes, train, uint64(i+1))
			rows := recordRows(t, []string{path, strings.Replace(path, ".train.", ".test.", 1)}, s)
			layout := []compiler.Layout{compiler.LayoutUnrolled, compiler.LayoutTables}[i%2]
			recordsEndToEnd(t, m, rows, layout)
		})
	}
	if tested < 5 {
		t.Errorf("only %d tabular sets have categorical or missing columns; want the 5 of the suite", tested)
	}
}

// recordsEndToEnd checks the generated record API of m on the CSV text
// rows (a header, then rows with the label last).
func recordsEndToEnd(t *testing.T, m *runtime.Model, rows string, layout compiler.Layout) {
	k, err := runtime.New(m)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := compiler.NewPlan(m, compiler.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := plan.Tests()
	// The runtime's side: predict's reader and hard walk.
	st := data.NewCSVStream(strings.NewReader(rows), "rows.csv", data.CSVOptions{Schema: m.Schema, Named: true})
	var want []string
	unseen, forced := 0, 0
	for {
		ok, err := st.Next()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		x := st.Row()
		res, path := k.Walk(x, make([]float64, len(x)), []runtime.Step{})
		var b strings.Builder
		fmt.Fprintf(&b, "%d %d %t", res.Class, res.Class, len(st.UnseenColumns()) > 0)
		for _, v := range x {
			fmt.Fprintf(&b, " %x", math.Float64bits(v))
		}
		for i, s := range path {
			fmt.Fprintf(&b, " %d:%x:%t:%d:%t:%q", s.Node, math.Float64bits(s.Margin), s.Right, s.Next, res.Forced && i == len(path)-1, tests[s.Node][btoi(s.Right)])
		}
		want = append(want, b.String())
		if len(st.UnseenColumns()) > 0 {
			unseen++
		}
		if res.Forced {
			forced++
		}
	}
	// The generated side: the same rows as records.
	var input strings.Builder
	cr := csv.NewReader(strings.NewReader(rows))
	cr.TrimLeadingSpace = true
	recs, err := cr.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs[1:] {
		for j, in := range m.Schema.Inputs {
			if j > 0 {
				input.WriteByte('\t')
			}
			f := rec[j]
			missing := runtime.IsMissing(f, m.Schema.Missing)
			switch {
			case in.Kind == runtime.Numeric && missing:
				input.WriteString(strconv.FormatUint(math.Float64bits(math.NaN()), 16))
			case in.Kind == runtime.Numeric:
				v, err := runtime.ParseNumber(f)
				if err != nil {
					t.Fatal(err)
				}
				input.WriteString(strconv.FormatUint(math.Float64bits(v), 16))
			case missing:
				input.WriteString(`""`)
			default:
				input.WriteString(strconv.Quote(runtime.Level(f)))
			}
		}
		input.WriteByte('\n')
	}
	if len(recs)-1 != len(want) {
		t.Fatalf("%d records for %d rows", len(recs)-1, len(want))
	}
	if unseen == 0 {
		t.Fatal("no row has an unseen category; the test would not exercise them")
	}
	t.Logf("%d rows (%d with unseen categories, %d forced exits), %s layout", len(want), unseen, forced, layout)

	runGenerated(t, m, layout, recordsMain, input.String(), want, func(i int) any { return recs[i+1] })
}

// recordRows returns the CSV text of the rows of the files at paths (the
// header once) with, for each input column, copies of the first rows with
// the field missing and, for a categorical column, with a value no
// training row had.
func recordRows(t *testing.T, paths []string, s *runtime.Schema) string {
	var recs [][]string
	for i, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		r, err := csv.NewReader(zr).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			r = r[1:] // the header once
		}
		recs = append(recs, r...)
	}
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.WriteAll(recs)
	for j, in := range s.Inputs {
		for _, rec := range recs[1:min(4, len(recs))] {
			for _, v := range []string{"", "?", " NA "} {
				r := append([]string(nil), rec...)
				r[j] = v
				w.Write(r)
			}
			if in.Kind == runtime.Categorical {
				r := append([]string(nil), rec...)
				r[j] = "never seen, \"really\""
				w.Write(r)
			}
		}
	}
	w.Flush()
	return b.String()
}

// randomRecordsModel returns a model over the columns s with spread-out
// logits (many reachable nodes, forced exits), numeric columns
// standardised by the training rows, filters centred on the data, and every
// third node testing one column only.
func randomRecordsModel(s *runtime.Schema, classes []string, train *data.Dataset, seed uint64) *runtime.Model {
	rng := rand.New(rand.NewPCG(seed, 7))
	n, c, d := 24, len(classes), s.Width()
	logit := func() float64 { return 4 * rng.NormFloat64() }
	shift, scale := make([]float64, d), make([]float64, d)
	for j, num := range s.NumericFeatures() {
		scale[j] = 1
		if !num {
			continue
		}
		var sum, sq float64
		for r := 0; r < train.Rows; r++ {
			sum += train.Row(r)[j]
		}
		shift[j] = sum / float64(train.Rows)
		for r := 0; r < train.Rows; r++ {
			dv := train.Row(r)[j] - shift[j]
			sq += dv * dv
		}
		if sd := math.Sqrt(sq / float64(train.Rows)); sd > 0 {
			scale[j] = 1 / sd
		}
	}
	w := randMatrix(n, d, rng.NormFloat64)
	b := make([]float64, n)
	offsets := []int{0}
	for _, in := range s.Inputs {
		offsets = append(offsets, offsets[len(offsets)-1]+in.Width())
	}
	for i := range w {
		if i%3 == 1 { // one column only
			col := rng.IntN(len(s.Inputs))
			for j := range w[i] {
				if j < offsets[col] || j >= offsets[col+1] {
					w[i][j] = 0
				}
			}
		}
		b[i] = 0.3 * rng.NormFloat64()
	}
	return &runtime.Model{Format: runtime.FormatInputs, Nodes: n, Classes: c, Steps: 6, Features: d, ClassNames: classes,
		M0Logits: randMatrix(n+c, n, logit), M1Logits: randMatrix(n+c, n, logit), W: w, B: b,
		InputShift: shift, InputScale: scale, Schema: s}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
