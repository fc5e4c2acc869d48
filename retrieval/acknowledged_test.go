package retrieval

import (
	"context"
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph"
)

// ackGraph's full text finds only the turns it is given as hits; the turns
// before them come from the conversation.
type ackGraph struct {
	fakeGraph
	hits []graph.RawEvent
	conv []graph.RawEvent // one session, in order
	ents []graph.EntityHit
}

func (a *ackGraph) SearchText(context.Context, graph.SearchScope, []string, []string, bool, graph.TextLimits) (graph.Candidates, error) {
	out := graph.Candidates{Entities: a.ents}
	for _, h := range a.hits {
		out.Raw = append(out.Raw, graph.RawHit{Event: h, Score: 2})
	}
	return out, nil
}

func (a *ackGraph) PrecedingTurns(_ context.Context, _ graph.SearchScope, turns []graph.TurnRef) (map[graph.TurnRef]graph.RawEvent, error) {
	out := map[graph.TurnRef]graph.RawEvent{}
	for _, t := range turns {
		for i, e := range a.conv {
			if e.ID == t.ID && i > 0 {
				out[t] = a.conv[i-1]
			}
		}
	}
	return out, nil
}

func TestAcknowledgedStatementAnswersForTheReply(t *testing.T) {
	t.Parallel()
	at := time.Date(2024, 5, 1, 9, 0, 0, 0, time.UTC)
	turn := func(id, role, name, text string, seq int64) graph.RawEvent {
		return graph.RawEvent{NewRawEvent: graph.NewRawEvent{ID: id, Kind: graph.RawMessage, Role: role, Name: name, Content: text, OccurredAt: at},
			SessionID: "s1", Seq: seq}
	}
	for _, tc := range []struct {
		name, query string
		conv        []graph.RawEvent
		hit         string // the turn full text finds
		want        string // the statement that must be found, "" none
	}{
		{name: "the user's statement behind the assistant's reply", query: "What is the user's job?",
			conv: []graph.RawEvent{turn("u1", "user", "", "I'm an air traffic controller at Heathrow.", 1),
				turn("a1", "assistant", "", "A demanding job! How do you switch off?", 2)},
			hit: "a1", want: "u1"},
		{name: "a named person's statement behind the other speaker's reply", query: "What does Nina do for work?",
			conv: []graph.RawEvent{turn("n1", "user", "Nina", "I finally finished my shift at the bakery.", 1),
				turn("o1", "assistant", "Omar", "Sounds like hard work, Nina!", 2)},
			hit: "o1", want: "n1"},
		{name: "a question before the reply states nothing", query: "What is the user's job?",
			conv: []graph.RawEvent{turn("u1", "user", "", "Can you suggest a good book?", 1),
				turn("a1", "assistant", "", "Try a novel about a job in the city.", 2)},
			hit: "a1", want: ""},
		{name: "the asked person's own turn leads nowhere", query: "What is the user's job?",
			conv: []graph.RawEvent{turn("a0", "assistant", "", "Good morning! What are you up to?", 1),
				turn("u1", "user", "", "Heading to my job at the port.", 2)},
			hit: "u1", want: ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := &ackGraph{conv: tc.conv}
			if tc.hit == "o1" {
				g.ents = []graph.EntityHit{{ID: "nina", Name: "Nina", NormName: "nina", Type: "Person"}}
			}
			for _, e := range tc.conv {
				if e.ID == tc.hit {
					g.hits = append(g.hits, e)
				}
			}
			s, err := New(Deps{Text: g, Graph: g, Context: unusedContextStore{}, Views: unusedViews{}, Counter: zeroCounter{}, Turns: g,
				Now: func() time.Time { return at.Add(time.Hour) }}, Config{})
			if err != nil {
				t.Fatal(err)
			}
			out, err := s.Search(t.Context(), "t1", SearchInput{UserID: "u", Query: tc.query, Limit: 5, Explain: true})
			if err != nil {
				t.Fatal(err)
			}
			rank := map[string]int{}
			for i, r := range out.Results {
				rank[r.ID] = i + 1
			}
			if tc.want == "" {
				if len(out.Results) != 1 || out.Results[0].ID != tc.hit {
					t.Fatalf("want only the hit %s, got %+v", tc.hit, out.Results)
				}
				return
			}
			if rank[tc.want] == 0 {
				t.Fatalf("%s not found: %+v", tc.want, out.Results)
			}
			if tc.name == "the user's statement behind the assistant's reply" && rank[tc.want] > rank[tc.hit] {
				t.Fatalf("the user's statement %s ranks %d, below the assistant's reply %s at %d", tc.want, rank[tc.want], tc.hit, rank[tc.hit])
			}
		})
	}
}

// TestAcknowledgedByMeaning: for a question about the user, the assistant's
// reply closest to it in meaning ("a lovely way to earn a living", for
// "What is the user's job?") leads to the statement before it, which shares
// neither a word nor the reply's meaning with the question. With no reply
// followed by meaning (AckVectorCandidates 0) the statement has no such
// path.
func TestAcknowledgedByMeaning(t *testing.T) {
	t.Parallel()
	at := time.Date(2024, 5, 1, 9, 0, 0, 0, time.UTC)
	turn := func(id, role, text string, seq int64) graph.RawEvent {
		return graph.RawEvent{NewRawEvent: graph.NewRawEvent{ID: id, Kind: graph.RawMessage, Role: role, Content: text, OccurredAt: at},
			SessionID: "s1", Seq: seq}
	}
	conv := []graph.RawEvent{
		turn("u1", "user", "Twenty kids a week come to my front room for piano lessons.", 1),
		turn("a1", "assistant", "What a lovely way to earn a living, a real job!", 2),
		turn("u2", "user", "Thanks, it keeps me busy.", 3),
		turn("a2", "assistant", "Great, sounds lovely.", 4),
	}
	for _, followed := range []int{3, 0} {
		cfg := DefaultConfig()
		cfg.AckVectorCandidates = followed
		g := &ackGraph{conv: conv}
		s, err := New(Deps{Text: g, Graph: g, Context: unusedContextStore{}, Views: unusedViews{}, Counter: zeroCounter{}, Turns: g,
			Embedder: conceptEmbedder{}, Vectors: fakeVectors{conv}, Now: func() time.Time { return at.Add(time.Hour) }}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		out, err := s.Search(t.Context(), "t1", SearchInput{UserID: "u", Query: "What is the user's job?", Limit: 5, Explain: true})
		if err != nil {
			t.Fatal(err)
		}
		acked := false
		for _, r := range out.Results {
			acked = acked || r.ID == "u1" && len(r.Path) > 0 && r.Path[0] == "acknowledged by a1"
		}
		if acked != (followed > 0) {
			t.Fatalf("AckVectorCandidates %d: statement acknowledged by a1 = %v; results %+v", followed, acked, out.Results)
		}
	}
}
