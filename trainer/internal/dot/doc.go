// Package dot holds the float64 dot products and scaled additions of
// songc's hard-walk refiner, four rows at a time, with the bits that
// gonum's floats.Dot and floats.AddScaled give on amd64 (its assembly), on
// every architecture. (Where gonum runs no assembly, on other
// architectures and with its noasm tag, its floats.Dot is a plain loop in
// another order, and its floats.AddScaled may fuse multiply-adds.)
//
// floats.Dot's assembly on amd64 keeps four partial sums, element i going
// to sum i mod 4 in order (each product rounded before its addition), adds
// the last len%4 elements to the first sum, and returns (s0+s2)+(s1+s3).
// Dot4 keeps the same four sums for each of four rows: on amd64 with AVX
// (../asm/dot.go, generated with avo) each row's sums are one YMM register, so
// the four rows' chains of additions overlap where floats.Dot waits on its
// own; elsewhere, and with the purego build tag, in Go. A scaled addition
// is element by element, so doing four rows' at once in one pass over dst
// gives the bits of four floats.AddScaled calls in order.
//
// No multiply-add is fused: every product is rounded to float64 before it
// is added, as in gonum's SSE2 code.
//
// Sparse holds rows by their nonzero values (raw pixels are mostly zeros)
// and gives the same bits as the dense functions on them, reading only
// those values.
package dot

//go:generate sh -c "cd ../asm && go run . -pkg dot -out ../dot/dot_amd64.s -stubs ../dot/dot_amd64.go"
