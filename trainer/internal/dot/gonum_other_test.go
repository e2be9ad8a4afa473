//go:build !amd64 || noasm || gccgo || safe

package dot

// gonumAsm is false: gonum's floats.Dot is a plain loop here, in another
// order than Dot's.
const gonumAsm = false
