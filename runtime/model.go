package runtime

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Format is the value of the "format" field of the model files this package
// reads and writes.
const Format = "songc-model/1"

// Size limits. They keep a hostile file from asking for huge allocations
// before its shapes are checked against the data it really holds.
const (
	MaxNodes    = 1 << 16
	MaxClasses  = 1 << 16
	MaxFeatures = 1 << 20
	MaxSteps    = 1 << 16
)

// Model is a trained SONG as stored in a model file. See docs/model-format.md.
type Model struct {
	Format     string      `json:"format"`
	Nodes      int         `json:"nodes"`
	Classes    int         `json:"classes"`
	Steps      int         `json:"steps"`
	Features   int         `json:"features"`
	ClassNames []string    `json:"class_names"`
	M0Logits   [][]float64 `json:"M0_logits"`
	M1Logits   [][]float64 `json:"M1_logits"`
	W          [][]float64 `json:"W"`
	B          []float64   `json:"b"`
	InputShift []float64   `json:"input_shift,omitempty"`
	InputScale []float64   `json:"input_scale,omitempty"`
	// Schema describes the input columns of a model of format
	// FormatInputs; nil for one of Format, whose inputs are Features
	// numbers named x1..xd.
	Schema *Schema `json:"-"`
	// Training holds free-form metadata written by the trainer (seed, flags,
	// data fingerprint, metrics). The runtime never interprets it.
	Training json.RawMessage `json:"training,omitempty"`
}

// FieldError reports a problem with one field of a model file.
type FieldError struct {
	File  string // file name, if known
	Field string // JSON field, with an index path such as W[3][7]
	Msg   string
}

func (e *FieldError) Error() string {
	if e.File != "" {
		return fmt.Sprintf("%s: field %s: %s", e.File, e.Field, e.Msg)
	}
	return fmt.Sprintf("model field %s: %s", e.Field, e.Msg)
}

// Validate checks the model's format, sizes, shapes and numbers. It fills
// ClassNames with "0".."c-1" when the field is absent.
func (m *Model) Validate() error {
	fe := func(field, format string, args ...any) error {
		return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	if err := m.checkSizes(); err != nil {
		return err
	}
	n, c, d := m.Nodes, m.Classes, m.Features
	if m.ClassNames == nil {
		m.ClassNames = make([]string, c)
		for k := range m.ClassNames {
			m.ClassNames[k] = strconv.Itoa(k)
		}
	}
	if len(m.ClassNames) != c {
		return fe("class_names", "has %d names, want classes = %d", len(m.ClassNames), c)
	}
	seen := make(map[string]int, c)
	for k, name := range m.ClassNames {
		if j, ok := seen[name]; ok {
			return fe(fmt.Sprintf("class_names[%d]", k), "duplicates class_names[%d] %q", j, name)
		}
		seen[name] = k
	}
	if err := checkMatrix("M0_logits", m.M0Logits, n+c, n); err != nil {
		return err
	}
	if err := checkMatrix("M1_logits", m.M1Logits, n+c, n); err != nil {
		return err
	}
	if err := checkMatrix("W", m.W, n, d); err != nil {
		return err
	}
	if err := checkVector("b", m.B, n); err != nil {
		return err
	}
	if m.InputShift != nil {
		if err := checkVector("input_shift", m.InputShift, d); err != nil {
			return err
		}
	}
	if m.InputScale != nil {
		if err := checkVector("input_scale", m.InputScale, d); err != nil {
			return err
		}
	}
	if m.Schema != nil {
		return m.Schema.validate(d)
	}
	return nil
}

// RawWeight returns, for internal node i and input feature j, the weight
// a of the feature's own value (before standardisation) in the node's
// test, and what the term adds to the test's threshold: with v = (x -
// shift)·scale, the test w·v + b > 0 reads Σ_j a_j x_j > -b + Σ_j a_j
// shift_j, where a_j = w_j scale_j. Without standardisation a is the
// weight and the shift term 0.
func (m *Model) RawWeight(i, j int) (a, shift float64) {
	a = m.W[i][j]
	if m.InputScale != nil {
		a *= m.InputScale[j]
	}
	if m.InputShift != nil {
		shift = a * m.InputShift[j]
	}
	return a, shift
}

// Inputs returns the model's schema: Schema, or for a model of Format its
// Features numeric columns named x1..xd, which no field may leave missing.
func (m *Model) Inputs() *Schema {
	if m.Schema != nil {
		return m.Schema
	}
	s := &Schema{Inputs: make([]Input, m.Features), Missing: []string{}}
	for j := range s.Inputs {
		s.Inputs[j] = Input{Name: Unnamed(j), Kind: Numeric, Fill: math.NaN()}
	}
	return s
}

func checkMatrix(name string, a [][]float64, rows, cols int) error {
	if len(a) != rows {
		return &FieldError{Field: name, Msg: fmt.Sprintf("has %d rows, want %d", len(a), rows)}
	}
	for i, row := range a {
		if err := checkVector(fmt.Sprintf("%s[%d]", name, i), row, cols); err != nil {
			return err
		}
	}
	return nil
}

func checkVector(name string, v []float64, n int) error {
	if len(v) != n {
		return &FieldError{Field: name, Msg: fmt.Sprintf("has %d values, want %d", len(v), n)}
	}
	for j, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return &FieldError{Field: fmt.Sprintf("%s[%d]", name, j), Msg: fmt.Sprintf("is %v; want a finite number", x)}
		}
	}
	return nil
}

