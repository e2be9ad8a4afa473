package trainer

import (
	"fmt"
	goruntime "runtime"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/songc/songc/trainer/internal/sgemm"
)

// Float is the element type of an engine: float32 or float64.
type Float interface{ ~float32 | ~float64 }

// Kernel is the dense linear algebra that CPU engines are written against.
// All matrices are row-major; a matrix argument is a slice starting at its
// first element with a leading dimension (row stride) ld, so sub-blocks of
// larger buffers (one step's columns of a matrix that holds all steps) are
// passed without copying.
//
// A faster CPU implementation (a packed, register-blocked SGEMM in assembly,
// or BLAS through cgo) implements Kernel and is handed to NewCPU; nothing in
// the training loop changes. Implementations must be deterministic for a
// given input and thread count.
type Kernel[T Float] interface {
	// Name identifies the implementation in logs and benchmarks.
	Name() string
	// Gemm computes C = alpha*op(A)*op(B) + beta*C, where op(A) is m x k,
	// op(B) is k x n and C is m x n; op(X) is X, or X transposed when the
	// matching trans flag is set. When beta is 0, C need not be initialised.
	Gemm(transA, transB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int)
}

// PackingKernel is a Kernel that packs a left operand once for several
// products: the transition matrix that every step of a batch multiplies.
// The products have the bits of Gemm with the same operands. A CPU engine
// runs on any Kernel through this interface: one that does not pack gets
// packing's adapter.
type PackingKernel[T Float] interface {
	Kernel[T]
	// PackA packs alpha*op(A) (m x k; A transposed when transA) into slot
	// 0 or 1, replacing what the slot held. A must not change while the
	// slot is used.
	PackA(slot int, transA bool, m, k int, alpha T, a []T, lda int)
	// GemmA computes C = A*op(B) + beta*C with slot's packed A (m x k) and
	// op(B) k x n.
	GemmA(slot int, transB bool, n int, b []T, ldb int, beta T, c []T, ldc int)
}

// packing returns k as a PackingKernel: k itself when it packs; otherwise
// an adapter whose PackA keeps the operand (a transposed copy of it when
// transA, so that the products read it row by row) and whose GemmA is
// k.Gemm on it.
func packing[T Float](k Kernel[T]) PackingKernel[T] {
	if pk, ok := k.(PackingKernel[T]); ok {
		return pk
	}
	return &keeping[T]{Kernel: k}
}

// keeping is packing's adapter.
type keeping[T Float] struct {
	Kernel[T]
	slots [2]kept[T]
}

// kept is a slot of keeping: op(A) as an m x k row-major matrix.
type kept[T Float] struct {
	m, k  int
	alpha T
	a     []T
	lda   int
	trans []T // the transposed copy, reused
}

func (p *keeping[T]) PackA(slot int, transA bool, m, k int, alpha T, a []T, lda int) {
	s := &p.slots[slot]
	s.m, s.k, s.alpha, s.a, s.lda = m, k, alpha, a, lda
	if !transA {
		return
	}
	if cap(s.trans) < m*k {
		s.trans = make([]T, m*k)
	}
	s.trans = s.trans[:m*k]
	for r := 0; r < k; r++ { // row r of A (k x m) is column r of op(A)
		for j, v := range a[r*lda : r*lda+m] {
			s.trans[j*k+r] = v
		}
	}
	s.a, s.lda = s.trans, k
}

func (p *keeping[T]) GemmA(slot int, transB bool, n int, b []T, ldb int, beta T, c []T, ldc int) {
	s := &p.slots[slot]
	p.Gemm(false, transB, s.m, n, s.k, s.alpha, s.a, s.lda, b, ldb, beta, c, ldc)
}

func trans(t bool) blas.Transpose {
	if t {
		return blas.Trans
	}
	return blas.NoTrans
}

// Gonum32 is the pure-Go float32 kernel on gonum's BLAS.
type Gonum32 struct{}

func (Gonum32) Name() string { return "gonum-f32" }

