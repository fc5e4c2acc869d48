//go:build integration

package graph_test

import (
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/graph/graphtest"
)

// TestRetentionSweep: a sweep "a year later" drops the text of condensed
// raw events (the nodes, ids and summaries stay, marked text_dropped_at),
// expires facts and insights (out of current reads, kept in history and
// as-of answers), exempts pinned and critical memories and the raw text
// they rest on, works in small batches that a second sweep finds done,
// and touches no other tenant.
func TestRetentionSweep(t *testing.T) {
	t.Parallel()
	s := graphtest.Store(t)
	ctx := t.Context()
	tenant, other := graphtest.Tenant(t), graphtest.Tenant(t)
	forgetFixture(t, s, tenant, "alice")
	forgetFixture(t, s, other, "alice")
	otherBefore := graphtest.CensusOf(graphtest.Census(t, other), other, "alice")

	facts, err := s.Facts(ctx, tenant, "alice", graph.FactQuery{})
	if err != nil {
		t.Fatal(err)
	}
	var critical graph.Fact
	for _, f := range facts {
		if f.Predicate == "SIBLING_OF" {
			critical = f
		}
	}
	ins, err := s.Insights(ctx, tenant, "alice", graph.InsightQuery{})
	if err != nil || len(ins) < 2 || critical.ID == "" {
		t.Fatalf("fixture: insights %v %v, facts %+v", ins, err, facts)
	}
	// Pin the insight without sources of its own ("Lives in a capital"),
	// so the exempt raw text is the critical fact's only.
	slices.SortFunc(ins, func(a, b graph.Insight) int { return len(a.SourceEventIDs) - len(b.SourceEventIDs) })
	if len(ins[0].SourceEventIDs) != 0 {
		t.Fatalf("fixture: every insight has sources: %+v", ins)
	}
	crit, yes := "critical", true
	for _, m := range []struct {
		kind, id string
		marks    graph.Marks
	}{
		{graph.MarkFact, critical.ID, graph.Marks{Importance: &crit}},
		{graph.MarkInsight, ins[0].ID, graph.Marks{Pinned: &yes}},
		{graph.MarkSummary, "alice-c1", graph.Marks{Pinned: &yes}},
	} {
		if _, err := s.MarkMemory(ctx, tenant, m.kind, m.id, m.marks); err != nil {
			t.Fatal(err)
		}
	}
	asOf := knDay("2024-03-02")
	thenBefore, err := s.Facts(ctx, tenant, "alice", graph.FactQuery{AsOf: &asOf})
	if err != nil {
		t.Fatal(err)
	}

	policy := graph.RetentionPolicy{RawTextDays: 30, FactDays: 30, InsightDays: 30}
	later := time.Now().Add(365 * 24 * time.Hour)
	sweep := func() map[string]int {
		done := map[string]int{}
		for _, step := range graph.SweepSteps {
			for {
				n, err := s.SweepBatch(ctx, tenant, policy, step, later, 2) // tiny batches: many commits
				if err != nil {
					t.Fatal(err)
				}
				if n == 0 {
					break
				}
				done[step] += n
			}
		}
		return done
	}
	done := sweep()
	t.Logf("swept: %v", done)
	if done[graph.SweepRawText] != 2 || done[graph.SweepFacts] != len(facts)-1 || done[graph.SweepInsights] != len(ins)-1 {
		t.Fatalf("swept %v; want 2 raw texts, %d facts, %d insights", done, len(facts)-1, len(ins)-1)
	}
	// Raw: only s2's e0 and e1 lost their text (s1's are under the pinned
	// summary, e2 is the critical fact's source, s1's e2 was never condensed).
	dropped := map[string]bool{}
	for _, rec := range knQuery(t, `MATCH (r:Raw {tenant: $t}) RETURN r.session_id + ':' + r.id AS k, r.text_dropped_at IS NOT NULL AS d, r.content AS c`,
		map[string]any{"t": tenant}) {
		k, d, c := rec.Values[0].(string), rec.Values[1].(bool), rec.Values[2].(string)
		if d != (c == "") {
			t.Errorf("%s: dropped %v but content %q", k, d, c)
		}
		dropped[k] = d
	}
	if want := map[string]bool{"alice-s1:e0": false, "alice-s1:e1": false, "alice-s1:e2": false,
		"alice-s2:e0": true, "alice-s2:e1": true, "alice-s2:e2": false}; !maps.Equal(dropped, want) {
		t.Fatalf("dropped %v, want %v", dropped, want)
	}
	// Summaries and provenance stay.
	if n := knQuery(t, `MATCH (:Event {tenant: $t, id: 'alice-sum2'})-[:SUMMARIZES]->(r:Raw) RETURN count(r)`, map[string]any{"t": tenant}); n[0].Values[0].(int64) != 3 {
		t.Fatalf("the summary lost its sources: %v", n[0].Values)
	}

	// Facts: only the critical one is current; history has the others as
	// expired; as-of answers are what they were.
	cur, _ := s.Facts(ctx, tenant, "alice", graph.FactQuery{})
	if len(cur) != 1 || cur[0].ID != critical.ID {
		t.Fatalf("current facts after the sweep: %+v", cur)
	}
	hist, _ := s.Facts(ctx, tenant, "alice", graph.FactQuery{IncludeHistory: true})
	expired := 0
	for _, f := range hist {
		if f.Status == "expired" {
			expired++
		}
	}
	if expired != len(facts)-1 {
		t.Fatalf("%d expired facts in history, want %d", expired, len(facts)-1)
	}
	thenAfter, _ := s.Facts(ctx, tenant, "alice", graph.FactQuery{AsOf: &asOf})
	ids := func(fs []graph.Fact) []string {
		var out []string
		for _, f := range fs {
			out = append(out, f.ID)
		}
		slices.Sort(out)
		return out
	}
	if !slices.Equal(ids(thenBefore), ids(thenAfter)) {
		t.Fatalf("as-of answers changed: %v -> %v", ids(thenBefore), ids(thenAfter))
	}
	// Insights: the pinned one is current, the others expired.
	curIns, _ := s.Insights(ctx, tenant, "alice", graph.InsightQuery{})
	if len(curIns) != 1 || curIns[0].ID != ins[0].ID {
		t.Fatalf("current insights: %+v", curIns)
	}
	// Search finds no expired fact as current.
	hits, err := s.SearchText(ctx, graph.SearchScope{Tenant: tenant, UserID: "alice"}, []string{"paris", "berlin", "sushi"}, nil, true,
		graph.TextLimits{Facts: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits.Facts {
		if h.Fact.ID != critical.ID {
			t.Errorf("search returned the expired fact %s (%s)", h.Fact.ID, h.Fact.Status)
		}
	}

	if again := sweep(); len(again) != 0 {
		t.Fatalf("a second sweep changed %v", again)
	}
	if !maps.Equal(otherBefore, graphtest.CensusOf(graphtest.Census(t, other), other, "alice")) {
		t.Fatal("the other tenant changed")
	}
	if o, _ := s.Facts(ctx, other, "alice", graph.FactQuery{}); len(o) != len(facts) {
		t.Fatalf("the other tenant's facts: %d, want %d", len(o), len(facts))
	}

	// Said again after it expired, a fact is current again.
	if _, err := s.WriteKnowledge(ctx, graph.KnowledgeWrite{Tenant: tenant, UserID: "alice", SessionID: "alice-s2",
		ObservedAt: knDay("2024-06-01"), Extractor: "test",
		Entities: []graph.EntityInput{knUserEnt(), knEnt("berlin", "Berlin", "Place")},
		Facts:    []graph.FactInput{knFact("user", "LIVES_IN", "berlin", knSrc("e0"), knSay("The user lives in Berlin"))}}); err != nil {
		t.Fatal(err)
	}
	cur, _ = s.Facts(ctx, tenant, "alice", graph.FactQuery{Predicate: "LIVES_IN"})
	if len(cur) != 1 || cur[0].Object != "Berlin" {
		t.Fatalf("LIVES_IN Berlin said again after expiring: current %+v", cur)
	}

	// Policies round-trip.
	if _, ok, _ := s.RetentionPolicyOf(ctx, tenant); ok {
		t.Fatal("a policy before any was set")
	}
	if err := s.SetRetentionPolicy(ctx, tenant, policy); err != nil {
		t.Fatal(err)
	}
	if p, ok, err := s.RetentionPolicyOf(ctx, tenant); !ok || err != nil || p != policy {
		t.Fatalf("policy read back %+v %v %v", p, ok, err)
	}
}
