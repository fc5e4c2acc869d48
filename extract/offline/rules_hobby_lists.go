package offline

import (
	"strings"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// hobbyNouns announce a list of what the speaker likes doing: "my hobbies
// are painting and hiking", "my hobbies - painting, hiking and reading".
var hobbyNouns = wordSet(`hobbies,activities,interests,passions,pastimes`)

// hobbyListFrame: POSS hobbies (are|include|,) X, Y and Z. Each item is a
// liking of the owner's, read from this turn. A single "hobby" is a
// favourite (favouriteFrame); "my favourite hobbies are..." is read there
// too, as this frame comes after it.
func (r *hobbyRules) hobbyListFrame(c *clause) bool {
	owner, i := c.possessor(0)
	if owner == "" || !hobbyNouns[c.at(i)] {
		return false
	}
	i++
	switch {
	case alt("include|includes|are|,", c.at(i)):
		i++
	case c.at(i) == "have" && c.at(i+1) == "been":
		i += 2
	default:
		return false
	}
	if c.neg {
		return false
	}
	items, _ := takeList(c.toks, i)
	emitted := false
	for n, np := range items {
		// Only activities are listed: "my hobbies are expensive" names none.
		if n == maxConjuncts || !usableObject(np) || len(np.toks) > 4 || !listItemStart(np.toks[0]) {
			break
		}
		if k, _ := c.object(np, "", 0); k != "" {
			c.emit(fx{subj: owner, pred: "LIKES", obj: k, strength: 0.8, tmpl: "{S} likes {O}", noDate: true})
			emitted = true
		}
	}
	return emitted
}

// gerundListFrame: "- running, reading, or playing my violin -": a list
// of pastimes said on its own after the speaker's statement ("I'm carving
// out some me-time each day - running, reading, or playing my violin")
// names what the speaker does. Two items or more, each a pastime's gerund
// or the playing of an instrument, and nothing else in the clause.
func (r *hobbyRules) gerundListFrame(c *clause) bool {
	sp := c.said.speaker
	t := c.toks
	// The list's subject is the speaker's clause before it: it stands
	// inside the sentence, never at its start ("Hiking, biking, kayaking:
	// this park has it all").
	if sp == "" || c.subj != sp && (c.subj != "" || t[0].first) || c.hedge || c.neg || len(t) < 3 ||
		!strings.HasSuffix(t[0].w, "ing") {
		return false
	}
	items, next := takeList(t, 0)
	if len(items) < 2 || len(items) > maxConjuncts || next < len(t) && t[next].kind == nlp.Word && !alt("which|that", t[next].w) {
		return false
	}
	for _, np := range items {
		w := np.toks[0].w
		switch {
		case len(np.toks) == 1 && (activities[w] || goVerbs[w]) && strings.HasSuffix(w, "ing"):
		case w == "playing" && instruments[np.head()]:
		default:
			return false
		}
	}
	c.subj = sp
	for _, np := range items {
		if np.toks[0].w == "playing" {
			if k, _ := c.object(nounPhrase{toks: np.toks[len(np.toks)-1:]}, ontology.Activity, 2); k != "" {
				c.emit(fx{pred: "PRACTICES", obj: k, conf: 0.7, tmpl: "{S} plays {O}"})
			}
			continue
		}
		if k, _ := c.object(np, ontology.Activity, 2); k != "" {
			c.emit(fx{pred: "PRACTICES", obj: k, conf: 0.7, tmpl: "{S} spends time {O}"})
		}
	}
	return true
}
