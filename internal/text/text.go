// Package text holds the small wording helpers songc's messages share, so
// that a count reads the same in training's summary, eval, analyze and the
// generated code's comments. It uses the standard library only.
package text

import (
	"strconv"
	"strings"
)

// Count returns n of noun in English: "1 row", "2 rows", "0 rows"; a noun
// ending in s takes es ("2 classes", "3 passes"). Only the last word of
// noun changes ("2 internal nodes").
func Count(n int, noun string) string {
	return strconv.Itoa(n) + " " + Plural(n, noun)
}

// Plural returns noun as Count writes it for n, without the number:
// "row" for 1, "rows" for 0 or 2, "classes".
func Plural(n int, noun string) string {
	switch {
	case n == 1:
		return noun
	case strings.HasSuffix(noun, "s"):
		return noun + "es"
	}
	return noun + "s"
}

// Verb returns the verb that agrees with n things: one for 1 ("holds",
// "is"), many otherwise ("hold", "are").
func Verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Has returns Count with its verb: "1 row has", "2 rows have".
func Has(n int, noun string) string { return Count(n, noun) + " " + Verb(n, "has", "have") }

// Is returns Count with its verb: "1 node is", "2 nodes are".
func Is(n int, noun string) string { return Count(n, noun) + " " + Verb(n, "is", "are") }

// Sign returns what goes before the magnitude of the i-th term of a sum
// written out (from 0): "-" or "" for the first, " - " or " + " for the
// others, by whether the term is negative.
func Sign(i int, negative bool) string {
	switch {
	case i == 0 && negative:
		return "-"
	case i == 0:
		return ""
	case negative:
		return " - "
	}
	return " + "
}
