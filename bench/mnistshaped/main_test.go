package main

import (
	"path/filepath"
	"testing"

	"github.com/songc/songc/runtime"
)

// TestWrite checks that the model written loads and has the shape of the
// paper's MNIST SONG, with every internal node reachable from the root:
// the deep walk that docs/RESULTS.md's prediction cost measures.
func TestWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.json")
	if err := write(path); err != nil {
		t.Fatal(err)
	}
	k, err := runtime.LoadClassifier(path)
	if err != nil {
		t.Fatal(err)
	}
	if k.NumNodes() != 255 || k.Steps() != 50 || k.NumFeatures() != 784 || k.NumClasses() != 10 {
		t.Errorf("nodes, steps, features, classes = %d, %d, %d, %d, want 255, 50, 784, 10",
			k.NumNodes(), k.Steps(), k.NumFeatures(), k.NumClasses())
	}
	internal := 0
	for _, s := range k.Reachable() {
		if s < k.NumNodes() {
			internal++
		}
	}
	if internal != 255 {
		t.Errorf("%d internal nodes reachable from the root, want 255", internal)
	}
}
