// Command mnistshaped writes a synthetic model shaped like the paper's
// MNIST SONG (255 nodes in a complete binary tree, 50 steps, 784 features,
// 10 classes; internal/testmodels.MNISTShaped), so that the cost of a deep
// walk on MNIST inputs can be measured without training one
// (docs/RESULTS.md, "Prediction cost"):
//
//	go run ./bench/mnistshaped -o /tmp/mnist-shaped.json
//	bench/predict.sh /tmp/mnist-shaped.json $DATA/mnist/t10k-images-idx3-ubyte.gz
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/songc/songc/internal/testmodels"
)

func main() {
	out := flag.String("o", "mnist-shaped.json", "model file to write")
	flag.Parse()
	if err := write(*out); err != nil {
		fmt.Fprintln(os.Stderr, "mnistshaped:", err)
		os.Exit(1)
	}
}

// write saves the model to path.
func write(path string) error {
	return testmodels.MNISTShaped().Save(path)
}
