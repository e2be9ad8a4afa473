package compiler

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/token"
	"io"

	"github.com/dave/jennifer/jen"

	"github.com/songc/songc/runtime"
)

// UnrollLimit is the largest number of weights (reachable nodes times
// features) compiled as unrolled code; larger models use tables.
const UnrollLimit = 8192

// Layout is how margins are computed in the generated code.
type Layout int

const (
	LayoutAuto     Layout = iota // by size: Unrolled up to UnrollLimit weights, else Tables
	LayoutUnrolled               // one switch case per node, weights as constants
	LayoutTables                 // a weight table and a loop
)

func (l Layout) String() string {
	switch l {
	case LayoutUnrolled:
		return "unrolled"
	case LayoutTables:
		return "tables"
	}
	return "auto"
}

// Options control the generated file.
type Options struct {
	Package string // Go package name; "classifier" when empty
	Layout  Layout
	Version string // songc version, recorded in the header
}

// Plan is what the generated code contains, before rendering.
type Plan struct {
	Classifier *runtime.Classifier
	Package    string
	Layout     Layout
	Why        string // why this layout
	Nodes      []int  // reachable internal nodes, ascending; Nodes[0] is the root
	index      map[int]int
	Hash       string // SHA-256 of the model file encoding
	// schema and first are the model's input columns and the first
	// feature of each, made once by NewPlan.
	schema *runtime.Schema
	first  []int
	// centred holds centres' values of each node of Nodes.
	centred []centred
}

// ModelHash returns the SHA-256 of the model's canonical encoding.
func ModelHash(m *runtime.Model) (string, error) {
	var b bytes.Buffer
	if err := m.Encode(&b); err != nil {
		return "", err
	}
	h := sha256.Sum256(b.Bytes())
	return hex.EncodeToString(h[:]), nil
}

// PackageError reports an unusable package name.
type PackageError struct{ Name string }

func (e *PackageError) Error() string {
	return fmt.Sprintf("package name %q cannot be imported by that name (want an identifier such as classifier, not a keyword, _ or init; or main, to build the classifier into a program)", e.Name)
}

// NewPlan validates m and plans the generated code.
func NewPlan(m *runtime.Model, opt Options) (*Plan, error) {
	pkg := opt.Package
	if pkg == "" {
		pkg = "classifier"
	}
	if !token.IsIdentifier(pkg) || pkg == "_" || pkg == "init" {
		return nil, &PackageError{pkg}
	}
	k, err := runtime.New(m)
	if err != nil {
		return nil, err
	}
	hash, err := ModelHash(m)
	if err != nil {
		return nil, err
	}
	p := &Plan{Classifier: k, Package: pkg, Hash: hash, index: map[int]int{}, schema: m.Inputs()}
	start := 0 // the first feature of each column
	for _, in := range p.schema.Inputs {
		p.first = append(p.first, start)
		start += in.Width()
	}
	for _, s := range k.Reachable() { // ascending: the root first
		if s < k.NumNodes() {
			p.index[s] = len(p.Nodes)
			p.Nodes = append(p.Nodes, s)
			var c centred
			c.centre, c.mean, c.t = p.centresOf(s)
			p.centred = append(p.centred, c)
		}
	}
	weights := len(p.Nodes) * k.NumFeatures()
	p.Layout = opt.Layout
	switch p.Layout {
	case LayoutAuto:
		if weights <= UnrollLimit {
			p.Layout = LayoutUnrolled
			p.Why = fmt.Sprintf("%d weights <= %d: unrolled code with constant weights is fastest and still builds quickly", weights, UnrollLimit)
		} else {
			p.Layout = LayoutTables
			p.Why = fmt.Sprintf("%d weights > %d: a table and a loop keep the file small and the build fast", weights, UnrollLimit)
		}
	case LayoutUnrolled, LayoutTables:
		p.Why = "chosen by the caller"
	default:
		return nil, fmt.Errorf("compiler: unknown layout %d", p.Layout)
	}
	return p, nil
}

// Compile plans and renders m, returning the gofmt'd source.
func Compile(m *runtime.Model, opt Options) ([]byte, *Plan, error) {
	p, err := NewPlan(m, opt)
	if err != nil {
		return nil, nil, err
	}
	var b bytes.Buffer
	if err := p.Render(&b, opt.Version); err != nil {
		return nil, nil, err
	}
	return b.Bytes(), p, nil
}

// Save compiles m into the file path, atomically.
func Save(path string, m *runtime.Model, opt Options) (*Plan, error) {
	src, p, err := Compile(m, opt)
	if err != nil {
		return nil, err
	}
	return p, runtime.WriteFileAtomic(path, func(w io.Writer) error {
		_, err := w.Write(src)
		return err
	})
}

// lit renders a float64 exactly, writing -0 as 0 (see the package comment).
func lit(v float64) *jen.Statement {
	if v == 0 {
		v = 0
	}
	return jen.Lit(v)
}

// constant reports whether every walk ends at the same class, whatever
// the input, and which: every decision of every emitted node leads to
// that class's leaf, or, where it leads to a node, exits to it at the
// step limit.
func (p *Plan) constant() (class int, ok bool) {
	k := p.Classifier
	n := k.NumNodes()
	class = -1
	for _, i := range p.Nodes {
		for _, right := range []bool{false, true} {
			s := k.Left(i)
			if right {
				s = k.Right(i)
			}
			if s < n {
				s = k.Exit(i, right)
			}
			if class >= 0 && s-n != class {
				return 0, false
			}
			class = s - n
		}
	}
	return class, class >= 0
}

// encode returns the generated-code encoding of model state s: the index of
// an emitted node, or ^class for a leaf.
func (p *Plan) encode(s int) int32 {
	n := p.Classifier.NumNodes()
	if s >= n {
		return ^int32(s - n)
	}
	return int32(p.index[s])
}
