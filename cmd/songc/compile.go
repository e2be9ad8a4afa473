package main

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/songc/songc/compiler"
	"github.com/songc/songc/runlog"
	"github.com/songc/songc/runtime"
	"github.com/songc/songc/trainer/data"
)

// CompileCmd generates a standalone Go classifier.
type CompileCmd struct {
	ModelArg  `embed:""`
	Output    string `short:"o" required:"" placeholder:"FILE.go" help:"The Go file to write; its folder is created when missing."`
	Package   string `help:"Package name of the generated file (default: the package of -o's folder, else the folder's name, else classifier); main puts it beside a program's main.go."`
	Layout    string `enum:"auto,unrolled,tables" default:"auto" help:"Code shape (${enum}): auto picks unrolled code for small models, tables for large ones."`
	EmitTests bool   `name:"emit-tests" help:"Also write FILE_test.go beside the output: golden vectors from --data, a zero-allocation test and a benchmark."`
	Data      string `placeholder:"FILE" group:"data" help:"Labelled rows for a report (path lengths, accuracy) and for --emit-tests."`
	DataFlags `embed:""`
}

func (CompileCmd) Help() string {
	return `The generated file imports nothing (or, for a model of categorical columns, the
standard library's strings), allocates nothing, and predicts exactly what
'songc predict' and 'songc eval' (hard accuracy) compute, bit for bit:

  func Predict(x *[NumFeatures]float64) int // class index
  func Explain(x *[NumFeatures]float64, path []Decision) (int, []Decision)
  func PredictBatch(xs [][NumFeatures]float64, out []int)
  var ClassNames = [NumClasses]string{...}

For a model trained on a CSV file with a header, categories or missing
values, it also takes records, a field per column (docs/data.md):

  type Input struct{ Age float64; Sex string; ... }
  func PredictInput(in *Input) int
  func ExplainInput(in *Input, path []InputDecision) (int, []InputDecision)

A package holds one classifier: give each its own folder, named as its
package is (letter/letter.go is package letter), or build one into a program
with --package main. The generated code needs Go 1.21 or later.

Examples:
  songc compile letter.json -o classifier/classifier.go
  songc compile letter.json -o letter/letter.go \
      --data letter-test.csv.gz --emit-tests
  songc compile letter.json -o cmd/app/classifier.go --package main`
}

// buildable reports whether go build compiles a Go file named base on
// every system and processor: a test file, a name starting with _ or .,
// and a name ending in a system or processor (x_windows.go, x_arm64.go)
// are left out of some or all builds.
func buildable(base string) bool {
	if filepath.Ext(base) != ".go" || strings.HasSuffix(base, "_test.go") {
		return false
	}
	for _, sys := range [][2]string{{"linux", "amd64"}, {"windows", "arm64"}} {
		ctx := build.Default
		ctx.GOOS, ctx.GOARCH = sys[0], sys[1]
		ctx.OpenFile = func(string) (io.ReadCloser, error) { // the name decides; the file may not exist yet
			return io.NopCloser(strings.NewReader("package p\n")), nil
		}
		if ok, err := ctx.MatchFile(".", base); err != nil || !ok {
			return false
		}
	}
	return true
}

// checkGoName refuses an -o that is not a Go file go build compiles
// everywhere: standard output, a folder, or a name buildable refuses; pkg
// is the package, for the name suggested.
func checkGoName(out, pkg string) error {
	if out == "-" {
		return usagef("-o -: compile writes a Go file, not to standard output; name the file, e.g. -o %s", filepath.Join(pkg, pkg+".go"))
	}
	fi, err := os.Stat(out)
	if slash := out != "" && os.IsPathSeparator(out[len(out)-1]); slash || err == nil && fi.IsDir() {
		e := filepath.Join(out, pkg+".go")
		if t := filepath.Clean(out); filepath.Ext(t) == ".go" && err != nil {
			e = t // x.go/, a slash too many
		}
		return usagef("-o %s names a folder; name the Go file to write in it, e.g. -o %s", out, e)
	}
	if !buildable(filepath.Base(out)) {
		return usagef("-o %s: the classifier's file must end in .go, and neither end in _test.go or a system's or processor's name (_linux.go, _arm64.go) nor start with _ or ., for go build to compile it everywhere", out)
	}
	return nil
}

