package trainer

import (
	"fmt"
	"math"

	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer/internal/vec"
)

// The forward pass and the loss of the CPU engine (docs/model.md).

// transitions fills e.m from the logits and the optional Gumbel noise.
func (e *CPU[T]) transitions(noise []float64) {
	s := e.shape
	n, S := s.Nodes, s.States()
	l0o, l1o, _, _, _ := s.offsets()
	tiny := sqrtMinNormal[T]()
	col := e.col // one column's scaled logits
	fill := func(logits []T, off int, noise []float64, col0 int) {
		for i := 0; i < n; i++ {
			mx := math.Inf(-1)
			for r := range col {
				v := float64(logits[r*n+i])
				if noise != nil {
					v += noise[off+r*n+i]
				}
				v *= e.invTau
				col[r] = v
				if v > mx { // math.Max for numbers, without its NaN and -0 cases
					mx = v
				}
			}
			var sum float64
			for r, v := range col {
				ev := math.Exp(v - mx)
				e.m[r*2*n+col0+i] = T(ev)
				sum += ev
			}
			inv := 1 / sum
			for r := 0; r < S; r++ {
				v := T(float64(e.m[r*2*n+col0+i]) * inv)
				if v < tiny {
					// Subnormal numbers are up to 100 times slower on x86;
					// they appear when the temperature is low. Their
					// contribution is below the smallest normal number.
					v = 0
				}
				e.m[r*2*n+col0+i] = v
			}
		}
	}
	fill(e.p[l1o:l1o+S*n], l1o, noise, 0)
	fill(e.p[l0o:l0o+S*n], l0o, noise, n)
	if e.straight {
		// One-hot columns at the argmax of the logits (+ noise), the first of
		// equal ones, as the runtime chooses children.
		copy(e.msoft, e.m)
		for half, off := range [2]int{l1o, l0o} {
			for i := 0; i < n; i++ {
				best, bv := 0, math.Inf(-1)
				for r := 0; r < S; r++ {
					v := float64(e.p[off+r*n+i])
					if noise != nil {
						v += noise[off+r*n+i]
					}
					if v > bv {
						best, bv = r, v
					}
				}
				col := half*n + i
				for r := 0; r < S; r++ {
					e.m[r*2*n+col] = 0
				}
				e.m[best*2*n+col] = 1
			}
		}
	}
	e.k.PackA(0, false, S, 2*n, 1, e.m, 2*n) // for the N products of every forward pass
}

// forward runs the N steps on the B rows of x and leaves q (c x B) filled.
func (e *CPU[T]) forward(x []float64, B int) {
	s := e.shape
	n, c, d, N, S := s.Nodes, s.Classes, s.Features, s.Steps, s.States()
	_, _, wo, bo, _ := s.offsets()
	vec.Narrow(e.xb, x)
	// Pre-activations a = W x^T (n x B), then s = sigmoid(a + b).
	e.k.Gemm(false, true, n, B, d, 1, e.p[wo:], d, e.xb, d, 0, e.sg, B)
	for i := 0; i < n; i++ {
		bi := float64(e.p[bo+i])
		row := e.sg[i*B : (i+1)*B]
		if e.straight {
			// The walk's decision (runtime: a margin > 0 goes right) and,
			// for the backward pass, the soft sigmoid.
			soft := e.sgs[i*B : (i+1)*B]
			for j, a := range row {
				z := float64(a) + bi
				soft[j] = T(runtime.Sigmoid(z * e.invTau))
				row[j] = 0
				if z > 0 {
					row[j] = 1
				}
			}
			continue
		}
		for j, a := range row {
			row[j] = T(runtime.Sigmoid((float64(a) + bi) * e.invTau))
		}
	}
	p0 := e.ps[:n*B]
	clear(p0)
	for j := 0; j < B; j++ {
		p0[j] = 1 // root
	}
	NB := N * B
	tiny := sqrtMinNormal[T]()
	for t := 0; t < N; t++ {
		pt := e.ps[t*n*B : (t+1)*n*B]
		for i := 0; i < n; i++ {
			u1 := e.u[i*NB+t*B : i*NB+t*B+B]
			u0 := e.u[(n+i)*NB+t*B : (n+i)*NB+t*B+B]
			// No subnormals into the GEMM (see transitions).
			vec.Split(u1, u0, e.sg[i*B:(i+1)*B], pt[i*B:(i+1)*B], tiny)
		}
		// One product per step: next = [M1 | M0] U_t (S x B). Its internal
		// rows are p_{t+1}; its leaf rows accumulate into q.
		e.k.GemmA(0, false, B, e.u[t*B:], NB, 0, e.nx, B)
		copy(e.ps[(t+1)*n*B:(t+2)*n*B], e.nx[:n*B])
		if t == 0 {
			copy(e.q[:c*B], e.nx[n*B:])
		} else {
			leaf := e.nx[n*B : S*B]
			q := e.q[:len(leaf)]
			for i, v := range leaf {
				q[i] += v
			}
		}
	}
}

