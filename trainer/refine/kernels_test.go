package refine

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/songc/songc/runtime"
)

// TestMarginsRows checks that marginsRows gives runtime.Margin's bits on
// every row, for row counts on and off a multiple of four.
func TestMarginsRows(t *testing.T) {
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
			marginsRows(got, w, b, x)
			for r, v := range got {
				if want := runtime.Margin(w, b, x[r*d:(r+1)*d]); math.Float64bits(v) != math.Float64bits(want) {
					t.Fatalf("d=%d rows=%d row %d: %v, runtime.Margin %v", d, rows, r, v, want)
				}
			}
		}
	}
}
