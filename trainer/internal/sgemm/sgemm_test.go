package sgemm

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

func tr(t bool) blas.Transpose {
	if t {
		return blas.Trans
	}
	return blas.NoTrans
}

// TestAgainstGonum compares with gonum's Sgemm on random shapes, odd sizes
// (1, 7, 33, 527 and block edges), both transposes, alpha and beta values,
// and leading dimensions larger than the rows; nothing outside C changes.
// Every micro-kernel this machine runs passes it, and gives the same bits
// as the AVX2 one; and GemmPacked, with A packed by Pack (one PackedA
// reused across the trials, so its buffer grows and shrinks), gives the
// bits of Gemm.
func TestAgainstGonum(t *testing.T) {
	for _, isa := range ISAs {
		t.Run(isa.String(), func(t *testing.T) { testAgainstGonum(t, isa) })
	}
}

func testAgainstGonum(t *testing.T, isa ISA) {
	if !Has(isa) {
		t.Skipf("this machine cannot run the %v micro-kernel: it is never used here", isa)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	sizes := []int{1, 2, 5, 6, 7, 13, 14, 15, 16, 17, 28, 31, 32, 33, 97, 257, 527}
	// Three threads split 4 column panels (97 columns on the AVX-512
	// tile) or 3 row panels unevenly.
	g1, g2, g3 := New(1, isa), New(2, isa), New(3, isa)
	var pa PackedA
	var ref *GEMM
	if isa != AVX2 && Has(AVX2) {
		ref = New(2, AVX2)
	}
	for trial := 0; trial < 300; trial++ {
		m, n, k := sizes[rng.IntN(len(sizes))], sizes[rng.IntN(len(sizes))], sizes[rng.IntN(len(sizes))]
		if trial < 8 {
			m, n, k = 527, 527, 527 // several K and M blocks, every thread busy
		} else if trial < 12 {
			// A training step's product: few columns, each thread packing
			// its own when A is packed whole.
			m, n, k = 527, []int{33, 64, 97, 128}[trial-8], 527
		}
		tA, tB := rng.IntN(2) == 1, rng.IntN(2) == 1
		alpha := []float32{1, -0.5, 2}[rng.IntN(3)]
		beta := []float32{0, 1, 0.25}[rng.IntN(3)]
		ar, ac := m, k
		if tA {
			ar, ac = k, m
		}
		br, bc := k, n
		if tB {
			br, bc = n, k
		}
		lda, ldb, ldc := ac+rng.IntN(3), bc+rng.IntN(3), n+rng.IntN(3)
		fill := func(s []float32) {
			for i := range s {
				s[i] = float32(rng.NormFloat64())
			}
		}
		a, b := make([]float32, ar*lda), make([]float32, br*ldb)
		fill(a)
		fill(b)
		// C has 15 rows past its m, more than a tile's, all -0: a kernel
		// that adds a whole tile where the last panel has fewer rows adds
		// +0 there (the panel's padding), which turns them into +0.
		c0 := make([]float32, (m+15)*ldc)
		fill(c0[:m*ldc])
		for i := m * ldc; i < len(c0); i++ {
			c0[i] = float32(math.Copysign(0, -1))
		}
		want := append([]float32(nil), c0...)
		gonum.Implementation{}.Sgemm(tr(tA), tr(tB), m, n, k, alpha, a, lda, b, ldb, beta, want, ldc)
		var same []float32 // the AVX2 kernel's bits
		if ref != nil {
			same = append([]float32(nil), c0...)
			ref.Gemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, same, ldc)
		}
		for _, g := range []*GEMM{g1, g2, g3} {
			got := append([]float32(nil), c0...)
			g.Gemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, got, ldc)
			packed := append([]float32(nil), c0...)
			g.Pack(&pa, tA, m, k, alpha, a, lda)
			g.GemmPacked(&pa, tB, n, b, ldb, beta, packed, ldc)
			for i, x := range got {
				if math.Float32bits(x) != math.Float32bits(packed[i]) {
					t.Fatalf("trial %d (%dx%dx%d tA=%v tB=%v alpha=%v beta=%v, %d threads): element %d is %v with A packed whole, %v without",
						trial, m, n, k, tA, tB, alpha, beta, g.pool.Size(), i, packed[i], x)
				}
			}
			for i, x := range same {
				if math.Float32bits(x) != math.Float32bits(got[i]) {
					t.Fatalf("trial %d (%dx%dx%d tA=%v tB=%v alpha=%v beta=%v, %d threads): element %d is %v, the AVX2 kernel's %v",
						trial, m, n, k, tA, tB, alpha, beta, g.pool.Size(), i, got[i], x)
				}
			}
			for i := m * ldc; i < len(got); i++ {
				if b := math.Float32bits(c0[i]); math.Float32bits(got[i]) != b || math.Float32bits(packed[i]) != b {
					t.Fatalf("trial %d (%dx%dx%d): wrote past the last row of C, at (%d, %d)", trial, m, n, k, i/ldc, i%ldc)
				}
			}
			for i := 0; i < m; i++ {
				for j := 0; j < ldc; j++ {
					w, x := want[i*ldc+j], got[i*ldc+j]
					if j >= n { // padding must be untouched
						if x != c0[i*ldc+j] {
							t.Fatalf("trial %d: wrote outside C at (%d, %d)", trial, i, j)
						}
						continue
					}
					// float32 sums of k products of unit normals: error ~ eps * sqrt(k) * |terms|
					if d := math.Abs(float64(w - x)); d > 1e-4*math.Sqrt(float64(k))*(1+math.Abs(float64(w))) {
						t.Fatalf("trial %d (%dx%dx%d tA=%v tB=%v alpha=%v beta=%v, %d threads): C[%d][%d] = %v, gonum %v",
							trial, m, n, k, tA, tB, alpha, beta, g.pool.Size(), i, j, x, w)
					}
				}
			}
		}
	}
}

