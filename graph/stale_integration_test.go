//go:build integration

package graph_test

import (
	"slices"
	"testing"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/graph/graphtest"
	"github.com/graphmem/graphmem/ontology"
)

// TestStaleTurnNamesItsSuccessor: when every fact read from a turn is
// superseded, the turn is stale and names the turn the replacing fact was
// read from (stale_by), which search reads with it; a turn only some of
// whose facts were superseded is not stale, but names its successor and the
// fact types it is stale for.
func TestStaleTurnNamesItsSuccessor(t *testing.T) {
	t.Parallel()
	s, tenant, ctx := graphtest.Store(t), graphtest.Tenant(t), t.Context()
	for _, sess := range []struct{ id, turn, text, at string }{
		{"s1", "e1", "I live in Paris", "2024-01-10"},
		{"s2", "e2", "We moved to Rome in March and I love the wine", "2024-04-02"},
		{"s3", "e3", "Oslo is home now", "2024-09-01"},
	} {
		if _, err := s.AppendEvents(ctx, tenant, sess.id, "alice", "", []graph.NewRawEvent{
			{ID: sess.turn, Kind: graph.RawMessage, Role: "user", Content: sess.text, OccurredAt: knDay(sess.at)},
			{ID: sess.turn + "b", Kind: graph.RawMessage, Role: "assistant", Content: "Noted.", OccurredAt: knDay(sess.at)},
		}); err != nil {
			t.Fatal(err)
		}
	}
	write := func(sess, at, obj, name string, taste bool) {
		t.Helper()
		turn := "e" + sess[1:]
		w := graph.KnowledgeWrite{Tenant: tenant, UserID: "alice", SessionID: sess, ObservedAt: knDay(at),
			Extractor: "test", Entities: []graph.EntityInput{knUserEnt(), knEnt(obj, name, ontology.Place)},
			Facts: []graph.FactInput{knFact("user", "LIVES_IN", obj, knSrc(turn))}}
		if taste {
			w.Entities = append(w.Entities, knEnt("wine", "wine", ontology.Food))
			w.Facts = append(w.Facts, knFact("user", "LIKES", "wine", knSrc(turn)))
		}
		if _, err := s.WriteKnowledge(ctx, w); err != nil {
			t.Fatal(err)
		}
	}
	turn := func(sess string) graph.RawEvent {
		t.Helper()
		after := graph.TurnRef{SessionID: sess, ID: "e" + sess[1:] + "b"}
		got, err := s.PrecedingTurns(ctx, graph.SearchScope{Tenant: tenant, UserID: "alice"}, []graph.TurnRef{after})
		if err != nil || got[after].ID != "e"+sess[1:] {
			t.Fatalf("turn of %s = %+v, %v", sess, got, err)
		}
		return got[after]
	}
	write("s1", "2024-01-10", "paris", "Paris", false)
	if e1 := turn("s1"); e1.Stale || e1.StaleBy != "" {
		t.Fatalf("before the move, e1 = %+v; want current, naming no successor", e1)
	}
	write("s2", "2024-04-02", "rome", "Rome", true)
	if e1 := turn("s1"); !e1.Stale || e1.StaleBy != "e2" || e1.StaleBySession != "s2" || len(e1.StalePredicates) != 0 {
		t.Fatalf("after the move, e1 = stale %v by %q in %q (types %v); want stale by e2 in s2", e1.Stale, e1.StaleBy, e1.StaleBySession, e1.StalePredicates)
	}
	if e2 := turn("s2"); e2.Stale || e2.StaleBy != "" || len(e2.StalePredicates) != 0 {
		t.Fatalf("e2 = %+v; want current", e2)
	}
	write("s3", "2024-09-01", "oslo", "Oslo", false)
	if e2 := turn("s2"); e2.Stale || e2.StaleBy != "e3" || !slices.Equal(e2.StalePredicates, []string{"LIVES_IN"}) ||
		!slices.Equal(e2.CurrentPredicates, []string{"LIKES"}) {
		t.Fatalf("after a second move, e2 = stale %v by %q, stale types %v, current types %v; want stale for LIVES_IN only, by e3",
			e2.Stale, e2.StaleBy, e2.StalePredicates, e2.CurrentPredicates)
	}
}

// TestEndingTurnIsNotStale: the turn that says a fact ended ("Sold the
// car!") states the current truth, so it is not stale by the ending it
// reported, whether the ending closed a current fact (the older turn that
// said it becomes stale) or arrived with nothing to close (stored as
// history from the start).
func TestEndingTurnIsNotStale(t *testing.T) {
	t.Parallel()
	s, tenant, ctx := graphtest.Store(t), graphtest.Tenant(t), t.Context()
	for _, sess := range []struct{ id, turn, text, at string }{
		{"s1", "e1", "I drive a Corolla to work", "2024-01-10"},
		{"s2", "e2", "Sold the Corolla! Cycling now", "2024-04-02"},
		{"s3", "e3", "We gave away the old piano", "2024-05-02"},
	} {
		if _, err := s.AppendEvents(ctx, tenant, sess.id, "bob", "", []graph.NewRawEvent{
			{ID: sess.turn, Kind: graph.RawMessage, Role: "user", Content: sess.text, OccurredAt: knDay(sess.at)},
			{ID: sess.turn + "b", Kind: graph.RawMessage, Role: "assistant", Content: "Noted.", OccurredAt: knDay(sess.at)},
		}); err != nil {
			t.Fatal(err)
		}
	}
	write := func(sess, at, obj, name string, ended bool) {
		t.Helper()
		turn := "e" + sess[1:]
		f := knFact("user", "OWNS", obj, knSrc(turn))
		if ended {
			end := knDay(at)
			f.ValidTo = &end
		}
		if _, err := s.WriteKnowledge(ctx, graph.KnowledgeWrite{Tenant: tenant, UserID: "bob", SessionID: sess, ObservedAt: knDay(at),
			Extractor: "test", Entities: []graph.EntityInput{knUserEnt(), knEnt(obj, name, ontology.Product)},
			Facts: []graph.FactInput{f}}); err != nil {
			t.Fatal(err)
		}
	}
	turn := func(sess string) graph.RawEvent {
		t.Helper()
		after := graph.TurnRef{SessionID: sess, ID: "e" + sess[1:] + "b"}
		got, err := s.PrecedingTurns(ctx, graph.SearchScope{Tenant: tenant, UserID: "bob"}, []graph.TurnRef{after})
		if err != nil || got[after].ID != "e"+sess[1:] {
			t.Fatalf("turn of %s = %+v, %v", sess, got, err)
		}
		return got[after]
	}
	write("s1", "2024-01-10", "corolla", "Corolla", false)
	write("s2", "2024-04-02", "corolla", "Corolla", true)
	if e1 := turn("s1"); !e1.Stale {
		t.Fatalf("e1 = %+v; want stale: the car it owned was sold", e1)
	}
	if e2 := turn("s2"); e2.Stale || len(e2.StalePredicates) != 0 {
		t.Fatalf("e2 = stale %v (types %v); want current: it says the car was sold", e2.Stale, e2.StalePredicates)
	}
	write("s3", "2024-05-02", "piano", "piano", true)
	if e3 := turn("s3"); e3.Stale {
		t.Fatalf("e3 = %+v; want current: an ending with nothing to close is still what the user said last", e3)
	}
}
