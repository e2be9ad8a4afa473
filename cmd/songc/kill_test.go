package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// buildSongc builds this command into dir.
func buildSongc(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "songc")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// waitFor polls until path exists.
func waitFor(t *testing.T, path string, limit time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
	}
	t.Fatalf("%s did not appear within %v", path, limit)
}

// TestKillAndResume kills a training process with SIGKILL after it has
// checkpointed, resumes from the checkpoint, and requires the same model
// bytes as an uninterrupted run; then interrupts one with SIGINT and checks
// the exit code and the resume hint.
func TestKillAndResume(t *testing.T) {
	dir := t.TempDir()
	bin := buildSongc(t, dir)
	data := blobs(t, dir, "train.csv", 3000, 1)
	flags := []string{"--data", data, "--preset", "paper", "--nodes", "16", "--steps", "8", "--epochs", "12", "--batch", "32", "-q"}

	want := filepath.Join(dir, "want.json")
	if code, _, errs := songc(t, context.Background(), append([]string{"train", "-o", want}, flags...)...); code != 0 {
		t.Fatal(errs)
	}

	model, ckpt := filepath.Join(dir, "m.json"), filepath.Join(dir, "m.ckpt")
	cmd := exec.Command(bin, append([]string{"train", "-o", model, "--checkpoint", ckpt}, flags...)...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The checkpoint appears at the start (epoch 0); wait for a later one.
	waitFor(t, ckpt, 2*time.Minute)
	first, _ := os.Stat(ckpt)
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if st, err := os.Stat(ckpt); err == nil && st.ModTime() != first.ModTime() {
			break
		}
	}
	time.Sleep(20 * time.Millisecond) // into the next epoch
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if _, err := os.Stat(model); err == nil {
		t.Skip("the run finished before it could be killed; machine too fast for this test's timing")
	}
	// A temporary file the killed process left, as a kill in the middle of
	// a checkpoint write would: the resumed run's first write removes it.
	left := filepath.Join(dir, fmt.Sprintf(".m.ckpt.tmp%d-1", cmd.Process.Pid))
	if err := os.WriteFile(left, []byte("partial"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := songc(t, context.Background(), "train", "--resume", ckpt, "-q"); code != 0 {
		t.Fatalf("resume: %s", errs)
	}
	if _, err := os.Stat(left); !os.IsNotExist(err) {
		t.Errorf("the killed run's temporary file is still there after the resume (%v)", err)
	}
	a, _ := os.ReadFile(want)
	b, err := os.ReadFile(model)
	if err != nil || !bytes.Equal(a, b) {
		t.Fatalf("resumed model differs from the uninterrupted one (%v)", err)
	}

	// SIGINT: a checkpoint, exit code 130 and how to resume.
	model2 := filepath.Join(dir, "i.json")
	long := append([]string{"train", "-o", model2}, flags...)
	long = append(long, "--epochs", "500") // cannot finish before the signal
	cmd = exec.Command(bin, long...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	err = cmd.Wait()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 130 || !strings.Contains(stderr.String(), "resume with: songc train --resume "+model2+".ckpt") {
		t.Fatalf("SIGINT: %v, stderr %q", err, stderr.String())
	}
	if _, err := os.Stat(model2 + ".ckpt"); err != nil {
		t.Errorf("no checkpoint after SIGINT: %v", err)
	}
}
