package refine

import (
	"bytes"
	"math"
	"slices"
	"testing"

	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer"
	"github.com/songc/songc/trainer/internal/fixture"
)

func TestSignTest(t *testing.T) {
	for _, c := range []struct {
		a, b int
		want float64
	}{
		{0, 0, 1},
		{0, 5, 1},
		{5, 0, 1.0 / 32},
		{1, 1, 3.0 / 4},
		{9, 4, 1093.0 / 8192},       // C(13,9)+...+C(13,13) = 715+286+78+13+1
		{60, 40, 0.028443966820490}, // P(X >= 60), X ~ Binomial(100, 1/2)
		// Beyond the range of 0.5^n C(n, k) in float64 (n > 1074), on
		// either side of the level: exact values to 12 digits.
		{3065, 2935, 0.0479141109103},
		{3064, 2936, 0.0505440364986},
		{0, 6000, 1},
	} {
		if got := signTest(c.a, c.b); math.Abs(got-c.want) > 1e-11 {
			t.Errorf("signTest(%d, %d) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestBeats: with 5 or more rows that tell two models apart the sign test
// decides at MajorityLevel; with fewer, the one right on more of them,
// the other on a tie.
func TestBeats(t *testing.T) {
	for _, c := range []struct {
		a, b      int
		undecided bool
		better    bool
	}{
		{5, 0, false, true}, // p = 1/32
		{4, 0, true, true},  // 4 rows: no result can reach 0.05
		{3, 1, true, true},
		{2, 2, true, false}, // a tie goes to the other model
		{0, 0, true, false},
		{6, 3, false, false},   // ahead, p = 0.25
		{15, 10, false, false}, // ahead, p = 0.21
		{20, 5, false, true},   // p = 0.002
		{0, 7, false, false},
	} {
		p, undecided, better := beats(c.a, c.b)
		if p != signTest(c.a, c.b) || undecided != c.undecided || better != c.better {
			t.Errorf("beats(%d, %d) = %v, %v, %v; want p %v, %v, %v", c.a, c.b, p, undecided, better, signTest(c.a, c.b), c.undecided, c.better)
		}
	}
}

// refinedFixture returns the fixture's model refined for two passes, and
// its fit and validation rows. The fixture's 8 epochs leave a walk that is
// right on few rows; two passes of refining make one that is clearly
// better than a constant.
func refinedFixture(t *testing.T) (task *trainer.Task, m *runtime.Model, fit, val []int) {
	t.Helper()
	task, trained := refineFixture(t, 0.2)
	m = mustRun(t, trained, task, Config{Passes: 2})
	var err error
	if _, fit, val, err = trainer.ModelSplit(m, task, "test"); err != nil {
		t.Fatal(err)
	}
	return task, m, fit, val
}

// walkClasses returns the class runtime's walk of m gives each of rows.
func walkClasses(t *testing.T, m *runtime.Model, task *trainer.Task, rows []int) []int {
	t.Helper()
	k, err := runtime.New(m)
	if err != nil {
		t.Fatal(err)
	}
	scratch := make([]float64, m.Features)
	out := make([]int, len(rows))
	for i, r := range rows {
		w, _ := k.Walk(task.Train.Row(r), scratch, nil)
		out[i] = w.Class
	}
	return out
}

// TestMajorityCheck: a walk that beats the most frequent class on the
// validation rows is kept, with the counts of the rows where exactly one of
// the two is right; one that does not is replaced by a one-node model that
// predicts that class for every row and keeps the input columns.
func TestMajorityCheck(t *testing.T) {
	task, m, fit, val := refinedFixture(t)
	y := task.TrainTargets()
	count := classCounts(m.Classes, y, fit)
	major := slices.Index(count, slices.Max(count))
	// counts recounts the check's rows for the walk of m.
	counts := func(m *runtime.Model) (walkOnly, constOnly int) {
		walked := walkClasses(t, m, task, val)
		for i, r := range val {
			if p := walked[i]; p == y[r] && y[r] != major {
				walkOnly++
			} else if p != y[r] && y[r] == major {
				constOnly++
			}
		}
		return walkOnly, constOnly
	}

	out, check := majorityCheck(m, y, fit, val, walkClasses(t, m, task, val), nil)
	w, c := counts(m)
	if check.Constant || out != m || check.WalkOnly != w || check.ConstantOnly != c || check.Class != m.ClassNames[major] || !(check.PValue < MajorityLevel) {
		t.Fatalf("refined walk: check %+v, want kept with %d and %d rows, class %q", check, w, c, m.ClassNames[major])
	}

	// A walk to another class's leaf only: no better than the constant.
	other := (major + 1) % m.Classes
	skewed := slices.Clone(count)
	skewed[other] = count[major] + 1
	weak := constantModel(m, skewed)
	out, check = majorityCheck(weak, y, fit, val, walkClasses(t, weak, task, val), nil)
	w, c = counts(weak)
	if !check.Constant || check.WalkOnly != w || check.ConstantOnly != c || check.PValue < MajorityLevel {
		t.Fatalf("walk to class %d: check %+v, want the constant, with %d and %d rows", other, check, w, c)
	}
	if err := out.Validate(); err != nil {
		t.Fatal(err)
	}
	if out.Nodes != 1 || out.Steps != 1 || out.Schema != m.Schema || !bytes.Equal(out.Training, m.Training) {
		t.Errorf("constant model: %d nodes, %d steps; schema or metadata changed", out.Nodes, out.Steps)
	}
	for r, got := range walkClasses(t, out, task, fixture.Rows(task.Train.Rows)) {
		if got != major {
			t.Fatalf("constant model: row %d walks to class %d, want %d", r, got, major)
		}
	}
	// Its soft model gives the classes' shares of the fit rows.
	k, _ := runtime.New(out)
	probs := make([]float64, m.Classes)
	k.Soft(probs, task.Train.Row(0), k.NewSoftScratch())
	for c, p := range probs {
		if want := float64(count[c]) / float64(len(fit)); count[c] > 0 && math.Abs(p-want) > 1e-8 {
			t.Errorf("constant model's soft mass on class %d: %v, want its share %v", c, p, want)
		}
	}
}

// TestMajorityRegression: when the walk is not kept, a runner-up
// regression takes the constant's place if it is right on more of the
// validation rows than the constant, fitted again (its refit); otherwise,
// or when its refit fails, the constant stays. A walk that is kept leaves
// the runner-up alone. A regression that is the model (it replaced the
// walk) is judged the same way, whatever the walk's test says, and not
// fitted again.
func TestMajorityRegression(t *testing.T) {
	task, m, fit, val := refinedFixture(t)
	y := task.TrainTargets()
	count := classCounts(m.Classes, y, fit)
	major := slices.Index(count, slices.Max(count))
	skewed := slices.Clone(count)
	skewed[(major+1)%m.Classes] = count[major] + 1
	weak := constantModel(m, skewed) // a walk no better than the constant
	weakClasses := walkClasses(t, weak, task, val)

	truth, constant := make([]int, len(val)), make([]int, len(val))
	wantOnly := 0 // rows the truth gets right and the constant wrong
	for i, r := range val {
		truth[i], constant[i] = y[r], major
		if y[r] != major {
			wantOnly++
		}
	}
	if wantOnly == 0 {
		t.Fatal("the fixture's validation rows are all of the most frequent class")
	}
	refitted := 0
	refit := &runtime.Model{}
	alt := func(class []int, model *runtime.Model) *regression {
		return &regression{class: class, refit: func() *runtime.Model { refitted++; return model }}
	}
	reg := cloneModel(m) // stands for the regression that replaced the walk
	model := func(class []int) *regression {
		r := alt(class, nil)
		r.model = reg
		return r
	}
	strong := walkClasses(t, m, task, val)
	for _, c := range []struct {
		name      string
		walk      *runtime.Model
		walked    []int
		alt       *regression
		want      *runtime.Model // nil: the constant
		only      int            // the regression's RegressionOnly, -1: no record
		refitted  int
		regressed bool
	}{
		{"right on every row", weak, weakClasses, alt(truth, refit), refit, wantOnly, 1, true},
		{"the constant's classes", weak, weakClasses, alt(constant, refit), nil, 0, 0, false},
		{"refit fails", weak, weakClasses, alt(truth, nil), nil, wantOnly, 1, false},
		{"walk kept", m, strong, alt(truth, refit), m, -1, 0, false},
		{"the model, right on every row", reg, strong, model(truth), reg, wantOnly, 0, true},
		{"the model, the constant's classes", reg, strong, model(constant), nil, 0, 0, false},
		{"the model, a weak walk", reg, weakClasses, model(truth), reg, wantOnly, 0, true},
	} {
		refitted = 0
		out, check := majorityCheck(c.walk, y, fit, val, c.walked, c.alt)
		r := check.Regression
		switch {
		case c.only < 0 && r != nil:
			t.Errorf("%s: regression %+v, want none", c.name, r)
		case c.only >= 0 && (r == nil || r.RegressionOnly != c.only || r.ConstantOnly != 0 || r.Kept != c.regressed):
			t.Errorf("%s: regression %+v, want %d rows and none against, kept %v", c.name, r, c.only, c.regressed)
		}
		if refitted != c.refitted {
			t.Errorf("%s: %d refits, want %d", c.name, refitted, c.refitted)
		}
		if c.want == nil {
			if !check.Constant || out.Nodes != 1 {
				t.Errorf("%s: check %+v, %d nodes, want the constant", c.name, check, out.Nodes)
			}
		} else if out != c.want || check.Constant {
			t.Errorf("%s: check %+v, want the model %p, got %p", c.name, check, c.want, out)
		}
	}
}

// TestMajorityClass: the constant is the most frequent class of the fit
// rows, not of the validation rows, and the lower class on ties.
func TestMajorityClass(t *testing.T) {
	task, m := refineFixture(t, 0.2)
	_, fit, val, err := trainer.ModelSplit(m, task, "test")
	if err != nil {
		t.Fatal(err)
	}
	y := task.TrainTargets()
	// Fit rows: the first two of classes 3 and 5 (a tie), one of 1; the
	// validation rows are all of class 1.
	var fit2, val2 []int
	seen := map[int]int{}
	for _, r := range append(fit, val...) {
		if c := y[r]; (c == 3 || c == 5) && seen[c] < 2 || c == 1 && seen[c] < 1 {
			seen[c]++
			fit2 = append(fit2, r)
		}
	}
	for _, r := range append(fit, val...) {
		if y[r] == 1 && !slices.Contains(fit2, r) {
			val2 = append(val2, r)
		}
	}
	_, check := majorityCheck(m, y, fit2, val2, walkClasses(t, m, task, val2), nil)
	if check.Class != m.ClassNames[3] {
		t.Errorf("constant %q, want %q (the lower of two tied classes of the fit rows)", check.Class, m.ClassNames[3])
	}
}

// TestMajorityUndecided: with fewer than 5 rows that tell the walk from the
// constant, the sign test cannot reach 0.05, and the one right on more of
// them is kept.
func TestMajorityUndecided(t *testing.T) {
	task, m, fit, val := refinedFixture(t)
	y := task.TrainTargets()
	count := classCounts(m.Classes, y, fit)
	major := slices.Index(count, slices.Max(count))
	var walkOnly, constOnly []int
	for i, class := range walkClasses(t, m, task, val) {
		switch r := val[i]; {
		case class == y[r] && y[r] != major:
			walkOnly = append(walkOnly, r)
		case class != y[r] && y[r] == major:
			constOnly = append(constOnly, r)
		}
	}
	if len(walkOnly) < 3 || len(constOnly) < 1 {
		t.Skipf("the fixture's walk has %d and %d telling rows", len(walkOnly), len(constOnly))
	}
	for _, c := range []struct {
		rows     []int
		constant bool
	}{
		{walkOnly[:3], false},                            // 3 against 0: p = 0.125, but the walk is right more often
		{append(walkOnly[:1:1], constOnly[:1]...), true}, // 1 against 1: the simpler model
		{nil, true}, // no telling rows
	} {
		out, check := majorityCheck(m, y, fit, c.rows, walkClasses(t, m, task, c.rows), nil)
		if !check.Undecided || check.Constant != c.constant || (out.Nodes == 1) != c.constant {
			t.Errorf("%d rows: check %+v, want undecided and constant %v", len(c.rows), check, c.constant)
		}
	}
}

// TestRefineMajorityCheck: Run with MajorityCheck records the check in the
// refine metadata and, when the walk is kept, returns the model Run returns
// without it; without validation rows there is no check.
func TestRefineMajorityCheck(t *testing.T) {
	task, m := refineFixture(t, 0.2)
	plain := mustRun(t, m, task, Config{Passes: 2})
	checked := mustRun(t, m, task, Config{Passes: 2, MajorityCheck: true})
	mc := refineMeta(t, checked).Majority
	if mc == nil || mc.Constant || refineMeta(t, plain).Majority != nil {
		t.Fatalf("majority check %+v, want a kept walk", mc)
	}
	a, b := *plain, *checked
	a.Training, b.Training = nil, nil
	if !bytes.Equal(fixture.Encode(t, &a), fixture.Encode(t, &b)) {
		t.Error("the kept walk differs from the one refined without the check")
	}

	task, m = refineFixture(t, 0)
	out := mustRun(t, m, task, Config{Passes: 1, MajorityCheck: true})
	if mc := refineMeta(t, out).Majority; mc != nil {
		t.Errorf("no validation rows, yet a majority check %+v", mc)
	}
}

// TestMajorityBarred: the check runs only after refining, on validation
// rows, for a model selected by accuracy (of the soft model or the walk).
func TestMajorityBarred(t *testing.T) {
	for _, c := range []struct {
		passes int
		val    bool
		sel    string
		want   MajorityBar
	}{
		{1, true, "hard", MajorityRuns},
		{10, true, "soft", MajorityRuns},
		{0, true, "hard", MajorityNoRefine},
		{0, false, "balanced", MajorityNoRefine},
		{1, false, "hard", MajorityNoVal},
		{1, false, "balanced", MajorityNoVal},
		{1, true, "balanced", MajorityBalanced},
	} {
		if got := MajorityBarred(c.passes, c.val, c.sel); got != c.want {
			t.Errorf("MajorityBarred(%d, %v, %q) = %d, want %d", c.passes, c.val, c.sel, got, c.want)
		}
	}
}
