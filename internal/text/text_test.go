package text

import "testing"

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		noun string
		want string
	}{
		{0, "row", "0 rows"},
		{1, "row", "1 row"},
		{2, "row", "2 rows"},
		{1, "class", "1 class"},
		{3, "class", "3 classes"},
		{2, "pass", "2 passes"},
		{2, "internal node", "2 internal nodes"},
		{-1, "epoch", "-1 epochs"},
	} {
		if got := Count(c.n, c.noun); got != c.want {
			t.Errorf("Count(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
	if got := Plural(2, "class") + ", " + Plural(1, "class"); got != "classes, class" {
		t.Errorf("Plural: %q", got)
	}
	if got := Has(1, "column"); got != "1 column has" {
		t.Errorf("Has(1) = %q", got)
	}
	if got := Has(4, "column"); got != "4 columns have" {
		t.Errorf("Has(4) = %q", got)
	}
	if got := Is(1, "epoch"); got != "1 epoch is" {
		t.Errorf("Is(1) = %q", got)
	}
	if got := Is(0, "epoch"); got != "0 epochs are" {
		t.Errorf("Is(0) = %q", got)
	}
	if got := Verb(1, "holds", "hold") + ", " + Verb(2, "holds", "hold") + ", " + Verb(0, "it", "them"); got != "holds, hold, them" {
		t.Errorf("Verb: %q", got)
	}
}

func TestSign(t *testing.T) {
	var b []byte
	for i, v := range []float64{-2, 3, -1, 4} {
		b = append(b, Sign(i, v < 0)...)
		b = append(b, 'x')
	}
	if got := string(b); got != "-x + x - x + x" {
		t.Errorf("signs: %q", got)
	}
	if got := Sign(0, false); got != "" {
		t.Errorf("Sign(0, false) = %q", got)
	}
}

func TestNearest(t *testing.T) {
	header := []string{"id", "age", "class", "checking_status", "x"}
	for _, c := range []struct{ name, want string }{
		{"idd", "id"},                          // one added
		{"clas", "class"},                      // one left out
		{"clase", "class"},                     // one changed
		{"calss", "class"},                     // two swapped: one edit
		{"chekcing_stauts", "checking_status"}, // two swaps in 15 letters
		{"chekcng_stauts", ""},                 // three edits
		{"ag", "age"},                          // two letters may have one edit
		{"egg", ""},                            // two edits in three letters
		{"y", ""},                              // one letter: no guess
		{"class", ""},                          // a name among them is no typo
		{"colour", ""},
	} {
		if got := Nearest(c.name, header); got != c.want {
			t.Errorf("Nearest(%q) = %q, want %q", c.name, got, c.want)
		}
	}
	if got := edits([]rune("kitten"), []rune("sitting")); got != 3 {
		t.Errorf("edits(kitten, sitting) = %d, want 3", got)
	}
}

func TestAnd(t *testing.T) {
	for _, c := range []struct {
		items []string
		want  string
	}{{nil, ""}, {[]string{"a"}, "a"}, {[]string{"a", "b"}, "a and b"}, {[]string{"a", "b", "c"}, "a, b and c"}} {
		if got := And(c.items); got != c.want {
			t.Errorf("And(%q) = %q, want %q", c.items, got, c.want)
		}
	}
}
