//go:build integration

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph/graphtest"
)

// syncBuffer is a bytes.Buffer safe for the server goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// TestServeEndToEnd runs the real command against the test Neo4j and checks
// the foundation's promises over HTTP: ready, metrics, spec, problems, and
// a clean shutdown on cancellation.
func TestServeEndToEnd(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	getenv, environ := envOf(append([]string{"GRAPHMEM_NEO4J_URI", graphtest.URI(t), "GRAPHMEM_LISTEN_ADDR", addr,
		"GRAPHMEM_LOG_FORMAT", "json"}, embedderKV()...)...)

	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"serve"}, getenv, environ, &stdout, &stderr) }()
	t.Cleanup(cancel)

	base := "http://" + addr
	deadline := time.Now().Add(90 * time.Second)
	for {
		resp, err := http.Get(base + "/readyz")
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
			// While it starts, it says so.
			if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" ||
				!strings.Contains(string(body), "problem-starting") {
				t.Fatalf("before ready: %d %v %s", resp.StatusCode, resp.Header, body)
			}
		}
		select {
		case err := <-done:
			t.Fatalf("serve exited early: %v\n%s", err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("not ready after 90s\n%s", stderr.String())
		}
		time.Sleep(200 * time.Millisecond)
	}

	get := func(path string) (int, string, http.Header) {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}
	if code, body, _ := get("/openapi.yaml"); code != 200 || !strings.HasPrefix(body, "openapi: 3.1") {
		t.Fatalf("/openapi.yaml: %d %.40s", code, body)
	}
	if code, body, _ := get("/metrics"); code != 200 || !strings.Contains(body, "go_goroutines") || !strings.Contains(body, "graphmem_neo4j_query_duration_seconds") {
		t.Fatalf("/metrics: %d, lacks Go or Neo4j metrics", code)
	}
	code, body, hdr := get("/v1/nothing-here")
	if code != 404 || !strings.HasPrefix(hdr.Get("Content-Type"), "application/problem+json") || !strings.Contains(body, `"status":404`) {
		t.Fatalf("unknown route: %d %s %s", code, hdr.Get("Content-Type"), body)
	}
	if !strings.Contains(stderr.String(), `"msg":"authentication is off`) {
		t.Errorf("log does not say auth is off:\n%s", stderr.String())
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve returned %v on shutdown", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not shut down within 30s")
	}
	if _, err := http.Get(base + "/healthz"); err == nil {
		t.Fatal("still serving after shutdown")
	}
	fmt.Fprint(io.Discard, stdout.String())
}

// TestServeMetricsOnOwnListener: with GRAPHMEM_METRICS_ADDR, /metrics is
// served there and no longer on the API listener.
func TestServeMetricsOnOwnListener(t *testing.T) {
	free := func() string {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		return l.Addr().String()
	}
	addr, metricsAddr := free(), free()
	getenv, environ := envOf(append([]string{"GRAPHMEM_NEO4J_URI", graphtest.URI(t), "GRAPHMEM_LISTEN_ADDR", addr,
		"GRAPHMEM_METRICS_ADDR", metricsAddr, "GRAPHMEM_WORKERS", "0", "GRAPHMEM_SESSION_IDLE_CLOSE", "0"}, embedderKV()...)...)
	ctx, cancel := context.WithCancel(context.Background())
	var stderr syncBuffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"serve"}, getenv, environ, io.Discard, &stderr) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	status := func(url string) int {
		resp, err := http.Get(url)
		if err != nil {
			return 0
		}
		defer resp.Body.Close()
		return resp.StatusCode
	}
	deadline := time.Now().Add(90 * time.Second)
	for status("http://"+addr+"/readyz") != http.StatusOK {
		select {
		case err := <-done:
			done <- err // for the cleanup
			t.Fatalf("serve exited early: %v\n%s", err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("not ready after 90s\n%s", stderr.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	if got := status("http://" + addr + "/metrics"); got != http.StatusNotFound {
		t.Errorf("/metrics on the API listener: %d, want 404", got)
	}
	if got := status("http://" + metricsAddr + "/metrics"); got != http.StatusOK {
		t.Errorf("/metrics on GRAPHMEM_METRICS_ADDR: %d, want 200", got)
	}
}
