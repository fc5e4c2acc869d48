package retrieval

import (
	"slices"
	"strings"
	"testing"

	"github.com/graphmem/graphmem/errs"
	"github.com/graphmem/graphmem/graph"
)

func TestAnalyzeQuery(t *testing.T) {
	hints, wh := newHintIndex(), DefaultConfig().WhHintWeight
	cases := []struct {
		q         string
		words     []string
		aboutUser bool
		top       string // the predicate with the strongest hint
	}{
		{"Where does the user live?", []string{"live"}, true, "LIVES_IN"},
		{"Where does the user work?", []string{"work"}, true, "WORKS_AT"},
		{"What activities does Melanie partake in?", []string{"activities", "melanie", "partake"}, false, "PRACTICES"},
		{"Who is Caroline married to?", []string{"caroline", "married"}, false, "MARRIED_TO"},
		{"What are my favourite foods?", []string{"favourite", "foods"}, true, "HAS_FAVORITE"},
		{"When did Jon and Gina meet in New York?", []string{"jon", "gina", "meet", "new", "york"}, false, "SCHEDULED_ON"},
		{"Why does John like Aragorn from Lord of the Rings?", []string{"john", "aragorn", "lord", "rings"}, false, "LIKES"},
	}
	for _, tc := range cases {
		a := analyzeQuery(tc.q, hints, wh)
		if !slices.Equal(a.Words, tc.words) {
			t.Errorf("%q: words %v, want %v", tc.q, a.Words, tc.words)
		}
		if a.AboutUser != tc.aboutUser {
			t.Errorf("%q: about user = %v", tc.q, a.AboutUser)
		}
		best, bestW := "", 0.0
		for p, w := range a.Predicates {
			if w > bestW || (w == bestW && p < best) {
				best, bestW = p, w
			}
		}
		if best != tc.top {
			t.Errorf("%q: strongest predicate hint %s (%v), want %s", tc.q, best, a.Predicates, tc.top)
		}
	}
}

func TestDedupeKeepsSupersededFactsWhenHistoryIsAsked(t *testing.T) {
	in := []SearchResult{
		{ID: "e1", Kind: KindRaw, Text: "I live in Paris.", SessionID: "s1", SourceEventIDs: []string{"e1"}, Status: StatusSuperseded},
		{ID: "f1", Kind: KindFact, Text: "The user lives in Paris", SourceEventIDs: []string{"e1"}, Status: StatusSuperseded, sessions: []string{"s1"}},
		{ID: "f2", Kind: KindFact, Text: "The user likes Paris", SourceEventIDs: []string{"e1"}, Status: StatusCurrent, sessions: []string{"s1"}},
	}
	ids := func(rs []SearchResult) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.ID)
		}
		return out
	}
	if got := ids(dedupeByEvents(in, 10, DefaultConfig().MaxMergedFacts, false)); !slices.Equal(got, []string{"e1"}) {
		t.Fatalf("without history: kept %v, want only the turn (its facts rest on it)", got)
	}
	if got := ids(dedupeByEvents(in, 10, DefaultConfig().MaxMergedFacts, true)); !slices.Equal(got, []string{"e1", "f1"}) {
		t.Fatalf("with history: kept %v, want the turn and its superseded fact (a current fact still folds into the turn)", got)
	}
}

func TestDedupeMergesFactsOfOneTurnAndDropsCoveredTurns(t *testing.T) {
	in := []SearchResult{
		{ID: "f1", Kind: KindFact, Text: "The user sold the Corolla", SourceEventIDs: []string{"e1"}, Path: []string{"u -[OWNS]-> Corolla"}},
		{ID: "f2", Kind: KindFact, Text: "The user drives a Tesla", SourceEventIDs: []string{"e1"}, Path: []string{"u -[DRIVES]-> Tesla"}},
		{ID: "e1", Kind: KindRaw, Text: "I sold the Corolla and bought a Tesla", SourceEventIDs: []string{"e1"}},
		{ID: "s1", Kind: KindEvent, Text: "summary", SourceEventIDs: []string{"e1", "e2"}},
		{ID: "e3", Kind: KindRaw, Text: "other", SourceEventIDs: []string{"e3"}},
	}
	got := dedupeByEvents(in, 10, DefaultConfig().MaxMergedFacts, false)
	var ids []string
	for _, r := range got {
		ids = append(ids, r.ID)
	}
	if !slices.Equal(ids, []string{"f1", "s1", "e3"}) {
		t.Fatalf("dedupe kept %v", ids)
	}
	if got[0].Text != "The user sold the Corolla; The user drives a Tesla" || len(got[0].Path) != 2 {
		t.Fatalf("facts of one turn were not merged with their paths: %q %v", got[0].Text, got[0].Path)
	}
	if got := dedupeByEvents(in, 2, DefaultConfig().MaxMergedFacts, false); len(got) != 2 {
		t.Fatalf("limit not applied: %d", len(got))
	}
}

