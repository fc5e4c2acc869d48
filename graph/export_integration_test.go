//go:build integration

package graph_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/graph/graphtest"
)

// exportNDJSON exports a user to NDJSON bytes.
func exportNDJSON(t *testing.T, s *graph.Store, tenant, user string) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	if err := s.ExportUser(t.Context(), tenant, user, func(l graph.ExportLine) error { return enc.Encode(l) }); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func importNDJSON(t *testing.T, s *graph.Store, tenant string, data []byte) graph.ImportStats {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var lines []graph.ExportLine
	for dec.More() {
		var l graph.ExportLine
		if err := dec.Decode(&l); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, l)
	}
	st, err := s.ImportBatch(t.Context(), tenant, lines, nil)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// memoryView is what a client reads of a user: facts with history and as
// of a date, preferences, conflicts, insights, entities' names. Ids are
// kept: an import keeps them.
func memoryView(t *testing.T, s *graph.Store, tenant, user string) map[string]any {
	t.Helper()
	ctx := t.Context()
	asOf := knDay("2024-03-02")
	hist, err1 := s.Facts(ctx, tenant, user, graph.FactQuery{IncludeHistory: true})
	then, err2 := s.Facts(ctx, tenant, user, graph.FactQuery{AsOf: &asOf})
	prefs, err3 := s.Preferences(ctx, tenant, user, graph.PreferenceQuery{IncludeHistory: true})
	confs, err4 := s.Conflicts(ctx, tenant, user, "", 100)
	ins, err5 := s.Insights(ctx, tenant, user, graph.InsightQuery{IncludeSuperseded: true})
	for _, err := range []error{err1, err2, err3, err4, err5} {
		if err != nil {
			t.Fatal(err)
		}
	}
	for i := range ins {
		ins[i].CreatedAt = ins[i].CreatedAt.UTC()
	}
	return map[string]any{"history": hist, "as_of": then, "preferences": prefs, "conflicts": confs, "insights": ins}
}

// TestExportImportIsLossless: a user exported and imported into an empty
// tenant reads the same (facts with both timelines, as-of answers,
// preferences, conflicts with their resolutions, insights), the census of
// nodes and relationships is the same, and importing twice changes nothing.
func TestExportImportIsLossless(t *testing.T) {
	t.Parallel()
	s := graphtest.Store(t)
	src, dst := graphtest.Tenant(t), graphtest.Tenant(t)
	forgetFixture(t, s, src, "alice")
	data := exportNDJSON(t, s, src, "alice")
	t.Logf("export: %d bytes, %d lines", len(data), bytes.Count(data, []byte("\n")))

	st := importNDJSON(t, s, dst, data)
	if st.NodesCreated == 0 || st.RelsCreated == 0 {
		t.Fatalf("import created nothing: %+v", st)
	}
	want, got := memoryView(t, s, src, "alice"), memoryView(t, s, dst, "alice")
	for k := range want {
		if !reflect.DeepEqual(want[k], got[k]) {
			t.Errorf("%s differs after import:\n src %+v\n dst %+v", k, want[k], got[k])
		}
	}
	before := graphtest.CensusOf(graphtest.Census(t, src), src, "alice")
	after := graphtest.CensusOf(graphtest.Census(t, dst), dst, "alice")
	// Jobs and passages are not part of an export.
	for _, k := range []string{"node:Job", "node:Passage", "rel:HAS_PASSAGE"} {
		delete(before, k)
	}
	if !maps.Equal(before, after) {
		t.Errorf("census differs:\n src %v\n dst %v", before, after)
	}
	again := importNDJSON(t, s, dst, data)
	if again.NodesCreated != 0 || again.RelsCreated != 0 {
		t.Fatalf("importing twice created %+v", again)
	}
	if c := graphtest.CensusOf(graphtest.Census(t, dst), dst, "alice"); !maps.Equal(c, after) {
		t.Fatalf("importing twice changed the census: %v", c)
	}
	// Search reads the scope token: the imported memory is found in its
	// new tenant exactly as in the old one (top 10 of each tier).
	search := func(tenant string) string {
		hits, err := s.SearchText(t.Context(), graph.SearchScope{Tenant: tenant, UserID: "alice"}, []string{"paris", "sushi", "ann"}, nil, true,
			graph.TextLimits{Raw: 10, Facts: 10, Events: 10, Insights: 10})
		if err != nil {
			t.Fatal(err)
		}
		// Hits of equal score come in index order, which differs between
		// tenants, and a score carries the index's statistics of the scope
		// token (a tenant whose nodes were updated counts their old
		// versions until Lucene merges them): compare the set of (tier,
		// id, session, text).
		var out []string
		for _, h := range hits.Raw {
			out = append(out, fmt.Sprintf("raw %s %s %s", h.Event.SessionID, h.Event.ID, h.Event.Content))
		}
		slices.Sort(out)
		return strings.Join(out, "\n")
	}
	if a, b := search(src), search(dst); a != b || !strings.Contains(a, "Paris") {
		t.Fatalf("search differs or finds nothing:\n src %s\n dst %s", a, b)
	}
}

