package trainer

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/songc/songc/trainer/data"
)

// TestFingerprint: the fingerprint that models record as data_sha256, and
// that refine, select, resume and eval compare with, is the SHA-256 of the
// features' float64 bits (little-endian, row after row), then of each
// label with a zero byte; the rows 1,2,a and 3,4,b, by hand. A change of
// it would make every model written before it fail those checks.
func TestFingerprint(t *testing.T) {
	ds, err := data.ReadCSV(strings.NewReader("1,2,a\n3,4,b\n"), "t.csv", data.CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	task, err := NewTask(ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	// 1, 2, 3 and 4 as float64 bits, little-endian.
	var b []byte
	for _, bits := range []uint64{0x3ff0 << 48, 0x4000 << 48, 0x4008 << 48, 0x4010 << 48} {
		b = binary.LittleEndian.AppendUint64(b, bits)
	}
	b = append(b, "a\x00b\x00"...)
	sum := sha256.Sum256(b)
	// The digest itself, as Python's hashlib gives it for those bytes.
	const pinned = "72569d0765045027a7c19e1ef8ad52c8f26a08c01ee6094c7e1abb5ff4c044fc"
	if got, want := task.Fingerprint(), hex.EncodeToString(sum[:]); got != want || got != pinned {
		t.Errorf("fingerprint %s, want %s (pinned %s)", got, want, pinned)
	}
	f := NewFingerprinter()
	f.Add([]float64{1, 2}, "a")
	f.Add([]float64{3, 4}, "b")
	if got := f.Sum(); got != task.Fingerprint() {
		t.Errorf("streamed fingerprint %s, the task's %s", got, task.Fingerprint())
	}
}
