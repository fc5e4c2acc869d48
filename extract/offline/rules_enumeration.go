package offline

import (
	"strings"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// Enumerations: "I play the clarinet and the flute", "I visited Paris, Rome
// and Berlin", "I love cycling, knitting, or playing my cello". A rule reads
// its object as one noun phrase (clause.object) and emits one fact; the
// conjuncts that follow that phrase are objects of the same verb, so each
// gets the same fact, read from the same turn. Without this a list yields
// its first item only, and a question about every item ("Which
// instruments does she play?") finds one.
//
// It works for every rule without the rule knowing: clause.object notes the
// last object phrase, and clause.emit hands each fact whose object is that
// phrase to emitConjuncts.

// listObject is the last object phrase a clause made an entity of.
type listObject struct {
	np   nounPhrase
	key  string
	typ  ontology.EntityType
	rank int
	// expanding is set while the conjuncts of a fact are emitted, so they
	// are not read again as lists of their own.
	expanding bool
}

// maxConjuncts bounds the items read from one list: a longer run of commas
// is more likely a list of clauses than of objects.
const maxConjuncts = 6

// noteObject records the phrase an object entity was made of.
func (c *clause) noteObject(np nounPhrase, key string, typ ontology.EntityType, rank int) {
	if c.list.expanding {
		return
	}
	c.list = listObject{np: np, key: key, typ: typ, rank: rank}
}

// emitConjuncts emits f again for each phrase coordinated with its object:
// the same subject, predicate, polarity, dates and template, another object.
func (c *clause) emitConjuncts(f fx) {
	l := c.list
	// A template that does not print its object ({O} or {aO}: "wants to
	// live authentically") says something of the clause, not of the phrase.
	if l.expanding || l.key == "" || f.obj != l.key || (f.tmpl != "" && !strings.Contains(f.tmpl, "O}")) {
		return
	}
	// A slot that holds one value ("drives", "lives in") is not listed:
	// "we're taking the new Volvo, two kids and a dog" drives a Volvo, and
	// each conjunct would supersede the one before it.
	if p, ok := ontology.Lookup(f.pred); !ok || p.Exclusive() {
		return
	}
	items := c.conjunctsAfter(l.np.next)
	if len(items) == 0 {
		return
	}
	c.list.expanding = true
	defer func() { c.list.expanding = false }()
	for _, np := range items {
		if l.typ == ontology.Place && !np.hasName && !isPlaceLike(np) {
			continue // "just back from Lisbon and knackered": no second place
		}
		if l.typ == ontology.Language && !isLanguage(np) {
			continue // "fluent in Spanish and getting by in Italian": a phrase, no second language
		}
		key, art := c.object(np, l.typ, l.rank)
		if key == "" || key == f.obj {
			continue
		}
		g := f
		g.obj, g.art = key, art
		c.emit(g)
	}
}

// conjunctsAfter reads the phrases coordinated after position i: ", B",
// "and B", "or B", ", B and C", "as well as B". Each must end the clause or
// be followed by another conjunction, a comma or a preposition, so "I like
// tea and my brother" stays one phrase where a clause goes on ("and my
// brother likes coffee" is a clause of its own, split before this).
func (c *clause) conjunctsAfter(i int) []nounPhrase {
	t := c.toks
	j := i
	if j < len(t) && t[j].w == "," {
		j++
	}
	switch {
	case j < len(t) && (t[j].w == "and" || t[j].w == "or" || t[j].w == "&"):
		j++
	case j+2 < len(t) && t[j].w == "as" && t[j+1].w == "well" && t[j+2].w == "as":
		j += 3
	case j > i && j < len(t) && t[j].kind == nlp.Word:
	default:
		return nil
	}
	if j >= len(t) || auxiliaries[t[j].w] || subjectPronouns[t[j].w] {
		return nil
	}
	items, _ := takeList(t, j)
	var out []nounPhrase
	for _, np := range items {
		if len(out) == maxConjuncts || !usableObject(np) || len(np.toks) > 4 {
			break
		}
		if k := np.next; k < len(t) && !listBoundary(t[k]) {
			break
		}
		out = append(out, np)
	}
	return out
}

// listBoundary reports whether a token may follow a list item: a
// conjunction, punctuation, a preposition, a clause adverb or a date.
func listBoundary(t tok) bool {
	switch t.w {
	case ",", "and", "or", "&", ".", "!", "?", ";", ":", "-", "as", "with", "at", "in", "on", "for", "from",
		"to", "last", "this", "every", "too", "also", "together", "anymore", "now", "either", "again", "often",
		"lately", "recently", dateTok:
		return true
	}
	return t.kind != nlp.Word && t.kind != nlp.Number
}
