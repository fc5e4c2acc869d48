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
	var replies []*candidate
	for _, c := range r.set {
		if c.Kind == KindRaw && !r.asked(c) && c.role != "" && ackSignal(c) > 0 {
			replies = append(replies, c)
		}
	}
	if len(replies) == 0 {
		return nil
	}
	sort.Slice(replies, func(i, j int) bool {
		if a, b := ackSignal(replies[i]), ackSignal(replies[j]); a != b {
			return a > b
		}
		return replies[i].ID < replies[j].ID
	})
	replies = replies[:min(len(replies), r.cfg.AckCandidates)]
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
		c.Parts.Graph = r.cfg.AckGraph * ackSignal(reply)
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
// is near every question about anyone, so the vector signal is left out.
func ackSignal(c *candidate) float64 {
	return c.Parts.FullText
}
