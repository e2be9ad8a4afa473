//go:build unix

package runtime

import "syscall"

// processAlive reports whether process pid exists (known is true: the
// system can tell). Signal 0 checks without sending anything; EPERM means
// it exists under another user.
func processAlive(pid int) (alive, known bool) {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM, true
}
