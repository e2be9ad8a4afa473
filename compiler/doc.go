// Package compiler turns a trained SONG into one standalone Go source file
// that walks the learned binary graph with hard decisions. The generated
// file imports nothing (or, for a model that reads categorical columns,
// the standard library's strings, to read their values as the runtime
// does), allocates nothing per call, and predicts exactly what
// runtime.Classifier.Walk predicts, bit for bit, for every input.
//
// # Pipeline
//
// Compile runs three stages, kept apart as in jennifer's own generator:
//
//   - plan: validate the model (runtime.New), find the internal nodes
//     reachable from the root through argmax children, number them in node
//     order (the root first), and choose the layout.
//   - render: build the file with jennifer.
//   - save: gofmt (jennifer's Render runs go/format) and write atomically.
//
// # The generated code
//
// The walk is a state machine over the reachable nodes, so a node shared by
// several paths, or on a cycle, is emitted once:
//
//	i := 0
//	for t := 1; ; t++ {
//		d := 0
//		if margin(i, &v) > 0 { d = 1 }     // the runtime's routing rule
//		n := next[i][d]
//		if n < 0 { return int(^n) }        // a leaf: ^class
//		if t == Steps { return int(exit[i][d]) } // forced exit at the step limit
//		i = int(n)
//	}
//
// margin computes w·v + b exactly as runtime.Classifier.Margin does: the
// sum starts at 0, adds float64(w[j]*v[j]) in feature order (the explicit
// conversion forbids fused multiply-add), then adds the bias. Inputs are
// preprocessed with the same operations as runtime.Classifier.Preprocess
// (v -= shift, then v *= scale, each only when the model has it).
//
// A model whose every walk ends at one class whatever the input (the
// majority check's constant) gets a Predict that returns that class and
// reads nothing: no preprocessing, no margin. Explain still walks, so that
// it reports the root's decision as the runtime does.
//
// Two layouts implement margin. Small models get unrolled code: one case per
// node with the weights as constants, which the Go compiler keeps in
// registers and immediates. Large models (more than UnrollLimit weights in
// reachable nodes) get a weight table and a loop: an unrolled 255x784 model
// is 200,000 lines that take a long time and much memory to build. The file
// header says which layout was chosen and why.
//
// Numbers are rendered by jennifer's Lit, which round-trips float64
// exactly. A weight of -0 is written as 0: the sum starts at +0 and
// +0 + -0 = +0, so the sign of a zero weight never changes a margin.
// NaN and Inf cannot occur: runtime.New refuses models that hold them.
package compiler
