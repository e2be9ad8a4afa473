package workers

import (
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestRun: each Run calls f once for each of its active workers, with
// their count, allocates nothing, and Stop ends the pool's goroutines.
func TestRun(t *testing.T) {
	before := runtime.NumGoroutine()
	var calls [3]atomic.Int64
	var bad atomic.Bool
	var active int
	p := New(3, func(w, a int) {
		calls[w].Add(1)
		if a != active {
			bad.Store(true)
		}
	})
	for _, active = range []int{3, 1, 2, 3} {
		p.Run(active)
	}
	if bad.Load() {
		t.Error("a worker saw another active count than its Run's")
	}
	if got := [3]int64{calls[0].Load(), calls[1].Load(), calls[2].Load()}; got != [3]int64{4, 3, 2} {
		t.Errorf("calls per worker %v, want [4 3 2]", got)
	}
	active = 3
	if a := testing.AllocsPerRun(10, func() { p.Run(3) }); a != 0 {
		t.Errorf("%v allocations per Run", a)
	}
	p.Stop()
	waitStopped(t, before)
}

// TestRunAfterSleep: workers that stopped polling and sleep are woken by
// the next Run that needs them, many times over; and Stop ends sleeping
// workers too.
func TestRunAfterSleep(t *testing.T) {
	before := runtime.NumGoroutine()
	var calls [3]atomic.Int64
	p := New(3, func(w, active int) { calls[w].Add(1) })
	want := [3]int64{}
	for i := 0; i < 20; i++ {
		active := 1 + i%3
		if i%2 == 0 {
			time.Sleep(2 * spin) // the workers sleep
		}
		p.Run(active)
		for w := 0; w < active; w++ {
			want[w]++
		}
		if got := [3]int64{calls[0].Load(), calls[1].Load(), calls[2].Load()}; got != want {
			t.Fatalf("after Run %d: calls per worker %v, want %v", i, got, want)
		}
	}
	time.Sleep(2 * spin)
	p.Stop()
	waitStopped(t, before)
}

// TestRunRaces: Runs at random intervals around the workers' polling
// window, with workers that return at once or after the caller stopped
// polling, each call counted exactly once; then Stop right after a Run,
// while the workers poll. Run with -race to check the hand-offs.
func TestRunRaces(t *testing.T) {
	before := runtime.NumGoroutine()
	rng := rand.New(rand.NewPCG(5, 6))
	var calls [4]atomic.Int64
	var slow atomic.Int64 // this worker sleeps in f past the caller's polling
	slow.Store(-1)
	p := New(4, func(w, active int) {
		calls[w].Add(1)
		if int64(w) == slow.Load() {
			time.Sleep(spin + spin/2)
		}
	})
	var want [4]int64
	for i := 0; i < 60; i++ {
		active := 1 + rng.IntN(4)
		slow.Store(-1)
		if active > 1 && rng.IntN(4) == 0 {
			slow.Store(int64(1 + rng.IntN(active-1)))
		}
		time.Sleep(time.Duration(rng.Int64N(int64(2 * spin))))
		p.Run(active)
		for w := 0; w < active; w++ {
			want[w]++
		}
		if got := [4]int64{calls[0].Load(), calls[1].Load(), calls[2].Load(), calls[3].Load()}; got != want {
			t.Fatalf("after Run %d (%d active): calls per worker %v, want %v", i, active, got, want)
		}
	}
	p.Stop()
	waitStopped(t, before)
}

// TestRunRefuses: a Run of no workers or of more than the pool's panics
// instead of waiting forever.
func TestRunRefuses(t *testing.T) {
	p := New(2, func(w, active int) {})
	defer p.Stop()
	for _, active := range []int{0, 3} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Run(%d) on 2 workers: no panic", active)
				}
			}()
			p.Run(active)
		}()
	}
	big := New(MaxSize+10, func(w, active int) {})
	defer big.Stop()
	if big.Size() != MaxSize {
		t.Errorf("New(%d) is not capped at %d workers", MaxSize+10, MaxSize)
	}
}

// BenchmarkRun is the cost of one Run on two workers that do nothing: the
// synchronisation a pass pays on top of its work.
func BenchmarkRun(b *testing.B) {
	p := New(2, func(w, active int) {})
	defer p.Stop()
	for b.Loop() {
		p.Run(2)
	}
}

// waitStopped fails t when the goroutines do not fall back to before, their
// number before New, within 5 seconds of Stop.
func waitStopped(t *testing.T, before int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > before; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines after Stop, %d before New", runtime.NumGoroutine(), before)
		}
	}
}

// TestWaitLateRouse: a rouse meant for an earlier wait, arriving while
// ready is false, does not end a wait; the wait ends when ready does.
func TestWaitLateRouse(t *testing.T) {
	s := sleeper{wake: make(chan struct{}, 1)}
	s.asleep.Store(true)
	s.rouse() // late: its wait has gone
	var ready atomic.Bool
	go func() {
		time.Sleep(2 * spin)
		ready.Store(true)
		s.rouse()
	}()
	s.wait(time.Now().Add(-spin), ready.Load)
	if !ready.Load() {
		t.Fatal("wait returned before ready")
	}
}