func (c *CompileCmd) Run(g *Globals) (err error) {
	if c.Package == "" {
		c.Package = defaultPackage(c.Output)
	}
	if err := checkGoName(c.Output, c.Package); err != nil {
		return err
	}
	m, err := runtime.Load(c.Model)
	if err != nil {
		return err
	}
	layout := map[string]compiler.Layout{"auto": compiler.LayoutAuto, "unrolled": compiler.LayoutUnrolled, "tables": compiler.LayoutTables}[c.Layout]
	if c.EmitTests && c.Data == "" {
		return usagef("--emit-tests needs --data: the golden vectors come from it")
	}
	// Compiling is quick and checks the package name; the folder is made
	// and checked before the data, which may be large, are read.
	src, plan, err := compiler.Compile(m, compiler.Options{Package: c.Package, Layout: layout, Version: version})
	if err != nil {
		var pe *compiler.PackageError
		if errors.As(err, &pe) {
			return usageError{err}
		}
		return err
	}
	testPath := strings.TrimSuffix(c.Output, ".go") + "_test.go"
	written := "" // the golden tests, when written
	if c.EmitTests {
		written = testPath
	}
	if err := checkPackageFolder(c.Output, written, plan.Package, src); err != nil {
		return err
	}
	if !c.EmitTests && staleTests(testPath, plan.Package, plan.Hash) {
		fmt.Fprintf(g.Stderr, "songc: warning: %s, beside the classifier, holds golden vectors songc wrote for another model or package, and go test will fail on them: write it again (--emit-tests --data FILE) or delete it\n", testPath)
	}
	outputs := map[string]string{"-o": c.Output, "--emit-tests": written}
	made, err := checkOutputs([]string{"-o", "--emit-tests"}, outputs)
	if err != nil {
		return err
	}
	defer removeOnError(&err, &made) // on the data, say: the folders made go again
	var ds *data.Dataset
	var y []int       // the rows' classes, when the data is labelled
	var lab *labeller // their labels, then
	if c.Data != "" {
		if ds, err = c.openFor(g, c.Data, m, false); err != nil {
			return err
		}
		// Labels the model lacks count as wrong, as eval counts them;
		// data with none of its labels, or with more than maxLacking
		// distinct lacking ones, is an error before anything is written.
		if ds.Labels != nil {
			lab = newLabeller(c.Data, m.ClassNames)
			if y, err = lab.targets(ds); err != nil {
				return err
			}
			if err := lab.noneKnown(); err != nil {
				return err
			}
		}
	}
	if c.EmitTests && ds.Rows == 0 {
		return fmt.Errorf("%s: has no rows for the golden vectors", c.Data)
	}
	var testSrc []byte
	if c.EmitTests {
		rows := min(ds.Rows, max(8, 20000/ds.Features), 200)
		var b bytes.Buffer
		if err := plan.RenderTests(&b, version, ds.X[:rows*ds.Features]); err != nil {
			return err
		}
		testSrc = b.Bytes()
	}
	if err := writeFile(c.Output, src); err != nil {
		return err
	}
	k := plan.Classifier
	fmt.Fprintf(g.Stdout, "wrote %s: package %s, %d of %d nodes reachable and emitted, %s layout, %d bytes\n",
		c.Output, plan.Package, len(plan.Nodes), k.NumNodes(), plan.Layout, len(src))
	meta, _ := runlog.ReadMetadata(m.Training) // none: no note
	if mc := meta.Constant(); mc != nil {
		fmt.Fprintln(g.Stdout, constantNote("the classifier returns", meta))
	}
	if testSrc != nil {
		if err := writeFile(testPath, testSrc); err != nil {
			return err
		}
		dir := filepath.Dir(c.Output)
		run := fmt.Sprintf("cd %s && go test -bench .", dir)
		if !inModule(dir) {
			run = fmt.Sprintf("cd %s && go mod init %s && go test -bench .", dir, c.Package)
		}
		fmt.Fprintf(g.Stdout, "wrote %s: golden vectors, zero-allocation test, BenchmarkPredict (run: %s)\n", testPath, run)
	}
	if y != nil {
		if w := lab.warning(); w != "" {
			fmt.Fprintln(g.Stderr, w)
		}
		met := k.Evaluate(ds.X, y)
		fmt.Fprintf(g.Stdout, "on %s (%d rows): path length mean %.2f, max %d; hard-walk accuracy %.2f%%, soft accuracy %.2f%%, fidelity %.2f%%, forced exits %d\n",
			c.Data, met.Rows, met.MeanPathLen, met.MaxPathLen, 100*met.HardAccuracy, 100*met.SoftAccuracy, 100*met.Fidelity, met.ForcedExits)
	}
	return nil
}

