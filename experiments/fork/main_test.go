package main

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/songc/songc/trainer"
	"github.com/songc/songc/trainer/data"
)

// checkpointAt trains a small Letter run of 5 epochs with the given
// straight-through share and returns its checkpoint after 3 epochs.
func checkpointAt(t *testing.T, share float64) string {
	t.Helper()
	train, test, err := data.Letter()
	if err != nil {
		t.Fatal(err)
	}
	first := func(n int) []int {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		return idx
	}
	task, err := trainer.NewTask(train.Subset(first(300)), test.Subset(first(100)))
	if err != nil {
		t.Fatal(err)
	}
	cfg := trainer.Config{Nodes: 6, Steps: 4, Epochs: 5, Batch: 64, LR: 0.01, LRSchedule: "cosine",
		Seed: 7, Precision: "f32", Val: 0.2, Standardize: true, StraightThrough: share}
	r, err := trainer.NewRun(cfg, task)
	if err != nil {
		t.Fatal(err)
	}
	r.CheckpointPath = filepath.Join(t.TempDir(), "run.ckpt")
	ctx, cancel := context.WithCancel(context.Background())
	r.Progress = func(p trainer.Progress) {
		if p.Epoch == 4 && p.Batch == 1 {
			cancel()
		}
	}
	if err := r.Train(ctx); !errors.Is(err, trainer.ErrInterrupted) {
		t.Fatalf("interrupt: %v", err)
	}
	return r.CheckpointPath
}

func TestFork(t *testing.T) {
	in := checkpointAt(t, 0.4) // straight-through epochs 4 and 5
	out := filepath.Join(t.TempDir(), "fork.ckpt")
	if err := fork(in, out, 3, 0.005); err != nil {
		t.Fatal(err)
	}
	c, err := trainer.LoadCheckpoint(out)
	if err != nil {
		t.Fatal(err)
	}
	if c.EpochsDone() != 3 || c.Config.StraightLR != 0.005 {
		t.Errorf("fork holds %d epochs at StraightLR %v, want 3 at 0.005", c.EpochsDone(), c.Config.StraightLR)
	}

	late := checkpointAt(t, 0.2) // straight-through epoch 5 only
	for _, tc := range []struct {
		name, in string
		epoch    int
		want     string
	}{
		{"no input", "", 3, "required"},
		{"other epoch", in, 2, "holds 3 epochs, want 2"},
		{"not where straight-through begins", late, 3, "begin after epoch 4, not 3"},
		{"not a checkpoint", filepath.Join(t.TempDir(), "missing.ckpt"), 3, "no such file"},
	} {
		if err := fork(tc.in, out+"2", tc.epoch, 0.005); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}
