//go:build integration

package graph_test

import (
	"errors"
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/ontology"
)

// TestInsightsSupersedeByKey: a new text under a current key supersedes
// it, the same text is a no-op; insights link to their entities and the
// raw events they were derived from.
func TestInsightsSupersedeByKey(t *testing.T) {
	t.Parallel()
	k := newKn(t)
	ctx := t.Context()
	var evs []graph.NewRawEvent
	for i, id := range []string{"r1", "r2", "r3"} {
		evs = append(evs, graph.NewRawEvent{ID: id, Kind: "message", Role: "user", Content: "trip " + id,
			OccurredAt: knDay("2024-05-01").Add(time.Duration(i) * time.Hour)})
	}
	if _, err := k.s.AppendEvents(ctx, k.tenant, "s1", k.user, "", evs); err != nil {
		t.Fatal(err)
	}
	r := k.write("s1", knDay("2024-05-01"), []graph.EntityInput{knUserEnt(), knEnt("lisbon", "Lisbon", ontology.Place)},
		knFact("user", "VISITED", "lisbon", knSrc("r1")))

	first, err := k.s.WriteInsights(ctx, k.tenant, k.user, []graph.InsightInput{{Key: "travel", Text: "Travels for work every month",
		Confidence: 0.7, SourceEventIDs: []string{"r1", "r2"}, FactIDs: r.FactsCreated, EntityNames: []string{"Lisbon", "the user"},
		GeneratedBy: "test"}})
	if err != nil || len(first.Created) != 1 {
		t.Fatalf("first insight: %+v, %v", first, err)
	}
	same, err := k.s.WriteInsights(ctx, k.tenant, k.user, []graph.InsightInput{{Key: "travel", Text: "Travels for work every month"}})
	if err != nil || len(same.Created) != 0 || len(same.Unchanged) != 1 || same.Unchanged[0] != first.Created[0] {
		t.Fatalf("same text again: %+v, %v", same, err)
	}
	next, err := k.s.WriteInsights(ctx, k.tenant, k.user, []graph.InsightInput{
		{Key: "travel", Text: "Travels for work twice a month", Confidence: 0.8, SourceEventIDs: []string{"r3"}, EntityIDs: []string{r.EntityIDs["lisbon"]}},
		{Text: "Prefers conservative options", Confidence: 0.6}})
	if err != nil || len(next.Created) != 2 || len(next.Superseded) != 1 || next.Superseded[0] != first.Created[0] {
		t.Fatalf("superseding write: %+v, %v", next, err)
	}
	cur, err := k.s.Insights(ctx, k.tenant, k.user, graph.InsightQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cur) != 2 {
		t.Fatalf("current insights: %+v", cur)
	}
	all, err := k.s.Insights(ctx, k.tenant, k.user, graph.InsightQuery{IncludeSuperseded: true})
	if err != nil || len(all) != 3 {
		t.Fatalf("all insights: %d, %v", len(all), err)
	}
	var old graph.Insight
	for _, in := range all {
		if in.ID == first.Created[0] {
			old = in
		}
	}
	if old.Status != "superseded" || old.SupersededAt.IsZero() || old.SupersededBy != next.Created[0] || old.GeneratedBy != "test" ||
		len(old.Entities) != 2 || old.Entities[0].Name != "Lisbon" || old.Entities[1].ID != r.EntityIDs["user"] {
		t.Fatalf("superseded insight: %+v", old)
	}
	knEqual(t, "fact ids", old.FactIDs, r.FactsCreated)
	if n := knInt(t, `MATCH (:Insight {tenant: $t, id: $new})-[:SUPERSEDES {tenant: $t}]->(:Insight {id: $old}) RETURN count(*)`,
		map[string]any{"t": k.tenant, "new": next.Created[0], "old": old.ID}); n != 1 {
		t.Fatal("no SUPERSEDES link")
	}
	if n := knInt(t, `MATCH (:Insight {tenant: $t, id: $id})-[:DERIVED_FROM {tenant: $t}]->(r:Raw) RETURN count(r)`,
		map[string]any{"t": k.tenant, "id": old.ID}); n != 2 {
		t.Fatalf("first insight derived from %d raw events, want 2", n)
	}
	// A key derived from the text: re-deriving the same insight is a no-op.
	again, err := k.s.WriteInsights(ctx, k.tenant, k.user, []graph.InsightInput{{Text: "Prefers  conservative options"}})
	if err != nil || len(again.Unchanged) != 1 || len(again.Created) != 0 {
		t.Fatalf("text-keyed insight again: %+v, %v", again, err)
	}
	if _, err := k.s.WriteInsights(ctx, k.tenant, k.user, []graph.InsightInput{{Text: " "}}); !errors.Is(err, graph.ErrInvalid) {
		t.Fatalf("empty insight: %v", err)
	}

	mat, err := k.s.InsightMaterial(ctx, k.tenant, k.user, knDay("2024-05-01").Add(30*time.Minute), 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(mat.Facts) != 1 || mat.Facts[0].Predicate != "VISITED" || mat.Facts[0].Object != "Lisbon" ||
		mat.Facts[0].SessionIDs[0] != "s1" || mat.Facts[0].SourceEventIDs[0] != "r1" {
		t.Fatalf("material facts: %+v", mat.Facts)
	}
	if len(mat.Events) != 2 || mat.Events[0].ID != "r2" || mat.Events[1].ID != "r3" {
		t.Fatalf("material events: %+v", mat.Events)
	}
}
