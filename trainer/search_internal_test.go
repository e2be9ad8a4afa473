package trainer

import (
	"slices"
	"testing"
	"time"

	"github.com/songc/songc/runlog"
	"github.com/songc/songc/trainer/data"
)

// TestOneStandardErrorRule: cuts before the last keep the best third by
// score (ties to the lower index); the last cut keeps the first candidate
// within one standard error of the best. On 100 validation rows a best of
// 0.8 has a standard error of sqrt(0.8*0.2/100) = 0.04, so 0.77 (index 1)
// qualifies and 0.75 (index 0) does not. A perfect score on 30 rows has
// one of sqrt(q(1-q)/34) = 0.040 (q = 32/34), not 0: a row behind (0.967)
// qualifies, two behind (0.933) do not.
func TestOneStandardErrorRule(t *testing.T) {
	s := Search{Eta: 3}
	run := &Run{valIdx: make([]int, 100)}
	cands := []runlog.Candidate{{Score: 0.75}, {Score: 0.77}, {Score: 0.80}}
	runs := []*Run{run, run, run}
	if got := s.survivors(cands, []int{0, 1, 2}, runs); !slices.Equal(got, []int{1}) {
		t.Errorf("last cut kept %v, want [1]", got)
	}
	six := append(cands, runlog.Candidate{Score: 0.80}, runlog.Candidate{Score: 0.5}, runlog.Candidate{Score: 0.79})
	runs = []*Run{run, run, run, run, run, run}
	if got := s.survivors(six, []int{0, 1, 2, 3, 4, 5}, runs); !slices.Equal(got, []int{2, 3}) {
		t.Errorf("cut of six kept %v, want [2 3]", got)
	}
	run30 := &Run{valIdx: make([]int, 30)}
	for behind, want := range map[float64]int{1: 0, 2: 1} {
		perfect := []runlog.Candidate{{Score: (30 - behind) / 30}, {Score: 1}}
		if got := s.survivors(perfect, []int{0, 1}, []*Run{run30, run30}); !slices.Equal(got, []int{want}) {
			t.Errorf("a perfect score, another %v rows behind: kept %v, want [%d]", behind, got, want)
		}
	}
}

// TestAgainNoTime: a second pass called for (a best of 0.6 on the 60
// validation rows of 300, a standard error of 6.3 points, above 3.5) runs
// when the first pass spent at most half of the budget (exactly half
// included); a nanosecond past that it does
// not, and the record says so (NoTimeAgain). A best measured well enough
// calls for none, and the record says nothing.
func TestAgainNoTime(t *testing.T) {
	task := &Task{Train: &data.Dataset{Rows: 300}, ClassNames: []string{"a", "b"}, yTrain: make([]int, 300)}
	for i := range task.yTrain {
		task.yTrain[i] = i % 2
	}
	s := Search{Base: Config{Val: 0.2, Batch: 64}, AimSE: 0.035, Budget: 10 * time.Second}
	record := func(best float64) *runlog.Search {
		return &runlog.Search{Candidates: []runlog.Candidate{{Score: 0.5}, {Score: best}}}
	}
	for _, spent := range []time.Duration{4 * time.Second, 5 * time.Second} { // 5s: exactly half
		if rec := record(0.6); s.again(task, rec, spent) == nil || rec.NoTimeAgain {
			t.Errorf("%v of 10s spent: no second pass, or NoTimeAgain %v", spent, rec.NoTimeAgain)
		}
	}
	for _, spent := range []time.Duration{5*time.Second + 1, 6 * time.Second} {
		if rec := record(0.6); s.again(task, rec, spent) != nil || !rec.NoTimeAgain {
			t.Errorf("%v of 10s spent: a second pass, or NoTimeAgain %v", spent, rec.NoTimeAgain)
		}
	}
	if rec := record(0.99); s.again(task, rec, 6*time.Second) != nil || rec.NoTimeAgain {
		t.Errorf("a best of 0.99: a second pass, or NoTimeAgain %v", rec.NoTimeAgain)
	}
}
