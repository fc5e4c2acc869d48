package api

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/graphmem/graphmem/api/apitest"
)

func problemOf(t *testing.T, c *client, method, path string, body any, header ...string) apitest.Problem {
	t.Helper()
	rec := c.do(method, path, body, header...)
	if rec.Code < 400 {
		t.Fatalf("%s %s: status %d, want an error", method, path, rec.Code)
	}
	return apitest.Decode[apitest.Problem](t, rec)
}

func hasIssue(p apitest.Problem, field, rule string) bool {
	for _, e := range p.Errors {
		if e.Field == field && e.Rule == rule {
			return true
		}
	}
	return false
}

func TestValidationNamesFieldAndRule(t *testing.T) {
	c := newClient(t, fullDeps(t), Options{})
	cases := []struct {
		name        string
		body        string
		field, rule string
	}{
		{"missing user", `{"events":[{"kind":"message","role":"user","content":"x"}]}`, "user_id", "required"},
		{"bad user id", `{"user_id":"has space","events":[{"kind":"message","role":"user","content":"x"}]}`, "user_id", "ident"},
		{"no events", `{"user_id":"u1","events":[]}`, "events", "min"},
		{"bad kind", `{"user_id":"u1","events":[{"kind":"shout","content":"x"}]}`, "events[0].kind", "oneof"},
		{"bad role", `{"user_id":"u1","events":[{"kind":"message","role":"god","content":"x"}]}`, "events[0].role", "oneof"},
		{"negative tokens", `{"user_id":"u1","events":[{"kind":"message","role":"user","content":"x","tokens":-1}]}`, "events[0].tokens", "gte"},
		{"unknown field", `{"user_id":"u1","evnts":[]}`, "evnts", "unknown"},
		{"wrong type", `{"user_id":"u1","events":"nope"}`, "events", "type"},
		{"bad occurred_at", `{"user_id":"u1","events":[{"kind":"message","content":"x","occurred_at":"2024-05-01"},{"kind":"message","content":"y","occurred_at":"yesterday"}]}`, "events[1].occurred_at", "datetime"},
		{"not an object", `[{"user_id":"u1"}]`, "body", "type"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := problemOf(t, c, http.MethodPost, "/v1/sessions/s1/events", tc.body)
			if p.Status != http.StatusUnprocessableEntity || !hasIssue(p, tc.field, tc.rule) {
				t.Fatalf("want 422 naming %s/%s, got %+v", tc.field, tc.rule, p)
			}
		})
	}
}

func TestOccurredAtAcceptsTimesAndDates(t *testing.T) {
	deps := fullDeps(t)
	fake := deps.Sessions.(*fakeMemory)
	c := newClient(t, deps, Options{})
	rec := c.do(http.MethodPost, "/v1/sessions/s1/events", `{"user_id":"u1","events":[
		{"kind":"message","content":"a","occurred_at":"2024-05-01T12:30:00+02:00"},
		{"kind":"message","content":"b","occurred_at":"2024-05-01"},
		{"kind":"message","content":"c"}]}`)
	if rec.Code != http.StatusCreated {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	got := fake.appended[0].Events
	if !got[0].OccurredAt.Equal(time.Date(2024, 5, 1, 10, 30, 0, 0, time.UTC)) ||
		!got[1].OccurredAt.Equal(time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)) || !got[2].OccurredAt.IsZero() {
		t.Fatalf("occurred_at = %v, %v, %v", got[0].OccurredAt, got[1].OccurredAt, got[2].OccurredAt)
	}
}

