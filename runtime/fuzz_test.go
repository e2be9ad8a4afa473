package runtime

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzDecode: any bytes are decoded into a valid model or refused with an
// error; a decoded model is usable (a walk and a soft pass on a zero input).
func FuzzDecode(f *testing.F) {
	var good bytes.Buffer
	tiny().Encode(&good)
	f.Add(good.Bytes())
	f.Add([]byte(`{"format": "songc-model/1", "nodes": 1, "classes": 2, "steps": 1, "features": 1, "M0_logits": [[0], [1], [0]], "M1_logits": [[0], [0], [1]], "W": [[1]], "b": [0]}`))
	f.Add([]byte(`{"format": "songc-model/1", "nodes": 2147483647, "classes": 2, "steps": 1, "features": 1}`))
	f.Add([]byte(`{"format": "songc-model/1", "nodes": -1}`))
	f.Add([]byte(`{"format": "songc-model/1", "W": [[1e999]]}`))
	f.Add([]byte(strings.Repeat("[", 10000)))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Decode(bytes.NewReader(b), "fuzz.json")
		if err != nil {
			return
		}
		k, err := New(m)
		if err != nil {
			t.Fatalf("decoded a model that New refuses: %v", err)
		}
		x := make([]float64, k.NumFeatures())
		res, _ := k.Walk(x, make([]float64, len(x)), nil)
		if res.Class < 0 || res.Class >= k.NumClasses() || res.Steps < 1 || res.Steps > k.Steps() {
			t.Fatalf("walk %+v", res)
		}
		k.Soft(make([]float64, k.NumClasses()), x, k.NewSoftScratch())
	})
}
