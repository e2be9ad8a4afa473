package main

import (
	"encoding/json"
	"fmt"
	"os"
	goruntime "runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/songc/songc/internal/text"
	"github.com/songc/songc/trainer"
)

// BenchCmd times training steps on random data.
type BenchCmd struct {
	Nodes     int    `default:"511" help:"Internal nodes n."`
	Steps     int    `default:"50" help:"Steps N."`
	Batch     int    `default:"128" help:"Rows per batch B."`
	Features  int    `default:"16" help:"Input features d."`
	Classes   int    `default:"26" help:"Classes c."`
	Precision string `enum:"f32,f64" default:"f32" help:"Engine precision (${enum})."`
	Kernel    string `enum:"${kernels}" default:"auto" help:"Matrix kernel (${enum}): auto picks the widest the CPU runs (avx512, then avx2); avx512 and avx2 need --precision f32."`
	Graphs    int    `default:"1" help:"Graphs K of the shape trained side by side on the same batches, one call per batch; seconds are also given per graph."`
	Batches   int    `default:"5" help:"Timed batches (after one warm-up); the median is reported."`
	Table     bool   `help:"Time the graph sizes the default recipe searches instead (${sizes}), at batches of 64 and 128 and with 1 and 4 graphs, on --features and --classes, beside the kernel's peak, as one table."`
	Peak      bool   `help:"Also time a 2048x2048x2048 GEMM with the same kernel (the kernel's peak, for the '% of peak' figure) and compute the machine's theoretical peak from its CPU features and clock."`
	JSON      bool   `name:"json" help:"Print the result as JSON."`
}

func (BenchCmd) Help() string {
	return `Times full training steps (forward, backward through all N steps, Adam update) of
one batch of random data and reports seconds per batch (median), the batch's flop
count as defined in docs/performance.md (12 (n+c) n B N + 4 B d n) and the effective
GFLOP/s. The defaults are the paper's largest Letter model.

Examples:
  songc bench           # 511 nodes, 50 steps, batch 128, Letter's shape
  songc bench --nodes 64 --steps 20 --json
  songc bench --nodes 255 --steps 50 --features 784 --classes 10 --peak
  songc bench --nodes 64 --steps 20 --batch 64 --graphs 4
  songc bench --table`
}

