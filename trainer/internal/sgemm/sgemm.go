package sgemm

import (
	"fmt"
	"runtime"

	"github.com/songc/songc/trainer/internal/workers"
)

// Blocking, in the GotoBLAS/BLIS scheme: a kc x nc block of B is packed once
// (into nr-column panels) and shared; each goroutine packs mc x kc blocks of
// A (into mr-row panels) and runs the micro-kernel over them. When A was
// packed whole (GemmPacked) and B has at most nc columns, at least an
// nr-column panel for each goroutine, each packs its own columns of B
// instead (see workColumns). An element of C is summed over K in the same
// order whatever the micro-kernel, mc, nc and the split: only kc sets it.
const (
	kc = 256
	nc = 2048 // a multiple of every micro-kernel's nr
	// Products smaller than this many multiply-adds (a couple of
	// microseconds of one core; docs/performance.md times the kernel on
	// one thread) run on one goroutine: a Run on two polling workers
	// costs about half a microsecond (workers.BenchmarkRun). Once the
	// workers have gone to sleep (after the workers package's spin
	// without a product), the first product after waits for their
	// threads to wake.
	parallelMin = 1 << 18
	maxTile     = 14 * 32 // the largest micro-kernel's tile (mr x nr)
	maxMC       = 112     // the largest micro-kernel's mc
)

// ISA names an instruction set that a micro-kernel needs.
type ISA int

const (
	AVX2   ISA = iota // AVX2 and FMA: the 6x16 micro-kernel
	AVX512            // AVX-512F: the 14x32 micro-kernel
)

func (i ISA) String() string {
	if i >= 0 && int(i) < len(micros) {
		return micros[i].name
	}
	return fmt.Sprintf("ISA(%d)", int(i))
}

// micro is a micro-kernel: it adds the product of a packed mr x k panel of
// A and a packed k x nr panel of B to the first rows rows (1 to mr) of an
// mr x nr tile of C.
type micro struct {
	name       string // of its instruction set
	lanes      int    // float32 values in one of its vector registers
	has        bool   // this machine runs it
	mr, nr, mc int    // mc: rows of A packed at once, a multiple of mr
	fn         func(k int, a, b, c *float32, ldc, rows int)
}

var micros = [...]micro{
	AVX2:   {name: "avx2", lanes: 8, has: hasAVX2, mr: 6, nr: 16, mc: 96, fn: kernel6x16},
	AVX512: {name: "avx512", lanes: 16, has: hasAVX512, mr: 14, nr: 32, mc: maxMC, fn: kernel14x32},
}

func init() {
	for _, m := range micros {
		if m.mr*m.nr > maxTile || m.mc > maxMC || m.mc%m.mr != 0 || nc%m.nr != 0 {
			panic(fmt.Sprintf("sgemm: the %s micro-kernel does not fit maxTile, maxMC or nc", m.name))
		}
	}
}

// Has reports whether this machine runs isa's micro-kernel.
func Has(isa ISA) bool { return isa >= 0 && int(isa) < len(micros) && micros[isa].has }

// ISAs are the instruction sets of the micro-kernels, widest first.
var ISAs = []ISA{AVX512, AVX2}

// Best returns the widest instruction set this machine runs, and false
// when it runs none (then the caller falls back to gonum).
func Best() (ISA, bool) {
	for _, isa := range ISAs {
		if Has(isa) {
			return isa, true
		}
	}
	return AVX2, false
}

// Lanes returns how many float32 values one of isa's vector registers
// holds.
func (i ISA) Lanes() int { return micros[i].lanes }

// GEMM is a float32 matrix multiply with its packing buffers and worker
// goroutines. It is not safe for concurrent use: give each engine its own.
// Its workers stop when the GEMM becomes unreachable.
type GEMM struct{ *state }

// state is what the workers see; it holds no reference to the GEMM, so that
// the GEMM can be collected and its cleanup stop the pool.
type state struct {
	cur     micro // the current product's tile (set by run; isa's, or narrower)
	isa     ISA
	packB   []float32
	workers []worker
	pool    *workers.Pool // runs work
	threads int           // workers a product may use (SetThreads)

	// The current product, read by the workers. pre, when set, is op(A)
	// packed whole (PackedA), its rows rounded up to whole mr-row panels.
	pre    []float32
	transA bool
	m, k   int
	alpha  float32
	a      []float32
	lda    int
	c      []float32
	ldc    int
	p0, kb int // current K block
	j0, nb int // current N block

	// The current product's B when each worker packs its own columns
	// (see workColumns; nil otherwise), of nb columns.
	b      []float32
	ldb    int
	transB bool
}

