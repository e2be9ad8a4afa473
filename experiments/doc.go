// Package experiments holds the experiments that chose songc's recipes: the
// scripts that ran them (paper.sh, fast.sh, search.sh, ...), the tool that
// tabulates their run folders (./table), the run folders themselves (runs/,
// including those docs/RESULTS.md quotes) and the lab notebook that records
// them (NOTEBOOK.md). It is a module of its own, so that songc's build and
// tests never see it; it uses songc's packages through a replace directive.
//
// Nothing here is part of songc. What reproduces the figures of
// docs/RESULTS.md is in bench/ of the main module.
package experiments
