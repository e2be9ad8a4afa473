//go:build !amd64 || purego

package sgemm

// The assembly micro-kernels never run on this architecture or with the
// purego tag (Has).
const (
	hasAVX    = false
	hasAVX2   = false
	hasAVX512 = false
)

func kernel6x16(k int, a, b, c *float32, ldc, rows int) {
	panic("sgemm: no micro-kernel on this architecture; check Has(AVX2)")
}

func kernel14x32(k int, a, b, c *float32, ldc, rows int) {
	panic("sgemm: no micro-kernel on this architecture; check Has(AVX512)")
}

func transpose8(kb8 int, panel *float32, w int, src *float32, ld int, alpha float32) {
	panic("sgemm: no assembly on this architecture")
}
