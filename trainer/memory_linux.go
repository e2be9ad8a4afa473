package trainer

import "syscall"

// physicalMemory returns the machine's memory in bytes.
func physicalMemory() int64 {
	var info syscall.Sysinfo_t
	if err := syscall.Sysinfo(&info); err != nil || info.Totalram == 0 {
		return 64 << 30
	}
	return int64(info.Totalram) * int64(info.Unit)
}
