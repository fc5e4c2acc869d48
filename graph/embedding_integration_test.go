//go:build integration

package graph_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/graph/graphtest"
	"github.com/graphmem/graphmem/ontology"
)

// embeddingStore is a store whose vector index has the local embedder's
// size, the one every test of the shared database uses.
func embeddingStore(t *testing.T) *graph.Store {
	t.Helper()
	s := graphtest.Open(t, graph.Config{EmbeddingDimensions: 384})
	graphtest.Store(t) // the shared schema, applied once
	return s
}

func unitVector(i int) []float32 {
	v := make([]float32, 384)
	v[i%384] = 1
	return v
}

// TestEmbeddingQueue: appended turns wait in the queue, a claim leases them
// (a second claim skips them), completing stores the vectors and empties
// the queue, the session then counts as embedded, vector search finds a
// turn by its vector, and a wrong-sized vector is refused.
func TestEmbeddingQueue(t *testing.T) {
	s, tenant, ctx := embeddingStore(t), graphtest.Tenant(t), t.Context()
	if _, err := s.AppendEvents(ctx, tenant, "s1", "alice", "", events("a", "b", "c")); err != nil {
		t.Fatal(err)
	}
	if done, err := s.SessionEmbedded(ctx, tenant, "s1"); err != nil || done {
		t.Fatalf("fresh session embedded = %v, %v; want false", done, err)
	}
	b, err := s.EmbeddingBacklog(ctx, []string{tenant})
	if err != nil || b.Pending != 3 || b.Oldest.IsZero() {
		t.Fatalf("backlog = %+v, %v; want 3 pending with an oldest time", b, err)
	}

	claimed, err := s.ClaimEmbeddings(ctx, "lane-1", 10, time.Minute, []string{tenant})
	if err != nil || len(claimed) != 3 {
		t.Fatalf("claim = %d items, %v; want 3", len(claimed), err)
	}
	for _, c := range claimed {
		if c.Kind != "raw" || c.Tenant != tenant || c.Text == "" {
			t.Fatalf("claimed item %+v", c)
		}
	}
	if again, err := s.ClaimEmbeddings(ctx, "lane-2", 10, time.Minute, []string{tenant}); err != nil || len(again) != 0 {
		t.Fatalf("second claim took %d leased items (%v); want 0", len(again), err)
	}

	bad := []graph.EmbeddingResult{{ElementID: claimed[0].ElementID, Vector: []float32{1, 2}}}
	if err := s.CompleteEmbeddings(ctx, "m1", bad); !errors.Is(err, graph.ErrInvalid) {
		t.Fatalf("wrong-sized vector: err = %v, want ErrInvalid", err)
	}
	results := make([]graph.EmbeddingResult, len(claimed))
	for i, c := range claimed {
		results[i] = graph.EmbeddingResult{ElementID: c.ElementID, Vector: unitVector(i + 7)}
	}
	results[2].Vector = nil // nothing to embed: leaves the queue all the same
	if err := s.CompleteEmbeddings(ctx, "m1", results); err != nil {
		t.Fatal(err)
	}
	if done, err := s.SessionEmbedded(ctx, tenant, "s1"); err != nil || !done {
		t.Fatalf("session embedded = %v, %v; want true", done, err)
	}
	if b, err := s.EmbeddingBacklog(ctx, []string{tenant}); err != nil || b.Pending != 0 {
		t.Fatalf("backlog after completion = %+v, %v", b, err)
	}

	hits, err := s.VectorSearch(ctx, graph.SearchScope{Tenant: tenant, UserID: "alice"}, graph.VectorQuery{Vec: unitVector(8), Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].Raw.Content != claimed[1].Text || hits[0].Score < 0.99 {
		t.Fatalf("vector search = %+v; want the turn with vector 8 first", hits)
	}
	for _, h := range hits {
		if h.Raw.Content == claimed[2].Text {
			t.Fatalf("the turn left unembedded was found by vector: %+v", h)
		}
	}
	if other, err := s.VectorSearch(ctx, graph.SearchScope{Tenant: tenant, UserID: "bob"}, graph.VectorQuery{Vec: unitVector(8), Limit: 5}); err != nil || len(other) != 0 {
		t.Fatalf("another user's search found %d hits (%v)", len(other), err)
	}
}

// TestEmbeddingLeaseExpires: a claim whose lane died is claimed again once
// its lease has passed.
func TestEmbeddingLeaseExpires(t *testing.T) {
	s, tenant, ctx := embeddingStore(t), graphtest.Tenant(t), t.Context()
	if _, err := s.AppendEvents(ctx, tenant, "s1", "alice", "", events("a")); err != nil {
		t.Fatal(err)
	}
	if first, err := s.ClaimEmbeddings(ctx, "dead-lane", 10, time.Millisecond, []string{tenant}); err != nil || len(first) != 1 {
		t.Fatalf("claim = %d, %v", len(first), err)
	}
	time.Sleep(20 * time.Millisecond)
	if again, err := s.ClaimEmbeddings(ctx, "lane-2", 10, time.Minute, []string{tenant}); err != nil || len(again) != 1 {
		t.Fatalf("claim after the lease = %d, %v; want the item again", len(again), err)
	}
}

// TestRequeueEmbeddingsOnModelChange: memories embedded with one model go
// back on the queue when another model is configured, once.
func TestRequeueEmbeddingsOnModelChange(t *testing.T) {
	s, tenant, ctx := embeddingStore(t), graphtest.Tenant(t), t.Context()
	tenants := []string{tenant}
	if _, err := s.AppendEvents(ctx, tenant, "s1", "alice", "", events("a", "b")); err != nil {
		t.Fatal(err)
	}
	if n, err := s.RequeueEmbeddings(ctx, "m1", tenants); err != nil || n != 0 {
		t.Fatalf("first requeue = %d, %v; want 0 (all queued already)", n, err)
	}
	claimed, err := s.ClaimEmbeddings(ctx, "lane", 10, time.Minute, tenants)
	if err != nil {
		t.Fatal(err)
	}
	var results []graph.EmbeddingResult
	for i, c := range claimed {
		results = append(results, graph.EmbeddingResult{ElementID: c.ElementID, Vector: unitVector(i)})
	}
	if err := s.CompleteEmbeddings(ctx, "m1", results); err != nil {
		t.Fatal(err)
	}
	if n, err := s.RequeueEmbeddings(ctx, "m1", tenants); err != nil || n != 0 {
		t.Fatalf("same model requeued %d (%v)", n, err)
	}
	if n, err := s.RequeueEmbeddings(ctx, "m2", tenants); err != nil || n != 2 {
		t.Fatalf("new model requeued %d (%v); want 2", n, err)
	}
	if n, err := s.RequeueEmbeddings(ctx, "m2", tenants); err != nil || n != 0 {
		t.Fatalf("second start with the new model requeued %d (%v); want 0", n, err)
	}
	if b, err := s.EmbeddingBacklog(ctx, tenants); err != nil || b.Pending != 2 {
		t.Fatalf("backlog = %+v, %v; want 2", b, err)
	}
}

// TestEmbeddingFactSentences: a turn that facts were read from is queued
// again with their sentences; the claim carries them, completing stores
// one vector per fact, and vector search finds the turn by a fact's
// vector (FactVec). A completion that embedded older sentences than the
// turn now holds leaves it queued for the new ones.
func TestEmbeddingFactSentences(t *testing.T) {
	s, tenant, ctx := embeddingStore(t), graphtest.Tenant(t), t.Context()
	if _, err := s.AppendEvents(ctx, tenant, "s1", "alice", "", []graph.NewRawEvent{{ID: "e0", Kind: graph.RawMessage,
		Role: "user", Content: "Our son Arjun arrived on Sunday", OccurredAt: knDay("2024-03-01")}}); err != nil {
		t.Fatal(err)
	}
	claim := func() graph.PendingEmbedding {
		t.Helper()
		c, err := s.ClaimEmbeddings(ctx, "lane", 10, time.Minute, []string{tenant})
		if err != nil || len(c) != 1 {
			t.Fatalf("claim = %+v, %v; want the one turn", c, err)
		}
		return c[0]
	}
	first := claim()
	if len(first.Facts) != 0 {
		t.Fatalf("a turn nothing was read from carries facts %q", first.Facts)
	}
	if err := s.CompleteEmbeddings(ctx, "m1", []graph.EmbeddingResult{{ElementID: first.ElementID, Vector: unitVector(1)}}); err != nil {
		t.Fatal(err)
	}
	write := func(obj, name string) {
		t.Helper()
		if _, err := s.WriteKnowledge(ctx, graph.KnowledgeWrite{Tenant: tenant, UserID: "alice", SessionID: "s1", ObservedAt: knDay("2024-03-01"),
			Extractor: "test", Entities: []graph.EntityInput{knUserEnt(), knEnt(obj, name, ontology.Person)},
			Facts: []graph.FactInput{knFact("user", "PARENT_OF", obj, knSrc("e0"))}}); err != nil {
			t.Fatal(err)
		}
	}
	write("arjun", "Arjun")
	again := claim()
	if again.ElementID != first.ElementID || len(again.Facts) != 1 || !strings.Contains(again.Facts[0], "Arjun") {
		t.Fatalf("after extraction the claim is %+v; want the turn with the fact's sentence", again)
	}
	// Another fact from the same turn arrives while the batch embeds.
	write("maya", "Maya")
	if err := s.CompleteEmbeddings(ctx, "m1", []graph.EmbeddingResult{{ElementID: again.ElementID, Vector: unitVector(1),
		Facts: [][]float32{unitVector(2)}, FactSentences: again.Facts}}); err != nil {
		t.Fatal(err)
	}
	last := claim()
	if len(last.Facts) != 2 {
		t.Fatalf("the turn's newer facts were not queued: %+v", last)
	}
	if err := s.CompleteEmbeddings(ctx, "m1", []graph.EmbeddingResult{{ElementID: last.ElementID, Vector: unitVector(1),
		Facts: [][]float32{unitVector(2), unitVector(3)}, FactSentences: last.Facts}}); err != nil {
		t.Fatal(err)
	}
	if b, err := s.EmbeddingBacklog(ctx, []string{tenant}); err != nil || b.Pending != 0 {
		t.Fatalf("backlog = %+v, %v; want empty", b, err)
	}
	sc := graph.SearchScope{Tenant: tenant, UserID: "alice"}
	for i, want := range map[int]bool{1: false, 3: true} {
		hits, err := s.VectorSearch(ctx, sc, graph.VectorQuery{Vec: unitVector(i), Limit: 5, MinScore: 0.9, FactMinScore: 0.9})
		if err != nil || len(hits) != 1 || hits[0].Raw.ID != "e0" || (hits[0].FactVec != nil) != want || hits[0].Score < 0.99 {
			t.Fatalf("search by vector %d = %+v, %v; want turn e0 once, via a fact: %v", i, hits, err, want)
		}
	}
	// A fresh process (an empty cache) reads the fact vectors back.
	fresh := graphtest.Open(t, graph.Config{EmbeddingDimensions: 384})
	hits, err := fresh.VectorSearch(ctx, sc, graph.VectorQuery{Vec: unitVector(2), Limit: 5, MinScore: 0.9, FactMinScore: 0.9})
	if err != nil || len(hits) != 1 || hits[0].FactVec == nil || len(hits[0].FactVec) != 384 || hits[0].FactVec[2] < 0.99 {
		t.Fatalf("a fresh cache found %+v, %v; want turn e0 via its first fact, with that fact's vector", hits, err)
	}
	// A search without facts scores the texts alone.
	if hits, err := fresh.VectorSearch(ctx, sc, graph.VectorQuery{Vec: unitVector(2), Limit: 5, MinScore: 0.9}); err != nil || len(hits) != 0 {
		t.Fatalf("a search without facts found %+v, %v", hits, err)
	}
}