// sqrtMinNormal returns the square root of the smallest positive normal
// number of T. Values below it in the GEMM inputs are flushed to zero: then
// every product of two inputs is normal, and subnormal arithmetic, up to
// 100 times slower on x86 (it appears at low annealing temperatures), never
// happens. Such values are far below T's resolution of the O(1) masses.
func sqrtMinNormal[T Float]() T {
	var z T
	if _, ok := any(z).(float32); ok {
		return T(0x1p-63)
	}
	return T(0x1p-511)
}

// minNormal returns the smallest positive normal number of T.
func minNormal[T Float]() T {
	var z T
	if _, ok := any(z).(float32); ok {
		return T(0x1p-126)
	}
	return T(0x1p-1022)
}

// clampOut is the authors' interval(): values <= 0 become 1e-5, values >= 1
// become 1-1e-5. ok is false where a value was replaced (zero gradient).
func clampOut(v float64) (out float64, ok bool) {
	switch {
	case v <= 0:
		return clampLo, false
	case v >= 1:
		return clampHi, false
	}
	return v, true
}

// loss computes the BCE and leaf terms from e.q and writes dq (the gradient
// of BCE + Leaf with respect to the unclamped q).
func (e *CPU[T]) loss(y []int, B int) LossParts {
	c := e.shape.Classes
	wOther := 1.0
	if c > 2 {
		wOther = 1 / float64(c-1)
	}
	// The rows' masses sum over the classes, then over the batch, the
	// order of the authors' q.sum(1).mean() (the leaf term's gradient
	// depends on it); the classes' rows of q are read in turn, each row's
	// running mass, largest mass and its class kept per row.
	rowMass, best, top := e.rowMass[:B], e.best[:B], e.top[:B]
	clear(rowMass)
	clear(best)
	copy(top, e.q[:B])
	var bce float64
	for k := 0; k < c; k++ {
		var bk float64
		for j, qk := range e.q[k*B : (k+1)*B] {
			if qk > top[j] {
				best[j], top[j] = k, qk
			}
			qc, _ := clampOut(float64(qk))
			// The authors' w * (y log q + (1-y) log(1-q)), each log
			// floored at -100. The clamp keeps both logs above
			// log(1e-5), and y is 0 or 1, so one log gives the same sum.
			if y[j] == k {
				bk -= math.Log(qc)
			} else {
				bk -= wOther * math.Log(1-qc)
			}
			rowMass[j] += qc
		}
		bce += bk
	}
	var mass float64
	correct := 0
	for j, m := range rowMass {
		mass += m
		if best[j] == y[j] {
			correct++
		}
	}
	mean := mass / float64(B)
	lp := LossParts{BCE: bce / float64(B*c), Leaf: -math.Log(mean), LeafMass: mean, Correct: correct}
	dLeaf := -1 / (mean * float64(B))
	scale := 1 / float64(B*c)
	if e.straight {
		// The hard walk's q is 0 or 1, where the clamp has no gradient:
		// the gradient is that of the walk's expected error instead,
		// -q_y + sum_{k != y} q_k w.
		for k := 0; k < c; k++ {
			for j := 0; j < B; j++ {
				g := wOther * scale
				if y[j] == k {
					g = -scale
				}
				e.dq[k*B+j] = T(g + dLeaf)
			}
		}
		return lp
	}
	for k := 0; k < c; k++ {
		for j := 0; j < B; j++ {
			qc, ok := clampOut(float64(e.q[k*B+j]))
			if !ok {
				e.dq[k*B+j] = 0
				continue
			}
			w, yk := wOther, 0.0
			if y[j] == k {
				w, yk = 1, 1
			}
			den := (1 - qc) * qc
			if den < 1e-12 { // math.Max(den, 1e-12): den is positive
				den = 1e-12
			}
			g := w * scale * (qc - yk) / den
			e.dq[k*B+j] = T(g + dLeaf)
		}
	}
	return lp
}

