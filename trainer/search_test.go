package trainer_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/songc/songc/runlog"
	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer"
	"github.com/songc/songc/trainer/data"
	"github.com/songc/songc/trainer/internal/fixture"
)

// TestSearch: successive halving cuts 2 sizes x 2 rates x 2 decays (8
// candidates) to a third at each rung (8 -> 3 -> 1, rungs at 2 and 6
// epochs), records every candidate, and the chosen run is the run its
// recipe gives alone, bit for bit: the search only decides when to stop
// the others. (Which of the last rung's candidates is chosen is
// TestOneStandardErrorRule's.)
func TestSearch(t *testing.T) {
	task := fixture.Task(t)
	base := fixture.Config()
	base.Epochs, base.Patience, base.Anneal, base.AnnealTemp, base.Select = 30, 3, 0.2, 0.4, "hard"
	s := trainer.Search{Base: base, Sizes: [][2]int{{4, 3}, {8, 4}}, LRs: []float64{0.01, 0.05},
		WeightDecays: []float64{0, 0.01}, Eta: 3, FirstRung: 2}
	if got := s.Rungs(); len(got) != 2 || got[0] != 2 || got[1] != 6 {
		t.Fatalf("rungs %v, want [2 6]", got)
	}
	var each int
	s.Each = func(*trainer.Run) { each++ }
	r, rec, err := s.Run(context.Background(), task)
	if err != nil {
		t.Fatal(err)
	}
	if each != 8 || len(rec.Candidates) != 8 || rec.Cut {
		t.Fatalf("%d runs made, record %+v", each, rec)
	}
	trained := 0
	for i, c := range rec.Candidates {
		if c.Epochs > 2 {
			trained++
		}
		if c.Epochs < 1 {
			t.Errorf("candidate %d did not train", i)
		}
	}
	if trained > 3 {
		t.Errorf("%d candidates trained past the first rung; 3 survive it", trained)
	}
	if !r.Done() {
		t.Error("the chosen run did not train to its end")
	}
	chosen := s.Candidates()[rec.Chosen]
	alone, mAlone := fixture.Train(t, chosen, task)
	m, err := r.Model("test")
	if err != nil {
		t.Fatal(err)
	}
	if m.Training == nil || r.Search != rec {
		t.Error("the chosen run does not carry the search record")
	}
	stripped := func(m *runtime.Model) []byte { c := *m; c.Training = nil; return fixture.Encode(t, &c) }
	if !bytes.Equal(stripped(m), stripped(mAlone)) || alone.EpochsDone() != r.EpochsDone() {
		t.Error("the chosen run differs from its recipe trained alone")
	}
	again, _, err := s.Run(context.Background(), task)
	if err != nil {
		t.Fatal(err)
	}
	m2, _ := again.Model("test")
	if !bytes.Equal(fixture.Encode(t, m), fixture.Encode(t, m2)) {
		t.Error("two searches gave different models")
	}
}

// TestSearchResume: a search interrupted after its fifth candidate step
// saves itself; resumed from that checkpoint, it gives the model bytes of
// an uninterrupted search.
func TestSearchResume(t *testing.T) {
	task := fixture.Task(t)
	want := wholeSearch(t, task)
	ckpt := interruptAt(t, task, resumePlan(), 5)
	// 8 candidates to rung 1, 3 to rung 2: 11 steps; 5 were done, and the
	// interrupted sixth is retrained from its last epoch boundary.
	resumeAndCompare(t, task, ckpt, want, 11-5)
}

// interruptAt runs the search s, interrupted (Ctrl-C) at its step at,
// checks that it saved itself, and returns the checkpoint's path.
func interruptAt(t *testing.T, task *trainer.Task, s trainer.Search, at int) string {
	t.Helper()
	ckpt := filepath.Join(t.TempDir(), "search.ckpt")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.InterruptPath = ckpt
	steps := 0
	s.Progress = func(trainer.SearchProgress) {
		if steps++; steps == at {
			cancel()
		}
	}
	_, _, err := s.Run(ctx, task)
	var ie *trainer.InterruptError
	if !errors.As(err, &ie) || !ie.Search || ie.Checkpoint != ckpt || !trainer.IsSearchCheckpoint(ckpt) {
		t.Fatalf("search interrupted at step %d: %v", at, err)
	}
	return ckpt
}

// wholeSearch returns the model bytes of resumePlan's uninterrupted search.
func wholeSearch(t *testing.T, task *trainer.Task) []byte {
	t.Helper()
	s := resumePlan()
	r, _, err := s.Run(context.Background(), task)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := r.Model("test")
	return fixture.Encode(t, m)
}

// resumeAndCompare resumes the search checkpoint at path and checks that
// it takes steps steps and writes the model bytes want.
func resumeAndCompare(t *testing.T, task *trainer.Task, path string, want []byte, steps int) {
	t.Helper()
	c, err := trainer.LoadSearchCheckpoint(path)
	if err != nil {
		t.Fatal(err)
	}
	resumed := 0
	c.Search.Progress = func(trainer.SearchProgress) { resumed++ }
	r, _, err := c.Search.Resume(context.Background(), task, c)
	if err != nil {
		t.Fatal(err)
	}
	if resumed != steps {
		t.Errorf("the resumed search took %d steps, want %d", resumed, steps)
	}
	m, _ := r.Model("test")
	if !bytes.Equal(want, fixture.Encode(t, m)) {
		t.Error("the resumed search gave another model than the uninterrupted one")
	}
}

