// Package vec holds elementwise loops of the training step (the mass a
// node splits between its branches, the backward pass of that split, the
// batch narrowed to float32) with the bits of plain Go loops. For float32
// on amd64 with AVX (../asm/vec.go, generated with avo) they run eight lanes
// at a time with no branch per element; for float64, elsewhere, and with
// the purego build tag, they are Go loops.
//
// Every lane does what the Go loop does to its element, one IEEE
// operation at a time, each rounded (no multiply-add is fused), so both
// give the same bits, except that where two NaNs meet either may come
// out.
package vec

//go:generate sh -c "cd ../asm && go run . -pkg vec -out ../vec/vec_amd64.s -stubs ../vec/vec_amd64.go"
