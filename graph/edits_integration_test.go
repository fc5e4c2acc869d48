//go:build integration

package graph_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/graphmem/graphmem/errs"
	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/ontology"
)

func (k *kn) add(in graph.NewFact) graph.FactEditResult {
	k.t.Helper()
	in.Tenant, in.UserID = k.tenant, k.user
	res, err := k.s.AddFact(k.t.Context(), in)
	if err != nil {
		k.t.Fatalf("add fact %+v: %v", in, err)
	}
	return res
}

// TestEditsAddCorrectRetract: a fact added by an edit resolves its object
// against the user's entities and supersedes the extracted home; a
// correction replaces it by a new version; a retraction withdraws that
// version and brings the extracted home back; each step is recorded with
// its actor and reason, and the retracted fact is gone from current reads
// and search but kept in history.
func TestEditsAddCorrectRetract(t *testing.T) {
	t.Parallel()
	k := newKn(t)
	ctx := t.Context()
	k.write("s1", knDay("2024-02-03"), []graph.EntityInput{knUserEnt(), knEnt("paris", "Paris", ontology.Place),
		knEnt("munich", "Munich", ontology.Place)},
		knFact("user", "LIVES_IN", "paris", knSay("The user lives in Paris")),
		knFact("user", "LIKES", "munich", knSay("The user likes Munich")))

	moved := knDay("2025-03-01")
	added := k.add(graph.NewFact{Subject: "user", Predicate: "LIVES_IN", Object: "munich", ValidFrom: &moved,
		Edit: graph.FactEdit{Actor: "agent-7", Reason: "the user said so in a call"}})
	if added.Edit.Kind != "add" || added.Edit.Actor != "agent-7" || added.Edit.Reason != "the user said so in a call" ||
		added.Edit.Outcome != "created" || added.Edit.FactID != added.Fact.ID {
		t.Fatalf("add edit: %+v", added.Edit)
	}
	if added.Fact.Object != "Munich" || added.Fact.Status != "current" || !added.Fact.ValidFrom.Equal(moved) ||
		added.Fact.Confidence != 1 || added.Fact.ExtractedBy != "edit" || len(added.Superseded) != 1 || len(added.ConflictsResolved) != 1 {
		t.Fatalf("added fact: %+v", added)
	}
	all := k.facts(graph.FactQuery{IncludeHistory: true})
	paris := knFind(t, all, "LIVES_IN", "Paris")
	if paris.Status != "superseded" || paris.SupersededBy != added.Fact.ID || added.Superseded[0] != paris.ID {
		t.Fatalf("the extracted home was not superseded by the added fact: %+v", paris)
	}
	likes := knFind(t, all, "LIKES", "Munich")
	if likes.ObjectID != added.Fact.ObjectID {
		t.Fatalf("the added fact's object %q was not resolved to the stored Munich %q", added.Fact.ObjectID, likes.ObjectID)
	}

	// Correct the city: a new version, the old one closed with an empty
	// interval (it kept the start date), both listing the edit.
	city := "Hamburg"
	corrected, err := k.s.CorrectFact(ctx, k.tenant, added.Fact.ID, graph.FactChange{Object: &city,
		Edit: graph.FactEdit{Reason: "misheard the city"}})
	if err != nil {
		t.Fatal(err)
	}
	if corrected.Fact.Object != "Hamburg" || corrected.Fact.Status != "current" || !corrected.Fact.ValidFrom.Equal(moved) ||
		corrected.Edit.Kind != "correct" || corrected.Edit.FactID != added.Fact.ID || corrected.Edit.NewFactID != corrected.Fact.ID ||
		!slices.Contains(corrected.Superseded, added.Fact.ID) {
		t.Fatalf("correction: %+v", corrected)
	}
	old, err := k.s.FactByID(ctx, k.tenant, added.Fact.ID)
	if err != nil {
		t.Fatal(err)
	}
	if old.Status != "superseded" || old.SupersededBy != corrected.Fact.ID || !old.ValidTo.Equal(old.ValidFrom) ||
		len(old.Edits) != 2 || old.Edits[0].Kind != "add" || old.Edits[1].Kind != "correct" || old.Edits[1].Reason != "misheard the city" {
		t.Fatalf("old version after the correction: %+v", old)
	}
	if _, err := k.s.CorrectFact(ctx, k.tenant, added.Fact.ID, graph.FactChange{Object: &city}); !errors.Is(err, errs.ErrConflict) {
		t.Fatalf("correcting a superseded version: %v, want a conflict", err)
	}

	// Retract the corrected version: Paris is current again, nothing of
	// Hamburg is left in current reads or search, history keeps it.
	hamburg := corrected.Fact.ID
	ret, err := k.s.RetractFact(ctx, k.tenant, hamburg, false, graph.FactEdit{Actor: "alice", Reason: "never moved"})
	if err != nil {
		t.Fatal(err)
	}
	if ret.Fact.Status != "retracted" || ret.Edit.Kind != "retract" || ret.Edit.Actor != "alice" ||
		!slices.Equal(ret.Reopened, []string{paris.ID}) {
		t.Fatalf("retraction: %+v", ret)
	}
	knEqual(t, "current facts after the retraction", knObjects(k.facts(graph.FactQuery{}), false),
		[]string{"LIKES Munich", "LIVES_IN Paris"})
	knEqual(t, "history", knObjects(k.facts(graph.FactQuery{IncludeHistory: true}), true),
		[]string{"LIKES Munich [current]", "LIVES_IN Hamburg [retracted]", "LIVES_IN Munich [superseded]", "LIVES_IN Paris [current]"})
	if again := knFind(t, k.facts(graph.FactQuery{}), "LIVES_IN", "Paris"); !again.ValidTo.IsZero() || again.ID != paris.ID {
		t.Fatalf("Paris is not current again, as it was: %+v", again)
	}
	at := knDay("2025-06-01")
	knEqual(t, "as of after the retracted move", knObjects(k.facts(graph.FactQuery{AsOf: &at}), false),
		[]string{"LIKES Munich", "LIVES_IN Paris"})
	for _, history := range []bool{false, true} {
		c, err := k.s.SearchText(ctx, graph.SearchScope{Tenant: k.tenant, UserID: k.user, IncludeHistory: history},
			[]string{"hamburg", "lives"}, nil, false, graph.TextLimits{Facts: 10})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range c.Facts {
			if h.Fact.ID == hamburg {
				t.Fatalf("search (history %v) found the retracted fact: %+v", history, h.Fact)
			}
		}
	}
	if _, err := k.s.RetractFact(ctx, k.tenant, hamburg, false, graph.FactEdit{}); !errors.Is(err, errs.ErrConflict) {
		t.Fatalf("retracting twice: %v, want a conflict", err)
	}

	// Purge it: the fact is gone, its edits stay without its text.
	purged, err := k.s.RetractFact(ctx, k.tenant, hamburg, true, graph.FactEdit{Reason: "privacy"})
	if err != nil {
		t.Fatal(err)
	}
	if purged.Edit.Kind != "purge" || purged.Edit.Fact != "" {
		t.Fatalf("purge edit: %+v", purged.Edit)
	}
	if _, err := k.s.FactByID(ctx, k.tenant, hamburg); !errors.Is(err, errs.ErrNotFound) {
		t.Fatalf("purged fact still readable: %v", err)
	}
	if _, err := k.s.RetractFact(ctx, graphTenantOther(k), added.Fact.ID, false, graph.FactEdit{}); !errors.Is(err, errs.ErrNotFound) {
		t.Fatalf("another tenant retracting the fact: %v, want not found", err)
	}
}

