package telemetry

import (
	"context"
	"sync"
	"testing"
	"time"
)

// TestTracingOffUnlessConfigured: no endpoint gives spans that record
// nothing; an endpoint (or the standard variables) gives recording spans.
func TestTracingOffUnlessConfigured(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		want bool
	}{
		{"off", Config{}, false},
		{"endpoint", Config{Endpoint: "http://127.0.0.1:1"}, true},
		{"endpoint_url", Config{Endpoint: "http://127.0.0.1:1/v1/traces"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tp, shutdown, err := NewTracerProvider(t.Context(), tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			_, span := Tracer(tp, "test").Start(t.Context(), "x")
			got := span.IsRecording()
			span.End()
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			_ = shutdown(ctx) // nothing listens on the endpoint: a failed flush is fine here
			if got != tc.want || tc.cfg.Enabled() != tc.want {
				t.Fatalf("recording %v, enabled %v, want %v", got, tc.cfg.Enabled(), tc.want)
			}
		})
	}
	if _, span := Tracer(nil, "test").Start(t.Context(), "x"); span.IsRecording() {
		t.Fatal("a nil provider must trace nothing")
	}
}

// TestTallyAddsUpConcurrentCalls: usage recorded under a tally, from many
// goroutines, adds up; usage outside one is dropped, not misattributed.
func TestTallyAddsUpConcurrentCalls(t *testing.T) {
	Record(t.Context(), Usage{Calls: 99}) // no tally: nothing to add to
	var mu sync.Mutex
	var told Usage
	ctx, tally := WithTally(WithScope(t.Context(), Scope{Tenant: "t1", User: "u1", Job: "j1"}), func(u Usage) {
		mu.Lock()
		told = told.Add(u)
		mu.Unlock()
	})
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() { Record(ctx, Usage{Calls: 1, PromptTokens: int64(i), CompletionTokens: 2}) })
	}
	wg.Wait()
	want := Usage{Calls: 50, PromptTokens: 49 * 50 / 2, CompletionTokens: 100}
	if got := tally.Usage(); got != want || got.Tokens() != want.PromptTokens+100 || told != want {
		t.Fatalf("tally %+v, told per call %+v, want %+v", got, told, want)
	}
	if s := ScopeFrom(ctx); s.Tenant != "t1" || s.User != "u1" || s.Job != "j1" {
		t.Fatalf("scope %+v", s)
	}
	if !(Usage{}).Zero() || want.Zero() {
		t.Fatal("Zero")
	}
}
