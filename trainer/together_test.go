package trainer

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/songc/songc/runlog"
)

// togetherConfigs are K = 5 runs that share batches but little else: two
// sizes, rates, weight decay, node regularisation, restarts, float32 and
// float64, straight-through epochs, no noise, and patience, so that they
// end at different epochs.
func togetherConfigs() []Config {
	base := smallConfig("f32")
	base.Epochs = 6
	cfgs := make([]Config, 5)
	for k := range cfgs {
		cfgs[k] = base
	}
	cfgs[1].Nodes, cfgs[1].Steps, cfgs[1].LR, cfgs[1].Restart = 9, 3, 0.03, 1
	cfgs[2].Precision, cfgs[2].WeightDecay, cfgs[2].Gumbel = "f64", 0.05, "off"
	cfgs[3].NodeRegGamma, cfgs[3].NodeRegLambda, cfgs[3].StraightThrough, cfgs[3].Restart = 1.5, 0.1, 0.5, 2
	cfgs[4].Epochs, cfgs[4].Patience, cfgs[4].Select, cfgs[4].Anneal, cfgs[4].AnnealTemp = 30, 1, "hard", 0.2, 0.5
	return cfgs
}

// records returns the run's log without its timings.
func records(r *Run) []runlog.EpochRecord {
	out := append([]runlog.EpochRecord(nil), r.Records()...)
	for i := range out {
		out[i].Seconds = 0
	}
	return out
}

// TestTrainTogether: K = 1..5 runs trained together, at once or a few
// epochs at a time, give each run's model bytes and log as trained alone.
func TestTrainTogether(t *testing.T) {
	task := smallTask(t)
	cfgs := togetherConfigs()
	alone := make([]*Run, len(cfgs))
	for k, c := range cfgs {
		alone[k] = train(t, c, task)
	}
	if a, b := len(alone[4].Records()), len(alone[0].Records()); a == b {
		t.Fatalf("the patient run trained %d epochs like the others; the test needs runs that end apart", a)
	}
	for K := 1; K <= len(cfgs); K++ {
		for _, pieces := range []int{-1, 2} {
			runs, err := NewRuns(cfgs[:K], task)
			if err != nil {
				t.Fatal(err)
			}
			for done := false; !done; {
				if err := TrainTogether(context.Background(), runs, pieces); err != nil {
					t.Fatal(err)
				}
				done = true
				for _, r := range runs {
					done = done && r.Done()
				}
			}
			for k, r := range runs {
				if !bytes.Equal(modelBytes(t, r), modelBytes(t, alone[k])) {
					t.Errorf("K=%d, %d epochs a call: graph %d's model differs from the graph trained alone", K, pieces, k+1)
				}
				if a, b := records(r), records(alone[k]); len(a) != len(b) || !equalRecords(a, b) {
					t.Errorf("K=%d, %d epochs a call: graph %d's log differs from the graph trained alone", K, pieces, k+1)
				}
			}
		}
	}
}

// TestTogetherThenAlone: runs that trained beside others and go on alone
// (as a search's chosen candidate does) end as if alone throughout.
func TestTogetherThenAlone(t *testing.T) {
	task := smallTask(t)
	cfgs := togetherConfigs()[:2]
	runs, err := NewRuns(cfgs, task)
	if err != nil {
		t.Fatal(err)
	}
	if err := TrainTogether(context.Background(), runs, 2); err != nil {
		t.Fatal(err)
	}
	for k, r := range runs {
		if err := r.Train(context.Background()); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(modelBytes(t, r), modelBytes(t, train(t, cfgs[k], task))) {
			t.Errorf("graph %d, on its own cores after 2 epochs beside another, differs from the graph trained alone", k+1)
		}
	}
}

func equalRecords(a, b []runlog.EpochRecord) bool {
	return reflect.DeepEqual(a, b)
}

// TestTrainTogetherRefuses: runs that would see other batches are refused
// by name, and nothing trains.
func TestTrainTogetherRefuses(t *testing.T) {
	task := smallTask(t)
	base := smallConfig("f32")
	seed, val, batch := base, base, base
	seed.Seed++
	val.Val = 0.3
	batch.Batch = 32
	for _, c := range []struct {
		other Config
		want  string
	}{{seed, "other rows"}, {val, "other rows"}, {batch, "batches of 32 rows"}} {
		runs, err := NewRuns([]Config{base, c.other}, task)
		if err != nil {
			t.Fatal(err)
		}
		err = TrainTogether(context.Background(), runs, 1)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.other, err, c.want)
		}
		if runs[0].EpochsDone() != 0 {
			t.Error("a refused group trained")
		}
	}
	runs, err := NewRuns([]Config{base, base}, task)
	if err != nil {
		t.Fatal(err)
	}
	if err := runs[0].TrainFor(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	if err := TrainTogether(context.Background(), runs, 1); err == nil || !strings.Contains(err.Error(), "epoch 0") {
		t.Errorf("runs at epochs 1 and 0: %v", err)
	}
	if err := TrainTogether(context.Background(), []*Run{runs[0], runs[0]}, 1); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("one run twice: %v", err)
	}
}

// TestTrainTogetherInterrupted: an interrupted group saves every run, and
// a run whose save fails says so in the error, beside the runs that saved.
func TestTrainTogetherInterrupted(t *testing.T) {
	task := smallTask(t)
	runs, err := NewRuns([]Config{smallConfig("f32"), smallConfig("f32")}, task)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	runs[0].InterruptPath = filepath.Join(dir, "first.ckpt")
	runs[1].InterruptPath = filepath.Join(dir, "missing", "second.ckpt")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = TrainTogether(ctx, runs, 1)
	var ie *InterruptError
	if !errors.As(err, &ie) || ie.Checkpoint != runs[0].InterruptPath {
		t.Errorf("the first run's interruption: %v", err)
	}
	if err == nil || !strings.Contains(err.Error(), "saving the checkpoint failed") {
		t.Errorf("the second run's failed save is not reported: %v", err)
	}
	if _, err := os.Stat(runs[0].InterruptPath); err != nil {
		t.Errorf("the first run was not saved: %v", err)
	}
}

// TestTrainTogetherPrefetchLater: a group with as many runs as cores does
// not gather ahead; once a run finishes, the rest do, with the buffers
// made then, and each run ends as it would alone.
func TestTrainTogetherPrefetchLater(t *testing.T) {
	task := smallTask(t)
	short, long := smallConfig("f32"), smallConfig("f32")
	short.Epochs, long.Epochs = 1, 2
	runs, err := NewRuns([]Config{short, long}, task)
	if err != nil {
		t.Fatal(err)
	}
	if err := trainGroup(context.Background(), runs, -1, together{cores: 2}); err != nil {
		t.Fatal(err)
	}
	for k, cfg := range []Config{short, long} {
		if !bytes.Equal(modelBytes(t, runs[k]), modelBytes(t, train(t, cfg, task))) {
			t.Errorf("run %d differs from the run trained alone", k+1)
		}
	}
}
