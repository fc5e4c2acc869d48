package retrieval

import (
	"context"
	"fmt"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/knowledge"
)

// meaning is the stage between the signals and the priors, with an
// embedder: every raw turn, summary and insight the search holds gets its
// cosine to the query (the vector search scored only its nearest
// neighbours), and what a memory shares with the query by its words or by
// a hop counts only as far as the memory is near the query in meaning.
//
// Full text and hops answer for a memory's words and place, not its sense:
// "What does the user do for a living?" matches "shows time changing our
// lives" by a stem, and the reply to a question that shares a word with
// the query inherits that word. Such memories sit near cosine 0 to the
// query, where a sentence encoder puts unrelated text; the evidence, even
// in other words, sits well above it. So the lexical and graph signals of
// a memory are scaled by where its cosine falls between MeaningFloor
// (scaled to MeaningMin) and MeaningFull (kept whole). Facts and entity
// cards carry no vector and keep their signals.
//
// The gate weighs questions about the user only, as AboutUserWeightVector
// does: the user's statements are worded unlike the later questions, so a
// word they share is often an accident ("living", "lives"). A question that
// names people and things ("What did Caroline research?") shares its
// specific words with its evidence, which may still sit far from it in
// meaning: on LoCoMo (no questions about "the user") gating every question
// lowered recall_all@10 from 0.683 to 0.678 on the same stored data.
func (r *search) meaning(ctx context.Context) error {
	if r.qvec == nil || r.s.vectors == nil || !r.q.AboutUser {
		return nil // nothing reads the cosines of a question naming people and things
	}
	var refs []graph.VectorRef
	held := map[graph.VectorRef]*candidate{}
	for _, c := range r.set {
		switch c.Kind {
		case KindRaw, KindEvent, KindInsight:
			ref := graph.VectorRef{Kind: c.Kind, SessionID: c.SessionID, ID: c.ID}
			refs = append(refs, ref)
			held[ref] = c
		}
	}
	vecs, err := r.s.vectors.Vectors(ctx, r.scope, refs)
	if err != nil {
		return err
	}
	for _, c := range held {
		c.vecRead = true
	}
	for ref, v := range vecs {
		c := held[ref]
		if c == nil {
			continue
		}
		// A turn is as near the query as the nearest reading of it: its
		// words, or a fact read from it.
		c.cos = max(knowledge.Cosine(r.qvec, v), c.factCos)
		if c.Kind == KindRaw {
			c.setVec(v)
		}
		r.meaningGate(c)
	}
	return nil
}

// meaningGate scales a memory's lexical and graph signals by its closeness
// to the query in meaning (see meaning).
func (r *search) meaningGate(c *candidate) {
	lo, hi := r.cfg.MeaningFloor, r.cfg.MeaningFull
	if hi <= lo || c.Parts.FullText+c.Parts.Graph == 0 || c.cos >= hi {
		return
	}
	f := min(max((c.cos-lo)/(hi-lo), r.cfg.MeaningMin), 1)
	c.Parts.FullText *= f
	c.Parts.Graph *= f
	c.reasons = append(c.reasons, fmt.Sprintf("far from the query in meaning (cosine %.2f): its shared words and links count %.0f%%", c.cos, 100*f))
}
