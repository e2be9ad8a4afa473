package analysis

import "gonum.org/v1/gonum/graph"

// EdgeClass is the class of a directed edge in a depth-first search.
type EdgeClass int

const (
	Tree    EdgeClass = iota // to an undiscovered node
	Back                     // to a node on the current DFS path (a cycle; self-loops included)
	Forward                  // to an already finished descendant
	Cross                    // to an already finished node in another branch
)

func (c EdgeClass) String() string {
	return [...]string{"tree", "back", "forward", "cross"}[c]
}

// EdgeCounts counts edges by DFS class.
type EdgeCounts struct {
	Tree    int `json:"tree"`
	Back    int `json:"back"`
	Forward int `json:"forward"`
	Cross   int `json:"cross"`
}

func (e *EdgeCounts) add(c EdgeClass) {
	switch c {
	case Tree:
		e.Tree++
	case Back:
		e.Back++
	case Forward:
		e.Forward++
	case Cross:
		e.Cross++
	}
}

// DFSEdge is a classified edge.
type DFSEdge struct {
	From, To int64
	Class    EdgeClass
}

// ClassifyEdges runs an iterative tri-colour depth-first search of g from
// root, visiting successors in increasing node ID so that every run gives
// the same answer, and classifies each edge it meets (each ordered pair of
// nodes once, however many parallel lines join them). It returns the edges
// in the order they were classified and the nodes in discovery order.
// gonum's traverse package has no edge classes, hence this search.
func ClassifyEdges(g graph.Directed, root int64) (edges []DFSEdge, order []int64) {
	const (
		white = iota
		grey
		black
	)
	colour := map[int64]int{}
	disc := map[int64]int{}
	type frame struct {
		node int64
		succ []int64
		next int
	}
	if g.Node(root) == nil {
		return nil, nil
	}
	clock := 0
	colour[root] = grey
	disc[root] = clock
	order = append(order, root)
	stack := []frame{{node: root, succ: sortedFrom(g, root)}}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next == len(f.succ) {
			colour[f.node] = black
			stack = stack[:len(stack)-1]
			continue
		}
		u, v := f.node, f.succ[f.next]
		f.next++
		var c EdgeClass
		switch colour[v] {
		case white:
			c = Tree
			clock++
			colour[v] = grey
			disc[v] = clock
			order = append(order, v)
			stack = append(stack, frame{node: v, succ: sortedFrom(g, v)})
		case grey:
			c = Back
		default:
			if disc[u] < disc[v] {
				c = Forward
			} else {
				c = Cross
			}
		}
		edges = append(edges, DFSEdge{From: u, To: v, Class: c})
	}
	return edges, order
}

// Count tallies classified edges.
func Count(edges []DFSEdge) EdgeCounts {
	var c EdgeCounts
	for _, e := range edges {
		c.add(e.Class)
	}
	return c
}