func TestMalformedAndOversizedBodies(t *testing.T) {
	c := newClient(t, fullDeps(t), Options{MaxBodyBytes: 2048})
	if p := problemOf(t, c, http.MethodPost, "/v1/sessions/s1/events", `{"user_id": "u1", "events": [`); p.Status != http.StatusBadRequest {
		t.Fatalf("truncated JSON: %+v", p)
	}
	for _, trailing := range []string{"}", "]", ` {"user_id":"u2"}`, "x"} {
		body := `{"user_id":"u1","events":[{"kind":"message","role":"user","content":"x"}]}` + trailing
		if p := problemOf(t, c, http.MethodPost, "/v1/sessions/s1/events", body); p.Status != http.StatusBadRequest || p.Type != "/docs#problem-malformed-body" {
			t.Fatalf("trailing %q accepted or misreported: %+v", trailing, p)
		}
	}
	if rec := c.do(http.MethodPost, "/v1/sessions/s1/events", `{"user_id":"u1","events":[{"kind":"message","role":"user","content":"x"}]}`+" \n"); rec.Code != http.StatusCreated {
		t.Fatalf("trailing whitespace refused: %d %s", rec.Code, rec.Body)
	}
	big := `{"user_id":"u1","events":[{"kind":"message","role":"user","content":"` + strings.Repeat("x", 4096) + `"}]}`
	if p := problemOf(t, c, http.MethodPost, "/v1/sessions/s1/events", big); p.Status != http.StatusRequestEntityTooLarge {
		t.Fatalf("oversized body: %+v", p)
	}
	if p := problemOf(t, c, http.MethodPost, "/v1/sessions/s1/events", nil, "Content-Type", "text/plain"); p.Status != http.StatusUnsupportedMediaType {
		t.Fatalf("text/plain body: %+v", p)
	}
	if p := problemOf(t, c, http.MethodGet, "/v1/sessions/s1/events?limit=5000", nil); p.Status != 422 || !hasIssue(p, "limit", "lte") {
		t.Fatalf("limit too large: %+v", p)
	}
	// Values gin cannot map name their parameter and say what it must be.
	for _, tc := range []struct{ method, path, field, message string }{
		{http.MethodGet, "/v1/sessions/s1/events?limit=abc", "limit", "must be an integer"},
		{http.MethodGet, "/v1/sessions/s1/events?limit=5&after_seq=-x", "after_seq", "must be an integer"},
		{http.MethodGet, "/v1/users/u1/facts?include_history=maybe", "include_history", "must be true or false"},
		{http.MethodPost, "/v1/sessions/s1/close?wait=soon", "wait", "must be true or false"},
	} {
		p := problemOf(t, c, tc.method, tc.path, nil)
		if p.Status != 422 || !hasIssue(p, tc.field, "type") || p.Errors[0].Message != tc.message {
			t.Fatalf("%s: want 422 naming %s (%s), got %+v", tc.path, tc.field, tc.message, p)
		}
	}
	if p := problemOf(t, c, http.MethodPost, "/v1/sessions/s1/events", `{"user_id":"u1","events":[{"kind":"message","content":"x","tokens":1.5}]}`); p.Status != 422 ||
		len(p.Errors) != 1 || p.Errors[0].Message != "must be an integer, not 1.5" {
		t.Fatalf("fractional tokens: %+v", p)
	}
	if p := problemOf(t, c, http.MethodPost, "/v1/sessions/s1/events", `{"user_id":"u1","events":[]} x`); strings.Count(p.Detail, "malformed") != 0 {
		t.Fatalf("detail repeats the error's own prefix: %q", p.Detail)
	}
	if p := problemOf(t, c, http.MethodPost, "/v1/sessions/s1/condensation-requests", `{"foo":1}`); p.Status != 422 || !hasIssue(p, "foo", "unknown") {
		t.Fatalf("condensation request with a stray field: %+v", p)
	}
	// An embedded struct's name is not a wire name.
	if p := problemOf(t, c, http.MethodGet, "/v1/users/u1/facts?limit=100000", nil); p.Status != 422 || !hasIssue(p, "limit", "lte") {
		t.Fatalf("facts limit too large: %+v", p)
	}
	// A ';' must not silently drop a filter.
	if p := problemOf(t, c, http.MethodGet, "/v1/users/u1/facts?predicate=LIVES_IN;DROP", nil); p.Status != 400 || p.Type != "/docs#problem-malformed-query" {
		t.Fatalf("semicolon in the query string: %+v", p)
	}
	if p := problemOf(t, c, http.MethodGet, "/v1/users/u1/facts?as_of=yesterday", nil); p.Status != 422 || !hasIssue(p, "as_of", "datetime") ||
		!strings.HasPrefix(p.Detail, "as_of: must be an RFC 3339 time") {
		t.Fatalf("bad as_of: %+v", p)
	}
	if p := problemOf(t, c, http.MethodGet, "/v1/sessions/bad%20id/events", nil); p.Status != 422 || !hasIssue(p, "session_id", "ident") {
		t.Fatalf("bad session id: %+v", p)
	}
	if p := problemOf(t, c, http.MethodPost, "/v1/jobs/"+strings.Repeat("j", 301)+"/retry", nil); p.Status != 422 || !hasIssue(p, "job_id", "max") {
		t.Fatalf("job id too long: %+v", p)
	}
}

