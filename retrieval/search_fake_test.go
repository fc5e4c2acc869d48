package retrieval

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph"
)

// fakeGraph answers Search's store calls from fixed hits: every fact and
// turn matches the query's words alike, so what orders them is what
// Search adds (status, history, de-duplication).
type fakeGraph struct {
	facts []graph.Fact
	raws  []graph.RawEvent
}

func (f *fakeGraph) SearchText(_ context.Context, sc graph.SearchScope, _, _ []string, aboutUser bool, _ graph.TextLimits) (graph.Candidates, error) {
	var out graph.Candidates
	for _, r := range f.raws {
		out.Raw = append(out.Raw, graph.RawHit{Event: r, Score: 2})
	}
	for _, fa := range f.facts {
		if fa.Status == StatusCurrent || sc.IncludeHistory {
			out.Facts = append(out.Facts, graph.FactHit{Fact: fa, Score: 3})
		}
	}
	if aboutUser {
		out.User = &graph.EntityHit{ID: "u", Name: "Alice", NormName: "alice", Type: "Person", IsUser: true}
	}
	return out, nil
}

func (f *fakeGraph) Expand(context.Context, graph.SearchScope, []string, []string, int, []string, int) (graph.Expansion, error) {
	return graph.Expansion{}, nil
}

func (f *fakeGraph) Neighbors(context.Context, graph.SearchScope, []string, []string, int) ([]graph.Hop, error) {
	return nil, nil
}

type unusedContextStore struct{ ContextStore }
type unusedViews struct{ SessionViewer }
type zeroCounter struct{}

func (zeroCounter) Count(string) int { return 0 }

func TestSearchKeepsHistoryBehindWhatHoldsNow(t *testing.T) {
	t.Parallel()
	said := time.Date(2024, 1, 10, 0, 0, 0, 0, time.UTC)
	moved := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	g := &fakeGraph{
		raws: []graph.RawEvent{
			{NewRawEvent: graph.NewRawEvent{ID: "e1", Kind: graph.RawMessage, Role: "user", Content: "I live in Paris", OccurredAt: said},
				SessionID: "s1", Stale: true},
			{NewRawEvent: graph.NewRawEvent{ID: "e2", Kind: graph.RawMessage, Role: "user", Content: "I moved to Berlin, I live there now", OccurredAt: moved},
				SessionID: "s2"},
		},
		facts: []graph.Fact{
			{ID: "f-paris", SubjectID: "u", Subject: "Alice", Predicate: "LIVES_IN", ObjectID: "p", Object: "Paris", Fact: "The user lives in Paris",
				Status: StatusSuperseded, ValidFrom: said, SourceEventIDs: []string{"e1"}, SessionIDs: []string{"s1"}},
			{ID: "f-berlin", SubjectID: "u", Subject: "Alice", Predicate: "LIVES_IN", ObjectID: "b", Object: "Berlin", Fact: "The user lives in Berlin",
				Status: StatusCurrent, ValidFrom: moved, SourceEventIDs: []string{"e2"}, SessionIDs: []string{"s2"}},
		},
	}
	s, err := New(Deps{Text: g, Graph: g, Context: unusedContextStore{}, Views: unusedViews{}, Counter: zeroCounter{},
		Now: func() time.Time { return moved.Add(24 * time.Hour) }}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	ranked := func(in SearchInput) []string {
		t.Helper()
		out, err := s.Search(t.Context(), "t1", in)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, r := range out.Results {
			ids = append(ids, r.ID+"/"+r.Status)
		}
		return ids
	}
	// Now: the current fact first; the turn it was read from is the same
	// memory and is dropped; the turn whose fact was superseded is marked.
	if got := ranked(SearchInput{UserID: "alice", Query: "Where does the user live?"}); !slices.Equal(got,
		[]string{"f-berlin/current", "e1/superseded"}) {
		t.Fatalf("current-by-default ranking %v", got)
	}
	// With history: the closed fact beside its successor, just below it.
	if got := ranked(SearchInput{UserID: "alice", Query: "Where does the user live?", IncludeHistory: true}); !slices.Equal(got,
		[]string{"f-berlin/current", "f-paris/superseded"}) {
		t.Fatalf("ranking with history %v", got)
	}
}

// factVectors finds one turn by a fact read from it and records whether
// the search asked for facts.
type factVectors struct {
	hit   graph.RawEvent
	facts []bool
}

func (f *factVectors) VectorSearch(_ context.Context, _ graph.SearchScope, q graph.VectorQuery) ([]graph.VectorHit, error) {
	f.facts = append(f.facts, q.FactMinScore > 0)
	if q.FactMinScore <= 0 {
		return nil, nil
	}
	return []graph.VectorHit{{Kind: KindRaw, Raw: f.hit, Score: (1 + 0.7) / 2, FactVec: []float32{1, 0}}}, nil
}

func (f *factVectors) Vectors(_ context.Context, _ graph.SearchScope, refs []graph.VectorRef) (map[graph.VectorRef][]float32, error) {
	out := map[graph.VectorRef][]float32{}
	for _, r := range refs {
		out[r] = []float32{0, 1} // every turn's own text: far from the query
	}
	return out, nil
}

type unitEmbedder struct{}

func (unitEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i := range texts {
		out[i] = []float32{1, 0}
	}
	return out, nil
}

// TestQuestionsAboutTheUserMatchTurnsByTheirFacts: a question about the
// user asks the vector search for the facts read from turns, and a turn
// found by one ranks by that fact's closeness, saying so; a question that
// names someone asks for the turns' own texts only.
func TestQuestionsAboutTheUserMatchTurnsByTheirFacts(t *testing.T) {
	t.Parallel()
	at := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	arrived := graph.RawEvent{NewRawEvent: graph.NewRawEvent{ID: "e2", Kind: graph.RawMessage, Role: "user",
		Content: "Our son Arjun arrived on Sunday, three weeks early but healthy.", OccurredAt: at}, SessionID: "s2"}
	g := &fakeGraph{raws: []graph.RawEvent{{NewRawEvent: graph.NewRawEvent{ID: "e1", Kind: graph.RawMessage, Role: "user",
		Content: "The children at the library loved the puppets.", OccurredAt: at}, SessionID: "s1"}}}
	v := &factVectors{hit: arrived}
	s, err := New(Deps{Text: g, Graph: g, Context: unusedContextStore{}, Views: unusedViews{}, Counter: zeroCounter{},
		Embedder: unitEmbedder{}, Vectors: v, Now: func() time.Time { return at.Add(time.Hour) }}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.Search(t.Context(), "t1", SearchInput{UserID: "alice", Query: "Does the user have children?", Explain: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Results) == 0 || out.Results[0].ID != "e2" || !strings.Contains(out.Results[0].Explanation, "by a fact read from it") {
		t.Fatalf("results %+v; want turn e2 first, found by its fact", out.Results)
	}
	if _, err := s.Search(t.Context(), "t1", SearchInput{UserID: "alice", Query: "What did Caroline research?"}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(v.facts, []bool{true, false}) {
		t.Fatalf("facts asked for: %v, want [true false]", v.facts)
	}
}
