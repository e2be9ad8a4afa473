package dot

import "fmt"

// Dot4 returns the dot products of w with the four rows of x at 0, ld, 2ld
// and 3ld, each len(w) long, each with the bits of floats.Dot(w, row) on
// amd64.
func Dot4(w, x []float64, ld int) [4]float64 {
	n := len(w)
	checkRows(n, x, ld)
	var out [4]float64
	n4 := n &^ 3
	if !hasAVX || n4 == 0 {
		for r := range out {
			out[r] = Dot(w, x[r*ld:r*ld+n])
		}
		return out
	}
	var s [16]float64
	lanes4(n4, &w[0], &x[0], ld, &s)
	for r := range out {
		out[r] = finish([4]float64(s[4*r:4*r+4]), w, x[r*ld:r*ld+n])
	}
	return out
}

// Dot returns the dot product of w and x, len(w) long, with the bits of
// floats.Dot(w, x) on amd64.
func Dot(w, x []float64) float64 {
	x = x[:len(w)]
	return finish(lanes(w, x), w, x)
}

// finish adds the last len(w) % 4 products of w and x to the first of the
// partial sums a of the elements before them and returns their total, as
// floats.Dot's assembly does.
func finish(a [4]float64, w, x []float64) float64 {
	for i := len(w) &^ 3; i < len(w); i++ {
		a[0] += float64(w[i] * x[i])
	}
	return combine(a)
}

// lanes returns floats.Dot's four partial sums over the first len(w) &^ 3
// elements of w and x: sum l adds the products of elements l, l+4, ... in
// order, each rounded before its addition.
func lanes(w, x []float64) [4]float64 {
	var a0, a1, a2, a3 float64
	for i := 0; len(w)-i >= 4; i += 4 {
		w4, x4 := w[i:i+4:i+4], x[i:i+4:i+4]
		a0 += float64(w4[0] * x4[0])
		a1 += float64(w4[1] * x4[1])
		a2 += float64(w4[2] * x4[2])
		a3 += float64(w4[3] * x4[3])
	}
	return [4]float64{a0, a1, a2, a3}
}

// combine adds four partial sums as floats.Dot's assembly does.
func combine(a [4]float64) float64 { return (a[0] + a[2]) + (a[1] + a[3]) }

// AddScaled4 adds e[0] times the first of the four rows of x at 0, ld, 2ld
// and 3ld to dst, element by element, then e[1] times the second, and so
// on: the bits of four floats.AddScaled calls in that order on amd64.
func AddScaled4(dst []float64, e [4]float64, x []float64, ld int) {
	n := len(dst)
	checkRows(n, x, ld)
	n4 := 0
	if hasAVX && n >= 4 {
		n4 = n &^ 3
		addScaled4(n4, &dst[0], &e, &x[0], ld)
	}
	addScaled4Go(dst[n4:], &e, x[n4:], ld)
}

// checkRows panics unless x holds four rows of n values at stride ld.
func checkRows(n int, x []float64, ld int) {
	if ld < n || len(x) < 3*ld+n {
		panic(fmt.Sprintf("dot: 4 rows of %d at stride %d in %d values", n, ld, len(x)))
	}
}

// AddScaled adds e times x to dst, element by element, with the bits of
// floats.AddScaled(dst, e, x) on amd64.
func AddScaled(dst []float64, e float64, x []float64) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] += float64(e * x[i])
	}
}

// addScaled4Go is addScaled4 in Go, for any length.
func addScaled4Go(dst []float64, e *[4]float64, x []float64, ld int) {
	n := len(dst)
	x0, x1, x2, x3 := x[:n], x[ld:ld+n], x[2*ld:2*ld+n], x[3*ld:3*ld+n]
	for i := range dst {
		dst[i] = dst[i] + float64(e[0]*x0[i]) + float64(e[1]*x1[i]) + float64(e[2]*x2[i]) + float64(e[3]*x3[i])
	}
}