// Decode reads and validates a model from r. name is used in errors.
func Decode(r io.Reader, name string) (*Model, error) {
	br := bufio.NewReader(r)
	// A data file given for a model, say, is named so, not as bad JSON.
	// (Peeked, so that the decoder's offsets stay the file's.)
	head, _ := br.Peek(512)                      // as much as the file holds, up to that
	if bytes.HasPrefix(head, []byte("\ufeff")) { // some editors add one
		return nil, fmt.Errorf("%s: the model file starts with a byte order mark (an editor added it); save it without one", name)
	}
	// Empty, or all spaces: the decoder says so.
	if t := bytes.TrimLeft(head, " \t\n\r"); len(t) > 0 && t[0] != '{' {
		return nil, fmt.Errorf("%s: not a model file: songc's models are the JSON files songc train writes (-o), and this one does not start with '{'", name)
	}
	dec := json.NewDecoder(br)
	dec.DisallowUnknownFields()
	var f modelFile
	if err := dec.Decode(&f); err != nil {
		// Other JSON (a training log, say) names a field a model lacks:
		// say that the file is no model, not just which field.
		if strings.Contains(err.Error(), "unknown field") && !bytes.Contains(head, []byte(`"format"`)) {
			log := ""
			if strings.HasSuffix(name, ".log.jsonl") {
				log = fmt.Sprintf(" (this is the per-epoch log train writes beside the model, %s)", strings.TrimSuffix(name, ".log.jsonl")+".json")
			}
			return nil, fmt.Errorf("%s: not a model file: songc's models are the JSON files songc train writes (-o), and this one has no \"format\" field and a field no model has, %s%s", name, strings.TrimPrefix(err.Error(), "json: unknown field "), log)
		}
		return nil, jsonError(name, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s: trailing data after the model object", name)
	}
	m, err := f.decode()
	if err == nil {
		err = m.Validate()
	}
	if err != nil {
		var fe *FieldError
		if errors.As(err, &fe) {
			fe.File = name
		}
		return nil, err
	}
	return m, nil
}

// checkSizes reports a format songc does not read, or a size out of its
// range, before anything in proportion to a size is allocated.
func (m *Model) checkSizes() error {
	switch {
	case m.Format == "":
		return &FieldError{Field: "format", Msg: fmt.Sprintf("missing; want %q or %q", Format, FormatInputs)}
	case m.Format != Format && m.Format != FormatInputs:
		return &FieldError{Field: "format", Msg: fmt.Sprintf("unknown format %q; want %q or %q (a newer songc may read it)", m.Format, Format, FormatInputs)}
	case m.Format == FormatInputs && m.Schema == nil:
		return &FieldError{Field: "inputs", Msg: fmt.Sprintf("missing; format %q records its input columns", FormatInputs)}
	case m.Format == Format && m.Schema != nil:
		return &FieldError{Field: "inputs", Msg: fmt.Sprintf("needs format %q", FormatInputs)}
	}
	for _, s := range []struct {
		name string
		v    int
		min  int
		max  int
	}{
		{"nodes", m.Nodes, 1, MaxNodes},
		{"classes", m.Classes, 2, MaxClasses},
		{"steps", m.Steps, 1, MaxSteps},
		{"features", m.Features, 1, MaxFeatures},
	} {
		if s.v < s.min || s.v > s.max {
			return &FieldError{Field: s.name, Msg: fmt.Sprintf("%d is out of range [%d, %d]", s.v, s.min, s.max)}
		}
	}
	return nil
}

// modelFile is a model file with its arrays not yet decoded: they are
// decoded once the sizes they must have are known and within the limits,
// each array stopped as soon as it holds more rows than it may, so that
// what a hostile file makes songc allocate is bounded by its sizes, not by
// the file's length. (The arrays' text is held once, in the raw fields.)
type modelFile struct {
	Format     string          `json:"format"`
	Nodes      int             `json:"nodes"`
	Classes    int             `json:"classes"`
	Steps      int             `json:"steps"`
	Features   int             `json:"features"`
	ClassNames []string        `json:"class_names"`
	M0Logits   json.RawMessage `json:"M0_logits"`
	M1Logits   json.RawMessage `json:"M1_logits"`
	W          json.RawMessage `json:"W"`
	B          json.RawMessage `json:"b"`
	InputShift json.RawMessage `json:"input_shift,omitempty"`
	InputScale json.RawMessage `json:"input_scale,omitempty"`
	Inputs     []Input         `json:"inputs,omitempty"`
	Label      *string         `json:"label,omitempty"`
	Missing    []string        `json:"missing,omitempty"`
	Ignored    []string        `json:"ignored,omitempty"`
	LabelAt    int             `json:"label_at,omitempty"`
	Separator  *string         `json:"separator,omitempty"`
	Training   json.RawMessage `json:"training,omitempty"`
}

// decode checks the sizes against the limits, then decodes the arrays
// within them; Validate checks the rest.
func (f *modelFile) decode() (*Model, error) {
	m := &Model{Format: f.Format, Nodes: f.Nodes, Classes: f.Classes, Steps: f.Steps, Features: f.Features,
		ClassNames: f.ClassNames, Training: f.Training}
	if f.Inputs != nil || f.Label != nil || f.Missing != nil || f.Ignored != nil || f.LabelAt != 0 || f.Separator != nil {
		m.Schema = &Schema{Inputs: f.Inputs, Missing: f.Missing, Ignored: f.Ignored, LabelAt: f.LabelAt}
		if f.Label != nil {
			m.Schema.Label = *f.Label
		}
		if f.Separator != nil {
			sep := []rune(*f.Separator)
			if len(sep) != 1 || !slices.Contains(FieldSeparators[:], sep[0]) {
				return nil, &FieldError{Field: "separator", Msg: fmt.Sprintf("%q; want one of %q", *f.Separator, string(FieldSeparators[:]))}
			}
			m.Schema.Separator = sep[0]
		}
		if m.Schema.Missing == nil {
			m.Schema.Missing = []string{}
		}
	}
	if err := m.checkSizes(); err != nil {
		return nil, err
	}
	S := f.Nodes + f.Classes
	var err error
	if m.M0Logits, err = decodeMatrix(f.M0Logits, "M0_logits", S); err != nil {
		return nil, err
	}
	if m.M1Logits, err = decodeMatrix(f.M1Logits, "M1_logits", S); err != nil {
		return nil, err
	}
	if m.W, err = decodeMatrix(f.W, "W", f.Nodes); err != nil {
		return nil, err
	}
	for _, v := range []struct {
		raw   json.RawMessage
		field string
		dst   *[]float64
	}{{f.B, "b", &m.B}, {f.InputShift, "input_shift", &m.InputShift}, {f.InputScale, "input_scale", &m.InputScale}} {
		if len(v.raw) == 0 || string(v.raw) == "null" {
			continue
		}
		if err := json.Unmarshal(v.raw, v.dst); err != nil {
			return nil, &FieldError{Field: v.field, Msg: err.Error()}
		}
	}
	return m, nil
}

// decodeMatrix decodes raw, an array of rows of numbers, stopping with an
// error once it holds more than rows rows; a row longer than it should be
// is Validate's to report, its length bounded by raw's.
func decodeMatrix(raw json.RawMessage, field string, rows int) ([][]float64, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('[') {
		return nil, &FieldError{Field: field, Msg: "is not an array of rows"}
	}
	var out [][]float64
	for dec.More() {
		if len(out) == rows {
			return nil, &FieldError{Field: field, Msg: fmt.Sprintf("has more than %d rows, want %d", rows, rows)}
		}
		var row []float64
		if err := dec.Decode(&row); err != nil {
			return nil, &FieldError{Field: fmt.Sprintf("%s[%d]", field, len(out)), Msg: err.Error()}
		}
		out = append(out, row)
	}
	return out, nil
}

// jsonError words a decoding error of the model file name.
func jsonError(name string, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%s: model file is empty or truncated", name)
	case errors.As(err, &se):
		return fmt.Errorf("%s: offset %d: malformed JSON: %v", name, se.Offset, err)
	case errors.As(err, &te):
		return fmt.Errorf("%s: field %s: %v", name, te.Field, err)
	}
	return fmt.Errorf("%s: %v", name, err)
}

