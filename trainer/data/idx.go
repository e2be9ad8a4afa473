package data

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// IDX magic numbers: two zero bytes, the type code 0x08 (unsigned byte) and
// the number of dimensions.
const (
	idxImages = 0x00000803
	idxLabels = 0x00000801
	// maxIDXBytes bounds the image payload read before the data itself is
	// seen, so a header claiming absurd dimensions cannot force a huge
	// allocation.
	maxIDXBytes = 1 << 32
)

// IsIDX reports whether path names an IDX file by its conventional name.
func IsIDX(path string) bool {
	return strings.Contains(path, "-idx3-ubyte") || strings.Contains(path, "-idx1-ubyte")
}

// LabelsPathFor returns the label file that goes with an IDX image file:
// "...-images-idx3-ubyte[.gz]" becomes "...-labels-idx1-ubyte[.gz]".
func LabelsPathFor(images string) string {
	p := strings.Replace(images, "-idx3-ubyte", "-idx1-ubyte", 1)
	if i := strings.LastIndex(p, "images"); i >= 0 {
		p = p[:i] + "labels" + p[i+len("images"):]
	}
	return p
}

// readIDXFile reads an IDX image file (gzip'd or not) and, when its name
// implies one, its label file beside it (see LabelsPathFor). Pixels are
// scaled to [0,1]. When features > 0, images of another size are refused
// as soon as the header is read, before any pixel.
func readIDXFile(imagesPath string, features int) (*Dataset, error) {
	r, c, err := openMaybeGzip(imagesPath)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	ds, err := readIDXImages(r, imagesPath, features)
	if err != nil {
		return nil, err
	}
	lr, lc, lp, err := openIDXLabels(imagesPath, ds.Rows)
	if err != nil || lr == nil {
		return ds, err
	}
	defer lc.Close()
	buf, err := io.ReadAll(io.LimitReader(lr, int64(ds.Rows)))
	if err != nil {
		return nil, readErr(lp, err)
	}
	if len(buf) < ds.Rows {
		return nil, fmt.Errorf("%s: labels are cut short: %d of %d", lp, len(buf), ds.Rows)
	}
	ds.Labels = make([]string, len(buf))
	for i, v := range buf {
		ds.Labels[i] = strconv.Itoa(int(v))
	}
	return ds, nil
}

// openIDXLabels opens the label file that goes with imagesPath, when its
// name implies one, and reads its header, which must announce rows labels;
// lr is then positioned at the first label. lr is nil when the images have
// no label file by name.
func openIDXLabels(imagesPath string, rows int) (lr io.Reader, lc io.Closer, path string, err error) {
	lp := LabelsPathFor(imagesPath)
	if lp == imagesPath {
		return nil, nil, "", nil
	}
	if _, err := os.Stat(lp); err != nil {
		return nil, nil, "", fmt.Errorf("%s: cannot find its label file %s", imagesPath, lp)
	}
	if lr, lc, err = openMaybeGzip(lp); err != nil {
		return nil, nil, "", err
	}
	dims, err := readIDXHeader(lr, lp, idxLabels, 1)
	if err == nil && dims[0] != rows {
		err = fmt.Errorf("%s: has %d labels but %s has %d images", lp, dims[0], imagesPath, rows)
	}
	if err != nil {
		lc.Close()
		return nil, nil, "", err
	}
	return lr, lc, lp, nil
}

func readIDXHeader(r io.Reader, name string, magic uint32, dims int) ([]int, error) {
	hdr := make([]uint32, 1+dims)
	if err := binary.Read(r, binary.BigEndian, hdr); err != nil {
		return nil, fmt.Errorf("%s: IDX header is cut short: %v", name, err)
	}
	if hdr[0] != magic {
		return nil, fmt.Errorf("%s: IDX magic is 0x%08x, want 0x%08x (%d-dimensional unsigned bytes)", name, hdr[0], magic, dims)
	}
	out := make([]int, dims)
	for i := range out {
		if hdr[1+i] == 0 || hdr[1+i] > 1<<28 {
			return nil, fmt.Errorf("%s: IDX dimension %d is %d", name, i, hdr[1+i])
		}
		out[i] = int(hdr[1+i])
	}
	return out, nil
}

func readIDXImages(r io.Reader, name string, features int) (*Dataset, error) {
	dims, err := readIDXHeader(r, name, idxImages, 3)
	if err != nil {
		return nil, err
	}
	rows, d := dims[0], dims[1]*dims[2]
	if features > 0 && d != features {
		return nil, fmt.Errorf("%s: images have %d pixels; the model wants %d features", name, d, features)
	}
	if uint64(rows)*uint64(d) > maxIDXBytes {
		return nil, fmt.Errorf("%s: IDX header claims %d images of %dx%d, more than songc reads", name, rows, dims[1], dims[2])
	}
	// Memory grows with the bytes actually read (one per pixel), never with
	// what the header claims, so a short hostile file cannot ask for
	// gigabytes; the float64 table is allocated once, at its exact size.
	raw, err := io.ReadAll(io.LimitReader(r, int64(rows)*int64(d)))
	if err != nil {
		return nil, readErr(name, err)
	}
	if len(raw) < rows*d {
		return nil, fmt.Errorf("%s: image %d of %d is cut short", name, len(raw)/d+1, rows)
	}
	ds := &Dataset{Name: name, Rows: rows, Features: d, X: make([]float64, rows*d), Line: make([]int, rows)}
	for i, v := range raw {
		ds.X[i] = float64(v) / 255
	}
	for i := range ds.Line {
		ds.Line[i] = i + 1
	}
	return ds, nil
}

// Open reads path as IDX (by its name) or as CSV.
func Open(path string, opt CSVOptions) (*Dataset, error) {
	if IsIDX(path) {
		if strings.Contains(path, "-idx1-ubyte") {
			return nil, fmt.Errorf("%s: is an IDX label file; pass the images file, its labels are found beside it", path)
		}
		return readIDXFile(path, opt.width())
	}
	return ReadCSVFile(path, opt)
}