// TestSearchResumeAfterKill: a search killed right after a checkpoint
// (copied at its fifth step, while the search went on) resumes from the
// sixth step, reports each step once, and writes the uninterrupted model.
func TestSearchResumeAfterKill(t *testing.T) {
	task := fixture.Task(t)
	dir := t.TempDir()
	s := resumePlan()
	s.CheckpointPath = filepath.Join(dir, "live.ckpt")
	kept := filepath.Join(dir, "kept.ckpt")
	steps := 0
	s.Progress = func(trainer.SearchProgress) {
		if steps++; steps == 5 {
			b, err := os.ReadFile(s.CheckpointPath)
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(kept, b, 0o644)
		}
	}
	r, _, err := s.Run(context.Background(), task)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := r.Model("test")
	resumeAndCompare(t, task, kept, fixture.Encode(t, m), 11-5)
}

// TestSearchInterruptedInFinish: Ctrl-C while the chosen run trains to its
// end saves that run's checkpoint (with the search's record); resuming it
// writes the uninterrupted model, the search record's epochs and score
// included.
func TestSearchInterruptedInFinish(t *testing.T) {
	task := fixture.Task(t)
	plan := func() trainer.Search {
		s := resumePlan()
		s.Base.Patience = 10 // so that the chosen run trains on past the last rung
		return s
	}
	whole := plan()
	r, _, err := whole.Run(context.Background(), task)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := r.Model("test")

	ckpt := filepath.Join(t.TempDir(), "run.ckpt")
	ctx, cancel := context.WithCancel(context.Background())
	cut := plan()
	cut.Chosen = func(r *trainer.Run) {
		r.InterruptPath = ckpt
		epochs := 0
		r.Progress = func(p trainer.Progress) {
			if p.EpochDone {
				if epochs++; epochs == 2 {
					cancel()
				}
			}
		}
	}
	if _, _, err := cut.Run(ctx, task); !errors.Is(err, trainer.ErrInterrupted) {
		t.Fatalf("interrupted in finish: %v", err)
	}
	c, err := trainer.LoadCheckpoint(ckpt)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := trainer.ResumeRun(c, task)
	if err != nil {
		t.Fatal(err)
	}
	if err := r2.Train(context.Background()); err != nil {
		t.Fatal(err)
	}
	m2, _ := r2.Model("test")
	if !bytes.Equal(fixture.Encode(t, m), fixture.Encode(t, m2)) {
		t.Errorf("resumed in finish:\n%s\nwant\n%s", m2.Training, m.Training)
	}
	meta, err := runlog.ReadMetadata(m2.Training)
	if err != nil || meta.Search == nil {
		t.Fatalf("metadata %s: %v", m2.Training, err)
	}
	if c := meta.Search.Candidates[meta.Search.Chosen]; c.Epochs != meta.Epochs || c.Epochs <= 6 {
		t.Errorf("the chosen candidate's record says %d epochs, the model %d (past the last rung, 6)", c.Epochs, meta.Epochs)
	}
}

// resumePlan is the plan of the resume tests: 8 candidates, rungs at 2 and
// 6 epochs, 11 steps in all.
func resumePlan() trainer.Search {
	base := fixture.Config()
	base.Epochs, base.Patience, base.Anneal, base.AnnealTemp, base.Select = 30, 3, 0.2, 0.4, "hard"
	// One candidate at a time, so that the tests can count steps to an
	// interruption; TestSearchParallel checks that several give the same.
	return trainer.Search{Base: base, Sizes: [][2]int{{4, 3}, {8, 4}}, LRs: []float64{0.01, 0.05},
		WeightDecays: []float64{0, 0.01}, Eta: 3, FirstRung: 2, Parallel: 1}
}

// TestSearchParallel: candidates trained two or three at a time give the
// model bytes, the search record and the progress reports of a search that
// trains them one at a time, and a search interrupted while two train
// resumes to the same model.
func TestSearchParallel(t *testing.T) {
	task := fixture.Task(t)
	want := wholeSearch(t, task)
	var wantSteps []trainer.SearchProgress
	one := resumePlan()
	one.Progress = func(p trainer.SearchProgress) {
		p.Elapsed, p.Candidate.Seconds, p.Best.Seconds = 0, 0, 0
		wantSteps = append(wantSteps, p)
	}
	if _, _, err := one.Run(context.Background(), task); err != nil {
		t.Fatal(err)
	}
	for _, par := range []int{2, 3} {
		s := resumePlan()
		s.Parallel = par
		var steps []trainer.SearchProgress
		s.Progress = func(p trainer.SearchProgress) {
			p.Elapsed, p.Candidate.Seconds, p.Best.Seconds = 0, 0, 0
			steps = append(steps, p)
		}
		r, _, err := s.Run(context.Background(), task)
		if err != nil {
			t.Fatal(err)
		}
		m, _ := r.Model("test")
		if !bytes.Equal(want, fixture.Encode(t, m)) {
			t.Errorf("%d at a time: another model than one at a time", par)
		}
		if !reflect.DeepEqual(steps, wantSteps) {
			t.Errorf("%d at a time: progress %+v, want %+v", par, steps, wantSteps)
		}
	}
	cut := resumePlan()
	cut.Parallel = 2
	ckpt := interruptAt(t, task, cut, 5)
	c, err := trainer.LoadSearchCheckpoint(ckpt)
	if err != nil {
		t.Fatal(err)
	}
	r, _, err := c.Search.Resume(context.Background(), task, c)
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := r.Model("test"); !bytes.Equal(want, fixture.Encode(t, m)) {
		t.Error("the resumed parallel search gave another model than the uninterrupted one")
	}
}

