package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// dot generates the float64 kernels of package dot.
func dot() {
	lanes4()
	addScaled4()
}

// lanes4 generates the four partial sums of four rows' dot products: YMM
// register r holds row r's sums, lane l the products of elements l, l+4,
// l+8, ..., each multiplied and then added (no fused multiply-add).
func lanes4() {
	text("lanes4", "func(n4 int, w, x *float64, ld int, out *[16]float64)",
		"lanes4 writes to out[4r:4r+4] the four partial sums of the dot product",
		"of w[:n4] with row r < 4 of x (rows ld floats apart): sum l adds the",
		"products of elements l, l+4, ... in order. n4 is a multiple of 4.",
		"It needs AVX.")
	reg := params("n4", "w", "out")
	n, w, out := reg[0], reg[1], reg[2]
	rows := fourRows()
	var acc [4]VecVirtual
	for r := range acc {
		acc[r] = YMM()
		VXORPD(acc[r], acc[r], acc[r])
	}
	loop("lanes4", n, 4, func(i Register) {
		wv := YMM()
		VMOVUPD(Mem{Base: w, Index: i, Scale: 8}, wv)
		for r := range acc {
			p := YMM()
			VMULPD(Mem{Base: rows[r], Index: i, Scale: 8}, wv, p)
			VADDPD(p, acc[r], acc[r])
		}
	})
	for r := range acc {
		VMOVUPD(acc[r], Mem{Base: out, Disp: 32 * r})
	}
	VZEROUPPER()
	RET()
}

// addScaled4 generates dst += e0*x0 + e1*x1 + e2*x2 + e3*x3, element by
// element, adding the rounded products one at a time in that order.
func addScaled4() {
	text("addScaled4", "func(n4 int, dst *float64, e *[4]float64, x *float64, ld int)",
		"addScaled4 adds e[0]*x0, e[1]*x1, e[2]*x2 and e[3]*x3 in that order to",
		"dst[:n4], element by element, where xr is row r of x (rows ld floats",
		"apart), each product rounded before its addition. n4 is a multiple of",
		"4. It needs AVX.")
	reg := params("n4", "dst", "e")
	n, dst, e := reg[0], reg[1], reg[2]
	rows := fourRows()
	var ev [4]VecVirtual
	for r := range ev {
		ev[r] = YMM()
		VBROADCASTSD(Mem{Base: e, Disp: 8 * r}, ev[r])
	}
	loopRet("addScaled4", n, 4, func(i Register) {
		s := YMM()
		VMOVUPD(Mem{Base: dst, Index: i, Scale: 8}, s)
		for r := range ev {
			p := YMM()
			VMULPD(Mem{Base: rows[r], Index: i, Scale: 8}, ev[r], p)
			VADDPD(p, s, s)
		}
		VMOVUPD(s, Mem{Base: dst, Index: i, Scale: 8})
	})
}

// fourRows loads the parameters x and ld and returns registers that
// point at rows 0..3 of x, ld floats apart.
func fourRows() [4]Register {
	reg := params("x", "ld")
	x, ld := reg[0], reg[1]
	SHLQ(U8(3), ld) // bytes per row
	rows := [4]Register{x, GP64(), GP64(), GP64()}
	for r := 1; r < 4; r++ {
		LEAQ(Mem{Base: rows[r-1], Index: ld, Scale: 1}, rows[r])
	}
	return rows
}
