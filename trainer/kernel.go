package trainer

import (
	"fmt"
	goruntime "runtime"

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

// AVX2 is the float32 kernel on songc's packed AVX2/FMA SGEMM
// (trainer/internal/sgemm), on all of GOMAXPROCS's threads. Use NewAVX2; it
// is only available where sgemm.Available.
type AVX2 struct{ g *sgemm.GEMM }

// NewAVX2 returns an AVX2 kernel with its own buffers and workers, or nil
// when this machine lacks AVX2 or FMA.
func NewAVX2() *AVX2 {
	if !sgemm.Available {
		return nil
	}
	return &AVX2{sgemm.New(goruntime.GOMAXPROCS(0))}
}

func (*AVX2) Name() string { return "avx2-f32" }

func (k *AVX2) Gemm(tA, tB bool, m, n, kk int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	k.g.Gemm(tA, tB, m, n, kk, alpha, a, lda, b, ldb, beta, c, ldc)
}

// DefaultKernel32 returns a new instance of the fastest float32 kernel on
// this machine: AVX2 where the CPU has AVX2 and FMA, gonum otherwise.
func DefaultKernel32() Kernel[float32] {
	if k := NewAVX2(); k != nil {
		return k
	}
	return Gonum32{}
}

// DefaultKernel64 returns the float64 kernel (gonum).
func DefaultKernel64() Kernel[float64] { return Gonum64{} }

// NewEngine returns a CPU engine for shape s and batches of at most batch
// rows, in precision "f32" or "f64", on kernel "auto" (or ""), "gonum" or
// "avx2" (float32 only), and the name of the kernel it runs on.
func NewEngine(s Shape, precision, kernel string, batch int) (Engine, string, error) {
	if err := checkMemory(s, batch, 0); err != nil {
		return nil, "", err
	}
	if precision == "f64" {
		if kernel == "avx2" {
			return nil, "", fmt.Errorf("kernel avx2 is float32 only")
		}
		k := DefaultKernel64()
		e, err := NewCPU[float64](s, k, batch)
		return e, k.Name(), err
	}
	k := DefaultKernel32()
	switch kernel {
	case "gonum":
		k = Gonum32{}
	case "avx2":
		a := NewAVX2()
		if a == nil {
			return nil, "", fmt.Errorf("kernel avx2: this CPU lacks AVX2 or FMA")
		}
		k = a
	}
	e, err := NewCPU[float32](s, k, batch)
	return e, k.Name(), err
}
