package runtime_test

import (
	"os"
	"testing"

	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer/data"
)

// Benchmarks of inference on a real model and data, named by what they
// measure; bench/predict.sh sets the variables:
//
//	SONGC_BENCH_MODEL=model.json SONGC_BENCH_DATA=test.csv.gz go test -bench Model ./runtime
func benchModel(b *testing.B) (*runtime.Classifier, *data.Dataset) {
	mp, dp := os.Getenv("SONGC_BENCH_MODEL"), os.Getenv("SONGC_BENCH_DATA")
	if mp == "" || dp == "" {
		b.Skip("set SONGC_BENCH_MODEL and SONGC_BENCH_DATA")
	}
	m, err := runtime.Load(mp)
	if err != nil {
		b.Fatal(err)
	}
	k, err := runtime.New(m)
	if err != nil {
		b.Fatal(err)
	}
	ds, err := data.Open(dp, data.CSVOptions{Schema: m.Inputs()})
	if err != nil {
		b.Fatal(err)
	}
	return k, ds
}

var sink int

// BenchmarkModelSoft is the soft model, float64: N steps of the
// (n+c) x n transition on one row.
func BenchmarkModelSoft(b *testing.B) {
	k, ds := benchModel(b)
	q := make([]float64, k.NumClasses())
	sc := k.NewSoftScratch()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		sink += k.Soft(q, ds.Row(i%ds.Rows), sc)
		i++
	}
}

// BenchmarkModelWalk is the runtime's hard walk on one row.
func BenchmarkModelWalk(b *testing.B) {
	k, ds := benchModel(b)
	scratch := make([]float64, k.NumFeatures())
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		r, _ := k.Walk(ds.Row(i%ds.Rows), scratch, nil)
		sink += r.Class
		i++
	}
}
