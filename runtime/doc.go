// Package runtime is the inference side of songc: the model file, its
// validation, the float64 soft model and the hard walk. It imports the
// standard library only, so that the compiler and any service can depend on
// it without pulling in gonum.
//
// # The model
//
// A SONG (Struski et al., WACV 2023; docs/model.md describes it and
// docs/model-format.md its file) has n internal nodes and c leaves. States
// 0..n-1 are internal nodes (0 is the root), state n+k is the leaf of class k.
// Each internal node i has a linear filter W[i], a bias b[i] and two
// distributions over destination states, the columns i of M0 = softmax(L0)
// and M1 = softmax(L1) (softmax taken down each column).
//
// # Routing rule
//
// This is the one routing rule of songc. Margin computes the margin, Side
// decides, Routes.Next moves; Walk, refining (trainer/refine) and the
// analysis all walk through them, and generated code repeats them in Go:
//
//   - The margin of node i for an input x is w_i·x' + b_i, where
//     x' = (x - shift) * scale is the preprocessed input. The dot product is
//     summed in float64 in feature order j = 0..d-1, starting from 0, with each
//     product rounded before it is added (no fused multiply-add), and the bias
//     is added last.
//   - The walk goes right (uses M1) iff the margin is > 0; otherwise, including
//     a margin of exactly 0 or NaN, it goes left (uses M0).
//   - The child is the argmax of the chosen column; argmax is taken over the
//     logits (softmax is monotone) and ties go to the lower state index.
//
// # A walk that does not reach a leaf
//
// The soft model runs exactly N steps, so the hard walk takes at most N steps
// too. If the N-th step would move to an internal node, the walk instead makes
// a forced exit: it takes the same left/right decision at the node where it
// stands and moves to the most probable leaf of that column (argmax over the
// leaf rows only, ties to the lower class index). A walk therefore always
// ends in a leaf within N steps; Walk reports when an exit was forced, and
// `songc eval` counts such rows.
//
// # Errors
//
// Anything a file can cause (bad JSON, wrong shapes, non-finite numbers)
// is returned as an error naming the field. Functions panic only on
// programmer errors, such as an input slice of the wrong length.
package runtime
