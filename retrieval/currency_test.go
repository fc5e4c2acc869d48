package retrieval

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/knowledge"
	"github.com/graphmem/graphmem/ontology"
)

// conceptEmbedder embeds a text as the normalized count of its concepts:
// words of one concept share a dimension, so "flat" and "live" are close
// the way a sentence encoder makes them. It stands in for the local model
// so the currency stage's rules are tested without model files.
type conceptEmbedder struct{}

var testConcepts = map[string]int{
	"live": 0, "lives": 0, "flat": 0, "home": 0, "settled": 0, "moved": 0, "based": 0, "city": 0, "house": 0, "relocated": 0,
	"work": 1, "job": 1, "employer": 1, "engineer": 1, "nurse": 1, "living": 1, "freelance": 1,
	"thanks": 2, "great": 2, "nice": 2, "okay": 2, "hi": 2, "good": 2, "sounds": 2, "lovely": 2,
	"favourite": 3, "food": 3, "colour": 3, "love": 3, "dish": 3, "drink": 3,
	"parade": 9, "flags": 9, "drums": 9, "marched": 9,
	"cat": 8, "dog": 8, "rabbit": 8, "puppy": 8, "animals": 8, "pets": 8, "pet": 8, "beagle": 8, "adopted": 8,
}

func (conceptEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, 10)
		for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return r < 'a' || r > 'z' }) {
			if d, ok := testConcepts[w]; ok {
				v[d]++
			} else {
				v[4+len(w)%4] += 0.2
			}
		}
		n := 0.0
		for _, x := range v {
			n += float64(x * x)
		}
		for j := range v {
			v[j] /= float32(math.Sqrt(n))
		}
		out[i] = v
	}
	return out, nil
}

// conceptService is a search service over the fake graph's turns with the
// concept embedder, its topic reader and the clock at now.
func conceptService(t *testing.T, raws []graph.RawEvent, now time.Time) *Service {
	t.Helper()
	g := &fakeGraph{raws: raws}
	s, err := New(Deps{Text: g, Graph: g, Context: unusedContextStore{}, Views: unusedViews{}, Counter: zeroCounter{},
		Embedder: conceptEmbedder{}, Vectors: fakeVectors{raws}, Topics: knowledge.NewTopicReader(conceptEmbedder{}),
		Now: func() time.Time { return now }}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fakeVectors serves the fake graph's turns as vector hits and their
// vectors, embedded by the concept embedder.
type fakeVectors struct{ raws []graph.RawEvent }

func (f fakeVectors) VectorSearch(ctx context.Context, _ graph.SearchScope, vq graph.VectorQuery) ([]graph.VectorHit, error) {
	q := vq.Vec
	var out []graph.VectorHit
	for _, r := range f.raws {
		v, _ := conceptEmbedder{}.Embed(ctx, []string{r.Content})
		out = append(out, graph.VectorHit{Kind: KindRaw, Raw: r, Score: (1 + knowledge.Cosine(q, v[0])) / 2})
	}
	return out, nil
}

func (f fakeVectors) Vectors(ctx context.Context, _ graph.SearchScope, refs []graph.VectorRef) (map[graph.VectorRef][]float32, error) {
	out := map[graph.VectorRef][]float32{}
	for _, r := range f.raws {
		ref := graph.VectorRef{Kind: KindRaw, SessionID: r.SessionID, ID: r.ID}
		if slices.Contains(refs, ref) {
			v, _ := conceptEmbedder{}.Embed(ctx, []string{r.Content})
			out[ref] = v[0]
		}
	}
	return out, nil
}

// TestCurrencyPutsTheNewestStatementFirst: a move said in words no fact
// was read from supersedes the earlier home; the assistant's reply, the
// user's question and chatter are demoted with their reasons; a question
// about the past prefers the earlier home; a relative... is not the user's
// statement and is left alone.
func TestCurrencyPutsTheNewestStatementFirst(t *testing.T) {
	t.Parallel()
	jan := time.Date(2024, 1, 10, 9, 0, 0, 0, time.UTC)
	jun := time.Date(2024, 6, 2, 9, 0, 0, 0, time.UTC)
	turn := roleTurn
	raws := []graph.RawEvent{
		turn("old", "user", "I live in a small house in Lisbon.", jan),
		turn("reply", "assistant", "Lisbon is a lovely city to live in!", jan.Add(time.Minute)),
		turn("ask", "user", "Can you suggest a good moving company for my flat?", jun.Add(-time.Hour)),
		turn("ack", "user", "Okay, thanks!", jun.Add(-time.Minute)),
		turn("new", "user", "We finally settled into our new flat in Oslo.", jun),
		turn("wish", "user", "Maybe I'll live by the sea in a house one day.", jun.Add(time.Hour)),
		turn("sis", "user", "My sister lives in a flat in Rome.", jun.Add(2*time.Hour)),
	}
	s := conceptService(t, raws, jun.Add(24*time.Hour))
	search := func(q string) (SearchOutput, map[string]SearchResult) { return searchByID(t, s, q) }
	out, byID := search("Where does the user live now?")
	if out.Topic != "home" {
		t.Fatalf("query topic = %q, want home", out.Topic)
	}
	if len(out.Results) == 0 || out.Results[0].ID != "new" {
		t.Fatalf("first result = %+v, want the newest statement", out.Results)
	}
	if old := byID["old"]; old.Status != StatusSuperseded || old.SupersededBy != "new" || !strings.Contains(old.Explanation, "superseded") {
		t.Fatalf("older home = %+v, want superseded by new with the reason", old)
	}
	for id, reason := range map[string]string{"reply": "assistant", "ask": "question", "ack": "chatter", "wish": "hedged", "sis": "someone else"} {
		if r, ok := byID[id]; ok && !strings.Contains(r.Explanation, reason) {
			t.Errorf("%s: explanation %q lacks %q", id, r.Explanation, reason)
		}
		if byID[id].Score >= byID["new"].Score {
			t.Errorf("%s (%.3f) ranks with the user's statement (%.3f)", id, byID[id].Score, byID["new"].Score)
		}
	}
	out, byID = search("Where did the user live before?")
	if byID["old"].Score <= byID["new"].Score {
		t.Fatalf("a question about the past ranks the current home first: %+v", out.Results)
	}
}

// TestSupposedChangeHoldsNoNewerValue: a turn that asks what a change it
// only supposes would bring ("if we moved to a house in Porto, what would
// we pay?") is not the newest value of the slot, whatever it also states;
// the home said before it stays current.
func TestSupposedChangeHoldsNoNewerValue(t *testing.T) {
	t.Parallel()
	jan := time.Date(2024, 1, 10, 9, 0, 0, 0, time.UTC)
	turn := roleTurn
	raws := []graph.RawEvent{
		turn("home", "user", "We live in a flat in Lisbon.", jan),
		turn("if", "user", "Hypothetically, if we moved to a house in Porto, what would we pay? We live on one salary.", jan.AddDate(0, 2, 0)),
	}
	s := conceptService(t, raws, jan.AddDate(0, 3, 0))
	_, byID := searchByID(t, s, "Where does the user live now?")
	if h, ok := byID["home"]; !ok || h.Status == StatusSuperseded {
		t.Fatalf("the home said before the supposed move = %+v, want current", h)
	}
	if byID["if"].Score >= byID["home"].Score || !strings.Contains(byID["if"].Explanation, "supposes a change") {
		t.Fatalf("the supposing turn %+v ranks with the home %+v", byID["if"], byID["home"])
	}
}

// TestCorrectionSupersedesThePreviousStatement: a correction right after a
// statement in the same session replaces it, even when it shares no word
// with the question; a statement further back, or in another session, is
// left alone; a question about the past prefers the corrected value.
func TestCorrectionSupersedesThePreviousStatement(t *testing.T) {
	t.Parallel()
	at := time.Date(2024, 3, 4, 9, 0, 0, 0, time.UTC)
	turn := func(id, session, role, content string, seq int64) graph.RawEvent {
		return graph.RawEvent{NewRawEvent: graph.NewRawEvent{ID: id, Kind: graph.RawMessage, Role: role, Content: content,
			OccurredAt: at.Add(time.Duration(seq) * time.Minute)}, SessionID: session, Seq: seq}
	}
	raws := []graph.RawEvent{
		turn("first", "s1", "user", "My favourite dish is a mild chicken korma.", 1),
		turn("reply", "s1", "assistant", "Lovely.", 2),
		turn("fix", "s1", "user", "Actually no, scratch that: it's lamb vindaloo.", 3),
		turn("other", "s2", "user", "Actually the weather was great in Oslo.", 1),
	}
	s := conceptService(t, raws, at.Add(24*time.Hour))
	byID := func(q string) map[string]SearchResult {
		out, err := s.Search(t.Context(), "t1", SearchInput{UserID: "alice", Query: q, Explain: true})
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]SearchResult{}
		for _, r := range out.Results {
			m[r.ID] = r
		}
		return m
	}
	got := byID("What is the user's favourite dish?")
	if first := got["first"]; first.Status != StatusSuperseded || first.SupersededBy != "fix" {
		t.Fatalf("corrected statement = %+v, want superseded by the correction", first)
	}
	if got["fix"].Score <= got["first"].Score {
		t.Fatalf("correction %.3f ranks below what it corrects %.3f", got["fix"].Score, got["first"].Score)
	}
	if o, ok := got["other"]; ok && o.Status == StatusSuperseded {
		t.Fatalf("a statement in another session was superseded: %+v", o)
	}
	past := byID("What was the user's favourite dish before?")
	if past["first"].Score <= past["fix"].Score {
		t.Fatalf("a question about the past ranks the correction first: first %.3f fix %.3f", past["first"].Score, past["fix"].Score)
	}
}

// TestEndingClosesOneValueOfAManyValueSlot: the user has two pets; one
// passes away. The statement naming it is superseded by the ending, the
// other pet stays current.
func TestEndingClosesOneValueOfAManyValueSlot(t *testing.T) {
	t.Parallel()
	jan := time.Date(2024, 1, 10, 9, 0, 0, 0, time.UTC)
	turn := userTurn
	raws := []graph.RawEvent{
		turn("cat", "We adopted a cat called Pickle.", jan),
		turn("dog", "Our dog Rusty is a beagle.", jan.Add(time.Hour)),
		turn("end", "Sadly Pickle the cat died last week.", jan.AddDate(0, 3, 0)),
	}
	s := conceptService(t, raws, jan.AddDate(0, 4, 0))
	out, err := s.Search(t.Context(), "t1", SearchInput{UserID: "alice", Query: "Which pets does the user have?", Explain: true})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]SearchResult{}
	for _, r := range out.Results {
		byID[r.ID] = r
	}
	if c := byID["cat"]; c.Status != StatusSuperseded || c.SupersededBy != "end" {
		t.Fatalf("the pet that died = %+v, want superseded by the ending", c)
	}
	if d := byID["dog"]; d.Status != StatusCurrent {
		t.Fatalf("the other pet = %+v, want current", d)
	}
}

