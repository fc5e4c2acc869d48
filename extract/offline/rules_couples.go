package offline

import "github.com/graphmem/graphmem/ontology"

// coupleRules recognise relationship status and partners: married, engaged,
// dating, broken up, divorced, single ("Sam and I got married", "I broke up
// with Alex", "I'm in a relationship with Jo").
type coupleRules struct{}

// ruleMarry: "I married Sam" ("Sam and I got married" is read by get).
func (r *coupleRules) ruleMarry(c *clause) {
	if c.neg || c.modal != "" {
		return
	}
	name, _ := nameOf(c.toks, c.verbAt+1)
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
	name, _ := nameOf(c.toks, c.verbAt+1)
	if name == "" {
		return
	}
	k := c.said.out.named(name, ontology.Person, 2)
	c.said.people[k] = true
	neg := c.neg || c.cessation
	c.emit(fx{pred: "PARTNER_OF", obj: k, neg: neg, tmpl: pick(neg, "{S} is dating {O}", "{S} is no longer dating {O}")})
}

// ruleBreak: "I broke up with Alex".
func (r *coupleRules) ruleBreak(c *clause) {
	if c.at(c.verbAt+1) != "up" || c.neg || c.future || c.modal != "" {
		return
	}
	r.status(c, "single", false)
	if c.at(c.verbAt+2) == "with" {
		if name, _ := nameOf(c.toks, c.verbAt+3); name != "" {
			k := c.said.out.named(name, ontology.Person, 2)
			c.emit(fx{pred: "PARTNER_OF", obj: k, neg: true, tmpl: "{S} broke up with {O}{D}"})
		}
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
	c.emit(fx{pred: "HAS_STATUS", obj: k, neg: neg, tmpl: pick(neg, "{S} is "+s+"{since D}", "{S} is no longer "+s)})
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
