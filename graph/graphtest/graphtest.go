package graphtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph"
)

// EnvURI names the variable that points tests at their Neo4j.
const EnvURI = "GRAPHMEM_TEST_NEO4J_URI"

var (
	once     sync.Once
	shared   *graph.Store
	openErr  error
	schemaMu sync.Mutex
)

// URI returns the test server's Bolt URI or fails the test with advice.
func URI(t testing.TB) string {
	t.Helper()
	uri := os.Getenv(EnvURI)
	if uri == "" {
		t.Fatalf("%s is not set: integration tests need the Neo4j that `make test` starts (or start one with `go run ./cmd/graphmem neo4j start` and export %s=bolt://127.0.0.1:7687)", EnvURI, EnvURI)
	}
	return uri
}

// Store returns a store shared by the tests of this package, with the schema
// applied once. Tests must use their own Tenant.
func Store(t testing.TB) *graph.Store {
	t.Helper()
	uri := URI(t)
	once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		shared, openErr = graph.Open(ctx, graph.Config{URI: uri, ConnectTimeout: time.Minute}, slog.New(slog.DiscardHandler))
		if openErr == nil {
			schemaMu.Lock()
			_, openErr = shared.ApplySchema(ctx)
			schemaMu.Unlock()
		}
	})
	if openErr != nil {
		t.Fatalf("open test graph: %v", openErr)
	}
	return shared
}

// Open returns a fresh store with its own config; the caller closes it.
func Open(t testing.TB, cfg graph.Config) *graph.Store {
	t.Helper()
	cfg.URI = URI(t)
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = time.Minute
	}
	s, err := graph.Open(t.Context(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatalf("open graph: %v", err)
	}
	t.Cleanup(func() { _ = s.Close(context.Background()) })
	return s
}

// Tenant returns a tenant id unique to this test run and test.
func Tenant(t testing.TB) string {
	t.Helper()
	var b [4]byte
	_, _ = rand.Read(b[:])
	name := strings.NewReplacer("/", "-", " ", "-").Replace(t.Name())
	if len(name) > 40 {
		name = name[:40]
	}
	return "t-" + name + "-" + hex.EncodeToString(b[:])
}
