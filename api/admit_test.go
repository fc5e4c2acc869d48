package api

import (
	"crypto/sha256"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/graphmem/graphmem/api/apitest"
)

const (
	rwKey = "acme-key-0123456789"
	roKey = "acme-read-0123456789"
	beta  = "beta-key-0123456789"
)

func testRing(t *testing.T, src string) *KeyRing {
	t.Helper()
	ring, err := ParseKeys(src)
	if err != nil {
		t.Fatal(err)
	}
	return ring
}

// TestRateLimitPerKey: each key has its own bucket; past the burst a key
// gets a 429 problem with a Retry-After that matches the refill rate, the
// other key and the unauthenticated probes are untouched.
func TestRateLimitPerKey(t *testing.T) {
	ring := testRing(t, "acme:"+rwKey+",beta:"+beta)
	// 0.5 requests/s: the next token is 2 s away once the burst is spent.
	c := newClient(t, fullDeps(t), Options{Keys: ring, RateLimit: 0.5, RateBurst: 3})
	for i := range 3 {
		if rec := c.do(http.MethodGet, "/v1/jobs", nil, "X-API-Key", rwKey); rec.Code != http.StatusOK {
			t.Fatalf("request %d within the burst: %d %s", i+1, rec.Code, rec.Body)
		}
	}
	rec := c.do(http.MethodGet, "/v1/jobs", nil, "X-API-Key", rwKey)
	p := problemOf(t, c, http.MethodPost, "/v1/search", `{"user_id":"u1","query":"x"}`, "X-API-Key", rwKey)
	if rec.Code != http.StatusTooManyRequests || p.Status != 429 || p.Type != "/docs#problem-rate-limited" {
		t.Fatalf("over the burst: %d %s / %+v", rec.Code, rec.Body, p)
	}
	if !strings.HasPrefix(rec.Header().Get("Content-Type"), problemContentType) {
		t.Fatalf("429 content type %q", rec.Header().Get("Content-Type"))
	}
	if ra, err := strconv.Atoi(rec.Header().Get("Retry-After")); err != nil || ra < 1 || ra > 2 {
		t.Fatalf("Retry-After %q, want 1-2 s at 0.5 requests/s", rec.Header().Get("Retry-After"))
	}
	if rec := c.do(http.MethodGet, "/v1/jobs", nil, "X-API-Key", beta); rec.Code != http.StatusOK {
		t.Fatalf("another key shares the bucket: %d", rec.Code)
	}
	if rec := c.do(http.MethodGet, "/healthz", nil); rec.Code != http.StatusOK {
		t.Fatalf("healthz is limited: %d", rec.Code)
	}
	// An unknown key is refused by auth before it can drain anything.
	if p := problemOf(t, c, http.MethodGet, "/v1/jobs", nil, "X-API-Key", "unknown-0123456789abc"); p.Status != 401 {
		t.Fatalf("unknown key: %+v", p)
	}
}

// TestRateLimitRefills: a refused request does not consume a token, and
// the bucket refills at the configured rate.
func TestRateLimitRefills(t *testing.T) {
	l := newRateLimiter(10, 1)
	var k [sha256.Size]byte
	now := time.Now()
	if err := l.allow(k, now); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		err := l.allow(k, now)
		rl, ok := err.(*rateLimitedError)
		if !ok || rl.retryAfter <= 0 || rl.retryAfter > 100*time.Millisecond || rl.retryAfterSeconds() != 1 {
			t.Fatalf("empty bucket: %v", err)
		}
	}
	if err := l.allow(k, now.Add(100*time.Millisecond)); err != nil {
		t.Fatalf("after 100ms at 10/s the refused requests left no token: %v", err)
	}
	if newRateLimiter(0, 5) != nil {
		t.Fatal("rate 0 must turn the limit off")
	}
	if l := newRateLimiter(2.5, 0); l.burst != 3 {
		t.Fatalf("default burst %d, want one second's worth rounded up (3)", l.burst)
	}
}

