// Package analysis will extract the binary graph of a trained SONG and
// measure it as the paper does (issue 4): reachable nodes, DFS edge classes,
// pictures. It reads trainer and runtime and uses gonum/graph.
package analysis
