//go:build unix

package runtime_test

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"syscall"
	"testing"
	"time"

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

// TestStaleTempsRemoved: a temporary file that a killed write left beside
// the output (older than ten minutes) is removed by the next write of the
// same path; a recent one, perhaps another process's write in progress,
// is kept.
func TestStaleTempsRemoved(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m[1].json") // a name with glob characters
	stale, fresh := filepath.Join(dir, ".m[1].json.tmp111"), filepath.Join(dir, ".m[1].json.tmp222")
	for _, p := range []string{stale, fresh} {
		if err := os.WriteFile(p, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	if err := runtime.WriteFileAtomic(path, func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale temporary file is still there (%v)", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a recent temporary file was removed: %v", err)
	}
}

// TestDecodeBoundsArrays: a model file whose M0_logits holds a million
// empty rows (2 MB of "[]," that once became 24 MB of slice headers, and
// more for longer files) for a graph of 2 nodes and 2 classes is refused
// at its fifth row, allocating well under the file's size.
func TestDecodeBoundsArrays(t *testing.T) {
	rows := strings.Repeat("[],", 1<<20)
	text := `{"format": "songc-model/1", "nodes": 2, "classes": 2, "steps": 1, "features": 1, "M0_logits": [` + rows + `[]]}`
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	_, err := runtime.Decode(strings.NewReader(text), "m.json")
	goruntime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "m.json: field M0_logits: has more than 4 rows") {
		t.Fatalf("error %v", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 4*uint64(len(text)) {
		t.Errorf("decoding allocated %d bytes for a %d-byte file", grew, len(text))
	}
}

// TestStaleTempsOfDeadProcesses: a fresh temporary file whose writer, named
// in it, has exited (a SIGKILL a moment ago) is removed by the next write;
// one of a live process (this one) is kept.
func TestStaleTempsOfDeadProcesses(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skipf("cannot run a process: %v", err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "m.json")
	dead := filepath.Join(dir, fmt.Sprintf(".m.json.tmp%d-123", cmd.Process.Pid))
	live := filepath.Join(dir, fmt.Sprintf(".m.json.tmp%d-456", os.Getpid()))
	for _, p := range []string{dead, live} {
		if err := os.WriteFile(p, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := runtime.WriteFileAtomic(path, func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("the dead writer's temporary file is still there (%v)", err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("a live writer's temporary file was removed: %v", err)
	}
}
