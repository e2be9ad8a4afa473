package main

import (
	"context"
	"encoding/json"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestAnalyze(t *testing.T) {
	dir := t.TempDir()
	train := blobs(t, dir, "train.csv", 120, 1)
	model := filepath.Join(dir, "m.json")
	if code, _, errs := songc(t, context.Background(), "train", "--data", train, "-o", model, "--nodes", "5", "--steps", "4", "--epochs", "4", "--no-logistic", "-q"); code != 0 {
		t.Fatal(errs)
	}
	plots := filepath.Join(dir, "plots")
	dotFile := filepath.Join(dir, "g.dot")
	code, out, errs := songc(t, context.Background(), "analyze", model, "--data", train, "--json", "--plots", plots, "--dot", dotFile)
	if code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, errs)
	}
	if strings.Contains(errs, "note:") { // every picture is drawn
		t.Errorf("analyze with its log and --data: %s", errs)
	}
	var rep struct {
		Graph struct {
			Nodes     int `json:"nodes"`
			UsedNodes int `json:"used_nodes"`
		} `json:"graph"`
		Data struct {
			Rows      int         `json:"rows"`
			Distances [][]float64 `json:"class_distances"`
			Visits    []int       `json:"node_visits"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if rep.Graph.Nodes != 5 || rep.Graph.UsedNodes < 1 || rep.Data.Rows != 120 || len(rep.Data.Distances) != 3 || rep.Data.Visits[0] != 120 {
		t.Errorf("report: %+v", rep)
	}
	// Every picture is a valid PNG; structure.png comes from the log's graph
	// statistics, which songc train recorded.
	for _, name := range []string{"M0.png", "M1.png", "curves.png", "loss.png", "structure.png", "distances.png", "flow.png"} {
		f, err := os.Open(filepath.Join(plots, name))
		if err != nil {
			t.Error(err)
			continue
		}
		if _, err := png.DecodeConfig(f); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		f.Close()
	}
	if b, err := os.ReadFile(dotFile); err != nil || !strings.HasPrefix(string(b), "digraph song {") || !strings.Contains(string(b), "peripheries=2") {
		t.Errorf("dot file: %v\n%s", err, b)
	}
	if _, err := exec.LookPath("dot"); err != nil {
		code, _, errs := songc(t, context.Background(), "analyze", model, "--svg", filepath.Join(dir, "g.svg"))
		if code != 1 || !strings.Contains(errs, "apt-get install graphviz") {
			t.Errorf("--svg without Graphviz: exit %d %s", code, errs)
		}
	} else if code, _, errs := songc(t, context.Background(), "analyze", model, "--svg", filepath.Join(dir, "g.svg")); code != 0 {
		t.Errorf("--svg: %s", errs)
	}
	// --input counts rows from 1, as --label-col counts columns.
	for _, in := range []string{"0", "999"} {
		if code, _, errs := songc(t, context.Background(), "analyze", model, "--data", train, "--input", in); code != 2 || !strings.Contains(errs, "--input "+in+": "+train+" has rows 1 to ") {
			t.Errorf("--input %s out of range: exit %d %s", in, code, errs)
		}
	}
	if code, _, errs := songc(t, context.Background(), "analyze", model, "--data", train, "--plots", filepath.Join(dir, "last"), "--input", "120"); code != 0 {
		t.Errorf("--input 120, the last row: exit %d %s", code, errs)
	}

	// The log of another run: refused when named, passed over with a
	// warning when it is the one beside the model; --log needs --plots.
	other := filepath.Join(dir, "other.json")
	if code, _, errs := songc(t, context.Background(), "train", "--data", train, "-o", other, "--nodes", "5", "--steps", "4", "--epochs", "3", "-q"); code != 0 {
		t.Fatal(errs)
	}
	otherLog := filepath.Join(dir, "other.log.jsonl")
	if code, _, errs := songc(t, context.Background(), "analyze", model, "--plots", filepath.Join(dir, "p2"), "--log", otherLog, "--data", train); code != 1 ||
		!strings.Contains(errs, "--log "+otherLog+" is not the log of the run that trained the model: its last epoch is 3; the model was trained for 4") {
		t.Errorf("--log of another run: exit %d %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "p2")); !os.IsNotExist(err) {
		t.Errorf("--log of another run left the plots folder: %v", err)
	}
	b, err := os.ReadFile(otherLog)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "m.log.jsonl"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	p3 := filepath.Join(dir, "p3")
	if code, _, errs := songc(t, context.Background(), "analyze", model, "--plots", p3); code != 0 ||
		!strings.Contains(errs, "warning: "+filepath.Join(dir, "m.log.jsonl")+" is not the log of the run that trained "+model+", so --plots draws no training curves") {
		t.Errorf("another run's log beside the model: exit %d %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(p3, "curves.png")); !os.IsNotExist(err) {
		t.Errorf("curves drawn from another run's log: %v", err)
	}
	// Without a log beside the model, or without --data, a note says
	// which pictures --plots leaves out.
	os.Remove(filepath.Join(dir, "m.log.jsonl"))
	if code, _, errs := songc(t, context.Background(), "analyze", model, "--plots", p3); code != 0 ||
		!strings.Contains(errs, "note: --plots draws no training curves: there is no training log beside the model ("+filepath.Join(dir, "m.log.jsonl")) ||
		!strings.Contains(errs, "note: --plots draws the class distances and a row's probability flow only with --data FILE") {
		t.Errorf("no log beside the model: exit %d %s", code, errs)
	}
	if code, _, errs := songc(t, context.Background(), "analyze", model, "--log", otherLog); code != 2 || !strings.Contains(errs, "give --plots DIR too") {
		t.Errorf("--log without --plots: exit %d %s", code, errs)
	}
}

// TestAnalyzeOutputsChecked: analyze refuses two drawings at one path, and
// an output that is a folder, before it reads the data.
func TestAnalyzeOutputsChecked(t *testing.T) {
	r := trainBlobs(t)
	dir := t.TempDir()
	g := filepath.Join(dir, "g.dot")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--dot", g, "--svg", g}, 2, "--dot and --svg name the same file"},
		{[]string{"--dot", dir}, 1, "is a folder"},
		// The data missing, found after the folders are made: they go again.
		{[]string{"--dot", filepath.Join(dir, "new", "sub", "g.dot"), "--plots", filepath.Join(dir, "plots", "p")}, 1, "missing.csv"},
	} {
		args := append([]string{"analyze", r.model, "--data", filepath.Join(dir, "missing.csv")}, tc.args...)
		if code, _, errs := songc(t, context.Background(), args...); code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, want %d and %q: %s", tc.args, code, tc.code, tc.want, errs)
		}
	}
	for _, made := range []string{"new", "plots"} {
		if _, err := os.Stat(filepath.Join(dir, made)); err == nil {
			t.Errorf("an analyze that failed left the folder %s", made)
		}
	}
}