// TestDeterministic: the same product twice gives the same bits.
func TestDeterministic(t *testing.T) {
	isa, ok := Best()
	if !ok {
		t.Skip("no micro-kernel runs on this machine")
	}
	const n = 300
	a := make([]float32, n*n)
	for i := range a {
		a[i] = float32(math.Sin(float64(i)))
	}
	c1, c2 := make([]float32, n*n), make([]float32, n*n)
	g := New(2, isa)
	g.Gemm(false, true, n, n, n, 1, a, n, a, n, 0, c1, n)
	g.Gemm(false, true, n, n, n, 1, a, n, a, n, 0, c2, n)
	for i := range c1 {
		if math.Float32bits(c1[i]) != math.Float32bits(c2[i]) {
			t.Fatalf("element %d differs", i)
		}
	}
}

func TestZeroAllocs(t *testing.T) {
	for _, isa := range ISAs {
		if !Has(isa) {
			continue
		}
		const n = 512
		a, c := make([]float32, n*n), make([]float32, n*n)
		g := New(2, isa)
		if allocs := testing.AllocsPerRun(5, func() { g.Gemm(false, false, n, n, n, 1, a, n, a, n, 0, c, n) }); allocs != 0 {
			t.Errorf("%v: %v allocations per product", isa, allocs)
		}
		var pa PackedA
		g.Pack(&pa, true, n, n, 1, a, n)
		if allocs := testing.AllocsPerRun(5, func() {
			g.Pack(&pa, false, n, n/2, 1, a, n)
			g.GemmPacked(&pa, false, n, a, n, 0, c, n)
		}); allocs != 0 {
			t.Errorf("%v: %v allocations per packed product", isa, allocs)
		}
	}
}

var sink float32

// benchGemm times the product on each micro-kernel this machine runs.
func benchGemm(b *testing.B, m, n, k, threads int) { benchOn(b, m, n, k, threads, false) }

// benchPacked times it with A packed once by Pack, as a training step's
// products run.
func benchPacked(b *testing.B, m, n, k, threads int) { benchOn(b, m, n, k, threads, true) }

