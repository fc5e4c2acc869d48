//go:build integration

package graph_test

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graphmem/graphmem/errs"
	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/graph/graphtest"
	"github.com/graphmem/graphmem/ontology"
)

// consFixture writes one user's duplicates, which resolution at write
// time keeps apart: "Dr. Smith" and "Bob Smith" both work at Acme (a fact
// that becomes redundant when they merge), Bob Smith lives in Paris, the
// user is Dr. Smith's friend, Dr. Smith knows Bob Smith (a fact between
// the two), and raw events mention both. It returns the ids of Dr. Smith
// ("bob"), Bob Smith and the user's entity.
func consFixture(t *testing.T, s *graph.Store, tenant, user string) (bob, bobSmith, me string) {
	t.Helper()
	ctx := t.Context()
	sess := user + "-s1"
	var evs []graph.NewRawEvent
	for i, text := range []string{"my friend Dr. Smith works at Acme", "Bob Smith works at Acme and lives in Paris", "Dr. Smith knows Bob Smith"} {
		evs = append(evs, graph.NewRawEvent{ID: fmt.Sprintf("e%d", i), Kind: graph.RawMessage, Role: "user", Content: text,
			OccurredAt: knDay("2024-03-01").Add(time.Duration(i) * time.Hour)})
	}
	if _, err := s.AppendEvents(ctx, tenant, sess, user, "agent", evs); err != nil {
		t.Fatal(err)
	}
	write := func(at time.Time, mentions map[string][]string, ents []graph.EntityInput, facts ...graph.FactInput) graph.KnowledgeResult {
		res, err := s.WriteKnowledge(ctx, graph.KnowledgeWrite{Tenant: tenant, UserID: user, SessionID: sess, ObservedAt: at,
			Extractor: "test", Entities: ents, Facts: facts, Mentions: mentions})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	day := knDay("2024-03-01")
	r1 := write(day, map[string][]string{"e0": {"bob", "acme"}},
		[]graph.EntityInput{knUserEnt(), knEnt("bob", "Dr. Smith", ontology.Person), knEnt("acme", "Acme", ontology.Organization)},
		knFact("user", "FRIEND_OF", "bob", knSrc("e0")), knFact("bob", "WORKS_AT", "acme", knSrc("e0")))
	r2 := write(day.Add(time.Hour), map[string][]string{"e1": {"bs", "acme", "paris"}},
		[]graph.EntityInput{knEnt("bs", "Bob Smith", ontology.Person), knEnt("acme", "Acme", ontology.Organization),
			knEnt("paris", "Paris", ontology.Place)},
		knFact("bs", "WORKS_AT", "acme", knSrc("e1")), knFact("bs", "LIVES_IN", "paris", knSrc("e1")))
	write(day.Add(2*time.Hour), map[string][]string{"e2": {"bob", "bs"}},
		[]graph.EntityInput{knEnt("bob", "Dr. Smith", ontology.Person), knEnt("bs", "Bob Smith", ontology.Person)},
		knFact("bob", "KNOWS", "bs", knSrc("e2")))
	return r1.EntityIDs["bob"], r2.EntityIDs["bs"], r1.EntityIDs["user"]
}

// graphDump lists every node (element id, labels, properties) and
// relationship (type, end nodes' element ids, properties) of a tenant but
// the :Merge records, one line each, sorted: two dumps are equal when the
// graph is the same to the property.
func graphDump(t *testing.T, tenant string) []string {
	t.Helper()
	var out []string
	for _, rec := range knQuery(t, `
		MATCH (n) WHERE n.tenant = $tenant AND NOT n:Merge
		RETURN elementId(n) AS id, labels(n) AS labels, properties(n) AS props`, map[string]any{"tenant": tenant}) {
		labels := slices.DeleteFunc(knStrings(rec.Values[1]), func(l string) bool { return l == "Unembedded" })
		slices.Sort(labels)
		out = append(out, fmt.Sprintf("N %v %v %s", rec.Values[0], labels, typedProps(rec.Values[2])))
	}
	for _, rec := range knQuery(t, `
		MATCH (a)-[r]->(b) WHERE r.tenant = $tenant OR a.tenant = $tenant OR b.tenant = $tenant
		RETURN type(r) AS t, elementId(a) AS a, elementId(b) AS b, properties(r) AS props`, map[string]any{"tenant": tenant}) {
		out = append(out, fmt.Sprintf("R %v %v->%v %s", rec.Values[0], rec.Values[1], rec.Values[2], typedProps(rec.Values[3])))
	}
	slices.Sort(out)
	return out
}

// typedProps renders properties with their Go types, sorted by key, so
// an integer that came back as a float differs. The embedding lane's
// properties are left out: a lane of a service under test elsewhere may
// embed these turns at any moment (Census ignores its label likewise).
func typedProps(v any) string {
	m, _ := v.(map[string]any)
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if k == "embedding" || strings.HasPrefix(k, "embed") {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s=%T(%v)", k, m[k], m[k]))
	}
	return strings.Join(parts, " ")
}

// TestMergeAndSplitRestoreTheExactGraph: a merge moves the absorbed
// entity's facts and mentions to the survivor, marks the fact that became
// redundant, leaves the fact between the two on the archived node, and
// changes no other user; a split then restores the tenant's graph to the
// property (compared line by line), the census of another user untouched
// throughout.
func TestMergeAndSplitRestoreTheExactGraph(t *testing.T) {
	t.Parallel()
	s := graphtest.Store(t)
	ctx := t.Context()
	tenant := graphtest.Tenant(t)
	bob, bobSmith, _ := consFixture(t, s, tenant, "alice")
	consFixture(t, s, tenant, "carol")

	before := graphDump(t, tenant)
	census := graphtest.Census(t, tenant)
	carol := graphtest.CensusOf(census, tenant, "carol")
	if len(before) < 20 {
		t.Fatalf("fixture too small: %d lines", len(before))
	}

	m, err := s.ProposeMerge(ctx, graph.MergeProposal{Tenant: tenant, UserID: "alice", KeepID: bobSmith, DropID: bob,
		Score: 0.9, Reasons: []string{"test"}, Apply: true, Actor: "ops"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Status != graph.MergeApplied || m.KeepName != "Bob Smith" || m.DropName != "Dr. Smith" || m.Type != "Person" {
		t.Fatalf("merge: %+v", m)
	}
	// Bob had FRIEND_OF (in), WORKS_AT (out) and two MENTIONS (raw e0, e2)
	// plus event-tier mentions, if any; KNOWS between the two stays.
	if m.Moved < 4 || m.Left != 1 || len(m.FactIDs) != 1 {
		t.Fatalf("moved %d, left %d, redundant %v", m.Moved, m.Left, m.FactIDs)
	}
	after := knQuery(t, `
		MATCH (k:Entity {tenant: $tenant, id: $keep})
		RETURN COUNT { (k)-[:WORKS_AT {status: 'current'}]->() } AS works, COUNT { (k)-[:WORKS_AT {status: 'merged'}]->() } AS merged,
		       COUNT { (:User)-[:FRIEND_OF]->(k) } AS friend, COUNT { (:Raw)-[:MENTIONS]->(k) } AS raw_mentions,
		       k.merged_names AS merged_names, k.aliases AS aliases,
		       COUNT { (e:Entity {tenant: $tenant, id: $drop}) } AS drop_visible,
		       COUNT { (e:MergedEntity {tenant: $tenant, id: $drop, merged_into: $keep}) } AS archived`,
		map[string]any{"tenant": tenant, "keep": bobSmith, "drop": bob})[0]
	want := map[string]any{"works": int64(1), "merged": int64(1), "friend": int64(1), "raw_mentions": int64(4), // e1, e2 and the moved e0, e2: a split must find its own
		"drop_visible": int64(0), "archived": int64(1)}
	for k, v := range want {
		if got, _ := after.Get(k); got != v {
			t.Errorf("after merge %s = %v, want %v", k, got, v)
		}
	}
	if names, _ := after.Get("merged_names"); !slices.Contains(knStrings(names), "Dr. Smith") {
		t.Errorf("merged_names %v lack Bob", names)
	}
	if got := graphtest.CensusOf(graphtest.Census(t, tenant), tenant, "carol"); !maps.Equal(got, carol) {
		t.Fatalf("another user changed:\n before %v\n after  %v", carol, got)
	}
	if v, err := s.Entity(ctx, tenant, bob, graph.EntityQuery{}); err == nil {
		t.Fatalf("the absorbed entity is still readable: %+v", v.Name)
	}
	// The export carries the merged graph: no line names the archived
	// entity (the fact left between the two stays out with it).
	if err := s.ExportUser(ctx, tenant, "alice", func(l graph.ExportLine) error {
		if l.Kind == "rel" && (l.Start.Label == "" || l.End.Label == "" || l.Start.ID == bob || l.End.ID == bob) {
			t.Errorf("export line %+v names the merged-away entity", l)
		}
		if l.Kind == "node" && slices.Contains(l.Labels, "MergedEntity") {
			t.Errorf("export has the archived node %+v", l.Labels)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}

	// Split twice: the second is a conflict, the graph is the one before.
	sp, err := s.SplitMerge(ctx, tenant, m.ID, "ops")
	if err != nil {
		t.Fatal(err)
	}
	if sp.Status != graph.MergeSplit || sp.SplitBy != "ops" || sp.SplitAt.IsZero() {
		t.Fatalf("split: %+v", sp)
	}
	restored := graphDump(t, tenant)
	if !slices.Equal(before, restored) {
		for _, l := range before {
			if !slices.Contains(restored, l) {
				t.Errorf("lost:   %s", l)
			}
		}
		for _, l := range restored {
			if !slices.Contains(before, l) {
				t.Errorf("gained: %s", l)
			}
		}
		t.Fatal("the split did not restore the graph")
	}
	if _, err := s.SplitMerge(ctx, tenant, m.ID, "ops"); !errors.Is(err, errs.ErrConflict) {
		t.Fatalf("second split: %v, want a conflict", err)
	}
	// A split pair is never proposed again.
	pairs, err := s.DecidedPairs(ctx, tenant, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if pairs[graph.PairKey(bob, bobSmith)] != graph.MergeSplit {
		t.Fatalf("decided pairs %v", pairs)
	}
	// Erasure takes the merge records and an archived entity along.
	if _, err := s.ProposeMerge(ctx, graph.MergeProposal{Tenant: tenant, UserID: "alice", KeepID: bobSmith, DropID: bob,
		Apply: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ForgetUser(ctx, graph.ForgetRequest{Tenant: tenant, UserID: "alice", Who: tenant}); err != nil {
		t.Fatal(err)
	}
	if left := graphtest.CensusOf(graphtest.Census(t, tenant), tenant, "alice"); len(left) > 0 {
		t.Fatalf("left of alice after erasure: %v", left)
	}
}

// TestMergeGuards: a pending merge changes nothing until approved; a
// rejected one cannot be approved; no merge across users, across types,
// or into (or of) the user's own entity.
func TestMergeGuards(t *testing.T) {
	t.Parallel()
	s := graphtest.Store(t)
	ctx := t.Context()
	tenant := graphtest.Tenant(t)
	bob, bobSmith, me := consFixture(t, s, tenant, "alice")
	carolBob, _, _ := consFixture(t, s, tenant, "carol")
	acme := knQuery(t, `MATCH (e:Entity {tenant: $tenant, user_id: 'alice', name: 'Acme'}) RETURN e.id`,
		map[string]any{"tenant": tenant})[0].Values[0].(string)

	before := graphDump(t, tenant)
	m, err := s.ProposeMerge(ctx, graph.MergeProposal{Tenant: tenant, UserID: "alice", KeepID: bobSmith, DropID: bob, Score: 0.6})
	if err != nil {
		t.Fatal(err)
	}
	if m.Status != graph.MergePending || !slices.Equal(before, graphDump(t, tenant)) {
		t.Fatalf("a pending merge changed the graph (status %s)", m.Status)
	}
	pending, err := s.ListMerges(ctx, tenant, graph.MergeFilter{Status: graph.MergePending})
	if err != nil || len(pending) != 1 || pending[0].ID != m.ID {
		t.Fatalf("pending merges %v %v", pending, err)
	}
	rej, err := s.DecideMerge(ctx, tenant, m.ID, false, "reviewer")
	if err != nil || rej.Status != graph.MergeRejected || rej.DecidedBy != "reviewer" {
		t.Fatalf("reject: %+v %v", rej, err)
	}
	if _, err := s.DecideMerge(ctx, tenant, m.ID, true, "reviewer"); !errors.Is(err, errs.ErrConflict) {
		t.Fatalf("approving a rejected merge: %v", err)
	}
	if !slices.Equal(before, graphDump(t, tenant)) {
		t.Fatal("a rejected merge changed the graph")
	}

	for name, p := range map[string]graph.MergeProposal{
		"across users":  {KeepID: bobSmith, DropID: carolBob},
		"across types":  {KeepID: bobSmith, DropID: acme},
		"into the user": {KeepID: me, DropID: bob},
		"of the user":   {KeepID: bob, DropID: me},
	} {
		p.Tenant, p.UserID, p.Apply = tenant, "alice", true
		if _, err := s.ProposeMerge(ctx, p); !errors.Is(err, errs.ErrNotFound) && !errors.Is(err, errs.ErrConflict) {
			t.Errorf("%s: %v, want not found or conflict", name, err)
		}
	}
	// Another tenant cannot see, decide or split the tenant's merges.
	other := graphtest.Tenant(t)
	if _, err := s.DecideMerge(ctx, other, m.ID, true, "x"); !errors.Is(err, errs.ErrNotFound) {
		t.Errorf("decide from another tenant: %v", err)
	}
	if !slices.Equal(before, graphDump(t, tenant)) {
		t.Fatal("a refused merge changed the graph")
	}
}

// TestRedundantFactsMergeAndSplit: two current facts of one slot and value
// (added by a direct edit beside an extracted one) become one; the split
// makes both current again.
func TestRedundantFactsMergeAndSplit(t *testing.T) {
	t.Parallel()
	s := graphtest.Store(t)
	ctx := t.Context()
	tenant := graphtest.Tenant(t)
	consFixture(t, s, tenant, "alice")
	// A second WORKS_AT Acme of Bob, as an import or an old write would leave.
	knQuery(t, `
		MATCH (b:Entity {tenant: $tenant, user_id: 'alice', name: 'Dr. Smith'})-[f:WORKS_AT]->(a)
		CREATE (b)-[g:WORKS_AT]->(a) SET g = f{.*, id: f.id + '-dup', recorded_at: f.recorded_at + duration('PT1M')}`,
		map[string]any{"tenant": tenant})
	before := graphDump(t, tenant)
	n, err := s.CountRedundantFacts(ctx, tenant, "alice")
	if err != nil || n != 1 {
		t.Fatalf("redundant facts counted %d, %v", n, err)
	}
	m, ok, err := s.MergeRedundantFacts(ctx, tenant, "alice", "job")
	if err != nil || !ok || len(m.FactIDs) != 1 || m.Kind != graph.MergeFacts {
		t.Fatalf("facts merge %+v %v %v", m, ok, err)
	}
	if got := knInt(t, `MATCH ()-[f:WORKS_AT {tenant: $tenant, id: $id}]->() WHERE f.status = 'merged' RETURN count(f)`,
		map[string]any{"tenant": tenant, "id": m.FactIDs[0]}); got != 1 || m.FactIDs[0][len(m.FactIDs[0])-4:] != "-dup" {
		t.Fatalf("the later fact %v should be merged (%d)", m.FactIDs, got)
	}
	if _, ok, _ := s.MergeRedundantFacts(ctx, tenant, "alice", "job"); ok {
		t.Fatal("a second pass found redundant facts again")
	}
	if _, err := s.SplitMerge(ctx, tenant, m.ID, "ops"); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(before, graphDump(t, tenant)) {
		t.Fatal("the split did not restore the facts")
	}
}