// Load reads and validates the model file at path.
func Load(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, fmt.Errorf("%s: is a directory, not a model file: songc's models are the JSON files songc train writes (-o)", path)
	}
	return Decode(f, path)
}

// Encode writes m as indented JSON with one matrix row per line. The output
// is a function of m alone, so the same model always gives the same bytes.
func (m *Model) Encode(w io.Writer) error {
	type entry struct {
		name string
		v    any
	}
	entries := []entry{
		{"format", m.Format}, {"nodes", m.Nodes}, {"classes", m.Classes},
		{"steps", m.Steps}, {"features", m.Features}, {"class_names", m.ClassNames},
		{"M0_logits", m.M0Logits}, {"M1_logits", m.M1Logits}, {"W", m.W}, {"b", m.B},
	}
	if m.InputShift != nil {
		entries = append(entries, entry{"input_shift", m.InputShift})
	}
	if m.InputScale != nil {
		entries = append(entries, entry{"input_scale", m.InputScale})
	}
	if s := m.Schema; s != nil {
		missing := s.Missing
		if missing == nil {
			missing = []string{}
		}
		entries = append(entries, entry{"inputs", s.Inputs}, entry{"label", s.Label}, entry{"missing", missing})
		if len(s.Ignored) > 0 {
			entries = append(entries, entry{"ignored", s.Ignored})
		}
		if s.LabelAt > 0 {
			entries = append(entries, entry{"label_at", s.LabelAt})
		}
		if s.Separator != 0 {
			entries = append(entries, entry{"separator", string(s.Separator)})
		}
	}
	if len(m.Training) > 0 {
		entries = append(entries, entry{"training", m.Training})
	}
	var buf bytes.Buffer
	buf.WriteString("{\n")
	for i, e := range entries {
		fmt.Fprintf(&buf, "  %q: ", e.name)
		if in, ok := e.v.([]Input); ok && len(in) > 0 {
			buf.WriteString("[\n")
			for r := range in {
				b, err := json.Marshal(&in[r])
				if err != nil {
					return fmt.Errorf("encoding inputs[%d]: %v", r, err)
				}
				buf.WriteString("    ")
				buf.Write(b)
				if r < len(in)-1 {
					buf.WriteByte(',')
				}
				buf.WriteByte('\n')
			}
			buf.WriteString("  ]")
		} else if a, ok := e.v.([][]float64); ok {
			buf.WriteString("[\n")
			for r, row := range a {
				b, err := json.Marshal(row)
				if err != nil {
					return fmt.Errorf("encoding %s[%d]: %v", e.name, r, err)
				}
				buf.WriteString("    ")
				buf.Write(b)
				if r < len(a)-1 {
					buf.WriteByte(',')
				}
				buf.WriteByte('\n')
			}
			buf.WriteString("  ]")
		} else {
			b, err := json.Marshal(e.v)
			if err != nil {
				return fmt.Errorf("encoding %s: %v", e.name, err)
			}
			buf.Write(b)
		}
		if i < len(entries)-1 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
	}
	buf.WriteString("}\n")
	_, err := w.Write(buf.Bytes())
	return err
}

