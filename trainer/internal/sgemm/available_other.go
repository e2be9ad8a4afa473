//go:build !amd64 || purego

package sgemm

// Available and AvailableAVX512 report whether this machine runs the
// assembly micro-kernels: never on this architecture or with the purego
// tag.
const (
	Available       = false
	AvailableAVX512 = false
)

func kernel6x16(k int, a, b, c *float32, ldc int) {
	panic("sgemm: no micro-kernel on this architecture; check Available")
}

func kernel14x32(k int, a, b, c *float32, ldc int) {
	panic("sgemm: no micro-kernel on this architecture; check AvailableAVX512")
}