type worker struct {
	packA []float32
	tile  [maxTile]float32
}

// New returns a GEMM on isa's micro-kernel that runs on up to threads
// goroutines (at least 1, at most workers.MaxSize). It panics when this
// machine lacks isa (see Has).
func New(threads int, isa ISA) *GEMM {
	if !Has(isa) {
		panic(fmt.Sprintf("sgemm: this machine cannot run the %v micro-kernel", isa))
	}
	s := &state{isa: isa, packB: make([]float32, kc*nc)}
	s.pool = workers.New(threads, s.work)
	s.threads = s.pool.Size()
	s.workers = make([]worker, s.threads)
	for i := range s.workers {
		s.workers[i].packA = make([]float32, maxMC*kc)
	}
	g := &GEMM{s}
	runtime.AddCleanup(g, (*workers.Pool).Stop, s.pool)
	return g
}

// SetThreads sets how many of its goroutines g's following products may
// use, between 1 and the number New took: fewer when several GEMMs
// share the cores. Products give the same bits whatever the number.
func (g *GEMM) SetThreads(n int) { g.threads = min(max(1, n), g.pool.Size()) }

// ISA returns the instruction set of g's micro-kernel.
func (g *GEMM) ISA() ISA { return g.isa }

// Gemm computes C = alpha*op(A)*op(B) + beta*C for row-major matrices:
// op(A) is m x k, op(B) is k x n, C is m x n, with leading dimensions lda,
// ldb, ldc; op(X) is X, or X transposed when the trans flag is set. With
// beta = 0, C need not be initialised. It panics on shapes that do not fit
// the slices, as BLAS does.
func (g *GEMM) Gemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	check(transA, m, k, a, lda, "a")
	if !scaled(transB, m, n, k, b, ldb, beta, c, ldc) || alpha == 0 {
		return
	}
	g.transA, g.m, g.k, g.alpha, g.a, g.lda = transA, m, k, alpha, a, lda
	g.run(g.tile(n), n, b, ldb, transB, c, ldc)
}

// tile returns the micro-kernel for a product of n columns: the GEMM's
// own, but on AVX-512 machines the 6x16 AVX2 tile for at most 16 columns.
// Such a product (the gradient of a small graph's transition matrix, say)
// fills half of each 32-column tile, and packing its operands for 32
// columns costs more than the arithmetic; both tiles give the same bits.
func (g *GEMM) tile(n int) micro {
	if g.isa == AVX512 && n <= micros[AVX2].nr && Has(AVX2) {
		return micros[AVX2]
	}
	return micros[g.isa]
}

// scaled, the start of both products, checks op(B) (k x n) and C (m x n)
// against their slices, sets C to beta*C, and reports whether a product
// is left to add to it.
func scaled(transB bool, m, n, k int, b []float32, ldb int, beta float32, c []float32, ldc int) bool {
	check(transB, k, n, b, ldb, "b")
	check(false, m, n, c, ldc, "c")
	if m == 0 || n == 0 {
		return false
	}
	scale(m, n, beta, c, ldc)
	return k > 0
}

// scale sets C (m x n) to beta*C.
func scale(m, n int, beta float32, c []float32, ldc int) {
	switch beta {
	case 1:
	case 0:
		for i := 0; i < m; i++ {
			clear(c[i*ldc : i*ldc+n])
		}
	default:
		for i := 0; i < m; i++ {
			row := c[i*ldc : i*ldc+n]
			for j := range row {
				row[j] *= beta
			}
		}
	}
}

