package api

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/graphmem/graphmem/api/apitest"
)

// TestRoutesMatchSpec fails when a registered route is missing from
// openapi.yaml or the spec names a route that does not exist.
func TestRoutesMatchSpec(t *testing.T) {
	_, doc, _ := apitest.Spec(t)
	c := newClient(t, fullDeps(t), Options{})
	param := regexp.MustCompile(`:([A-Za-z_]+)`)
	registered := map[string]bool{}
	for _, r := range c.engine.Routes() {
		registered[r.Method+" "+param.ReplaceAllString(r.Path, "{$1}")] = true
	}
	documented := map[string]bool{}
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			documented[method+" "+path] = true
		}
	}
	var missing, extra []string
	for r := range registered {
		if !documented[r] {
			missing = append(missing, r)
		}
	}
	for r := range documented {
		if !registered[r] {
			extra = append(extra, r)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 {
		t.Errorf("routes registered but not in openapi.yaml: %v", missing)
	}
	if len(extra) > 0 {
		t.Errorf("routes in openapi.yaml but not registered: %v", extra)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.1") {
		t.Errorf("openapi.yaml is OpenAPI %s, want 3.1", doc.OpenAPI)
	}
}

func TestUnknownRouteAndWrongMethodAreProblems(t *testing.T) {
	c := newClient(t, fullDeps(t), Options{})
	rec := c.do(http.MethodGet, "/v1/no-such-thing", nil)
	if rec.Code != http.StatusNotFound {
		t.Fatalf("unknown route: %d", rec.Code)
	}
	rec = c.do(http.MethodDelete, "/healthz", nil)
	if rec.Code != http.StatusMethodNotAllowed {
		t.Fatalf("wrong method: %d", rec.Code)
	}
	if allow := rec.Header().Get("Allow"); !strings.Contains(allow, "GET") {
		t.Errorf("405 without an Allow header naming GET: %q", allow)
	}
}

func TestOperationalRoutes(t *testing.T) {
	c := newClient(t, fullDeps(t), Options{Version: "test"})
	if rec := c.do(http.MethodGet, "/healthz", nil); rec.Code != http.StatusOK {
		t.Fatalf("healthz: %d", rec.Code)
	}
	if rec := c.do(http.MethodGet, "/readyz", nil); rec.Code != http.StatusOK {
		t.Fatalf("readyz: %d", rec.Code)
	}
	rec := c.do(http.MethodGet, "/openapi.yaml", nil)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "openapi: 3.1") {
		t.Fatalf("openapi.yaml: %d", rec.Code)
	}
	rec = c.do(http.MethodGet, "/metrics", nil)
	for _, want := range []string{"go_goroutines", "process_resident_memory_bytes", `graphmem_http_requests_total{method="GET",route="/healthz",status="200"} 1`} {
		if !strings.Contains(rec.Body.String(), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	rec = c.do(http.MethodGet, "/docs", nil)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `id="problem-validation"`) {
		t.Fatalf("docs page: %d", rec.Code)
	}
}

func TestReadyzFailsWhenNeo4jIsDown(t *testing.T) {
	deps := fullDeps(t)
	deps.Ready = readyFunc(func(context.Context) error { return errors.New("connection refused: bolt://10.0.0.1") })
	var logs strings.Builder
	c := newClient(t, deps, Options{Log: slog.New(slog.NewJSONHandler(&logs, nil))})
	rec := c.do(http.MethodGet, "/readyz", nil)
	if rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("readyz with Neo4j down: %d", rec.Code)
	}
	if strings.Contains(rec.Body.String(), "10.0.0.1") {
		t.Fatal("readyz leaked an internal address")
	}
	// Through the one mapper: its problem type, Retry-After, and the cause in the log only.
	if p := apitest.Decode[apitest.Problem](t, rec); p.Type != "/docs#problem-not-ready" || rec.Header().Get("Retry-After") == "" {
		t.Fatalf("readyz problem %+v, Retry-After %q", p, rec.Header().Get("Retry-After"))
	}
	if !strings.Contains(logs.String(), "10.0.0.1") {
		t.Fatalf("the cause is not logged:\n%s", logs.String())
	}
}

func TestRequestIDIsHonouredOrGenerated(t *testing.T) {
	c := newClient(t, fullDeps(t), Options{})
	rec := c.do(http.MethodGet, "/healthz", nil, "X-Request-ID", "abc-123")
	if got := rec.Header().Get("X-Request-ID"); got != "abc-123" {
		t.Fatalf("request id not echoed: %q", got)
	}
	rec = c.do(http.MethodGet, "/healthz", nil, "X-Request-ID", "bad id with spaces\n")
	if got := rec.Header().Get("X-Request-ID"); got == "" || strings.Contains(got, " ") {
		t.Fatalf("malformed request id not replaced: %q", got)
	}
}

