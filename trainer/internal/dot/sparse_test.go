package dot

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSparse checks Sparse's Dot, AddScaled and Sequential against the
// dense functions on rows that are mostly zeros (+0 and -0), for lengths
// with every remainder mod 4.
func TestSparse(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{1, 3, 4, 6, 13, 784} {
		var s Sparse
		s.Reset(n, 0)
		const rows = 20
		x := make([]float64, rows*n)
		for i := range x {
			switch rng.IntN(5) {
			case 0:
				x[i] = rng.NormFloat64() * math.Exp2(float64(rng.IntN(40)-20))
			case 1:
				x[i] = math.Copysign(0, -1)
			}
		}
		for r := range rows {
			s.Append(x[r*n : (r+1)*n])
		}
		if len(s.Start)-1 != rows {
			t.Fatalf("n=%d: %d rows, want %d", n, len(s.Start)-1, rows)
		}
		var c Sparse
		c.Reset(n, 0)
		for r := rows - 1; r >= 0; r-- {
			c.AppendFrom(&s, r)
		}
		w := values(rng, n)
		dense := make([]float64, n)
		for r := range rows {
			row := x[r*n : (r+1)*n]
			s.Dense(dense, r)
			for j := range row {
				if dense[j] != row[j] {
					t.Fatalf("n=%d row %d: Dense[%d] %v, want %v", n, r, j, dense[j], row[j])
				}
			}
			want := Dot(w, row)
			if got := s.Dot(w, r); math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("n=%d row %d: Sparse.Dot %v, Dot %v", n, r, got, want)
			}
			if got := c.Dot(w, rows-1-r); math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("n=%d row %d: Dot of a copied row %v, Dot %v", n, r, got, want)
			}
			var seq float64
			for j, v := range row {
				seq += float64(w[j] * v)
			}
			if got := s.Sequential(w, r); math.Float64bits(got) != math.Float64bits(seq) {
				t.Errorf("n=%d row %d: Sequential %v, loop %v", n, r, got, seq)
			}
			e := rng.NormFloat64()
			a, b := values(rng, n), make([]float64, n)
			copy(b, a)
			AddScaled(a, e, row)
			s.AddScaled(b, e, r)
			for j := range a {
				if math.Float64bits(a[j]) != math.Float64bits(b[j]) {
					t.Fatalf("n=%d row %d element %d: Sparse.AddScaled %v, AddScaled %v", n, r, j, b[j], a[j])
				}
			}
		}
	}
}