// TestEditsValidate: bad input names the field and writes nothing.
func TestEditsValidate(t *testing.T) {
	t.Parallel()
	k := newKn(t)
	cases := []struct {
		in    graph.NewFact
		field string
	}{
		{graph.NewFact{Subject: "user", Predicate: "LOVES_DEARLY", Object: "tea"}, "predicate"},
		{graph.NewFact{Subject: "user", Predicate: "LIKES", Object: "!!!"}, "object"},
		{graph.NewFact{Subject: "me", Predicate: "LIKES", Object: "user"}, "object"},
		{graph.NewFact{Subject: "user", Predicate: "LIKES", Object: "tea", ObjectType: "Spaceship"}, "object_type"},
		{graph.NewFact{Subject: "user", Predicate: "LIKES", Object: "tea", Polarity: "maybe"}, "polarity"},
	}
	for _, c := range cases {
		c.in.Tenant, c.in.UserID = k.tenant, k.user
		_, err := k.s.AddFact(t.Context(), c.in)
		var v *errs.ValidationError
		if !errors.As(err, &v) || v.Fields[0].Field != c.field {
			t.Errorf("%+v: %v, want a validation error on %s", c.in, err, c.field)
		}
	}
	if got := k.facts(graph.FactQuery{IncludeHistory: true}); len(got) != 0 {
		t.Fatalf("invalid edits wrote facts: %v", knObjects(got, true))
	}
}

// graphTenantOther is a tenant that is not the test's.
func graphTenantOther(k *kn) string { return k.tenant + "-other" }
