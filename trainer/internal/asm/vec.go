package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// one and abs are float32 constants broadcast to every lane: 1, and the
// mask of all bits but the sign.
var one, abs Mem

// vec generates the float32 loops of package vec.
func vec() {
	one = ConstData("one", U32(0x3f800000))
	abs = ConstData("abs", U32(0x7fffffff))
	split()
	splitGrad()
	addDiff()
	narrow()
}

// ltOQ is VCMPPS's predicate "less than, ordered, quiet": false where
// either operand is NaN, as Go's < is.
const ltOQ = 0x11

// split generates u1 = s*p and u0 = (1-s)*p, eight lanes at a time, each
// lane cleared where its product is below tiny.
func split() {
	text("split", "func(n8 int, u1, u0, s, p *float32, tiny float32)",
		"split sets u1[j] = s[j]*p[j] and u0[j] = (1-s[j])*p[j] for j < n8,",
		"each zero where it is below tiny. n8 is a multiple of 8. It needs AVX.")
	r := params("n8", "u1", "u0", "s", "p")
	n, u1, u0, s, p := r[0], r[1], r[2], r[3], r[4]
	tiny, ones := YMM(), YMM()
	VBROADCASTSS(paramAddr("tiny"), tiny)
	VBROADCASTSS(one, ones)
	loopRet("split", n, 8, func(i Register) {
		sv, pv := YMM(), YMM()
		VMOVUPS(lanes(s, i), sv)
		VMOVUPS(lanes(p, i), pv)
		a, b := YMM(), YMM()
		VMULPS(pv, sv, a)
		VSUBPS(sv, ones, b)
		VMULPS(pv, b, b)
		for _, v := range []struct {
			x   VecVirtual
			dst Register
		}{{a, u1}, {b, u0}} {
			m := YMM()
			VCMPPS(U8(ltOQ), tiny, v.x, m)
			VANDNPS(v.x, m, v.x)
			VMOVUPS(v.x, lanes(v.dst, i))
		}
	})
}

// splitGrad generates Split's backward pass: gs += p*(du1-du0) and gp =
// s*du1 + (1-s)*du0, eight lanes at a time, gp's lanes cleared where
// their magnitude is below tiny.
func splitGrad() {
	text("splitGrad", "func(n8 int, gs, gp, s, p, du1, du0 *float32, tiny float32)",
		"splitGrad adds p[j]*(du1[j]-du0[j]) to gs[j] and sets gp[j] to",
		"s[j]*du1[j] + (1-s[j])*du0[j], or zero where its magnitude is below",
		"tiny, for j < n8. n8 is a multiple of 8. It needs AVX.")
	r := params("n8", "gs", "gp", "s", "p", "du1", "du0")
	n, gs, gp, s, p, du1, du0 := r[0], r[1], r[2], r[3], r[4], r[5], r[6]
	tiny, ones, mask := YMM(), YMM(), YMM()
	VBROADCASTSS(paramAddr("tiny"), tiny)
	VBROADCASTSS(one, ones)
	VBROADCASTSS(abs, mask)
	loopRet("splitGrad", n, 8, func(i Register) {
		d1, d0 := YMM(), YMM()
		VMOVUPS(lanes(du1, i), d1)
		VMOVUPS(lanes(du0, i), d0)
		addDiffLanes(gs, p, i, d1, d0)
		sv, a, b := YMM(), YMM(), YMM()
		VMOVUPS(lanes(s, i), sv)
		VMULPS(d1, sv, a)   // s * d1
		VSUBPS(sv, ones, b) // 1 - s
		VMULPS(d0, b, b)    // (1 - s) * d0
		VADDPS(b, a, a)
		m := YMM()
		VANDPS(mask, a, m)
		VCMPPS(U8(ltOQ), tiny, m, m)
		VANDNPS(a, m, a)
		VMOVUPS(a, lanes(gp, i))
	})
}

// addDiff generates gs += p*(du1-du0), eight lanes at a time: splitGrad
// at the first step, whose mass p has no gradient.
func addDiff() {
	text("addDiff", "func(n8 int, gs, p, du1, du0 *float32)",
		"addDiff adds p[j]*(du1[j]-du0[j]) to gs[j] for j < n8. n8 is a",
		"multiple of 8. It needs AVX.")
	r := params("n8", "gs", "p", "du1", "du0")
	n, gs, p, du1, du0 := r[0], r[1], r[2], r[3], r[4]
	loopRet("addDiff", n, 8, func(i Register) {
		d1, d0 := YMM(), YMM()
		VMOVUPS(lanes(du1, i), d1)
		VMOVUPS(lanes(du0, i), d0)
		addDiffLanes(gs, p, i, d1, d0)
	})
}

// addDiffLanes generates gs[i:i+8] += p[i:i+8] * (d1 - d0), each
// operation rounded.
func addDiffLanes(gs, p, i Register, d1, d0 VecVirtual) {
	x := YMM()
	VSUBPS(d0, d1, x)          // d1 - d0
	VMULPS(lanes(p, i), x, x)  // p * (d1 - d0)
	VADDPS(lanes(gs, i), x, x) // gs + that
	VMOVUPS(x, lanes(gs, i))
}

// narrow generates dst = float32(src), eight values at a time.
func narrow() {
	text("narrow", "func(n8 int, dst *float32, src *float64)",
		"narrow sets dst[i] = float32(src[i]) for i < n8, rounding to nearest.",
		"n8 is a multiple of 8. It needs AVX.")
	r := params("n8", "dst", "src")
	n, dst, src := r[0], r[1], r[2]
	loopRet("narrow", n, 8, func(i Register) {
		lo, hi := XMM(), XMM()
		VCVTPD2PSY(Mem{Base: src, Index: i, Scale: 8}, lo)
		VCVTPD2PSY(Mem{Base: src, Index: i, Scale: 8, Disp: 32}, hi)
		VMOVUPS(lo, lanes(dst, i))
		VMOVUPS(hi, Mem{Base: dst, Index: i, Scale: 4, Disp: 16})
	})
}

// lanes is the float32 vector at element i of the array at base.
func lanes(base, i Register) Mem { return Mem{Base: base, Index: i, Scale: 4} }
