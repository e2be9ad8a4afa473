package main

import (
	"context"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompile compiles a trained model with --emit-tests into a folder it
// creates, and beside a program's main.go, and runs the emitted tests
// (golden vectors, zero allocations) with go test.
func TestCompile(t *testing.T) {
	dir := t.TempDir()
	train := blobs(t, dir, "train.csv", 120, 1)
	model := filepath.Join(dir, "m.json")
	if code, _, errs := songc(t, context.Background(), "train", "--data", train, "-o", model, "--nodes", "4", "--steps", "3", "--epochs", "5", "-q"); code != 0 {
		t.Fatal(errs)
	}
	mod := filepath.Join(dir, "mod")
	os.MkdirAll(mod, 0o755)
	os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module example.com/m\n\ngo 1.22\n"), 0o644)
	out := filepath.Join(mod, "blobs", "blobs.go") // compile creates the folder blobs
	code, stdout, errs := songc(t, context.Background(), "compile", model, "-o", out, "--package", "blobs", "--data", train, "--emit-tests")
	if code != 0 {
		t.Fatalf("compile: exit %d: %s", code, errs)
	}
	if !strings.Contains(stdout, "reachable and emitted") || !strings.Contains(stdout, "hard-walk accuracy") ||
		!strings.Contains(stdout, "(run: cd "+filepath.Dir(out)+" && go test -bench .)") {
		t.Errorf("report:\n%s", stdout)
	}
	// Outside a module, the advice makes one.
	if _, stdout, _ := songc(t, context.Background(), "compile", model, "-o", filepath.Join(dir, "free", "c.go"), "--data", train, "--emit-tests"); !strings.Contains(stdout, "&& go mod init free && go test -bench .)") &&
		!inModule(dir) {
		t.Errorf("report outside a module:\n%s", stdout)
	}
	// The golden vectors read a row a line, not as one long line.
	emitted, _ := os.ReadFile(filepath.Join(mod, "blobs", "blobs_test.go"))
	if rows := strings.Count(string(emitted), "\n\t{"); rows != 120 {
		t.Errorf("the emitted golden vectors take %d lines for 120 rows", rows)
	}
	// A program with the classifier beside its main.go: go test builds
	// it and runs its golden tests too.
	os.MkdirAll(filepath.Join(mod, "app"), 0o755)
	os.WriteFile(filepath.Join(mod, "app", "main.go"), []byte("// Command app prints a class.\npackage main\n\nfunc main() { println(ClassNames[Predict(&[NumFeatures]float64{})]) }\n"), 0o644)
	if code, _, errs := songc(t, context.Background(), "compile", model, "-o", filepath.Join(mod, "app", "classifier.go"), "--package", "main", "--data", train, "--emit-tests"); code != 0 {
		t.Fatalf("compile --package main: exit %d: %s", code, errs)
	}
	cmd := exec.Command("go", "test", "./...")
	cmd.Dir = mod
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("emitted tests: %v\n%s", err, b)
	}

	// Rows none of whose labels the model has: an error before anything
	// is written, not after both files.
	unknown := filepath.Join(dir, "unknown.csv")
	os.WriteFile(unknown, []byte("0.5,0.5,0.5,0.5,zz\n"), 0o644)
	lacks := filepath.Join(dir, "lacks", "c.go")
	if code, _, errs := songc(t, context.Background(), "compile", model, "-o", lacks, "--data", unknown, "--emit-tests"); code != 1 || !strings.Contains(errs, `unknown.csv: no row's label is one of the model's 3 classes`) {
		t.Errorf("unknown label: exit %d: %s", code, errs)
	}
	if entries, _ := os.ReadDir(filepath.Dir(lacks)); len(entries) != 0 {
		t.Errorf("compile wrote %v before refusing the data", entries)
	}
	// One such row among the model's classes counts as wrong, as eval
	// counts it, and is warned of: the 120 rows of train.csv, below its
	// header, then the row of "zz", line 122.
	rows, _ := os.ReadFile(train)
	mixed := filepath.Join(dir, "mixed.csv")
	os.WriteFile(mixed, append(rows, "0.5,0.5,0.5,0.5,zz\n"...), 0o644)
	_, evalOut, _ := songc(t, context.Background(), "eval", model, "--data", mixed, "--json")
	code, stdout, errs = songc(t, context.Background(), "compile", model, "-o", lacks, "--data", mixed)
	if code != 0 || !strings.Contains(errs, `warning: `+mixed+`: a label no training row had: "zz" (1 row, line 122)`) {
		t.Errorf("a lacking label among others: exit %d: %s", code, errs)
	}
	var met struct {
		Hard float64 `json:"hard_accuracy"`
	}
	if err := json.Unmarshal([]byte(evalOut), &met); err != nil || !strings.Contains(stdout, "(121 rows)") ||
		!strings.Contains(stdout, fmt.Sprintf("hard-walk accuracy %.2f%%", 100*met.Hard)) || met.Hard == 1 {
		t.Errorf("compile's report differs from eval's (%v, %v):\n%s", met.Hard, err, stdout)
	}

	bad := filepath.Join(dir, "bad.go")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"compile", model, "-o", bad, "--package", "func"}, 2, `package name "func" cannot be imported by that name`},
		// A package named init compiles but cannot be imported.
		{[]string{"compile", model, "-o", bad, "--package", "init"}, 2, `package name "init" cannot be imported`},
		{[]string{"compile", model, "-o", bad, "--emit-tests"}, 2, "--emit-tests needs --data"},
		{[]string{"compile", filepath.Join(dir, "none.json"), "-o", bad}, 1, "none.json"},
		{[]string{"compile", model, "-o", filepath.Join(train, "x.go")}, 1, "cannot write " + filepath.Join(train, "x.go")},
		{[]string{"compile", filepath.Join(dir, "none.json"), "-o", filepath.Join(dir, "no", "x.go")}, 1, "none.json"},
		{[]string{"compile", model, "-o", filepath.Join(dir, "no", "x.go"), "--package", "func"}, 2, `package name "func"`},
		// Data that cannot be read, found after the folder is made.
		{[]string{"compile", model, "-o", filepath.Join(dir, "no", "deeper", "x.go"), "--data", filepath.Join(dir, "none.csv")}, 1, "none.csv"},
		// A name the go tool would not build.
		{[]string{"compile", model, "-o", filepath.Join(dir, "no", "classifier")}, 2, "must end in .go, and neither"},
		{[]string{"compile", model, "-o", filepath.Join(dir, "no", "c_test.go")}, 2, "must end in .go, and neither end in _test.go or"},
		{[]string{"compile", model, "-o", filepath.Join(dir, "no", "_c.go")}, 2, "must end in .go, and neither"},
		{[]string{"compile", model, "-o", filepath.Join(dir, "no", "model_windows.go")}, 2, "a system's or processor's name"},
		{[]string{"compile", model, "-o", filepath.Join(dir, "no", "c_arm64.go")}, 2, "must end in .go"},
		{[]string{"compile", model, "-o", filepath.Join(dir, "no", "c_linux_amd64.go")}, 2, "must end in .go"},
	} {
		code, _, errs := songc(t, context.Background(), tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d %q, want %d %q", tc.args, code, errs, tc.code, tc.want)
		}
		if _, err := os.Stat(bad); err == nil {
			t.Errorf("%v left %s", tc.args, bad)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "no")); err == nil {
		t.Error("a compile that failed created the output's folder")
	}
}