func (Gonum32) Gemm(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	gonum.Implementation{}.Sgemm(trans(tA), trans(tB), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Gonum64 is the pure-Go float64 kernel on gonum's BLAS.
type Gonum64 struct{}

func (Gonum64) Name() string { return "gonum-f64" }

func (Gonum64) Gemm(tA, tB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	gonum.Implementation{}.Dgemm(trans(tA), trans(tB), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Packed is the float32 kernel on songc's packed SGEMM
// (trainer/internal/sgemm), with its AVX-512 or its AVX2/FMA
// micro-kernel, on GOMAXPROCS's threads (SetThreads gives each of several
// graphs trained side by side its share). Both micro-kernels give the same bits:
// an element of a product is summed in the same order by either, so a run
// trains the same model on either. NewKernel32 makes one by name.
type Packed struct {
	g     *sgemm.GEMM
	slots [2]sgemm.PackedA // PackA's operands
}

// PackedKernels are the names of the packed kernels, widest first: the
// instruction sets of their micro-kernels.
var PackedKernels = func() []string {
	var names []string
	for _, isa := range sgemm.ISAs {
		names = append(names, isa.String())
	}
	return names
}()

func newPacked(threads int, isa sgemm.ISA) *Packed { return &Packed{g: sgemm.New(threads, isa)} }

// HasPacked reports whether this machine runs the packed kernel named isa.
func HasPacked(isa string) bool {
	_, ok := packedISA(isa)
	return ok
}

func packedISA(name string) (sgemm.ISA, bool) {
	for _, i := range sgemm.ISAs {
		if i.String() == name && sgemm.Has(i) {
			return i, true
		}
	}
	return 0, false
}

// Name is the micro-kernel's instruction set and the precision: "avx512-f32"
// or "avx2-f32".
func (k *Packed) Name() string { return k.g.ISA().String() + "-f32" }

func (k *Packed) Gemm(tA, tB bool, m, n, kk int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	k.g.Gemm(tA, tB, m, n, kk, alpha, a, lda, b, ldb, beta, c, ldc)
}

// PackA implements PackingKernel.
func (k *Packed) PackA(slot int, tA bool, m, kk int, alpha float32, a []float32, lda int) {
	k.g.Pack(&k.slots[slot], tA, m, kk, alpha, a, lda)
}

// SetThreads sets how many goroutines the following products may use (at
// most GOMAXPROCS when the kernel was made): fewer when several graphs
// train side by side. The bits do not depend on it.
func (k *Packed) SetThreads(n int) { k.g.SetThreads(n) }

// GemmA implements PackingKernel.
func (k *Packed) GemmA(slot int, tB bool, n int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	k.g.GemmPacked(&k.slots[slot], tB, n, b, ldb, beta, c, ldc)
}

// DefaultKernel32 returns a new instance of the fastest float32 kernel on
// this machine: the packed kernel on the widest micro-kernel the CPU runs
// (AVX-512, then AVX2 with FMA), gonum otherwise.
func DefaultKernel32() Kernel[float32] {
	k, _ := newKernel32("auto", goruntime.GOMAXPROCS(0)) // "auto" cannot fail
	return k
}

// DefaultKernel64 returns the float64 kernel (gonum).
func DefaultKernel64() Kernel[float64] { return Gonum64{} }

// NewEngine returns a CPU engine for shape s and batches of at most batch
// rows, in precision "f32" or "f64", on kernel "auto" (or ""), "gonum",
// "avx512" or "avx2" (the last two float32 only), and the name of the
// kernel it runs on.
func NewEngine(s Shape, precision, kernel string, batch int) (Engine, string, error) {
	if err := checkMemory(s, batch, 0, 1); err != nil {
		return nil, "", err
	}
	return newEngineThreads(s, precision, kernel, batch, goruntime.GOMAXPROCS(0))
}

// newEngineThreads is NewEngine without the memory check, its packed
// kernel on threads goroutines.
func newEngineThreads(s Shape, precision, kernel string, batch, threads int) (Engine, string, error) {
	if precision == "f64" {
		if slices.Contains(PackedKernels, kernel) {
			return nil, "", fmt.Errorf("kernel %s is float32 only", kernel)
		}
		k := DefaultKernel64()
		e, err := NewCPU[float64](s, k, batch)
		return e, k.Name(), err
	}
	k, err := newKernel32(kernel, threads)
	if err != nil {
		return nil, "", err
	}
	e, err := NewCPU[float32](s, k, batch)
	return e, k.Name(), err
}

// NewKernel32 returns the float32 kernel named name: "auto" (or "": the
// fastest on this machine), "gonum", "avx512" or "avx2".
func NewKernel32(name string) (Kernel[float32], error) {
	return newKernel32(name, goruntime.GOMAXPROCS(0))
}

// newKernel32 is NewKernel32 with a packed kernel on threads goroutines.
func newKernel32(name string, threads int) (Kernel[float32], error) {
	switch name {
	case "", "auto":
		if isa, ok := sgemm.Best(); ok {
			return newPacked(threads, isa), nil
		}
		return Gonum32{}, nil
	case "gonum":
		return Gonum32{}, nil
	}
	if !slices.Contains(PackedKernels, name) {
		return nil, fmt.Errorf("unknown kernel %q", name)
	}
	if i, ok := packedISA(name); ok {
		return newPacked(threads, i), nil
	}
	return nil, fmt.Errorf("kernel %s: this CPU cannot run it", name)
}

// Widest returns the name of the widest packed kernel this machine runs
// and how many float32 values its vector registers hold (16 for avx512, 8
// for avx2), or "" and 0 when it runs none.
func Widest() (name string, lanes int) {
	if isa, ok := sgemm.Best(); ok {
		return isa.String(), isa.Lanes()
	}
	return "", 0
}
