package dot

import (
	"fmt"
	"slices"
)

// Sparse holds rows by their nonzero values, in column order. Its Dot and
// AddScaled give the bits of the dense functions on the same rows when
// the weights are finite and no sum is -0: a product with a zero is a
// zero, and adding a zero leaves a sum as it was unless the sum is -0 (a
// sum that starts at +0 never is), so only the nonzero values need
// reading. On inputs that are mostly
// zeros (raw pixels) that is a fraction of the memory and of the work.
type Sparse struct {
	// Cols is the length of a row.
	Cols int
	// Row r's values are Val[Start[r]:Start[r+1]], in columns
	// Idx[Start[r]:Start[r+1]], ascending.
	Start []int
	Idx   []int32
	Val   []float64
}

// Reset empties s for rows of cols values, with room for nonzeros of
// them.
func (s *Sparse) Reset(cols, nonzeros int) {
	s.Cols = cols
	s.Start = append(s.Start[:0], 0)
	s.Idx, s.Val = slices.Grow(s.Idx[:0], nonzeros), slices.Grow(s.Val[:0], nonzeros)
}

// Append adds a row of s.Cols values.
func (s *Sparse) Append(x []float64) {
	for j, v := range x[:s.Cols] {
		if v != 0 {
			s.Idx = append(s.Idx, int32(j))
			s.Val = append(s.Val, v)
		}
	}
	s.Start = append(s.Start, len(s.Idx))
}

// AppendFrom adds row r of t, which has s.Cols columns too.
func (s *Sparse) AppendFrom(t *Sparse, r int) {
	lo, hi := t.Start[r], t.Start[r+1]
	s.Idx = append(s.Idx, t.Idx[lo:hi]...)
	s.Val = append(s.Val, t.Val[lo:hi]...)
	s.Start = append(s.Start, len(s.Idx))
}

// Dense writes row r to dst, s.Cols long.
func (s *Sparse) Dense(dst []float64, r int) {
	clear(dst[:s.Cols])
	lo, hi := s.Start[r], s.Start[r+1]
	for k, j := range s.Idx[lo:hi] {
		dst[j] = s.Val[lo+k]
	}
}

// Dot returns Dot(w, row r) with its bits when every element of w is
// finite; len(w) is s.Cols. Each value goes to the partial sum that Dot
// gives its column: the column mod 4, and the first sum for the last
// Cols mod 4 columns.
func (s *Sparse) Dot(w []float64, r int) float64 {
	if len(w) != s.Cols {
		panic(fmt.Sprintf("dot: %d weights for rows of %d", len(w), s.Cols))
	}
	lo, hi := s.Start[r], s.Start[r+1]
	idx, val := s.Idx[lo:hi], s.Val[lo:hi]
	val = val[:len(idx)]
	n4 := int32(len(w) &^ 3)
	var a [4]float64
	for k, j := range idx {
		l := j & 3
		if j >= n4 {
			l = 0
		}
		a[l] += float64(w[j] * val[k])
	}
	return combine(a)
}

// AddScaled adds e times row r to dst, element by element, with the bits
// of AddScaled on the dense row when e is finite and no element of dst is
// -0; len(dst) is s.Cols.
func (s *Sparse) AddScaled(dst []float64, e float64, r int) {
	lo, hi := s.Start[r], s.Start[r+1]
	idx, val := s.Idx[lo:hi], s.Val[lo:hi]
	val = val[:len(idx)]
	for k, j := range idx {
		dst[j] += float64(e * val[k])
	}
}

// Sequential returns the sum of w[j]*x[j] over row r's columns in order,
// one product after another from +0, the order of a plain loop (such as
// runtime.Margin's), with its bits when every element of w is finite.
func (s *Sparse) Sequential(w []float64, r int) float64 {
	lo, hi := s.Start[r], s.Start[r+1]
	idx, val := s.Idx[lo:hi], s.Val[lo:hi]
	val = val[:len(idx)]
	var sum float64
	for k, j := range idx {
		sum += float64(w[j] * val[k])
	}
	return sum
}
