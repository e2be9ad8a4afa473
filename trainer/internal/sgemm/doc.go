// Package sgemm is songc's float32 matrix multiply for the CPU: a packed,
// register-blocked GEMM (the GotoBLAS/BLIS design) on two micro-kernels in
// assembly generated with avo (../asm/sgemm.go), a 14x32 AVX-512 tile and a 6x16
// AVX2/FMA tile, run on up to as many goroutines as it is given.
//
// Has reports whether the machine runs a micro-kernel and Best names the
// widest it runs; callers fall back to gonum otherwise (other
// architectures, CPUs without AVX2 or FMA, or the purego build tag).
//
// Results are deterministic and the same on either tile and any thread
// count: every element of C is accumulated by one goroutine, one FMA per k
// in order within a K block, the blocks in order. That is why Gemm may run
// a product of at most 16 columns on the 6x16 tile on an AVX-512 machine,
// which packs fewer zero columns (GemmPacked keeps its operand's tile). The
// order differs from gonum's, so the two agree to rounding, not bit for bit.
package sgemm

//go:generate sh -c "cd ../asm && go run . -pkg sgemm -out ../sgemm/kernel_amd64.s -stubs ../sgemm/kernel_amd64.go"
