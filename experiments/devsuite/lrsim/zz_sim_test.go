//go:build ignore

// Copied into cmd/songc by experiments/devsuite/lrsim/README.md's steps; not part of songc.

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer/refine"
)

func TestZZSim(t *testing.T) {
	dir := os.Getenv("SIMDIR")
	raw := os.Getenv("SIMRAW")
	if dir == "" {
		t.Skip()
	}
	out, _ := os.Create(os.Getenv("SIMOUT"))
	defer out.Close()
	g := &Globals{Ctx: context.Background(), Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}
	for _, set := range strings.Fields(os.Getenv("SIMSETS")) {
		for _, seed := range strings.Fields(os.Getenv("SIMSEEDS")) {
			path := fmt.Sprintf(dir, set, seed)
			m, err := runtime.Load(path)
			if err != nil {
				t.Log(err)
				continue
			}
			trainF, testF := fmt.Sprintf(raw, set, os.Getenv("SIMTR")), fmt.Sprintf(raw, set, os.Getenv("SIMTE"))
			task, _, err := loadTask(g, m, trainF, testF, DataFlags{Header: "auto"}, true, false)
			if err != nil {
				t.Fatal(set, seed, err)
			}
			o, err := refine.SimLR(m, task)
			if err != nil {
				t.Fatal(set, seed, err)
			}
			b, _ := json.Marshal(map[string]any{"set": set, "seed": seed, "o": o, "training": json.RawMessage(m.Training)})
			fmt.Fprintln(out, string(b))
		}
	}
}
