//go:build integration

package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graphmem/graphmem/api"
	"github.com/graphmem/graphmem/graph/graphtest"
)

// TestKeysReloadOnSIGHUPAndLimits runs the real binary with a keys file
// and a rate limit: read-only keys cannot write, a key over its rate gets
// 429 with Retry-After, and SIGHUP swaps the keys without a restart: a
// request authenticated before the reload finishes, removed keys stop at
// once, and a broken or emptied file keeps the old keys (and says why).
func TestKeysReloadOnSIGHUPAndLimits(t *testing.T) {
	sc := newScope()
	tenant := sc.id("keys")
	keyA, keyRO, keyBurst, keyB := "a-"+sc.token+"-0123456789", "ro-"+sc.token+"-0123456789",
		"burst-"+sc.token+"-0123456789", "b-"+sc.token+"-0123456789"
	keysFile := filepath.Join(t.TempDir(), "keys")
	writeKeys := func(content string) {
		t.Helper()
		// Written aside and renamed, as an operator's tooling would: the
		// reload never sees half a file.
		tmp := keysFile + ".tmp"
		if err := os.WriteFile(tmp, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, keysFile); err != nil {
			t.Fatal(err)
		}
	}
	writeKeys(fmt.Sprintf("# test keys\n%s:%s\n%s:%s:ro\n%s:%s\n", tenant, keyA, tenant, keyRO, tenant, keyBurst))

	bin := buildGraphmem(t)
	addr := freeLoopbackAddr(t)
	env := serveEnv(map[string]string{
		"GRAPHMEM_NEO4J_URI":          graphtest.URI(t),
		"GRAPHMEM_LISTEN_ADDR":        addr,
		"GRAPHMEM_API_KEYS_FILE":      keysFile,
		"GRAPHMEM_RATE_LIMIT":         "2",
		"GRAPHMEM_RATE_BURST":         "5",
		"GRAPHMEM_WORKERS":            "0",
		"GRAPHMEM_EMBEDDER":           "off",
		"GRAPHMEM_SESSION_IDLE_CLOSE": "0",
		"GRAPHMEM_LOG_FORMAT":         "json",
	})
	p := startServe(t, bin, env, keyA)
	session, user := sc.id("keys", "s"), sc.id("keys", "u")
	events := func(text string) string {
		return fmt.Sprintf(`{"user_id":%q,"events":[{"kind":"message","role":"user","content":%q}]}`, user, text)
	}
	do := func(key, method, path, body string) (*http.Response, string) {
		t.Helper()
		var rd io.Reader
		if body != "" {
			rd = strings.NewReader(body)
		}
		req, err := http.NewRequestWithContext(t.Context(), method, p.base+path, rd)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		resp, err := p.client.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	expect := func(key, method, path, body string, want int) {
		t.Helper()
		resp, b := do(key, method, path, body)
		if resp.StatusCode != want {
			t.Fatalf("%s %s with key %.6s…: %d %s, want %d\n%s", method, path, key, resp.StatusCode, b, want, p.out.String())
		}
		if want >= 400 && !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/problem+json") {
			t.Fatalf("%s %s: %d is not a problem: %s", method, path, want, resp.Header.Get("Content-Type"))
		}
	}
	eventsPath := "/v1/sessions/" + session + "/events"

	// Read-only: reads and searches pass, writes are 403 and store nothing.
	expect(keyA, http.MethodPost, eventsPath, events("first"), http.StatusCreated)
	expect(keyRO, http.MethodPost, eventsPath, events("from a read-only key"), http.StatusForbidden)
	expect(keyRO, http.MethodPost, "/v1/search", fmt.Sprintf(`{"user_id":%q,"query":"first"}`, user), http.StatusOK)
	expect(keyRO, http.MethodGet, eventsPath, "", http.StatusOK)
	_, listed := do(keyA, http.MethodGet, eventsPath, "")
	if strings.Contains(listed, "from a read-only key") || !strings.Contains(listed, "first") {
		t.Fatalf("events after the read-only write: %s", listed)
	}

	// Rate: 12 requests at once from one key; the burst of 5 (plus what
	// refills meanwhile at 2/s) passes, the rest are 429 with Retry-After.
	limited, passed := 0, 0
	for range 12 {
		resp, b := do(keyBurst, http.MethodGet, "/v1/jobs", "")
		switch resp.StatusCode {
		case http.StatusOK:
			passed++
		case http.StatusTooManyRequests:
			limited++
			ra, err := strconv.Atoi(resp.Header.Get("Retry-After"))
			if err != nil || ra < 1 || !strings.Contains(b, "rate-limited") {
				t.Fatalf("429 without a usable Retry-After (%q) or problem: %s", resp.Header.Get("Retry-After"), b)
			}
		default:
			t.Fatalf("burst request: %d %s", resp.StatusCode, b)
		}
	}
	if passed < 5 || limited == 0 {
		t.Fatalf("12 requests at a burst of 5: %d passed, %d limited", passed, limited)
	}
	// Other keys have their own bucket.
	expect(keyA, http.MethodGet, "/v1/jobs", "", http.StatusOK)

	// A request authenticated with keyA before the reload: headers sent,
	// body held back until keyA has been removed.
	body := events("sent across a reload")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	half := len(body) / 2
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
		eventsPath, addr, keyA, len(body), body[:half])
	time.Sleep(300 * time.Millisecond) // the server has read the headers and authenticated

	reloads := func(msg string) int { return strings.Count(p.out.String(), msg) }
	hup := func(msg string, want int) {
		t.Helper()
		if err := p.cmd.Process.Signal(syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for reloads(msg) < want {
			if time.Now().After(deadline) {
				t.Fatalf("no %q log line after SIGHUP\n%s", msg, p.out.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	writeKeys(fmt.Sprintf("%s:%s\n%s:%s:ro\n", tenant, keyB, tenant, keyRO))
	hup("SIGHUP: keys reloaded", 1)

	if _, err := io.WriteString(conn, body[half:]); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	inflight, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("the request authenticated before the reload: %d %s", resp.StatusCode, inflight)
	}
	expect(keyA, http.MethodGet, eventsPath, "", http.StatusUnauthorized)
	expect(keyB, http.MethodPost, eventsPath, events("with the new key"), http.StatusCreated)
	expect(keyRO, http.MethodPost, eventsPath, events("still read-only"), http.StatusForbidden)

	// A broken file and an emptied one change nothing; the log says why.
	writeKeys("this line has no colon\n")
	hup("SIGHUP: keys not reloaded", 1)
	writeKeys("# nothing here\n")
	hup("SIGHUP: keys not reloaded", 2)
	expect(keyB, http.MethodGet, eventsPath, "", http.StatusOK)
	expect(keyA, http.MethodGet, eventsPath, "", http.StatusUnauthorized)
	if out := p.out.String(); !strings.Contains(out, "want tenant:key") || !strings.Contains(out, "cannot turn auth off") {
		t.Fatalf("the log does not say why the reloads were refused:\n%s", out)
	}
	select {
	case <-p.exited:
		t.Fatalf("graphmem exited after SIGHUP: %v", p.cmd.ProcessState)
	default:
	}
	_, listed = do(keyB, http.MethodGet, eventsPath, "")
	for _, want := range []string{"first", "sent across a reload", "with the new key"} {
		if !strings.Contains(listed, want) {
			t.Fatalf("event %q missing after the reloads: %s", want, listed)
		}
	}
	if strings.Contains(listed, "read-only") {
		t.Fatalf("a read-only write was stored: %s", listed)
	}
	t.Logf("burst of 12: %d passed, %d limited (429); 3 SIGHUPs, 1 applied, 2 refused", passed, limited)
}

// countOK counts the /mcp requests that were admitted (not 429).
type countOK struct {
	next     http.RoundTripper
	ok, hits *atomic.Int64
}

func (c countOK) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.next.RoundTrip(r)
	if err == nil {
		if resp.StatusCode == http.StatusTooManyRequests {
			c.hits.Add(1)
		} else {
			c.ok.Add(1)
		}
	}
	return resp, err
}

// TestMCPKeysReadOnlyAndOneTokenPerRequest: over /mcp a read-only key can
// recall but not remember (the tool's own /v1 write is refused), and one
// MCP request costs one token of the key's bucket, however many /v1 calls
// its tool makes in process.
func TestMCPKeysReadOnlyAndOneTokenPerRequest(t *testing.T) {
	sc := newScope()
	tenant := sc.id("mcpkeys")
	key, ro := "k-"+sc.token+"-0123456789", "ro-"+sc.token+"-0123456789"
	const burst = 12
	getenv, environ := envOf([]string{"GRAPHMEM_NEO4J_URI", graphtest.URI(t),
		"GRAPHMEM_API_KEYS", tenant + ":" + key + "," + tenant + ":" + ro + ":ro",
		// Practically no refill during the test: the bucket holds exactly the burst.
		"GRAPHMEM_RATE_LIMIT", "0.001", "GRAPHMEM_RATE_BURST", strconv.Itoa(burst),
		"GRAPHMEM_WORKERS", "0", "GRAPHMEM_SESSION_IDLE_CLOSE", "0", "GRAPHMEM_EMBEDDER", "off"}...)
	cfg, err := loadConfig(getenv, environ)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := api.ParseKeys(cfg.apiKeySource())
	if err != nil {
		t.Fatal(err)
	}
	a, err := buildApp(t.Context(), cfg, keys, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a.handler)
	t.Cleanup(func() { srv.Close(); a.close(context.Background()) })

	connect := func(k string, ok, hits *atomic.Int64) *mcp.ClientSession {
		hc := &http.Client{Transport: countOK{keyed{k, http.DefaultTransport}, ok, hits}}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "graphmem-keys", Version: "1"}, nil).Connect(t.Context(),
			&mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", HTTPClient: hc}, nil)
		if err != nil {
			t.Fatalf("connect to /mcp: %v", err)
		}
		t.Cleanup(func() { _ = cs.Close() })
		return cs
	}
	var roOK, roHits atomic.Int64
	roSession := connect(ro, &roOK, &roHits)
	txt := callTool(t, roSession, "remember", map[string]any{"user_id": "u1", "note": "I live in Porto."}, true)
	if !strings.Contains(txt, "read-only") {
		t.Fatalf("remember with a read-only key: %s", txt)
	}
	callTool(t, roSession, "recall", map[string]any{"user_id": "u1", "query": "Porto"}, false)

	var ok, hits atomic.Int64
	cs := connect(key, &ok, &hits)
	// remember then recall: each tool call makes one or more /v1 calls in
	// process; only the /mcp request is charged.
	calls := 0
	for i := 0; hits.Load() == 0 && i < 2*burst; i++ {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "remember",
			Arguments: map[string]any{"user_id": "u1", "note": fmt.Sprintf("Note %d: I like tea.", i)}})
		if err == nil && !res.IsError {
			calls++
		}
	}
	if hits.Load() == 0 {
		t.Fatalf("%d MCP requests were admitted, past the burst of %d", ok.Load(), burst)
	}
	if calls < burst-2 { // connecting takes a request or two
		t.Fatalf("only %d remember calls succeeded within a burst of %d: the tools' inner calls were charged", calls, burst)
	}
	if ok.Load() != burst {
		t.Fatalf("admitted /mcp requests %d, want exactly the burst %d (one token each)", ok.Load(), burst)
	}
	t.Logf("burst %d: %d /mcp requests admitted (%d successful remember calls), then 429", burst, ok.Load(), calls)
}
