// Package sgemm is songc's float32 matrix multiply for the CPU: a packed,
// register-blocked GEMM (the GotoBLAS/BLIS design) whose 6x16 micro-kernel
// is AVX2/FMA assembly generated with avo (asm/asm.go), run on both cores.
//
// Available reports whether the machine can run it; callers fall back to
// gonum otherwise (other architectures, CPUs without AVX2 or FMA, or the
// purego build tag).
//
// Results are deterministic for a given shape and thread count: every
// element of C is accumulated by one goroutine in a fixed order (K blocks in
// order, and within a block the micro-kernel's fixed order). The order
// differs from gonum's, so the two agree to rounding, not bit for bit.
package sgemm

//go:generate sh -c "cd asm && go run . -pkg sgemm -out ../kernel_amd64.s -stubs ../kernel_amd64.go"