// TestTakenUpSinceAnEnding drives the ending rule directly: the ending
// supersedes the pet it ends and inherits its relevance; a pet adopted
// after the ending then ranks at least as high, unless the question names
// the pet that ended.
func TestTakenUpSinceAnEnding(t *testing.T) {
	t.Parallel()
	jan := time.Date(2024, 1, 10, 9, 0, 0, 0, time.UTC)
	vec := []float32{1, 0, 0}
	stmt := func(id, text string, at time.Time, fulltext float64, ending bool) *candidate {
		return &candidate{SearchResult: SearchResult{ID: id, Kind: KindRaw, Text: text, OccurredAt: at, Status: StatusCurrent,
			Parts: ScoreParts{FullText: fulltext}}, role: "user", vec: vec, ending: ending}
	}
	for _, tc := range []struct {
		query string
		lift  bool
	}{
		{"What is the name of the user's dog?", true},
		{"Does the user still have Pepper?", false},
	} {
		t.Run(tc.query, func(t *testing.T) {
			had := stmt("had", "Our collie Pepper is 13 and going deaf.", jan, 0.9, false)
			end := stmt("end", "Pepper died in the night, I'm heartbroken.", jan.AddDate(0, 2, 0), 0.3, true)
			since := stmt("since", "We took in a rescue whippet called Dot on Saturday.", jan.AddDate(0, 5, 0), 0.2, false)
			r := &search{cfg: DefaultConfig(), in: SearchInput{Query: tc.query}}
			stmts := []*candidate{had, end, since}
			r.endedValues(stmts, map[*candidate]string{had: "pet", end: "pet", since: "pet"})
			if had.Status != StatusSuperseded || had.SupersededBy != "end" {
				t.Fatalf("the pet that died = %+v, want superseded by the ending", had.SearchResult)
			}
			endScore := relevance(end, r.cfg) * max(end.lift, 1)
			sinceScore := relevance(since, r.cfg) * max(since.lift, 1)
			if got := sinceScore >= endScore; got != tc.lift {
				t.Fatalf("pet taken up since: %.3f, the ending %.3f; want at least as high %v", sinceScore, endScore, tc.lift)
			}
		})
	}
}

// TestChangedValuesTurnATasteAround drives the many-value rule directly: a
// newer statement that says the speaker turned replaces the older one on
// the same topic and close in meaning; an added value ("also"), a plain
// "now" without a turn, another topic and a distant statement are left.
func TestChangedValuesTurnATasteAround(t *testing.T) {
	t.Parallel()
	jan := time.Date(2024, 1, 10, 9, 0, 0, 0, time.UTC)
	near := []float32{1, 0.1, 0}
	far := []float32{0, 0, 1}
	stmt := func(id, text string, at time.Time, vec []float32, change bool) *candidate {
		c := &candidate{SearchResult: SearchResult{ID: id, Kind: KindRaw, Text: text, OccurredAt: at, Status: StatusCurrent,
			Parts: ScoreParts{FullText: 0.5}}, role: "user", vec: vec, change: change}
		return c
	}
	cases := []struct {
		name      string
		newer     *candidate
		olderVec  []float32
		topic     string
		history   bool
		superseds bool
	}{
		{"a turn replaces the older taste", stmt("new", "My cousin converted me, pale ales are my thing now.", jan.AddDate(0, 6, 0), near, true), near, "likes", false, true},
		{"an added value replaces nothing", stmt("new", "I've also fallen for pale ales now.", jan.AddDate(0, 6, 0), near, true), near, "likes", false, false},
		{"a plain now is no turn", stmt("new", "Pale ales are my thing now.", jan.AddDate(0, 6, 0), near, true), near, "likes", false, false},
		{"pets accumulate", stmt("new", "We gave up on cats and adopted a puppy instead.", jan.AddDate(0, 6, 0), near, true), near, "pet", false, false},
		{"a distant statement stays", stmt("new", "My cousin converted me, pale ales are my thing now.", jan.AddDate(0, 6, 0), near, true), far, "likes", false, false},
		{"a history question keeps the older one first", stmt("new", "I've gone off lager, it's pale ales instead.", jan.AddDate(0, 6, 0), near, true), near, "likes", true, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			old := stmt("old", "I was never a beer person, far too bitter.", jan, tc.olderVec, false)
			r := &search{cfg: DefaultConfig(), history: tc.history}
			r.changedValues([]*candidate{tc.newer, old}, map[*candidate]string{tc.newer: tc.topic, old: tc.topic})
			if got := old.Status == StatusSuperseded && old.SupersededBy == "new"; got != tc.superseds {
				t.Fatalf("older statement superseded = %v (%+v), want %v", got, old.SearchResult, tc.superseds)
			}
			if tc.superseds && !tc.history && (old.factor == 0 || old.factor >= 1) {
				t.Errorf("a superseded taste must be demoted, factor %v", old.factor)
			}
			if tc.history && old.factor != 0 {
				t.Errorf("a history question must not demote the older taste, factor %v", old.factor)
			}
		})
	}
}

// roleTurn is a turn of the role in a session of its own.
func roleTurn(id, role, content string, at time.Time) graph.RawEvent {
	return graph.RawEvent{NewRawEvent: graph.NewRawEvent{ID: id, Kind: graph.RawMessage, Role: role, Content: content, OccurredAt: at},
		SessionID: "s-" + id}
}

// userTurn is a user's turn in a session of its own.
func userTurn(id, content string, at time.Time) graph.RawEvent {
	return roleTurn(id, "user", content, at)
}

// textOnlySearch searches raws with no embedder (every turn a full-text
// hit, as with vectors off) and returns the output and its results by id.
func textOnlySearch(t *testing.T, raws []graph.RawEvent, now time.Time, query string) (SearchOutput, map[string]SearchResult) {
	t.Helper()
	g := &fakeGraph{raws: raws}
	s, err := New(Deps{Text: g, Graph: g, Context: unusedContextStore{}, Views: unusedViews{}, Counter: zeroCounter{},
		Now: func() time.Time { return now }}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	return searchByID(t, s, query)
}

// searchByID runs an explained search for alice and returns the output and
// its results by id.
func searchByID(t *testing.T, s *Service, query string) (SearchOutput, map[string]SearchResult) {
	t.Helper()
	out, err := s.Search(t.Context(), "t1", SearchInput{UserID: "alice", Query: query, Explain: true})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]SearchResult{}
	for _, r := range out.Results {
		byID[r.ID] = r
	}
	return out, byID
}

// TestRunningTotalsNewestAmountFirst: a question for an amount has one
// current answer, with no embedder at all: the newest statement that gives
// a number and names what is counted is current, the older ones are
// superseded; a statement without a number, another person's total and a
// question about the past are left as they are.
func TestRunningTotalsNewestAmountFirst(t *testing.T) {
	t.Parallel()
	jan := time.Date(2025, 1, 10, 9, 0, 0, 0, time.UTC)
	raws := []graph.RawEvent{
		userTurn("first", "Did my first parkrun of the year today!", jan),
		userTurn("tenth", "That was parkrun number ten for me this year.", jan.AddDate(0, 3, 0)),
		userTurn("plain", "Parkrun mornings are the best part of my week.", jan.AddDate(0, 4, 0)),
		userTurn("sis", "My sister has done 40 parkruns this year.", jan.AddDate(0, 5, 0)),
		userTurn("new", "Make that 14 parkruns this year after Saturday.", jan.AddDate(0, 6, 0)),
	}
	search := func(q string) map[string]SearchResult {
		_, byID := textOnlySearch(t, raws, jan.AddDate(0, 7, 0), q)
		return byID
	}
	byID := search("How many parkruns has the user done this year?")
	for _, id := range []string{"first", "tenth"} {
		if r := byID[id]; r.Status != StatusSuperseded || r.SupersededBy != "new" || !strings.Contains(r.Explanation, "earlier amount") {
			t.Errorf("%s = %+v, want superseded by the newest amount", id, r)
		}
		if byID[id].Score >= byID["new"].Score {
			t.Errorf("%s (%.3f) ranks above the newest amount (%.3f)", id, byID[id].Score, byID["new"].Score)
		}
	}
	for _, id := range []string{"plain", "sis"} {
		if r := byID[id]; r.Status == StatusSuperseded {
			t.Errorf("%s = %+v, want left current (no number, or someone else's)", id, r)
		}
	}
	byID = search("What is the user's parkrun routine?")
	if r := byID["tenth"]; r.Status == StatusSuperseded {
		t.Errorf("a question for no amount supersedes nothing: %+v", r)
	}
	byID = search("How many parkruns had the user done before?")
	if byID["tenth"].Score <= byID["new"].Score {
		t.Errorf("a question about the past ranks the newest amount first: tenth %.3f, new %.3f", byID["tenth"].Score, byID["new"].Score)
	}
}

// TestRunningTotalsJoinByMeaning: a later total that does not repeat what
// is counted joins the amounts that name it when it says nearly the same
// thing; an amount of something else (rent) stays current.
func TestRunningTotalsJoinByMeaning(t *testing.T) {
	t.Parallel()
	jan := time.Date(2025, 1, 10, 9, 0, 0, 0, time.UTC)
	mk := func(id, text string, at time.Time, vec []float32) *candidate {
		c := rawCandidate(graph.RawEvent{NewRawEvent: graph.NewRawEvent{ID: id, Kind: graph.RawMessage, Role: "user", Content: text, OccurredAt: at}, SessionID: "s-" + id})
		c.Parts = ScoreParts{Vector: 0.5}
		c.setVec(vec)
		return c
	}
	old := mk("old", "I've spent £240 on the wedding flowers so far.", jan, []float32{1, 0, 0})
	newer := mk("new", "With the cake we're at £610 so far.", jan.AddDate(0, 2, 0), []float32{0.8, 0.6, 0})
	rent := mk("rent", "Our rent is £1,150 a month.", jan.AddDate(0, 3, 0), []float32{0, 0, 1})
	r := &search{cfg: DefaultConfig(), in: SearchInput{Query: "How much has the user spent on the wedding so far?"},
		set: candidateSet{"a": old, "b": newer, "c": rent}}
	r.runningTotals()
	if old.Status != StatusSuperseded || old.SupersededBy != "new" {
		t.Errorf("older total = %+v, want superseded by the later one", old.SearchResult)
	}
	if rent.Status == StatusSuperseded || newer.Status == StatusSuperseded {
		t.Errorf("rent %s, newest %s: want both current", rent.Status, newer.Status)
	}
	newer.setVec([]float32{0, 1, 0}) // far in meaning: counts something else
	old.Status, old.SupersededBy = StatusCurrent, ""
	r.runningTotals()
	if old.Status == StatusSuperseded {
		t.Errorf("an amount far in meaning that names nothing asked superseded the total: %+v", old.SearchResult)
	}
}

