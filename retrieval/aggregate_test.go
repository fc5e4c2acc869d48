package retrieval

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph"
)

func TestSetQuestion(t *testing.T) {
	cases := map[string]bool{
		"What instruments does Melanie play?":           true,
		"Which cities has John visited?":                true,
		"What kinds of art does she make?":              true,
		"How many times has she been to the beach?":     true,
		"Has he ever been to Japan?":                    true,
		"What does Melanie do to relax?":                false,
		"What is Caroline's relationship status?":       false,
		"Which class did she take?":                     false, // a singular in -ss
		"How many years has she lived in Berlin?":       false, // a duration
		"Which days does she go swimming?":              false,
		"When did Melanie paint a sunrise?":             false,
		"What was the name of his dog?":                 false,
		"Where did they go on their honeymoon in Bali?": false,
	}
	for q, want := range cases {
		if got := setQuestion(q); got != want {
			t.Errorf("setQuestion(%q) = %v, want %v", q, got, want)
		}
	}
}

// hopGraph is fakeGraph whose expansion returns fixed hops from the seeds.
type hopGraph struct {
	fakeGraph
	entities []graph.EntityHit
	hops     []graph.Hop
}

func (g *hopGraph) SearchText(ctx context.Context, sc graph.SearchScope, terms, grams []string, aboutUser bool, lim graph.TextLimits) (graph.Candidates, error) {
	out, err := g.fakeGraph.SearchText(ctx, sc, terms, grams, aboutUser, lim)
	out.Entities = g.entities
	return out, err
}

func (g *hopGraph) Expand(context.Context, graph.SearchScope, []string, []string, int, []string, int) (graph.Expansion, error) {
	return graph.Expansion{Hops: g.hops}, nil
}

// A question asking for a set is answered first by one result gathering
// the facts of the asked type around the person it names, citing each
// turn; the facts of other types and the chatter come after it.
func TestSearchAggregatesASetQuestion(t *testing.T) {
	t.Parallel()
	at := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	turn := func(id, session, text string) graph.RawEvent {
		return graph.RawEvent{NewRawEvent: graph.NewRawEvent{ID: id, Kind: graph.RawMessage, Role: "user", Name: "Melanie",
			Content: text, OccurredAt: at}, SessionID: session}
	}
	fact := func(id, pred, obj, text, src, session string) graph.Hop {
		return graph.Hop{From: "mel", ToID: "o-" + id, ToName: obj, Fact: graph.Fact{ID: id, SubjectID: "mel", Subject: "Melanie",
			Predicate: pred, ObjectID: "o-" + id, Object: obj, Fact: text, Status: StatusCurrent, ValidFrom: at,
			SourceEventIDs: []string{src}, SessionIDs: []string{session}}}
	}
	g := &hopGraph{
		fakeGraph: fakeGraph{raws: []graph.RawEvent{
			turn("c1", "s9", "Melanie: music is so much fun to play with friends"),
			turn("c2", "s9", "Melanie: we played games all night"),
		}},
		entities: []graph.EntityHit{{ID: "mel", Name: "Melanie", NormName: "melanie", Type: "Person", MentionCount: 50}},
		hops: []graph.Hop{
			fact("f-clarinet", "PRACTICES", "clarinet", "Melanie plays clarinet", "d1", "s1"),
			fact("f-violin", "PRACTICES", "violin", "Melanie plays violin", "d2", "s2"),
			fact("f-flute", "PRACTICES", "flute", "Melanie plays flute", "d2", "s2"), // said with the violin
			fact("f-tea", "HAS_PET", "cat", "Melanie has a cat", "d3", "s3"),
		},
	}
	s, err := New(Deps{Text: g, Graph: g, Context: unusedContextStore{}, Views: unusedViews{}, Counter: zeroCounter{},
		Now: func() time.Time { return at.Add(24 * time.Hour) }}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	search := func(q string) []SearchResult {
		t.Helper()
		out, err := s.Search(t.Context(), "t1", SearchInput{UserID: "mel", Query: q, Explain: true})
		if err != nil {
			t.Fatal(err)
		}
		return out.Results
	}
	got := search("What instruments does Melanie play?")
	pos := slices.IndexFunc(got, func(r SearchResult) bool {
		return slices.Equal(slices.Sorted(slices.Values(r.SourceEventIDs)), []string{"d1", "d2"})
	})
	if pos < 0 || pos > 1 {
		t.Fatalf("one of the first two results should cite both instruments' turns: %+v", got)
	}
	agg := got[pos]
	if !strings.Contains(agg.Text, "clarinet") || !strings.Contains(agg.Text, "violin") || !strings.Contains(agg.Text, "flute") ||
		!strings.Contains(agg.Explanation, "set question") || !slices.Equal(slices.Sorted(slices.Values(agg.sessions)), []string{"s1", "s2"}) {
		t.Errorf("aggregate text %q, explanation %q, sessions %v", agg.Text, agg.Explanation, agg.sessions)
	}
	for i, r := range got {
		if i != pos && (r.ID == "f-clarinet" || r.ID == "f-violin" || r.ID == "f-flute" || r.ID == "f-tea" && i < pos) {
			t.Errorf("result %d: %s (a gathered fact again, or another type before the set)", i, r.ID)
		}
	}
	// One instrument asked for: the facts stay separate results.
	for _, r := range search("What instrument did Melanie play first?") {
		if len(r.SourceEventIDs) > 1 {
			t.Errorf("a question that is not a set got an aggregate: %+v", r)
		}
	}
}
