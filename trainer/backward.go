package trainer

import (
	"fmt"
	"math"

	"github.com/songc/songc/trainer/internal/vec"
)

// The backward pass and the optimiser step of the CPU engine.

// LossGrad implements Engine.
func (e *CPU[T]) LossGrad(grad []float64, x []float64, y []int, noise []float64) LossParts {
	lp := e.lossGrad(x, y, noise, grad != nil)
	if grad != nil {
		for i, v := range e.g {
			grad[i] = float64(v)
		}
	}
	return lp
}

// TrainStep implements Engine with PyTorch's Adam update, preceded, when
// Shape.WeightDecay > 0, by PyTorch AdamW's decoupled decay of W.
func (e *CPU[T]) TrainStep(x []float64, y []int, noise []float64, lr float64) LossParts {
	lp := e.lossGrad(x, y, noise, true)
	if wd := e.shape.WeightDecay; wd > 0 {
		_, _, w, b, _ := e.shape.offsets()
		f := T(1 - lr*wd)
		for i := w; i < b; i++ {
			e.p[i] *= f
		}
	}
	e.step++
	bc1 := 1 - math.Pow(adamBeta1, float64(e.step))
	bc2 := math.Sqrt(1 - math.Pow(adamBeta2, float64(e.step)))
	stepSize := T(lr / bc1)
	b1, b2, eps, ibc2 := T(adamBeta1), T(adamBeta2), T(adamEps), T(1/bc2)
	// No subnormal numbers in the moments or parameters: a moment whose
	// gradient stays 0 (a node no walk visits, a column entry flushed to
	// 0) decays geometrically into the subnormal range and stays there for
	// hundreds of steps, and subnormal arithmetic is up to 100 times
	// slower on x86 (late in Connect-4 255/10 runs, annealed or
	// straight-through, over 70% of the first moments were subnormal:
	// experiments/NOTEBOOK.md). Gradients below sqrtMinNormal (whose square would
	// be subnormal) count as 0, and moments and parameters that fall below
	// minNormal become 0. The change to an update is then at most
	// (1-beta1)*sqrtMinNormal/adamEps times the step size (about 1e-12 in
	// float32), far below the resolution of any parameter that matters.
	//
	// The tests compare magnitudes (math.Abs is one AND) rather than
	// x < tiny && x > -tiny: the sign of a gradient or parameter is a coin
	// toss, and a branch on it is mispredicted half the time.
	tinyG, tinyM := float64(sqrtMinNormal[T]()), float64(minNormal[T]())
	for i, g := range e.g {
		if math.Abs(float64(g)) < tinyG {
			g = 0
		}
		m := e.am[i] + (1-b1)*(g-e.am[i])
		if math.Abs(float64(m)) < tinyM {
			m = 0
		}
		v := b2*e.av[i] + (1-b2)*g*g
		if float64(v) < tinyM {
			v = 0
		}
		e.am[i], e.av[i] = m, v
		p := e.p[i] - stepSize*m/(T(math.Sqrt(float64(v)))*ibc2+eps)
		if math.Abs(float64(p)) < tinyM {
			p = 0 // a weight-decayed filter entry, in the GEMMs next
		}
		e.p[i] = p
	}
	return lp
}