// TestRunningTotalsCountedInOtherWords: when no statement names what an
// amount question counts ("chickens" of "hens"), the amounts near the
// question in meaning are its total, with those counting the same noun
// ("17 hens", too terse to sit near it): the newest is current. A newer
// amount near the question that is no present total and counts something
// else ("15 eggs a week") supersedes nothing, nor does an amount far from
// the question.
func TestRunningTotalsCountedInOtherWords(t *testing.T) {
	t.Parallel()
	jan := time.Date(2025, 1, 10, 9, 0, 0, 0, time.UTC)
	mk := func(id, text string, at time.Time, cos float64) *candidate {
		c := rawCandidate(graph.RawEvent{NewRawEvent: graph.NewRawEvent{ID: id, Kind: graph.RawMessage, Role: "user", Content: text, OccurredAt: at}, SessionID: "s-" + id})
		c.Parts = ScoreParts{Vector: 0.5}
		c.setVec([]float32{1, 0})
		c.cos = cos
		return c
	}
	query := "How many chickens does the user keep?"
	run := func(cands ...*candidate) {
		set := candidateSet{}
		for _, c := range cands {
			set[c.ID] = c
		}
		(&search{cfg: DefaultConfig(), in: SearchInput{Query: query}, set: set}).runningTotals()
	}
	three := mk("three", "We keep three hens in the back garden.", jan, 0.6)
	four := mk("four", "A fox got one, but we picked up two ex-batts, so we're at four hens now.", jan.AddDate(0, 3, 0), 0.45)
	far := mk("far", "Our rent is £1,150 a month now.", jan.AddDate(0, 4, 0), 0.05)
	run(three, four, far)
	if three.Status != StatusSuperseded || three.SupersededBy != "four" {
		t.Errorf("three hens = %s by %q, want superseded by four hens", three.Status, three.SupersededBy)
	}
	if four.Status == StatusSuperseded || far.Status == StatusSuperseded {
		t.Errorf("four hens %s, rent %s: want both current", four.Status, far.Status)
	}

	three = mk("three", "We keep three hens in the back garden.", jan, 0.6)
	terse := mk("terse", "Got two more hens, 5 hens!", jan.AddDate(0, 5, 0), 0.2)
	run(three, terse)
	if three.Status != StatusSuperseded || three.SupersededBy != "terse" {
		t.Errorf("three hens = %s by %q, want superseded by the newer count of hens far from the query", three.Status, three.SupersededBy)
	}

	three = mk("three", "We keep three hens in the back garden.", jan, 0.6)
	eggs := mk("eggs", "We get about 15 eggs a week from them.", jan.AddDate(0, 1, 0), 0.5)
	run(three, eggs)
	if three.Status == StatusSuperseded {
		t.Errorf("15 eggs a week superseded the hens: %+v", three.SearchResult)
	}
}

// TestRevisedStatementSupersedesTheOlder: with no embedder, a newer
// statement that says it revises something and names what the question
// asks about supersedes the older statement naming it; a second value
// ("as well"), a newer statement without a revision word, another
// person's change and a question about the past leave it.
func TestRevisedStatementSupersedesTheOlder(t *testing.T) {
	t.Parallel()
	jan := time.Date(2025, 1, 10, 9, 0, 0, 0, time.UTC)
	cases := []struct {
		name, newer, query string
		superseded         bool
	}{
		{"pushed to a new time", "The choir rehearsal got pushed to Thursdays.", "When is the user's choir rehearsal?", true},
		{"a second value", "I've joined a choir rehearsal on Fridays as well.", "When is the user's choir rehearsal?", false},
		{"no revision word", "Choir rehearsal was lovely this week.", "When is the user's choir rehearsal?", false},
		{"someone else's change", "My sister moved her choir rehearsal to Thursdays.", "When is the user's choir rehearsal?", false},
		{"an amount that went up revises no choice", "The choir rehearsal room hire has gone up again.", "When is the user's choir rehearsal?", false},
		{"a question about the past", "The choir rehearsal got pushed to Thursdays.", "When was the user's choir rehearsal before?", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			raws := []graph.RawEvent{userTurn("old", "Choir rehearsal is on Tuesday evenings.", jan), userTurn("new", tc.newer, jan.AddDate(0, 2, 0))}
			out, byID := textOnlySearch(t, raws, jan.AddDate(0, 3, 0), tc.query)
			old := byID["old"]
			if got := old.Status == StatusSuperseded && old.SupersededBy == "new"; got != tc.superseded {
				t.Fatalf("older statement superseded = %v (%+v), want %v", got, old, tc.superseded)
			}
			if tc.superseded && (out.Results[0].ID != "new" || !strings.Contains(old.Explanation, "revised")) {
				t.Errorf("the revision must rank first and the older say why: %+v", out.Results)
			}
		})
	}
}

// TestAmountRevisionNeedsAnAmountQuestion: "the membership has gone up"
// revises a price. It supersedes an older statement that gives a number
// (here a programme's length) only for a question that asks for an
// amount; "Which gym does the user go to?" asks for a choice.
func TestAmountRevisionNeedsAnAmountQuestion(t *testing.T) {
	t.Parallel()
	jan := time.Date(2025, 1, 10, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		query      string
		superseded bool
	}{
		{"Which climbing gym does the user go to?", false},
		{"How much is the user's climbing gym membership?", true},
	} {
		t.Run(tc.query, func(t *testing.T) {
			raws := []graph.RawEvent{
				userTurn("old", "I climb at Boulder Barn, the gym membership is 45 a month and I go on a 12-week plan.", jan),
				userTurn("new", "The climbing gym membership has gone up again.", jan.AddDate(0, 3, 0)),
			}
			_, byID := textOnlySearch(t, raws, jan.AddDate(0, 4, 0), tc.query)
			if got := byID["old"].Status == StatusSuperseded; got != tc.superseded {
				t.Fatalf("older statement superseded = %v, want %v (%+v)", got, tc.superseded, byID["old"])
			}
		})
	}
}

// TestFactAboutSomeoneElse: for a question about the user, a fact whose
// subject is another person ranks below the user's own evidence, unless
// the question names a relation.
func TestFactAboutSomeoneElse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		query   string
		demoted bool
	}{
		{"Which city does the user live in?", true},
		{"Where does the user's brother live?", false},
	} {
		t.Run(tc.query, func(t *testing.T) {
			brother := &candidate{SearchResult: SearchResult{ID: "f1", Kind: KindFact, Text: "Callum lives in Tromsø", Status: StatusCurrent},
				ends: [2]string{"callum", "tromso"}, predicate: "LIVES_IN"}
			own := &candidate{SearchResult: SearchResult{ID: "f2", Kind: KindFact, Text: "The user lives in Aberdeen", Status: StatusCurrent},
				ends: [2]string{"u", "aberdeen"}, predicate: "LIVES_IN"}
			r := &search{cfg: DefaultConfig(), in: SearchInput{Query: tc.query}, text: graph.Candidates{User: &graph.EntityHit{ID: "u", IsUser: true}},
				set: candidateSet{"a": brother, "b": own}}
			r.evidencePriors()
			if got := brother.factor > 0 && brother.factor < 1; got != tc.demoted {
				t.Fatalf("the brother's fact demoted = %v (factor %.2f), want %v", got, brother.factor, tc.demoted)
			}
			if own.factor != 0 && own.factor != 1 {
				t.Fatalf("the user's own fact was demoted: %v", own.reasons)
			}
		})
	}
}

// TestRevisedStatementByMeaning: once vectors are known, a revision close
// in meaning supersedes an older statement that shares no word with it or
// the question; a distant one does not.
func TestRevisedStatementByMeaning(t *testing.T) {
	t.Parallel()
	jan := time.Date(2024, 1, 10, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name      string
		newVec    []float32
		superseds bool
	}{{"close in meaning", []float32{1, 0.2, 0}, true}, {"far in meaning", []float32{0, 0, 1}, false}} {
		t.Run(tc.name, func(t *testing.T) {
			old := &candidate{SearchResult: SearchResult{ID: "old", Kind: KindRaw, Text: "I'm learning Japanese on Duolingo.", OccurredAt: jan,
				Status: StatusCurrent, Parts: ScoreParts{FullText: 0.6}}, role: "user", form: knowledge.FormStatement, vec: []float32{1, 0.1, 0}}
			nw := &candidate{SearchResult: SearchResult{ID: "new", Kind: KindRaw, Text: "Dropped that app, it's Spanish classes at the college.",
				OccurredAt: jan.AddDate(0, 6, 0), Status: StatusCurrent, Parts: ScoreParts{Vector: 0.4}}, role: "user", form: knowledge.FormStatement, vec: tc.newVec}
			r := &search{cfg: DefaultConfig(), in: SearchInput{Query: "Which language is the user learning now?"},
				set: candidateSet{"a": old, "b": nw}}
			r.revisedStatements()
			if got := old.Status == StatusSuperseded && old.SupersededBy == "new"; got != tc.superseds {
				t.Fatalf("older statement superseded = %v, want %v (%+v)", got, tc.superseds, old.SearchResult)
			}
		})
	}
	// Two look-alike turns the question does not ask about: the newer
	// one's "pushed" revises nothing the question needs, so the older is
	// not superseded and the newer not raised to its relevance.
	old := &candidate{SearchResult: SearchResult{ID: "old", Kind: KindRaw, Text: "The parade was so inspiring, everyone marched together.", OccurredAt: jan,
		Status: StatusCurrent, Parts: ScoreParts{Vector: 0.6}}, role: "user", form: knowledge.FormStatement, vec: []float32{1, 0.1, 0}}
	nw := &candidate{SearchResult: SearchResult{ID: "new", Kind: KindRaw, Text: "It really pushed me to keep marching with them.",
		OccurredAt: jan.AddDate(0, 6, 0), Status: StatusCurrent, Parts: ScoreParts{Vector: 0.2}}, role: "user", form: knowledge.FormStatement, vec: []float32{1, 0.2, 0}}
	r := &search{cfg: DefaultConfig(), in: SearchInput{Query: "Does the user keep animals?"}, set: candidateSet{"a": old, "b": nw}}
	r.revisedStatements()
	if old.Status == StatusSuperseded || nw.lift > 0 {
		t.Fatalf("an unasked turn was revised: older %s, newer lift %.2f", old.Status, nw.lift)
	}
}

