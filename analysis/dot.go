package analysis

import (
	"fmt"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/encoding"
	"gonum.org/v1/gonum/graph/encoding/dot"
	"gonum.org/v1/gonum/graph/multi"
)

// DrawOptions say what DOT draws besides the graph.
type DrawOptions struct {
	// All draws the states not reachable from the root too, in grey.
	All bool
	// About names the model in the title.
	About About
	// FeatureNames name the inputs in the node tests (nil: x1..xd).
	FeatureNames []string
	// Terms is the number of strongest features shown per node test
	// (0: 3).
	Terms int
}

// Edge styles, shared by the graph and its legend. M0 (left) is dashed
// blue and M1 (right) solid red, as in the paper's figures.
var (
	leftStyle  = []encoding.Attribute{{Key: "color", Value: "blue"}, {Key: "style", Value: "dashed"}}
	rightStyle = []encoding.Attribute{{Key: "color", Value: "red"}, {Key: "style", Value: "solid"}}
)

// dotNode is a state of the drawn graph, or (with a name) a node of the
// legend.
type dotNode struct {
	id    int64
	name  string
	attrs []encoding.Attribute
}

func (n dotNode) ID() int64 { return n.id }
func (n dotNode) DOTID() string {
	if n.name != "" {
		return n.name
	}
	return "s" + strconv.FormatInt(n.id, 10)
}
func (n dotNode) Attributes() []encoding.Attribute { return n.attrs }

// dotLine is a line of the drawn graph, styled by its side.
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
	a := append([]encoding.Attribute(nil), leftStyle...)
	if l.side == Right {
		a = append([]encoding.Attribute(nil), rightStyle...)
	}
	if l.faint {
		a[0].Value = "gray80"
	}
	return a
}

// dotGraph is the drawing: the states and their right lines, the left
// lines in a subgraph written before them, and a legend as a cluster.
//
// Graphviz's ordering=out draws a node's out-lines left to right in the
// order the file defines them, and the encoder writes a graph's lines by
// target ID; holding the left lines in a subgraph, which the encoder writes
// first, is what puts every left child on the left.
type dotGraph struct {
	*multi.DirectedGraph
	attrs  encoding.Attributes
	left   *dotSubgraph
	legend *dotSubgraph
}

func (g dotGraph) DOTAttributers() (gr, n, e encoding.Attributer) {
	return &g.attrs,
		&encoding.Attributes{{Key: "shape", Value: "box"}, {Key: "style", Value: "rounded"},
			{Key: "fontname", Value: "Helvetica"}, {Key: "fontsize", Value: "10"}},
		&encoding.Attributes{{Key: "arrowsize", Value: "0.6"}}
}

func (g dotGraph) Structure() []dot.Multigraph { return []dot.Multigraph{g.legend, g.left} }

type dotSubgraph struct {
	*multi.DirectedGraph
	id    string
	attrs encoding.Attributes
}

func (s *dotSubgraph) DOTID() string { return s.id }
func (s *dotSubgraph) DOTAttributers() (gr, n, e encoding.Attributer) {
	return &s.attrs, &encoding.Attributes{}, &encoding.Attributes{}
}

// quote writes s as a DOT string; a newline becomes DOT's centred line
// break \n.
func quote(s string) string { return strconv.Quote(s) }

