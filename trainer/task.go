package trainer

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"math"
	"math/rand/v2"
	"sort"
	"sync"

	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer/data"
)

// Task is the data of a run, already read: training rows with labels and an
// optional test set reported (never used for selection).
type Task struct {
	Train      *data.Dataset
	Test       *data.Dataset // may be nil
	ClassNames []string
	yTrain     []int
	yTest      []int

	mu          sync.Mutex
	prepared    map[prepKey]*prepared
	fingerprint string // Fingerprint's, once computed
}

// prepKey names what a run's split and preprocessing depend on.
type prepKey struct {
	seed        uint64
	val         float64
	standardize bool
}

// prepared is the validation split and the rows as the engine sees them,
// shared by every run of a task with the same seed, validation share and
// standardisation (the candidates of a search, the restarts of a seed), so
// that the data is copied once. val is a copy of x's validation rows,
// contiguous so that each epoch's validation passes read them in order
// (scattered over x, reading them cost a tenth of a small graph's epoch),
// and yVal their classes.
type prepared struct {
	trainIdx, valIdx []int
	shift, scale     []float64
	x, xTest, val    *data.Dataset
	yVal             []int
}

// prepare returns the split and preprocessed rows for cfg, computing them
// on first use. The result is shared: callers must not change it.
func (t *Task) prepare(cfg *Config) *prepared {
	key := prepKey{cfg.Seed, cfg.Val, cfg.Standardize}
	t.mu.Lock()
	defer t.mu.Unlock()
	if p, ok := t.prepared[key]; ok {
		return p
	}
	p := &prepared{}
	splitRNG, _ := newRand(cfg.Seed, streamSplit)
	if cfg.Val > 0 {
		p.trainIdx, p.valIdx = splitVal(t.yTrain, len(t.ClassNames), cfg.Val, splitRNG)
	} else {
		p.trainIdx = make([]int, t.Train.Rows)
		for i := range p.trainIdx {
			p.trainIdx[i] = i
		}
	}
	p.x, p.xTest = t.Train, t.Test
	if cfg.Standardize {
		p.shift, p.scale = standardize(t.Train, p.trainIdx)
		if sc := t.Train.Schema; sc != nil {
			// Only numeric columns' values are scaled: one-hot and
			// missing-value features stay 0 or 1.
			for j, num := range sc.NumericFeatures() {
				if !num {
					p.shift[j], p.scale[j] = 0, 1
				}
			}
		}
		p.x = preprocess(t.Train, p.shift, p.scale)
		if t.Test != nil {
			p.xTest = preprocess(t.Test, p.shift, p.scale)
		}
	}
	p.val = p.x.Subset(p.valIdx)
	p.yVal = pick(make([]int, len(p.valIdx)), t.yTrain, p.valIdx)
	if t.prepared == nil {
		t.prepared = make(map[prepKey]*prepared)
	}
	t.prepared[key] = p
	return p
}

// NewTask factorises the training labels and maps the test labels onto
// them; a test label that is none of the training labels is a
// *TestClassError.
func NewTask(train, test *data.Dataset) (*Task, error) {
	names, err := train.ClassNames()
	if err != nil {
		return nil, err
	}
	if len(names) > runtime.MaxClasses {
		return nil, fmt.Errorf("%s: has %d classes; a model holds at most %d", train.Name, len(names), runtime.MaxClasses)
	}
	t := &Task{Train: train, ClassNames: names}
	if t.yTrain, err = train.Targets(names); err != nil {
		return nil, err
	}
	if err := t.SetTest(test); err != nil {
		return nil, err
	}
	return t, nil
}

// SetTest makes test the task's test rows (nil: none), mapping their
// labels onto the classes; a label that is none of them is a
// *TestClassError, and leaves the task without test rows. It is for a
// task no run has started on.
func (t *Task) SetTest(test *data.Dataset) error {
	t.Test, t.yTest, t.prepared = nil, nil, nil
	if test == nil {
		return nil
	}
	if test.Features != t.Train.Features {
		return fmt.Errorf("%s: rows have %d features, the training data %s has %d", test.Name, test.Features, t.Train.Name, t.Train.Features)
	}
	y, err := test.Targets(t.ClassNames)
	switch {
	case err != nil && test.Labels == nil: // no label column
		return err
	case err != nil:
		return &TestClassError{err}
	}
	t.Test, t.yTest = test, y
	return nil
}

