//go:build amd64 && !purego

package sgemm

import "golang.org/x/sys/cpu"

// Whether this machine runs the AVX2 and the AVX-512 micro-kernels (Has).
// The AVX-512 kernel clears its ZMM accumulators with VXORPS, an AVX512DQ
// instruction; its other instructions are AVX512F.
// hasAVX: whether packing runs transpose8.
var (
	hasAVX    = cpu.X86.HasAVX
	hasAVX2   = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	hasAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ
)
