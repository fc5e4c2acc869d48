//go:build integration

package graph_test

import (
	"errors"
	"testing"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/ontology"
)

// TestConflictWeakEvidenceStaysOpen: a contradiction below the confidence
// threshold closes nothing; a reviewer decides, and can change their mind.
func TestConflictWeakEvidenceStaysOpen(t *testing.T) {
	t.Parallel()
	k := newKn(t)
	ctx := t.Context()
	k.write("s1", knDay("2024-01-10"), []graph.EntityInput{knUserEnt(), knEnt("paris", "Paris", ontology.Place)},
		knFact("user", "LIVES_IN", "paris", knSay("The user lives in Paris")))
	r := k.write("s2", knDay("2024-03-01"), []graph.EntityInput{knUserEnt(), knEnt("rome", "Rome", ontology.Place)},
		knFact("user", "LIVES_IN", "rome", knConf(0.3), knSay("The user might be living in Rome")))
	if len(r.ConflictsOpened) != 1 || len(r.ConflictsResolved) != 0 || len(r.FactsSuperseded) != 0 {
		t.Fatalf("weak write: %+v", r)
	}
	knEqual(t, "both current while open", knObjects(k.facts(graph.FactQuery{}), false), []string{"LIVES_IN Paris", "LIVES_IN Rome"})
	open := k.conflicts("open")
	if len(open) != 1 || open[0].ID != r.ConflictsOpened[0] || open[0].Resolution != "" || open[0].Winner != "" ||
		open[0].Kind != "exclusive" || open[0].NewFact != "The user might be living in Rome" || !open[0].ResolvedAt.IsZero() {
		t.Fatalf("open conflicts: %+v", open)
	}
	if got := k.conflicts("resolved"); len(got) != 0 {
		t.Fatalf("resolved conflicts: %+v", got)
	}
	// Replaying the weak write opens no second conflict.
	k.write("s2", knDay("2024-03-01"), []graph.EntityInput{knUserEnt(), knEnt("rome", "Rome", ontology.Place)},
		knFact("user", "LIVES_IN", "rome", knConf(0.3)))
	if got := k.conflicts(""); len(got) != 1 {
		t.Fatalf("replay made %d conflicts", len(got))
	}

	// The reviewer keeps the old fact: Rome is closed; it never held.
	c, err := k.s.ResolveConflict(ctx, k.tenant, open[0].ID, graph.ConflictResolution{Winner: "old", Note: "rumour"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Status != "resolved" || c.Resolution != "manual" || c.Winner != "old" || c.Note != "rumour" || c.ResolvedAt.IsZero() {
		t.Fatalf("resolved conflict: %+v", c)
	}
	knEqual(t, "old kept", knObjects(k.facts(graph.FactQuery{}), false), []string{"LIVES_IN Paris"})
	hist := k.facts(graph.FactQuery{IncludeHistory: true})
	rome, paris := knFind(t, hist, "LIVES_IN", "Rome"), knFind(t, hist, "LIVES_IN", "Paris")
	if rome.Status != "superseded" || rome.SupersededBy != paris.ID || !rome.ValidTo.Equal(rome.ValidFrom) {
		t.Fatalf("rejected Rome: %+v", rome)
	}
	// The same decision again changes nothing.
	if c, err = k.s.ResolveConflict(ctx, k.tenant, open[0].ID, graph.ConflictResolution{Winner: "old"}); err != nil || c.Note != "rumour" {
		t.Fatalf("same decision again: %+v, %v", c, err)
	}

	// The reviewer changes their mind: Rome is reopened, Paris closed.
	c, err = k.s.ResolveConflict(ctx, k.tenant, open[0].ID, graph.ConflictResolution{Winner: "new", Note: "confirmed"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Winner != "new" || c.Resolution != "manual" || c.Note != "confirmed" {
		t.Fatalf("flipped conflict: %+v", c)
	}
	knEqual(t, "new wins", knObjects(k.facts(graph.FactQuery{}), false), []string{"LIVES_IN Rome"})
	hist = k.facts(graph.FactQuery{IncludeHistory: true})
	rome, paris = knFind(t, hist, "LIVES_IN", "Rome"), knFind(t, hist, "LIVES_IN", "Paris")
	if rome.Status != "current" || !rome.ValidTo.IsZero() || rome.SupersededBy != "" || !rome.ExpiredAt.IsZero() {
		t.Fatalf("reopened Rome: %+v", rome)
	}
	if paris.Status != "superseded" || paris.SupersededBy != rome.ID || !paris.ValidTo.Equal(rome.ValidFrom) {
		t.Fatalf("closed Paris: %+v", paris)
	}
	if n := knInt(t, `MATCH ()-[r:LIVES_IN {tenant: $t}]->() RETURN count(r)`, map[string]any{"t": k.tenant}); n != 2 {
		t.Fatalf("%d LIVES_IN relationships, want 2 (nothing deleted)", n)
	}

	if _, err := k.s.ResolveConflict(ctx, k.tenant, "conflict_nope", graph.ConflictResolution{Winner: "new"}); !errors.Is(err, graph.ErrNotFound) {
		t.Fatalf("unknown conflict: %v", err)
	}
	if _, err := k.s.ResolveConflict(ctx, k.tenant, open[0].ID, graph.ConflictResolution{Winner: "both"}); !errors.Is(err, graph.ErrInvalid) {
		t.Fatalf("bad winner: %v", err)
	}
	if _, err := k.s.Conflicts(ctx, k.tenant, k.user, "pending", 10); !errors.Is(err, graph.ErrInvalid) {
		t.Fatalf("bad status filter: %v", err)
	}
}

// TestConflictWeakEvidenceResolvedForNew: the reviewer confirms the new
// fact of an open conflict; the old one is closed at the new one's start.
func TestConflictWeakEvidenceResolvedForNew(t *testing.T) {
	t.Parallel()
	k := newKn(t)
	k.write("s1", knDay("2024-01-10"), []graph.EntityInput{knUserEnt(), knEnt("veg", "vegetarian", ontology.Concept)},
		knFact("user", "HAS_DIET", "veg"))
	k.write("s2", knDay("2024-04-01"), []graph.EntityInput{knUserEnt(), knEnt("veg", "vegetarian", ontology.Concept)},
		knFact("user", "HAS_DIET", "veg", knNeg, knConf(0.4), knSay("The user may not be vegetarian anymore")))
	open := k.conflicts("open")
	if len(open) != 1 || open[0].Kind != "negation" {
		t.Fatalf("open conflicts: %+v", open)
	}
	knEqual(t, "both current while open", knObjects(k.facts(graph.FactQuery{}), false),
		[]string{"HAS_DIET vegetarian", "HAS_DIET vegetarian (neg)"})
	if _, err := k.s.ResolveConflict(t.Context(), k.tenant, open[0].ID, graph.ConflictResolution{Winner: "new"}); err != nil {
		t.Fatal(err)
	}
	knEqual(t, "after review", knObjects(k.facts(graph.FactQuery{}), false), []string{"HAS_DIET vegetarian (neg)"})
	old := k.facts(graph.FactQuery{IncludeHistory: true})
	for _, f := range old {
		if f.Polarity == "positive" && (f.Status != "superseded" || !f.ValidTo.Equal(knDay("2024-04-01"))) {
			t.Fatalf("old diet: %+v", f)
		}
	}
	if len(k.conflicts("open")) != 0 || len(k.conflicts("resolved")) != 1 {
		t.Fatal("conflict not resolved")
	}
}

// TestConflictSettledByLaterEvidence: an open conflict is settled without
// review when strong evidence reconfirms one side, or when a third fact
// supersedes both.
func TestConflictSettledByLaterEvidence(t *testing.T) {
	t.Parallel()
	k := newKn(t)
	place := func(key, name string) []graph.EntityInput {
		return []graph.EntityInput{knUserEnt(), knEnt(key, name, ontology.Place)}
	}
	k.write("s1", knDay("2024-01-10"), place("paris", "Paris"), knFact("user", "LIVES_IN", "paris"))
	k.write("s2", knDay("2024-03-01"), place("rome", "Rome"), knFact("user", "LIVES_IN", "rome", knConf(0.3)))
	r := k.write("s3", knDay("2024-04-01"), place("rome", "Rome"), knFact("user", "LIVES_IN", "rome", knConf(0.9)))
	if len(r.FactsReinforced) != 1 || len(r.FactsSuperseded) != 1 || len(r.ConflictsResolved) != 1 {
		t.Fatalf("confirmation: %+v", r)
	}
	knEqual(t, "after confirmation", knObjects(k.facts(graph.FactQuery{}), false), []string{"LIVES_IN Rome"})
	cs := k.conflicts("")
	if len(cs) != 1 || cs[0].Status != "resolved" || cs[0].Resolution != "auto" || cs[0].Winner != "new" {
		t.Fatalf("confirmed conflict: %+v", cs)
	}

	// Reconfirming the old side keeps it; a third fact settles both.
	k2 := newKn(t)
	k2.write("s1", knDay("2024-01-10"), place("paris", "Paris"), knFact("user", "LIVES_IN", "paris"))
	k2.write("s2", knDay("2024-03-01"), place("rome", "Rome"), knFact("user", "LIVES_IN", "rome", knConf(0.3)))
	k2.write("s3", knDay("2024-04-01"), place("paris", "Paris"), knFact("user", "LIVES_IN", "paris"))
	knEqual(t, "old reconfirmed", knObjects(k2.facts(graph.FactQuery{}), false), []string{"LIVES_IN Paris"})
	if cs := k2.conflicts(""); len(cs) != 1 || cs[0].Winner != "old" || cs[0].Status != "resolved" {
		t.Fatalf("reconfirmed old: %+v", cs)
	}
	k3 := newKn(t)
	k3.write("s1", knDay("2024-01-10"), place("paris", "Paris"), knFact("user", "LIVES_IN", "paris"))
	k3.write("s2", knDay("2024-03-01"), place("rome", "Rome"), knFact("user", "LIVES_IN", "rome", knConf(0.3)))
	r = k3.write("s3", knDay("2024-05-01"), place("berlin", "Berlin"), knFact("user", "LIVES_IN", "berlin"))
	if len(r.FactsSuperseded) != 2 || len(r.ConflictsResolved) != 3 {
		t.Fatalf("third fact: %+v", r)
	}
	if open := k3.conflicts("open"); len(open) != 0 {
		t.Fatalf("conflicts left open: %+v", open)
	}
	knEqual(t, "third fact", knObjects(k3.facts(graph.FactQuery{}), false), []string{"LIVES_IN Berlin"})
}
