package analysis

import (
	"encoding/json"
	"fmt"

	"github.com/songc/songc/runlog"
	"github.com/songc/songc/runtime"
)

// EpochGraph is the structure of the binary graph after an epoch, recorded
// in the training log ("graph" field) for the paper's "back edges fall as the
// loss falls" plot.
type EpochGraph struct {
	UsedNodes      int     `json:"used_nodes"`
	Back           int     `json:"back_edges"`
	Cross          int     `json:"cross_edges"`
	Forward        int     `json:"forward_edges"`
	BinarisationM0 float64 `json:"binarisation_M0"`
	BinarisationM1 float64 `json:"binarisation_M1"`
}

// EpochGraphOf measures the binary graph of model m.
func EpochGraphOf(m *runtime.Model) (EpochGraph, error) {
	k, err := runtime.New(m)
	if err != nil {
		return EpochGraph{}, err
	}
	st := NewBinary(k).Stats()
	return EpochGraph{UsedNodes: st.UsedNodes, Back: st.Edges.Back, Cross: st.Edges.Cross, Forward: st.Edges.Forward,
		BinarisationM0: st.BinarisationM0, BinarisationM1: st.BinarisationM1}, nil
}

// LogRecord is a line of the training log as read back, with the graph
// statistics decoded.
type LogRecord struct {
	runlog.EpochRecord
	Graph *EpochGraph
}

// ReadLog reads a per-epoch training log (JSON lines).
func ReadLog(path string) ([]LogRecord, error) {
	recs, err := runlog.ReadLog(path)
	if err != nil {
		return nil, err
	}
	return LogRecords(path, recs)
}

// LogRecords decodes the graphs of the records runlog.ReadLog read from the
// log at path (named in errors).
func LogRecords(path string, recs []runlog.EpochRecord) ([]LogRecord, error) {
	out := make([]LogRecord, len(recs))
	for i, r := range recs {
		out[i].EpochRecord = r
		if len(r.Graph) > 0 {
			out[i].Graph = new(EpochGraph)
			if err := json.Unmarshal(r.Graph, out[i].Graph); err != nil {
				return nil, fmt.Errorf("%s:%d: graph: %v", path, i+1, err)
			}
		}
	}
	return out, nil
}
