// Package golden holds songc's cross-package tests: the dependency
// direction of the packages now, and golden-file and end-to-end tests of the
// compiler and the CLI as they come.
package golden