// DOT returns the binary graph in Graphviz DOT, for a reader: the root on
// top; each internal node labelled with its number and its test (NodeRule,
// in raw input units); each leaf a double box named by its class; M0
// (left: the test fails) lines dashed blue, M1 (right: the test holds)
// lines solid red; a title naming the model (opt.About) and what the
// drawing holds; and a legend. Unreachable states are left out, or drawn
// in grey with opt.All.
func (b *Binary) DOT(opt DrawOptions) ([]byte, error) {
	k := b.K
	m := k.Model
	n, c := k.NumNodes(), k.NumClasses()
	terms := opt.Terms
	if terms <= 0 {
		terms = 3
	}
	names := opt.FeatureNames
	if names == nil {
		names = FeatureNames(m)
	}
	if len(names) != m.Features {
		return nil, fmt.Errorf("analysis: %d feature names for a model with %d features", len(names), m.Features)
	}
	reach := map[int]bool{}
	for _, s := range b.Reachable() {
		reach[s] = true
	}
	st := b.Stats()

	title := []string{
		opt.About.String(),
		fmt.Sprintf("binary graph of the hard walk: %d of %d internal nodes used, %d of %d leaves reached, at most %d steps",
			st.UsedNodes, n, st.LeavesUsed, c, k.Steps()),
	}
	if len(st.Unreachable) > 0 {
		title = append(title, "classes no walk can reach: "+strings.Join(st.Unreachable, ", "))
	}
	g := dotGraph{DirectedGraph: multi.NewDirectedGraph(), attrs: encoding.Attributes{
		{Key: "rankdir", Value: "TB"}, {Key: "ordering", Value: "out"},
		{Key: "label", Value: quote(strings.Join(title, "\n"))}, {Key: "labelloc", Value: "t"},
		{Key: "fontname", Value: "Helvetica"}, {Key: "fontsize", Value: "13"},
	}}
	node := func(s int) dotNode {
		var attrs []encoding.Attribute
		if s >= n {
			attrs = []encoding.Attribute{{Key: "label", Value: quote(m.ClassNames[s-n])},
				{Key: "peripheries", Value: "2"}, {Key: "style", Value: "filled"}, {Key: "fillcolor", Value: quote("#fff3c4")},
				{Key: "fontsize", Value: "12"}}
		} else {
			head := "node " + strconv.Itoa(s)
			if s == 0 {
				head += " (root)"
			}
			attrs = []encoding.Attribute{{Key: "label", Value: quote(head + "\n" + NodeRule(m, s, names, terms).String())}}
			if s == 0 {
				attrs = append(attrs, encoding.Attribute{Key: "style", Value: quote("rounded,bold")})
			}
		}
		if !reach[s] {
			attrs = append(attrs, encoding.Attribute{Key: "color", Value: "gray70"}, encoding.Attribute{Key: "fontcolor", Value: "gray70"})
		}
		return dotNode{id: int64(s), attrs: attrs}
	}
	for s := 0; s < n+c; s++ {
		if reach[s] || opt.All {
			g.AddNode(node(s))
		}
	}
	g.left = &dotSubgraph{DirectedGraph: multi.NewDirectedGraph(), id: "left_lines"}
	for i := 0; i < n; i++ {
		if !reach[i] && !opt.All {
			continue
		}
		for _, side := range []Side{Left, Right} {
			to := k.Left(i)
			if side == Right {
				to = k.Right(i)
			}
			if side == Left { // bare nodes: the main graph holds their attributes
				g.left.SetLine(dotLine{f: dotNode{id: int64(i)}, t: dotNode{id: int64(to)}, side: side, faint: !reach[i]})
			} else {
				g.SetLine(dotLine{f: g.Node(int64(i)), t: g.Node(int64(to)), side: side, faint: !reach[i]})
			}
		}
	}
	g.legend = legend(m.InputShift != nil, opt.All)
	out, err := dot.MarshalMulti(g, "song", "", "  ")
	if err != nil {
		return nil, fmt.Errorf("analysis: encoding DOT: %v", err)
	}
	return append(out, '\n'), nil
}

// legend is the cluster that explains the drawing: a node with its two
// lines, a leaf, and what "..." in a test means.
func legend(standardised, all bool) *dotSubgraph {
	g := &dotSubgraph{DirectedGraph: multi.NewDirectedGraph(), id: "cluster_legend", attrs: encoding.Attributes{
		{Key: "label", Value: quote("legend (colour and dashes tell a left line from a right one)")}, {Key: "fontsize", Value: "11"}, {Key: "color", Value: "gray60"},
		{Key: "style", Value: "rounded"}}}
	rest := "...: the other inputs' terms w x"
	if standardised {
		rest = "...: each other input x as w (x - its mean),\nwhich is 0 at its training mean"
	}
	nodeText := "node i\nits test: a xj + b xk + ... > t\nin the data's units, the inputs that move\nthe test most (on standardised inputs) first\n" + rest
	nodes := []dotNode{
		{id: -1, name: "legend_node", attrs: []encoding.Attribute{{Key: "label", Value: quote(nodeText)}}},
		{id: -3, name: "legend_left", attrs: []encoding.Attribute{{Key: "shape", Value: "plaintext"},
			{Key: "label", Value: quote("test false:\nleft child (M0)")}, {Key: "fontcolor", Value: "blue"}}},
		{id: -2, name: "legend_right", attrs: []encoding.Attribute{{Key: "shape", Value: "plaintext"},
			{Key: "label", Value: quote("test true:\nright child (M1)")}, {Key: "fontcolor", Value: "red"}}},
		{id: -4, name: "legend_leaf", attrs: []encoding.Attribute{{Key: "label", Value: quote("leaf: the class\nthe walk answers")},
			{Key: "shape", Value: "box"}, {Key: "peripheries", Value: "2"}, {Key: "style", Value: "filled"},
			{Key: "fillcolor", Value: quote("#fff3c4")}}},
	}
	if all {
		nodes = append(nodes, dotNode{id: -5, name: "legend_grey", attrs: []encoding.Attribute{{Key: "label", Value: quote("grey: not reachable\nfrom the root")},
			{Key: "color", Value: "gray70"}, {Key: "fontcolor", Value: "gray70"}}})
	}
	for _, nd := range nodes {
		g.AddNode(nd)
	}
	g.SetLine(dotLine{f: nodes[0], t: nodes[1], side: Left})
	g.SetLine(dotLine{f: nodes[0], t: nodes[2], side: Right})
	return g
}
