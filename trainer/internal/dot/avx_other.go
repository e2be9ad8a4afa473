//go:build !amd64 || purego

package dot

// hasAVX is false: the kernels are Go's.
const hasAVX = false

func lanes4(n4 int, w, x *float64, ld int, out *[16]float64) {
	panic("dot: no assembly kernels in this build")
}

func addScaled4(n4 int, dst *float64, e *[4]float64, x *float64, ld int) {
	panic("dot: no assembly kernels in this build")
}