// checkPackageFolder refuses to write the classifier out of package pkg,
// whose source is src, where it would replace a Go file songc did not
// write (out, or test, its golden tests, when they are written), or where
// go build would fail: beside the files of another package, beside
// another classifier songc wrote, or beside files that declare a name src
// declares too (as a program's main.go may).
func checkPackageFolder(out, test, pkg string, src []byte) error {
	for _, f := range [][2]string{{"-o", out}, {"--emit-tests", test}} {
		flag, p := f[0], f[1]
		if _, err := os.Stat(p); p == "" || err != nil {
			continue
		}
		if h, err := compiler.ReadHeader(p); err != nil || !h.Songc {
			return usagef("%s %s: the file exists and songc did not write it (its first line is not \"// %s\"); songc replaces only the files it wrote: name another file, or remove it first", flag, p, compiler.Generated)
		}
	}
	dir, base := filepath.Dir(out), filepath.Base(out)
	var ours map[string]bool // src's names, once a file of pkg needs them
	for _, f := range packageFiles(out) {
		switch p, h := f.path, f.Header; {
		case h.Songc:
			return usagef("-o %s: the folder already holds %s, a classifier songc wrote, and a Go package holds one: both declare Predict, Input, ClassNames and the rest; write each classifier to a folder of its own (a package each), e.g. -o %s", out, p, filepath.Join(dir, strings.TrimSuffix(base, ".go"), base))
		case h.Package == "main" && pkg != "main":
			return usagef("-o %s: the folder holds package main (%s): pass --package main to build the classifier into that program, or write it to a folder of its own to import, e.g. -o %s", out, p, filepath.Join(dir, pkg, pkg+".go"))
		case h.Package != pkg:
			return usagef("-o %s: the folder holds Go files of package %s (%s), and the classifier would be package %s: pass --package %s, or write it to another folder", out, h.Package, p, pkg, h.Package)
		default:
			if ours == nil {
				ours = declared("", src)
			}
			if both := sharedNames(p, ours); len(both) > 0 {
				return usagef("-o %s: %s declares %s, and so does the classifier, so go build would fail: rename them there, or write the classifier to a folder of its own, a package to import (e.g. -o %s)", out, p, strings.Join(both, ", "), filepath.Join(dir, "classifier", "classifier.go"))
			}
		}
	}
	return nil
}

// packageFile is a Go file of the package a classifier joins, with its
// header.
type packageFile struct {
	path string
	compiler.Header
}

// packageFiles returns the Go files in out's folder that go build compiles
// with out, in name order: not out itself, test files, or files left out
// of this build (//go:build ignore), nor files whose package clause does
// not parse. A folder yet to be made holds none.
func packageFiles(out string) []packageFile {
	dir, base := filepath.Dir(out), filepath.Base(out)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var files []packageFile
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || name == base || strings.HasSuffix(name, "_test.go") {
			continue
		}
		if ok, err := build.Default.MatchFile(dir, name); err != nil || !ok {
			continue // not Go, or left out of this build
		}
		p := filepath.Join(dir, name)
		if h, err := compiler.ReadHeader(p); err == nil {
			files = append(files, packageFile{p, h})
		}
	}
	return files
}

// declared returns the names that the Go source src (the file at path,
// when src is nil) declares at package level; none when it does not parse
// (go build will say why).
func declared(path string, src any) map[string]bool {
	out := map[string]bool{}
	f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.SkipObjectResolution)
	if err != nil {
		return out
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name != "init" {
				out[d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					out[s.Name.Name] = true
				case *ast.ValueSpec:
					for _, n := range s.Names {
						out[n.Name] = true
					}
				}
			}
		}
	}
	delete(out, "_")
	return out
}

// sharedNames returns, sorted, the names of ours that the Go file at
// path declares at package level too.
func sharedNames(path string, ours map[string]bool) []string {
	var both []string
	for n := range declared(path, nil) {
		if ours[n] {
			both = append(both, n)
		}
	}
	slices.Sort(both)
	return both
}

// staleTests reports whether the Go file test, beside the classifier of
// package pkg for the model of hash, holds golden tests songc wrote for
// another model or package, which go test would fail on.
func staleTests(test, pkg, hash string) bool {
	h, err := compiler.ReadHeader(test)
	return err == nil && h.Songc && (h.Hash != hash || h.Package != pkg)
}

// inModule reports whether dir or a folder above it holds a go.mod, so
// that the go tool can build the package in dir.
func inModule(dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return true // no advice rather than wrong advice
	}
	for {
		if _, err := os.Stat(filepath.Join(abs, "go.mod")); err == nil {
			return true
		}
		up := filepath.Dir(abs)
		if up == abs {
			return false
		}
		abs = up
	}
}

// defaultPackage is the package compile names without --package, the
// folder's own as Go has it:
//   - that of the classifier songc wrote at out, which compiling again
//     replaces, so that code importing it still builds;
//   - else that of the Go files beside out, unless main (a program takes
//     a classifier only when asked, with --package main);
//   - else the folder's name, when it is a lower-case Go identifier other
//     than main and not a major version's folder (v2);
//   - else "classifier".
func defaultPackage(out string) string {
	if h, err := compiler.ReadHeader(out); err == nil && h.Songc {
		return h.Package
	}
	if files := packageFiles(out); files != nil {
		if files[0].Package == "main" {
			return "classifier"
		}
		return files[0].Package
	}
	if abs, err := filepath.Abs(filepath.Dir(out)); err == nil && folderPackage(filepath.Base(abs)) {
		return filepath.Base(abs)
	}
	return "classifier"
}

// folderPackage reports whether a folder's name is the package name
// compile gives the code it writes there: a lower-case Go identifier other
// than main, and not a major version's folder (v2).
func folderPackage(name string) bool {
	lower := name != "" && strings.Trim(name, "abcdefghijklmnopqrstuvwxyz0123456789_") == "" && name[0] >= 'a' && name[0] <= 'z'
	major := len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == ""
	return lower && token.IsIdentifier(name) && name != "main" && !major
}
