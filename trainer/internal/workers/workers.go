// Package workers runs a function on a fixed set of persistent goroutines,
// so that a computation split between cores many times a second (a matrix
// product, a training step of several graphs) starts no goroutine and
// allocates nothing per call.
//
// Between calls a worker polls for the next one for a while (spin) before
// it sleeps on a channel, and Run's caller polls likewise for the workers
// to finish. Waking a sleeping goroutine means waking a sleeping thread,
// which in a virtual machine can take as long as a whole matrix product of
// a training step's size (docs/performance.md measures a product split
// between sleeping workers and between polling ones). While it polls, a
// goroutine yields its core to any other goroutine of the process that is
// ready to run; to other processes the core looks busy.
package workers

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"time"
)

// spin is how long a worker polls for the next Run, and Run's caller for
// the workers to finish, before sleeping: longer than the serial work
// between two products of a training step.
const spin = 200 * time.Microsecond

// Pool is n workers that run one function. Worker 0 is the goroutine that
// calls Run; workers 1..n-1 are goroutines of the pool's own, which Stop
// ends. A Pool is not safe for concurrent use.
type Pool struct {
	f func(w, active int)
	// call is the number of Runs so far, shifted left by activeBits,
	// plus the current one's active count (at most MaxSize workers): the
	// workers read both at once. Stop sets it to stopped.
	call atomic.Uint64
	left atomic.Int32 // workers 1.. of the current Run still in f
	ws   []sleeper    // workers 1..n-1; ws[0] is Run's caller, woken by the last of them
}

const stopped = ^uint64(0)

// sleeper is how a goroutine that stopped polling is woken: a worker by
// Run, Run's caller by the last worker to finish.
type sleeper struct {
	asleep atomic.Bool   // the goroutine sleeps, or is about to, on wake
	wake   chan struct{} // a value wakes it; Stop closes a worker's
	_      [48]byte      // no two workers' flags in one cache line
}

// MaxSize is the most workers a Pool has: a Run's active count takes the
// low activeBits of Pool.call.
const (
	MaxSize    = 1<<activeBits - 1
	activeBits = 8
)

// New returns a pool of n workers (at least 1, at most MaxSize) that run
// f(w, active): worker w of the active ones of a Run.
func New(n int, f func(w, active int)) *Pool {
	n = min(max(1, n), MaxSize)
	p := &Pool{f: f, ws: make([]sleeper, n)}
	for w := range p.ws {
		p.ws[w].wake = make(chan struct{}, 1) // a send never waits
		if w > 0 {
			go p.loop(w)
		}
	}
	return p
}

// Size returns n, the number of workers.
func (p *Pool) Size() int { return len(p.ws) }

// Run runs f on workers 0..active-1 (active between 1 and Size) and
// returns when all have returned. A Run of one worker is a call of f.
func (p *Pool) Run(active int) {
	if active < 1 || active > len(p.ws) {
		panic(fmt.Sprintf("workers: Run(%d) on a pool of %d", active, len(p.ws)))
	}
	if active == 1 {
		p.f(0, 1)
		return
	}
	p.left.Store(int32(active - 1))
	p.call.Store((p.call.Load()>>activeBits+1)<<activeBits | uint64(active))
	for w := 1; w < active; w++ {
		p.ws[w].rouse()
	}
	p.f(0, active)
	// A worker may run long (another graph's larger step, a checkpoint's
	// write): then the caller sleeps until the last one returns.
	p.ws[0].wait(time.Now(), func() bool { return p.left.Load() == 0 })
}

// done is a worker's return from f: the last one to return wakes Run's
// caller if it sleeps.
func (p *Pool) done() {
	if p.left.Add(-1) == 0 {
		p.ws[0].rouse()
	}
}

// Stop ends the pool's goroutines; Run must not be called after it. An
// owner that the garbage collector may reclaim calls it from a cleanup
// (runtime.AddCleanup), which must not reach the owner.
func (p *Pool) Stop() {
	p.call.Store(stopped)
	for w := 1; w < len(p.ws); w++ {
		close(p.ws[w].wake)
	}
}

func (p *Pool) loop(w int) {
	var seen uint64
	idle := time.Now()
	for {
		// Poll for a call other than seen until spin has passed since
		// idle (when w last returned from f; Runs without it do not extend
		// the polling), then sleep until Run or Stop wakes it.
		p.ws[w].wait(idle, func() bool { return p.call.Load() != seen })
		call := p.call.Load()
		if call == stopped {
			return
		}
		seen = call
		if active := int(call & MaxSize); w < active {
			p.f(w, active)
			p.done()
			idle = time.Now()
		}
	}
}

// wait returns once ready reports true: it polls ready until spin has
// passed since idle, yielding the core between polls, then sleeps until
// rouse (or a closed channel) wakes it, and looks again. A wake is only a
// hint: a rouse meant for an earlier wait may arrive late, when ready is
// false again.
func (s *sleeper) wait(idle time.Time, ready func() bool) {
	for i := 0; !ready(); i++ {
		if i&63 == 63 && time.Since(idle) > spin {
			s.asleep.Store(true)
			// A rouse before the flag was set did not see it: return if
			// ready now, unless that rouse cleared the flag, and so sends.
			if ready() && s.asleep.CompareAndSwap(true, false) {
				return
			}
			<-s.wake
		}
		runtime.Gosched()
	}
}

// rouse wakes the goroutine of s if it sleeps, or is about to.
func (s *sleeper) rouse() {
	if s.asleep.CompareAndSwap(true, false) {
		s.wake <- struct{}{}
	}
}
