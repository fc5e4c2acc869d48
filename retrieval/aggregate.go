package retrieval

import (
	"fmt"
	"slices"
	"strings"

	"github.com/graphmem/graphmem/nlp"
)

// aggregate answers a question that asks for a set ("What instruments does
// Melanie play?", "Which cities has John visited?") with one result: the
// facts of the asked types that graph search reached from the entities the
// query names, best first, in one text, citing the turns they were read
// from (at most maxTurns). The items of such an answer were said in as
// many turns, often sessions apart; ranked one by one, each competes with
// every turn that shares the question's words, and the list fills with one
// session's chatter before the second item shows. The aggregate takes the
// second place, behind the best single result (the first when that is one
// of its facts), so the best evidence keeps the top; the facts it holds
// leave the list (de-duplication then drops the turns it cites). A
// question that is not a set, or whose graph holds fewer than two such
// facts, is left as it is.
func (r *search) aggregate(fused []SearchResult, maxTurns int) []SearchResult {
	if maxTurns <= 0 || len(fused) == 0 || !setQuestion(r.in.Query) {
		return fused
	}
	var parts []int // indexes in fused of the facts it gathers
	var turns []string
	seen := map[string]bool{}
	for i, res := range fused {
		if len(parts) == maxAggregateFacts {
			break
		}
		c := r.set[KindFact+":"+res.ID]
		if res.Kind != KindFact || c == nil || c.Parts.Graph <= 0 || r.q.Predicates[c.predicate] <= 0 {
			continue
		}
		// A fact joins when it cites a turn the aggregate has room for, or
		// only turns it cites already ("Paris, Rome and Berlin" in one turn).
		joins := true
		for _, id := range res.SourceEventIDs {
			if seen[id] {
				continue
			}
			joins = len(turns) < maxTurns
			if joins {
				seen[id] = true
				turns = append(turns, id)
			}
		}
		if joins || slices.ContainsFunc(res.SourceEventIDs, func(id string) bool { return seen[id] }) {
			parts = append(parts, i)
		}
	}
	if len(parts) < 2 {
		return fused
	}
	agg := fused[parts[0]]
	// The turn that itself ranks best comes first: it is the one a reader
	// of the first result looks at.
	rank := map[string]int{}
	for i, res := range fused {
		if res.Kind == KindRaw && len(res.SourceEventIDs) == 1 {
			if _, ok := rank[res.SourceEventIDs[0]]; !ok {
				rank[res.SourceEventIDs[0]] = i
			}
		}
	}
	slices.SortStableFunc(turns, func(a, b string) int {
		ra, oka := rank[a]
		rb, okb := rank[b]
		switch {
		case oka && okb:
			return ra - rb
		case oka:
			return -1
		case okb:
			return 1
		}
		return 0
	})
	agg.SourceEventIDs = turns
	agg.Score = max(agg.Score, fused[0].Score)
	agg.Path = slices.Clone(agg.Path)
	agg.reasons = append(slices.Clone(agg.reasons), fmt.Sprintf("answers a set question: %d facts of the asked types", len(parts)))
	agg.sessions = slices.Clone(agg.sessions)
	texts := []string{agg.Text}
	for _, i := range parts[1:] {
		texts = append(texts, fused[i].Text)
		for _, sess := range fused[i].sessions {
			if !slices.Contains(agg.sessions, sess) {
				agg.sessions = append(agg.sessions, sess)
			}
		}
		for _, step := range fused[i].Path {
			if !slices.Contains(agg.Path, step) {
				agg.Path = append(agg.Path, step)
			}
		}
	}
	agg.Text = strings.Join(texts, "; ")
	out := make([]SearchResult, 0, len(fused)-len(parts)+1)
	if parts[0] != 0 {
		out = append(out, fused[0])
	}
	out = append(out, agg)
	for i, res := range fused {
		if i != 0 && !slices.Contains(parts, i) {
			out = append(out, res)
		}
	}
	return out
}

// maxAggregateFacts bounds the sentences one aggregate joins.
const maxAggregateFacts = 12

// setQuestion reports whether a query asks for a set of things rather than
// one: "What books has Tim read?", "Which cities has she visited?", "What
// kinds of art does he make?", "How many times has she been to the
// beach?", "Has he ever...". Such a question is answered by mentions spread
// over a conversation, one per item (aggregate). The cues are English
// grammar (a plural object after the question word, "kinds of", "how
// many", "all", "ever", "both"), not topics.
func setQuestion(q string) bool {
	words := nlp.Words(q)
	for i, w := range words {
		switch w {
		case "ever", "all", "both", "various":
			return true
		case "many":
			// "How many times..." counts mentions; "how many years..." asks
			// for one duration.
			if i > 0 && words[i-1] == "how" && (i+1 >= len(words) || !timeUnits[words[i+1]]) {
				return true
			}
		}
	}
	for i, w := range words {
		if w != "what" && w != "which" {
			continue
		}
		if i+1 >= len(words) {
			return false
		}
		next := words[i+1]
		if setNouns[next] {
			return true // "what kinds of", "which types of"
		}
		return pluralNoun(next) && !timeUnits[next] // "which years" asks when
	}
	return false
}

// setNouns are the nouns that make any question word ask for a set.
var setNouns = map[string]bool{"kinds": true, "types": true, "sorts": true, "ways": true}

// timeUnits make a plural ask for a time or a duration, not a set of things.
var timeUnits = map[string]bool{"years": true, "months": true, "weeks": true, "days": true, "hours": true,
	"minutes": true, "decades": true, "seasons": true, "weekends": true, "nights": true}

// pluralNoun guesses that a word right after "what"/"which" is a plural
// noun: it ends in s, is not an auxiliary or a pronoun ("what does", "what
// is", "what was", "what has", "what his"), and is not a word whose
// singular ends in s ("class", "business").
func pluralNoun(w string) bool {
	if len(w) <= 3 || !strings.HasSuffix(w, "s") || strings.HasSuffix(w, "ss") || strings.HasSuffix(w, "us") ||
		strings.HasSuffix(w, "'s") || nlp.IsStopword(w) {
		return false
	}
	switch w {
	case "does", "was", "has", "is", "his", "hers", "its", "this", "yours", "ours", "theirs":
		return false
	}
	return true
}