// TestClassError is NewTask's error when a test row's label is none of
// the training rows' classes.
type TestClassError struct{ Err error }

func (e *TestClassError) Error() string { return e.Err.Error() }
func (e *TestClassError) Unwrap() error { return e.Err }

// Schema returns the input columns a model of the task records: the
// training file's, or nil when they say nothing a model of format 1 does
// not (numbers named x1..xd, none missing).
func (t *Task) Schema() *runtime.Schema {
	if s := t.Train.Schema; s != nil && !s.Simple() {
		return s
	}
	return nil
}

// TrainTargets and TestTargets return the class index of every training and
// test row (nil without test rows). The slices are the task's own: callers
// must not change them.
func (t *Task) TrainTargets() []int { return t.yTrain }
func (t *Task) TestTargets() []int  { return t.yTest }

// Fingerprint is a SHA-256 of the training rows and labels, computed once
// per task (every run of a search checks it).
func (t *Task) Fingerprint() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.fingerprint == "" {
		t.fingerprint = t.hash()
	}
	return t.fingerprint
}

func (t *Task) hash() string {
	f := NewFingerprinter()
	for i, l := range t.Train.Labels {
		f.Add(t.Train.Row(i), l)
	}
	return f.Sum()
}

// Fingerprinter computes Task.Fingerprint of rows given one at a time, as
// a file is streamed: a SHA-256 of every row's features (their float64
// bits, little-endian), row after row, then of every row's label followed
// by a zero byte. It holds the labels until Sum, which ends it.
type Fingerprinter struct {
	h      hash.Hash
	labels []byte
	row    []byte // a row's bytes, reused
}

// NewFingerprinter returns a Fingerprinter of no rows.
func NewFingerprinter() *Fingerprinter { return &Fingerprinter{h: sha256.New()} }

// Add adds a row of features x with its label.
func (f *Fingerprinter) Add(x []float64, label string) {
	f.row = f.row[:0]
	for _, v := range x {
		f.row = binary.LittleEndian.AppendUint64(f.row, math.Float64bits(v))
	}
	f.h.Write(f.row)
	f.labels = append(append(f.labels, label...), 0)
}

// Sum returns the fingerprint of the rows added, in hexadecimal.
func (f *Fingerprinter) Sum() string {
	f.h.Write(f.labels)
	f.labels = f.labels[:0]
	return hex.EncodeToString(f.h.Sum(nil))
}

// splitVal returns the training and validation row indices: for each class,
// round(val * count) rows chosen at random (stratified), at least one
// training row kept per class.
func splitVal(y []int, classes int, val float64, rng *rand.Rand) (tr, va []int) {
	byClass := make([][]int, classes)
	for i, k := range y {
		byClass[k] = append(byClass[k], i)
	}
	for _, rows := range byClass {
		rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		nv := valCount(len(rows), val)
		va = append(va, rows[:nv]...)
		tr = append(tr, rows[nv:]...)
	}
	sort.Ints(tr)
	sort.Ints(va)
	return tr, va
}

// valCount is how many of a class's n rows splitVal holds out for
// validation: the share val of them, rounded, leaving at least one.
func valCount(n int, val float64) int {
	return max(0, min(int(math.Round(val*float64(n))), n-1))
}

// ClassCounts returns the number of training rows of each class.
func (t *Task) ClassCounts() []int {
	counts := make([]int, len(t.ClassNames))
	for _, k := range t.yTrain {
		counts[k]++
	}
	return counts
}

// ValRows is how many validation rows a run of share val holds out of the
// task's training rows (splitVal), without splitting them.
func (t *Task) ValRows(val float64) int {
	n := 0
	for _, c := range t.ClassCounts() {
		n += valCount(c, val)
	}
	return n
}

