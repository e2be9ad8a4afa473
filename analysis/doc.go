// Package analysis extracts the binary graph of a trained SONG and
// measures it as the paper does: reachable nodes, DFS edge
// classes, per-input path unions, class distances; and draws it for a
// reader. It reads runtime models and the run log, and uses gonum/graph and
// gonum/plot.
//
// # Pictures
//
// Every picture says which model it shows: About, read from the model's
// training metadata, names the file, the epoch kept and whether songc
// refine changed the model afterwards. Binary.DOT draws the graph with a
// legend, each internal node labelled with its test (NodeRule: the
// strongest features with the model's standardisation folded in, so that
// the numbers are in the data's units) and each leaf with its class name.
// Pictures draws the heat maps (with a colour scale and leaf rows named by
// class), the class-distance matrix, a probability flow and the training
// curves, whose legends sit beside the data. The training log covers the
// epochs before any refining; structure.png marks the saved model's
// statistics beside them, so that it agrees with what songc analyze prints.
//
// Errors: malformed training metadata and unwritable files are returned as
// errors; a node index or feature-name count that does not match the model
// is a programmer error and panics in NodeRule (DOT returns an error for
// the names it is given).
package analysis
