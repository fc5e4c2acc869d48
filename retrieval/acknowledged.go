package retrieval

import (
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/knowledge"
)

// acknowledgedStatements leads from the turns that match a question about
// someone but were said by someone else (the assistant's, for a question
// about the user; the other speaker's, for one naming a person) to the
// statements of the asked person they reply to.
// An assistant's reply names what the user just said in its own, often
// more general words ("A demanding job!" after "I'm an air traffic
// controller", "That's a lovely hobby" after "I collect vintage fountain
// pens"), so the reply matches a question the statement shares no word
// with; the reply itself is not the evidence (the priors demote it), the
// statement before it is. The statement joins the candidates with a graph
// signal of AckGraph times the reply's full-text signal, as a
// question's reply does in the other direction (conversationReplies).
func (r *search) acknowledgedStatements(ctx context.Context) error {
	if (!r.q.AboutUser && len(r.people) == 0) || r.s.turns == nil || r.cfg.AckCandidates <= 0 {
		return nil
	}
	var replies, byMeaning []*candidate
	for _, c := range r.set {
		if c.Kind != KindRaw || r.asked(c) || c.role == "" {
			continue
		}
		if ackSignal(c) > 0 {
			replies = append(replies, c)
		}
		if r.q.AboutUser && c.role == "assistant" && c.Parts.Vector > 0 {
			byMeaning = append(byMeaning, c)
		}
	}
	top := func(list []*candidate, signal func(*candidate) float64, n int) []*candidate {
		sort.Slice(list, func(i, j int) bool {
			if a, b := signal(list[i]), signal(list[j]); a != b {
				return a > b
			}
			return list[i].ID < list[j].ID
		})
		return list[:min(len(list), n)]
	}
	replies = top(replies, ackSignal, r.cfg.AckCandidates)
	// For a question about the user, the assistant's replies closest to it
	// in meaning lead to the statement they name in general words ("What a
	// lovely way to earn a living" after "Twenty kids a week come for piano
	// lessons", for "What is the user's job?"). Only the few closest: what
	// most replies mean is their warmth, which is near any question.
	signal := map[*candidate]float64{}
	for _, c := range replies {
		signal[c] = ackSignal(c)
	}
	for _, c := range top(byMeaning, func(c *candidate) float64 { return c.Parts.Vector }, r.cfg.AckVectorCandidates) {
		if _, ok := signal[c]; !ok {
			replies = append(replies, c)
		}
		signal[c] = max(signal[c], r.cfg.AckVectorWeight*c.Parts.Vector)
	}
	if len(replies) == 0 {
		return nil
	}
	refs := make([]graph.TurnRef, len(replies))
	for i, c := range replies {
		refs[i] = graph.TurnRef{SessionID: c.SessionID, ID: c.ID}
	}
	prev, err := r.s.turns.PrecedingTurns(ctx, r.scope, refs)
	if err != nil {
		return err
	}
	for i, reply := range replies {
		ev, ok := prev[refs[i]]
		if !ok || ev.Kind == graph.RawCondensationRequest {
			continue
		}
		c := r.s.statements.rawCandidate(ev)
		if !r.asked(c) || c.form != knowledge.FormStatement {
			continue // a question or an acknowledgement states nothing
		}
		c.Parts.Graph = r.cfg.AckGraph * signal[reply]
		c.Path = []string{"acknowledged by " + reply.ID}
		r.set.add(c)
		// For a question about the user, the assistant's reply passed its
		// evidence on to the statement: it ranks below that statement.
		if r.q.AboutUser && reply.role != "user" {
			reply.demote(r.cfg.AckReplyWeight, "replies to the user's statement "+ev.ID+", which is the evidence")
		}
	}
	return nil
}

// asked reports whether a turn was spoken by whom the question asks
// about: a person it names ("What did Caroline research?"), else, for a
// question about the user, the user.
func (r *search) asked(c *candidate) bool {
	if len(r.people) > 0 && c.speaker != "" {
		return slices.ContainsFunc(r.people, func(p string) bool { return strings.EqualFold(p, c.speaker) })
	}
	return r.q.AboutUser && c.role == "user"
}

// ackSignal is how well an assistant's turn matches the query by its own
// words: a reply's meaning is mostly its warmth ("That's wonderful!"), which
// is near every question about anyone, so the vector signal counts only
// for the few replies closest to a question about the user
// (AckVectorCandidates).
func ackSignal(c *candidate) float64 {
	return c.Parts.FullText
}
