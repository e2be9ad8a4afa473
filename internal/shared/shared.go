// Package shared finds the project's shared data, the ../shared folder
// beside the checkout, for tests.
package shared

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Path returns the path of rel under ../shared, failing the test when CI
// (the CI environment variable) runs without it and skipping it only
// outside CI.
func Path(t testing.TB, rel string) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0) // internal/shared/shared.go
	p := filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", rel)
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI must have ../shared: %v", err)
		}
		t.Skipf("../shared not present: %v", err)
	}
	return p
}
