package dot

import "fmt"

// Dot4 returns the dot products of w with the four rows of x at 0, ld, 2ld
// and 3ld, each len(w) long, each with the bits of floats.Dot(w, row) on
// amd64.
func Dot4(w, x []float64, ld int) [4]float64 {
	n := len(w)
	if ld < n || len(x) < 3*ld+n {
		panic(fmt.Sprintf("dot: 4 rows of %d at stride %d in %d values", n, ld, len(x)))
	}
	n4 := n &^ 3
	var s [16]float64
	if n4 > 0 {
		if hasAVX {
			lanes4(n4, &w[0], &x[0], ld, &s)
		} else {
			lanes4Go(n4, w, x, ld, &s)
		}
	}
	var out [4]float64
	for r := range out {
		row := x[r*ld : r*ld+n]
		a := s[4*r : 4*r+4]
		for i := n4; i < n; i++ {
			a[0] += float64(w[i] * row[i])
		}
		out[r] = (a[0] + a[2]) + (a[1] + a[3])
	}
	return out
}

// Dot returns the dot product of w and x, len(w) long, with the bits of
// floats.Dot(w, x) on amd64.
func Dot(w, x []float64) float64 {
	x = x[:len(w)]
	var a0, a1, a2, a3 float64
	i := 0
	for ; len(w)-i >= 4; i += 4 {
		w4, x4 := w[i:i+4:i+4], x[i:i+4:i+4]
		a0 += float64(w4[0] * x4[0])
		a1 += float64(w4[1] * x4[1])
		a2 += float64(w4[2] * x4[2])
		a3 += float64(w4[3] * x4[3])
	}
	for ; i < len(w); i++ {
		a0 += float64(w[i] * x[i])
	}
	return (a0 + a2) + (a1 + a3)
}

// AddScaled4 adds e[0] times the first of the four rows of x at 0, ld, 2ld
// and 3ld to dst, element by element, then e[1] times the second, and so
// on: the bits of four floats.AddScaled calls in that order.
func AddScaled4(dst []float64, e [4]float64, x []float64, ld int) {
	n := len(dst)
	if ld < n || len(x) < 3*ld+n {
		panic(fmt.Sprintf("dot: 4 rows of %d at stride %d in %d values", n, ld, len(x)))
	}
	n4 := n &^ 3
	if n4 > 0 {
		if hasAVX {
			addScaled4(n4, &dst[0], &e, &x[0], ld)
		} else {
			addScaled4Go(dst[:n4], &e, x, ld)
		}
	}
	for r := range e {
		row := x[r*ld : r*ld+n]
		for i := n4; i < n; i++ {
			dst[i] += float64(e[r] * row[i])
		}
	}
}

// AddScaled adds e times x to dst, element by element, with the bits of
// floats.AddScaled(dst, e, x).
func AddScaled(dst []float64, e float64, x []float64) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] += float64(e * x[i])
	}
}

// lanes4Go is lanes4 in Go.
func lanes4Go(n4 int, w, x []float64, ld int, s *[16]float64) {
	for r := range 4 {
		row := x[r*ld : r*ld+n4]
		var a0, a1, a2, a3 float64
		for i := 0; i < n4; i += 4 {
			w4, x4 := w[i:i+4:i+4], row[i:i+4:i+4]
			a0 += float64(w4[0] * x4[0])
			a1 += float64(w4[1] * x4[1])
			a2 += float64(w4[2] * x4[2])
			a3 += float64(w4[3] * x4[3])
		}
		s[4*r], s[4*r+1], s[4*r+2], s[4*r+3] = a0, a1, a2, a3
	}
}

// addScaled4Go is addScaled4 in Go.
func addScaled4Go(dst []float64, e *[4]float64, x []float64, ld int) {
	n := len(dst)
	x0, x1, x2, x3 := x[:n], x[ld:ld+n], x[2*ld:2*ld+n], x[3*ld:3*ld+n]
	for i := range dst {
		dst[i] = dst[i] + float64(e[0]*x0[i]) + float64(e[1]*x1[i]) + float64(e[2]*x2[i]) + float64(e[3]*x3[i])
	}
}
