package offline

import (
	"strings"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// coupleRules recognise relationship status and partners: married, engaged,
// dating, broken up, divorced, single ("Sam and I got married", "I broke up
// with Alex", "I'm in a relationship with Jo").
type coupleRules struct{}

// ruleMarry: "I married Sam" ("Sam and I got married" is read by get).
func (r *coupleRules) ruleMarry(c *clause) {
	if c.neg || c.modal != "" {
		return
	}
	i := c.verbAt + 1
	if alt("a|an", c.at(i)) && alt("guy|girl|man|woman|boy|lad|lass|person", c.at(i+1)) && alt("called|named", c.at(i+2)) {
		i += 3 // "dating a guy called Luis"
	}
	name, _ := nameOf(c.toks, i)
	if name == "" {
		return
	}
	k := c.said.out.named(name, ontology.Person, 2)
	c.said.people[k] = true
	if c.future || c.would || c.progressive {
		c.emit(fx{pred: "PLANS", obj: k, conf: 0.7, tmpl: "{S} plans to marry {O}{D}"})
		return
	}
	r.status(c, "married", false)
	c.emit(fx{pred: "MARRIED_TO", obj: k, tmpl: "{S} is married to {O} (married{D})"})
}

// ruleDate: "I'm dating Alex", "I've been seeing Alex".
func (r *coupleRules) ruleDate(c *clause) {
	if c.future || c.modal != "" || !c.progressive && !c.perfect {
		return
	}
	i := c.verbAt + 1
	if alt("a|an", c.at(i)) && alt("guy|girl|man|woman|boy|lad|lass|person", c.at(i+1)) && alt("called|named", c.at(i+2)) {
		i += 3 // "dating a guy called Luis"
	}
	name, _ := nameOf(c.toks, i)
	if name == "" {
		return
	}
	k := c.said.out.named(name, ontology.Person, 2)
	c.said.people[k] = true
	neg := c.neg || c.cessation
	c.emit(fx{pred: "PARTNER_OF", obj: k, neg: neg, tmpl: pick(neg, "{S} is dating {O}", "{S} is no longer dating {O}")})
}

// ruleBreak: "I broke up with Alex", "Alex and I split up", "we split".
// The couple's end closes the partnership (valid_to), it does not deny it.
func (r *coupleRules) ruleBreak(c *clause) {
	i := c.verbAt + 1
	if c.at(i) != "up" && !(c.verb == "split" && (c.companion != "" || c.at(0) == "we") && !takesObject(c, i)) ||
		c.neg || c.future || c.modal != "" {
		return // "we split the bill" is no break-up
	}
	if c.at(i) == "up" {
		i++
	}
	r.status(c, "single", false)
	partner := c.companion
	if c.at(i) == "with" {
		if name, _ := nameOf(c.toks, i+1); name != "" {
			partner = c.said.out.named(name, ontology.Person, 2)
		} else if k, _ := c.relativeAt(i+1, c.said.speaker); k != "" {
			partner = k // "with my girlfriend"
		}
	}
	if partner != "" {
		c.emit(fx{pred: "PARTNER_OF", obj: partner, qual: c.said.out.qualOf(c.subj, "PARTNER_OF", partner), ended: true,
			tmpl: "{S} broke up with {O}{D}", rank: 3})
	}
}

// separateWays: "Tom and I went our separate ways", "we parted ways in
// June", "we called it quits", "we called off the engagement": a break-up
// said without "break up". It reports whether it read the clause, so the
// verb keeps its other readings.
func (r *coupleRules) separateWays(c *clause) bool {
	if c.neg || c.future || c.modal != "" || c.would || !(c.past || c.perfect) {
		return false
	}
	if c.companion == "" && c.at(0) != "we" {
		return false // "the roads went separate ways", "I called it quits at work"
	}
	i := c.verbAt + 1
	switch c.verb {
	case "go":
		if !(alt("our|separate", c.at(i)) && (c.at(i+1) == "ways" || c.seq(i+1, "separate", "ways"))) {
			return false
		}
	case "part":
		if !(c.at(i) == "ways" || c.seq(i, "our", "separate", "ways") || c.seq(i, "company")) {
			return false
		}
	case "call":
		if !(c.seq(i, "it", "quits") || c.seq(i, "it", "a", "day") || c.at(i) == "off" && alt("the|our", c.at(i+1)) && alt("engagement|wedding|relationship", c.at(i+2))) {
			return false
		}
	default:
		return false
	}
	r.status(c, "single", false)
	if c.companion != "" {
		c.emit(fx{pred: "PARTNER_OF", obj: c.companion, qual: c.said.out.qualOf(c.subj, "PARTNER_OF", c.companion), ended: true,
			tmpl: "{S} broke up with {O}{D}", rank: 3})
	}
	return true
}

// startSeeing: "I've started seeing Ana", "I started dating someone new"
// (the partner named by a later "her name is Ines"). It reports whether
// it read the clause, so "start" keeps its other readings.
func (r *coupleRules) startSeeing(c *clause) bool {
	i := c.verbAt + 1
	if !alt("seeing|dating", c.at(i)) || c.neg || c.future || c.modal != "" || c.would {
		return false
	}
	r.partnerAt(c, i+1, "started seeing")
	return true
}

// partnerAt reads who is dated at i: a name, "a guy called Luis", or
// "someone (new)" whom a later "his name is ..." names.
func (r *coupleRules) partnerAt(c *clause, i int, how string) {
	if alt("a|an", c.at(i)) && alt("guy|girl|man|woman|boy|lad|lass|person", c.at(i+1)) && alt("called|named", c.at(i+2)) {
		i += 3
	}
	if name, _ := nameOf(c.toks, i); name != "" {
		k := c.said.out.named(name, ontology.Person, 2)
		c.said.people[k] = true
		c.notePerson(k)
		c.emit(fx{pred: "PARTNER_OF", obj: k, tmpl: "{S} is dating {O} (" + how + "{D})", rank: 2})
		return
	}
	if alt("someone|somebody", c.at(i)) {
		k := c.said.out.owned(c.subj, "partner", ontology.Person, 2)
		c.said.talk.lastUnnamed = k
		c.notePerson(k)
		c.emit(fx{pred: "PARTNER_OF", obj: k, qual: "partner", tmpl: "{S} is dating {O} (" + how + "{D})", rank: 2})
	}
}

// ruleDivorce: "I divorced Sam".
func (r *coupleRules) ruleDivorce(c *clause) {
	if c.neg || c.future || c.modal != "" {
		return
	}
	r.status(c, "divorced", false)
	if name, _ := nameOf(c.toks, c.verbAt+1); name != "" {
		k := c.said.out.named(name, ontology.Person, 2)
		c.emit(fx{pred: "MARRIED_TO", obj: k, neg: true, tmpl: "{S} divorced {O}{D}"})
	}
}

// maritalStatus reads "married (to Sam)", "engaged (to Alex)", "divorced".
func (r *coupleRules) maritalStatus(c *clause, w string, i int, neg bool) {
	past := c.past && !c.perfect && !c.now
	if w == "married" && past && !c.neg && c.at(i) != "to" && c.verb == "" {
		// "I was married for ten years" says little about now.
		return
	}
	r.status(c, w, neg)
	if c.companion != "" && !alt("to|with|from", c.at(i)) && (w == "married" || w == "engaged") && !neg {
		// "Sam and I got married"
		if w == "married" {
			c.emit(fx{pred: "MARRIED_TO", obj: c.companion, tmpl: "{S} got married to {O}{D}"})
		} else {
			c.emit(fx{pred: "PARTNER_OF", obj: c.companion, tmpl: "{S} is engaged to {O}{D}"})
		}
	}
	if alt("to|with|from", c.at(i)) {
		if name, _ := nameOf(c.toks, i+1); name != "" {
			k := c.said.out.named(name, ontology.Person, 2)
			c.said.people[k] = true
			switch w {
			case "married":
				tmpl := pick(neg, "{S} is married to {O}{since D}", "{S} is no longer married to {O}")
				if c.verb == "get" && !neg {
					tmpl = "{S} got married to {O}{D}"
				}
				c.emit(fx{pred: "MARRIED_TO", obj: k, neg: neg, tmpl: tmpl})
			case "engaged":
				c.emit(fx{pred: "PARTNER_OF", obj: k, neg: neg, tmpl: "{S} is engaged to {O}{D}"})
			case "divorced", "separated":
				c.emit(fx{pred: "MARRIED_TO", obj: k, neg: true, tmpl: "{S} is " + w + " from {O}"})
			}
		}
	}
}

// status emits HAS_STATUS ("single", "married", "in a relationship").
func (r *coupleRules) status(c *clause, s string, neg bool) {
	k := c.said.out.named(s, ontology.Concept, 2)
	ended := "{S} is no longer " + s
	if neg && c.neg && !c.cessation && !c.again {
		ended = "{S} is not " + s // "I'm not married" says no more than that
	}
	c.emit(fx{pred: "HAS_STATUS", obj: k, neg: neg, tmpl: pick(neg, "{S} is "+s+"{since D}", ended)})
}

// inRelationship: "I'm in a relationship (with Jo)"; i is the index after
// "relationship".
func (r *coupleRules) inRelationship(c *clause, i int, neg bool) {
	r.status(c, "in a relationship", neg)
	if c.at(i) == "with" {
		if name, _ := nameOf(c.toks, i+1); name != "" {
			k := c.said.out.named(name, ontology.Person, 2)
			c.emit(fx{pred: "PARTNER_OF", obj: k, neg: neg, tmpl: "{S} is in a relationship with {O}", noDate: true})
		}
	}
}

// ruleSee: "I'm seeing Ana", "I've been seeing someone since May"; a
// sighting ("I saw Tom yesterday") is not dating.
func (r *coupleRules) ruleSee(c *clause) {
	if !c.progressive || c.neg || c.future || c.modal != "" || c.would {
		return
	}
	r.partnerAt(c, c.verbAt+1, "seeing")
}

// takesObject reports whether the word at i opens an object of the verb
// ("split the bill"), not a time or the end of the clause.
func takesObject(c *clause, i int) bool {
	if i >= len(c.toks) || c.toks[i].kind != nlp.Word {
		return false
	}
	return !alt("in|last|after|before|for|this|recently|yesterday|earlier|ago|over|because|when|and|but|so", c.at(i))
}

// ruleProposed: "Tom proposed and I said yes!", "my boyfriend proposed last
// night": a partner's proposal to the speaker makes them engaged. The
// proposer must be a person the speaker names or relates to, the verb must
// stand alone or take "to me" ("she proposed a new plan" is no proposal),
// and an answer of no in the message keeps it from counting.
func (r *coupleRules) ruleProposed(c *clause) {
	sp := c.said.speaker
	if sp == "" || c.subj == sp || c.neg || c.future || c.would || c.modal != "" || !(c.past || c.perfect) {
		return
	}
	if e, ok := c.said.out.ents[c.subj]; !ok || e.typ != ontology.Person {
		return
	}
	if i := c.verbAt + 1; i < len(c.toks) && !(c.seq(i, "to", "me") || alt("and|but|last|yesterday|on|at|in|this|,|!|.", c.at(i)) || c.toks[i].w == dateTok) {
		return
	}
	text := strings.ToLower(c.said.event.Content)
	if strings.Contains(text, "said no") || strings.Contains(text, "turned him down") || strings.Contains(text, "turned her down") {
		return
	}
	partner := c.subj
	c.subj = sp
	r.status(c, "engaged", false)
	c.emit(fx{pred: "PARTNER_OF", obj: partner, tmpl: "{S} is engaged to {O}{D}"})
	c.subj = partner
}

// tiedTheKnot: "Priya and I tied the knot on Saturday", "tied the knot
// with Sam in June": the idiom of marrying.
func (r *coupleRules) tiedTheKnot(c *clause) bool {
	if c.neg || c.modal != "" || !c.seq(c.verbAt+1, "the", "knot") {
		return false
	}
	if c.future || c.would || c.progressive {
		return true // a plan; "tying the knot next May" names no one to marry yet
	}
	r.maritalStatus(c, "married", c.verbAt+3, false)
	return true
}

// divorceScan reads a divorce said as news of the divorce itself: "my
// divorce came through on Thursday", "Divorce was finalised last week",
// "the divorce is final". Someone else's ("my sister's divorce") is hers.
func (r *coupleRules) divorceScan(c *clause) {
	t := c.toks
	if c.said.speaker == "" || c.hedge || len(t) < 3 {
		return
	}
	i := 0
	switch {
	case alt("my|our|the", t[0].w) && t[1].w == "divorce":
		i = 2
	case t[0].w == "divorce" && (t[0].first || c.opening):
		i = 1
	default:
		return
	}
	for k := i; k < len(t) && k < i+3; k++ {
		if alt("not|never|might|may|will|if", t[k].w) {
			return
		}
		if alt("finalised|finalized|final|official|through|done|granted|settled", t[k].w) {
			subj := c.subj
			c.subj = c.said.speaker
			r.status(c, "divorced", false)
			c.subj = subj
			return
		}
	}
}
