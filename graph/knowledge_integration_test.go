//go:build integration

package graph_test

import (
	"context"
	"errors"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/graph/graphtest"
	"github.com/graphmem/graphmem/ontology"
)

// ---- helpers shared by the knowledge-layer tests (prefixed kn) ----

// kn is one test's view of the store: its own tenant and a user.
type kn struct {
	t      *testing.T
	s      *graph.Store
	tenant string
	user   string
}

func newKn(t *testing.T) *kn {
	t.Helper()
	return &kn{t: t, s: graphtest.Store(t), tenant: graphtest.Tenant(t), user: "u-1"}
}

func knDay(s string) time.Time {
	d, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return d.UTC()
}

func knUserEnt() graph.EntityInput { return graph.EntityInput{Key: "user", Name: "I", IsUser: true} }

func knEnt(key, name string, typ ontology.EntityType) graph.EntityInput {
	return graph.EntityInput{Key: key, Name: name, Type: typ}
}

func knFact(subj, pred, obj string, mods ...func(*graph.FactInput)) graph.FactInput {
	f := graph.FactInput{Subject: subj, Predicate: pred, Object: obj, Confidence: 0.9}
	for _, m := range mods {
		m(&f)
	}
	return f
}

func knNeg(f *graph.FactInput) { f.Polarity = ontology.Negative }

func knConf(c float64) func(*graph.FactInput) { return func(f *graph.FactInput) { f.Confidence = c } }

func knQual(q string) func(*graph.FactInput) { return func(f *graph.FactInput) { f.Qualifier = q } }

func knFrom(t time.Time) func(*graph.FactInput) { return func(f *graph.FactInput) { f.ValidFrom = &t } }

func knSrc(ids ...string) func(*graph.FactInput) {
	return func(f *graph.FactInput) { f.SourceEventIDs = ids }
}

func knSay(s string) func(*graph.FactInput) { return func(f *graph.FactInput) { f.Sentence = s } }

// write stores one window and fails the test on error.
func (k *kn) write(session string, at time.Time, ents []graph.EntityInput, facts ...graph.FactInput) graph.KnowledgeResult {
	k.t.Helper()
	res, err := k.s.WriteKnowledge(k.t.Context(), graph.KnowledgeWrite{Tenant: k.tenant, UserID: k.user,
		SessionID: session, ObservedAt: at, Extractor: "test", Entities: ents, Facts: facts})
	if err != nil {
		k.t.Fatalf("write knowledge (%s): %v", session, err)
	}
	return res
}

func (k *kn) facts(q graph.FactQuery) []graph.Fact {
	k.t.Helper()
	out, err := k.s.Facts(k.t.Context(), k.tenant, k.user, q)
	if err != nil {
		k.t.Fatalf("facts: %v", err)
	}
	return out
}

