package trainer

import (
	"slices"
	"testing"

	"github.com/songc/songc/runlog"
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