func TestBuildable(t *testing.T) {
	for name, want := range map[string]bool{
		"classifier.go": true, "windows.go": true, "my_model.go": true, "letter_26.go": true, "model_unix.go": true,
		"classifier": false, "c.go.txt": false, "c_test.go": false, "_c.go": false, ".c.go": false,
		"model_windows.go": false, "c_arm64.go": false, "c_linux_amd64.go": false, "c_wasm.go": false, "c_js.go": false,
	} {
		if got := buildable(name); got != want {
			t.Errorf("buildable(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestCompileFolder: compile refuses to replace a Go file songc did not
// write, to write beside another package's files or another classifier
// (go build would fail), and warns of a test file it wrote for another
// model; a file that only go:build ignore names does not count.
func TestCompileFolder(t *testing.T) {
	dir := t.TempDir()
	data, model := tinyModel(t, dir)
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("mine.go", "package x\n\nfunc Important() {}\n")
	write("app/main.go", "package main\n\nfunc main() {}\n")
	write("risk/doc.go", "package risk\n")
	write("risk/gen.go", "//go:build ignore\n\npackage main\n")
	compile := func(out string, args ...string) (int, string) {
		code, _, errs := songc(t, context.Background(), append([]string{"compile", model, "-o", dir + string(filepath.Separator) + out}, args...)...) // not Join: it drops a trailing slash
		return code, errs
	}
	for _, tc := range []struct {
		out, pkg, want string
	}{
		{"mine.go", "x", "the file exists and songc did not write it"},
		{"app", "x", "-o " + filepath.Join(dir, "app") + " names a folder; name the Go file to write in it, e.g. -o " + filepath.Join(dir, "app", "x.go")},
		{"new/c.go/", "x", "names a folder; name the Go file to write in it, e.g. -o " + filepath.Join(dir, "new", "c.go")},
		{"app/c.go", "classifier", "holds package main (" + filepath.Join(dir, "app", "main.go") + "): pass --package main"},
		{"risk/risk.go", "classifier", "holds Go files of package risk (" + filepath.Join(dir, "risk", "doc.go") + "), and the classifier would be package classifier: pass --package risk"},
	} {
		if code, errs := compile(tc.out, "--package", tc.pkg); code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("-o %s: exit %d, %s; want %q", tc.out, code, errs, tc.want)
		}
	}
	// --package main writes the classifier beside a program's main.go,
	// with its golden tests, and leaves the package's doc comment to it.
	if code, errs := compile("app/classifier.go", "--package", "main", "--emit-tests", "--data", data); code != 0 {
		t.Errorf("--package main beside main.go: exit %d, %s", code, errs)
	}
	// A program that declares a name the classifier declares too.
	write("app2/main.go", "package main\n\nvar next int\n\nfunc exit() {}\n\nfunc main() {}\n")
	if code, errs := compile("app2/classifier.go", "--package", "main"); code != 2 || !strings.Contains(errs, filepath.Join(dir, "app2", "main.go")+" declares exit, next, and so does the classifier, so go build would fail") {
		t.Errorf("--package main beside a clashing main.go: exit %d, %s", code, errs)
	}
	for _, name := range []string{"classifier.go", "classifier_test.go"} {
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, "app", name), nil, parser.ParseComments)
		if err != nil || f.Name.Name != "main" || f.Doc != nil {
			t.Errorf("app/%s: %v; want package main without a doc comment", name, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "mine.go")); string(b) != "package x\n\nfunc Important() {}\n" {
		t.Errorf("mine.go changed: %q", b)
	}
	write("own/own_test.go", "package own\n")
	if code, errs := compile("own/own.go", "--package", "own", "--emit-tests", "--data", data); code != 2 || !strings.Contains(errs, "--emit-tests "+filepath.Join(dir, "own", "own_test.go")+": the file exists and songc did not write it") {
		t.Errorf("--emit-tests over a test file songc did not write: exit %d, %s", code, errs)
	}
	if code, errs := compile("risk/risk.go", "--package", "risk", "--emit-tests", "--data", data); code != 0 {
		t.Fatal(errs)
	}
	if code, errs := compile("risk/risk.go", "--package", "risk"); code != 0 || errs != "" { // the same model: its tests hold
		t.Errorf("compile again: exit %d, %s", code, errs)
	}
	os.Remove(filepath.Join(dir, "risk", "doc.go"))
	if code, errs := compile("risk/risk.go", "--package", "risk2"); code != 0 || !strings.Contains(errs, "holds golden vectors songc wrote for another model or package") {
		t.Errorf("the same model in another package: exit %d, %s", code, errs)
	}
	if code, errs := compile("risk/risk.go", "--package", "risk"); code != 0 {
		t.Fatal(errs)
	}
	write("risk/doc.go", "package risk\n")
	if code, errs := compile("risk/fraud.go", "--package", "risk"); code != 2 || !strings.Contains(errs, "the folder already holds "+filepath.Join(dir, "risk", "risk.go")+", a classifier songc wrote") {
		t.Errorf("a second classifier in the package: exit %d, %s", code, errs)
	}
	other := filepath.Join(dir, "other.json")
	if code, _, errs := songc(t, context.Background(), "train", "--data", data, "-o", other, "--nodes", "3", "--steps", "2", "--epochs", "1", "-q"); code != 0 {
		t.Fatal(errs)
	}
	code, _, errs := songc(t, context.Background(), "compile", other, "-o", filepath.Join(dir, "risk", "risk.go"), "--package", "risk")
	if want := "risk_test.go, beside the classifier, holds golden vectors songc wrote for another model"; code != 0 || !strings.Contains(errs, want) {
		t.Errorf("another model: exit %d, %s; want %q", code, errs, want)
	}
	// Without --package, compiling again keeps the package of the
	// classifier it replaces; a new file takes the package of the Go
	// files beside it, else the folder's name when that is a package
	// name, else classifier.
	code, out, errs := songc(t, context.Background(), "compile", model, "-o", filepath.Join(dir, "risk", "risk.go"))
	if code != 0 || !strings.Contains(out, "package risk,") {
		t.Errorf("compile again without --package: exit %d, %s%s", code, out, errs)
	}
	write("score/doc.go", "// Package fraud scores payments.\npackage fraud\n")
	for _, tc := range []struct{ out, pkg string }{
		{"fresh/c.go", "fresh"},
		{"score/c.go", "fraud"},
		{"My-Model/c.go", "classifier"},
		{"Upper/c.go", "classifier"},
		{"fraud/v2/c.go", "classifier"},
		{"type/c.go", "classifier"},
		{"main/c.go", "classifier"},
	} {
		code, out, errs = songc(t, context.Background(), "compile", model, "-o", filepath.Join(dir, tc.out))
		if code != 0 || !strings.Contains(out, "package "+tc.pkg+",") {
			t.Errorf("-o %s without --package: exit %d, %s%s; want package %s", tc.out, code, out, errs, tc.pkg)
		}
	}
	// Beside package main, a classifier is asked for with --package main.
	if code, errs := compile("app2/c.go"); code != 2 || !strings.Contains(errs, "holds package main (") || !strings.Contains(errs, filepath.Join(dir, "app2", "classifier", "classifier.go")) {
		t.Errorf("-o app2/c.go without --package: exit %d, %s", code, errs)
	}
}