func (c *BenchCmd) Run(g *Globals) error {
	s := trainer.Shape{Nodes: c.Nodes, Classes: c.Classes, Steps: c.Steps, Features: c.Features}
	if err := s.Validate(); err != nil {
		return usageError{err}
	}
	if c.Batch < 1 || c.Batches < 1 || c.Graphs < 1 {
		return usagef("--batch, --batches and --graphs must be at least 1")
	}
	if c.Table {
		if c.Nodes != 511 || c.Steps != 50 || c.Batch != 128 || c.Graphs != 1 {
			return usagef("--table times its own sizes, batches and graph counts: drop --nodes, --steps, --batch and --graphs")
		}
		return c.table(g)
	}
	res, err := benchShape(s, c.Precision, c.Kernel, c.Batch, c.Graphs, c.Batches)
	if err != nil {
		return err
	}
	out := struct {
		trainer.BenchResult
		PeakGFlops  float64 `json:"peak_gflops,omitempty"`
		PercentPeak float64 `json:"percent_of_peak,omitempty"`
		// The machine's theoretical float32 peak and how it was computed.
		TheoryGFlops float64 `json:"theoretical_gflops,omitempty"`
		Theory       string  `json:"theoretical,omitempty"`
	}{BenchResult: res}
	if c.Peak {
		if out.PeakGFlops, err = peakGFlops(c.Precision, c.Kernel); err != nil {
			return err
		}
		out.PercentPeak = 100 * res.GFlops / out.PeakGFlops
		out.TheoryGFlops, out.Theory = theoreticalGFlops()
	}
	if c.JSON {
		enc := json.NewEncoder(g.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	fmt.Fprintf(g.Stdout, "%s, %s, batch %d, %s, %s, %s, kernel %s\n",
		text.Count(c.Nodes, "node"), text.Count(c.Steps, "step"), c.Batch, text.Count(c.Features, "feature"), text.Count(c.Classes, "class"), c.Precision, res.Kernel)
	if c.Graphs > 1 {
		fmt.Fprintf(g.Stdout, "graphs            %d, one call per batch\nseconds_per_batch %.6f (median of %d, all graphs)\nseconds_per_graph %.6f\n",
			c.Graphs, res.SecondsPerBatch, res.Batches, res.SecondsPerGraph)
	} else {
		fmt.Fprintf(g.Stdout, "seconds_per_batch %.6f (median of %d)\n", res.SecondsPerBatch, res.Batches)
	}
	fmt.Fprintf(g.Stdout, "flops_per_batch   %.4g (one graph)\ngflops            %.2f\nallocs_per_batch  %.1f\n",
		res.FlopsPerBatch, res.GFlops, res.AllocsPerBatch)
	if c.Peak {
		fmt.Fprintf(g.Stdout, "peak gflops       %.2f (2048^3 GEMM, same kernel); %.1f%% of it\n", out.PeakGFlops, out.PercentPeak)
		if out.TheoryGFlops > 0 {
			fmt.Fprintf(g.Stdout, "theoretical       %.2f (%s); the kernel's peak is %.1f%% of it\n", out.TheoryGFlops, out.Theory, 100*out.PeakGFlops/out.TheoryGFlops)
			if out.PeakGFlops > out.TheoryGFlops {
				fmt.Fprintln(g.Stdout, "                  (above 100%: the cores run faster than the clock /proc/cpuinfo reports, boosted)")
			}
		} else {
			fmt.Fprintf(g.Stdout, "theoretical       unknown (%s)\n", out.Theory)
		}
	}
	return nil
}

// benchShape times batches training steps of graphs graphs of shape s.
func benchShape(s trainer.Shape, precision, kernel string, batch, graphs, batches int) (trainer.BenchResult, error) {
	shapes := make([]trainer.Shape, graphs)
	for k := range shapes {
		shapes[k] = s
	}
	gs, err := trainer.NewGraphs(shapes, precision, kernel, batch)
	if err != nil {
		return trainer.BenchResult{}, err
	}
	return trainer.BenchGraphs(gs, batches, 1)
}

// table times the default recipe's graph sizes at batches of 64 and 128
// with 1 and 4 graphs, and prints them beside the kernel's peak.
func (c *BenchCmd) table(g *Globals) error {
	peak, err := peakGFlops(c.Precision, c.Kernel)
	if err != nil {
		return err
	}
	type row struct {
		trainer.BenchResult
		PercentPeak float64 `json:"percent_of_peak"`
		// Throughput is graphs x batches per second; Speedup is it over
		// that of 1 graph of the same size and batch.
		Throughput float64 `json:"graph_batches_per_second"`
		Speedup    float64 `json:"speedup_over_one_graph"`
	}
	var rows []row
	for _, size := range trainer.DefaultSizes {
		for _, batch := range []int{64, 128} {
			one := 0.0
			for _, k := range []int{1, 4} {
				s := trainer.Shape{Nodes: size[0], Steps: size[1], Features: c.Features, Classes: c.Classes}
				res, err := benchShape(s, c.Precision, c.Kernel, batch, k, c.Batches)
				if err != nil {
					return err
				}
				r := row{BenchResult: res, PercentPeak: 100 * res.GFlops / peak, Throughput: float64(k) / res.SecondsPerBatch}
				if k == 1 {
					one = r.Throughput
				}
				r.Speedup = r.Throughput / one
				rows = append(rows, r)
			}
		}
	}
	if c.JSON {
		enc := json.NewEncoder(g.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			PeakGFlops float64 `json:"peak_gflops"`
			Rows       []row   `json:"rows"`
		}{peak, rows})
	}
	fmt.Fprintf(g.Stdout, "%d features, %d classes, %s, kernel %s; peak %.1f GFLOP/s (2048^3 GEMM, same kernel); medians of %d batches\n",
		c.Features, c.Classes, c.Precision, rows[0].Kernel, peak, c.Batches)
	fmt.Fprintf(g.Stdout, "%-6s %5s %6s %10s %10s %8s %9s %16s %6s\n", "graph", "batch", "graphs", "s/batch", "s/graph", "GFLOP/s", "% of peak", "graph-batches/s", "vs 1")
	for _, r := range rows {
		fmt.Fprintf(g.Stdout, "%-6s %5d %6d %10.6f %10.6f %8.1f %9.1f %16.0f %6.2f\n", fmt.Sprintf("%d/%d", r.Nodes, r.Steps), r.Batch, r.Graphs,
			r.SecondsPerBatch, r.SecondsPerGraph, r.GFlops, r.PercentPeak, r.Throughput, r.Speedup)
	}
	return nil
}

// theoreticalGFlops is the machine's float32 peak: threads x clock x 2 FMA
// units x lanes x 2 flops per FMA, where lanes is the widest vector the
// packed kernels use and the clock is the one /proc/cpuinfo reports. Two
// FMA units per core is an assumption (most server cores since Haswell have
// them; some have one for 512-bit vectors). It returns 0 and the reason
// when a figure is unknown.
func theoreticalGFlops() (float64, string) {
	isa, lanes := trainer.Widest()
	if lanes == 0 {
		return 0, "no vector kernel runs on this machine"
	}
	mhz, err := cpuMHz()
	if err != nil {
		return 0, err.Error()
	}
	threads := goruntime.GOMAXPROCS(0)
	gf := float64(threads) * mhz / 1000 * 2 * float64(lanes) * 2
	return gf, fmt.Sprintf("%d threads x %.0f MHz x 2 FMA units x %d float32 lanes (%s) x 2 flops", threads, mhz, lanes, isa)
}

// cpuMHz reads the first processor's clock from /proc/cpuinfo.
func cpuMHz() (float64, error) {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return 0, fmt.Errorf("the clock is unknown: %v", err)
	}
	return parseMHz(string(b))
}

