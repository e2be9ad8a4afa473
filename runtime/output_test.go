//go:build unix

package runtime_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/songc/songc/runtime"
)

// TestCheckOutput: a folder, a symbolic link, a FIFO and a name too long
// for the file system are refused before anything is written, and left as
// they were; a file that is replaced keeps its permissions.
func TestCheckOutput(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "m.json")
	if err := os.WriteFile(file, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	for _, tc := range []struct{ path, want string }{
		{dir, "is a folder"},
		{link, "symbolic link"},
		{fifo, "not a regular file"},
		{filepath.Join(dir, strings.Repeat("x", 300)), "file name too long"},
		{filepath.Join(dir, "missing", "m.json"), "no such file"},
	} {
		err := runtime.WriteFileAtomic(tc.path, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err })
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.path, err, tc.want)
		}
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Error("the symbolic link was replaced")
	}
	if err := runtime.WriteFileAtomic(file, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(file); err != nil {
		t.Fatal(err)
	} else if st.Mode().Perm() != 0o600 {
		t.Errorf("replaced file's mode %v, want 0600", st.Mode().Perm())
	}
	if b, _ := os.ReadFile(file); string(b) != "new" {
		t.Errorf("file holds %q", b)
	}
}
