package golden

import (
	"go/build"
	"os/exec"
	"strings"
	"testing"
)

// TestDependencyDirection keeps the layering of docs (house style):
// runtime uses the standard library only; compiler never sees trainer or
// gonum; only cmd/songc imports kong.
func TestDependencyDirection(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{.Standard}}", "../runtime").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, std, _ := strings.Cut(line, " ")
		if std != "true" && path != "github.com/songc/songc/runtime" {
			t.Errorf("runtime depends on %s; it must use the standard library only", path)
		}
	}
	rules := []struct {
		pkg       string
		forbidden []string
	}{
		{"compiler", []string{"github.com/songc/songc/trainer", "gonum.org/", "github.com/alecthomas/kong"}},
		{"runtime", []string{"github.com/songc/songc/", "gonum.org/", "github.com/alecthomas/kong"}},
		{"trainer", []string{"github.com/songc/songc/compiler", "github.com/songc/songc/analysis", "github.com/alecthomas/kong"}},
		{"trainer/data", []string{"github.com/songc/songc/", "gonum.org/"}},
		{"analysis", []string{"github.com/songc/songc/compiler", "github.com/alecthomas/kong"}},
	}
	for _, r := range rules {
		p, err := build.Import("github.com/songc/songc/"+r.pkg, "..", 0)
		if err != nil {
			t.Fatalf("%s: %v", r.pkg, err)
		}
		for _, imp := range p.Imports {
			for _, f := range r.forbidden {
				if strings.HasPrefix(imp, f) && imp != "github.com/songc/songc/"+r.pkg {
					t.Errorf("%s imports %s", r.pkg, imp)
				}
			}
		}
	}
}
