package offline

import (
	"strings"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// be, have, get and become are verbs whose complement, not the verb itself,
// decides what is said: "I am from Sweden" is a place, "I am allergic to
// cats" a health fact, "I have a dog named Rex" a pet, "I got a job at
// Globex" an employer. Each branch hands the clause to the recogniser of
// that kind of fact; the order of the branches is the order of precedence.

// become: "I became a nurse", "I became vegetarian" read as "I am ...".
func (r *recognizers) become(c *clause) {
	if c.modal != "" || c.would || c.future {
		return
	}
	c.verbAt++
	c.past = false
	c.be = true
	c.verb = ""
	r.be(c)
}

// be handles "I am ..." clauses (c.be set, no main verb).
func (r *recognizers) be(c *clause) {
	t := c.toks
	i := c.verbAt
	w := c.at(i)
	neg := c.neg
	past := c.past && !c.perfect && !c.now
	switch {
	case w == "from" || (w == "originally" && c.at(i+1) == "from"):
		if w == "originally" {
			i++
		}
		np := takeNP(t, i+1)
		if !neg && isPlaceLike(np) {
			k, _ := c.object(np, ontology.Place, 2)
			c.emit(fx{pred: "FROM", obj: k, tmpl: "{S} is from {O}", noDate: true})
		}
		return
	case alt("based|settled|located|living", w) && alt("in|out", c.at(i+1)):
		j := i + 2
		if c.at(j) == "of" {
			j++
		}
		r.places.residence(c, takeNP(t, j), neg, false, "")
		return
	case w == "born":
		r.identity.born(c, i+1)
		return
	case w == "married" || w == "engaged" || w == "divorced" || w == "separated" || w == "widowed":
		r.couples.maritalStatus(c, w, i+1, neg)
		return
	case w == "in" && c.at(i+1) == "a" && c.at(i+2) == "relationship":
		r.couples.status(c, "in a relationship", neg)
		if c.at(i+3) == "with" {
			if name, _ := nameOf(t, i+4); name != "" {
				k := c.said.out.named(name, ontology.Person, 2)
				c.emit(fx{pred: "PARTNER_OF", obj: k, neg: neg, tmpl: "{S} is in a relationship with {O}", noDate: true})
			}
		}
		return
	case w == "laid" && c.at(i+1) == "off", w == "fired", w == "let" && c.at(i+1) == "go", w == "made" && c.at(i+1) == "redundant":
		r.work.dismissed(c, i)
		return
	case (w == "hired" || w == "employed") && alt("by|at", c.at(i+1)):
		r.work.employer(c, takeNP(t, i+2), neg || past, "hired")
		r.work.roleAfter(c, i+2)
		return
	case w == "allergic":
		if c.at(i+1) == "to" {
			items, _ := takeList(t, i+2)
			for _, np := range items {
				if k, _ := c.object(np, "", 0); k != "" {
					c.emit(fx{pred: "ALLERGIC_TO", obj: k, neg: neg, tmpl: pick(neg, "{S} is allergic to {O}", "{S} is no longer allergic to {O}"), noDate: true})
				}
			}
		}
		return
	case (w == "lactose" || w == "gluten") && c.at(i+1) == "intolerant":
		k := c.said.out.named(w+" intolerance", ontology.Condition, 2)
		c.emit(fx{pred: "HAS_CONDITION", obj: k, neg: neg, tmpl: pick(neg, "{S} is "+w+" intolerant", "{S} is no longer "+w+" intolerant"), noDate: true})
		return
	case w == "fluent" && c.at(i+1) == "in" && !neg:
		items, _ := takeList(t, i+2)
		for _, np := range items {
			if languages[np.key()] {
				k, _ := c.object(np, ontology.Language, 2)
				c.emit(fx{pred: ontology.Fallback, raw: "speaks", obj: k, tmpl: "{S} speaks {O} fluently", noDate: true})
			}
		}
		return
	case w == "into":
		r.tastes.likeObjects(c, i+1, "LIKES", neg, 0.75, "is into")
		return
	case likeAdjectives[w] != "" && alt(likeAdjectives[w], c.at(i+1)):
		r.tastes.likeObjects(c, i+2, "LIKES", neg, 0.9, "is "+w+" "+c.at(i+1))
		return
	case alt("tired|sick|bored", w) && alt("of|with", c.at(i+1)) || w == "fed" && c.at(i+1) == "up" && c.at(i+2) == "with":
		j := i + 2
		if w == "fed" {
			j++
		}
		if !neg {
			r.tastes.likeObjects(c, j, "DISLIKES", false, 0.6, "is "+words(t[i:j]))
		}
		return
	case alt("scared|afraid|terrified", w) && c.at(i+1) == "of":
		if !neg {
			r.tastes.likeObjects(c, i+2, "DISLIKES", false, 0.6, "is "+w+" of")
		}
		return
	case w == "a" && c.at(i+1) == "member" && c.at(i+2) == "of", w == "part" && c.at(i+1) == "of":
		j := i + 3
		if w == "part" {
			j = i + 2
		}
		np := takeNP(t, j)
		if k, _ := c.object(np, ontology.Organization, 1); k != "" {
			c.emit(fx{pred: "MEMBER_OF", obj: k, neg: neg || past, tmpl: pick(neg || past, "{S} is a member of {O}", "{S} is no longer a member of {O}"), noDate: true})
		}
		return
	case w == "to" && c.perfect:
		np := takeNP(t, i+1)
		if isPlaceLike(np) {
			k, _ := c.object(np, ontology.Place, 2)
			c.emit(fx{pred: "VISITED", obj: k, neg: neg, tmpl: pick(neg, "{S} has been to {O}", "{S} has never been to {O}")})
		}
		return
	case w == "in" && c.now && !past:
		np := takeNP(t, i+1)
		if isPlaceLike(np) && np.hasName {
			r.places.residence(c, np, neg, false, "")
		}
		return
	case w == "on" && alt("a|the", c.at(i+1)):
		// "I'm on a keto diet"
		np := takeNP(t, i+1)
		if np.head() == "diet" {
			r.health.diet(c, strings.TrimSuffix(np.lower(), " diet")+" diet", neg, past)
		}
		return
	}
	// Ages: "I am 30", "I'm 30 years old".
	if r.identity.ageAt(c, i) {
		return
	}
	// Fans: "I'm a big fan of jazz", "I'm a Chelsea fan".
	if r.tastes.fanFrame(c, i, neg) {
		return
	}
	// Single adjectives: diets, statuses, nationalities, identities.
	j := i
	if alt("a|an", c.at(j)) {
		j++
	}
	w = c.at(j)
	two := w + " " + c.at(j+1)
	switch {
	case diets[two] || diets[w]:
		d := w
		if diets[two] {
			d = two
		}
		r.health.diet(c, d, neg, past)
		return
	case statuses[w] && j == i:
		r.couples.status(c, w, neg || past)
		return
	case nationalities[w] != "" && j == i && (j+1 >= len(t) || t[j+1].kind != nlp.Word || t[j+1].w == "and"):
		if !neg {
			k := c.said.out.named(nationalities[w], ontology.Place, 2)
			c.emit(fx{pred: "FROM", obj: k, conf: 0.8, tmpl: "{S} is " + capitalize(w) + " (from {O})", noDate: true})
		}
		return
	case conditions[two] != "" || conditions[w] != "" && j == i:
		cond := conditions[w]
		adj := w
		if conditions[two] != "" {
			cond, adj = conditions[two], two
		}
		k := c.said.out.named(cond, ontology.Condition, 2)
		tmpl := pick(neg || past, "{S} has {O} ({S} is "+adj+")", "{S} is no longer "+adj+" ({O})")
		c.emit(fx{pred: "HAS_CONDITION", obj: k, neg: neg || past, tmpl: tmpl, noDate: true})
		return
	case identityWords[w] && (j == i || j+1 >= len(t) || t[j+1].kind != nlp.Word):
		k := c.said.out.named(w, ontology.Concept, 2)
		c.emit(fx{pred: "IS_A", obj: k, neg: neg || past, tmpl: pick(neg || past, "{S} is "+w, "{S} is no longer "+w), noDate: true})
		return
	}
	// Roles and identities introduced by an article: "a nurse", "a data
	// analyst at Acme", "the CEO of Initech", "a transgender woman".
	if alt("a|an|the", c.at(i)) || (c.at(i) == "self-employed" || c.at(i) == "retired" || c.at(i) == "unemployed") {
		r.identity.roleOrIdentity(c, i, neg, past)
	}
}

// have: pets, relatives, allergies, budgets, schedules and
// possessions introduced by "have".
func (r *recognizers) have(c *clause) {
	t := c.toks
	i := c.verbAt + 1
	if c.at(i) == "to" || c.future || c.would || c.modal != "" {
		return
	}
	if c.at(i) == "got" {
		i++
	}
	past := c.past && !c.perfect
	neg := c.neg || c.usedTo || past
	if r.kin.petOrPeople(c, i, neg) {
		return
	}
	np := takeNP(t, i)
	if np.empty() {
		return
	}
	// Allergies: "a peanut allergy", "an allergy to cats".
	if np.head() == "allergy" {
		if len(np.toks) > 1 {
			inner := nounPhrase{toks: np.toks[:len(np.toks)-1]}
			if k, _ := c.object(inner, "", 0); k != "" {
				c.emit(fx{pred: "ALLERGIC_TO", obj: k, neg: neg, tmpl: pick(neg, "{S} is allergic to {O}", "{S} is no longer allergic to {O}"), noDate: true})
			}
		} else if alt("to", c.at(np.next)) {
			items, _ := takeList(t, np.next+1)
			for _, it := range items {
				if k, _ := c.object(it, "", 0); k != "" {
					c.emit(fx{pred: "ALLERGIC_TO", obj: k, neg: neg, tmpl: pick(neg, "{S} is allergic to {O}", "{S} is no longer allergic to {O}"), noDate: true})
				}
			}
		}
		return
	}
	// Budgets: "a budget of 2000 euros for the trip".
	if np.head() == "budget" && c.at(np.next) == "of" {
		if amt, n := readAmount(t, np.next+1); amt != "" {
			qual := ""
			if alt("for|on", c.at(n)) {
				q := takeNP(t, n+1)
				qual = q.head()
			}
			r.budgets.budget(c, c.subj, qual, amt, false)
		}
		return
	}
	// Schedules: "I have piano lessons on Tuesdays".
	if occasionNouns[np.head()] && alt("on|every|each", c.at(np.next)) {
		r.schedules.schedule(c, np, np.next, false)
		return
	}
	if c.perfect && c.at(i) == "been" || !isProduct(np) {
		return
	}
	r.possessions.possess(c, np, neg, "")
}

// get: "I got married to Sam", "I got engaged", "I got a job at
// Globex", "we got a puppy", "I got a new laptop", "I got into pottery".
func (r *recognizers) get(c *clause) {
	t := c.toks
	i := c.verbAt + 1
	if c.future || c.would || c.modal != "" || c.neg {
		if (c.future || c.would) && !c.neg {
			r.plans.planFrom(c, c.verbAt)
		}
		return
	}
	if !c.past && !c.perfect {
		return // "I get tired" / "I get it"
	}
	switch c.at(i) {
	case "married", "engaged", "divorced", "separated":
		r.couples.maritalStatus(c, c.at(i), i+1, false)
		return
	case "into":
		if np := takeNP(t, i+1); np.det == "" && !alt("trouble|accident|fight|argument|debt|college|school|university|program|shape|character", np.head()) {
			r.tastes.likeObjects(c, i+1, "LIKES", false, 0.7, "got into")
		}
		return
	case "laid", "fired", "let":
		r.work.dismissed(c, i)
		return
	case "hired":
		if alt("by|at", c.at(i+1)) {
			r.work.employer(c, takeNP(t, i+2), false, "hired")
			r.work.roleAfter(c, i+2)
		}
		return
	}
	np := takeNP(t, i)
	if np.empty() {
		return
	}
	if alt("job|position|role|offer|internship", np.head()) {
		j := np.next
		for k := 0; k < 3 && j < len(t); k++ {
			switch {
			case alt("at|with", c.at(j)):
				org := takeNP(t, j+1)
				r.work.employer(c, org, false, "got a job")
				j = org.next
			case c.at(j) == "as":
				title := takeNP(t, j+1)
				r.work.role(c, title, false)
				j = title.next
			case c.at(j) == "offer" || c.at(j) == "in":
				j = len(t)
			default:
				j = len(t)
			}
		}
		return
	}
	if r.kin.petOrPeople(c, i, false) {
		return
	}
	r.possessions.possess(c, np, false, "got")
}
