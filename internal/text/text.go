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

// And joins items as a list in English: "a", "a and b", "a, b and c".
func And(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

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

// Nearest returns the first of among that name is a typo of: at the
// fewest edits (a letter added, left out or changed, or two next to each
// other swapped), and at most one edit for every three letters of name
// (at least one, at most two); "" when none is that near, when one equals
// name, or when name is a single letter.
func Nearest(name string, among []string) string {
	a := []rune(name)
	if len(a) < 2 {
		return ""
	}
	most := min(2, max(1, len(a)/3))
	best, at := "", most+1
	for _, s := range among {
		if d := edits(a, []rune(s)); d == 0 {
			return ""
		} else if d < at {
			best, at = s, d
		}
	}
	return best
}

// edits returns the optimal string alignment distance between a and b:
// the fewest letters added, left out or changed, or pairs of neighbours
// swapped, that make a into b.
func edits(a, b []rune) int {
	// d[i][j] is the distance between a[:i] and b[:j], kept three rows at
	// a time.
	prev2, prev, cur := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
