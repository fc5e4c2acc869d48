//go:build integration

package graph_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/graph/graphtest"
)

// randomVector is a reproducible dense vector of the index's size.
func randomVector(r *rand.Rand) []float32 {
	v := make([]float32, 384)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

// embedAll claims every queued memory of the tenant and stores a vector
// from vec for each, through store s (one replica's lane).
func embedAll(t *testing.T, s *graph.Store, tenant string, vec func(text string) []float32) {
	t.Helper()
	claimed, err := s.ClaimEmbeddings(t.Context(), "lane", 100, time.Minute, []string{tenant})
	if err != nil {
		t.Fatal(err)
	}
	results := make([]graph.EmbeddingResult, len(claimed))
	for i, c := range claimed {
		results[i] = graph.EmbeddingResult{ElementID: c.ElementID, Vector: vec(c.Text)}
	}
	if err := s.CompleteEmbeddings(t.Context(), "m1", results); err != nil {
		t.Fatal(err)
	}
}

func hitTexts(hits []graph.VectorHit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.Raw.Content
	}
	return out
}

// TestVectorCacheMatchesCypherScan: the Go scan over cached vectors ranks
// and scores exactly as the Cypher scan does (a store with the cache off),
// for the whole user and for one session.
func TestVectorCacheMatchesCypherScan(t *testing.T) {
	cached := embeddingStore(t)
	scan := graphtest.Open(t, graph.Config{EmbeddingDimensions: 384, VectorCacheBytes: -1})
	tenant, ctx := graphtest.Tenant(t), t.Context()
	ids := make([]string, 40)
	for i := range ids {
		ids[i] = string(rune('a'+i%26)) + string(rune('a'+i/26))
	}
	for i, session := range []string{"s1", "s2"} {
		if _, err := cached.AppendEvents(ctx, tenant, session, "alice", "", events(ids[i*20:(i+1)*20]...)); err != nil {
			t.Fatal(err)
		}
	}
	vecs := map[string][]float32{}
	r := rand.New(rand.NewPCG(1, 2))
	embedAll(t, cached, tenant, func(text string) []float32 {
		vecs[text] = randomVector(r)
		return vecs[text]
	})
	if len(vecs) != 40 {
		t.Fatalf("embedded %d turns, want 40", len(vecs))
	}
	q := randomVector(r)
	for _, sc := range []graph.SearchScope{{Tenant: tenant, UserID: "alice"}, {Tenant: tenant, UserID: "alice", SessionID: "s2"}} {
		want, err := scan.VectorSearch(ctx, sc, graph.VectorQuery{Vec: q, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		got, err := cached.VectorSearch(ctx, sc, graph.VectorQuery{Vec: q, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if len(want) != 10 || !slices.Equal(hitTexts(got), hitTexts(want)) {
			t.Fatalf("session %q: cache found %v, Cypher scan %v", sc.SessionID, hitTexts(got), hitTexts(want))
		}
		for i := range got {
			if math.Abs(got[i].Score-want[i].Score) > 1e-5 {
				t.Fatalf("hit %d: cache score %.6f, Cypher %.6f", i, got[i].Score, want[i].Score)
			}
			if sc.SessionID != "" && got[i].Raw.SessionID != sc.SessionID {
				t.Fatalf("session-scoped search returned a turn of %s", got[i].Raw.SessionID)
			}
		}

		// The turns the caller holds come back by ref, in rank order, the
		// others with their nodes; a floor above the 5th hit's score cuts
		// the list there.
		held := map[string]bool{want[0].Raw.ID: true, want[3].Raw.ID: true}
		got, err = cached.VectorSearch(ctx, sc, graph.VectorQuery{Vec: q, Limit: 10, Kinds: []string{"raw"},
			MinScore: want[4].Score - 1e-6, Held: func(ref graph.VectorRef) bool { return ref.Kind == "raw" && held[ref.ID] }})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 5 {
			t.Fatalf("with a floor at the 5th score: %d hits, want 5", len(got))
		}
		for i, h := range got {
			id := h.Raw.ID
			if h.Held {
				id = h.Ref.ID
				if h.Raw.Content != "" || h.Ref.SessionID != want[i].Raw.SessionID {
					t.Fatalf("held hit %d read its node or lost its session: %+v", i, h)
				}
			}
			if id != want[i].Raw.ID || h.Held != held[id] {
				t.Fatalf("hit %d = %s (held %v), want %s (held %v)", i, id, h.Held, want[i].Raw.ID, held[want[i].Raw.ID])
			}
		}
	}
}

// TestVectorCacheAcrossReplicas: a replica sees vectors its own lane stores
// at once, another replica's after its refresh interval, and never returns
// a memory deleted since it cached it.
func TestVectorCacheAcrossReplicas(t *testing.T) {
	a := embeddingStore(t)
	b := graphtest.Open(t, graph.Config{EmbeddingDimensions: 384, VectorCacheRefresh: 300 * time.Millisecond})
	tenant, ctx := graphtest.Tenant(t), t.Context()
	sc := graph.SearchScope{Tenant: tenant, UserID: "alice"}
	if _, err := a.AppendEvents(ctx, tenant, "s1", "alice", "", events("a")); err != nil {
		t.Fatal(err)
	}
	embedAll(t, a, tenant, func(string) []float32 { return unitVector(1) })
	for _, s := range []*graph.Store{a, b} { // both cache alice's one vector
		if hits, err := s.VectorSearch(ctx, sc, graph.VectorQuery{Vec: unitVector(1), Limit: 5}); err != nil || len(hits) != 1 {
			t.Fatalf("first search = %d hits, %v; want 1", len(hits), err)
		}
	}

	if _, err := a.AppendEvents(ctx, tenant, "s2", "alice", "", events("b")); err != nil {
		t.Fatal(err)
	}
	embedAll(t, a, tenant, func(string) []float32 { return unitVector(2) })
	hits, err := a.VectorSearch(ctx, sc, graph.VectorQuery{Vec: unitVector(2), Limit: 1})
	if err != nil || len(hits) != 1 || hits[0].Raw.SessionID != "s2" {
		t.Fatalf("replica that embedded: %+v, %v; want the new turn first at once", hits, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		hits, err := b.VectorSearch(ctx, sc, graph.VectorQuery{Vec: unitVector(2), Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) == 1 && hits[0].Raw.SessionID == "s2" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("other replica still finds %+v after 5 s; want the new turn", hits)
		}
		time.Sleep(100 * time.Millisecond)
	}

	if _, err := a.ForgetSession(ctx, graph.ForgetRequest{Tenant: tenant, UserID: "alice", SessionID: "s2"}); err != nil {
		t.Fatal(err)
	}
	// Both caches still rank the deleted turn first: limit 1 makes the
	// first read come back empty and the second fetch the turn of s1.
	for _, s := range []*graph.Store{a, b} {
		hits, err := s.VectorSearch(ctx, sc, graph.VectorQuery{Vec: unitVector(2), Limit: 1})
		if err != nil || len(hits) != 1 || hits[0].Raw.SessionID != "s1" {
			t.Fatalf("after forgetting s2: %+v, %v; want only the turn of s1", hits, err)
		}
	}
}

// TestVectorCacheTooSmall: a user whose vectors exceed the bound is searched
// by the Cypher scan, with the same result.
func TestVectorCacheTooSmall(t *testing.T) {
	tiny := graphtest.Open(t, graph.Config{EmbeddingDimensions: 384, VectorCacheBytes: 384 * 4})
	s, tenant, ctx := embeddingStore(t), graphtest.Tenant(t), t.Context()
	if _, err := s.AppendEvents(ctx, tenant, "s1", "alice", "", events("a", "b", "c")); err != nil {
		t.Fatal(err)
	}
	n := 0
	embedAll(t, s, tenant, func(string) []float32 { n++; return unitVector(n) })
	for range 2 {
		hits, err := tiny.VectorSearch(ctx, graph.SearchScope{Tenant: tenant, UserID: "alice"}, graph.VectorQuery{Vec: unitVector(2), Limit: 5})
		if err != nil || len(hits) != 3 || hits[0].Score < 0.99 {
			t.Fatalf("uncached search = %+v, %v; want 3 hits, the one with vector 2 first", hits, err)
		}
	}
}

// TestVectorCacheConcurrent: searches of one user running while the lane
// stores more of their vectors (run with -race) each see a consistent
// list, and the last ones see every vector.
func TestVectorCacheConcurrent(t *testing.T) {
	s := graphtest.Open(t, graph.Config{EmbeddingDimensions: 384, VectorCacheRefresh: 10 * time.Millisecond})
	tenant, ctx := graphtest.Tenant(t), t.Context()
	sc := graph.SearchScope{Tenant: tenant, UserID: "alice"}
	if _, err := s.AppendEvents(ctx, tenant, "s0", "alice", "", events("a")); err != nil {
		t.Fatal(err)
	}
	embedAll(t, s, tenant, func(string) []float32 { return unitVector(0) })
	stop := make(chan struct{})
	errc := make(chan error, 4)
	for range 4 {
		go func() {
			for {
				select {
				case <-stop:
					errc <- nil
					return
				default:
				}
				hits, err := s.VectorSearch(ctx, sc, graph.VectorQuery{Vec: unitVector(0), Limit: 20})
				if err == nil && (len(hits) == 0 || hits[0].Raw.SessionID != "s0") {
					err = fmt.Errorf("search found %d hits, first %+v; want the turn of s0 first", len(hits), hits)
				}
				if err != nil {
					errc <- err
					return
				}
			}
		}()
	}
	for i := 1; i <= 5; i++ {
		session := fmt.Sprintf("s%d", i)
		if _, err := s.AppendEvents(ctx, tenant, session, "alice", "", events("a")); err != nil {
			t.Fatal(err)
		}
		embedAll(t, s, tenant, func(string) []float32 { return unitVector(i) })
	}
	close(stop)
	for range 4 {
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
	}
	hits, err := s.VectorSearch(ctx, sc, graph.VectorQuery{Vec: unitVector(0), Limit: 20})
	if err != nil || len(hits) != 6 {
		t.Fatalf("after the lane: %d hits (%v), want all 6 turns", len(hits), err)
	}
}

// TestVectorSearchSupersededInsights: a superseded insight the cache read
// as such is left out without history in one round trip (it was the best
// match, so counting it would have cost a second read), comes back with
// history, and no hit carries an embedding.
func TestVectorSearchSupersededInsights(t *testing.T) {
	var mu sync.Mutex
	trips := map[string]int{}
	s := graphtest.Open(t, graph.Config{EmbeddingDimensions: 384, Observe: func(op string, _ time.Duration, _ error) {
		mu.Lock()
		trips[op]++
		mu.Unlock()
	}})
	graphtest.Store(t) // the shared schema, applied once
	tenant, ctx := graphtest.Tenant(t), t.Context()
	if _, err := s.AppendEvents(ctx, tenant, "s1", "alice", "", events("t1", "t2", "t3")); err != nil {
		t.Fatal(err)
	}
	old, err := s.WriteInsights(ctx, tenant, "alice", []graph.InsightInput{{Key: "travel", Text: "Travels monthly", Confidence: 0.5}})
	if err != nil || len(old.Created) != 1 {
		t.Fatalf("first insight: %+v, %v", old, err)
	}
	if _, err := s.WriteInsights(ctx, tenant, "alice", []graph.InsightInput{{Key: "travel", Text: "Travels weekly", Confidence: 0.5}}); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	vecs := map[string][]float32{}
	embedAll(t, s, tenant, func(text string) []float32 {
		vecs[text] = randomVector(r)
		return vecs[text]
	})
	q := vecs["Travels monthly"] // the superseded insight is the nearest
	if q == nil || len(vecs) != 5 {
		t.Fatalf("embedded %d memories (%v), want 3 turns and 2 insights", len(vecs), vecs)
	}
	search := func(history bool) []graph.VectorHit {
		t.Helper()
		mu.Lock()
		trips["search.vector_nodes"] = 0
		mu.Unlock()
		hits, err := s.VectorSearch(ctx, graph.SearchScope{Tenant: tenant, UserID: "alice", IncludeHistory: history},
			graph.VectorQuery{Vec: q, Limit: 2, Kinds: []string{"insight", "raw"}})
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		if n := trips["search.vector_nodes"]; n != 1 {
			t.Fatalf("history %v: %d node reads, want 1", history, n)
		}
		return hits
	}
	search(false) // loads the cache, which then knows the status
	hits := search(false)
	if len(hits) != 2 {
		t.Fatalf("without history: %d hits, want 2", len(hits))
	}
	for _, h := range hits {
		if h.Kind == "insight" && (h.Insight.Status != "current" || h.Insight.Text != "Travels weekly") {
			t.Fatalf("without history: insight %+v", h.Insight)
		}
	}
	hits = search(true)
	if len(hits) != 2 || hits[0].Kind != "insight" || hits[0].Insight.ID != old.Created[0] || hits[0].Insight.Status != "superseded" {
		t.Fatalf("with history the superseded insight ranks first: %+v", hits)
	}
}

// TestVectorsOfHeldMemories: Vectors returns the stored vector of each
// memory asked for, by tier, session and id (two sessions reuse the turn
// ids), the same from the cache as from the graph (a store with the cache
// off), and nothing for a memory not embedded or of another user.
func TestVectorsOfHeldMemories(t *testing.T) {
	cached := embeddingStore(t)
	uncached := graphtest.Open(t, graph.Config{EmbeddingDimensions: 384, VectorCacheBytes: -1})
	tenant, ctx := graphtest.Tenant(t), t.Context()
	for _, session := range []string{"s1", "s2"} {
		if _, err := cached.AppendEvents(ctx, tenant, session, "alice", "", events("a", "b")); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := cached.AppendEvents(ctx, tenant, "s3", "bob", "", events("a")); err != nil {
		t.Fatal(err)
	}
	n := 0
	embedAll(t, cached, tenant, func(string) []float32 { n++; return unitVector(n) })
	if _, err := cached.AppendEvents(ctx, tenant, "s1", "alice", "", events("c")); err != nil { // not embedded
		t.Fatal(err)
	}
	sc := graph.SearchScope{Tenant: tenant, UserID: "alice"}
	if _, err := cached.VectorSearch(ctx, sc, graph.VectorQuery{Vec: unitVector(1), Limit: 1}); err != nil { // loads the cache
		t.Fatal(err)
	}
	refs := []graph.VectorRef{{Kind: "raw", SessionID: "s1", ID: "a"}, {Kind: "raw", SessionID: "s2", ID: "a"},
		{Kind: "raw", SessionID: "s1", ID: "c"}, {Kind: "raw", SessionID: "s3", ID: "a"}}
	got, err := cached.Vectors(ctx, sc, refs)
	if err != nil {
		t.Fatal(err)
	}
	want, err := uncached.Vectors(ctx, sc, refs)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []map[graph.VectorRef][]float32{got, want} {
		a1, a2 := m[refs[0]], m[refs[1]]
		if len(m) != 2 || len(a1) != 384 || len(a2) != 384 || slices.Equal(a1, a2) {
			t.Fatalf("vectors = %d of %v; want the two embedded turns of alice named a, each its own", len(m), refs)
		}
	}
	for _, ref := range refs[:2] {
		for i := range got[ref] {
			if math.Abs(float64(got[ref][i]-want[ref][i])) > 1e-6 {
				t.Fatalf("%v: the cache's vector differs from the graph's at %d", ref, i)
			}
		}
	}
}
