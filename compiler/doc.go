// Package compiler will turn a trained SONG into a standalone Go classifier
// (issue 3). It may import runtime and jennifer only, never trainer or gonum.
package compiler