// userStatement is a user's turn with its vector (the concept embedder's)
// and the given vector signal.
func userStatement(id, text string, vec float64) *candidate {
	c := rawCandidate(graph.RawEvent{NewRawEvent: graph.NewRawEvent{ID: id, Kind: graph.RawMessage, Role: "user", Content: text}, SessionID: "s"})
	c.Parts = ScoreParts{Vector: vec}
	v, _ := conceptEmbedder{}.Embed(context.Background(), []string{text})
	c.setVec(v[0])
	return c
}

// TestTopicLiftKeepsOrder: the statements raised for speaking of the asked
// topic keep their own order among themselves (the closer first) instead
// of tying at one share of the best candidate.
func TestTopicLiftKeepsOrder(t *testing.T) {
	t.Parallel()
	mk := userStatement
	best := &candidate{SearchResult: SearchResult{ID: "best", Kind: KindRaw, Parts: ScoreParts{FullText: 2}}}
	closer := mk("closer", "I adopted a beagle puppy.", 0.5)
	farther := mk("farther", "Our cat and dog.", 0.3)
	r := &search{s: &Service{statements: newStatementMemo(16), topics: knowledge.NewTopicReader(conceptEmbedder{})}, cfg: DefaultConfig(),
		set: candidateSet{"a": best, "b": closer, "c": farther}}
	if err := r.s.topics.Prepare(t.Context()); err != nil {
		t.Fatal(err)
	}
	r.topicAgreement(t.Context(), "pet", true, []*candidate{closer, farther}, map[*candidate]string{closer: "pet", farther: "pet"})
	eff := func(c *candidate) float64 { return relevance(c, r.cfg) * c.lift }
	if closer.lift == 0 || farther.lift == 0 {
		t.Fatalf("on-topic statements not raised: lifts %.2f %.2f", closer.lift, farther.lift)
	}
	if eff(closer) <= eff(farther) || eff(closer) >= relevance(best, r.cfg) {
		t.Fatalf("raised relevance closer %.3f, farther %.3f, best %.3f: want farther < closer < best", eff(closer), eff(farther), relevance(best, r.cfg))
	}
}

// TestTopicLiftSkipsAnotherThing: on a topic of one value per qualifier
// (service), a statement that says it changed a thing the question does
// not ask about ("Switched banks to Starling" for the mobile network) is
// not raised for the topic; one that changed the asked thing is.
func TestTopicLiftSkipsAnotherThing(t *testing.T) {
	t.Parallel()
	const query = "Which mobile network is the user on?"
	best := &candidate{SearchResult: SearchResult{ID: "best", Kind: KindRaw, Parts: ScoreParts{FullText: 2}}}
	banks := userStatement("banks", "Switched banks to Starling last week and the card works abroad.", 0.3)
	network := userStatement("network", "Switched my mobile network to Smarty last week, half the price.", 0.3)
	r := &search{s: &Service{statements: newStatementMemo(16), topics: knowledge.NewTopicReader(conceptEmbedder{}), embedder: thingVectors},
		cfg: DefaultConfig(), in: SearchInput{Query: query}, qvec: thingVectors.vec(query), set: candidateSet{"a": best, "b": banks, "c": network}}
	if err := r.s.topics.Prepare(t.Context()); err != nil {
		t.Fatal(err)
	}
	r.topicAgreement(t.Context(), "service", true, []*candidate{banks, network}, map[*candidate]string{banks: "service", network: "service"})
	if banks.lift != 0 {
		t.Errorf("a change of the user's bank was raised for the mobile network: lift %.2f", banks.lift)
	}
	if network.lift == 0 {
		t.Errorf("a change of the mobile network was not raised for it")
	}
}

// TestTopicLiftSkipsDeclinedAndTemporary: a statement demoted as a
// declined change or a temporary state is not raised again for speaking
// of the asked topic; a plain statement of the topic is.
func TestTopicLiftSkipsDeclinedAndTemporary(t *testing.T) {
	t.Parallel()
	best := &candidate{SearchResult: SearchResult{ID: "best", Kind: KindRaw, Parts: ScoreParts{FullText: 2}}}
	declined := userStatement("declined", "I'll stay where I am with the cat, no new puppy.", 0.3)
	declined.declined = true
	stay := userStatement("stay", "Staying with my sister's dog for two weeks.", 0.3)
	stay.temporary = true
	plain := userStatement("plain", "I adopted a beagle puppy.", 0.3)
	r := &search{s: &Service{statements: newStatementMemo(16), topics: knowledge.NewTopicReader(conceptEmbedder{})}, cfg: DefaultConfig(),
		set: candidateSet{"a": best, "b": declined, "c": stay, "d": plain}}
	if err := r.s.topics.Prepare(t.Context()); err != nil {
		t.Fatal(err)
	}
	r.topicAgreement(t.Context(), "pet", true, []*candidate{declined, stay, plain}, map[*candidate]string{declined: "pet", stay: "pet", plain: "pet"})
	if declined.lift != 0 || stay.lift != 0 {
		t.Errorf("raised for the topic: declined lift %.2f, temporary lift %.2f", declined.lift, stay.lift)
	}
	if plain.lift == 0 {
		t.Errorf("a plain statement of the topic was not raised")
	}
}

// TestNoSlotAnchoredOffTopic: when the question's topic is read (work),
// the best-matching statement matched only by a word and far from that
// topic (a parade, matched "living" by its letters) makes no slot of
// its look-alikes: the newer look-alike is not raised as "the newest
// statement on" anything, and the older one is not superseded. The
// control: an anchor on the topic does make its look-alike newest.
func TestNoSlotAnchoredOffTopic(t *testing.T) {
	t.Parallel()
	jan := time.Date(2024, 1, 10, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name          string
		anchor, alike string
		wantSlot      bool
	}{
		{"off topic", "The parade was powerful, flags and drums everywhere.", "The parade today was powerful again, flags and drums.", false},
		{"on topic", "I work as a nurse at the bank.", "My job is nurse work at the bank now.", true},
		{"look-alike off topic", "I work at the bank, parade flags and drums.", "The parade flags and drums marched past.", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			turn := func(id, text string, at time.Time, parts ScoreParts) *candidate {
				c := rawCandidate(graph.RawEvent{NewRawEvent: graph.NewRawEvent{ID: id, Kind: graph.RawMessage, Role: "user", Content: text, OccurredAt: at},
					SessionID: "s-" + id})
				c.Parts = parts
				return c
			}
			anchor := turn("anchor", tc.anchor, jan, ScoreParts{FullText: 1.5})
			alike := turn("alike", tc.alike, jan.AddDate(0, 3, 0), ScoreParts{FullText: 0.2})
			raws := []graph.RawEvent{}
			for _, c := range []*candidate{anchor, alike} {
				raws = append(raws, graph.RawEvent{NewRawEvent: graph.NewRawEvent{ID: c.ID, Content: c.Text}, SessionID: c.SessionID})
			}
			svc := &Service{statements: newStatementMemo(16), topics: knowledge.NewTopicReader(conceptEmbedder{}), vectors: fakeVectors{raws}}
			qv, _ := conceptEmbedder{}.Embed(t.Context(), []string{"What does the user do for a living?"})
			r := &search{s: svc, cfg: DefaultConfig(), in: SearchInput{Query: "What does the user do for a living?"},
				q: queryAnalysis{AboutUser: true}, qvec: qv[0], set: candidateSet{"a": anchor, "b": alike}}
			if err := r.currency(t.Context()); err != nil {
				t.Fatal(err)
			}
			newest := slices.ContainsFunc(alike.reasons, func(s string) bool { return strings.HasPrefix(s, "the newest statement on the") })
			if newest != tc.wantSlot || (anchor.Status == StatusSuperseded) != tc.wantSlot {
				t.Fatalf("look-alike raised %v, anchor %s; want slot %v (reasons %q)", newest, anchor.Status, tc.wantSlot, alike.reasons)
			}
		})
	}
}

// TestOneWordStatementTakesNoTopic: a statement of one content word ("I'm
// learning.") is not raised for the asked topic however close its vector
// lands; the same vector under a sentence that says something is.
func TestOneWordStatementTakesNoTopic(t *testing.T) {
	t.Parallel()
	v, _ := conceptEmbedder{}.Embed(context.Background(), []string{"I adopted a beagle puppy."})
	mk := func(id, text string) *candidate {
		c := rawCandidate(graph.RawEvent{NewRawEvent: graph.NewRawEvent{ID: id, Kind: graph.RawMessage, Role: "user", Content: text}, SessionID: "s"})
		c.Parts = ScoreParts{Vector: 0.3}
		c.setVec(v[0])
		return c
	}
	best := &candidate{SearchResult: SearchResult{ID: "best", Kind: KindRaw, Parts: ScoreParts{FullText: 2}}}
	short, full := mk("short", "Puppies!"), mk("full", "We adopted a beagle puppy.")
	r := &search{s: &Service{statements: newStatementMemo(16), topics: knowledge.NewTopicReader(conceptEmbedder{})}, cfg: DefaultConfig(),
		set: candidateSet{"a": best, "b": short, "c": full}}
	if err := r.s.topics.Prepare(t.Context()); err != nil {
		t.Fatal(err)
	}
	r.topicAgreement(t.Context(), "pet", true, []*candidate{short, full}, map[*candidate]string{})
	if short.lift != 0 || full.lift == 0 {
		t.Fatalf("lifts: one word %.2f (want 0), a sentence %.2f (want > 0)", short.lift, full.lift)
	}
}

