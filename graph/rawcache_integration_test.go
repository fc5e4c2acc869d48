//go:build integration

package graph_test

import (
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/graph/graphtest"
)

// TestSearchReadsTurnsThroughTheRawCache: search statements return light
// rows and the turns' text comes from the replica's cache, so a second
// search returns what the first did; a session forgotten and stored again
// under the same ids (another record time) is read anew, never served
// from the cache; a question turn's reply comes along.
func TestSearchReadsTurnsThroughTheRawCache(t *testing.T) {
	t.Parallel()
	s, tenant, ctx := graphtest.Store(t), graphtest.Tenant(t), t.Context()
	at := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	store := func(user, reply string) {
		t.Helper()
		if _, err := s.AppendEvents(ctx, tenant, "s1", "alice", "", []graph.NewRawEvent{
			{ID: "e1", Kind: graph.RawMessage, Role: "user", Content: user, OccurredAt: at},
			{ID: "e2", Kind: graph.RawMessage, Role: "assistant", Content: reply, OccurredAt: at},
		}); err != nil {
			t.Fatal(err)
		}
	}
	search := func() graph.RawHit {
		t.Helper()
		c, err := s.SearchText(ctx, graph.SearchScope{Tenant: tenant, UserID: "alice"}, []string{"greyhound"}, nil, true,
			graph.TextLimits{Raw: 10})
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Raw) != 1 {
			t.Fatalf("raw hits %+v, want the one turn naming a greyhound", c.Raw)
		}
		return c.Raw[0]
	}
	store("Which greyhound rescue should I adopt from?", "The Retired Racers Trust rehomes them.")
	first := search()
	if first.Event.Content != "Which greyhound rescue should I adopt from?" || first.Event.Role != "user" ||
		!first.Event.OccurredAt.Equal(at) || first.Next == nil || first.Next.ID != "e2" || first.Next.Role != "assistant" {
		t.Fatalf("first search = %+v (reply %+v)", first.Event, first.Next)
	}
	hits, _ := s.RawCacheStats()
	if again := search(); again.Event.Content != first.Event.Content || again.Next == nil ||
		again.Next.Content != first.Next.Content || !again.Event.RecordedAt.Equal(first.Event.RecordedAt) {
		t.Fatalf("second search = %+v (reply %+v), want what the first returned", again.Event, again.Next)
	}
	if after, _ := s.RawCacheStats(); after < hits+2 {
		t.Errorf("raw cache hits %d → %d over a repeated search; want the turn and its reply counted", hits, after)
	}
	if _, err := s.ForgetSession(ctx, graph.ForgetRequest{Tenant: tenant, UserID: "alice", SessionID: "s1", Who: tenant}); err != nil {
		t.Fatal(err)
	}
	store("Is a greyhound happy in a flat?", "Most are: they sleep much of the day.")
	if got := search(); got.Event.Content != "Is a greyhound happy in a flat?" || got.Next == nil ||
		got.Next.Content != "Most are: they sleep much of the day." {
		t.Fatalf("after the session was stored again, search = %q (reply %+v); want the new turns", got.Event.Content, got.Next)
	}
}
