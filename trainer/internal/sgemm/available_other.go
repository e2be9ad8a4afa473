//go:build !amd64 || purego

package sgemm

// Available reports whether this machine runs the assembly micro-kernel:
// never on this architecture or with the purego tag.
const Available = false

func kernel6x16(k int, a, b, c *float32, ldc int) {
	panic("sgemm: no micro-kernel on this architecture; check Available")
}
