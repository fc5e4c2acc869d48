//go:build integration

package graph_test

import (
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/graph/graphtest"
)

// TestJobUsageAddsUpPerJobWindowAndUser: usage recorded per attempt adds up
// on the job, in the tenant's window and per user; another tenant and
// another window see none of it.
func TestJobUsageAddsUpPerJobWindowAndUser(t *testing.T) {
	t.Parallel()
	s := graphtest.Store(t)
	tenant, other := graphtest.Tenant(t), graphtest.Tenant(t)
	kind := jobKind(tenant, "usage")
	window := time.Now().UTC().Truncate(time.Hour)
	a := mustEnqueue(t, s, tenant, graph.JobSpec{Kind: kind, Payload: map[string]any{}, UserID: "ann"})
	b := mustEnqueue(t, s, tenant, graph.JobSpec{Kind: kind, Payload: map[string]any{}, UserID: "bob"})
	for _, r := range []struct {
		job string
		u   graph.Usage
	}{
		{a.ID, graph.Usage{Calls: 1, PromptTokens: 100, CompletionTokens: 10}},
		{a.ID, graph.Usage{Calls: 2, EmbedCalls: 1, PromptTokens: 50, CompletionTokens: 5}}, // a second attempt
		{b.ID, graph.Usage{Calls: 1, PromptTokens: 7, CompletionTokens: 3}},
	} {
		if err := s.RecordJobUsage(t.Context(), tenant, r.job, window, r.u); err != nil {
			t.Fatal(err)
		}
	}
	if got := mustGetJob(t, s, tenant, a.ID).Usage; got != (graph.Usage{Calls: 3, EmbedCalls: 1, PromptTokens: 150, CompletionTokens: 15}) {
		t.Fatalf("job a usage %+v", got)
	}
	w, err := s.WindowUsage(t.Context(), tenant, window)
	if err != nil || w != (graph.Usage{Calls: 4, EmbedCalls: 1, PromptTokens: 157, CompletionTokens: 18}) {
		t.Fatalf("window usage %+v, %v", w, err)
	}
	for _, q := range []struct {
		tenant string
		window time.Time
	}{{other, window}, {tenant, window.Add(time.Hour)}} {
		if u, err := s.WindowUsage(t.Context(), q.tenant, q.window); err != nil || u != (graph.Usage{}) {
			t.Fatalf("tenant %s window %s: %+v, %v; want nothing", q.tenant, q.window, u, err)
		}
	}
	users, err := s.UsageByUser(t.Context(), tenant, window)
	if err != nil || len(users) != 2 || users[0].UserID != "ann" || users[0].Jobs != 1 || users[0].Usage.PromptTokens != 150 ||
		users[1].UserID != "bob" || users[1].Usage.CompletionTokens != 3 {
		t.Fatalf("by user: %+v, %v", users, err)
	}
	if none, err := s.UsageByUser(t.Context(), other, window); err != nil || len(none) != 0 {
		t.Fatalf("other tenant by user: %+v, %v", none, err)
	}
}

// TestDeferJobGivesBackTheAttempt: a deferred job is pending until the
// given time with its claim's attempt given back and the reason shown;
// only its owner can defer it; completing it clears the reason.
func TestDeferJobGivesBackTheAttempt(t *testing.T) {
	t.Parallel()
	s := graphtest.Store(t)
	tenant := graphtest.Tenant(t)
	kind := jobKind(tenant, "defer")
	j := mustEnqueue(t, s, tenant, graph.JobSpec{Kind: kind, Payload: map[string]any{}, MaxAttempts: 1})
	claimed := claimOne(t, s, "w1", kind, time.Minute)
	if claimed.Attempts != 1 {
		t.Fatalf("claimed %+v", claimed)
	}
	if err := s.DeferJob(t.Context(), tenant, j.ID, "w2", time.Now().Add(time.Hour), "not mine"); err == nil {
		t.Fatal("a worker that does not hold the job deferred it")
	}
	until := time.Now().Add(-time.Second).UTC().Truncate(time.Millisecond) // due again at once
	if err := s.DeferJob(t.Context(), tenant, j.ID, "w1", until, "token budget exhausted"); err != nil {
		t.Fatal(err)
	}
	got := mustGetJob(t, s, tenant, j.ID)
	if got.Status != graph.JobPending || got.Attempts != 0 || !got.RunAfter.Equal(until) || got.DeferredReason != "token budget exhausted" || got.LastError != "" {
		t.Fatalf("deferred job %+v", got)
	}
	again := claimOne(t, s, "w1", kind, time.Minute) // its single attempt is still there
	if again.Attempts != 1 {
		t.Fatalf("re-claimed %+v", again)
	}
	if err := s.CompleteJob(t.Context(), tenant, j.ID, "w1", nil); err != nil {
		t.Fatal(err)
	}
	if done := mustGetJob(t, s, tenant, j.ID); done.Status != graph.JobDone || done.DeferredReason != "" {
		t.Fatalf("done job %+v", done)
	}
}
