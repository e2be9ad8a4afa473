package runlog_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/songc/songc/runlog"
)

// TestMetadataJSON: the metadata embeds the canonical Config, so a model
// file's "training" object keeps its keys and order: the fast recipe's
// (annealed, chosen by the hard walk) is the object written before the
// Config moved here, key for key; defaults' spellings and options that
// are off are left out.
func TestMetadataJSON(t *testing.T) {
	cfg := runlog.Config{Nodes: 64, Steps: 20, Seed: 1, Precision: "f32", Epochs: 120, Batch: 64, LR: 0.03, Val: 0.1,
		Standardize: true, Anneal: 0.2, AnnealTemp: 0.4, Select: "hard", LRSchedule: "cosine", Gumbel: "dirty", Init: "paper",
		NodeRegGamma: 1, Kernel: "auto"}
	m := runlog.Metadata{Songc: "0.1.0", Config: cfg.Canonical(), Temperature: 0.4, Kernel: "avx2-f32", TrainRows: 16200,
		ValRows: 1800, DataSHA256: "ab", BestEpoch: 118, ValAccuracy: 0.8}
	got, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"songc":"0.1.0","seed":1,"precision":"f32","epochs":120,"batch":64,"lr":0.03,"val":0.1,"standardize":true,` +
		`"anneal":0.2,"anneal_temp":0.4,"select":"hard","lr_schedule":"cosine","temperature":0.4,"kernel":"avx2-f32",` +
		`"train_rows":16200,"val_rows":1800,"data_sha256":"ab","best_epoch":118,"val_accuracy":0.8}`
	if string(got) != want {
		t.Errorf("metadata\n got %s\nwant %s", got, want)
	}
	back, err := runlog.ReadMetadata(got)
	if err != nil || back.Select != "hard" || back.Epochs != 120 || back.Kernel != "avx2-f32" {
		t.Errorf("read back %+v, %v", back, err)
	}
	if _, err := runlog.ReadMetadata(nil); err != runlog.ErrNoMetadata {
		t.Errorf("no metadata: %v", err)
	}
	if _, err := runlog.ReadMetadata([]byte(`{"epochs":"x"}`)); err == nil {
		t.Error("malformed metadata read without error")
	}
}

// TestFallback: Fallback is the majority check that put the logistic
// check's regression in the constant's place, not one that kept a
// regression already in the walk's; Logistic is the record whenever the
// regression is the model.
func TestFallback(t *testing.T) {
	kept := &runlog.MajorityRegression{RegressionOnly: 3, Kept: true}
	for _, c := range []struct {
		name               string
		refine             runlog.Refine
		fallback, logistic bool
	}{
		{"walk kept", runlog.Refine{Logistic: &runlog.LogisticCheck{}, Majority: &runlog.MajorityCheck{}}, false, false},
		{"in the constant's place", runlog.Refine{Logistic: &runlog.LogisticCheck{}, Majority: &runlog.MajorityCheck{Regression: kept}}, true, true},
		{"in the walk's place", runlog.Refine{Logistic: &runlog.LogisticCheck{Kept: true}, Majority: &runlog.MajorityCheck{Regression: kept}}, false, true},
		{"in the walk's place, no majority check", runlog.Refine{Logistic: &runlog.LogisticCheck{Kept: true}}, false, true},
	} {
		m := runlog.Metadata{Refine: &c.refine}
		if (m.Fallback() != nil) != c.fallback || (m.Logistic() != nil) != c.logistic {
			t.Errorf("%s: Fallback %v, Logistic %v; want %v, %v", c.name, m.Fallback() != nil, m.Logistic() != nil, c.fallback, c.logistic)
		}
	}
}

func TestCanonical(t *testing.T) {
	c := runlog.Config{AnnealTemp: 0.1, Select: "soft", LRSchedule: "constant", Gumbel: "dirty", Init: "paper", NodeRegGamma: 1.5}
	if got := c.Canonical(); got.AnnealTemp != 0 || got.Select != "" || got.LRSchedule != "" || got.Gumbel != "" || got.Init != "" || got.NodeRegGamma != 0 {
		t.Errorf("canonical of defaults: %+v", got)
	}
	c = runlog.Config{Anneal: 0.2, AnnealTemp: 0.4, Select: "balanced", NodeRegLambda: 0.1}
	if got := c.Canonical(); got.AnnealTemp != 0.4 || got.Select != "balanced" || got.NodeRegGamma != 1 {
		t.Errorf("canonical of options on: %+v", got)
	}
}

func TestValidate(t *testing.T) {
	ok := runlog.Config{Nodes: 1, Steps: 1, Epochs: 1, Batch: 1, LR: 0.1, Precision: "f32", Val: 0.1}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		change func(*runlog.Config)
		flag   string
	}{
		{func(c *runlog.Config) { c.Nodes = 0 }, "--nodes"},
		{func(c *runlog.Config) { c.LR = 0 }, "--lr"},
		{func(c *runlog.Config) { c.Val = 1 }, "--val"},
		{func(c *runlog.Config) { c.Select = "best" }, "--select"},
		{func(c *runlog.Config) { c.Patience = 3; c.Val = 0 }, "--patience"},
		{func(c *runlog.Config) { c.Patience = 3; c.StraightThrough = 0.2 }, "--patience"},
		{func(c *runlog.Config) { c.StraightLR = 0.1 }, "--straight-through-lr"},
		{func(c *runlog.Config) { c.Restart = -1 }, "--restart"},
	} {
		c := ok
		tc.change(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tc.flag) {
			t.Errorf("%+v: error %v, want one naming %s", c, err, tc.flag)
		}
	}
}

// TestLog: records written by Write read back equal; a bad line is an
// error naming the file and line.
func TestLog(t *testing.T) {
	recs := []runlog.EpochRecord{{Epoch: 1, BCE: 0.5, TrainAcc: 0.25, Batches: 3}, {Epoch: 2, HardValAcc: 0.5, Best: true, Graph: json.RawMessage(`{"used_nodes":3}`)}}
	var b bytes.Buffer
	if err := runlog.Write(&b, recs); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "m.log.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := runlog.ReadLog(path)
	if err != nil || !reflect.DeepEqual(got, recs) {
		t.Errorf("read %+v, %v; want %+v", got, err, recs)
	}
	if err := os.WriteFile(path, append(b.Bytes(), "{\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := runlog.ReadLog(path); err == nil || !strings.Contains(err.Error(), path+":3:") {
		t.Errorf("bad line: %v", err)
	}
}

// TestMatchLog: a log matches the model its run trained, and not one
// trained for another number of epochs or kept from an epoch that scored
// otherwise.
func TestMatchLog(t *testing.T) {
	recs := []runlog.EpochRecord{{Epoch: 1, ValAcc: 0.5}, {Epoch: 2, ValAcc: 0.75}, {Epoch: 3, ValAcc: 0.7}}
	meta := func(epochs, best int, val float64) runlog.Metadata {
		var m runlog.Metadata
		m.Epochs, m.BestEpoch, m.ValAccuracy = epochs, best, val
		return m
	}
	for _, tc := range []struct {
		m    runlog.Metadata
		recs []runlog.EpochRecord
		want string // in the error; "" for none
	}{
		{meta(3, 2, 0.75), recs, ""},
		{meta(3, 3, 0), recs, ""},    // no validation rows: the epochs alone
		{runlog.Metadata{}, nil, ""}, // no metadata: nothing to check
		{meta(4, 2, 0.75), recs, "last epoch is 3; the model was trained for 4"},
		{meta(3, 2, 0.7), recs, "its epoch 2 scored 75.0000%"},
		{meta(3, 2, 0.75), nil, "logs no epoch"},
	} {
		err := tc.m.MatchLog(tc.recs)
		if (tc.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.m.Config, err, tc.want)
		}
	}
}

func TestString(t *testing.T) {
	c := runlog.Config{Nodes: 16, Steps: 8, Precision: "f32", Batch: 64, LR: 0.1, Epochs: 400, Patience: 40, Standardize: true, WeightDecay: 0.01, Select: "hard"}
	want := "16 nodes, 8 steps; f32, batch 64, lr 0.1, 400 epochs at most (constant lr until the hard walk's validation accuracy stalls for 40 epochs, then a cosine decay), standardized inputs, weight decay 0.01, epoch chosen by the hard walk"
	if got := c.String(); got != want {
		t.Errorf("String\n got %s\nwant %s", got, want)
	}
	// Counts of one are in the singular.
	c = runlog.Config{Nodes: 1, Steps: 1, Precision: "f64", Batch: 1, LR: 0.1, Epochs: 1, Patience: 1}
	want = "1 node, 1 step; f64, batch 1, lr 0.1, 1 epoch at most (constant lr until the hard walk's validation accuracy stalls for 1 epoch, then a cosine decay)"
	if got := c.String(); got != want {
		t.Errorf("String\n got %s\nwant %s", got, want)
	}
}