// TestRateLimitOffByDefault: with no limit configured, a key can make many
// requests in a row.
func TestRateLimitOffByDefault(t *testing.T) {
	c := newClient(t, fullDeps(t), Options{Keys: testRing(t, "acme:"+rwKey)})
	for i := range 200 {
		if rec := c.do(http.MethodGet, "/v1/jobs", nil, "X-API-Key", rwKey); rec.Code != http.StatusOK {
			t.Fatalf("request %d: %d", i, rec.Code)
		}
	}
}

// TestReadOnlyKey: a ":ro" key reads, searches and assembles contexts, and
// every write route answers 403 without reaching the service.
func TestReadOnlyKey(t *testing.T) {
	ring := testRing(t, "acme:"+rwKey+"\nacme:"+roKey+":ro\n")
	if ring.Len() != 2 || ring.ReadOnly() != 1 {
		t.Fatalf("keys %d, read-only %d", ring.Len(), ring.ReadOnly())
	}
	deps := fullDeps(t)
	fake := deps.Sessions.(*fakeMemory)
	c := newClient(t, deps, Options{Keys: ring})
	reads := []struct{ method, path, body string }{
		{http.MethodGet, "/v1/jobs", ""},
		{http.MethodGet, "/v1/users/u1/facts", ""},
		{http.MethodGet, "/v1/sessions/s1/events", ""},
		{http.MethodPost, "/v1/search", `{"user_id":"u1","query":"x"}`},
		{http.MethodPost, "/v1/context", `{"user_id":"u1","session_id":"s1"}`},
	}
	for _, r := range reads {
		var body any
		if r.body != "" {
			body = r.body
		}
		if rec := c.do(r.method, r.path, body, "X-API-Key", roKey); rec.Code >= 400 {
			t.Errorf("read-only key on %s %s: %d %s", r.method, r.path, rec.Code, rec.Body)
		}
	}
	events := `{"user_id":"u1","events":[{"kind":"message","role":"user","content":"hello"}]}`
	writes := []struct{ method, path, body string }{
		{http.MethodPost, "/v1/sessions/s1/events", events},
		{http.MethodPost, "/v1/sessions/s1/close", ""},
		{http.MethodPost, "/v1/users/u1/facts", `{"subject":"u1","predicate":"LIKES","object":"tea"}`},
		{http.MethodPatch, "/v1/facts/f1", `{"object":"coffee"}`},
		{http.MethodDelete, "/v1/facts/f1", ""},
		{http.MethodDelete, "/v1/users/u1", ""},
		{http.MethodPut, "/v1/retention", `{"raw_text_days":1}`},
		{http.MethodPost, "/v1/jobs/j1/retry", ""},
	}
	appended := len(fake.tenants)
	for _, w := range writes {
		var body any
		if w.body != "" {
			body = w.body
		}
		p := problemOf(t, c, w.method, w.path, body, "Authorization", "Bearer "+roKey)
		if p.Status != http.StatusForbidden || p.Type != "/docs#problem-forbidden" {
			t.Errorf("read-only key on %s %s: %+v", w.method, w.path, p)
		}
	}
	if len(fake.tenants) != appended {
		t.Fatalf("a read-only write reached the service: %v", fake.tenants[appended:])
	}
	if rec := c.do(http.MethodPost, "/v1/sessions/s1/events", events, "X-API-Key", rwKey); rec.Code != http.StatusCreated {
		t.Fatalf("the read-write key of the same tenant: %d %s", rec.Code, rec.Body)
	}
}