// TestTopicClarityOrders: among statements raised for the asked topic, one
// that speaks of it plainly overtakes one that matched the query better
// but speaks of the topic only in passing; with TopicClarity 0 their own
// relevance decides.
func TestTopicClarityOrders(t *testing.T) {
	t.Parallel()
	mk := userStatement
	for _, clarity := range []float64{DefaultConfig().TopicClarity, 0} {
		best := &candidate{SearchResult: SearchResult{ID: "best", Kind: KindRaw, Parts: ScoreParts{FullText: 2}}}
		plain := mk("plain", "We adopted a beagle puppy.", 0.3)
		passing := mk("passing", "The parade marched with flags and drums, and a dog came along.", 0.6)
		cfg := DefaultConfig()
		cfg.TopicClarity = clarity
		r := &search{s: &Service{statements: newStatementMemo(16), topics: knowledge.NewTopicReader(conceptEmbedder{})}, cfg: cfg,
			set: candidateSet{"a": best, "b": plain, "c": passing}}
		if err := r.s.topics.Prepare(t.Context()); err != nil {
			t.Fatal(err)
		}
		r.topicAgreement(t.Context(), "pet", true, []*candidate{plain, passing}, map[*candidate]string{plain: "pet", passing: "pet"})
		eff := func(c *candidate) float64 { return relevance(c, r.cfg) * c.lift }
		if plain.lift == 0 || passing.lift == 0 {
			t.Fatalf("clarity %.1f: on-topic statements not raised: lifts %.2f %.2f", clarity, plain.lift, passing.lift)
		}
		if plainFirst := eff(plain) > eff(passing); plainFirst != (clarity > 0) || eff(plain) >= relevance(best, cfg) {
			t.Errorf("clarity %.1f: plain %.3f, in passing %.3f, best %.3f", clarity, eff(plain), eff(passing), relevance(best, cfg))
		}
	}
}

// TestOutdatedFacts: a current fact of a one-value slot ranks lower when a
// newer statement of the slot says it revises something, speaks of the same
// thing as the turn the fact was read from, and does not name the fact's
// value, or says that value ended ("we left Leipzig"); not when the newer
// statement names it without ending it, ends something else, is a
// relative's, revises nothing, revises
// something unrelated, or is older than the fact.
func TestOutdatedFacts(t *testing.T) {
	t.Parallel()
	jan := time.Date(2024, 1, 10, 0, 0, 0, 0, time.UTC)
	src := graph.RawEvent{NewRawEvent: graph.NewRawEvent{ID: "src", Kind: graph.RawMessage, Role: "user", Content: "I live in Leipzig, in a small flat.", OccurredAt: jan}, SessionID: "s"}
	fact := func() *candidate {
		return &candidate{SearchResult: SearchResult{ID: "f", Kind: KindFact, Status: StatusCurrent, OccurredAt: jan, SourceEventIDs: []string{"src"}, sessions: []string{"s"}},
			object: "Leipzig", predicate: "LIVES_IN"}
	}
	turn := func(text string, at time.Time) *candidate {
		c := userStatement("t", text, 0)
		c.OccurredAt = at
		return c
	}
	later := jan.AddDate(0, 3, 0)
	cases := []struct {
		name    string
		text    string
		at      time.Time
		demoted bool
	}{
		{"a newer move to another city", "Quick update: we moved to a flat in Dresden.", later, true},
		{"a newer move naming the same city", "We moved to a bigger flat in Leipzig.", later, false},
		{"a newer ending of the same city", "We finally left Leipzig and the small flat behind.", later, true},
		{"a relative's ending of the same city", "My sister left Leipzig and her small flat.", later, false},
		{"an ending of something else naming the city", "I live near Leipzig station and sold the small flat's old sofa.", later, false},
		{"a newer statement revising nothing", "Our flat has a lovely bakery on the corner.", later, false},
		{"a newer revision of something else", "The parade changed the drums and flags.", later, false},
		{"an older move", "We moved to a flat in Dresden.", jan.AddDate(0, -3, 0), false},
	}
	for _, tc := range cases {
		f, c := fact(), turn(tc.text, tc.at)
		group := []*candidate{c, f}
		if !tc.at.After(jan) {
			group = []*candidate{f, c}
		}
		r := &search{s: &Service{statements: newStatementMemo(16), vectors: fakeVectors{[]graph.RawEvent{src}}}, cfg: DefaultConfig(), set: candidateSet{}}
		if err := r.outdatedFacts(t.Context(), group, "home"); err != nil {
			t.Fatal(err)
		}
		if got := f.factor == r.cfg.SupersededWeight; got != tc.demoted {
			t.Errorf("%s: fact factor %.2f (reasons %q), demoted want %v", tc.name, f.factor, f.reasons, tc.demoted)
		}
		if f.Status != StatusCurrent {
			t.Errorf("%s: the fact's status changed to %s; only its rank may", tc.name, f.Status)
		}
	}
}

// TestOutdatedFactsByAmount: on a measure, a newer statement of the slot
// that gives another amount puts the fact's value out of date without a
// word of revision; one that gives no amount does not.
func TestOutdatedFactsByAmount(t *testing.T) {
	t.Parallel()
	jan := time.Date(2024, 1, 10, 0, 0, 0, 0, time.UTC)
	src := graph.RawEvent{NewRawEvent: graph.NewRawEvent{ID: "src", Kind: graph.RawMessage, Role: "user", Content: "I earn £38,000 a year at my job.", OccurredAt: jan}, SessionID: "s"}
	for _, tc := range []struct {
		text    string
		demoted bool
	}{
		{"I'm on £44,500 at work now, not bad for the job.", true},
		{"My job is great and the work is varied.", false},
	} {
		f := &candidate{SearchResult: SearchResult{ID: "f", Kind: KindFact, Status: StatusCurrent, OccurredAt: jan, SourceEventIDs: []string{"src"}, sessions: []string{"s"}},
			object: "£38,000 a year", predicate: "HAS_MEASURE"}
		c := userStatement("t", tc.text, 0)
		c.OccurredAt = jan.AddDate(0, 6, 0)
		r := &search{s: &Service{statements: newStatementMemo(16), vectors: fakeVectors{[]graph.RawEvent{src}}}, cfg: DefaultConfig(), set: candidateSet{}}
		if err := r.outdatedFacts(t.Context(), []*candidate{c, f}, "measure"); err != nil {
			t.Fatal(err)
		}
		if got := f.factor == r.cfg.SupersededWeight; got != tc.demoted {
			t.Errorf("%q: fact factor %.2f (reasons %q), demoted want %v", tc.text, f.factor, f.reasons, tc.demoted)
		}
	}
}

// turnFactVectors is fakeVectors whose hits carry the vector of a fact read
// from the turn, as the vector cache returns it for a question about the
// user.
type turnFactVectors struct {
	fakeVectors
	facts map[string]string // turn id → the fact's sentence
}

func (f turnFactVectors) VectorSearch(ctx context.Context, sc graph.SearchScope, vq graph.VectorQuery) ([]graph.VectorHit, error) {
	hits, err := f.fakeVectors.VectorSearch(ctx, sc, vq)
	for i := range hits {
		if s, ok := f.facts[hits[i].Raw.ID]; ok {
			// the cache scores a turn by the best of its text and facts
			v, _ := conceptEmbedder{}.Embed(ctx, []string{s})
			hits[i].FactVec = v[0]
			hits[i].Score = max(hits[i].Score, (1+knowledge.Cosine(vq.Vec, v[0]))/2)
		}
	}
	return hits, err
}

// TestTopicOfATurnFromItsFact: a turn whose words read as no topic (a
// parade through Lisbon) speaks of the home by the fact read from it
// ("The user lives in Lisbon"), so a newer statement on the home
// supersedes it; without the fact it is current, if found at all.
func TestTopicOfATurnFromItsFact(t *testing.T) {
	t.Parallel()
	jan := time.Date(2024, 1, 10, 9, 0, 0, 0, time.UTC)
	jun := time.Date(2024, 6, 2, 9, 0, 0, 0, time.UTC)
	turn := userTurn
	raws := []graph.RawEvent{
		turn("old", "We marched with flags and drums through Lisbon.", jan),
		turn("new", "We finally settled into our new flat in Oslo.", jun),
	}
	for _, withFact := range []bool{true, false} {
		facts := map[string]string{}
		if withFact {
			facts["old"] = "The user lives in Lisbon"
		}
		g := &fakeGraph{raws: raws}
		s, err := New(Deps{Text: g, Graph: g, Context: unusedContextStore{}, Views: unusedViews{}, Counter: zeroCounter{},
			Embedder: conceptEmbedder{}, Vectors: turnFactVectors{fakeVectors{raws}, facts}, Topics: knowledge.NewTopicReader(conceptEmbedder{}),
			Now: func() time.Time { return jun.Add(24 * time.Hour) }}, Config{})
		if err != nil {
			t.Fatal(err)
		}
		_, byID := searchByID(t, s, "Where does the user live now?")
		old, ok := byID["old"]
		if !ok && withFact {
			t.Fatal("the older turn was not found by its fact")
		}
		if superseded := old.Status == StatusSuperseded && old.SupersededBy == "new"; superseded != withFact {
			t.Errorf("with fact %v: older turn status %q by %q, want superseded only when its fact speaks of the home (%s)",
				withFact, old.Status, old.SupersededBy, old.Explanation)
		}
	}
}

// TestSameMeasures: a measure slot takes in a statement that gives an
// amount of the same dimension and shares a word with one of its
// statements, whatever the question's words; not one of another dimension,
// nor one that shares only the dimension.
func TestSameMeasures(t *testing.T) {
	t.Parallel()
	raw := func(id, text string) *candidate {
		return &candidate{SearchResult: SearchResult{ID: id, Kind: KindRaw, Text: text}}
	}
	inSlot := raw("pay", "My take-home pay is £2,350 a month. Can you help me set up a budget?")
	raise := raw("raise", "Got the team lead promotion, so take-home is now £2,910 after tax and pension.")
	run := raw("run", "I run about 35 km a week and my take-home routine is a long run on Sundays.")
	rent := raw("rent", "Our rent went up to £1,150.")
	r := &search{s: &Service{}, cfg: DefaultConfig()}
	measure := ontology.Topic{Name: ontology.TopicMeasure, Cardinality: ontology.One, Qualified: true}
	got := r.sameMeasures(measure, []*candidate{inSlot}, []*candidate{inSlot, raise, run, rent}, nil)
	var ids []string
	for _, c := range got {
		ids = append(ids, c.ID)
	}
	if want := []string{"pay", "raise"}; !slices.Equal(ids, want) {
		t.Errorf("measure slot = %v, want %v", ids, want)
	}
	if other := r.sameMeasures(ontology.Topic{Name: "home", Cardinality: ontology.One}, []*candidate{inSlot}, []*candidate{inSlot, raise}, nil); len(other) != 1 {
		t.Errorf("a slot that is not a measure took in %d statements, want only its own", len(other))
	}
}

