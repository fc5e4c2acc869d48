//go:build integration

package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestEmbeddedNeo4jKilledIsRestarted runs `graphmem serve` in embedded mode
// (it starts its own local Neo4j), kills that Neo4j with SIGKILL as the OOM
// killer would, and checks that the same graphmem process starts it again
// and serves writes and the data from before the crash, without a restart
// of graphmem, logging what it did.
func TestEmbeddedNeo4jKilledIsRestarted(t *testing.T) {
	bin := buildGraphmem(t)
	lib, err := filepath.Abs(filepath.Join("..", "..", ".neo4j", "lib"))
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("GRAPHMEM_NEO4J_LIB"); dir != "" {
		lib = dir
	}
	home := t.TempDir()
	port := func() string {
		addr := freeLoopbackAddr(t)
		return addr[strings.LastIndex(addr, ":")+1:]
	}
	env := serveEnv(map[string]string{
		"GRAPHMEM_LISTEN_ADDR":     freeLoopbackAddr(t),
		"GRAPHMEM_NEO4J_HOME":      home,
		"GRAPHMEM_NEO4J_LIB":       lib,
		"GRAPHMEM_NEO4J_BOLT_PORT": port(),
		"GRAPHMEM_NEO4J_HTTP_PORT": port(),
		"GRAPHMEM_NEO4J_HEAP":      "384m",
		"GRAPHMEM_NEO4J_PAGECACHE": "64m",
		"GRAPHMEM_EMBEDDER":        "off",
		"GRAPHMEM_LOG_FORMAT":      "json",
	})
	addr := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GRAPHMEM_LISTEN_ADDR="); ok {
			addr = v
		}
	}
	p := &serveProc{cmd: exec.Command(bin, "serve"), out: &syncBuffer{}, exited: make(chan struct{}),
		base: "http://" + addr, client: &http.Client{Timeout: time.Minute}}
	p.cmd.Env = env
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() { p.stop(t) }) // SIGTERM: graphmem stops its Neo4j too

	// A JVM start on a loaded 2-core machine takes one to two minutes.
	// Not p.call, which fails the test on a refused connection: the port
	// opens a moment after the process starts.
	appendOK := func(id, text string) bool {
		b, err := json.Marshal(batch("sup-user", map[string]any{"id": id, "kind": "message", "role": "user", "content": text}))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := p.client.Post(p.base+"/v1/sessions/sup-s1/events", "application/json", bytes.NewReader(b))
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusCreated || resp.StatusCode == http.StatusOK
	}
	waitFor := func(what string, limit time.Duration, ok func() bool) time.Duration {
		t.Helper()
		started := time.Now()
		for !ok() {
			select {
			case <-p.exited:
				t.Fatalf("graphmem exited while waiting for %s: %v\n%s", what, p.cmd.ProcessState, p.out.String())
			default:
			}
			if time.Since(started) > limit {
				t.Fatalf("no %s after %s\n%s", what, limit, p.out.String())
			}
			time.Sleep(250 * time.Millisecond)
		}
		return time.Since(started)
	}
	waitFor("first write", 5*time.Minute, func() bool { return appendOK("m1", "I live in Bergen.") })

	raw, err := os.ReadFile(filepath.Join(home, "run", "graphmem-neo4j.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	took := waitFor("write after the Neo4j kill", 6*time.Minute, func() bool { return appendOK("m2", "I work at the harbour.") })
	t.Logf("writes accepted again %s after the local Neo4j was killed", took.Round(time.Millisecond))

	// Both events, each once: the one stored before the crash survived it.
	code, body := p.call(t, http.MethodGet, "/v1/sessions/sup-s1/events", nil)
	if code != http.StatusOK || strings.Count(string(body), `"id":"m1"`) != 1 || strings.Count(string(body), `"id":"m2"`) != 1 {
		t.Fatalf("events after the restart: %d %s", code, body)
	}
	logs := p.out.String()
	for _, want := range []string{"the local Neo4j exited while graphmem was running; restarting it", "the local Neo4j is back"} {
		if !strings.Contains(logs, want) {
			t.Errorf("the log does not say %q:\n%s", want, logs)
		}
	}
	if raw, err := os.ReadFile(filepath.Join(home, "run", "graphmem-neo4j.pid")); err != nil || strings.TrimSpace(string(raw)) == strconv.Itoa(pid) {
		t.Errorf("the pid file should name the new server, not the killed %d: %q %v", pid, raw, err)
	}
}