// TestImportMergesOntoExistingEntities: importing a user into a tenant that
// already holds the same user with entities of the same type and name
// (under other ids) does not break the uniqueness constraints: the import
// merges onto the tenant's entities, attaches the file's facts to them, and
// a second import still changes nothing.
func TestImportMergesOntoExistingEntities(t *testing.T) {
	t.Parallel()
	s := graphtest.Store(t)
	src, dst := graphtest.Tenant(t), graphtest.Tenant(t)
	forgetFixture(t, s, src, "alice")
	data := exportNDJSON(t, s, src, "alice")

	// dst already knows alice (her :User entity) and Paris, from another
	// session, with ids of its own.
	if _, err := s.AppendEvents(t.Context(), dst, "other", "alice", "agent", []graph.NewRawEvent{{ID: "o1", Kind: graph.RawMessage,
		Role: "user", Content: "Paris is lovely", OccurredAt: knDay("2024-01-01")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.WriteKnowledge(t.Context(), graph.KnowledgeWrite{Tenant: dst, UserID: "alice", SessionID: "other",
		ObservedAt: knDay("2024-01-01"), Extractor: "test",
		Entities: []graph.EntityInput{knUserEnt(), knEnt("paris", "Paris", "Place")},
		Facts:    []graph.FactInput{knFact("user", "VISITED", "paris", knSrc("o1"))}}); err != nil {
		t.Fatal(err)
	}
	entityIDs := func(tenant string) map[string]string {
		out := map[string]string{}
		for _, rec := range knQuery(t, `MATCH (e:Entity {tenant: $t, user_id: 'alice'}) RETURN e.type + ':' + e.norm_name AS k, e.id AS id`,
			map[string]any{"t": tenant}) {
			out[rec.Values[0].(string)] = rec.Values[1].(string)
		}
		return out
	}
	before := entityIDs(dst)
	if srcIDs := entityIDs(src); srcIDs["Place:paris"] == before["Place:paris"] || before["Place:paris"] == "" {
		t.Fatalf("the fixture should give Paris different ids: src %v dst %v", srcIDs, before)
	}

	st := importNDJSON(t, s, dst, data)
	if st.EntitiesMerged < 2 {
		t.Fatalf("import merged %d entities, want the user and Paris: %+v", st.EntitiesMerged, st)
	}
	after := entityIDs(dst)
	for k, id := range before {
		if after[k] != id {
			t.Errorf("%s: id %s became %s", k, id, after[k])
		}
	}
	if len(after) != len(entityIDs(src)) {
		t.Errorf("entities after import %v, want one per entity of the source %v", after, entityIDs(src))
	}
	// The file's facts hang on dst's Paris, beside dst's own fact.
	facts, err := s.Facts(t.Context(), dst, "alice", graph.FactQuery{IncludeHistory: true})
	if err != nil {
		t.Fatal(err)
	}
	onParis := map[string]bool{}
	for _, f := range facts {
		if f.ObjectID == before["Place:paris"] {
			onParis[f.Predicate] = true
		}
	}
	if !onParis["VISITED"] || !onParis["LIVES_IN"] {
		t.Fatalf("facts on dst's Paris: %v (want its VISITED and the file's LIVES_IN)", onParis)
	}
	census := graphtest.CensusOf(graphtest.Census(t, dst), dst, "alice")
	if again := importNDJSON(t, s, dst, data); again.NodesCreated != 0 || again.RelsCreated != 0 {
		t.Fatalf("importing twice created %+v", again)
	}
	if c := graphtest.CensusOf(graphtest.Census(t, dst), dst, "alice"); !maps.Equal(c, census) {
		t.Fatalf("importing twice changed the census:\n %v\n %v", census, c)
	}
}
