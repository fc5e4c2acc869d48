//go:build integration

package graph_test

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/graph/graphtest"
)

// goldenUpdateEnv rewrites testdata/knowledge-golden.json from the current
// code instead of comparing with it.
const goldenUpdateEnv = "GRAPHMEM_UPDATE_GOLDEN"

// TestKnowledgeGraphGolden pins what the knowledge write path stores for a
// fixed conversation: testdata/knowledge-windows.json holds the offline
// engine's extraction of 100 windows (the first 48 scenarios of
// bench/data/ku-own.jsonl spread over three users, so entities resolve
// across scenarios, facts are reinforced, superseded and contradicted).
// Every window is written in order and then all are replayed (retried
// jobs). The graph that results - entities with their labels, names and
// counts, every fact with its type, endpoints, status, validity and
// counts, conflicts, and node and relationship counts by label and type -
// must equal testdata/knowledge-golden.json, which was recorded before the
// write path was batched: the optimisation may change how the graph is
// written, never what it holds. Random ids and clock times are left out.
func TestKnowledgeGraphGolden(t *testing.T) {
	t.Parallel()
	s, tenant, ctx := graphtest.Store(t), graphtest.Tenant(t), t.Context()
	raw, err := os.ReadFile("testdata/knowledge-windows.json")
	if err != nil {
		t.Fatal(err)
	}
	var windows []graph.KnowledgeWrite
	if err := json.Unmarshal(raw, &windows); err != nil {
		t.Fatal(err)
	}
	if len(windows) < 50 {
		t.Fatalf("only %d windows in testdata", len(windows))
	}
	created := 0
	for round := range 2 {
		for i, w := range windows {
			w.Tenant = tenant
			res, err := s.WriteKnowledge(ctx, w)
			if err != nil {
				t.Fatalf("round %d window %d (%s): %v", round, i, w.SessionID, err)
			}
			created += len(res.FactsCreated)
			if round == 1 && len(res.FactsCreated)+len(res.EntitiesCreated) > 0 {
				t.Errorf("replay of window %d created %d facts and %d entities", i, len(res.FactsCreated), len(res.EntitiesCreated))
			}
		}
	}
	if created == 0 {
		t.Fatal("no fact was created: the fixture exercises nothing")
	}
	got := knowledgeSnapshot(t, tenant)
	if os.Getenv(goldenUpdateEnv) != "" {
		if err := os.WriteFile("testdata/knowledge-golden.json", []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %d golden lines", len(got))
		return
	}
	wantRaw, err := os.ReadFile("testdata/knowledge-golden.json")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimSuffix(string(wantRaw), "\n"), "\n")
	if !slices.Equal(got, want) {
		for _, l := range got {
			if !slices.Contains(want, l) {
				t.Errorf("unexpected: %s", l)
			}
		}
		for _, l := range want {
			if !slices.Contains(got, l) {
				t.Errorf("missing:    %s", l)
			}
		}
		if !t.Failed() {
			t.Errorf("same lines, different multiplicity: %d lines, want %d", len(got), len(want))
		}
	}
}

// knowledgeSnapshot renders the tenant's graph as sorted lines with names
// in place of random ids and without clock times.
func knowledgeSnapshot(t *testing.T, tenant string) []string {
	t.Helper()
	p := map[string]any{"tenant": tenant}
	var out []string
	line := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	for _, rec := range knQuery(t, `
		MATCH (n {tenant: $tenant})
		WITH n, labels(n) AS ls
		UNWIND ls AS l
		WITH n, l ORDER BY l
		WITH n, collect(l) AS ls
		RETURN ls, count(*) AS n`, p) {
		line("nodes %v %v", rec.Values[0], rec.Values[1])
	}
	for _, rec := range knQuery(t, `
		MATCH (a {tenant: $tenant})-[r]->(b)
		RETURN type(r) AS type, count(*) AS n`, p) {
		line("rels %v %v", rec.Values[0], rec.Values[1])
	}
	for _, rec := range knQuery(t, `
		MATCH (e:Entity {tenant: $tenant})
		WITH e, [l IN labels(e) WHERE l <> 'Entity'] AS ls
		UNWIND (CASE WHEN size(ls) = 0 THEN [''] ELSE ls END) AS l
		WITH e, l ORDER BY l
		WITH e, collect(l) AS ls
		RETURN e.user_id, ls, e.name, e.norm_name, e.type, coalesce(e.is_user, false),
		       COLLECT { UNWIND coalesce(e.aliases, []) AS x RETURN x ORDER BY x }, COLLECT { UNWIND coalesce(e.alias_keys, []) AS x RETURN x ORDER BY x }, e.aliases_text,
		       e.mention_count, e.last_mentioned_at`, p) {
		line("entity %v", rec.Values)
	}
	for _, rec := range knQuery(t, `
		MATCH (s:Entity {tenant: $tenant})-[r]->(o:Entity)
		WHERE r.fact IS NOT NULL
		OPTIONAL MATCH (:Entity {tenant: $tenant})-[by]->(:Entity) WHERE by.id = r.superseded_by
		RETURN s.user_id, s.name, type(r), o.name, r.fact, r.status, r.polarity, r.qualifier, r.predicate,
		       r.preference, r.confidence, r.strength, r.mention_count, r.valid_from, r.valid_to,
		       r.observed_at, r.last_seen_at, r.expired_at IS NOT NULL, by.fact,
		       COLLECT { UNWIND coalesce(r.source_event_ids, []) AS x RETURN x ORDER BY x }, COLLECT { UNWIND coalesce(r.session_ids, []) AS x RETURN x ORDER BY x },
		       COLLECT { UNWIND coalesce(r.event_ids, []) AS x RETURN x ORDER BY x }, r.extracted_by, r.scope IS NOT NULL`, p) {
		line("fact %v", rec.Values)
	}
	for _, rec := range knQuery(t, `
		MATCH (c:Conflict {tenant: $tenant})
		OPTIONAL MATCH (c)-[:ABOUT]->(s:Entity)
		OPTIONAL MATCH (:Entity {tenant: $tenant})-[old]->(:Entity) WHERE old.id = c.old_fact_id
		OPTIONAL MATCH (:Entity {tenant: $tenant})-[new]->(:Entity) WHERE new.id = c.new_fact_id
		RETURN c.user_id, c.status, c.kind, c.winner, c.predicate, c.old_predicate, s.name, old.fact, new.fact, c.old_fact, c.new_fact, c.resolution, c.session_id`, p) {
		line("conflict %v", rec.Values)
	}
	slices.Sort(out)
	return out
}
