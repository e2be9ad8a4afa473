package compiler

import (
	"io"
	"testing"

	"github.com/songc/songc/internal/testmodels"
)

func BenchmarkCompileMNIST255Nodes784Features(b *testing.B) {
	m := testmodels.MNISTShaped()
	b.ReportAllocs()
	for b.Loop() {
		p, err := NewPlan(m, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if len(p.Nodes) != 255 {
			b.Fatalf("%d nodes reachable", len(p.Nodes))
		}
		if err := p.Render(io.Discard, "bench"); err != nil {
			b.Fatal(err)
		}
	}
}