func (e *CPU[T]) lossGrad(x []float64, y []int, noise []float64, wantGrad bool) LossParts {
	B := e.rows(x)
	if len(y) != B {
		panic(fmt.Sprintf("trainer: %d labels for %d rows", len(y), B))
	}
	s := e.shape
	n, c, S, d, N := s.Nodes, s.Classes, s.States(), s.Features, s.Steps
	e.transitions(noise)
	e.forward(x, B)
	lp := e.loss(y, B)
	// The node regularisation acts on soft decisions: the walk of the
	// straight-through mode has none, and it is left out.
	reg := s.NodeRegLambda > 0 && !e.straight
	if reg {
		lp.Node = e.nodeReg(B)
	}
	lp.Total = lp.BCE + lp.Leaf + s.NodeRegLambda*lp.Node
	if !wantGrad {
		return lp
	}

	// Backward through the steps. dn holds, for each step t, the gradient
	// with respect to that step's output: rows 0..n-1 are d/dp_{t+1}, rows
	// n..S-1 are dq (the same for every step, since q sums the steps).
	NB := N * B
	gamma := s.NodeRegGamma
	tiny := sqrtMinNormal[T]()
	for t := 0; t < N; t++ {
		for k := 0; k < c; k++ {
			copy(e.dn[(n+k)*NB+t*B:(n+k)*NB+t*B+B], e.dq[k*B:(k+1)*B])
		}
	}
	for i := 0; i < n; i++ {
		clear(e.dn[i*NB+(N-1)*B : i*NB+N*B]) // p_N is not used by the loss
	}
	clear(e.gs[:n*B])
	e.k.PackA(1, true, 2*n, S, 1, e.m, 2*n) // M^T (2n x S), once for the N products
	for t := N - 1; t >= 0; t-- {
		e.k.GemmA(1, false, B, e.dn[t*B:], NB, 0, e.du, B) // dU_t = M^T dn_t (2n x B)
		pt := e.ps[t*n*B : (t+1)*n*B]
		for i := 0; i < n; i++ {
			du1 := e.du[i*B : (i+1)*B]
			du0 := e.du[(n+i)*B : (n+i+1)*B]
			si := e.sg[i*B : (i+1)*B]
			gsi := e.gs[i*B : (i+1)*B]
			pi := pt[i*B : (i+1)*B]
			var nA, nB, nZ float64
			if reg {
				nA, nB, nZ = float64(e.nrA[t*n+i]), float64(e.nrB[t*n+i]), float64(e.nrZ[t*n+i])
			}
			var gp []T
			if t > 0 {
				gp = e.dn[i*NB+(t-1)*B : i*NB+t*B]
			}
			// Each row gets the terms of the walk, then those of the node
			// regularisation, in that order, one loop for each. No
			// subnormals into the GEMMs.
			vec.SplitGrad(gsi, gp, si, pi, du1, du0, tiny)
			if !reg {
				continue
			}
			for j, sv := range si {
				z, zok := clampOut(float64(pi[j]))
				s64 := float64(sv)
				if gamma == 1 {
					if gp != nil && zok {
						gp[j] += T(nA*s64 + nZ)
					}
					gsi[j] += T(z * nA)
				} else {
					if gp != nil && zok {
						gp[j] += T(nA*math.Pow(s64, gamma) + nB*math.Pow(1-s64, gamma) + nZ)
					}
					gsi[j] += T(z * gamma * (nA*math.Pow(s64, gamma-1) - nB*math.Pow(1-s64, gamma-1)))
				}
			}
		}
	}
	// dM = sum_t dn_t U_t^T: one GEMM over all steps (S x 2n).
	e.k.Gemm(false, true, S, 2*n, NB, 1, e.dn, NB, e.u, NB, 0, e.gm, 2*n)

	// Through the sigmoid, then into W and b (both scaled by the
	// temperature's 1/tau; exactly 1 unless annealing).
	invTau := T(e.invTau)
	l0o, l1o, wo, bo, _ := s.offsets()
	sgd, md := e.sg, e.m // the values the derivatives are taken at
	if e.straight {
		sgd, md = e.sgs, e.msoft
	}
	for i := 0; i < n; i++ {
		var sum T
		for j := 0; j < B; j++ {
			sv := sgd[i*B+j]
			g := e.gs[i*B+j] * sv * (1 - sv) * invTau
			e.gs[i*B+j] = g
			sum += g
		}
		e.g[bo+i] = sum
	}
	e.k.Gemm(false, false, n, d, B, 1, e.gs, B, e.xb, d, 0, e.g[wo:], d)

	// Through the column softmax: dL[:,i] = M[:,i] ∘ (dM[:,i] - <M[:,i], dM[:,i]>).
	for half, off := range [2]int{l1o, l0o} {
		col0 := half * n
		for i := 0; i < n; i++ {
			var dot float64
			for r := 0; r < S; r++ {
				dot += float64(md[r*2*n+col0+i]) * float64(e.gm[r*2*n+col0+i])
			}
			for r := 0; r < S; r++ {
				mv := md[r*2*n+col0+i]
				e.g[off+r*n+i] = mv * (e.gm[r*2*n+col0+i] - T(dot)) * invTau
			}
		}
	}
	return lp
}