// TestKeyRingReplace: a reload serves the new keys at once; a reload with
// no keys is refused and the old keys stay.
func TestKeyRingReplace(t *testing.T) {
	ring := testRing(t, "acme:"+rwKey)
	c := newClient(t, fullDeps(t), Options{Keys: ring})
	if rec := c.do(http.MethodGet, "/v1/jobs", nil, "X-API-Key", rwKey); rec.Code != http.StatusOK {
		t.Fatalf("before: %d", rec.Code)
	}
	if err := ring.Replace(nil); err == nil {
		t.Fatal("a reload to no keys was accepted (it would turn auth off)")
	}
	if rec := c.do(http.MethodGet, "/v1/jobs", nil, "X-API-Key", rwKey); rec.Code != http.StatusOK {
		t.Fatalf("a refused reload dropped the old key: %d", rec.Code)
	}
	if err := ring.Replace(testRing(t, "beta:"+beta)); err != nil {
		t.Fatal(err)
	}
	if p := problemOf(t, c, http.MethodGet, "/v1/jobs", nil, "X-API-Key", rwKey); p.Status != 401 {
		t.Fatalf("the removed key still works: %+v", p)
	}
	if rec := c.do(http.MethodGet, "/v1/jobs", nil, "X-API-Key", beta); rec.Code != http.StatusOK {
		t.Fatalf("the added key: %d", rec.Code)
	}
	var off *KeyRing
	if err := off.Replace(ring); err == nil {
		t.Fatal("a reload turned auth on without a restart")
	}
}

func TestParseReadOnlyKeys(t *testing.T) {
	hash := strings.Repeat("ab", 32)
	ring := testRing(t, "a:0123456789abcdef0123:ro, b:sha256:"+hash+":ro, c:fedcba9876543210fedc")
	for key, want := range map[string]bool{"0123456789abcdef0123": true, "fedcba9876543210fedc": false} {
		if e, ok := ring.lookup(key); !ok || e.readOnly != want {
			t.Errorf("%s: %+v %v", key, e, ok)
		}
	}
	if ring.ReadOnly() != 2 {
		t.Fatalf("read-only keys %d, want 2", ring.ReadOnly())
	}
	// The flag is not part of the key.
	if _, ok := ring.lookup("0123456789abcdef0123:ro"); ok {
		t.Fatal("the key with its :ro suffix authenticates")
	}
	for _, bad := range []string{"a:short:ro", "a:sha256:abcd:ro", "a::ro"} {
		if _, err := ParseKeys(bad); err == nil {
			t.Errorf("ParseKeys(%q) accepted", bad)
		}
	}
}

func TestIsWrite(t *testing.T) {
	for _, tc := range []struct {
		method, route string
		want          bool
	}{
		{http.MethodGet, "/v1/jobs", false},
		{http.MethodPost, "/v1/search", false},
		{http.MethodPost, "/v1/sessions/:session_id/context", false},
		{http.MethodPost, "/v1/sessions/:session_id/events", true},
		{http.MethodPost, "/v1/sessions/:session_id/condensations", true},
		{http.MethodPatch, "/v1/insights/:insight_id", true},
		{http.MethodPut, "/v1/retention", true},
		{http.MethodDelete, "/v1/sessions/:session_id", true},
	} {
		if got := isWrite(tc.method, tc.route); got != tc.want {
			t.Errorf("isWrite(%s %s) = %v", tc.method, tc.route, got)
		}
	}
}

// TestReadPostsAreRoutes: every POST route the read-only guard lets
// through exists, so a renamed route cannot silently become writable.
func TestReadPostsAreRoutes(t *testing.T) {
	c := newClient(t, fullDeps(t), Options{MCP: func(h http.Handler) http.Handler { return h }})
	have := map[string]bool{}
	for _, r := range c.engine.Routes() {
		if r.Method == http.MethodPost {
			have[r.Path] = true
		}
	}
	for route := range readPosts {
		if !have[route] {
			t.Errorf("readPosts names %s, which is no POST route", route)
		}
	}
}

