// Command asm generates the AVX2/FMA SGEMM micro-kernel of package sgemm
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

// The micro-kernel computes a 6x16 tile: C[i][j] += sum_p A[p][i] * B[p][j]
// for i < 6, j < 16, from packed panels: a holds 6 values per p (one per
// row of C), b holds 16 per p (one per column). Twelve YMM registers hold the
// tile (6 rows x 2 x 8 columns), two hold the current row of B and one the
// broadcast element of A: 15 of the 16 YMM registers.
const (
	mr = 6
	nr = 16
)

func main() {

	ConstraintExpr("amd64,!purego")

	TEXT("kernel6x16", NOSPLIT, "func(k int, a, b, c *float32, ldc int)")
	Doc("kernel6x16 adds the product of a packed 6 x k panel of A and a packed",
		"k x 16 panel of B to the 6 x 16 tile of C at c (row stride ldc floats).",
		"It needs AVX2 and FMA.")
	k := Load(Param("k"), GP64())
	a := Load(Param("a"), GP64())
	b := Load(Param("b"), GP64())
	c := Load(Param("c"), GP64())
	ldc := Load(Param("ldc"), GP64())

	var acc [mr][2]VecVirtual
	for i := range acc {
		for j := range acc[i] {
			acc[i][j] = YMM()
			VXORPS(acc[i][j], acc[i][j], acc[i][j])
		}
	}

	// Four iterations of p per loop trip, then single ones.
	step := func(off int) {
		b0, b1 := YMM(), YMM()
		VMOVUPS(Mem{Base: b, Disp: 4 * nr * off}, b0)
		VMOVUPS(Mem{Base: b, Disp: 4*nr*off + 32}, b1)
		for i := 0; i < mr; i++ {
			ai := YMM()
			VBROADCASTSS(Mem{Base: a, Disp: 4 * (mr*off + i)}, ai)
			VFMADD231PS(b0, ai, acc[i][0])
			VFMADD231PS(b1, ai, acc[i][1])
		}
	}
	Label("loop4")
	CMPQ(k, U32(4))
	JL(LabelRef("loop1"))
	for u := 0; u < 4; u++ {
		step(u)
	}
	ADDQ(U32(4*4*mr), a)
	ADDQ(U32(4*4*nr), b)
	SUBQ(U32(4), k)
	JMP(LabelRef("loop4"))

	Label("loop1")
	CMPQ(k, U32(0))
	JE(LabelRef("store"))
	step(0)
	ADDQ(U32(4*mr), a)
	ADDQ(U32(4*nr), b)
	DECQ(k)
	JMP(LabelRef("loop1"))

	// C += tile, row by row.
	Label("store")
	SHLQ(U8(2), ldc) // bytes per row
	for i := 0; i < mr; i++ {
		for j := 0; j < 2; j++ {
			t := YMM()
			VADDPS(Mem{Base: c, Disp: 32 * j}, acc[i][j], t)
			VMOVUPS(t, Mem{Base: c, Disp: 32 * j})
		}
		if i < mr-1 {
			ADDQ(ldc, c)
		}
	}
	VZEROUPPER()
	RET()
	Generate()
}
