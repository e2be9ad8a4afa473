// Command asm generates the AVX2/FMA and AVX-512 SGEMM micro-kernels of package sgemm
// with avo (github.com/mmcloughlin/avo). It is its own module so that avo is
// a build-time tool only; run it through go generate in package sgemm:
//
//	go generate ./trainer/internal/sgemm
package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The AVX2 micro-kernel computes a 6x16 tile: C[i][j] += sum_p A[p][i] *
// B[p][j] for i < 6, j < 16, from packed panels: a holds 6 values per p
// (one per row of C), b holds 16 per p (one per column). Twelve YMM
// registers hold the tile (6 rows x 2 x 8 columns), two hold the current
// row of B and one the broadcast element of A: 15 of the 16 YMM registers.
//
// The AVX-512 micro-kernel computes a 14x32 tile the same way: 28 ZMM
// registers hold the tile (14 rows x 2 x 16 columns), two the current row
// of B and one the broadcast element of A: 31 of the 32 ZMM registers.
// (Broadcasting A's element within each FMA instead, an embedded
// broadcast, loads it once per FMA, twice per row, and measured 7% slower
// on a 2048^3 product.)
//
// Both add the products of each element in the order of p, one FMA at a
// time, and then add the tile to C: an element of C gets the same bits from
// either kernel. They add only the tile's first rows rows, so that a
// panel with fewer rows than the tile (the last of a product, or a small
// product's only one) adds straight into C.
func main() {
	ConstraintExpr("amd64,!purego")
	kernel("kernel6x16", 6, 16, YMM, 8,
		"kernel6x16 adds the product of a packed 6 x k panel of A and a packed",
		"k x 16 panel of B to the first rows (1 to 6) rows of the 6 x 16 tile of",
		"C at c (row stride ldc floats). It needs AVX2 and FMA.")
	kernel("kernel14x32", 14, 32, ZMM, 16,
		"kernel14x32 adds the product of a packed 14 x k panel of A and a packed",
		"k x 32 panel of B to the first rows (1 to 14) rows of the 14 x 32 tile",
		"of C at c (row stride ldc floats). It needs AVX-512F and AVX512DQ",
		"(VXORPS on ZMM registers).")
	Generate()
}

// kernel generates an mr x nr micro-kernel on vector registers made by
// vec, of width floats each.
func kernel(name string, mr, nr int, vec func() VecVirtual, width int, doc ...string) {
	TEXT(name, NOSPLIT, "func(k int, a, b, c *float32, ldc, rows int)")
	Doc(doc...)
	k := Load(Param("k"), GP64())
	a := Load(Param("a"), GP64())
	b := Load(Param("b"), GP64())
	c := Load(Param("c"), GP64())
	ldc := Load(Param("ldc"), GP64())
	rows := Load(Param("rows"), GP64())

	nv := nr / width // registers per row of the tile
	acc := make([][]VecVirtual, mr)
	for i := range acc {
		acc[i] = make([]VecVirtual, nv)
		for j := range acc[i] {
			acc[i][j] = vec()
			VXORPS(acc[i][j], acc[i][j], acc[i][j])
		}
	}

	// Four iterations of p per loop trip, then single ones.
	step := func(off int) {
		bv := make([]VecVirtual, nv)
		for j := range bv {
			bv[j] = vec()
			VMOVUPS(Mem{Base: b, Disp: 4 * (nr*off + width*j)}, bv[j])
		}
		for i := 0; i < mr; i++ {
			av := vec()
			VBROADCASTSS(Mem{Base: a, Disp: 4 * (mr*off + i)}, av)
			for j := range bv {
				VFMADD231PS(bv[j], av, acc[i][j])
			}
		}
	}
	loop4, loop1, store := name+"_loop4", name+"_loop1", name+"_store"
	Label(loop4)
	CMPQ(k, U32(4))
	JL(LabelRef(loop1))
	for u := 0; u < 4; u++ {
		step(u)
	}
	ADDQ(U32(4*4*mr), a)
	ADDQ(U32(4*4*nr), b)
	SUBQ(U32(4), k)
	JMP(LabelRef(loop4))

	Label(loop1)
	CMPQ(k, U32(0))
	JE(LabelRef(store))
	step(0)
	ADDQ(U32(4*mr), a)
	ADDQ(U32(4*nr), b)
	DECQ(k)
	JMP(LabelRef(loop1))

	// C += tile, row by row, the first rows rows.
	Label(store)
	SHLQ(U8(2), ldc) // bytes per row
	done := name + "_done"
	for i := 0; i < mr; i++ {
		if i > 0 {
			CMPQ(rows, U8(i))
			JLE(LabelRef(done))
		}
		for j := 0; j < nv; j++ {
			t := vec()
			VADDPS(Mem{Base: c, Disp: 4 * width * j}, acc[i][j], t)
			VMOVUPS(t, Mem{Base: c, Disp: 4 * width * j})
		}
		if i < mr-1 {
			ADDQ(ldc, c)
		}
	}
	Label(done)
	VZEROUPPER()
	RET()
}
