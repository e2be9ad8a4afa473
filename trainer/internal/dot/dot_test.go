package dot

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
)

// values returns n numbers of mixed signs and magnitudes, so that the
// order of a sum shows in its bits.
func values(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = rng.NormFloat64() * math.Exp2(float64(rng.IntN(40)-20))
	}
	return v
}

// TestDot checks Dot4 and Dot against floats.Dot's amd64 assembly, whose
// order they keep, and the assembly against the Go kernels, for lengths with
// every remainder mod 4 and rows at a stride longer than the row.
func TestDot(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 3, 4, 5, 7, 8, 13, 16, 31, 784} {
		for _, ld := range []int{n, n + 3} {
			w, x := values(rng, n), values(rng, 3*ld+n)
			got := Dot4(w, x, ld)
			var goLanes [16]float64
			if n4 := n &^ 3; n4 > 0 {
				lanes4Go(n4, w, x, ld, &goLanes)
				if hasAVX {
					var asm [16]float64
					lanes4(n4, &w[0], &x[0], ld, &asm)
					if asm != goLanes {
						t.Fatalf("n=%d ld=%d: assembly lanes %v, Go %v", n, ld, asm, goLanes)
					}
				}
			}
			for r := range 4 {
				row := x[r*ld : r*ld+n]
				if one := Dot(w, row); math.Float64bits(one) != math.Float64bits(got[r]) {
					t.Errorf("n=%d ld=%d row %d: Dot4 %v, Dot %v", n, ld, r, got[r], one)
				}
				if gonumAsm {
					if want := floats.Dot(w, row); math.Float64bits(want) != math.Float64bits(got[r]) {
						t.Errorf("n=%d ld=%d row %d: Dot4 %v, floats.Dot %v", n, ld, r, got[r], want)
					}
				}
			}
		}
	}
}

// TestAddScaled checks AddScaled4 and AddScaled against four
// floats.AddScaled calls in order, where gonum runs its amd64 assembly, and
// against four unfused loops elsewhere.
func TestAddScaled(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 3, 4, 6, 17, 784} {
		for _, ld := range []int{n, n + 1} {
			x, dst := values(rng, 3*ld+n), values(rng, n)
			e := [4]float64{rng.NormFloat64(), rng.NormFloat64(), -rng.NormFloat64(), rng.NormFloat64() * 1e-9}
			want, got, one := append([]float64(nil), dst...), append([]float64(nil), dst...), append([]float64(nil), dst...)
			for r := range 4 {
				if gonumAsm {
					floats.AddScaled(want, e[r], x[r*ld:r*ld+n])
				} else {
					for i, v := range x[r*ld : r*ld+n] {
						want[i] += float64(e[r] * v)
					}
				}
				AddScaled(one, e[r], x[r*ld:r*ld+n])
			}
			AddScaled4(got, e, x, ld)
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) || math.Float64bits(one[i]) != math.Float64bits(want[i]) {
					t.Fatalf("n=%d ld=%d element %d: AddScaled4 %v, AddScaled %v, floats.AddScaled %v", n, ld, i, got[i], one[i], want[i])
				}
			}
			if hasAVX && n >= 4 {
				a, b := append([]float64(nil), dst...), append([]float64(nil), dst...)
				addScaled4(n&^3, &a[0], &e, &x[0], ld)
				addScaled4Go(b[:n&^3], &e, x, ld)
				for i := range a {
					if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
						t.Fatalf("n=%d ld=%d element %d: assembly %v, Go %v", n, ld, i, a[i], b[i])
					}
				}
			}
		}
	}
}

func TestDot4Refuses(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Dot4 on too short a slice did not panic")
		}
	}()
	Dot4(make([]float64, 4), make([]float64, 15), 4)
}

// benchRows returns weights, 512 rows and a gradient of MNIST's width
// for the benchmarks, and counts the rows' bytes.
func benchRows(b *testing.B) (w, x, g []float64, d, rows int) {
	d, rows = 784, 512
	rng := rand.New(rand.NewPCG(5, 6))
	b.SetBytes(int64(rows * d * 8))
	return values(rng, d), values(rng, rows*d), make([]float64, d), d, rows
}

func BenchmarkDot4AddScaled4(b *testing.B) {
	w, x, g, d, rows := benchRows(b)
	for b.Loop() {
		for r := 0; r < rows; r += 4 {
			e := Dot4(w, x[r*d:], d)
			AddScaled4(g, e, x[r*d:], d)
		}
	}
}

func BenchmarkGonumDotAddScaled(b *testing.B) {
	w, x, g, d, rows := benchRows(b)
	for b.Loop() {
		for r := range rows {
			row := x[r*d : (r+1)*d]
			floats.AddScaled(g, floats.Dot(w, row), row)
		}
	}
}

// lanes4Go is lanes4 in Go: the reference the assembly's lanes are checked
// against.
func lanes4Go(n4 int, w, x []float64, ld int, s *[16]float64) {
	for r := range 4 {
		a := lanes(w[:n4], x[r*ld:r*ld+n4])
		copy(s[4*r:], a[:])
	}
}