// run adds the current product's op(A) (set in g) times op(B) to C on
// tile's micro-kernel.
func (g *GEMM) run(tile micro, n int, b []float32, ldb int, transB bool, c []float32, ldc int) {
	g.cur = tile
	m, k := g.m, g.k
	g.c, g.ldc = c, ldc
	threads := g.threads
	if m*n*k < parallelMin {
		threads = 1
	}
	switch {
	case threads > 1 && g.pre != nil && n <= nc && ceilDiv(n, tile.nr) >= threads:
		// A packed whole and a few columns (a training step's product):
		// each worker packs and multiplies its own columns of B for every
		// K block, with no wait between blocks. Splitting the rows instead
		// would leave the workers idle while one packs each block of B.
		g.b, g.ldb, g.transB, g.nb = b, ldb, transB, n
		g.pool.Run(threads)
		g.b = nil
	default:
		if m <= tile.mr {
			threads = 1
		}
		for j0 := 0; j0 < n; j0 += nc {
			nb := min(nc, n-j0)
			for p0 := 0; p0 < k; p0 += kc {
				kb := min(kc, k-p0)
				packB(g.packB, b, ldb, transB, tile.nr, p0, kb, j0, nb)
				g.p0, g.kb, g.j0, g.nb = p0, kb, j0, nb
				g.pool.Run(threads)
			}
		}
	}
	g.a, g.c, g.pre = nil, nil, nil
}

// PackedA is a left operand alpha*op(A) packed once by GEMM.Pack for
// several products by GEMM.GemmPacked: the transition matrix that every
// step of a batch multiplies, say. Its buffer is reused by the next Pack
// into it.
type PackedA struct {
	packed bool
	isa    ISA
	m, k   int
	data   []float32
}

// Pack packs alpha*op(A) (m x k; A transposed when transA) into dst, in
// the layout the micro-kernel reads: for each block of kc columns, every
// mr-row panel in turn. It allocates only when dst's buffer is too small.
func (g *GEMM) Pack(dst *PackedA, transA bool, m, k int, alpha float32, a []float32, lda int) {
	check(transA, m, k, a, lda, "a")
	mr := micros[g.isa].mr
	mpad := roundUp(m, mr)
	if need := mpad * k; cap(dst.data) < need {
		dst.data = make([]float32, need)
	} else {
		dst.data = dst.data[:need]
	}
	dst.packed, dst.isa, dst.m, dst.k = true, g.isa, m, k
	for p0 := 0; p0 < k; p0 += kc {
		packA(dst.data[p0*mpad:], a, lda, transA, alpha, mr, 0, m, p0, min(kc, k-p0))
	}
}

// GemmPacked computes C = A*op(B) + beta*C with A packed by Pack (m x k,
// alpha and any transposition applied): for alpha other than 0, the same
// bits as Gemm with A's operands, without packing A again (Gemm with alpha
// 0 only scales C). It panics when a was packed for
// another micro-kernel or on shapes that do not fit.
func (g *GEMM) GemmPacked(a *PackedA, transB bool, n int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if !a.packed || a.isa != g.isa {
		panic("sgemm: an operand packed for another micro-kernel, or never packed")
	}
	m, k := a.m, a.k
	if !scaled(transB, m, n, k, b, ldb, beta, c, ldc) {
		return
	}
	g.m, g.k, g.pre = m, k, a.data
	g.run(micros[a.isa], n, b, ldb, transB, c, ldc) // a's panels are its ISA's tile's, whatever n is
}

// work runs worker w's share of the current product, in one of two
// splits. No two workers write the same element of C, and each element's
// sum runs in the same order in both: over the K blocks in turn, each
// block's k in turn.
func (g *state) work(w, threads int) {
	if g.b != nil {
		g.workColumns(w, threads)
		return
	}
	// Rows: one of threads contiguous ranges of whole mr-row panels, of
	// the current K and N block.
	wk := &g.workers[w]
	mr, mc := g.cur.mr, g.cur.mc
	panels := ceilDiv(g.m, mr)
	lo := panels * w / threads * mr
	hi := min(g.m, panels*(w+1)/threads*mr)
	for i0 := lo; i0 < hi; i0 += mc {
		mb := min(mc, hi-i0)
		pa := wk.packA
		if g.pre != nil { // packed whole: this block's panels are in place
			pa = g.pre[g.p0*panels*mr+i0*g.kb:]
		} else {
			packA(pa, g.a, g.lda, g.transA, g.alpha, mr, i0, mb, g.p0, g.kb)
		}
		g.tiles(wk, g.kb, pa, i0, mb, g.packB, g.j0, g.nb)
	}
}

