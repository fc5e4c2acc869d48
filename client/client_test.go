package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// TestRetriesHonourRetryAfter: 503 and 429 answers are retried after the
// wait they name, up to the bound; then the last problem is the error.
func TestRetriesHonourRetryAfter(t *testing.T) {
	var calls atomic.Int32
	var first, second time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		switch n {
		case 1:
			first = time.Now()
			w.Header().Set("Retry-After", "1")
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"type":"/docs#problem-unavailable","title":"Service unavailable","status":503,"detail":"starting"}`))
		case 2:
			second = time.Now()
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
		default:
			if r.Header.Get("Authorization") != "Bearer k-123" || r.Header.Get("Content-Type") != "application/json" {
				t.Errorf("headers %v", r.Header)
			}
			_, _ = w.Write([]byte(`{"results":[{"id":"r1","kind":"fact","text":"lives in Berlin","score":1}],"took_ms":3}`))
		}
	}))
	defer srv.Close()
	c, err := New(srv.URL, WithAPIKey("k-123"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.Search(context.Background(), SearchRequest{UserID: "alice", Query: "home"})
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 3 || len(out.Results) != 1 || out.Results[0].Text != "lives in Berlin" {
		t.Fatalf("calls %d, results %+v", calls.Load(), out.Results)
	}
	if waited := second.Sub(first); waited < 900*time.Millisecond {
		t.Errorf("retried after %v, want the 1 s Retry-After", waited)
	}

	// The bound: one retry allowed, the service stays unavailable.
	calls.Store(0)
	always := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Retry-After", "0")
		w.Header().Set("Content-Type", "application/problem+json")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"type":"/docs#problem-unavailable","title":"Service unavailable","status":503,"detail":"Neo4j is down"}`))
	}))
	defer always.Close()
	c, _ = New(always.URL, WithRetries(1, time.Second))
	_, err = c.Facts(context.Background(), "alice", FactsQuery{})
	var p *Problem
	if !errors.As(err, &p) || p.Status != 503 || p.Detail != "Neo4j is down" || calls.Load() != 2 {
		t.Fatalf("err %v (calls %d), want the 503 problem after 2 calls", err, calls.Load())
	}
}

// TestRetryNeverOutlivesTheContext: a Retry-After longer than what is
// left of the context's deadline ends the call at once.
func TestRetryNeverOutlivesTheContext(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "5")
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	c, _ := New(srv.URL)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	started := time.Now()
	err := c.Ready(ctx)
	if !IsStatus(err, http.StatusServiceUnavailable) || time.Since(started) > 900*time.Millisecond {
		t.Fatalf("err %v after %v", err, time.Since(started))
	}
}

// TestProblemsAreErrors: a validation problem comes back whole and is not
// retried; an answer that is no problem still becomes one.
func TestProblemsAreErrors(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if r.URL.Path == "/v1/facts/x" {
			w.WriteHeader(http.StatusBadGateway)
			_, _ = w.Write([]byte("upstream broke"))
			return
		}
		if r.URL.Path != "/v1/users/alice/facts" || r.Method != http.MethodPost {
			t.Errorf("%s %s", r.Method, r.URL.Path)
		}
		w.Header().Set("Content-Type", "application/problem+json")
		w.WriteHeader(http.StatusUnprocessableEntity)
		_, _ = w.Write([]byte(`{"type":"/docs#problem-validation","title":"Validation failed","status":422,
			"detail":"predicate: is required","errors":[{"field":"predicate","rule":"required","message":"is required"}]}`))
	}))
	defer srv.Close()
	c, _ := New(srv.URL)
	_, err := c.AddFact(context.Background(), "alice", NewFact{Object: "Berlin"})
	var p *Problem
	if !errors.As(err, &p) || p.Status != 422 || p.Type != "/docs#problem-validation" || len(p.Errors) != 1 ||
		p.Errors[0].Field != "predicate" || calls.Load() != 1 {
		t.Fatalf("err %#v (calls %d)", err, calls.Load())
	}
	if err.Error() != "graphmem: 422 Validation failed: predicate: is required" {
		t.Errorf("message %q", err.Error())
	}
	_, err = c.Fact(context.Background(), "x")
	if !errors.As(err, &p) || p.Status != 502 || p.Title != "Bad Gateway" || p.Detail != "upstream broke" {
		t.Fatalf("plain error answer: %#v", err)
	}
}

func TestRetryAfterParsing(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Duration{
		"": time.Second, "3": 3 * time.Second, "-2": 0, "soon": time.Second,
		now.Add(4 * time.Second).Format(http.TimeFormat): 4 * time.Second,
	} {
		if got := retryAfter(in, now); got != want {
			t.Errorf("retryAfter(%q) = %v, want %v", in, got, want)
		}
	}
	if _, err := New("127.0.0.1:8080"); err == nil {
		t.Error("a base URL without scheme was accepted")
	}
}
