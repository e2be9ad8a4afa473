package trainer

import "fmt"

// MemoryCap bounds the memory a training run may need, estimated before
// anything is allocated: about 64 GiB, or the machine's physical memory
// where it can be read (Linux), whichever is smaller.
var MemoryCap = min(64<<30, physicalMemory())

// TrainingBytes estimates the memory that training shape s in batches of
// batch rows needs, with rows training rows of its features: the flat
// parameters and their copies (the run's parameters, best parameters and
// Adam moments in float64; the engine's parameters, gradient and moments),
// the engine's per-step workspaces, and the rows (read, preprocessed, and
// the validation rows' copy, counted as all of them). It errs high by
// design.
func TrainingBytes(s Shape, batch, rows int) float64 {
	return graphBytes(s, batch) + dataBytes(s, rows)
}

// graphBytes is the part of TrainingBytes that each graph needs for
// itself: parameters, their copies and the workspaces.
func graphBytes(s Shape, batch int) float64 {
	p := float64(s.NumParams())
	n, S, N, B := float64(s.Nodes), float64(s.States()), float64(s.Steps), float64(batch)
	params := 8*4*p + 8*5*p
	work := 8 * 3 * (2*n + S) * N * B
	return params + work
}

// dataBytes is the part of TrainingBytes that graphs trained on the same
// rows share.
func dataBytes(s Shape, rows int) float64 { return 24 * float64(rows) * float64(s.Features) }

// checkMemory refuses graphs graphs of a shape, trained together on the
// same rows, when they need more than MemoryCap together, with the
// estimate: each graph's own part of TrainingBytes, and the rows once.
func checkMemory(s Shape, batch, rows, graphs int) error {
	if need := float64(graphs)*graphBytes(s, batch) + dataBytes(s, rows); need > float64(MemoryCap) {
		what := ""
		if graphs > 1 {
			what = fmt.Sprintf("%d graphs of ", graphs)
		}
		return fmt.Errorf("training %s%d nodes, %d steps on %d features and %d classes needs about %s of memory, more than the %s songc may use here; use fewer --nodes or --steps",
			what, s.Nodes, s.Steps, s.Features, s.Classes, bytesString(need), bytesString(float64(MemoryCap)))
	}
	return nil
}

func bytesString(b float64) string {
	switch {
	case b >= 1<<40:
		return fmt.Sprintf("%.1f TiB", b/(1<<40))
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", b/(1<<30))
	}
	return fmt.Sprintf("%.0f MiB", b/(1<<20))
}
