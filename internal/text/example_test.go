package text_test

import (
	"fmt"

	"github.com/songc/songc/internal/text"
)

func Example() {
	fmt.Println(text.Count(1, "epoch"), "/", text.Count(3, "class"))
	fmt.Println(text.Has(2, "column"), "missing values;", text.Is(1, "node"), "reachable")
	// Output:
	// 1 epoch / 3 classes
	// 2 columns have missing values; 1 node is reachable
}
