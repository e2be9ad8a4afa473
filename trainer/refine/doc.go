// Package refine fine-tunes the hard walk of a trained SONG, the classifier
// that songc compile emits, directly on its training rows.
//
// Training optimises the soft model; the hard walk that ships only follows
// it. Run changes node filters, argmax children and forced exits, and puts
// unused nodes into the walk, so that the walk's accuracy on the model's
// own training rows never falls, and keeps the pass with the best accuracy
// on the model's validation rows (rebuilt from the seed and share its
// metadata records). Asked to, it ends with the majority check, which may
// replace the walk by always predicting the most frequent class. It is
// deterministic: the same model and data give the same refined bytes.
//
// Every walk here moves by runtime's one routing rule (runtime.Margin,
// runtime.Side and runtime.Routes.Next) on each row's decision at each
// node, kept and recomputed for all rows when the node's filter changes
// (on sparse rows by a sum that gives runtime.Margin's bits), so that the
// refined model walks in the runtime and in generated code exactly as the
// refiner measured it. The report of each pass goes
// into the model's metadata as runlog.Refine.
//
// Errors are returned for anything the model or data can cause (a model
// without training metadata, other data than it was trained on); a panic
// means an internal inconsistency, prefixed "refine:".
package refine