// TestSearchNoValidationRows: a search whose split holds no validation
// rows (each class too small for its share) is refused before any
// candidate trains, saying why; where every class has a single row, the
// cause named is the label, not the share.
func TestSearchNoValidationRows(t *testing.T) {
	for _, c := range []struct {
		labels []string
		want   string
	}{
		{[]string{"x", "x", "x", "z", "z", "z"}, "six.csv: the auto recipe chooses among its candidates on validation rows, but the stratified split of the 6 rows"},
		{[]string{"x", "y", "z", "u", "v", "w"}, "six.csv: the auto recipe chooses among its candidates on validation rows, but each of the 6 classes has a single row"},
		// More classes than half the rows: the label is the cause, but
		// not in a file too small to tell.
		{[]string{"x", "x", "y", "y", "z", "w"}, "six.csv: the auto recipe chooses among its candidates on validation rows, but the stratified split of the 6 rows"},
		{strings.Split("a a b b c c d d e f g h i j k l", " "), "six.csv: the auto recipe chooses among its candidates on validation rows, but the 16 rows hold 12 classes, each too small to hold a row out at 10% (most have a single row)"},
	} {
		x := make([]float64, len(c.labels))
		for i := range x {
			x[i] = float64(i + 1)
		}
		train := &data.Dataset{Name: "six.csv", Rows: len(x), Features: 1, X: x, Labels: c.labels}
		task, err := trainer.NewTask(train, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := resumePlan()
		s.Base.Val = 0.1 // rounds to no row of 3
		s.Each = func(*trainer.Run) { t.Error("a candidate was made") }
		_, _, err = s.Run(context.Background(), task)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("labels %v: error %v", c.labels, err)
		}
	}
}

// TestSearchAgain: a search whose validation rows measure its best
// finalist too roughly (AimSE) runs again, once, on a larger share; its
// record keeps the first pass as its Pilot; the chosen run is the one a
// search on that share alone chooses; and a search interrupted in either
// pass resumes to the uninterrupted model.
func TestSearchAgain(t *testing.T) {
	task := fixture.Task(t)
	s := resumePlan()
	s.AimSE = 0.01 // over 600 rows at the fixture's accuracies: the share rises to 0.3
	var made, again int
	s.Each = func(*trainer.Run) { made++ }
	s.Again = func(*trainer.Search) { again++ }
	r, rec, err := s.Run(context.Background(), task)
	if err != nil {
		t.Fatal(err)
	}
	p := rec.Pilot
	if p == nil || again != 1 || made != 16 || p.Val != 0.2 || p.ValRows != task.ValRows(0.2) || p.Best <= 0 || r.ValRows() != task.ValRows(0.3) {
		t.Fatalf("again %d, %d runs made, pilot %+v, %d validation rows", again, made, p, r.ValRows())
	}
	m, _ := r.Model("test")
	want := fixture.Encode(t, m)

	alone := resumePlan()
	alone.Base.Val = 0.3
	ra, reca, err := alone.Run(context.Background(), task)
	if err != nil {
		t.Fatal(err)
	}
	ma, _ := ra.Model("test")
	stripped := func(m *runtime.Model) []byte { c := *m; c.Training = nil; return fixture.Encode(t, &c) }
	timeless := func(cs []runlog.Candidate) []runlog.Candidate {
		out := slices.Clone(cs)
		for i := range out {
			out[i].Seconds = 0
		}
		return out
	}
	if reca.Chosen != rec.Chosen || !reflect.DeepEqual(timeless(reca.Candidates), timeless(rec.Candidates)) || !bytes.Equal(stripped(m), stripped(ma)) {
		t.Error("the second pass differs from a search on its share alone")
	}

	// 11 steps a pass: interrupted at step 5 (the first pass) and 16
	// (the second).
	for _, at := range []int{5, 16} {
		cut := resumePlan()
		cut.AimSE = 0.01
		resumeAndCompare(t, task, interruptAt(t, task, cut, at), want, 22-at)
	}

	// Without an aim, one pass.
	s = resumePlan()
	if _, rec, err := s.Run(context.Background(), task); err != nil || rec.Pilot != nil {
		t.Errorf("AimSE 0: pilot %+v, error %v", rec.Pilot, err)
	}
}
