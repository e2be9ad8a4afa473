package golden

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestDependencyDirection keeps the layering of the house style, over
// every package each one depends on, directly or not:
//
//	runtime, internal/text  standard library only
//	runlog                  standard library and internal/text (wording)
//	trainer/data            standard library, runtime (records' encoding), internal/text
//	trainer                 runtime, runlog, internal/text, gonum; never compiler or analysis
//	trainer/refine          trainer and runtime's walk
//	analysis                runtime, runlog, internal/text, gonum graph and plot; never trainer
//	compiler                runtime, internal/text and jennifer; never trainer or gonum
//	cmd/songc               on top: the only importer of kong
//
// runtime, internal/text, runlog and trainer/data are held to their lists;
// for the others the test checks the "never" edges, and kong, which only
// cmd/songc may import.
func TestDependencyDirection(t *testing.T) {
	const mod = "github.com/songc/songc/"
	rules := []struct {
		pkg       string
		stdOnly   bool
		allowed   []string // besides the standard library, with stdOnly
		forbidden []string
	}{
		{"runtime", true, nil, nil},
		{"internal/text", true, nil, nil},
		{"runlog", true, []string{mod + "internal/text"}, nil},
		{"trainer/data", true, []string{mod + "runtime", mod + "internal/text"}, nil},
		{"compiler", false, nil, []string{mod + "trainer", mod + "analysis", mod + "runlog", "gonum.org/", "github.com/alecthomas/kong"}},
		{"trainer", false, nil, []string{mod + "compiler", mod + "analysis", "github.com/alecthomas/kong"}},
		{"trainer/refine", false, nil, []string{mod + "compiler", mod + "analysis", "github.com/alecthomas/kong"}},
		{"analysis", false, nil, []string{mod + "trainer", mod + "compiler", "github.com/alecthomas/kong"}},
	}
	for _, r := range rules {
		out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{.Standard}}", "../"+r.pkg).Output()
		if err != nil {
			t.Fatalf("go list %s: %v", r.pkg, err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			path, std, _ := strings.Cut(line, " ")
			if path == mod+r.pkg || std == "true" {
				continue
			}
			if r.stdOnly && !slices.Contains(r.allowed, path) {
				t.Errorf("%s depends on %s; it must use the standard library only", r.pkg, path)
			}
			for _, f := range r.forbidden {
				// A module path matches itself and what lies below it
				// (trainer and trainer/refine, not trainerx).
				if path == f || strings.HasPrefix(path, strings.TrimSuffix(f, "/")+"/") {
					t.Errorf("%s depends on %s", r.pkg, path)
				}
			}
		}
	}
}
