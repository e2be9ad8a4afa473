// Command mnistshaped writes a synthetic model shaped like the paper's
// MNIST SONG (255 nodes in a complete binary tree, 50 steps, 784 features,
// 10 classes) for benchmarks of the compiler and of prediction:
//
//	go run ./bench/mnistshaped -o /tmp/mnist-shaped.json
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
	if err := testmodels.MNISTShaped().Save(*out); err != nil {
		fmt.Fprintln(os.Stderr, "mnistshaped:", err)
		os.Exit(1)
	}
}