// objects lists "PREDICATE object [status]" of facts, sorted.
func knObjects(facts []graph.Fact, withStatus bool) []string {
	out := make([]string, 0, len(facts))
	for _, f := range facts {
		s := f.Predicate + " " + f.Object
		if f.Polarity == "negative" {
			s += " (neg)"
		}
		if withStatus {
			s += " [" + f.Status + "]"
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func knFind(t *testing.T, facts []graph.Fact, pred, object string) graph.Fact {
	t.Helper()
	for _, f := range facts {
		if f.Predicate == pred && f.Object == object {
			return f
		}
	}
	t.Fatalf("no %s %s fact among %v", pred, object, knObjects(facts, true))
	return graph.Fact{}
}

func (k *kn) conflicts(status string) []graph.Conflict {
	k.t.Helper()
	out, err := k.s.Conflicts(k.t.Context(), k.tenant, k.user, status, 100)
	if err != nil {
		k.t.Fatalf("conflicts: %v", err)
	}
	return out
}

func knEqual(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("%s:\n got  %q\n want %q", what, got, want)
	}
}

var (
	knDriverOnce sync.Once
	knDriver     neo4j.DriverWithContext
	knDriverErr  error
)

// knQuery runs a statement directly, for assertions on the stored graph
// that the API does not expose (counts, labels, raw relationships).
func knQuery(t *testing.T, cypher string, params map[string]any) []*neo4j.Record {
	t.Helper()
	knDriverOnce.Do(func() {
		knDriver, knDriverErr = graphtest.Driver(graphtest.URI(t))
	})
	if knDriverErr != nil {
		t.Fatalf("driver: %v", knDriverErr)
	}
	res, err := neo4j.ExecuteQuery(context.Background(), knDriver, cypher, params, neo4j.EagerResultTransformer)
	if err != nil {
		t.Fatalf("query %q: %v", cypher, err)
	}
	return res.Records
}

func knInt(t *testing.T, cypher string, params map[string]any) int64 {
	t.Helper()
	recs := knQuery(t, cypher, params)
	if len(recs) != 1 {
		t.Fatalf("query %q: %d rows", cypher, len(recs))
	}
	v, _ := recs[0].Values[0].(int64)
	return v
}

// knCounts summarizes everything a tenant has in the graph.
func knCounts(t *testing.T, tenant string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for _, rec := range knQuery(t, `
		MATCH (n {tenant: $tenant})
		OPTIONAL MATCH (n)-[r]->()
		WITH n, count(r) AS rels, sum(coalesce(n.mention_count, 0)) AS mentions
		RETURN count(n) AS nodes, sum(rels) AS rels, sum(mentions) AS mentions`, map[string]any{"tenant": tenant}) {
		out["nodes"], _ = rec.Values[0].(int64)
		out["rels"], _ = rec.Values[1].(int64)
		out["mentions"], _ = rec.Values[2].(int64)
	}
	rec := knQuery(t, `
		MATCH ()-[r {tenant: $tenant}]->() WITH r
		RETURN sum(coalesce(r.mention_count, 0)) AS fm, count(r) AS n, sum(size(coalesce(r.source_event_ids, []))) AS srcs`,
		map[string]any{"tenant": tenant})[0]
	out["fact_mentions"], _ = rec.Values[0].(int64)
	out["tenant_rels"], _ = rec.Values[1].(int64)
	out["sources"], _ = rec.Values[2].(int64)
	return out
}

// ---- write-level tests ----

// TestKnowledgeWriteIsIdempotent replays a write (a retried job): nothing
// is duplicated, no second conflict, no count moves; provenance links
// (Raw and Event MENTIONS) are created once.
func TestKnowledgeWriteIsIdempotent(t *testing.T) {
	t.Parallel()
	k := newKn(t)
	ctx := t.Context()
	for sess, ids := range map[string][]string{"s1": {"e1", "e2"}, "s2": {"e3", "e4"}} {
		evs := make([]graph.NewRawEvent, len(ids))
		for i, id := range ids {
			evs[i] = graph.NewRawEvent{ID: id, Kind: "message", Role: "user", Content: "text " + id, OccurredAt: knDay("2024-02-03")}
		}
		if _, err := k.s.AppendEvents(ctx, k.tenant, sess, k.user, "", evs); err != nil {
			t.Fatal(err)
		}
	}
	knQuery(t, `CREATE (:Memory:Event {tenant: $tenant, id: 'ev-2', session_id: 's2', user_id: $user, scope: 'x', text: 'summary'})`,
		map[string]any{"tenant": k.tenant, "user": k.user})

	first := graph.KnowledgeWrite{Tenant: k.tenant, UserID: k.user, UserName: "Alice", SessionID: "s1",
		ObservedAt: knDay("2024-02-03"), Extractor: "test",
		Entities: []graph.EntityInput{knUserEnt(), knEnt("paris", "Paris", ontology.Place), knEnt("nurse", "nurse", ontology.Concept)},
		Facts: []graph.FactInput{
			knFact("user", "LIVES_IN", "paris", knSrc("e1"), knSay("Alice lives in Paris")),
			knFact("user", "WORKS_AS", "nurse", knSrc("e2")),
		},
		Mentions: map[string][]string{"e1": {"user", "paris"}},
	}
	second := graph.KnowledgeWrite{Tenant: k.tenant, UserID: k.user, SessionID: "s2", EventID: "ev-2",
		ObservedAt: knDay("2024-09-14"), Extractor: "test",
		Entities: []graph.EntityInput{knUserEnt(), knEnt("berlin", "Berlin", ontology.Place), knEnt("eng", "engineer", ontology.Concept)},
		Facts: []graph.FactInput{
			knFact("user", "LIVES_IN", "berlin", knSrc("e3")),
			knFact("user", "WORKS_AS", "eng", knSrc("e4")),
		},
	}
	for _, w := range []graph.KnowledgeWrite{first, second} {
		if _, err := k.s.WriteKnowledge(ctx, w); err != nil {
			t.Fatal(err)
		}
	}
	before := knCounts(t, k.tenant)
	conflictsBefore := k.conflicts("")
	for _, w := range []graph.KnowledgeWrite{first, second, second} {
		res, err := k.s.WriteKnowledge(ctx, w)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.FactsCreated)+len(res.FactsReinforced)+len(res.FactsSuperseded)+len(res.ConflictsOpened)+
			len(res.ConflictsResolved)+len(res.EntitiesCreated)+res.MentionsCreated != 0 {
			t.Fatalf("replay changed something: %+v", res)
		}
		if len(res.FactsUnchanged) != 2 || slices.Contains(res.FactIDs, "") {
			t.Fatalf("replay should report both facts unchanged: %+v", res)
		}
	}
	after := knCounts(t, k.tenant)
	for key, v := range before {
		if after[key] != v {
			t.Fatalf("replay changed %s: %d -> %d (before %v, after %v)", key, v, after[key], before, after)
		}
	}
	if got := k.conflicts(""); len(got) != len(conflictsBefore) || len(got) != 2 {
		t.Fatalf("conflicts after replay: %d, before %d, want 2", len(got), len(conflictsBefore))
	}
	// Exactly one relationship per fact and no duplicate provenance.
	if n := knInt(t, `MATCH (:Entity {tenant: $t})-[r:LIVES_IN]->(:Entity {name: 'Berlin'}) RETURN count(r)`,
		map[string]any{"t": k.tenant}); n != 1 {
		t.Fatalf("%d LIVES_IN Berlin relationships", n)
	}
	if n := knInt(t, `MATCH (:Raw {tenant: $t, id: 'e1'})-[m:MENTIONS]->(e:Entity) RETURN count(m)`,
		map[string]any{"t": k.tenant}); n != 2 {
		t.Fatalf("raw e1 mentions %d entities, want 2 (user, Paris)", n)
	}
	if n := knInt(t, `MATCH (:Event {tenant: $t, id: 'ev-2'})-[m:MENTIONS {tenant: $t}]->(:Entity) RETURN count(m)`,
		map[string]any{"t": k.tenant}); n != 3 {
		t.Fatalf("event ev-2 mentions %d entities, want 3", n)
	}
	berlin := knFind(t, k.facts(graph.FactQuery{}), "LIVES_IN", "Berlin")
	knEqual(t, "Berlin provenance", berlin.SourceEventIDs, []string{"e3"})
	knEqual(t, "Berlin sessions", berlin.SessionIDs, []string{"s2"})
	knEqual(t, "Berlin event ids", berlin.EventIDs, []string{"ev-2"})
	if berlin.MentionCount != 1 || berlin.ExtractedBy != "test" {
		t.Fatalf("Berlin fact after replays: %+v", berlin)
	}
	view, err := k.s.Entity(ctx, k.tenant, berlin.ObjectID, graph.EntityQuery{})
	if err != nil {
		t.Fatal(err)
	}
	knEqual(t, "raw events mentioning Berlin", view.RawEventIDs, []string{"e3"})
	knEqual(t, "event nodes mentioning Berlin", view.EventIDs, []string{"ev-2"})
	if len(view.In) != 1 || view.In[0].Predicate != "LIVES_IN" || view.MentionCount != 1 {
		t.Fatalf("Berlin view: %+v", view)
	}
}

// TestKnowledgeReinforcesDuplicates: the same fact from a new event adds
// provenance to the existing relationship instead of a second one.
func TestKnowledgeReinforcesDuplicates(t *testing.T) {
	t.Parallel()
	k := newKn(t)
	ents := []graph.EntityInput{knUserEnt(), knEnt("tea", "green tea", ontology.Food)}
	r1 := k.write("s1", knDay("2024-01-01"), ents, knFact("user", "LIKES", "tea", knSrc("a1"), knConf(0.6)))
	r2 := k.write("s2", knDay("2024-02-01"), ents, knFact("user", "LIKES", "tea", knSrc("b1"), knConf(0.6)))
	if len(r2.FactsCreated) != 0 || len(r2.FactsReinforced) != 1 || r2.FactsReinforced[0] != r1.FactsCreated[0] {
		t.Fatalf("second mention: %+v", r2)
	}
	f := knFind(t, k.facts(graph.FactQuery{IncludeHistory: true}), "LIKES", "green tea")
	knEqual(t, "sources", f.SourceEventIDs, []string{"a1", "b1"})
	knEqual(t, "sessions", f.SessionIDs, []string{"s1", "s2"})
	if f.MentionCount != 2 || f.Confidence <= 0.6 || f.Confidence >= 1 || !f.LastSeenAt.Equal(knDay("2024-02-01")) {
		t.Fatalf("reinforced fact: %+v", f)
	}
	if f.ValidFrom != knDay("2024-01-01") || f.Status != "current" || !f.Preference {
		t.Fatalf("reinforced fact keeps its start: %+v", f)
	}
	if n := knInt(t, `MATCH ()-[r:LIKES {tenant: $t}]->() RETURN count(r)`, map[string]any{"t": k.tenant}); n != 1 {
		t.Fatalf("%d LIKES relationships, want 1", n)
	}
	view, err := k.s.Entity(t.Context(), k.tenant, f.ObjectID, graph.EntityQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if view.MentionCount != 2 {
		t.Fatalf("green tea mention count %d, want 2", view.MentionCount)
	}
}

// TestKnowledgeRejectsInjectionAndInvalidInput: identifiers outside the
// allow-list never reach Cypher; the whole write is refused and nothing
// is stored.
func TestKnowledgeRejectsInjectionAndInvalidInput(t *testing.T) {
	t.Parallel()
	k := newKn(t)
	base := func() graph.KnowledgeWrite {
		return graph.KnowledgeWrite{Tenant: k.tenant, UserID: k.user, SessionID: "s1",
			Entities: []graph.EntityInput{knUserEnt(), knEnt("p", "Paris", ontology.Place)},
			Facts:    []graph.FactInput{knFact("user", "LIVES_IN", "p")}}
	}
	cases := map[string]func(w *graph.KnowledgeWrite){
		"predicate injection":  func(w *graph.KnowledgeWrite) { w.Facts[0].Predicate = "LIVES_IN]->() DETACH DELETE n//" },
		"lower-case predicate": func(w *graph.KnowledgeWrite) { w.Facts[0].Predicate = "lives_in" },
		"unknown predicate":    func(w *graph.KnowledgeWrite) { w.Facts[0].Predicate = "LOVES_DEARLY" },
		"label injection":      func(w *graph.KnowledgeWrite) { w.Entities[1].Type = "Person:Admin" },
		"label backtick":       func(w *graph.KnowledgeWrite) { w.Entities[1].Type = "Person`) DETACH DELETE n //" },
		"reserved label":       func(w *graph.KnowledgeWrite) { w.Entities[1].Type = "Raw" },
		"unknown subject":      func(w *graph.KnowledgeWrite) { w.Facts[0].Subject = "nobody" },
		"unknown object":       func(w *graph.KnowledgeWrite) { w.Facts[0].Object = "nowhere" },
		"bad polarity":         func(w *graph.KnowledgeWrite) { w.Facts[0].Polarity = "maybe" },
		"confidence > 1":       func(w *graph.KnowledgeWrite) { w.Facts[0].Confidence = 2 },
		"empty name":           func(w *graph.KnowledgeWrite) { w.Entities[1].Name = " ... " },
		"duplicate key":        func(w *graph.KnowledgeWrite) { w.Entities = append(w.Entities, knEnt("p", "Rome", ontology.Place)) },
		"unknown mention key": func(w *graph.KnowledgeWrite) {
			w.Mentions = map[string][]string{"e1": {"ghost"}}
		},
		"valid_to before valid_from": func(w *graph.KnowledgeWrite) {
			from, to := knDay("2024-05-01"), knDay("2024-01-01")
			w.Facts[0].ValidFrom, w.Facts[0].ValidTo = &from, &to
		},
		"self loop":  func(w *graph.KnowledgeWrite) { w.Facts[0].Object = "user" },
		"no user id": func(w *graph.KnowledgeWrite) { w.UserID = "" },
	}
	for name, mutate := range cases {
		w := base()
		mutate(&w)
		_, err := k.s.WriteKnowledge(t.Context(), w)
		if !errors.Is(err, graph.ErrInvalid) {
			t.Errorf("%s: got %v, want ErrInvalid", name, err)
		}
	}
	if _, err := k.s.Facts(t.Context(), k.tenant, k.user, graph.FactQuery{Predicate: "LIVES_IN]->() DETACH DELETE n//"}); !errors.Is(err, graph.ErrInvalid) {
		t.Errorf("Facts with an injected predicate filter: %v, want ErrInvalid", err)
	}
	if n := knInt(t, `MATCH (n {tenant: $t}) RETURN count(n)`, map[string]any{"t": k.tenant}); n != 0 {
		t.Fatalf("rejected writes stored %d nodes", n)
	}
	// The valid write goes through and the label is the allow-listed type.
	if _, err := k.s.WriteKnowledge(t.Context(), base()); err != nil {
		t.Fatal(err)
	}
	labels := knQuery(t, `MATCH (e:Entity {tenant: $t, name: 'Paris'}) RETURN labels(e) AS l`, map[string]any{"t": k.tenant})
	if len(labels) != 1 || !slices.Equal(knStrings(labels[0].Values[0]), []string{"Entity", "Place"}) {
		t.Fatalf("Paris labels: %v", labels[0].Values)
	}
}

func knStrings(v any) []string {
	raw, _ := v.([]any)
	out := make([]string, 0, len(raw))
	for _, x := range raw {
		s, _ := x.(string)
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// TestKnowledgeTenantIsolation: a second tenant with the same user id sees
// nothing of the first through any read method and cannot touch it.
func TestKnowledgeTenantIsolation(t *testing.T) {
	t.Parallel()
	a := newKn(t)
	ctx := t.Context()
	ents := []graph.EntityInput{knUserEnt(), knEnt("paris", "Paris", ontology.Place), knEnt("sushi", "sushi", ontology.Food)}
	a.write("s1", knDay("2024-01-01"), ents, knFact("user", "LIVES_IN", "paris"), knFact("user", "LIKES", "sushi"))
	ents[1] = knEnt("rome", "Rome", ontology.Place)
	a.write("s2", knDay("2024-02-01"), ents, knFact("user", "LIVES_IN", "rome"))
	if _, err := a.s.WriteInsights(ctx, a.tenant, a.user, []graph.InsightInput{{Key: "k", Text: "likes sushi", EntityNames: []string{"sushi"}}}); err != nil {
		t.Fatal(err)
	}
	facts := a.facts(graph.FactQuery{IncludeHistory: true})
	conflicts := a.conflicts("")
	if len(facts) != 3 || len(conflicts) != 1 {
		t.Fatalf("tenant A: %d facts, %d conflicts", len(facts), len(conflicts))
	}

	b := &kn{t: t, s: a.s, tenant: graphtest.Tenant(t), user: a.user}
	if got := b.facts(graph.FactQuery{IncludeHistory: true}); len(got) != 0 {
		t.Fatalf("tenant B sees facts: %v", knObjects(got, true))
	}
	if got, err := b.s.Facts(ctx, b.tenant, b.user, graph.FactQuery{Subject: facts[0].SubjectID, IncludeHistory: true}); err != nil || len(got) != 0 {
		t.Fatalf("tenant B facts by A's subject id: %v, %v", got, err)
	}
	if got, err := b.s.Preferences(ctx, b.tenant, b.user, graph.PreferenceQuery{IncludeHistory: true}); err != nil || len(got) != 0 {
		t.Fatalf("tenant B preferences: %v, %v", got, err)
	}
	if got := b.conflicts(""); len(got) != 0 {
		t.Fatalf("tenant B sees conflicts: %+v", got)
	}
	if _, err := b.s.Entity(ctx, b.tenant, facts[0].SubjectID, graph.EntityQuery{}); !errors.Is(err, graph.ErrNotFound) {
		t.Fatalf("tenant B reads A's entity: %v", err)
	}
	if _, err := b.s.UserEntityID(ctx, b.tenant, b.user); !errors.Is(err, graph.ErrNotFound) {
		t.Fatalf("tenant B user entity: %v", err)
	}
	if got, err := b.s.Insights(ctx, b.tenant, b.user, graph.InsightQuery{IncludeSuperseded: true}); err != nil || len(got) != 0 {
		t.Fatalf("tenant B insights: %v, %v", got, err)
	}
	if m, err := b.s.InsightMaterial(ctx, b.tenant, b.user, time.Time{}, 100); err != nil || len(m.Facts)+len(m.Events) != 0 {
		t.Fatalf("tenant B insight material: %+v, %v", m, err)
	}
	if _, err := b.s.ResolveConflict(ctx, b.tenant, conflicts[0].ID, graph.ConflictResolution{Winner: "old"}); !errors.Is(err, graph.ErrNotFound) {
		t.Fatalf("tenant B resolves A's conflict: %v", err)
	}
	// B writing the same names creates B's own entities; A is untouched.
	b.write("s1", knDay("2024-03-01"), ents, knFact("user", "LIVES_IN", "rome"))
	if got := a.facts(graph.FactQuery{IncludeHistory: true}); len(got) != 3 {
		t.Fatalf("tenant A after B's write: %v", knObjects(got, true))
	}
	if got := b.facts(graph.FactQuery{}); len(got) != 1 || got[0].SubjectID == facts[0].SubjectID || got[0].ObjectID == facts[0].ObjectID {
		t.Fatalf("tenant B facts reuse A's entities: %+v", got)
	}
}
