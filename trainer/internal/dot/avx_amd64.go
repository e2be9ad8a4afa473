//go:build amd64 && !purego

package dot

import "golang.org/x/sys/cpu"

// hasAVX is whether this machine runs the assembly kernels.
var hasAVX = cpu.X86.HasAVX