// Raw ids are the client's and unique only within a session: a fact read
// from turn "e1" of one session does not stand for turn "e1" of another.
func TestDedupeKeysTurnsBySession(t *testing.T) {
	in := []SearchResult{
		{ID: "f1", Kind: KindFact, Text: "The user moved to Lisbon", SourceEventIDs: []string{"e1"}, sessions: []string{"s1"}},
		{ID: "e1", Kind: KindRaw, Text: "I moved to Lisbon", SourceEventIDs: []string{"e1"}, SessionID: "s1"},
		{ID: "e1", Kind: KindRaw, Text: "I adopted a cat", SourceEventIDs: []string{"e1"}, SessionID: "s2"},
		{ID: "sum", Kind: KindEvent, Text: "summary of s2", SourceEventIDs: []string{"e1"}, SessionID: "s2"},
	}
	var got []string
	for _, r := range dedupeByEvents(in, 10, DefaultConfig().MaxMergedFacts, false) {
		got = append(got, r.SessionID+"/"+r.ID)
	}
	if !slices.Equal(got, []string{"/f1", "s2/e1"}) {
		t.Fatalf("dedupe kept %v, want the fact and the other session's turn", got)
	}
	a := candidateKey(rawCandidate(graph.RawEvent{NewRawEvent: graph.NewRawEvent{ID: "e1"}, SessionID: "s1"}))
	b := candidateKey(rawCandidate(graph.RawEvent{NewRawEvent: graph.NewRawEvent{ID: "e1"}, SessionID: "s2"}))
	if a == b {
		t.Fatalf("turns of two sessions share the candidate key %q", a)
	}
}

func TestValidateSearch(t *testing.T) {
	err := validateSearch(SearchInput{Query: " ", Tiers: []string{"raw", "memes"}})
	v, ok := err.(*errs.ValidationError)
	if !ok || len(v.Fields) != 2 || v.Fields[0].Field != "query" || v.Fields[1].Field != "tiers[1]" {
		t.Fatalf("validateSearch = %v", err)
	}
}

func TestTopKeysIsDeterministic(t *testing.T) {
	got := topKeys(map[string]float64{"b": 1, "a": 1, "c": 2, "d": 0.5}, 3)
	if !slices.Equal(got, []string{"c", "a", "b"}) {
		t.Fatalf("topKeys = %v", got)
	}
}

func TestCoverageMatchesWordStarts(t *testing.T) {
	tc := termCache{}
	topic := map[string]bool{"paint": true, "go": true}
	cases := map[string]float64{
		"Melanie is painting a sunset":      0.5, // paint- yes, go no
		"We go painting":                    1,
		"A good repaint":                    0, // "go" is not "good"; "paint" inside "repaint" is no word start
		"Goes to paint":                     1, // short stems accept a plural
		"She said: GO! Then painted things": 1,
	}
	for text, want := range cases {
		if got := tc.coverage(topic, text); got != want {
			t.Errorf("coverage(%q) = %v, want %v", text, got, want)
		}
	}
	if tc.coverage(nil, "anything") != 1 {
		t.Error("an empty topic is covered by any text")
	}
}

