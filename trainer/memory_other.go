//go:build !linux

package trainer

// physicalMemory is not read here: the cap is MemoryCap's 64 GiB.
func physicalMemory() int64 { return 64 << 30 }
