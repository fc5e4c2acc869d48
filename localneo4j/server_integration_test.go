//go:build integration

package localneo4j

import (
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// libDir is the jar folder `make test` fetched; the lifecycle test reuses it
// rather than downloading 135 MB again.
func libDir(t *testing.T) string {
	t.Helper()
	if dir := os.Getenv("GRAPHMEM_NEO4J_LIB"); dir != "" {
		return dir
	}
	abs, err := filepath.Abs(filepath.Join("..", ".neo4j", "lib"))
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func TestServerLifecycle(t *testing.T) {
	s, err := New(Options{
		Home: t.TempDir(), LibDir: libDir(t),
		BoltPort: freePort(t), HTTPPort: freePort(t),
		Heap: "384m", PageCache: "64m", Progress: testWriter{t},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	st, err := s.Start(ctx)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(func() { _ = s.Stop(t.Context()) })
	if !st.Running || st.PID == 0 || st.Version == "" {
		t.Fatalf("status after start = %+v", st)
	}

	// A second start on the same home says so instead of fighting over the store.
	if _, err := s.Start(ctx); !errors.Is(err, ErrAlreadyRunning) {
		t.Fatalf("second start: got %v, want ErrAlreadyRunning", err)
	}
	// The Browser is served and the HTTP API runs Cypher.
	resp, err := http.Get(s.Options().HTTPURL() + "/browser/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("browser: HTTP %d", resp.StatusCode)
	}
	if err := runCypher(ctx, s.Options().HTTPURL(), "CREATE (:Probe {at: timestamp()})"); err != nil {
		t.Fatal(err)
	}
	// Auth is off, so browsers must not let other origins call the HTTP API:
	// the CORS header names the server's own origin, never "*".
	req, err := http.NewRequestWithContext(ctx, http.MethodOptions, s.Options().HTTPURL()+"/db/neo4j/tx/commit", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Origin", "http://evil.example")
	req.Header.Set("Access-Control-Request-Method", "POST")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != s.Options().HTTPURL() {
		t.Fatalf("Access-Control-Allow-Origin = %q, want %q", got, s.Options().HTTPURL())
	}

	start := time.Now()
	if err := s.Stop(ctx); err != nil {
		t.Fatalf("stop: %v", err)
	}
	t.Logf("clean stop took %s", time.Since(start))
	if s.Status(ctx).Running {
		t.Fatal("still running after stop")
	}
	if portOpen(s.Options().BoltPort) {
		t.Fatal("bolt port still open after stop")
	}
	if err := s.Stop(ctx); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("second stop: got %v, want ErrNotRunning", err)
	}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) { w.t.Log(string(p)); return len(p), nil }
