//go:build amd64 && !purego

package sgemm

import "golang.org/x/sys/cpu"

// Available reports whether this machine runs the assembly micro-kernel.
var Available = cpu.X86.HasAVX2 && cpu.X86.HasFMA
