package trainer

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRestarts: restarts trained together are each the restart trained
// alone, the best is the one with the best validation score, and an
// interrupted group resumes from its checkpoint to the same graphs.
func TestRestarts(t *testing.T) {
	task := smallTask(t)
	cfg := smallConfig("f32")
	cfg.Epochs, cfg.Restart, cfg.Select = 4, 2, "hard"
	const k = 3
	rs, err := NewRestarts(cfg, task, k)
	if err != nil {
		t.Fatal(err)
	}
	if err := rs.Train(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := make([][]byte, k)
	best := 0
	for i, r := range rs.Runs {
		c := cfg
		c.Restart += i
		alone := train(t, c, task)
		if want[i] = modelBytes(t, alone); !bytes.Equal(modelBytes(t, r), want[i]) {
			t.Errorf("restart %d trained together differs from it trained alone", c.Restart)
		}
		if alone.BestScore() > rs.Runs[best].BestScore() {
			best = i
		}
	}
	if bytes.Equal(want[0], want[1]) {
		t.Error("two restarts gave the same model")
	}
	if rs.Best() != rs.Runs[best] {
		t.Errorf("kept restart %d, want %d (scores %v, %v, %v)", rs.Best().Config.Restart, cfg.Restart+best,
			rs.Runs[0].BestScore(), rs.Runs[1].BestScore(), rs.Runs[2].BestScore())
	}

	// Interrupted in its third epoch, saved, resumed.
	ckpt := filepath.Join(t.TempDir(), "restarts.ckpt")
	cut, err := NewRestarts(cfg, task, k)
	if err != nil {
		t.Fatal(err)
	}
	cut.InterruptPath = ckpt
	ctx, cancel := context.WithCancel(context.Background())
	cut.Runs[1].Progress = func(p Progress) {
		if p.Epoch == 3 && p.Batch == 2 {
			cancel()
		}
	}
	err = cut.Train(ctx)
	var ie *InterruptError
	if !errors.As(err, &ie) || ie.EpochsDone != 2 || ie.Graphs != k || !strings.Contains(err.Error(), "3 graphs") {
		t.Fatalf("interrupted: %v", err)
	}
	c, err := LoadCheckpoint(ckpt)
	if err != nil {
		t.Fatal(err)
	}
	if c.Graphs() != k {
		t.Fatalf("the checkpoint holds %d graphs, want %d", c.Graphs(), k)
	}
	if _, err := ResumeRun(c, task); err == nil {
		t.Error("ResumeRun took a checkpoint of several graphs")
	}
	resumed, err := ResumeRestarts(c, task)
	if err != nil {
		t.Fatal(err)
	}
	if err := resumed.Train(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i, r := range resumed.Runs {
		if !bytes.Equal(modelBytes(t, r), want[i]) {
			t.Errorf("restart %d resumed differs from it trained at once", cfg.Restart+i)
		}
	}

	// The checkpoint written before the first epoch resumes too.
	first, err := NewRestarts(cfg, task, k)
	if err != nil {
		t.Fatal(err)
	}
	first.CheckpointPath = filepath.Join(t.TempDir(), "every-epoch.ckpt")
	copied := filepath.Join(t.TempDir(), "epoch0.ckpt")
	first.Runs[0].Progress = func(p Progress) {
		if p.Epoch == 1 && p.Batch == 1 {
			b, err := os.ReadFile(first.CheckpointPath)
			if err == nil {
				err = os.WriteFile(copied, b, 0o644)
			}
			if err != nil {
				t.Error(err)
			}
		}
	}
	if err := first.Train(context.Background()); err != nil {
		t.Fatal(err)
	}
	c0, err := LoadCheckpoint(copied)
	if err != nil {
		t.Fatal(err)
	}
	from0, err := ResumeRestarts(c0, task)
	if err != nil {
		t.Fatalf("the checkpoint of epoch 0: %v", err)
	}
	if err := from0.Train(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i, r := range from0.Runs {
		if !bytes.Equal(modelBytes(t, r), want[i]) {
			t.Errorf("restart %d resumed from epoch 0 differs from it trained at once", cfg.Restart+i)
		}
	}

	cfg.Val = 0
	if _, err := NewRestarts(cfg, task, 2); err == nil || !strings.Contains(err.Error(), "--val 0") {
		t.Errorf("restarts without validation rows: %v", err)
	}
}