func benchOn(b *testing.B, m, n, k, threads int, packed bool) {
	for _, isa := range ISAs {
		b.Run(isa.String(), func(b *testing.B) {
			if !Has(isa) {
				b.Skipf("no %v", isa)
			}
			a, bb, c := make([]float32, m*k), make([]float32, k*n), make([]float32, m*n)
			g := New(threads, isa)
			var pa PackedA
			if packed {
				g.Pack(&pa, false, m, k, 1, a, k)
			}
			b.ReportAllocs()
			for b.Loop() {
				if packed {
					g.GemmPacked(&pa, false, n, bb, n, 0, c, n)
				} else {
					g.Gemm(false, false, m, n, k, 1, a, k, bb, n, 0, c, n)
				}
			}
			b.ReportMetric(2*float64(m)*float64(n)*float64(k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			sink += c[0]
		})
	}
}

func BenchmarkGemm1024Square2Threads(b *testing.B) { benchGemm(b, 1024, 1024, 1024, 2) }
func BenchmarkGemm2048Square1Thread(b *testing.B)  { benchGemm(b, 2048, 2048, 2048, 1) }
func BenchmarkGemm2048Square2Threads(b *testing.B) { benchGemm(b, 2048, 2048, 2048, 2) }

// The shapes of the paper's Letter model (511 nodes, batch 128): the
// forward step (n x 2n)(2n x B) and the gradient of [M1|M0] over 50 steps.
func BenchmarkGemmStep511Nodes128Batch(b *testing.B)         { benchGemm(b, 511, 128, 1022, 2) }
func BenchmarkGemmGradM511Nodes50Steps128Batch(b *testing.B) { benchGemm(b, 537, 1022, 6400, 2) }

// The forward step as training runs it: [M1|M0] (S x 2n) packed once,
// times U_t (2n x B): Letter 511/50 (537 states) on 2 goroutines and on 1,
// MNIST 255/50 (265) and 64/20 (90).
func BenchmarkGemmPackedStep511Nodes128Batch(b *testing.B)        { benchPacked(b, 537, 128, 1022, 2) }
func BenchmarkGemmPackedStep511Nodes128Batch1Thread(b *testing.B) { benchPacked(b, 537, 128, 1022, 1) }
func BenchmarkGemmPackedStep255Nodes128Batch(b *testing.B)        { benchPacked(b, 265, 128, 510, 2) }
func BenchmarkGemmPackedStep64Nodes128Batch(b *testing.B)         { benchPacked(b, 90, 128, 128, 2) }

// TestGemmPackedRefuses: an operand never packed, or packed for another
// micro-kernel, is refused with a panic.
func TestGemmPackedRefuses(t *testing.T) {
	isa, ok := Best()
	if !ok {
		t.Skip("no micro-kernel runs on this machine")
	}
	g := New(1, isa)
	c := make([]float32, 4)
	for name, a := range map[string]*PackedA{"never packed": {}, "another micro-kernel": {packed: true, isa: isa + 1, m: 2, k: 2}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			g.GemmPacked(a, false, 2, c, 2, 0, c, 2)
		}()
	}
}

// TestScatter checks the packing of transposed operands, through
// transpose8's 8x8 blocks where the machine has AVX and four rows at a
// time elsewhere, against the plain loop, bit for bit: every panel width
// the tiles use, strips of 8 rows and their remainders, widths of k around
// multiples of 8, strides past the row, and alpha 1 or not.
func TestScatter(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, w := range []int{6, 14, 16, 32} {
		for n := 1; n <= w; n++ {
			for _, kb := range []int{1, 7, 8, 9, 16, 23, 64} {
				ld := kb + rng.IntN(3)
				src := make([]float32, (n-1)*ld+kb)
				for i := range src {
					src[i] = float32(rng.NormFloat64())
				}
				for _, alpha := range []float32{1, -0.75} {
					got := make([]float32, w*kb+1)
					for i := range got {
						got[i] = 9 // scatter writes every value of the panel
					}
					scatter(got[:w*kb], w, src, ld, n, kb, alpha)
					for p := 0; p < kb; p++ {
						for i := 0; i < w; i++ {
							var want float32
							if i < n {
								want = alpha * src[i*ld+p]
							}
							if g := got[p*w+i]; math.Float32bits(g) != math.Float32bits(want) {
								t.Fatalf("w %d, n %d, kb %d, ld %d, alpha %v: panel (%d, %d) is %v, want %v", w, n, kb, ld, alpha, p, i, g, want)
							}
						}
					}
					if got[w*kb] != 9 {
						t.Fatalf("w %d, n %d, kb %d: wrote past the panel", w, n, kb)
					}
				}
			}
		}
	}
}
