package trainer

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/songc/songc/internal/shared"
)

// refCase is one case of ../shared/reference/song_reference_cases.json,
// computed in float64 by the SONG authors' code (gmum/SONGs at fc468cd).
type refCase struct {
	Nodes, Classes, Steps, Features, Batch int
	Gamma                                  *float64    `json:"node_reg_gamma"`
	Lambda                                 float64     `json:"node_reg_lambda"`
	M0, M1                                 [][]float64 `json:"-"`
	M0L                                    [][]float64 `json:"M0_logits"`
	M1L                                    [][]float64 `json:"M1_logits"`
	W                                      [][]float64
	B                                      []float64 `json:"b"`
	X                                      [][]float64
	Y                                      []int
	LeafProbs                              [][]float64 `json:"leaf_probs"`
	BCE                                    float64     `json:"bce_weighted"`
	LeafMass                               float64     `json:"leaf_mass_mean"`
	LeafTerm                               float64     `json:"leaf_term"`
	NodeLoss                               float64     `json:"node_loss"`
	Total                                  float64     `json:"total_loss"`
	GM0                                    [][]float64 `json:"grad_M0_logits"`
	GM1                                    [][]float64 `json:"grad_M1_logits"`
	GW                                     [][]float64 `json:"grad_W"`
	GB                                     []float64   `json:"grad_b"`
}

func loadRefCases(t testing.TB) []refCase {
	t.Helper()
	b, err := os.ReadFile(shared.Path(t, "reference/song_reference_cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Cases []refCase }
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Cases) != 6 {
		t.Fatalf("want the 6 reference cases, got %d", len(f.Cases))
	}
	return f.Cases
}

func (rc *refCase) shape() Shape {
	s := Shape{Nodes: rc.Nodes, Classes: rc.Classes, Steps: rc.Steps, Features: rc.Features, NodeRegLambda: rc.Lambda}
	if rc.Gamma != nil {
		s.NodeRegGamma = *rc.Gamma
	}
	return s
}

func flatten(dst []float64, rows [][]float64) []float64 {
	for _, r := range rows {
		dst = append(dst, r...)
	}
	return dst
}

func (rc *refCase) params() []float64 {
	p := flatten(nil, rc.M0L)
	p = flatten(p, rc.M1L)
	p = flatten(p, rc.W)
	return append(p, rc.B...)
}

func (rc *refCase) grad() []float64 {
	g := flatten(nil, rc.GM0)
	g = flatten(g, rc.GM1)
	g = flatten(g, rc.GW)
	return append(g, rc.GB...)
}

// relErr is |got-want| / max(|want|, floor): relative, with an absolute floor
// for values near zero.
func relErr(got, want, floor float64) float64 {
	return math.Abs(got-want) / math.Max(math.Abs(want), floor)
}

// Tolerances are those of issue 2 and 5: 1e-10 relative in float64, 1e-4 in
// float32. Scalars near zero are compared against a floor: in float32 a leaf
// term of 1e-8 (case 5: mean mass 1-1e-8) is below the resolution of the
// masses themselves (26 values with eps 6e-8 each), so there the comparison
// is absolute at 1e-4*1e-2 = 1e-6.
func TestReferenceCasesF64(t *testing.T) { testReference(t, newF64, 1e-10, 1e-12) }
func TestReferenceCasesF32(t *testing.T) { testReference(t, newF32, 1e-4, 1e-2) }

// TestReferenceCasesPacked runs the same cases on each packed kernel that
// the machine runs.
func TestReferenceCasesPacked(t *testing.T) {
	for _, name := range PackedKernels {
		t.Run(name, func(t *testing.T) {
			if !HasPacked(name) {
				t.Skipf("this machine cannot run the %s kernel: it is never used here", name)
			}
			testReference(t, func(s Shape, b int) (Engine, error) {
				k, err := NewKernel32(name)
				if err != nil {
					return nil, err
				}
				return NewCPU[float32](s, k, b)
			}, 1e-4, 1e-2)
		})
	}
}

func newF64(s Shape, b int) (Engine, error) { return NewCPU[float64](s, Gonum64{}, b) }
func newF32(s Shape, b int) (Engine, error) { return NewCPU[float32](s, Gonum32{}, b) }

func testReference(t *testing.T, newEngine func(Shape, int) (Engine, error), tol, floor float64) {
	for ci, rc := range loadRefCases(t) {
		e, err := newEngine(rc.shape(), rc.Batch)
		if err != nil {
			t.Fatal(err)
		}
		e.SetParams(rc.params())
		x := flatten(nil, rc.X)
		grad := make([]float64, rc.shape().NumParams())
		lp := e.LossGrad(grad, x, rc.Y, nil)

		// Leaf probabilities are compared after the output clamp, as stored.
		q := make([]float64, rc.Batch*rc.Classes)
		e.Predict(q, x)
		for b := range rc.Batch {
			for k := range rc.Classes {
				got, _ := clampOut(q[b*rc.Classes+k])
				if r := relErr(got, rc.LeafProbs[b][k], 1e-12); r > tol {
					t.Errorf("case %d: leaf_probs[%d][%d] = %.17g, want %.17g (rel %.2g)", ci, b, k, got, rc.LeafProbs[b][k], r)
				}
			}
		}
		for _, c := range []struct {
			name      string
			got, want float64
		}{
			{"bce_weighted", lp.BCE, rc.BCE},
			{"leaf_term", lp.Leaf, rc.LeafTerm},
			{"leaf_mass_mean", lp.LeafMass, rc.LeafMass},
			{"node_loss", lp.Node, rc.NodeLoss},
			{"total_loss", lp.Total, rc.Total},
		} {
			if r := relErr(c.got, c.want, floor); r > tol {
				t.Errorf("case %d: %s = %.17g, want %.17g (rel %.2g)", ci, c.name, c.got, c.want, r)
			}
		}
		// Gradients: relative to the largest entry of the tensor, so that
		// entries that cancel to ~0 do not blow the ratio up.
		want := rc.grad()
		var scale float64
		for _, v := range want {
			scale = math.Max(scale, math.Abs(v))
		}
		worst, at := 0.0, -1
		for i := range want {
			if r := math.Abs(grad[i]-want[i]) / scale; r > worst {
				worst, at = r, i
			}
		}
		if worst > tol {
			t.Errorf("case %d: gradient[%d] = %.17g, want %.17g (error %.2g of max |grad|)", ci, at, grad[at], want[at], worst)
		}
	}
}
