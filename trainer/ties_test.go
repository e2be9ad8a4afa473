package trainer

import "testing"

// TestTiesByLoss: with Ties "loss" the kept epoch is, of those with the
// best hard-walk validation accuracy, the one with the lowest validation
// log loss; with the default the first of them. The run is set up so that
// the two differ.
func TestTiesByLoss(t *testing.T) {
	task := smallTask(t)
	cfg := smallConfig("f64")
	cfg.Epochs, cfg.Select, cfg.Val, cfg.LR = 12, "hard", 0.03, 0.1
	want := func(r *Run, byLoss bool) int {
		best, at := -1.0, 0
		for i, rec := range r.Records() {
			if rec.ValLoss <= 0 {
				t.Errorf("epoch %d: validation loss %v", i+1, rec.ValLoss)
			}
			if rec.HardValAcc > best || (byLoss && rec.HardValAcc == best && rec.ValLoss < r.Records()[at-1].ValLoss) {
				best, at = rec.HardValAcc, i+1
			}
		}
		return at
	}
	first := train(t, cfg, task)
	cfg.Ties = "loss"
	byLoss := train(t, cfg, task)
	if first.state.BestEpoch != want(first, false) {
		t.Errorf("earlier: kept epoch %d, want %d", first.state.BestEpoch, want(first, false))
	}
	if byLoss.state.BestEpoch != want(byLoss, true) {
		t.Errorf("loss: kept epoch %d, want %d", byLoss.state.BestEpoch, want(byLoss, true))
	}
	if first.state.BestEpoch == byLoss.state.BestEpoch {
		t.Errorf("both kept epoch %d: the run has no tie the rules settle apart", first.state.BestEpoch)
	}
	for i, rec := range first.Records() { // the tie-break changes nothing else
		if o := byLoss.Records()[i]; o.HardValAcc != rec.HardValAcc || o.ValLoss != rec.ValLoss {
			t.Errorf("epoch %d: the runs differ", i+1)
		}
	}
}
