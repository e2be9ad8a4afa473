//go:build !amd64 || purego

package vec

// hasAVX is false: the loops are Go's.
const hasAVX = false

func split(n8 int, u1, u0, s, p *float32, tiny float32) {
	panic("vec: no assembly in this build")
}

func narrow(n8 int, dst *float32, src *float64) {
	panic("vec: no assembly in this build")
}

func splitGrad(n8 int, gs, gp, s, p, du1, du0 *float32, tiny float32) {
	panic("vec: no assembly in this build")
}

func addDiff(n8 int, gs, p, du1, du0 *float32) {
	panic("vec: no assembly in this build")
}