// TestCountedTotalsForProgress: a question for progress names what
// progresses, not what is counted; statements counting the same thing are
// one running total when the newest says it is the present state. A
// statement counting something else, or counting nothing, stays current.
func TestCountedTotalsForProgress(t *testing.T) {
	t.Parallel()
	jan := time.Date(2025, 1, 10, 9, 0, 0, 0, time.UTC)
	mk := func(id, text string, at time.Time) *candidate {
		c := rawCandidate(graph.RawEvent{NewRawEvent: graph.NewRawEvent{ID: id, Kind: graph.RawMessage, Role: "user", Content: text, OccurredAt: at}, SessionID: "s-" + id})
		c.Parts = ScoreParts{Vector: 0.5}
		return c
	}
	first := mk("first", "I've drafted 9 chapters of my thriller so far. Any title ideas?", jan)
	second := mk("second", "Quick update, that's 11 chapters now. How do I fix a slow middle?", jan.AddDate(0, 2, 0))
	latest := mk("latest", "Finished three more over Christmas, which brings us to 14 chapters in total.", jan.AddDate(0, 4, 0))
	plot := mk("plot", "It's about a ferry engineer who finds a body on the car deck.", jan.AddDate(0, 5, 0))
	words := mk("words", "The detective interviews people for 4,000 words now.", jan.AddDate(0, 6, 0))
	set := func() candidateSet {
		return candidateSet{"a": first, "b": second, "c": latest, "d": plot, "e": words}
	}
	r := &search{cfg: DefaultConfig(), in: SearchInput{Query: "How far along is the user's manuscript?"}, set: set()}
	r.runningTotals()
	for _, c := range []*candidate{first, second} {
		if c.Status != StatusSuperseded || c.SupersededBy != "latest" {
			t.Errorf("%s = %s by %q, want superseded by the latest count", c.ID, c.Status, c.SupersededBy)
		}
	}
	for _, c := range []*candidate{latest, plot, words} {
		if c.Status == StatusSuperseded {
			t.Errorf("%s superseded, want current", c.ID)
		}
	}
	for _, c := range []*candidate{first, second, latest} {
		c.Status, c.SupersededBy = StatusCurrent, ""
	}
	r = &search{cfg: DefaultConfig(), in: SearchInput{Query: "What is the user's thriller about?"}, set: set()}
	r.runningTotals()
	if first.Status == StatusSuperseded {
		t.Error("a question for no amount nor progress superseded a count")
	}
	if got := countedNouns("Three marathons and 2 half marathons, 10 km a day at 6 am"); !slices.Equal(got, []string{"marathon", "km"}) {
		t.Errorf("countedNouns = %v", got)
	}
}

