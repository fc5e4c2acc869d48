//go:build integration

package graph_test

import (
	"errors"
	"testing"

	"github.com/graphmem/graphmem/errs"
	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/graph/graphtest"
)

// TestMarksAndPinnedMemories: facts, insights and summaries can be pinned
// or given an importance; PinnedMemories lists the user's pinned and
// critical ones (critical first), nothing of another user or tenant; a
// correction keeps a fact's marks on its new version; unknown ids and
// importance levels are refused.
func TestMarksAndPinnedMemories(t *testing.T) {
	t.Parallel()
	s := graphtest.Store(t)
	ctx := t.Context()
	tenant, other := graphtest.Tenant(t), graphtest.Tenant(t)
	forgetFixture(t, s, tenant, "alice")
	forgetFixture(t, s, tenant, "bob")
	forgetFixture(t, s, other, "alice")

	facts, err := s.Facts(ctx, tenant, "alice", graph.FactQuery{})
	if err != nil || len(facts) < 3 {
		t.Fatalf("facts %v %v", facts, err)
	}
	ins, err := s.Insights(ctx, tenant, "alice", graph.InsightQuery{})
	if err != nil || len(ins) == 0 {
		t.Fatalf("insights %v %v", ins, err)
	}
	yes, crit, high := true, "critical", "high"
	mark := func(kind, id string, m graph.Marks) graph.Marked {
		t.Helper()
		out, err := s.MarkMemory(ctx, tenant, kind, id, m)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if m := mark(graph.MarkFact, facts[0].ID, graph.Marks{Pinned: &yes, Actor: "ops"}); !m.Pinned || m.Importance != "normal" || m.UserID != "alice" {
		t.Fatalf("pinned fact: %+v", m)
	}
	mark(graph.MarkInsight, ins[0].ID, graph.Marks{Importance: &crit})
	mark(graph.MarkSummary, "alice-sum2", graph.Marks{Importance: &high}) // high alone is not enough
	mark(graph.MarkFact, facts[1].ID, graph.Marks{Importance: &high})
	// Bob's pin does not show for alice.
	bobFacts, _ := s.Facts(ctx, tenant, "bob", graph.FactQuery{})
	mark(graph.MarkFact, bobFacts[0].ID, graph.Marks{Pinned: &yes})

	pins, err := s.PinnedMemories(ctx, tenant, "alice", 20)
	if err != nil {
		t.Fatal(err)
	}
	if len(pins) != 2 || pins[0].Kind != "insight" || pins[0].ID != ins[0].ID || pins[0].Importance != "critical" ||
		pins[1].Kind != "fact" || pins[1].ID != facts[0].ID || !pins[1].Pinned || pins[1].Text == "" {
		t.Fatalf("pinned memories: %+v", pins)
	}
	if o, _ := s.PinnedMemories(ctx, other, "alice", 20); len(o) != 0 {
		t.Fatalf("the other tenant's alice has pins: %+v", o)
	}
	// Marks read back on the fact, and unpinning takes it out.
	got, err := s.FactByID(ctx, tenant, facts[1].ID)
	if err != nil || got.Importance != "high" || got.Pinned {
		t.Fatalf("fact marks: %+v %v", got.Fact, err)
	}
	// A correction keeps the pin on the new version.
	obj := "Lyon"
	res, err := s.CorrectFact(ctx, tenant, facts[0].ID, graph.FactChange{Object: &obj, Edit: graph.FactEdit{Actor: "ops"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Fact.ID == facts[0].ID || !res.Fact.Pinned {
		t.Fatalf("corrected fact lost its pin: %+v", res.Fact.Fact)
	}
	pins, _ = s.PinnedMemories(ctx, tenant, "alice", 20)
	if len(pins) != 2 || pins[1].ID != res.Fact.ID {
		t.Fatalf("after the correction: %+v", pins)
	}
	no := false
	mark(graph.MarkFact, res.Fact.ID, graph.Marks{Pinned: &no})
	if pins, _ = s.PinnedMemories(ctx, tenant, "alice", 20); len(pins) != 1 {
		t.Fatalf("after unpinning: %+v", pins)
	}

	bad := "urgent"
	if _, err := s.MarkMemory(ctx, tenant, graph.MarkFact, facts[0].ID, graph.Marks{Importance: &bad}); !errors.Is(err, errs.ErrInvalid) {
		t.Fatalf("importance %q: %v", bad, err)
	}
	for _, kind := range []string{graph.MarkFact, graph.MarkInsight, graph.MarkSummary} {
		if _, err := s.MarkMemory(ctx, other, kind, "nope", graph.Marks{Pinned: &yes}); !errors.Is(err, errs.ErrNotFound) {
			t.Fatalf("%s nope: %v", kind, err)
		}
	}
	// Another tenant cannot mark this tenant's fact.
	if _, err := s.MarkMemory(ctx, other, graph.MarkFact, facts[1].ID, graph.Marks{Pinned: &yes}); !errors.Is(err, errs.ErrNotFound) {
		t.Fatalf("cross-tenant mark: %v", err)
	}
}