func TestMetadataDepth(t *testing.T) {
	c := newClient(t, fullDeps(t), Options{})
	nest := func(n int) string { return strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n) }
	body := func(meta string) string {
		return `{"user_id":"u1","events":[{"kind":"message","role":"user","content":"x"},{"kind":"message","role":"user","content":"y","metadata":` + meta + `}]}`
	}
	if rec := c.do(http.MethodPost, "/v1/sessions/s1/events", body(nest(maxMetadataDepth))); rec.Code != http.StatusCreated {
		t.Fatalf("metadata %d deep: %d %s", maxMetadataDepth, rec.Code, rec.Body)
	}
	p := problemOf(t, c, http.MethodPost, "/v1/sessions/s1/events", body(`{"a":[`+nest(maxMetadataDepth-1)+`]}`))
	if p.Status != 422 || !hasIssue(p, "events[1].metadata", "max_depth") {
		t.Fatalf("metadata %d deep: %+v", maxMetadataDepth+1, p)
	}
}

type timeoutErr struct{}

func (timeoutErr) Error() string   { return "read tcp: i/o timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

type stalled struct{ sent bool }

func (s *stalled) Read(p []byte) (int, error) {
	if !s.sent {
		s.sent = true
		return copy(p, `{"user_id":"u1","ev`), nil
	}
	return 0, timeoutErr{}
}

// TestSlowBodyIs408: a body cut by the server's read timeout is the
// client's fault, a 408 problem, not a 500.
func TestSlowBodyIs408(t *testing.T) {
	c := newClient(t, fullDeps(t), Options{})
	req := httptest.NewRequest(http.MethodPost, "/v1/sessions/s1/events", &stalled{})
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	c.engine.ServeHTTP(rec, req)
	p := apitest.Decode[apitest.Problem](t, rec)
	if rec.Code != http.StatusRequestTimeout || p.Type != "/docs#problem-body-timeout" {
		t.Fatalf("stalled body: %d %s", rec.Code, rec.Body)
	}
}

// TestNullIsRefused: a null member is a 422 naming it (encoding/json would
// take it as the zero value), except inside free-form metadata.
func TestNullIsRefused(t *testing.T) {
	c := newClient(t, fullDeps(t), Options{})
	p := problemOf(t, c, http.MethodPost, "/v1/sessions/s1/events",
		`{"user_id":"u1","events":[{"kind":"message","role":"user","content":"x","tokens":null}]}`)
	if p.Status != 422 || !hasIssue(p, "events[0].tokens", "type") {
		t.Fatalf("null tokens: %+v", p)
	}
	if p := problemOf(t, c, http.MethodPost, "/v1/search", `{"user_id":"u1","query":"x","explain":null}`); !hasIssue(p, "explain", "type") {
		t.Fatalf("null explain: %+v", p)
	}
	if rec := c.do(http.MethodPost, "/v1/sessions/s1/events",
		`{"user_id":"u1","events":[{"kind":"message","role":"user","content":"null","metadata":{"a":null,"b":[null]}}]}`); rec.Code != http.StatusCreated {
		t.Fatalf("nulls in metadata, the word null in content: %d %s", rec.Code, rec.Body)
	}
}

// TestIntegralFloatIsAnInteger: 5.0 is an integer to JSON Schema, so the
// service takes it as 5; 5.5 stays a 422.
func TestIntegralFloatIsAnInteger(t *testing.T) {
	c := newClient(t, fullDeps(t), Options{})
	if rec := c.do(http.MethodPost, "/v1/sessions/s1/events",
		`{"user_id":"u1","events":[{"kind":"message","role":"user","content":"x","tokens":65535.0}]}`); rec.Code != http.StatusCreated {
		t.Fatalf("tokens 65535.0: %d %s", rec.Code, rec.Body)
	}
	if p := problemOf(t, c, http.MethodPost, "/v1/sessions/s1/events",
		`{"user_id":"u1","events":[{"kind":"message","role":"user","content":"x","tokens":5.5}]}`); p.Status != 422 {
		t.Fatalf("tokens 5.5: %+v", p)
	}
	if p := problemOf(t, c, http.MethodPut, "/v1/retention", `null`); p.Status != 422 || !hasIssue(p, "body", "type") {
		t.Fatalf("a null body: %+v", p)
	}
}
