package vec

import (
	"math"
	"math/rand/v2"
	"testing"
)

// values draws float32s of every kind the loops meet: zeros, values near
// the flush threshold on both sides, subnormals, ordinary masses and
// shares, ones, and a NaN now and then.
func values(r *rand.Rand, n int, tiny float32) []float32 {
	v := make([]float32, n)
	for i := range v {
		switch r.IntN(8) {
		case 0:
			v[i] = 0
		case 1:
			v[i] = tiny * float32(0.5+r.Float64()) // either side of tiny
		case 2:
			v[i] = math.Float32frombits(r.Uint32N(1 << 23)) // subnormal
		case 3:
			v[i] = 1
		case 4:
			v[i] = float32(math.NaN())
		case 5:
			v[i] = -float32(r.Float64())
		default:
			v[i] = float32(r.Float64())
		}
	}
	return v
}

// same reports whether a and b have the same bits, or are both NaN: which
// input's NaN an operation passes on depends on the order of its operands
// in the machine code, which Go does not fix.
func same(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) || a != a && b != b }

func TestSplit(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	tiny := float32(math.Sqrt(0x1p-126))
	for n := 0; n <= 41; n++ {
		for rep := 0; rep < 20; rep++ {
			s, p := values(r, n, tiny), values(r, n, tiny)
			u1, u0 := make([]float32, n+1), make([]float32, n+1)
			u1[n], u0[n] = 7, 7 // past the end: untouched
			Split(u1, u0, s, p, tiny)
			for j := 0; j < n; j++ {
				a, b := s[j]*p[j], (1-s[j])*p[j]
				if a < tiny {
					a = 0
				}
				if b < tiny {
					b = 0
				}
				if !same(u1[j], a) || !same(u0[j], b) {
					t.Fatalf("n %d, element %d: s %g p %g: got %g %g, want %g %g", n, j, s[j], p[j], u1[j], u0[j], a, b)
				}
			}
			if u1[n] != 7 || u0[n] != 7 {
				t.Fatalf("n %d: wrote past the end", n)
			}
		}
	}
}

func TestSplitGrad(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	tiny := float32(math.Sqrt(0x1p-126))
	for n := 0; n <= 41; n++ {
		for rep := 0; rep < 20; rep++ {
			s, p := values(r, n, tiny), values(r, n, tiny)
			du1, du0 := values(r, n, tiny), values(r, n, tiny)
			for j := range du0 { // gradients of either sign
				if r.IntN(2) == 0 {
					du0[j] = -du0[j]
				}
			}
			gs0 := values(r, n+1, tiny)
			for _, root := range []bool{false, true} {
				gs := append([]float32(nil), gs0...)
				var gp []float32
				if !root {
					gp = make([]float32, n+1)
					gp[n] = 7
				}
				SplitGrad(gs, gp, s, p, du1, du0, tiny)
				for j := 0; j < n; j++ {
					d1, d0 := du1[j], du0[j]
					ws := gs0[j] + float32(p[j]*(d1-d0))
					if !same(gs[j], ws) {
						t.Fatalf("n %d, element %d: gs %g, want %g", n, j, gs[j], ws)
					}
					if root {
						continue
					}
					g := float32(s[j]*d1) + float32((1-s[j])*d0)
					if math.Abs(float64(g)) < float64(tiny) {
						g = 0
					}
					if !same(gp[j], g) {
						t.Fatalf("n %d, element %d: s %g du1 %g du0 %g: gp %g, want %g", n, j, s[j], d1, d0, gp[j], g)
					}
				}
				if !same(gs[n], gs0[n]) || gp != nil && gp[n] != 7 {
					t.Fatalf("n %d: wrote past the end", n)
				}
			}
		}
	}
}

func TestNarrow(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for n := 0; n <= 41; n++ {
		src := make([]float64, n)
		for i := range src {
			switch r.IntN(5) {
			case 0:
				src[i] = math.Float64frombits(r.Uint64()) // any bits: NaN, infinities, huge, subnormal
			case 1:
				src[i] = math.Nextafter(float64(float32(r.Float64())), 2) // halfway cases' neighbours
			default:
				src[i] = r.NormFloat64() * 100
			}
		}
		dst := make([]float32, n+1)
		dst[n] = 7
		Narrow(dst, src)
		for i, v := range src {
			want := float32(v)
			if !same(dst[i], want) {
				t.Fatalf("n %d, element %d: float32(%g) = %g, want %g", n, i, v, dst[i], want)
			}
		}
		if dst[n] != 7 {
			t.Fatalf("n %d: wrote past the end", n)
		}
	}
}

func TestShort(t *testing.T) {
	for _, f := range []func(){
		func() { Split(make([]float32, 3), make([]float32, 4), make([]float32, 4), make([]float32, 4), 0) },
		func() { Split(make([]float32, 4), make([]float32, 4), make([]float32, 4), make([]float32, 3), 0) },
		func() { Narrow(make([]float32, 3), make([]float64, 4)) },
		func() {
			v := make([]float32, 4)
			SplitGrad(v, v[:3], v, v, v, v, 0)
		},
		func() {
			v := make([]float32, 4)
			SplitGrad(v, nil, v, v, v[:3], v, 0)
		},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("a short destination did not panic")
				}
			}()
			f()
		}()
	}
}

// TestFloat64 checks the float64 loops, which are Go's everywhere.
func TestFloat64(t *testing.T) {
	tiny := math.Sqrt(0x1p-1022)
	s := []float64{0.25, 1, 0, tiny, 0.5, 1e-300, math.NaN(), 0.75, 0.125}
	p := []float64{1, 0.5, 1, 1, tiny, 1, 1, 1e-200, 0.5}
	u1, u0 := make([]float64, len(s)), make([]float64, len(s))
	Split(u1, u0, s, p, tiny)
	for j := range s {
		a, b := s[j]*p[j], (1-s[j])*p[j]
		if a < tiny {
			a = 0
		}
		if b < tiny {
			b = 0
		}
		if math.Float64bits(u1[j]) != math.Float64bits(a) || math.Float64bits(u0[j]) != math.Float64bits(b) {
			t.Errorf("element %d: got %g %g, want %g %g", j, u1[j], u0[j], a, b)
		}
	}
	dst := make([]float64, len(s))
	Narrow(dst, s)
	for i := range s {
		if math.Float64bits(dst[i]) != math.Float64bits(s[i]) {
			t.Errorf("Narrow: element %d is %g, want %g", i, dst[i], s[i])
		}
	}
}

func BenchmarkSplit64(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	tiny := float32(math.Sqrt(0x1p-126))
	s, p := values(r, 64, tiny), values(r, 64, tiny)
	u1, u0 := make([]float32, 64), make([]float32, 64)
	for b.Loop() {
		Split(u1, u0, s, p, tiny)
	}
}
