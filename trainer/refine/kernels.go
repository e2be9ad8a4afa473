package refine

import "github.com/songc/songc/runtime"

// margins4 returns runtime.Margin(w, b, x) for four rows x0..x3, bit for
// bit: each row's products are added in the same order, each rounded to
// float64 before the addition. A margin is a chain of dependent additions,
// and four such chains side by side run in about the time of one.
func margins4(w []float64, b float64, x0, x1, x2, x3 []float64) (m0, m1, m2, m3 float64) {
	x0, x1, x2, x3 = x0[:len(w)], x1[:len(w)], x2[:len(w)], x3[:len(w)]
	var s0, s1, s2, s3 float64
	for j, wj := range w {
		s0 += float64(wj * x0[j])
		s1 += float64(wj * x1[j])
		s2 += float64(wj * x2[j])
		s3 += float64(wj * x3[j])
	}
	return s0 + b, s1 + b, s2 + b, s3 + b
}

// marginsRows writes runtime.Margin(w, b, row) of each row of x (rows of
// len(w) values, one after another) to dst.
func marginsRows(dst []float64, w []float64, b float64, x []float64) {
	d := len(w)
	r := 0
	for ; r+4 <= len(dst); r += 4 {
		dst[r], dst[r+1], dst[r+2], dst[r+3] = margins4(w, b, x[r*d:(r+1)*d], x[(r+1)*d:(r+2)*d], x[(r+2)*d:(r+3)*d], x[(r+3)*d:(r+4)*d])
	}
	for ; r < len(dst); r++ {
		dst[r] = runtime.Margin(w, b, x[r*d:(r+1)*d])
	}
}
