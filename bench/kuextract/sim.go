package kuextract

import (
	"context"
	"fmt"
	"time"

	"github.com/graphmem/graphmem/extract"
	"github.com/graphmem/graphmem/knowledge"
	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// Session is one window handed to the engine, at one time.
type Session struct {
	At     time.Time
	Events []extract.Event
}

// Memory is what the policy believes after a run: every fact, by subject,
// with entity names for reading.
type Memory struct {
	Facts []*knowledge.Fact
	Names map[string]string // entity id -> name
}

// Run extracts each session with ex and plans its facts, in order, against
// everything planned before: the graph's write path without the graph.
func Run(ctx context.Context, ex extract.Extractor, userID string, sessions []Session) (Memory, error) {
	st := &knowledge.State{Facts: map[string][]*knowledge.Fact{}}
	mem := Memory{Names: map[string]string{"user": "User"}}
	ids := map[string]string{} // resolution key -> id
	seq := 0
	for si, s := range sessions {
		in := extract.Input{UserID: userID, SessionID: fmt.Sprintf("%s-s%d", userID, si), Events: s.Events}
		res, err := ex.Extract(ctx, in)
		if err != nil {
			return Memory{}, fmt.Errorf("session %d: %w", si, err)
		}
		keys := map[string]string{} // result key -> id
		for _, e := range res.Entities {
			if e.IsUser {
				keys[e.Key] = "user"
				continue
			}
			k := e.Owner + "|" + nlp.NormalizeName(e.Name)
			if e.Owner != "" {
				k = keys[e.Owner] + "|" + nlp.NormalizeName(e.Name)
			}
			id, ok := ids[k]
			if !ok {
				seq++
				id = fmt.Sprintf("e%d", seq)
				ids[k] = id
				mem.Names[id] = e.Name
			}
			keys[e.Key] = id
		}
		var incoming []*knowledge.Fact
		for _, f := range res.Facts {
			n := toFact(f, keys, s.At, in.SessionID)
			if n == nil {
				continue
			}
			seq++
			n.ID = fmt.Sprintf("f%d", seq)
			incoming = append(incoming, n)
		}
		knowledge.Plan(st, incoming, s.At, knowledge.Policy{})
	}
	for _, facts := range st.Facts {
		mem.Facts = append(mem.Facts, facts...)
	}
	return mem, nil
}

// toFact mirrors graph.validateFact and newFact: the predicate resolved in
// the vocabulary, a denied preference stored as its opposite, the validity
// defaulting to when it was said.
func toFact(f extract.Fact, keys map[string]string, at time.Time, session string) *knowledge.Fact {
	subj, obj := keys[f.Subject], keys[f.Object]
	if subj == "" || obj == "" {
		return nil
	}
	pred, _ := ontology.Resolve(f.Predicate)
	pol := f.Polarity
	if pol == "" {
		pol = ontology.Positive
	}
	if pol == ontology.Negative && pred.Opposite != "" {
		pred, _ = ontology.Lookup(pred.Opposite)
		pol = ontology.Positive
	}
	if pred.Opposite != "" {
		pol = pred.Polarity()
	}
	conf := f.Confidence
	if conf == 0 {
		conf = 0.8
	}
	n := &knowledge.Fact{Subject: subj, Object: obj, Predicate: pred, Qualifier: nlp.NormalizeName(f.Qualifier),
		Polarity: pol, Status: knowledge.Current, Sentence: f.Sentence, Confidence: conf, Strength: f.Strength,
		ValidFrom: at, ObservedAt: at, RecordedAt: at, LastSeen: at, Mentions: 1, Sources: f.SourceEventIDs, New: true,
		Correction: f.Correction, Corrects: keys[f.Corrects], Sessions: []string{session}}
	if f.ValidFrom != nil && !f.ValidFrom.IsZero() {
		n.ValidFrom = f.ValidFrom.UTC()
	}
	if f.ValidTo != nil && !f.ValidTo.IsZero() && !f.ValidTo.Before(n.ValidFrom) {
		vt := f.ValidTo.UTC()
		n.ValidTo = &vt
	}
	return n
}

// Text is what a fact says, for matching a check's strings: its sentence
// and its object's name.
func (m Memory) Text(f *knowledge.Fact) string {
	return f.Sentence + " | " + m.Names[f.Object]
}
