package offline

import (
	"strings"

	"github.com/graphmem/graphmem/ontology"
)

// Tastes said as habits of consumption. "These days I only read cosy
// mysteries", "nowadays I mostly listen to bossa nova", "I just watch
// documentaries now": what someone reads, watches or listens to *only* or
// *mostly*, or *now* in contrast with before, is what they like; a plain
// "I read a book" or "I watched a film" says nothing of taste and stays
// with the hobby and outing rules.

// habitTaste reads a consumption verb (read, watch, listen to) marked as a
// habit of preference: an exclusive adverb before the verb (only, mostly,
// mainly, just, exclusively) or a present marker (now, these days,
// nowadays). "I used to only watch westerns" is a former taste. It
// reports whether it read the clause.
func (r *tasteRules) habitTaste(c *clause) bool {
	if c.future || c.modal != "" || c.would || c.progressive && !c.perfect || c.neg && !c.usedTo {
		return false
	}
	if c.past && !c.usedTo {
		return false // "I read a thriller last week" is an outing of the mind
	}
	i := c.verbAt + 1
	if c.verb == "listen" {
		if c.at(i) != "to" {
			return false
		}
		i++
	}
	// "I've been listening to a lot of Phoebe Bridgers": much of one kind
	// is a habit of it, as "mostly" is
	much := quantityLen(c.toks, i)
	exclusive := c.verbAt > 0 && habitExclusives[c.toks[c.verbAt-1].w] || much > 0 && !alt("bit", c.at(i+1))
	if !exclusive && !(c.now && !c.usedTo) {
		return false
	}
	i += much
	items, _ := takeList(c.toks, i)
	read := false
	for _, np := range items {
		np = trimTrailingAdverbs(np)
		if !usableObject(np) || np.quoted || alt("the|this|that|a|an", np.det) && !np.hasName {
			continue // "I only read the paper": one thing, not a kind
		}
		k, _ := c.object(np, "", 0)
		if k == "" {
			continue
		}
		v := map[string]string{"read": "reads", "watch": "watches", "listen": "listens to"}[c.verb]
		tmpl := "{S} mostly " + v + " {O}"
		if much > 0 {
			tmpl = "{S} " + v + " a lot of {O}"
		}
		if c.usedTo {
			tmpl = "{S} used to mostly " + map[string]string{"read": "read", "watch": "watch", "listen": "listen to"}[c.verb] + " {O}"
		}
		c.emit(fx{pred: "LIKES", obj: k, neg: c.usedTo, strength: 0.6, conf: 0.75, tmpl: tmpl, noDate: true})
		read = true
	}
	return read
}

// habitExclusives are the adverbs that make a habit a preference ("I only
// read...", "I mostly watch..."). Grows by a word.
var habitExclusives = wordSet(`only,mostly,mainly,just,exclusively,largely,chiefly,pretty much`)

// cannotGetEnough: "I can't get enough of sea swimming" is a liking, and
// strong. It reports whether it read the clause.
func (r *tasteRules) cannotGetEnough(c *clause) bool {
	i := c.verbAt + 1
	if !c.neg || c.future || c.would || !c.seq(i, "enough", "of") {
		return false
	}
	return r.emitTaste(c, i+2, "LIKES", "can't get enough of")
}

// doneWith: "I'm done with fast food" is a taste given up when what
// follows is a bare kind; "I'm done with the report" is a task finished.
// It reports whether it read the clause.
func (r *tasteRules) doneWith(c *clause) bool {
	i := c.verbAt
	if c.toks[i].w != "done" || c.at(i+1) != "with" || c.neg || c.future || c.modal != "" || c.would {
		return false
	}
	np := takeNP(c.toks, i+2)
	if !usableObject(np) || np.det != "" || np.hasName {
		return false
	}
	return r.emitTaste(c, i+2, "DISLIKES", "is done with")
}

// nowItsFrame: "these days it's woodworking videos before bed", "lately
// it's all bossa nova", "now it's mostly audiobooks for me": a present
// marker, then "it's" and a bare kind, is the speaker's current taste,
// typically right after what it replaced ("I've gone off the cooking
// channels"). Without "all/mostly/only" the kind must be plural, so "now
// it's raining" or "these days it's hard" say nothing.
func (r *tasteRules) nowItsFrame(c *clause) bool {
	if !c.now || c.neg || c.future || c.modal != "" || c.would {
		return false
	}
	i := 0
	switch {
	case c.at(0) == "it's" || c.at(0) == "its":
		i = 1
	case c.at(0) == "it" && alt("is|'s", c.at(1)):
		i = 2
	default:
		return false
	}
	marked := false
	for alt("all|mostly|only|just|pretty|much", c.at(i)) {
		marked, i = true, i+1
	}
	np := trimTrailingAdverbs(takeNP(c.toks, i))
	if !usableObject(np) || np.det != "" || np.count != "" || pronounObjects[np.head()] {
		return false
	}
	if !marked && !strings.HasSuffix(np.toks[len(np.toks)-1].w, "s") {
		return false
	}
	if alt("all|every|non-stop|nonstop|constantly", c.at(np.next)) {
		return false // "these days it's meetings all day": a burden, not a taste
	}
	if evalPositive[np.toks[0].w] || evalNegative[np.toks[0].w] {
		return false // "it's brilliant": a judgement of something else
	}
	if typ, _ := classify(np); typ == ontology.Person || typ == ontology.Place {
		return false
	}
	c.subj = c.said.speaker // "it" is the dummy subject; the taste is the speaker's
	return r.emitTaste(c, i, "LIKES", "is into")
}
