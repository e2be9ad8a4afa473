package refine

import (
	"bytes"
	"testing"

	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer/internal/fixture"
)

// TestGrowTree: on rows whose class two single-column cuts decide, the
// tree of 3 leaves makes exactly those cuts and is right on every row;
// the tree of 2 leaves is its first split, the one of larger gain.
func TestGrowTree(t *testing.T) {
	const d = 3
	var rows [][]float64
	var y []int
	for a := range 10 {
		for b := range 10 {
			x := []float64{float64(a), float64(b), float64((a * b) % 7)}
			class := 0
			switch {
			case a > 3 && b <= 5:
				class = 1
			case a > 3:
				class = 2
			}
			rows, y = append(rows, x), append(y, class)
		}
	}
	bins := newTreeBins(d, len(rows), func(dst []float64, i int) { copy(dst, rows[i]) })
	if got := len(bins.cuts[0]); got != 9 {
		t.Fatalf("column 0 has %d cuts, want 9 (10 values)", got)
	}
	all := make([]int, len(rows))
	for i := range all {
		all[i] = i
	}
	tr := growTree(bins, y, 3, all, 16)
	if len(tr.splits) != 2 {
		t.Fatalf("%d splits, want 2 (the classes are pure after them)", len(tr.splits))
	}
	root := tr.nodes[tr.splits[0]]
	if root.f != 0 || bins.cuts[0][root.cut] != 3.5 {
		t.Errorf("first split: column %d > %v, want column 0 > 3.5", root.f, bins.cuts[root.f][root.cut])
	}
	for i := range rows {
		if got := tr.predict(i, 3); got != y[i] {
			t.Errorf("row %v: 3 leaves predict %d, want %d", rows[i], got, y[i])
		}
		// Right of the first cut, class 1 has 36 rows and class 2 24.
		if got, want := tr.predict(i, 2), min(y[i], 1); got != want {
			t.Errorf("row %v: 2 leaves predict %d, want %d", rows[i], got, want)
		}
	}
}

// TestTreeModel: the model of a tree walks exactly as the tree predicts,
// on every row, with no forced exit, at every leaf count; its steps are
// the tree's depth and it has a node per split.
func TestTreeModel(t *testing.T) {
	task, m := refineFixture(t, 0.2)
	g := fixtureRefiner(t)
	rows := len(g.fit) + len(g.val)
	bins := newTreeBins(g.d, rows, g.row)
	y := make([]int, rows)
	fit := make([]int, len(g.fit))
	for i, r := range g.fit {
		y[i], fit[i] = g.y[r], i
	}
	for i, r := range g.val {
		y[len(g.fit)+i] = g.y[r]
	}
	tr := growTree(bins, y, g.c, fit, 64)
	if len(tr.splits) != 63 {
		t.Fatalf("%d splits, want 63", len(tr.splits))
	}
	scratch := make([]float64, m.Features)
	for _, leaves := range []int{2, 5, 64} {
		tm := tr.model(m, leaves)
		if err := tm.Validate(); err != nil {
			t.Fatal(err)
		}
		depth := 0
		for _, i := range tr.splits[:leaves-1] {
			depth = max(depth, tr.nodes[i].depth+1)
		}
		if tm.Nodes != leaves-1 || tm.Steps != depth {
			t.Errorf("%d leaves: %d nodes, %d steps; want %d, %d", leaves, tm.Nodes, tm.Steps, leaves-1, depth)
		}
		k, err := runtime.New(tm)
		if err != nil {
			t.Fatal(err)
		}
		for i := range rows {
			r := g.fit
			j := i
			if i >= len(g.fit) {
				r, j = g.val, i-len(g.fit)
			}
			w, _ := k.Walk(task.Train.Row(r[j]), scratch, nil)
			if want := tr.predict(i, leaves); w.Class != want || w.Forced {
				t.Fatalf("%d leaves, row %d: the model walks to class %d (forced %v), the tree predicts %d", leaves, r[j], w.Class, w.Forced, want)
			}
		}
	}
}

// TestRefineTree: with Config.Tree, Run records the tree's score at each
// leaf count tried and keeps the tree only when it beats the walk on the
// validation rows; a walk it does not beat is the model Run gives without
// the check. treeCheck keeps or drops the tree by the walk's score.
func TestRefineTree(t *testing.T) {
	task, m := refineFixture(t, 0.2)
	plain := mustRun(t, m, task, Config{Passes: 2})
	out := mustRun(t, m, task, Config{Passes: 2, Tree: true})
	again := mustRun(t, m, task, Config{Passes: 2, Tree: true})
	if !bytes.Equal(fixture.Encode(t, out), fixture.Encode(t, again)) {
		t.Error("two runs with the tree check give different models")
	}
	rec := refineMeta(t, out)
	tc := rec.Tree
	if tc == nil || len(tc.Scores) == 0 || refineMeta(t, plain).Tree != nil {
		t.Fatalf("tree check %+v", tc)
	}
	if tc.WalkScore != rec.Log[rec.Selected].ValAcc {
		t.Errorf("the check's walk score %v, the selected pass's %v", tc.WalkScore, rec.Log[rec.Selected].ValAcc)
	}
	for _, s := range tc.Scores {
		if s.Score > tc.Score || s.Score == tc.Score && s.Leaves < tc.Leaves {
			t.Errorf("chose %d leaves at %v, but %d leaves scored %v", tc.Leaves, tc.Score, s.Leaves, s.Score)
		}
	}
	if tc.Kept != (tc.Score > tc.WalkScore) {
		t.Errorf("kept %v with the tree at %v, the walk at %v", tc.Kept, tc.Score, tc.WalkScore)
	}
	a, b := *plain, *out
	a.Training, b.Training = nil, nil
	if same := bytes.Equal(fixture.Encode(t, &a), fixture.Encode(t, &b)); same == tc.Kept {
		t.Errorf("the model is the walk refined without the check: %v; the tree kept: %v", same, tc.Kept)
	}

	g := fixtureRefiner(t)
	var leaves int
	tm := checkKeeps(t, g, func(walk float64) (*runtime.Model, []int, bool, float64) {
		tm, class, tc := g.treeCheck(m, walk, g.share)
		if tc.Kept {
			leaves = tc.Leaves
		}
		return tm, class, tc.Kept, tc.Score
	})
	// The model is grown on the validation rows too, to no more leaves.
	if tm.Nodes > leaves-1 {
		t.Errorf("the tree kept has %d nodes, want at most %d", tm.Nodes, leaves-1)
	}
}

// checkKeeps tests a check of refining, check, which compares its model
// with a rival's score: against a rival below any score (-1) it keeps its
// model (kept, a model, and the validation rows' classes, whose score is
// the one it records), against one above any (2) it keeps nothing. It
// returns the model kept.
func checkKeeps(t *testing.T, g *refiner, check func(rival float64) (m *runtime.Model, class []int, kept bool, score float64)) *runtime.Model {
	t.Helper()
	var keptModel *runtime.Model
	for _, rival := range []float64{-1, 2} {
		m, class, kept, score := check(rival)
		if want := rival < 0; kept != want || (m != nil) != want || (class != nil) != want {
			t.Fatalf("rival score %v: kept %v, model %v, classes %d", rival, kept, m != nil, len(class))
		}
		if m == nil {
			continue
		}
		if got := g.share(class, g.val); got != score {
			t.Errorf("the classes score %v, the check says %v", got, score)
		}
		keptModel = m
	}
	return keptModel
}
