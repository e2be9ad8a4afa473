package vec

import (
	"fmt"
	"math"
	"unsafe"
)

// Float is the element type of the loops: float32, whose loops have
// assembly, or float64.
type Float interface{ ~float32 | ~float64 }

// single reports whether T is float32.
func single[T Float]() bool {
	var z T
	return unsafe.Sizeof(z) == 4
}

// Split sets u1[j] = s[j]*p[j] and u0[j] = (1-s[j])*p[j] for every j <
// len(s), each product rounded to T, and sets to zero those below tiny:
// the masses a node sends right and left. u1, u0 and p must be at least
// as long as s.
func Split[T Float](u1, u0, s, p []T, tiny T) {
	n := len(s)
	if len(u1) < n || len(u0) < n || len(p) < n {
		panic(fmt.Sprintf("vec: Split of %d values into %d and %d from %d", n, len(u1), len(u0), len(p)))
	}
	n8 := 0
	if hasAVX && single[T]() && n >= 8 {
		n8 = n &^ 7
		split(n8, f32(&u1[0]), f32(&u0[0]), f32(&s[0]), f32(&p[0]), float32(tiny))
	}
	u1, u0, p = u1[n8:n], u0[n8:n], p[n8:n]
	for j, sv := range s[n8:] {
		a, b := sv*p[j], (1-sv)*p[j]
		if a < tiny {
			a = 0
		}
		if b < tiny {
			b = 0
		}
		u1[j], u0[j] = a, b
	}
}

// SplitGrad is Split's backward pass. Given the gradients du1 and du0 with
// respect to Split's u1 and u0, it adds p[j]*(du1[j]-du0[j]) to gs[j], the
// gradient with respect to s[j], and sets gp[j], the gradient with respect
// to p[j], to s[j]*du1[j] + (1-s[j])*du0[j], or to zero where its
// magnitude is below tiny. Every operation is rounded to T, none fused.
// gp may be nil (p is the root's constant mass); otherwise it, and gs, p,
// du1 and du0, must be at least as long as s. gs must not overlap s (the
// assembly writes gs[j] before it reads s[j]).
func SplitGrad[T Float](gs, gp, s, p, du1, du0 []T, tiny T) {
	n := len(s)
	if len(gs) < n || len(p) < n || len(du1) < n || len(du0) < n || gp != nil && len(gp) < n {
		panic(fmt.Sprintf("vec: SplitGrad of %d values with %d, %d, %d, %d and %d", n, len(gs), len(gp), len(p), len(du1), len(du0)))
	}
	n8 := 0
	if hasAVX && single[T]() && n >= 8 {
		n8 = n &^ 7
		if gp == nil {
			addDiff(n8, f32(&gs[0]), f32(&p[0]), f32(&du1[0]), f32(&du0[0]))
		} else {
			splitGrad(n8, f32(&gs[0]), f32(&gp[0]), f32(&s[0]), f32(&p[0]), f32(&du1[0]), f32(&du0[0]), float32(tiny))
		}
	}
	gs, p, du1, du0 = gs[n8:n], p[n8:n], du1[n8:n], du0[n8:n]
	if gp == nil {
		for j := range gs {
			gs[j] += T(p[j] * (du1[j] - du0[j]))
		}
		return
	}
	gp = gp[n8:n]
	for j, sv := range s[n8:] {
		d1, d0 := du1[j], du0[j]
		gs[j] += T(p[j] * (d1 - d0))
		g := T(sv*d1) + T((1-sv)*d0)
		// One test of the magnitude: the sign is random, and a test on
		// each side of zero would be mispredicted half the time.
		if math.Abs(float64(g)) < float64(tiny) {
			g = 0
		}
		gp[j] = g
	}
}

// Narrow sets dst[i] = T(src[i]) for every i < len(src), rounding to
// nearest. dst must be at least as long as src.
func Narrow[T Float](dst []T, src []float64) {
	n := len(src)
	if len(dst) < n {
		panic(fmt.Sprintf("vec: Narrow of %d values into %d", n, len(dst)))
	}
	n8 := 0
	if hasAVX && single[T]() && n >= 8 {
		n8 = n &^ 7
		narrow(n8, f32(&dst[0]), &src[0])
	}
	dst = dst[n8:n]
	for i, v := range src[n8:] {
		dst[i] = T(v)
	}
}

// f32 is p as a *float32; only called where T is float32.
func f32[T Float](p *T) *float32 { return (*float32)(unsafe.Pointer(p)) }