// MostlySingle reports whether a label of classes classes in rows rows has
// a distinct value in most rows, the mark of an identifier or a measurement
// taken for the label (in a file of 10 rows or more, large enough to tell).
func MostlySingle(classes, rows int) bool {
	return classes > rows/2 && rows >= 10
}

// standardize returns the shift (mean) and scale (1/standard deviation) of
// each feature over rows idx; a constant feature gets scale 1.
func standardize(ds *data.Dataset, idx []int) (shift, scale []float64) {
	d := ds.Features
	shift, scale = make([]float64, d), make([]float64, d)
	for _, i := range idx {
		for j, v := range ds.Row(i) {
			shift[j] += v
		}
	}
	n := float64(len(idx))
	for j := range shift {
		shift[j] /= n
	}
	for _, i := range idx {
		for j, v := range ds.Row(i) {
			dv := v - shift[j]
			scale[j] += dv * dv
		}
	}
	for j := range scale {
		if math.IsInf(shift[j], 0) || math.IsInf(scale[j], 0) {
			// Values near the largest float64 overflowed the sums.
			shift[j], scale[j] = scaledMoments(ds, idx, j)
			continue
		}
		if scale[j] < tinySquares {
			// Deviations below 1e-150 or so underflowed their squares (or
			// the column is constant); the mean did not underflow.
			_, scale[j] = scaledMoments(ds, idx, j)
			continue
		}
		sd := math.Sqrt(scale[j] / n)
		if sd > 0 {
			scale[j] = 1 / sd
		} else {
			scale[j] = 1
		}
	}
	return shift, scale
}

// tinySquares is a sum of squared deviations small enough that some of
// its terms may have underflowed to zero (deviations below about 1e-150):
// standardize computes such a column's moments again, scaled.
const tinySquares = 0x1p-900

// scaledMoments returns standardize's shift and scale of feature j over
// rows idx, computed on the values divided by the largest magnitude, so
// that values up to the largest float64 overflow no sum and values down
// to the smallest normal float64 underflow none. (A column whose values
// span more than the largest float64, from near -max to near +max, still
// overflows x - shift when it is standardised; one whose spread is below
// the smallest normal float64 is taken as constant.)
func scaledMoments(ds *data.Dataset, idx []int, j int) (shift, scale float64) {
	var m float64
	for _, i := range idx {
		m = max(m, math.Abs(ds.Row(i)[j]))
	}
	if m == 0 { // zeros only
		return 0, 1
	}
	n := float64(len(idx))
	var mean, ss float64
	for _, i := range idx {
		mean += ds.Row(i)[j] / m
	}
	mean /= n
	for _, i := range idx {
		dv := ds.Row(i)[j]/m - mean
		ss += dv * dv
	}
	sd := math.Sqrt(ss / n) // of the values divided by m
	// Constant, or a spread so small that 1/spread would overflow.
	if sd == 0 || m*sd < 0x1p-1022 {
		return mean * m, 1
	}
	return mean * m, 1 / (m * sd) // sd <= 1: no overflow
}

// preprocess returns a copy of ds with (x - shift) * scale applied by
// runtime.Preprocess, as the model's classifier applies it.
func preprocess(ds *data.Dataset, shift, scale []float64) *data.Dataset {
	out := *ds
	out.X = make([]float64, len(ds.X))
	for i := 0; i < ds.Rows; i++ {
		runtime.Preprocess(out.X[i*ds.Features:(i+1)*ds.Features], ds.Row(i), shift, scale)
	}
	return &out
}

// ValidationRows returns the features of the validation rows of the split
// that seed and share val make, as read (not standardised: a model's
// classifier standardises them itself), one row after another, and their
// classes. They are the task's, shared: callers must not change them.
func (t *Task) ValidationRows(seed uint64, val float64) (x []float64, y []int) {
	p := t.prepare(&Config{Seed: seed, Val: val})
	return p.val.X, p.yVal
}

// pick sets dst[k] = y[idx[k]] for every k and returns dst[:len(idx)]:
// the classes of rows idx.
func pick(dst, y, idx []int) []int {
	dst = dst[:len(idx)]
	for k, i := range idx {
		dst[k] = y[i]
	}
	return dst
}
