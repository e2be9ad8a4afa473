// Package workers runs a function on a fixed set of persistent goroutines,
// woken by channels, so that a computation split between cores many times
// a second (a matrix product, a training step of several graphs) starts
// no goroutine and allocates nothing per call.
package workers

import "sync"

// Pool is n workers that run one function. Worker 0 is the goroutine that
// calls Run; workers 1..n-1 are goroutines of the pool's own, which Stop
// ends. A Pool is not safe for concurrent use.
type Pool struct {
	f      func(w, active int)
	start  []chan struct{} // workers 1..n-1
	wg     sync.WaitGroup
	active int
}

// New returns a pool of n workers (at least 1) that run f(w, active):
// worker w of the active ones of a Run.
func New(n int, f func(w, active int)) *Pool {
	p := &Pool{f: f, start: make([]chan struct{}, max(1, n))}
	for w := 1; w < len(p.start); w++ {
		p.start[w] = make(chan struct{})
		go p.loop(w)
	}
	return p
}

// Size returns n, the number of workers.
func (p *Pool) Size() int { return len(p.start) }

// Run runs f on workers 0..active-1 (active at most Size) and returns
// when all have returned.
func (p *Pool) Run(active int) {
	p.active = active
	p.wg.Add(active - 1)
	for w := 1; w < active; w++ {
		p.start[w] <- struct{}{}
	}
	p.f(0, active)
	p.wg.Wait()
}

// Stop ends the pool's goroutines; Run must not be called after it. An
// owner that the garbage collector may reclaim calls it from a cleanup
// (runtime.AddCleanup), which must not reach the owner.
func (p *Pool) Stop() {
	for _, ch := range p.start[1:] {
		close(ch)
	}
}

func (p *Pool) loop(w int) {
	for range p.start[w] {
		p.f(w, p.active)
		p.wg.Done()
	}
}
