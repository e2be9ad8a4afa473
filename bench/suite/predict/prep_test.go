package main

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/songc/songc/runtime"
)

// TestPrepMissing: the missing-value tokens of prep.py, which writes the
// one-hot files the scikit-learn models read, are songc's defaults (and
// the empty field), so that both sides call the same fields missing.
func TestPrepMissing(t *testing.T) {
	src, err := os.ReadFile("../prep.py")
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`(?m)^MISSING = \{(.*)\}`).FindSubmatch(src)
	if line == nil {
		t.Fatal("prep.py has no MISSING = {...} line")
	}
	var got []string
	for _, q := range regexp.MustCompile(`"(?:[^"\\]|\\.)*"`).FindAll(line[1], -1) {
		s, err := strconv.Unquote(string(q))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, s)
	}
	want := append([]string{""}, runtime.DefaultMissing...)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("prep.py's MISSING %q, songc's defaults and the empty field %q", got, want)
	}
}