func TestSharesName(t *testing.T) {
	t.Parallel()
	cases := []struct {
		a, b string
		want bool
	}{
		{"Our cat Biscuit is 14 and only eats wet food.", "Biscuit passed away in January.", true},
		{"We sold the caravan to a couple from Hull.", "I drove to Hull for the weekend.", true},
		{"My old car finally died.", "The car is fine. My bike died.", false},
		{"I love my job. Sadly it ended.", "I quit. It was time.", false},
	}
	for _, c := range cases {
		if got := sharesName(c.a, c.b); got != c.want {
			t.Errorf("sharesName(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestReplacedByFacts: a turn the graph marked stale names the turn whose
// fact replaced its own; that turn inherits its relevance for a question
// about now, and keeps its place below for a question about the past.
func TestReplacedByFacts(t *testing.T) {
	t.Parallel()
	may := time.Date(2023, 5, 9, 9, 0, 0, 0, time.UTC)
	old := userTurn("old", "I smoke about ten a day and get winded on the stairs.", may)
	old.Stale, old.StaleBy, old.StaleBySession = true, "new", "s-new"
	newer := userTurn("new", "It's been 100 days since my last cigarette!", may.AddDate(0, 7, 0))
	newer.SessionID = "s-new"
	raws := []graph.RawEvent{old, newer}
	_, byID := textOnlySearch(t, raws, may.AddDate(0, 8, 0), "Does the user smoke?")
	if r := byID["old"]; r.Status != StatusSuperseded || r.SupersededBy != "new" {
		t.Errorf("stale turn = %s by %q, want superseded by the turn that replaced it", r.Status, r.SupersededBy)
	}
	if byID["new"].Score <= byID["old"].Score {
		t.Errorf("the replacing turn (%.3f) ranks below the stale one (%.3f): %s", byID["new"].Score, byID["old"].Score, byID["new"].Explanation)
	}
	_, byID = textOnlySearch(t, raws, may.AddDate(0, 8, 0), "Did the user smoke before?")
	if byID["old"].SupersededBy != "" {
		t.Errorf("a question about the past marked the stale turn superseded by %q", byID["old"].SupersededBy)
	}
}

// TestStaleForTheAskedType: a turn only some of whose facts were
// superseded is stale for a question about those, not for one about what
// it still says.
func TestStaleForTheAskedType(t *testing.T) {
	t.Parallel()
	apr := time.Date(2023, 4, 2, 9, 0, 0, 0, time.UTC)
	old := userTurn("old", "My boyfriend Tom and I are off to Porto. He loves seafood and I love port.", apr)
	old.StalePredicates, old.CurrentPredicates = []string{"PARTNER_OF"}, []string{"LIKES"}
	old.StaleBy, old.StaleBySession = "new", "s-new"
	newer := userTurn("new", "Tom and I split up. I've been seeing someone called Priya for a couple of months.", apr.AddDate(0, 6, 0))
	raws := []graph.RawEvent{old, newer}
	_, byID := textOnlySearch(t, raws, apr.AddDate(0, 7, 0), "Who is the user dating?")
	if r := byID["old"]; r.Status != StatusSuperseded || r.SupersededBy != "new" || byID["new"].Score <= r.Score {
		t.Errorf("for the partner, old = %s by %q (%.3f), new %.3f; want superseded by the break-up below it", r.Status, r.SupersededBy, r.Score, byID["new"].Score)
	}
	_, byID = textOnlySearch(t, raws, apr.AddDate(0, 7, 0), "What drink does the user love?")
	if r := byID["old"]; r.Status == StatusSuperseded {
		t.Errorf("for a taste the turn still holds, old = %s (%s)", r.Status, r.Explanation)
	}
}

// TestReportsNewValue: a statement reports a new value of a slot when one
// of its sentences is the speaker's own change and names the value, by
// capitals or an amount; a relative's news before the speaker's request,
// a supposition, a change with no value and a value with no change do not.
func TestReportsNewValue(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]bool{
		"finally gave up and we're with Community Fibre now, installed Thursday. where should the router go?": true,
		"Switched my savings over to Nationwide last week.":                                                   true,
		"The school run is now the 8:15 bus instead of the car.":                                              true,
		"My brother's moved to Glasgow for work 😭 help me plan a visit by train":                              false,
		"If we switched to Octopus, what would we save a year?":                                               false,
		"Nah, I'll stay put, the app matters too much to me.":                                                 false,
		"I'm with Vodafone on a two-year contract.":                                                           false,
		"I finally switched and it's so much better now.":                                                     false,
	} {
		if got := reportsNewValue(userStatement("s1", text, 0.5), knowledge.ReadStatement); got != want {
			t.Errorf("reportsNewValue(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestElaborationHoldsNoNewerValue: after a move to a named city, the
// user's next remark about the new flat names no place and reports no
// change; it neither becomes the current home nor outranks the move, and
// says why.
func TestElaborationHoldsNoNewerValue(t *testing.T) {
	t.Parallel()
	jan := time.Date(2024, 1, 10, 9, 0, 0, 0, time.UTC)
	jun := time.Date(2024, 6, 2, 9, 0, 0, 0, time.UTC)
	raws := []graph.RawEvent{
		userTurn("old", "I live in a small house in Lisbon.", jan),
		userTurn("new", "We finally settled into our new flat in Oslo.", jun),
		userTurn("more", "Quiet street, and the flat is a lovely home.", jun.Add(time.Hour)),
	}
	s := conceptService(t, raws, jun.Add(24*time.Hour))
	out, byID := searchByID(t, s, "Where does the user live now?")
	if len(out.Results) == 0 || out.Results[0].ID != "new" {
		t.Fatalf("first result = %+v, want the move", out.Results)
	}
	if old := byID["old"]; old.Status != StatusSuperseded || old.SupersededBy != "new" {
		t.Fatalf("older home = %+v, want superseded by the move", old)
	}
	more := byID["more"]
	if more.Status == StatusSuperseded || !strings.Contains(more.Explanation, "names no value") {
		t.Fatalf("elaboration = %+v, want current and demoted for naming no value", more)
	}
}

// fixedTopics is a TopicReader whose topics and affinities are given: the
// rules that weigh a reading are tested apart from any embedder.
type fixedTopics struct {
	*knowledge.TopicReader
	affinity float64
}

func (f fixedTopics) Affinity([]float32, string) float64 { return f.affinity }

// TestJoinsAsked: a statement the topic reader is unsure of joins the
// asked slot when it reports the speaker's own change and names the value
// near the topic, or, on a qualified topic, gives a value near the
// question; not when it only comes near, names nothing, is a relative's
// news, or is chatter.
func TestJoinsAsked(t *testing.T) {
	t.Parallel()
	near, far := []float32{1, 0}, []float32{0, 1}
	for _, tc := range []struct {
		name, asked, text string
		vec               []float32
		affinity          float64
		read              string
		want              bool
	}{
		{"update names the provider", "service", "finally gave up and we're with Zephyr Fibre now, installed Thursday.", far, 0.3, "", true},
		{"update far from the topic", "service", "finally gave up and we're with Zephyr Fibre now, installed Thursday.", far, 0.1, "", false},
		{"relative's update", "home", "My brother's moved to Glasgow for work 😭 help me plan a visit", far, 0.3, "", false},
		{"amount near a qualified question", "measure", "ugh, the renewal came in: we'll be paying $1,975 from March.", near, 0.1, "", true},
		{"amount near an unqualified question", "home", "ugh, the renewal came in: we'll be paying $1,975 from March.", near, 0.1, "", false},
		{"near, but no value", "measure", "ugh, the renewal came in and it's going up again.", near, 0.1, "", false},
		{"amount far from the question", "measure", "we'll be paying $1,975 for the sofa.", far, 0.1, "", false},
		{"chatter", "measure", "Great, 2 more tips please!", near, 0.1, ontology.TopicChatter, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := userStatement("s1", tc.text, 0.5)
			c.vec, c.terse = tc.vec, false
			r := &search{s: &Service{topics: fixedTopics{knowledge.NewTopicReader(conceptEmbedder{}), tc.affinity}, statements: newStatementMemo(16)}, cfg: DefaultConfig(), qvec: near}
			topicOf := map[*candidate]string{c: tc.read}
			affinity := func(c *candidate) float64 { return r.s.topics.Affinity(c.vec, tc.asked) }
			if got := r.joinsAsked(c, tc.asked, topicOf, affinity); got != tc.want {
				t.Errorf("joinsAsked(%q on %s) = %v, want %v", tc.text, tc.asked, got, tc.want)
			}
		})
	}
}

// TestHoldsValue: a turn can be a slot's newest value when it names one or
// reports a change; a rise or a fall reports a change only of a measure.
func TestHoldsValue(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text    string
		measure bool
		want    bool
	}{
		{"We switched to Monzo last week.", false, true},
		{"We moved out of the city to a village.", false, true},
		{"Quieter, and there's a bakery on the corner.", false, false},
		{"The price of my budgeting app has gone up again.", false, false},
		{"The price of my budgeting app has gone up again.", true, true},
		{"My rent went up by a fair bit.", true, true},
		{"Prices went up, so we switched providers.", false, true},
	} {
		if got := holdsValue(userStatement("s1", tc.text, 0.5), tc.measure); got != tc.want {
			t.Errorf("holdsValue(%q, measure %v) = %v, want %v", tc.text, tc.measure, got, tc.want)
		}
	}
}

// tableEmbedder embeds the texts it lists as given and every other text
// as one shared vector, so a test says which texts are near.
type tableEmbedder map[string][]float32

func (e tableEmbedder) vec(text string) []float32 {
	if v, ok := e[text]; ok {
		return v
	}
	return []float32{0, 0, 1}
}

func (e tableEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = e.vec(t)
	}
	return out, nil
}

// thingVectors place a replaced thing near or away from the questions of
// TestRunnerUpRevision, as the local model does ("banks" 0.12 from the
// mobile network question, "car" 0.26 from the commute one).
var thingVectors = tableEmbedder{
	"Which mobile network is the user on?": {0, 1, 0},
	"banks":                                {1, 0, 0},
	"How does the user get to work?":       {0, 1, 0},
	"car":                                  {0.6, 0.8, 0},
}

// TestRunnerUpRevision: the user's second-best answer to a question,
// newer and saying it replaced something, replaces the best one even when
// the two share neither words nor meaning; it does not when it adds a
// value, is older, says no change, is only supposed, changes a price the
// question does not ask for, plainly speaks of another topic, says it
// replaced a thing the question does not ask about, or holds only for a
// while. A state begun recently ("since June") needs no word of change.
func TestRunnerUpRevision(t *testing.T) {
	t.Parallel()
	jan := time.Date(2024, 1, 10, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name, query, best, next string
		older, asksIf, history  bool
		temporary               bool
		correction              bool
		nextTopic, asked        string
		want                    bool
	}{
		{name: "replaced in other words", query: "Which code editor does the user use?", best: "I write all my Python in PyCharm at work.",
			next: "I ditched the JetBrains stuff over Christmas, everything goes through Neovim now.", want: true},
		{name: "moved up a level", query: "What level of Japanese class is the user in?", best: "I'm in the beginners' Japanese evening class.",
			next: "Passed the JLPT N4, so the school moved me up to the intermediate group.", nextTopic: "study", asked: "study", want: true},
		{name: "a taste turned", query: "How does the user like their coffee?", best: "I take my coffee black, no sugar.",
			next: "Oat flat whites have won me over, I can't drink it without milk anymore.", want: true},
		{name: "adds a value", query: "What sports does the user play?", best: "I play squash on Tuesdays.",
			next: "I've also taken up padel instead of running.", want: false},
		{name: "older", query: "Which code editor does the user use?", best: "I write all my Python in PyCharm at work.",
			next: "I ditched the JetBrains stuff, everything goes through Neovim now.", older: true, want: false},
		{name: "no change said", query: "Which code editor does the user use?", best: "I write all my Python in PyCharm at work.",
			next: "Neovim plugins are written in Lua.", want: false},
		{name: "only supposed", query: "Which code editor does the user use?", best: "I write all my Python in PyCharm at work.",
			next: "If I switched to Neovim, would I miss the debugger?", asksIf: true, want: false},
		{name: "a price went up", query: "Which gym does the user go to?", best: "I train at Ironbark Gym, 12 weeks into a squat programme.",
			next: "My gym membership has gone up again.", want: false},
		{name: "another topic", query: "Which train does the user catch into London?", best: "I get the 7:52 from Didcot into Paddington.",
			next: "Moved my gym sessions to 6:15am.", nextTopic: "schedule", asked: "commute", want: false},
		{name: "a correction days later", query: "What blood pressure did the user log?", best: "This morning: 148/95, pulse 72.",
			next: "Correction to yesterday: I'd copied the wrong line, the reading was actually 138/85.", correction: true, want: true},
		{name: "someone else's change", query: "Which city does the user live in?", best: "I live just off Unthank Road in Norwich.",
			next: "My sister's moved to Cardiff for her new job 😭 help me plan a weekend visiting her.", want: false},
		{name: "a change declined", query: "Which gym does the user go to?", best: "I train at Ironbark Gym in Bristol.",
			next: "Nah, not moving. The coaches are worth every penny; I'll cut back on takeaways instead.", want: false},
		{name: "a new time is no new value", query: "Which train does the user catch into London?", best: "I get the 7:52 from Didcot into Paddington.",
			next: "Moved my gym sessions to 6:15am so my evenings are free.", want: false},
		{name: "a new time answers when", query: "When does the user go to the gym?", best: "I go to the gym at 7pm after work.",
			next: "Moved my gym sessions to 6:15am so my evenings are free.", want: true},
		{name: "a question about the past", query: "Which editor did the user use before?", best: "I write all my Python in PyCharm at work.",
			next: "I ditched the JetBrains stuff, everything goes through Neovim now.", history: true, want: false},
		{name: "a state begun since a month", query: "Which nursery does the user's son attend?", best: "My son Teo goes to Little Owls three mornings a week.",
			next: "My son's been at Riverside Montessori since June and comes home singing.", want: true},
		{name: "a relative's state begun, for a question about the user", query: "Where does the user work?", best: "I work at the Riverside library.",
			next: "My son's been at Riverside Montessori since June and comes home singing.", want: false},
		{name: "a stay for a while", query: "Where does the user live?", best: "I live in Galway, five minutes from the bay.",
			next: "Switched plans: I'm staying at my cousin's in Lyon for two weeks instead.", temporary: true, want: false},
		{name: "another thing replaced", query: "Which mobile network is the user on?", best: "I'm on giffgaff and roaming in France was fine.",
			next: "Switched banks to Starling last week and the card works abroad.", want: false},
		{name: "the asked thing replaced, by its word", query: "What phone does the user have?", best: "My Galaxy is dead by 4pm every day.",
			next: "Swapped my phone for a Pixel 8 last weekend.", want: true},
		{name: "the asked thing replaced, by meaning", query: "How does the user get to work?", best: "I drive in most days, 40 minutes each way.",
			next: "Sold the car in March, it's the bike every day now.", want: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			at := jan.AddDate(0, 6, 0)
			if tc.older {
				at = jan.AddDate(0, -6, 0)
			}
			best := &candidate{SearchResult: SearchResult{ID: "best", Kind: KindRaw, Text: tc.best, OccurredAt: jan, Status: StatusCurrent,
				Parts: ScoreParts{FullText: 0.9}}, role: "user", form: knowledge.FormStatement}
			next := &candidate{SearchResult: SearchResult{ID: "next", Kind: KindRaw, Text: tc.next, OccurredAt: at, Status: StatusCurrent,
				Parts: ScoreParts{Vector: 0.3}}, role: "user", form: knowledge.FormStatement, asksIf: tc.asksIf, correction: tc.correction,
				temporary: tc.temporary}
			r := &search{s: &Service{embedder: thingVectors}, qvec: thingVectors.vec(tc.query), cfg: DefaultConfig(),
				in: SearchInput{Query: tc.query}, set: candidateSet{"a": best, "b": next}, history: tc.history}
			r.runnerUpRevision(context.Background(), []*candidate{best, next}, map[*candidate]string{next: tc.nextTopic}, tc.asked)
			got := best.Status == StatusSuperseded && best.SupersededBy == "next"
			if got != tc.want {
				t.Fatalf("best superseded by the runner-up = %v, want %v (%+v)", got, tc.want, best.SearchResult)
			}
			if tc.want && relevance(next, r.cfg)*next.lift < relevance(best, r.cfg) {
				t.Fatalf("the runner-up was not raised to the best answer's relevance: lift %.2f", next.lift)
			}
			if !tc.want && next.lift > 0 {
				t.Fatalf("the runner-up was raised though it replaced nothing: lift %.2f", next.lift)
			}
		})
	}
}

// TestTemporaryStatements: for a question about what lastingly holds, the
// user's statement of a state that holds only for a while, and a summary
// quoting only such statements, rank below the lasting statement and can
// be no slot's newest value; a question about the moment keeps them.
func TestTemporaryStatements(t *testing.T) {
	t.Parallel()
	lasting := userStatement("home", "I live in Galway, five minutes from the bay.", 0.5)
	stay := userStatement("stay", "I'm staying at a friend's place in Oslo for two weeks for a work project.", 0.5)
	summary := &candidate{SearchResult: SearchResult{ID: "ev", Kind: KindEvent, Parts: ScoreParts{Vector: 0.5},
		Text: "COMPLETED:\n- [3 March 2024] User: I'm staying at a friend's place in Oslo for two weeks for a work project.\nPENDING:\n- (none)"}}
	for _, tc := range []struct {
		query string
		want  bool // the stay and its summary demoted
	}{
		{"Where is the user's home?", true},
		{"Where is the user staying right now?", false},
	} {
		for _, c := range []*candidate{lasting, stay, summary} {
			c.factor, c.temporary, c.reasons = 0, false, nil
		}
		r := &search{s: &Service{statements: newStatementMemo(16)}, cfg: DefaultConfig(), in: SearchInput{Query: tc.query}, set: candidateSet{"a": lasting, "b": stay, "c": summary}}
		r.evidencePriors()
		if got := stay.temporary && stay.factor > 0 && stay.factor < 1; got != tc.want {
			t.Errorf("%q: stay demoted = %v, want %v", tc.query, got, tc.want)
		}
		if got := summary.temporary && summary.factor > 0 && summary.factor < 1; got != tc.want {
			t.Errorf("%q: summary demoted = %v, want %v", tc.query, got, tc.want)
		}
		if lasting.temporary || lasting.factor != 0 {
			t.Errorf("%q: the lasting statement was demoted (factor %.2f)", tc.query, lasting.factor)
		}
		if holdsValue(stay, false) == tc.want {
			t.Errorf("%q: holdsValue(stay) = %v", tc.query, !tc.want)
		}
	}
	// A summary that cites turns the search holds is judged by them, in
	// whatever format it is written: one that cites the stay and the
	// lasting statement is not temporary.
	stay.SessionID, lasting.SessionID = "s", "s"
	both := &candidate{SearchResult: SearchResult{ID: "ev2", Kind: KindEvent, SessionID: "s", SourceEventIDs: []string{"stay", "home"},
		Parts: ScoreParts{Vector: 0.5}, Text: "The user lives in Galway and is in Oslo for a fortnight."}}
	only := &candidate{SearchResult: SearchResult{ID: "ev3", Kind: KindEvent, SessionID: "s", SourceEventIDs: []string{"stay"},
		Parts: ScoreParts{Vector: 0.5}, Text: "Trip to Oslo."}}
	r := &search{s: &Service{statements: newStatementMemo(16)}, cfg: DefaultConfig(), in: SearchInput{Query: "Where is the user's home?"},
		set: candidateSet{candidateKey(lasting): lasting, candidateKey(stay): stay, "ev2": both, "ev3": only}}
	for _, c := range r.set {
		c.factor, c.temporary = 0, false
	}
	r.evidencePriors()
	if both.temporary || !only.temporary {
		t.Errorf("summaries by their cited turns: citing both temporary = %v, citing the stay only temporary = %v", both.temporary, only.temporary)
	}
}

// TestDeclinedWithoutValue: for a question about now, the user's turn that
// declines a change without naming what it keeps ranks below the statement
// it keeps; one that names the kept value is not demoted, nor is either
// for a question about the past.
func TestDeclinedWithoutValue(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text    string
		history bool
		want    bool // demoted
	}{
		{"I'll stay where I am. The ESG option costs triple anyway.", false, true},
		{"Not switching, I'm sticking with Monzo.", false, false},
		{"I'll stay where I am. The ESG option costs triple anyway.", true, false},
	} {
		c := userStatement("keep", tc.text, 0.5)
		r := &search{cfg: DefaultConfig(), in: SearchInput{Query: "What fund is the user's pension in?"}, set: candidateSet{"a": c}, history: tc.history}
		r.evidencePriors()
		if got := c.factor > 0 && c.factor < 1; got != tc.want {
			t.Errorf("%q (history %v): demoted = %v, want %v", tc.text, tc.history, got, tc.want)
		}
	}
}

// TestSummaryAboutSomeoneElse: a summary whose user lines are all about
// someone else ranks lower for a question about the user, as those turns
// do, but not for a question naming the relation; one that quotes a line
// of the user's own keeps its weight.
func TestSummaryAboutSomeoneElse(t *testing.T) {
	t.Parallel()
	brother := &candidate{SearchResult: SearchResult{ID: "ev", Kind: KindEvent, Parts: ScoreParts{Vector: 0.5},
		Text: "COMPLETED:\n- [2 March 2024] User: My brother Callum has just moved to Tromsø for a research post.\nPENDING:\n- (none)"}}
	mixed := &candidate{SearchResult: SearchResult{ID: "ev2", Kind: KindEvent, Parts: ScoreParts{Vector: 0.5},
		Text: "COMPLETED:\n- [2 March 2024] User: My brother Callum has just moved to Tromsø.\n- [2 March 2024] User: I still live in Aberdeen, in a flat by the harbour.\nPENDING:\n- (none)"}}
	for _, tc := range []struct {
		query string
		want  bool // the brother's summary demoted
	}{
		{"Which city does the user live in?", true},
		{"Where does the user's brother live?", false},
	} {
		brother.factor, mixed.factor = 0, 0
		r := &search{s: &Service{statements: newStatementMemo(16)}, cfg: DefaultConfig(), in: SearchInput{Query: tc.query}, set: candidateSet{"a": brother, "b": mixed}}
		r.evidencePriors()
		if got := brother.factor == r.cfg.OtherPersonWeight; got != tc.want {
			t.Errorf("%q: the brother's summary factor %.2f (reasons %q), demoted want %v", tc.query, brother.factor, brother.reasons, tc.want)
		}
		if mixed.factor != 0 {
			t.Errorf("%q: a summary quoting the user's own line was demoted (factor %.2f)", tc.query, mixed.factor)
		}
	}
}

// TestRelabelledStatementJoinsSlot: a newer statement that gives the best
// statement's numbered label another number ("Year 6" after "Year 3")
// is the slot's newest value though its words read as no topic and share
// nothing with the question; one that gives the same number, or another
// label, does not supersede the older statement.
func TestRelabelledStatementJoinsSlot(t *testing.T) {
	t.Parallel()
	jan := time.Date(2024, 1, 10, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		newer      string
		superseded bool
	}{
		{"Year 6 from September: parade flags and drums marched.", true},
		{"Year 3 still: parade flags and drums marched.", false},
		{"Zone 6: parade flags and drums marched.", false},
	} {
		turn := func(id, text string, at time.Time, parts ScoreParts) *candidate {
			c := rawCandidate(graph.RawEvent{NewRawEvent: graph.NewRawEvent{ID: id, Kind: graph.RawMessage, Role: "user", Content: text, OccurredAt: at},
				SessionID: "s-" + id})
			c.Parts = parts
			return c
		}
		older := turn("older", "I work as a nurse on Year 3 of my job.", jan, ScoreParts{FullText: 1.5})
		newer := turn("newer", tc.newer, jan.AddDate(0, 6, 0), ScoreParts{Vector: 0.1})
		raws := []graph.RawEvent{}
		for _, c := range []*candidate{older, newer} {
			raws = append(raws, graph.RawEvent{NewRawEvent: graph.NewRawEvent{ID: c.ID, Content: c.Text}, SessionID: c.SessionID})
		}
		svc := &Service{statements: newStatementMemo(16), topics: knowledge.NewTopicReader(conceptEmbedder{}), vectors: fakeVectors{raws}}
		q := "Which year does the user work on?"
		qv, _ := conceptEmbedder{}.Embed(t.Context(), []string{q})
		r := &search{s: svc, cfg: DefaultConfig(), in: SearchInput{Query: q}, q: queryAnalysis{AboutUser: true}, qvec: qv[0],
			set: candidateSet{"a": older, "b": newer}}
		if err := r.currency(t.Context()); err != nil {
			t.Fatal(err)
		}
		if got := older.Status == StatusSuperseded && older.SupersededBy == "newer"; got != tc.superseded {
			t.Errorf("%q: the Year 3 statement superseded = %v, want %v (reasons %q)", tc.newer, got, tc.superseded, older.reasons)
		}
	}
}

// TestSummaryOfSuppositions: a summary whose user lines only suppose or
// weigh a change ranks lower for a question about the user, as those turns
// do; one that quotes a plain statement keeps its weight.
func TestSummaryOfSuppositions(t *testing.T) {
	t.Parallel()
	supposes := &candidate{SearchResult: SearchResult{ID: "ev", Kind: KindEvent, Parts: ScoreParts{Vector: 0.5},
		Text: "COMPLETED:\n- [9 October 2023] User: Maybe we'll move to Copenhagen if the job offer comes through.\nPENDING:\n- (none)"}}
	states := &candidate{SearchResult: SearchResult{ID: "ev2", Kind: KindEvent, Parts: ScoreParts{Vector: 0.5},
		Text: "COMPLETED:\n- [28 March 2023] User: I live in Bristol, in a flat with a balcony.\nPENDING:\n- (none)"}}
	r := &search{s: &Service{statements: newStatementMemo(16)}, cfg: DefaultConfig(), in: SearchInput{Query: "Which city is the user's home?"}, set: candidateSet{"a": supposes, "b": states}}
	r.evidencePriors()
	if supposes.factor != r.cfg.HypotheticalWeight {
		t.Errorf("the supposing summary's factor %.2f (reasons %q), want %.2f", supposes.factor, supposes.reasons, r.cfg.HypotheticalWeight)
	}
	if states.factor != 0 {
		t.Errorf("a summary of a plain statement was demoted (factor %.2f)", states.factor)
	}
}

// TestOneStatementAndANewerFact: a single statement of the user's on the
// asked slot is superseded by a newer current fact of that slot whose own
// turn matched nothing ("The user now works at Quillmark Studio", read
// from "Week one at Quillmark Studio is in the books"); an older fact
// supersedes nothing.
func TestOneStatementAndANewerFact(t *testing.T) {
	t.Parallel()
	jan := time.Date(2024, 1, 10, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name       string
		factAt     time.Time
		superseded bool
	}{
		{"a newer fact", jan.AddDate(0, 6, 0), true},
		{"an older fact", jan.AddDate(0, -6, 0), false},
	} {
		stmt := rawCandidate(graph.RawEvent{NewRawEvent: graph.NewRawEvent{ID: "old", Kind: graph.RawMessage, Role: "user",
			Content: "I work as a nurse at the city hospital.", OccurredAt: jan}, SessionID: "s-old"})
		stmt.Parts = ScoreParts{FullText: 1.5}
		fact := &candidate{SearchResult: SearchResult{ID: "f", Kind: KindFact, Status: StatusCurrent, OccurredAt: tc.factAt,
			Text: "The user now works at Quillmark Studio", SourceEventIDs: []string{"new"}, Parts: ScoreParts{Graph: 0.2}},
			object: "Quillmark Studio", predicate: "WORKS_AT"}
		raws := []graph.RawEvent{{NewRawEvent: graph.NewRawEvent{ID: stmt.ID, Content: stmt.Text}, SessionID: stmt.SessionID}}
		svc := &Service{statements: newStatementMemo(16), topics: knowledge.NewTopicReader(conceptEmbedder{}), vectors: fakeVectors{raws}}
		q := "Which company employs the user?"
		qv, _ := conceptEmbedder{}.Embed(t.Context(), []string{q})
		r := &search{s: svc, cfg: DefaultConfig(), in: SearchInput{Query: q}, q: queryAnalysis{AboutUser: true}, qvec: qv[0],
			set: candidateSet{"a": stmt, "b": fact}}
		if err := r.currency(t.Context()); err != nil {
			t.Fatal(err)
		}
		if got := stmt.Status == StatusSuperseded; got != tc.superseded {
			t.Errorf("%s: the statement superseded = %v, want %v (reasons %q)", tc.name, got, tc.superseded, stmt.reasons)
		}
	}
}