func TestAuthMapsKeysToTenants(t *testing.T) {
	ring, err := ParseKeys("acme:acme-key-0123456789,beta:beta-key-0123456789")
	if err != nil {
		t.Fatal(err)
	}
	deps := fullDeps(t)
	fake := deps.Sessions.(*fakeMemory)
	c := newClient(t, deps, Options{Keys: ring})
	body := `{"user_id":"u1","events":[{"kind":"message","role":"user","content":"hello"}]}`

	p := problemOf(t, c, http.MethodPost, "/v1/sessions/s1/events", body)
	if p.Status != http.StatusUnauthorized {
		t.Fatalf("no key: %+v", p)
	}
	if p := problemOf(t, c, http.MethodPost, "/v1/sessions/s1/events", body, "Authorization", "Bearer wrong-key-0123456789"); p.Status != 401 {
		t.Fatalf("wrong key: %+v", p)
	}
	if rec := c.do(http.MethodPost, "/v1/sessions/s1/events", body, "Authorization", "Bearer beta-key-0123456789"); rec.Code != http.StatusCreated {
		t.Fatalf("beta key: %d %s", rec.Code, rec.Body)
	}
	if rec := c.do(http.MethodPost, "/v1/sessions/s1/events", body, "X-API-Key", "acme-key-0123456789"); rec.Code != http.StatusCreated {
		t.Fatalf("acme key: %d %s", rec.Code, rec.Body)
	}
	// The scheme is case-insensitive.
	if rec := c.do(http.MethodPost, "/v1/sessions/s1/events", body, "Authorization", "bearer beta-key-0123456789"); rec.Code != http.StatusCreated {
		t.Fatalf("lower-case bearer: %d %s", rec.Code, rec.Body)
	}
	if p := problemOf(t, c, http.MethodPost, "/v1/sessions/s1/events", body, "Authorization", "Basic beta-key-0123456789"); p.Status != 401 {
		t.Fatalf("another scheme: %+v", p)
	}
	if strings.Join(fake.tenants, ",") != "beta,acme,beta" {
		t.Fatalf("tenants seen by the service: %v", fake.tenants)
	}
	// Two different keys name no tenant for sure; the same key twice is fine.
	if p := problemOf(t, c, http.MethodPost, "/v1/sessions/s1/events", body,
		"Authorization", "Bearer beta-key-0123456789", "X-API-Key", "acme-key-0123456789"); p.Status != 401 {
		t.Fatalf("conflicting keys: %+v", p)
	}
	if rec := c.do(http.MethodPost, "/v1/sessions/s1/events", body,
		"Authorization", "Bearer beta-key-0123456789", "X-API-Key", "beta-key-0123456789"); rec.Code != http.StatusCreated {
		t.Fatalf("the same key in both headers: %d %s", rec.Code, rec.Body)
	}
	// Probes stay open so orchestrators need no key.
	if rec := c.do(http.MethodGet, "/healthz", nil); rec.Code != http.StatusOK {
		t.Fatalf("healthz with auth on: %d", rec.Code)
	}
}

func TestAuthOffUsesDefaultTenant(t *testing.T) {
	deps := fullDeps(t)
	fake := deps.Sessions.(*fakeMemory)
	c := newClient(t, deps, Options{})
	rec := c.do(http.MethodPost, "/v1/sessions/s1/events", `{"user_id":"u1","events":[{"kind":"message","role":"user","content":"hi"}]}`)
	if rec.Code != http.StatusCreated || fake.tenants[0] != DefaultTenant {
		t.Fatalf("status %d, tenants %v", rec.Code, fake.tenants)
	}
}

func TestServiceErrorsMapToStatuses(t *testing.T) {
	deps := fullDeps(t)
	c := newClient(t, deps, Options{})
	if p := problemOf(t, c, http.MethodGet, "/v1/entities/ent_1", nil); p.Status != http.StatusNotFound || p.Detail != `entity "ent_1"` {
		t.Fatalf("not found, said without the operation's name: %+v", p)
	}
	if p := problemOf(t, c, http.MethodPost, "/v1/conflicts/c1/resolve", `{"winner":"maybe"}`); p.Status != 422 || !hasIssue(p, "winner", "oneof") {
		t.Fatalf("bad winner: %+v", p)
	}
}
