//go:build amd64 && !purego

package sgemm

import "golang.org/x/sys/cpu"

// Available reports whether this machine runs the AVX2 micro-kernel, and
// AvailableAVX512 whether it runs the AVX-512 one.
var (
	Available       = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	AvailableAVX512 = cpu.X86.HasAVX512F
)
