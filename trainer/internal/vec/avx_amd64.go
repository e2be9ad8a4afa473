//go:build amd64 && !purego

package vec

import "golang.org/x/sys/cpu"

// hasAVX is whether this machine runs the assembly loops.
var hasAVX = cpu.X86.HasAVX
