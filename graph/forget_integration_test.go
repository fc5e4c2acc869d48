//go:build integration

package graph_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/graph/graphtest"
	"github.com/graphmem/graphmem/ontology"
)

// forgetFixture fills one user's memory with every kind of node graphmem
// writes: two sessions of raw events, a condensation and a session summary,
// facts from one session and from both, a superseded fact and its conflict,
// preferences, insights from one session and from both, a direct edit, jobs
// of the user and of a session, an embedding, and nodes other branches add
// (a :Passage hanging off a raw event, an :Unembedded label).
func forgetFixture(t *testing.T, s *graph.Store, tenant, user string) {
	t.Helper()
	ctx := t.Context()
	day := knDay("2024-03-01")
	for si, sess := range []string{user + "-s1", user + "-s2"} {
		var evs []graph.NewRawEvent
		for i, text := range []string{"I live in Paris", "I love sushi", "my sister Ann visits"} {
			evs = append(evs, graph.NewRawEvent{ID: fmt.Sprintf("e%d", i), Kind: graph.RawMessage, Role: "user",
				Content: text, OccurredAt: day.Add(time.Duration(si*24+i) * time.Hour)})
		}
		if _, err := s.AppendEvents(ctx, tenant, sess, user, "agent", evs); err != nil {
			t.Fatal(err)
		}
	}
	s1, s2 := user+"-s1", user+"-s2"
	if _, err := s.AppendCondensation(ctx, tenant, s1, graph.NewEventNode{ID: user + "-c1", Kind: graph.EventKindCondensation,
		Summary: "lives in Paris, loves sushi", Cover: []string{"e0", "e1"}, BasedOnSeq: 3}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CloseSession(ctx, tenant, s2, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.WriteSessionSummary(ctx, tenant, s2, graph.NewEventNode{ID: user + "-sum2", Kind: graph.EventKindSessionSummary,
		Summary: "moved to Berlin", Cover: []string{"e0", "e1", "e2"}}); err != nil {
		t.Fatal(err)
	}
	write := func(sess string, at time.Time, ents []graph.EntityInput, facts ...graph.FactInput) graph.KnowledgeResult {
		res, err := s.WriteKnowledge(ctx, graph.KnowledgeWrite{Tenant: tenant, UserID: user, SessionID: sess, ObservedAt: at,
			Extractor: "test", Entities: ents, Facts: facts, Mentions: map[string][]string{"e2": {"ann"}}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	ents := []graph.EntityInput{knUserEnt(), knEnt("paris", "Paris", ontology.Place), knEnt("sushi", "sushi", ontology.Food),
		knEnt("ann", "Ann", ontology.Person), knEnt("berlin", "Berlin", ontology.Place)}
	r1 := write(s1, day, ents,
		knFact("user", "LIVES_IN", "paris", knSrc("e0"), knSay("The user lives in Paris")),
		knFact("user", "LIKES", "sushi", knSrc("e1"), knSay("The user loves sushi")),
		knFact("user", "SIBLING_OF", "ann", knSrc("e2")))
	write(s2, day.Add(48*time.Hour), ents,
		knFact("user", "LIVES_IN", "berlin", knSrc("e0"), knSay("The user lives in Berlin")),
		knFact("user", "LIKES", "sushi", knSrc("e1"), knSay("The user loves sushi")))
	if _, err := s.WriteInsights(ctx, tenant, user, []graph.InsightInput{
		{Key: "food", Text: "Loves Japanese food", Confidence: 0.7, SourceEventIDs: []string{"e1"}, EntityNames: []string{"sushi"}},
		{Key: "family", Text: "Close to a sister", Confidence: 0.6, SourceEventIDs: []string{"e2"}, FactIDs: r1.FactsCreated[2:3]},
		{Key: "home", Text: "Lives in a capital", Confidence: 0.5, FactIDs: r1.FactsCreated[0:1]},
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddFact(ctx, graph.NewFact{Tenant: tenant, UserID: user, Subject: "user", Predicate: "WORKS_AT", Object: "Acme",
		Edit: graph.FactEdit{Actor: "ops", Reason: "told on the phone"}}); err != nil {
		t.Fatal(err)
	}
	for _, spec := range []graph.JobSpec{{Kind: "test.user", UserID: user}, {Kind: "test.session", SessionID: s1}} {
		if _, _, err := s.EnqueueJob(ctx, tenant, spec); err != nil {
			t.Fatal(err)
		}
	}
	knQuery(t, `
		MATCH (r:Raw {tenant: $tenant, session_id: $s1, id: 'e0'})
		SET r:Unembedded, r.embedding = [0.1, 0.2, 0.3]
		CREATE (r)-[:HAS_PASSAGE {tenant: $tenant}]->(:Passage {tenant: $tenant, text: 'I live in Paris', seq: 0})`,
		map[string]any{"tenant": tenant, "s1": s1})
}

// TestForgetUserErasesEverythingAndNothingElse: a census of every node and
// relationship by tenant and user, before and after; the deleted user has
// nothing left, another user of the tenant and a user of another tenant
// are unchanged to the count, the counts reported are the ones the census
// saw, an audit record without personal content is left, and forgetting
// again deletes nothing.
func TestForgetUserErasesEverythingAndNothingElse(t *testing.T) {
	t.Parallel()
	s := graphtest.Store(t)
	ctx := t.Context()
	tenant, other := graphtest.Tenant(t), graphtest.Tenant(t)
	forgetFixture(t, s, tenant, "alice")
	forgetFixture(t, s, tenant, "bob")
	forgetFixture(t, s, other, "alice")

	before := graphtest.Census(t, tenant, other)
	alice := graphtest.CensusOf(before, tenant, "alice")
	for _, k := range []string{"node:Raw", "node:Event", "node:Insight", "node:Entity", "node:Conflict", "node:Edit",
		"node:Session", "node:Job", "node:Passage", "rel:LIVES_IN", "rel:MENTIONS", "rel:HAS_PASSAGE"} {
		if alice[k] == 0 {
			t.Fatalf("the fixture has no %s for alice: %v", k, alice)
		}
	}
	t.Logf("census of the deleted user before: %v", alice)

	er, err := s.ForgetUser(ctx, graph.ForgetRequest{Tenant: tenant, UserID: "alice", JobID: "job-1", Who: tenant, Actor: "dpo"})
	if err != nil {
		t.Fatal(err)
	}
	after := graphtest.Census(t, tenant, other)
	if left := graphtest.CensusOf(after, tenant, "alice"); len(left) > 0 {
		t.Fatalf("left of the deleted user: %v", left)
	}
	if !maps.Equal(graphtest.CensusOf(before, tenant, "bob"), graphtest.CensusOf(after, tenant, "bob")) {
		t.Fatalf("another user of the tenant changed:\n before %v\n after  %v", graphtest.CensusOf(before, tenant, "bob"), graphtest.CensusOf(after, tenant, "bob"))
	}
	if !maps.Equal(graphtest.CensusOf(before, other, "alice"), graphtest.CensusOf(after, other, "alice")) {
		t.Fatalf("the same user id in another tenant changed")
	}
	if got := graphtest.CensusOf(after, tenant, ""); got["node:Erasure"] != 1 || len(got) != 1 {
		t.Fatalf("tenant-level nodes after: %v (want only the erasure record)", got)
	}
	// The counts reported are the ones the census saw.
	for _, l := range []string{"Raw", "Event", "Insight", "Conflict", "Edit", "Session", "Job"} {
		if er.Counts[l] != alice["node:"+l] {
			t.Errorf("%s: reported %d, census %d", l, er.Counts[l], alice["node:"+l])
		}
	}
	if er.Counts["Entity"] != alice["node:Entity"] || er.Counts["dependents"] != alice["node:Passage"] {
		t.Errorf("entities/dependents reported %v, census %v", er.Counts, alice)
	}
	var facts int64
	for _, p := range ontology.Vocabulary() {
		facts += alice["rel:"+p.Name]
	}
	if er.Counts["facts"] != facts {
		t.Errorf("facts: reported %d, census %d", er.Counts["facts"], facts)
	}
	// The audit record: who and how many, no personal content.
	got, err := s.ErasureByJob(ctx, tenant, "job-1")
	if err != nil || got.Scope != "user" || got.Who != tenant || got.Actor != "dpo" || !maps.Equal(got.Counts, er.Counts) ||
		got.SubjectHash != graph.SubjectHash(tenant, "user", "alice") {
		t.Fatalf("audit record %+v, %v", got, err)
	}
	for _, rec := range knQuery(t, `MATCH (e:Erasure {tenant: $tenant}) RETURN e {.*} AS p`, map[string]any{"tenant": tenant}) {
		p, _ := rec.Get("p")
		if txt := fmt.Sprint(p); strings.Contains(txt, "alice") || strings.Contains(txt, "Paris") || strings.Contains(txt, "sushi") {
			t.Fatalf("the audit record holds personal content: %s", txt)
		}
	}
	again, err := s.ForgetUser(ctx, graph.ForgetRequest{Tenant: tenant, UserID: "alice", JobID: "job-2", Who: tenant})
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range again.Counts {
		if v != 0 {
			t.Fatalf("forgetting again deleted %d %s", v, k)
		}
	}
	if !maps.Equal(graphtest.CensusOf(graphtest.Census(t, tenant, other), tenant, "bob"), graphtest.CensusOf(before, tenant, "bob")) {
		t.Fatal("forgetting again changed another user")
	}
}

// TestForgetSessionKeepsWhatOtherSessionsSupport: deleting one session
// removes its raw events, summaries, jobs and passages, the facts and
// insights that rest only on it (and the conflicts about those facts);
// facts and insights with other sources stay and lose its provenance; the
// other session and another user are unchanged.
func TestForgetSessionKeepsWhatOtherSessionsSupport(t *testing.T) {
	t.Parallel()
	s := graphtest.Store(t)
	ctx := t.Context()
	tenant := graphtest.Tenant(t)
	forgetFixture(t, s, tenant, "alice")
	forgetFixture(t, s, tenant, "bob")
	before := graphtest.Census(t, tenant)

	er, err := s.ForgetSession(ctx, graph.ForgetRequest{Tenant: tenant, SessionID: "alice-s1", JobID: "job-s", Who: tenant})
	if err != nil {
		t.Fatal(err)
	}
	if er.Counts["Raw"] != 3 || er.Counts["Event"] != 1 || er.Counts["Session"] != 1 || er.Counts["Job"] != 1 ||
		er.Counts["dependents"] != 1 {
		t.Fatalf("counts %v", er.Counts)
	}
	left := knQuery(t, `MATCH (n {tenant: $tenant}) WHERE n.session_id = 'alice-s1' OR n.id = 'alice-s1' OR n:Passage AND NOT EXISTS { (n)--() }
		RETURN labels(n) AS l`, map[string]any{"tenant": tenant})
	if len(left) != 0 {
		t.Fatalf("%d nodes of the session left", len(left))
	}
	all, err := s.Facts(ctx, tenant, "alice", graph.FactQuery{IncludeHistory: true})
	if err != nil {
		t.Fatal(err)
	}
	var preds []string
	for _, f := range all {
		preds = append(preds, f.Predicate+" "+f.Object)
		if slices.Contains(f.SessionIDs, "alice-s1") {
			t.Errorf("fact %s %s keeps the deleted session in %v", f.Predicate, f.Object, f.SessionIDs)
		}
		if f.Predicate == "LIKES" && (!slices.Equal(f.SessionIDs, []string{"alice-s2"}) || len(f.SourceEventIDs) == 0) {
			t.Errorf("the fact both sessions support lost its other provenance: %+v", f)
		}
	}
	slices.Sort(preds)
	// Paris and the sibling rested only on s1; sushi has s2 too; Berlin
	// is s2's; the edit has no session.
	if want := []string{"LIKES sushi", "LIVES_IN Berlin", "WORKS_AT Acme"}; !slices.Equal(preds, want) {
		t.Fatalf("facts after: %v, want %v", preds, want)
	}
	if er.Counts["facts"] != 2 || er.Counts["facts_trimmed"] < 1 || er.Counts["Conflict"] != 1 {
		t.Fatalf("fact counts %v", er.Counts)
	}
	ins, err := s.Insights(ctx, tenant, "alice", graph.InsightQuery{IncludeSuperseded: true})
	if err != nil {
		t.Fatal(err)
	}
	// "food" rests on e1 of both sessions; "family" on e2 of both too, but
	// its one fact is gone; it keeps s2's e2. "home" rested only on the
	// Paris fact.
	if len(ins) != 2 || er.Counts["Insight"] != 1 {
		t.Fatalf("insights after: %+v", ins)
	}
	if n := knInt(t, `MATCH (:Insight {tenant: $tenant, user_id: 'alice'})-[:DERIVED_FROM]->(r:Raw) WHERE r.session_id = 'alice-s1' RETURN count(*)`,
		map[string]any{"tenant": tenant}); n != 0 {
		t.Fatalf("%d insight links to the deleted session", n)
	}
	after := graphtest.Census(t, tenant)
	if !maps.Equal(graphtest.CensusOf(before, tenant, "bob"), graphtest.CensusOf(after, tenant, "bob")) {
		t.Fatal("another user changed")
	}
	if n := knInt(t, `MATCH (r:Raw {tenant: $tenant, session_id: 'alice-s2'}) RETURN count(r)`, map[string]any{"tenant": tenant}); n != 3 {
		t.Fatalf("the other session has %d raw events", n)
	}
}