// workColumns runs worker w's share when A is packed whole: one of
// threads contiguous ranges of whole nr-column panels of the product, for
// every K block in turn. The worker packs its columns of each block of B
// into its own part of the shared buffer, which starts at its first column
// times kc and so never meets another worker's.
func (g *state) workColumns(w, threads int) {
	wk := &g.workers[w]
	mr, nr := g.cur.mr, g.cur.nr
	panels := ceilDiv(g.nb, nr)
	lo := panels * w / threads * nr
	hi := min(g.nb, panels*(w+1)/threads*nr) // lo < hi: run gives each worker a panel
	bp := g.packB[lo*kc:]
	mpad := roundUp(g.m, mr)
	for p0 := 0; p0 < g.k; p0 += kc {
		kb := min(kc, g.k-p0)
		packB(bp, g.b, g.ldb, g.transB, nr, p0, kb, lo, hi-lo)
		g.tiles(wk, kb, g.pre[p0*mpad:], 0, g.m, bp, lo, hi-lo)
	}
}

// tiles adds to C's rows i0..i0+mb-1, columns j0..j0+nb-1 the product of
// the packed panels pa (mb rows of op(A)) and bp (nb columns of op(B)),
// both kb deep, one micro-kernel tile at a time.
func (g *state) tiles(wk *worker, kb int, pa []float32, i0, mb int, bp []float32, j0, nb int) {
	mr, nr, fn := g.cur.mr, g.cur.nr, g.cur.fn
	for jr := 0; jr < nb; jr += nr {
		nrb := min(nr, nb-jr)
		bj := bp[jr*kb:]
		for ir := 0; ir < mb; ir += mr {
			mrb := min(mr, mb-ir)
			ap := pa[ir*kb:]
			ci := (i0+ir)*g.ldc + j0 + jr
			if nrb == nr { // the tile's columns are in C
				fn(kb, &ap[0], &bj[0], &g.c[ci], g.ldc, mrb)
				continue
			}
			// Fewer columns than the tile's: the kernel adds into a copy
			// of C's, as it adds into C's own.
			for i := 0; i < mrb; i++ {
				copy(wk.tile[i*nr:i*nr+nrb], g.c[ci+i*g.ldc:ci+i*g.ldc+nrb])
			}
			fn(kb, &ap[0], &bj[0], &wk.tile[0], nr, mrb)
			for i := 0; i < mrb; i++ {
				copy(g.c[ci+i*g.ldc:ci+i*g.ldc+nrb], wk.tile[i*nr:i*nr+nrb])
			}
		}
	}
}

// packA packs rows i0..i0+mb-1, columns p0..p0+kb-1 of alpha*op(A) into
// mr-row panels: panel r holds, for each p, the mr values of its rows
// (zeros past the last row).
func packA(dst, a []float32, lda int, trans bool, alpha float32, mr, i0, mb, p0, kb int) {
	for ir := 0; ir < mb; ir += mr {
		panel := dst[ir*kb : ir*kb+mr*kb]
		rows := min(mr, mb-ir)
		r0 := i0 + ir
		if trans { // A is k x m: row p of the panel is a[(p0+p)*lda + r0 ...]
			gather(panel, mr, a[p0*lda+r0:], lda, rows, kb, alpha)
		} else {
			scatter(panel, mr, a[r0*lda+p0:], lda, rows, kb, alpha)
		}
	}
}

// packB packs rows p0..p0+kb-1, columns j0..j0+nb-1 of op(B) into
// nr-column panels: panel q holds, for each p, the nr values of its
// columns (zeros past the last column).
func packB(dst, b []float32, ldb int, trans bool, nr, p0, kb, j0, nb int) {
	for jr := 0; jr < nb; jr += nr {
		panel := dst[jr*kb : jr*kb+nr*kb]
		cols := min(nr, nb-jr)
		if trans { // B is n x k: element (p, j) at b[j*ldb + p]
			scatter(panel, nr, b[(j0+jr)*ldb+p0:], ldb, cols, kb, 1)
		} else {
			gather(panel, nr, b[p0*ldb+j0+jr:], ldb, cols, kb, 1)
		}
	}
}