// CheckOutput reports whether path can take an output file, before any
// long work: path must be a regular file or not exist, so that a folder, a
// device such as /dev/null, a FIFO or a symbolic link is refused, never
// replaced; its folder must exist and take the temporary file that
// WriteFileAtomic writes beside it (a name too long for the file system
// fails here). It returns the mode the written file gets: the existing
// file's permissions, or 0644.
func CheckOutput(path string) (os.FileMode, error) {
	mode, err := outputMode(path)
	if err != nil {
		return 0, err
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, fmt.Errorf("cannot write %s: the folder %s does not exist; create it first", path, dir)
	}
	if err != nil {
		return 0, fmt.Errorf("cannot write %s: %v", path, err)
	}
	if !st.IsDir() {
		return 0, fmt.Errorf("cannot write %s: %s is not a folder", path, dir)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return 0, fmt.Errorf("cannot write %s: %v", path, pathless(err))
	}
	f.Close()
	if err := os.Remove(f.Name()); err != nil {
		return 0, fmt.Errorf("cannot write %s: %v", path, pathless(err))
	}
	return mode, nil
}

// staleAge is how old a temporary file of WriteFileAtomic whose writer
// cannot be asked after must be to be taken for one left by a killed
// process: no write takes that long.
const staleAge = 10 * time.Minute

