// Command asm generates the assembly kernels of packages sgemm, dot and vec
// with avo (github.com/mmcloughlin/avo): the package named by -pkg. It is
// its own module so that avo is a build-time tool only; run it through go
// generate in those packages:
//
//	go generate ./trainer/internal/sgemm ./trainer/internal/dot ./trainer/internal/vec
package main

import (
	"flag"
	"fmt"
	"os"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

func main() {
	flag.Parse()
	ConstraintExpr("amd64,!purego")
	switch pkg := flag.Lookup("pkg").Value.String(); pkg {
	case "sgemm":
		sgemm()
	case "dot":
		dot()
	case "vec":
		vec()
	default:
		fmt.Fprintf(os.Stderr, "asm: -pkg must be sgemm, dot or vec, got %q\n", pkg)
		os.Exit(2)
	}
	Generate()
}

// text starts the function name, with Go signature sig and the lines of
// its doc comment, its pointer arguments kept from escaping.
func text(name, sig string, doc ...string) {
	TEXT(name, NOSPLIT, sig)
	Pragma("noescape")
	Doc(doc...)
}

// params loads the named integer and pointer parameters into registers, in
// that order.
func params(names ...string) []Register {
	r := make([]Register, len(names))
	for k, name := range names {
		r[k] = Load(Param(name), GP64())
	}
	return r
}

// paramAddr returns the address of the named scalar parameter (a float to
// broadcast, say), as the function's signature lays it out.
func paramAddr(name string) Mem {
	b, err := Param(name).Resolve()
	if err != nil {
		panic(fmt.Sprintf("asm: parameter %s: %v", name, err))
	}
	return b.Addr
}

// loop generates the loop of the function name: body for i = 0, step,
// 2*step, ... while i < n (a multiple of step).
func loop(name string, n Register, step int, body func(i Register)) {
	i := GP64()
	XORQ(i, i)
	Label(name + "_loop")
	CMPQ(i, n)
	JGE(LabelRef(name + "_done"))
	body(i)
	ADDQ(U8(step), i)
	JMP(LabelRef(name + "_loop"))
	Label(name + "_done")
}

// loopRet generates loop, then the function's return (after VZEROUPPER,
// since the loop's body uses the vector registers).
func loopRet(name string, n Register, step int, body func(i Register)) {
	loop(name, n, step, body)
	VZEROUPPER()
	RET()
}
