//go:build integration

package graph_test

import (
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/graph/graphtest"
	"github.com/graphmem/graphmem/ontology"
)

// TestAccessCountsAddUpAndStayInTheTenant: batched counts land on raw
// events, summaries, insights and facts, add up across flushes, keep the
// latest access time, come back with the marks ranking needs (a pinned
// fact says so), and never touch another tenant's memory of the same ids.
func TestAccessCountsAddUpAndStayInTheTenant(t *testing.T) {
	t.Parallel()
	s := graphtest.Store(t)
	ctx := t.Context()
	tenant, other := graphtest.Tenant(t), graphtest.Tenant(t)
	type ids struct{ raw, event, insight, fact string }
	fill := func(tenant string) ids {
		if _, err := s.AppendEvents(ctx, tenant, "s1", "alice", "agent", []graph.NewRawEvent{{ID: "e0", Kind: graph.RawMessage,
			Role: "user", Content: "I live in Paris", OccurredAt: knDay("2024-03-01")}}); err != nil {
			t.Fatal(err)
		}
		ev, err := s.AppendCondensation(ctx, tenant, "s1", graph.NewEventNode{ID: "c1", Kind: graph.EventKindCondensation,
			Summary: "lives in Paris", Cover: []string{"e0"}, BasedOnSeq: 1})
		if err != nil {
			t.Fatal(err)
		}
		kr, err := s.WriteKnowledge(ctx, graph.KnowledgeWrite{Tenant: tenant, UserID: "alice", SessionID: "s1", ObservedAt: knDay("2024-03-01"),
			Extractor: "test", Entities: []graph.EntityInput{knUserEnt(), knEnt("paris", "Paris", ontology.Place)},
			Facts: []graph.FactInput{knFact("user", "LIVES_IN", "paris", knSrc("e0"))}})
		if err != nil {
			t.Fatal(err)
		}
		ir, err := s.WriteInsights(ctx, tenant, "alice", []graph.InsightInput{{Key: "home", Text: "Lives in a capital", Confidence: 0.5,
			SourceEventIDs: []string{"e0"}}})
		if err != nil {
			t.Fatal(err)
		}
		return ids{raw: "e0", event: ev.ID, insight: ir.Created[0], fact: kr.FactsCreated[0]}
	}
	mine, theirs := fill(tenant), fill(other)
	pin := true
	if _, err := s.MarkMemory(ctx, tenant, graph.MarkFact, mine.fact, graph.Marks{Pinned: &pin}); err != nil {
		t.Fatal(err)
	}
	refs := []graph.AccessRef{{Kind: graph.AccessRaw, ID: mine.raw, SessionID: "s1"}, {Kind: graph.AccessEvent, ID: mine.event},
		{Kind: graph.AccessInsight, ID: mine.insight}, {Kind: graph.AccessFact, ID: mine.fact}}
	t1, t2 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2025, 2, 1, 0, 0, 0, 0, time.UTC)
	flush := func(n int64, at time.Time) {
		counts := make([]graph.AccessCount, len(refs))
		for i, r := range refs {
			counts[i] = graph.AccessCount{AccessRef: r, N: n + int64(i), Last: at}
		}
		if err := s.RecordAccess(ctx, tenant, counts); err != nil {
			t.Fatal(err)
		}
	}
	flush(2, t2)
	flush(1, t1) // an older flush arriving late keeps the newer time
	stats, err := s.AccessStats(ctx, tenant, refs)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range refs {
		st := stats[graph.AccessKey(r)]
		if want := int64(3 + 2*i); st.Count != want || !st.LastAccessed.Equal(t2) {
			t.Errorf("%s: count %d at %v, want %d at %v", r.Kind, st.Count, st.LastAccessed, want, t2)
		}
		if st.Pinned != (r.Kind == graph.AccessFact) {
			t.Errorf("%s: pinned %v", r.Kind, st.Pinned)
		}
	}
	theirRefs := []graph.AccessRef{{Kind: graph.AccessRaw, ID: theirs.raw, SessionID: "s1"}, {Kind: graph.AccessFact, ID: theirs.fact}}
	got, err := s.AccessStats(ctx, other, theirRefs)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range theirRefs {
		if st := got[graph.AccessKey(r)]; st.Count != 0 || !st.LastAccessed.IsZero() {
			t.Errorf("another tenant's %s was counted: %+v", r.Kind, st)
		}
	}
}
