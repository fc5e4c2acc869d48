package retrieval

import (
	"context"
	"slices"
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
