package retrieval

import (
	"math"
	"strings"
	"testing"

	"github.com/graphmem/graphmem/graph"
)

// TestMeaningGate: a turn that shares a word (or a hop) with the query but
// not its sense keeps only part of its full-text and graph signals, in
// proportion to its cosine between the floor and the full mark, with a
// reason in explain; a turn near the query in meaning keeps them whole; a
// fact, which has no vector, is left alone; the turns' vectors are kept
// for the currency stage.
func TestMeaningGate(t *testing.T) {
	t.Parallel()
	raw := func(id, text string) graph.RawEvent {
		return graph.RawEvent{NewRawEvent: graph.NewRawEvent{ID: id, Kind: graph.RawMessage, Role: "user", Content: text}, SessionID: "s"}
	}
	near := raw("near", "I moved to a flat in the city.")                           // the home concept, as the query
	far := raw("far", "The parade marched with flags and drums.")                   // the parade concept only
	mixed := raw("mixed", "The parade marched with flags and drums past our flat.") // a little of both
	svc := &Service{vectors: fakeVectors{[]graph.RawEvent{near, far, mixed}}}
	r := &search{s: svc, cfg: DefaultConfig(), set: candidateSet{}, q: queryAnalysis{AboutUser: true}}
	qv, _ := conceptEmbedder{}.Embed(t.Context(), []string{"Where does the user live?"})
	r.qvec = qv[0]
	cands := map[string]*candidate{}
	for _, e := range []graph.RawEvent{near, far, mixed} {
		c := rawCandidate(e)
		c.Parts = ScoreParts{FullText: 1, Graph: 0.5}
		cands[e.ID] = r.set.add(c)
	}
	fact := &candidate{SearchResult: SearchResult{ID: "f", Kind: KindFact, Parts: ScoreParts{FullText: 1, Graph: 1}}}
	r.set.add(fact)
	if err := r.meaning(t.Context()); err != nil {
		t.Fatal(err)
	}
	cfg := r.cfg
	for id, c := range cands {
		if !c.vecRead || c.vec == nil {
			t.Fatalf("%s: no vector read", id)
		}
		want := min(max((c.cos-cfg.MeaningFloor)/(cfg.MeaningFull-cfg.MeaningFloor), cfg.MeaningMin), 1)
		if math.Abs(c.Parts.FullText-want) > 1e-9 || math.Abs(c.Parts.Graph-0.5*want) > 1e-9 {
			t.Errorf("%s (cosine %.2f): full text %.3f graph %.3f, want %.3f and %.3f", id, c.cos, c.Parts.FullText, c.Parts.Graph, want, 0.5*want)
		}
		if gated := want < 1; gated != (len(c.reasons) == 1 && strings.Contains(c.reasons[0], "far from the query in meaning")) {
			t.Errorf("%s: reasons %q, gated %v", id, c.reasons, gated)
		}
	}
	if c := cands["near"]; c.cos < cfg.MeaningFull || c.Parts.FullText != 1 {
		t.Errorf("the turn on the query's sense was scaled: cosine %.2f, full text %.2f", c.cos, c.Parts.FullText)
	}
	if c := cands["far"]; c.cos > cfg.MeaningFloor || c.Parts.FullText != cfg.MeaningMin {
		t.Errorf("the turn far in sense: cosine %.2f, full text %.2f; want %.2f", c.cos, c.Parts.FullText, cfg.MeaningMin)
	}
	if c := cands["mixed"]; c.Parts.FullText <= cfg.MeaningMin || c.Parts.FullText >= 1 {
		t.Errorf("the turn of both senses: full text %.2f; want between %.2f and 1", c.Parts.FullText, cfg.MeaningMin)
	}
	if fact.Parts.FullText != 1 || fact.Parts.Graph != 1 || fact.vecRead {
		t.Errorf("the fact was gated: %+v", fact.Parts)
	}

	// Off: MeaningFull at or below the floor keeps every signal; so does a
	// question that is not about the user (it names people and things).
	off := &search{s: svc, cfg: DefaultConfig(), set: candidateSet{}, qvec: r.qvec, q: queryAnalysis{AboutUser: true}}
	off.cfg.MeaningFull = off.cfg.MeaningFloor
	named := &search{s: svc, cfg: DefaultConfig(), set: candidateSet{}, qvec: r.qvec}
	for name, r2 := range map[string]*search{"gate off": off, "a question naming people": named} {
		c := r2.set.add(rawCandidate(far))
		c.Parts = ScoreParts{FullText: 1}
		if err := r2.meaning(t.Context()); err != nil {
			t.Fatal(err)
		}
		if c.Parts.FullText != 1 {
			t.Errorf("%s: full text %.2f, want 1", name, c.Parts.FullText)
		}
	}
}