// parseMHz finds the first "cpu MHz" line of a /proc/cpuinfo text.
func parseMHz(cpuinfo string) (float64, error) {
	for _, line := range strings.Split(cpuinfo, "\n") {
		name, val, ok := strings.Cut(line, ":")
		if ok && strings.TrimSpace(name) == "cpu MHz" {
			if mhz, err := strconv.ParseFloat(strings.TrimSpace(val), 64); err == nil && mhz > 0 {
				return mhz, nil
			}
		}
	}
	return 0, fmt.Errorf("the clock is unknown: /proc/cpuinfo has no cpu MHz line")
}

// peakGFlops times a square 2048 GEMM with the named kernel (median of 3).
func peakGFlops(precision, kernel string) (float64, error) {
	if precision == "f64" {
		return squareGFlops(trainer.DefaultKernel64()), nil
	}
	k, err := trainer.NewKernel32(kernel)
	if err != nil {
		return 0, err
	}
	return squareGFlops(k), nil
}

// squareGFlops times k's square 2048 GEMM after a warm-up: the median of 3.
func squareGFlops[T trainer.Float](k trainer.Kernel[T]) float64 {
	const n = 2048
	a, c := make([]T, n*n), make([]T, n*n)
	var times []float64
	for i := range 4 {
		t0 := time.Now()
		k.Gemm(false, false, n, n, n, 1, a, n, a, n, 0, c, n)
		if i > 0 { // the first is the warm-up
			times = append(times, time.Since(t0).Seconds())
		}
	}
	slices.Sort(times)
	return 2 * n * n * n / times[1] / 1e9
}
