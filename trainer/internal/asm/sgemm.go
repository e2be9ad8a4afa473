package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// sgemm generates the kernels of package sgemm: two micro-kernels and
// transpose8, which packs a transposed operand.
//
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
// broadcast, loads it once per FMA, twice per row, and was slower:
// docs/performance.md, The packed kernels, has the runs.)
//
// Both add the products of each element in the order of p, one FMA at a
// time, and then add the tile to C: an element of C gets the same bits from
// either kernel. They add only the tile's first rows rows, so that a
// panel with fewer rows than the tile (the last of a product, or a small
// product's only one) adds straight into C.
func sgemm() {
	kernel("kernel6x16", 6, 16, YMM, 8,
		"kernel6x16 adds the product of a packed 6 x k panel of A and a packed",
		"k x 16 panel of B to the first rows (1 to 6) rows of the 6 x 16 tile of",
		"C at c (row stride ldc floats). It needs AVX2 and FMA.")
	kernel("kernel14x32", 14, 32, ZMM, 16,
		"kernel14x32 adds the product of a packed 14 x k panel of A and a packed",
		"k x 32 panel of B to the first rows (1 to 14) rows of the 14 x 32 tile",
		"of C at c (row stride ldc floats). It needs AVX-512F and AVX512DQ",
		"(VXORPS on ZMM registers).")
	transpose8()
}

// kernel generates an mr x nr micro-kernel on vector registers made by
// newReg, of width floats each.
func kernel(name string, mr, nr int, newReg func() VecVirtual, width int, doc ...string) {
	text(name, "func(k int, a, b, c *float32, ldc, rows int)", doc...)
	r := params("k", "a", "b", "c", "ldc", "rows")
	k, a, b, c, ldc, rows := r[0], r[1], r[2], r[3], r[4], r[5]

	nv := nr / width // registers per row of the tile
	acc := make([][]VecVirtual, mr)
	for i := range acc {
		acc[i] = make([]VecVirtual, nv)
		for j := range acc[i] {
			acc[i][j] = newReg()
			VXORPS(acc[i][j], acc[i][j], acc[i][j])
		}
	}

	// Four iterations of p per loop trip, then single ones.
	step := func(off int) {
		bv := make([]VecVirtual, nv)
		for j := range bv {
			bv[j] = newReg()
			VMOVUPS(Mem{Base: b, Disp: 4 * (nr*off + width*j)}, bv[j])
		}
		for i := 0; i < mr; i++ {
			av := newReg()
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
			t := newReg()
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

// transpose8 generates the packing of an 8-row strip of a source whose
// rows become a panel's columns: 8x8 blocks loaded a row each, transposed
// in registers (unpack, shuffle, then swap 128-bit halves), scaled by
// alpha and stored a panel row each.
func transpose8() {
	text("transpose8", "func(kb8 int, panel *float32, w int, src *float32, ld int, alpha float32)",
		"transpose8 sets panel[p*w+i] = alpha*src[i*ld+p] for i < 8 and p < kb8,",
		"each product rounded to float32. kb8 is a multiple of 8. It needs AVX.")
	p := params("kb8", "panel", "w", "src", "ld")
	kb, o0, w, s0, ld := p[0], p[1], p[2], p[3], p[4]
	alpha := YMM()
	VBROADCASTSS(paramAddr("alpha"), alpha)
	SHLQ(U8(2), w) // bytes per panel row
	SHLQ(U8(2), ld)
	w3, ld3 := GP64(), GP64()
	LEAQ(Mem{Base: w, Index: w, Scale: 2}, w3)
	LEAQ(Mem{Base: ld, Index: ld, Scale: 2}, ld3)
	s4, o4 := GP64(), GP64()
	LEAQ(Mem{Base: s0, Index: ld, Scale: 4}, s4)
	LEAQ(Mem{Base: o0, Index: w, Scale: 4}, o4)
	// Row r of a block is at s0 or s4 (r >= 4) plus 0, ld, 2 ld or 3 ld;
	// panel row q likewise at o0 or o4 plus 0, w, 2 w or 3 w.
	at := func(b0, b4, one, three Register, r int) Mem {
		base := b0
		if r >= 4 {
			base = b4
		}
		switch r % 4 {
		case 1:
			return Mem{Base: base, Index: one, Scale: 1}
		case 2:
			return Mem{Base: base, Index: one, Scale: 2}
		case 3:
			return Mem{Base: base, Index: three, Scale: 1}
		}
		return Mem{Base: base}
	}
	Label("transpose8_loop")
	CMPQ(kb, U8(0))
	JE(LabelRef("transpose8_done"))
	var r [8]VecVirtual
	for i := range r {
		r[i] = YMM()
		VMOVUPS(at(s0, s4, ld, ld3, i), r[i])
	}
	// t[2k] and t[2k+1]: rows 2k and 2k+1 interleaved, low and high
	// pairs of each 128-bit half.
	var t [8]VecVirtual
	for k := 0; k < 4; k++ {
		t[2*k], t[2*k+1] = YMM(), YMM()
		VUNPCKLPS(r[2*k+1], r[2*k], t[2*k])
		VUNPCKHPS(r[2*k+1], r[2*k], t[2*k+1])
	}
	// u: four rows' elements q, q+4 of each half, for the four q.
	var u [8]VecVirtual
	for h := 0; h < 2; h++ { // rows 0-3, rows 4-7
		a, b := t[4*h], t[4*h+2]   // low pairs of rows (0,1) and (2,3)
		c, d := t[4*h+1], t[4*h+3] // high pairs
		for q, src := range [][2]VecVirtual{{a, b}, {a, b}, {c, d}, {c, d}} {
			u[4*h+q] = YMM()
			imm := U8(0x44) // elements 0 and 1 of each: column 0 (or 2)
			if q%2 == 1 {
				imm = U8(0xee) // elements 2 and 3: column 1 (or 3)
			}
			VSHUFPS(imm, src[1], src[0], u[4*h+q])
		}
	}
	// Panel row q: u[q]'s and u[4+q]'s halves, the low ones for q < 4.
	for q := 0; q < 8; q++ {
		v := YMM()
		imm := U8(0x20)
		if q >= 4 {
			imm = U8(0x31)
		}
		VPERM2F128(imm, u[4+q%4], u[q%4], v)
		VMULPS(alpha, v, v)
		VMOVUPS(v, at(o0, o4, w, w3, q))
	}
	ADDQ(U8(32), s0)
	ADDQ(U8(32), s4)
	LEAQ(Mem{Base: o0, Index: w, Scale: 8}, o0)
	LEAQ(Mem{Base: o4, Index: w, Scale: 8}, o4)
	SUBQ(U8(8), kb)
	JMP(LabelRef("transpose8_loop"))
	Label("transpose8_done")
	VZEROUPPER()
	RET()
}