// nodeReg computes the node regularisation (spec section 2.3) from the
// forward states and stores, per step t and node i, the coefficients of its
// gradient: d(lambda L)/d z_{b,t,i} = nrA s^g + nrB (1-s)^g + nrZ, and
// d/ds_{b,t,i} = z (g nrA s^(g-1) - g nrB (1-s)^(g-1)).
func (e *CPU[T]) nodeReg(B int) float64 {
	s := e.shape
	n, N := s.Nodes, s.Steps
	gamma, lambda := s.NodeRegGamma, s.NodeRegLambda
	var total float64
	for t := 0; t < N; t++ {
		w := math.Pow(2, -float64(t))
		var ct float64
		for i := 0; i < n; i++ {
			pt := e.ps[t*n*B+i*B : t*n*B+(i+1)*B]
			si := e.sg[i*B : (i+1)*B]
			var zs, as, bs float64
			for j := range pt {
				z, _ := clampOut(float64(pt[j]))
				sv := float64(si[j])
				zs += z
				as += z * math.Pow(sv, gamma)
				if gamma != 1 {
					bs += z * math.Pow(1-sv, gamma)
				}
			}
			if zs == 0 {
				zs = 1
			}
			alpha := as / zs
			beta := 1 - alpha
			if gamma != 1 {
				beta = bs / zs
			}
			ac, aok := clampOut(alpha)
			bc, bok := clampOut(beta)
			ct += (math.Log(ac) + math.Log(bc)) / 2
			// d(lambda * -w * (log ac + log bc)/2)
			da, db := 0.0, 0.0
			if aok {
				da = -lambda * w / (2 * ac)
			}
			if bok {
				db = -lambda * w / (2 * bc)
			}
			var dA, dB, dZ float64
			if gamma == 1 {
				dAlpha := da - db // beta = 1 - alpha
				dA = dAlpha / zs
				dZ = -dAlpha * alpha / zs
			} else {
				dA = da / zs
				dB = db / zs
				dZ = -(da*alpha + db*beta) / zs
			}
			e.nrA[t*n+i], e.nrB[t*n+i], e.nrZ[t*n+i] = T(dA), T(dB), T(dZ)
		}
		total -= w * ct
	}
	return total
}

// Predict implements Engine: leaf masses with plain softmax, in chunks of
// MaxBatch rows.
func (e *CPU[T]) Predict(dst []float64, x []float64) {
	d, c := e.shape.Features, e.shape.Classes
	rows := len(x) / d
	if len(x) != rows*d || len(dst) != rows*c {
		panic(fmt.Sprintf("trainer: Predict got %d inputs and %d outputs for %d features, %d classes", len(x), len(dst), d, c))
	}
	defer e.SetStraightThrough(e.straight)
	e.straight = false
	e.transitions(nil)
	for r0 := 0; r0 < rows; r0 += e.maxB {
		B := min(e.maxB, rows-r0)
		e.forward(x[r0*d:(r0+B)*d], B)
		for k := 0; k < c; k++ {
			for j := 0; j < B; j++ {
				dst[(r0+j)*c+k] = float64(e.q[k*B+j])
			}
		}
	}
}
