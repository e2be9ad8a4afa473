package trainer_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/songc/songc/runlog"
	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer"
	"github.com/songc/songc/trainer/internal/fixture"
)

// fixtureSeed is the seed of the fixture's run.
var fixtureSeed = fixture.Config().Seed

// restartModel trains the fixture's graph as restart r of seed.
func restartModel(t *testing.T, task *trainer.Task, seed uint64, r int) (*trainer.Run, *runtime.Model) {
	t.Helper()
	cfg := fixture.Config()
	cfg.Val, cfg.Seed, cfg.Restart = 0.2, seed, r
	return fixture.Train(t, cfg, task)
}

// TestRestart: a restart changes the graph but not the validation split,
// another seed changes both, restart 0 is the plain run, and the metadata
// records the restart.
func TestRestart(t *testing.T) {
	task, plain := fixture.Model(t, 0.2)
	r0, m0 := restartModel(t, task, fixtureSeed, 0)
	r1, m1 := restartModel(t, task, fixtureSeed, 1)
	r2, _ := restartModel(t, task, fixtureSeed+1, 0)
	if !bytes.Equal(fixture.Encode(t, plain), fixture.Encode(t, m0)) {
		t.Error("restart 0 differs from a run without a restart")
	}
	if bytes.Equal(fixture.Encode(t, m0), fixture.Encode(t, m1)) {
		t.Error("restart 1 gave the same model as restart 0")
	}
	fit0, val0 := r0.Split()
	fit1, val1 := r1.Split()
	_, val2 := r2.Split()
	if !slices.Equal(val0, val1) || !slices.Equal(fit0, fit1) {
		t.Error("restart 1 has another validation split than restart 0")
	}
	if slices.Equal(val0, val2) {
		t.Error("another seed kept the validation split")
	}
	var meta0, meta1 map[string]any
	if err := json.Unmarshal(m0.Training, &meta0); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(m1.Training, &meta1); err != nil {
		t.Fatal(err)
	}
	if _, ok := meta0["restart"]; ok {
		t.Errorf("restart 0 is recorded in the metadata: %s", m0.Training)
	}
	if meta1["restart"] != 1.0 {
		t.Errorf("metadata of restart 1: restart = %v", meta1["restart"])
	}
	for _, r := range []int{-1, runlog.MaxRestart + 1} {
		cfg := fixture.Config()
		cfg.Restart = r
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "--restart") {
			t.Errorf("restart %d: %v", r, err)
		}
	}
}

// TestSelect: Select measures every candidate on the shared validation
// rows, as the trainer's own split holds them, and keeps the best.
func TestSelect(t *testing.T) {
	task, m0 := fixture.Model(t, 0.2)
	run, m1 := restartModel(t, task, fixtureSeed, 1)
	// Eight epochs leave the fixture near chance; 40 lift it well above,
	// on the same split.
	cfg := fixture.Config()
	cfg.Epochs = 40
	_, good := fixture.Train(t, cfg, task)
	// A graph that always walks to the leaf of class 0.
	bad := fixture.Clone(t, m0)
	for _, l := range [][][]float64{bad.M0Logits, bad.M1Logits} {
		for s := range l {
			l[s][0] = 0
		}
		l[bad.Nodes][0] = 100
	}
	models := []*runtime.Model{bad, m1, good, m0}
	best, cands, err := trainer.Select(models, task, "hard")
	if err != nil {
		t.Fatal(err)
	}
	if len(cands) != len(models) {
		t.Fatalf("%d candidates for %d models", len(cands), len(models))
	}
	want := 0
	for i, m := range models {
		_, valIdx := run.Split()
		acc := fixture.HardAcc(t, m, task, valIdx, false)
		if cands[i].HardVal != acc || cands[i].ValRows != len(valIdx) {
			t.Errorf("candidate %d: hard validation accuracy %v on %d rows, want %v on %d", i, cands[i].HardVal, cands[i].ValRows, acc, len(valIdx))
		}
		if acc > cands[want].HardVal {
			want = i
		}
	}
	if best != want || best == 0 {
		t.Errorf("selected %d (%+v), want %d", best, cands, want)
	}
	if cands[1].Restart != 1 || cands[3].Restart != 0 || cands[3].Seed != fixtureSeed {
		t.Errorf("candidates' seed and restart: %+v", cands)
	}
	// The one-leaf graph's soft model is as bad as its walk: by soft,
	// another wins too.
	if best, _, err := trainer.Select(models, task, "soft"); err != nil || best == 0 {
		t.Errorf("by soft: selected %d, %v", best, err)
	}
	// Ties go to the first listed.
	if best, _, err := trainer.Select([]*runtime.Model{m1, m1}, task, "soft"); err != nil || best != 0 {
		t.Errorf("tie: selected %d, %v", best, err)
	}
}

func TestSelectRefuses(t *testing.T) {
	task, m := fixture.Model(t, 0.2)
	_, seed2 := restartModel(t, task, fixtureSeed+1, 0)
	_, noVal := fixture.Model(t, 0)
	other, bare := fixture.Refused(t, task, m)
	cases := []struct {
		name   string
		models []*runtime.Model
		task   *trainer.Task
		by     string
		want   string
	}{
		{"none", nil, task, "hard", "no models"},
		{"bad by", []*runtime.Model{m}, task, "best", "by must be hard or soft"},
		{"other seed", []*runtime.Model{m, seed2}, task, "hard", "validation splits differ"},
		{"no validation", []*runtime.Model{noVal}, task, "hard", "without a validation split"},
		{"other data", []*runtime.Model{m}, other, "hard", "not the data the model was trained on"},
		{"no metadata", []*runtime.Model{m, bare}, task, "hard", "model 2: the model has no training metadata"},
		// A crafted share once made the split's slice bounds panic.
		{"huge share", []*runtime.Model{withVal(t, m, 1e308)}, task, "hard", "validation share 1e+308"},
		{"negative share", []*runtime.Model{withVal(t, m, -0.5)}, task, "hard", "validation share -0.5"},
	}
	for _, c := range cases {
		if _, _, err := trainer.Select(c.models, c.task, c.by); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// withVal returns a copy of m whose metadata claims validation share val.
func withVal(t *testing.T, m *runtime.Model, val float64) *runtime.Model {
	t.Helper()
	var meta map[string]any
	if err := json.Unmarshal(m.Training, &meta); err != nil {
		t.Fatal(err)
	}
	meta["val"] = val
	c := *m
	var err error
	if c.Training, err = json.Marshal(meta); err != nil {
		t.Fatal(err)
	}
	return &c
}
