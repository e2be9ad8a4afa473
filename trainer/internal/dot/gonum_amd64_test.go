//go:build amd64 && !noasm && !gccgo && !safe

package dot

// gonumAsm is whether gonum's floats.Dot runs its amd64 assembly, whose
// order Dot keeps.
const gonumAsm = true
