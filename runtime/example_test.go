package runtime_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/songc/songc/runtime"
)

// tinyModel is a hand-made SONG with two internal nodes and two classes
// ("no", "yes") on two features. Node 0 tests x1 - 1 > 0: right goes to
// node 1, left to the leaf "no". Node 1 tests x2 > 0: right "yes", left
// "no". States: 0, 1 internal; 2 = leaf "no", 3 = leaf "yes". Column j of
// M1_logits (M0_logits) says where node j goes right (left).
const tinyModel = `{
  "format": "songc-model/1",
  "nodes": 2, "classes": 2, "steps": 3, "features": 2,
  "class_names": ["no", "yes"],
  "M0_logits": [[0, 0], [0, 0], [9, 9], [0, 0]],
  "M1_logits": [[0, 0], [9, 0], [0, 0], [0, 9]],
  "W": [[1, 0], [0, 1]],
  "b": [-1, 0]
}`

// Example decodes a model and walks it as compiled code does.
func Example() {
	m, err := runtime.Decode(strings.NewReader(tinyModel), "tiny.json")
	if err != nil {
		log.Fatal(err)
	}
	k, err := runtime.New(m)
	if err != nil {
		log.Fatal(err)
	}
	scratch := make([]float64, k.NumFeatures())
	for _, x := range [][]float64{{2, 3}, {2, -1}, {0, 5}} {
		res, path := k.Walk(x, scratch, make([]runtime.Step, 0, 4))
		fmt.Printf("x=%v: %q (decisions: %d, first margin %+.0f)\n", x, m.ClassNames[res.Class], res.Steps, path[0].Margin)
	}
	// Output:
	// x=[2 3]: "yes" (decisions: 2, first margin +1)
	// x=[2 -1]: "no" (decisions: 2, first margin +1)
	// x=[0 5]: "no" (decisions: 1, first margin -1)
}