// removeStaleTemps removes the temporary files of earlier writes of path
// that no process is writing any more: a process killed while it wrote
// (SIGKILL, a power cut) leaves one, ".NAME.tmpPID-…", which the next write
// of the same path removes when process PID is gone (where the system
// says so; elsewhere, and for names without a PID, when it is older than
// staleAge).
func removeStaleTemps(path string) {
	prefix := "." + filepath.Base(path) + ".tmp"
	old, _ := filepath.Glob(filepath.Join(filepath.Dir(path), globEscape(prefix)+"*"))
	for _, p := range old {
		st, err := os.Lstat(p)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		pidText, _, hasPID := strings.Cut(strings.TrimPrefix(filepath.Base(p), prefix), "-")
		pid, err := strconv.Atoi(pidText)
		alive, known := false, false
		if hasPID && err == nil && pid > 0 {
			alive, known = processAlive(pid)
		}
		switch {
		case known:
			if !alive {
				os.Remove(p)
			}
		case time.Since(st.ModTime()) > staleAge:
			os.Remove(p)
		}
	}
}

// globEscape escapes the characters filepath.Match treats specially.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// outputMode is the part of CheckOutput that WriteFileAtomic repeats on
// every write: path is a regular file (its permissions are returned) or
// does not exist (0644).
func outputMode(path string) (os.FileMode, error) {
	switch st, err := os.Lstat(path); {
	case err == nil && st.Mode()&os.ModeSymlink != 0:
		return 0, fmt.Errorf("cannot write %s: it is a symbolic link; give the path it points to", path)
	case err == nil && st.IsDir():
		return 0, fmt.Errorf("cannot write %s: it is a folder; give a file name", path)
	case err == nil && !st.Mode().IsRegular():
		return 0, fmt.Errorf("cannot write %s: it is not a regular file (a device, pipe or socket); give a file name", path)
	case err == nil:
		return st.Mode().Perm(), nil
	case !os.IsNotExist(err):
		return 0, fmt.Errorf("cannot write %s: %v", path, err)
	}
	return 0o644, nil
}

// Save validates m and writes it to path atomically: it writes a temporary
// file in the same folder and renames it over path, so a failure leaves any
// previous file intact.
func (m *Model) Save(path string) error {
	if err := m.Validate(); err != nil {
		return err
	}
	return WriteFileAtomic(path, m.Encode)
}

// WriteFileAtomic calls write with a temporary file in the folder of path,
// syncs it and renames it to path. On any error the temporary file is removed
// and path is left as it was. Its errors name path, never the temporary
// file, which a user never sees.
func WriteFileAtomic(path string, write func(io.Writer) error) (err error) {
	mode, err := outputMode(path)
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	removeStaleTemps(path)
	f, err := os.CreateTemp(dir, fmt.Sprintf(".%s.tmp%d-*", filepath.Base(path), os.Getpid()))
	if err != nil {
		return fmt.Errorf("cannot write %s: %v", path, pathless(err))
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err = write(tempWriter{f}); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	for _, step := range []func() error{f.Sync, f.Close,
		func() error { return os.Chmod(tmp, mode) },
		func() error { return os.Rename(tmp, path) }} {
		if err = step(); err != nil {
			return fmt.Errorf("writing %s: %v", path, pathless(err))
		}
	}
	return nil
}

// tempWriter is WriteFileAtomic's temporary file as its write function
// sees it: its errors leave out the temporary file's name ("no space left
// on device"), for the caller to name path instead.
type tempWriter struct{ f *os.File }

func (t tempWriter) Write(p []byte) (int, error) {
	n, err := t.f.Write(p)
	return n, pathless(err)
}

// pathless returns the error that a file operation's *fs.PathError or
// *os.LinkError (a rename's) wraps, without the files' names, or err.
func pathless(err error) error {
	if err == nil { // every Write that succeeds: no errors.As
		return nil
	}
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case errors.As(err, &le):
		return le.Err
	}
	return err
}
