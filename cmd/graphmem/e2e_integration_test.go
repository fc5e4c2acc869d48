//go:build integration

package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/graphmem/graphmem/api"
	"github.com/graphmem/graphmem/api/apitest"
	"github.com/graphmem/graphmem/graph/graphtest"
)

// e2e is the whole service, wired as `graphmem serve` wires it, on the
// test Neo4j, driven in-process through the spec-validating client. Each
// test gets its own tenant (through its own API key), so tests run in
// parallel on one database without seeing each other.
type e2e struct {
	*apitest.Client
	Tenant string
	app    *app
}

func newE2E(t *testing.T, env ...string) *e2e {
	t.Helper()
	return newE2EWith(t, nil, env...)
}

// newE2EWith is newE2E with tweak applied to the loaded configuration
// (what no variable sets: a test's tracer provider).
func newE2EWith(t *testing.T, tweak func(*Config), env ...string) *e2e {
	t.Helper()
	var b [6]byte
	_, _ = rand.Read(b[:])
	tenant := "e2e-" + hex.EncodeToString(b[:])
	key := "key-" + hex.EncodeToString(b[:]) + "-0123456789"
	kv := append([]string{
		"GRAPHMEM_NEO4J_URI", graphtest.URI(t),
		"GRAPHMEM_API_KEYS", tenant + ":" + key,
		"GRAPHMEM_WORKERS", "2",
		// Each test's app serves only its own tenant's jobs: apps of parallel
		// tests differ in config (LLM, embedder) and share the job table.
		"GRAPHMEM_WORKER_TENANTS", tenant,
		"GRAPHMEM_SESSION_IDLE_CLOSE", "0",
	}, append(embedderKV(), env...)...)
	getenv, environ := envOf(kv...)
	cfg, err := loadConfig(getenv, environ)
	if err != nil {
		t.Fatal(err)
	}
	if tweak != nil {
		tweak(&cfg)
	}
	keys, err := api.ParseKeys(cfg.apiKeySource())
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	if os.Getenv("E2E_LOG") != "" {
		log = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	a, err := buildApp(t.Context(), cfg, keys, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.close(context.Background()) })
	c := apitest.New(t, a.handler)
	c.Header.Set("Authorization", "Bearer "+key)
	return &e2e{Client: c, Tenant: tenant, app: a}
}

// must sends a request and fails the test unless the status is want.
func (e *e2e) must(t *testing.T, want int, method, path string, body any) []byte {
	t.Helper()
	rec := e.Do(method, path, body)
	if rec.Code != want {
		t.Fatalf("%s %s: status %d, want %d: %s", method, path, rec.Code, want, rec.Body.String())
	}
	return rec.Body.Bytes()
}

// closeAndWait closes a session and waits for its jobs.
func (e *e2e) closeAndWait(t *testing.T, session string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		rec := e.Do(http.MethodPost, "/v1/sessions/"+session+"/close?wait=true", nil)
		if rec.Code == http.StatusOK {
			return
		}
		if rec.Code != http.StatusAccepted || time.Now().After(deadline) {
			t.Fatalf("close %s: %d %s", session, rec.Code, rec.Body.String())
		}
	}
}

func ev(id, kind, role, content string, extra ...string) map[string]any {
	e := map[string]any{"id": id, "kind": kind, "content": content}
	if role != "" {
		e["role"] = role
	}
	for i := 0; i+1 < len(extra); i += 2 {
		e[extra[i]] = extra[i+1]
	}
	return e
}

func batch(user string, events ...map[string]any) map[string]any {
	return map[string]any{"user_id": user, "events": events}
}

func eventIDs(n int, prefix string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", prefix, i+1)
	}
	return out
}