// A turn and the fact read from it are the same evidence whichever of the
// two ranks first, so ten results name ten pieces of evidence, not five
// twice; a turn of another session with the same id is other evidence.
func TestDedupeDropsATurnAndItsFactCitedTwice(t *testing.T) {
	in := []SearchResult{
		{ID: "f1", Kind: KindFact, Text: "Mel plays clarinet", SourceEventIDs: []string{"t1"}, sessions: []string{"s15"}},
		{ID: "t1", Kind: KindRaw, Text: "Mel: I play clarinet!", SourceEventIDs: []string{"t1"}, SessionID: "s15"},
		{ID: "t1", Kind: KindRaw, Text: "Mel: I drive a Volvo now", SourceEventIDs: []string{"t1"}, SessionID: "s16"},
		{ID: "t2", Kind: KindRaw, Text: "Mel: I go running", SourceEventIDs: []string{"t2"}, SessionID: "s7"},
		{ID: "f2", Kind: KindFact, Text: "Mel goes running", SourceEventIDs: []string{"t2"}, sessions: []string{"s7"}},
		{ID: "f3", Kind: KindFact, Text: "Mel has kids", SourceEventIDs: []string{"t2", "t3"}, sessions: []string{"s7"}},
	}
	var got []string
	for _, r := range dedupeByEvents(in, 10, DefaultConfig().MaxMergedFacts, false) {
		got = append(got, r.SessionID+"/"+r.ID)
	}
	if !slices.Equal(got, []string{"/f1", "s16/t1", "s7/t2", "/f3"}) {
		t.Fatalf("dedupe kept %v, want the fact, the other session's turn, the other turn and the fact citing a new turn", got)
	}
}

// A question naming a person is answered by what that person said: the
// other speaker's turn on the same topic ranks below.
func TestSpeakerPriorDemotesOtherSpeakers(t *testing.T) {
	cfg := DefaultConfig()
	r := &search{cfg: cfg, people: []string{"Melanie"}, set: candidateSet{}}
	mel := r.set.add(&candidate{SearchResult: SearchResult{ID: "a", Kind: KindRaw, SessionID: "s", Text: "Melanie: I play clarinet", Parts: ScoreParts{FullText: 1}}, speaker: "Melanie"})
	car := r.set.add(&candidate{SearchResult: SearchResult{ID: "b", Kind: KindRaw, SessionID: "s", Text: "Caroline: I play guitar", Parts: ScoreParts{FullText: 1, Graph: 0.5}}, speaker: "Caroline"})
	r.speakerPrior()
	if mel.Parts.FullText != cfg.SpeakerBoost {
		t.Errorf("the named speaker's turn: full text %v, want %v", mel.Parts.FullText, cfg.SpeakerBoost)
	}
	if car.Parts.FullText != cfg.OtherSpeakerWeight || car.Parts.Graph != 0.5*cfg.OtherSpeakerWeight {
		t.Errorf("the other speaker's turn: %+v, want scaled by %v", car.Parts, cfg.OtherSpeakerWeight)
	}
}

// TestEmptySummary: a summary whose sections are all "(none)" beside the
// window's description says nothing and is no candidate; one line of
// content, in any section or as free text, makes it one.
func TestEmptySummary(t *testing.T) {
	empty := "USER_CONTEXT:\n- (none)\nCOMPLETED:\n- (none)\nPENDING:\n- (none)\nCURRENT_STATE:\n- Window: 2 events from 20 October 2023 between User, Assistant"
	if !emptySummary(empty) {
		t.Error("an all-(none) summary was read as saying something")
	}
	for _, s := range []string{
		strings.Replace(empty, "COMPLETED:\n- (none)", "COMPLETED:\n- User: I'm from Braga.", 1),
		strings.Replace(empty, "USER_CONTEXT:\n- (none)", "USER_CONTEXT:\n- The user lives in Braga", 1),
		"The user talked about moving to Braga.",
	} {
		if emptySummary(s) {
			t.Errorf("a summary with content was read as empty:\n%s", s)
		}
	}
}

// TestOriginIsNotAHistoryQuestion: "originally" asks for the past unless
// it asks where someone is from, which has no older value.
func TestOriginIsNotAHistoryQuestion(t *testing.T) {
	for q, want := range map[string]bool{
		"Where is the user originally from?":                false,
		"Where does the user come from originally?":         false,
		"Where did the user originally live?":               true,
		"Where did the user live before moving here?":       true,
		"Where was the user working before, and from when?": true,
		"Which city does the user live in now?":             false,
	} {
		if got := historyQuestion(q); got != want {
			t.Errorf("historyQuestion(%q) = %v, want %v", q, got, want)
		}
	}
}