func TestProblemMapperNeverLeaksInternals(t *testing.T) {
	p := toProblem(fmt.Errorf("merge entity: neo4j at bolt://secret-host:7687 said %w", errors.New("boom")))
	if p.Status != 500 || strings.Contains(p.Detail, "secret-host") {
		t.Fatalf("500 problem leaks: %+v", p)
	}
}

func TestParseKeys(t *testing.T) {
	ring, err := ParseKeys("acme:0123456789abcdef0123, beta:sha256:" + strings.Repeat("ab", 32) + "\n# comment\n")
	if err != nil || ring.Len() != 2 {
		t.Fatalf("ParseKeys = %v, %v", ring, err)
	}
	if tenant, ok := ring.tenantFor("0123456789abcdef0123"); !ok || tenant != "acme" {
		t.Fatalf("tenantFor = %q %v", tenant, ok)
	}
	if _, ok := ring.tenantFor("0123456789abcdef012"); ok {
		t.Fatal("a wrong key was accepted")
	}
	dupHash := sha256.Sum256([]byte("0123456789abcdef0123"))
	for _, bad := range []string{"nocolon", "acme:short", "bad tenant!:0123456789abcdef0123", "x:sha256:zz",
		// One key for two tenants (or twice for one), in clear or as its hash.
		"acme:0123456789abcdef0123,beta:0123456789abcdef0123",
		"acme:0123456789abcdef0123\nacme:0123456789abcdef0123",
		"acme:0123456789abcdef0123\nbeta:sha256:" + hex.EncodeToString(dupHash[:])} {
		if _, err := ParseKeys(bad); err == nil {
			t.Errorf("ParseKeys(%q) accepted", bad)
		}
	}
	if ring, err := ParseKeys(" \n"); err != nil || ring != nil {
		t.Fatalf("empty source must turn auth off: %v %v", ring, err)
	}
}

// TestLongRequestsNeverGetLessTime checks the deadline wiring: requests
// that wait for background work get LongRequestTimeout, 10 minutes when
// unset, and never less than ordinary requests.
func TestLongRequestsNeverGetLessTime(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		opts                 Options
		wantSearch, wantLong time.Duration
	}{
		{"defaults", Options{}, time.Minute, 10 * time.Minute},
		{"long set", Options{RequestTimeout: 30 * time.Second, LongRequestTimeout: 5 * time.Minute}, 30 * time.Second, 5 * time.Minute},
		{"request above long", Options{RequestTimeout: 20 * time.Minute, LongRequestTimeout: 10 * time.Minute}, 20 * time.Minute, 20 * time.Minute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			deps := fullDeps(t)
			fake := deps.Sessions.(*fakeMemory)
			c := newClient(t, deps, tc.opts)
			if rec := c.do(http.MethodPost, "/v1/search", `{"user_id":"u1","query":"x"}`); rec.Code != http.StatusOK {
				t.Fatalf("search: %d %s", rec.Code, rec.Body)
			}
			if rec := c.do(http.MethodPost, "/v1/sessions/s1/close", nil); rec.Code != http.StatusOK {
				t.Fatalf("close: %d %s", rec.Code, rec.Body)
			}
			near := func(got, want time.Duration) bool { return got <= want && got > want-5*time.Second }
			if got := fake.deadlines["Search"]; !near(got, tc.wantSearch) {
				t.Errorf("search deadline %s, want %s", got, tc.wantSearch)
			}
			if got := fake.deadlines["Close"]; !near(got, tc.wantLong) {
				t.Errorf("close deadline %s, want %s", got, tc.wantLong)
			}
			// /v1/context may condense the session with the LLM, like the
			// session's own context route.
			if rec := c.do(http.MethodPost, "/v1/context", `{"user_id":"u1","session_id":"s1"}`); rec.Code != http.StatusOK {
				t.Fatalf("context: %d %s", rec.Code, rec.Body)
			}
			if got := fake.deadlines["Context"]; !near(got, tc.wantLong) {
				t.Errorf("context deadline %s, want %s", got, tc.wantLong)
			}
		})
	}
}

// TestStartingAnswersWhileTheAppIsBuilt: before the API is ready, health
// says alive and everything else is a 503 problem naming the step.
func TestStartingAnswersWhileTheAppIsBuilt(t *testing.T) {
	h := Starting("v1", func() string { return "starting the local Neo4j" })
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "starting") {
		t.Fatalf("healthz while starting: %d %s", rec.Code, rec.Body)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/v1/search", nil))
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Content-Type") != problemContentType ||
		rec.Header().Get("Retry-After") == "" || !strings.Contains(rec.Body.String(), "starting the local Neo4j") {
		t.Fatalf("API while starting: %d %v %s", rec.Code, rec.Header(), rec.Body)
	}
}
