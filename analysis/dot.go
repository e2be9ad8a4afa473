package analysis

import (
	"fmt"
	"strconv"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/encoding"
	"gonum.org/v1/gonum/graph/encoding/dot"
	"gonum.org/v1/gonum/graph/multi"
)

// dotNode is a state of the drawn graph.
type dotNode struct {
	id    int64
	attrs []encoding.Attribute
}

func (n dotNode) ID() int64                        { return n.id }
func (n dotNode) DOTID() string                    { return "s" + strconv.FormatInt(n.id, 10) }
func (n dotNode) Attributes() []encoding.Attribute { return n.attrs }

// dotLine is a line of the drawn graph, styled by its side as in the paper:
// M0 (left) dashed blue, M1 (right) solid red.
type dotLine struct {
	f, t  graph.Node
	side  Side
	faint bool
}

func (l dotLine) From() graph.Node { return l.f }
func (l dotLine) To() graph.Node   { return l.t }
func (l dotLine) ID() int64        { return int64(l.side) }
func (l dotLine) ReversedLine() graph.Line {
	return dotLine{f: l.t, t: l.f, side: l.side, faint: l.faint}
}
func (l dotLine) Attributes() []encoding.Attribute {
	a := []encoding.Attribute{{Key: "color", Value: "blue"}, {Key: "style", Value: "dashed"}}
	if l.side == Right {
		a = []encoding.Attribute{{Key: "color", Value: "red"}, {Key: "style", Value: "solid"}}
	}
	if l.faint {
		a[0].Value = "gray80"
	}
	return a
}

type dotGraph struct{ *multi.DirectedGraph }

func (dotGraph) DOTAttributers() (g, n, e encoding.Attributer) {
	return &encoding.Attributes{{Key: "rankdir", Value: "TB"}, {Key: "ordering", Value: "out"}},
		&encoding.Attributes{{Key: "shape", Value: "circle"}, {Key: "fontname", Value: "Helvetica"}},
		&encoding.Attributes{{Key: "arrowsize", Value: "0.6"}}
}

// DOT returns the binary graph in Graphviz DOT: the root on top, M0 lines
// dashed blue, M1 lines solid red, leaves with double borders labelled with
// their class names. Unreachable states are left out, or drawn in grey when
// all is set.
func (b *Binary) DOT(all bool) ([]byte, error) {
	k := b.K
	n, c := k.NumNodes(), k.NumClasses()
	reach := map[int]bool{}
	for _, s := range b.Reachable() {
		reach[s] = true
	}
	g := dotGraph{multi.NewDirectedGraph()}
	node := func(s int) dotNode {
		var attrs []encoding.Attribute
		if s >= n {
			attrs = []encoding.Attribute{{Key: "label", Value: strconv.Quote(k.Model.ClassNames[s-n])},
				{Key: "peripheries", Value: "2"}, {Key: "shape", Value: "box"}}
		} else {
			attrs = []encoding.Attribute{{Key: "label", Value: strconv.Quote(strconv.Itoa(s))}}
			if s == 0 {
				attrs = append(attrs, encoding.Attribute{Key: "style", Value: "bold"})
			}
		}
		if !reach[s] {
			attrs = append(attrs, encoding.Attribute{Key: "color", Value: "gray70"}, encoding.Attribute{Key: "fontcolor", Value: "gray70"})
		}
		return dotNode{id: int64(s), attrs: attrs}
	}
	for s := 0; s < n+c; s++ {
		if reach[s] || all {
			g.AddNode(node(s))
		}
	}
	for i := 0; i < n; i++ {
		if !reach[i] && !all {
			continue
		}
		for _, side := range []Side{Left, Right} {
			to := k.Left(i)
			if side == Right {
				to = k.Right(i)
			}
			g.SetLine(dotLine{f: g.Node(int64(i)), t: g.Node(int64(to)), side: side, faint: !reach[i]})
		}
	}
	out, err := dot.MarshalMulti(g, "song", "", "  ")
	if err != nil {
		return nil, fmt.Errorf("analysis: encoding DOT: %v", err)
	}
	return append(out, '\n'), nil
}