// gather sets panel[p*w+i] = alpha*src[p*ld+i] for p < kb, i < n, and to
// zero for n <= i < w: rows of the source are rows of the panel.
func gather(panel []float32, w int, src []float32, ld, n, kb int, alpha float32) {
	for p := 0; p < kb; p++ {
		out := panel[p*w : p*w+w]
		in := src[p*ld : p*ld+n]
		if alpha == 1 {
			copy(out, in)
		} else {
			for i, v := range in {
				out[i] = alpha * v
			}
		}
		clear(out[n:])
	}
}

// scatter sets panel[p*w+i] = alpha*src[i*ld+p] for p < kb, i < n, and to
// zero for n <= i < w: rows of the source are columns of the panel. The
// zeros go first, each p's in one run: written a column at a time, they
// would cost more than the values when the operand is narrow. With AVX,
// strips of 8 source rows go 8x8 blocks at a time through transpose8;
// the rest (or all, without AVX) four source rows at a time.
func scatter(panel []float32, w int, src []float32, ld, n, kb int, alpha float32) {
	panel = panel[:w*kb]
	if n < w {
		for p := 0; p < kb; p++ {
			clear(panel[p*w+n : p*w+w])
		}
	}
	n8, kb8 := 0, 0
	if hasAVX && kb >= 8 {
		kb8 = kb &^ 7
		for ; n8+8 <= n; n8 += 8 {
			_ = src[(n8+7)*ld+kb8-1] // the strip's last value read
			transpose8(kb8, &panel[n8], w, &src[n8*ld], ld, alpha)
		}
		if kb8 < kb { // the strips' last columns
			scatterRows(panel[kb8*w:], w, src[kb8:], ld, 0, n8, kb-kb8, alpha)
		}
	}
	scatterRows(panel, w, src, ld, n8, n, kb, alpha)
}

// scatterRows is scatter's assignment for rows i0 <= i < n of the source,
// four rows at a time, so that each p writes four adjacent values.
func scatterRows(panel []float32, w int, src []float32, ld, i0, n, kb int, alpha float32) {
	i := i0
	for ; i+4 <= n; i += 4 {
		s0 := src[i*ld : i*ld+kb]
		s1 := src[(i+1)*ld : (i+1)*ld+kb]
		s2 := src[(i+2)*ld : (i+2)*ld+kb]
		s3 := src[(i+3)*ld : (i+3)*ld+kb]
		if alpha == 1 {
			for p, v := range s0 {
				o := panel[p*w+i : p*w+i+4 : p*w+i+4]
				o[0], o[1], o[2], o[3] = v, s1[p], s2[p], s3[p]
			}
			continue
		}
		for p, v := range s0 {
			o := panel[p*w+i : p*w+i+4 : p*w+i+4]
			o[0], o[1], o[2], o[3] = alpha*v, alpha*s1[p], alpha*s2[p], alpha*s3[p]
		}
	}
	for ; i < n; i++ {
		for p, v := range src[i*ld : i*ld+kb] {
			panel[p*w+i] = alpha * v
		}
	}
}

// check panics when a rows x cols matrix (transposed when trans) does not fit
// in s with leading dimension ld.
func check(trans bool, rows, cols int, s []float32, ld int, name string) {
	if trans {
		rows, cols = cols, rows
	}
	if rows < 0 || cols < 0 {
		panic(fmt.Sprintf("sgemm: negative dimension of %s", name))
	}
	if ld < max(1, cols) {
		panic(fmt.Sprintf("sgemm: bad leading dimension %d of %s (%d columns)", ld, name, cols))
	}
	if rows > 0 && cols > 0 && len(s) < (rows-1)*ld+cols {
		panic(fmt.Sprintf("sgemm: %s is too short: %d elements for %d x %d with ld %d", name, len(s), rows, cols, ld))
	}
}

// roundUp returns x rounded up to a multiple of r: the rows or columns of
// the whole panels of r that hold x of them.
func roundUp(x, r int) int { return ceilDiv(x, r) * r }

// ceilDiv is x/r rounded up: how many r-wide panels hold x.
func ceilDiv(x, r int) int { return (x + r - 1) / r }
