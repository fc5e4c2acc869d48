package offline

import (
	"strings"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// Rules about possessions, pets and partners: have, own, buy, sell, drive,
// use, keep, adopt, get, marry, date, divorce, break up.

// isVehicle reports whether a phrase names a car or other vehicle.
func isVehicle(np nounPhrase) bool {
	if np.empty() {
		return false
	}
	return vehicleMakes[np.toks[0].w] || vehicleNouns[np.head()] || vehicleMakes[np.head()]
}

// isProduct reports whether a phrase names a possession worth a fact.
func isProduct(np nounPhrase) bool {
	if np.empty() {
		return false
	}
	key := np.key()
	return isVehicle(np) || productBrands[key] || productBrands[np.toks[0].w] || productNouns[np.head()]
}

// possess emits OWNS (and DRIVES for a vehicle). how is the verb of the
// sentence ("bought", "sold", "have").
func (c *cl) possess(np nounPhrase, neg bool, how string) {
	if !usableObject(np) || !isProduct(np) && !np.hasName {
		return
	}
	k, art := c.object(np, ontology.Product, 2)
	if k == "" {
		return
	}
	b := c.e.x.b
	if isVehicle(np) && len(np.toks) > 1 && vehicleMakes[np.toks[0].w] {
		// "Toyota Corolla" is also "the Corolla".
		b.alias(b.ents[k], nounPhrase{toks: np.toks[1:], hasName: true}.surface())
	}
	if neg && (art == "a" || art == "an") && how == "sold" {
		art = ""
	}
	tmpl := "{S} owns {aO}"
	switch {
	case neg && how == "sold":
		tmpl = "{S} sold {aO}{D} (no longer owns it)"
	case neg && c.past && !c.perfect && !c.cessation:
		tmpl = "{S} used to have {aO}"
	case neg:
		tmpl = "{S} no longer owns {aO}"
	case how == "bought":
		tmpl = "{S} bought {aO}{D}"
	case how == "got":
		tmpl = "{S} got {aO}{D}"
	}
	c.emit(fx{pred: "OWNS", obj: k, neg: neg, art: art, tmpl: tmpl})
	if isVehicle(np) {
		dt := pick(neg, "{S} drives {aO}", "{S} no longer drives {aO}")
		if !neg && (how == "bought" || how == "got") {
			dt = "{S} drives {aO} (bought{D})"
		}
		c.emit(fx{pred: "DRIVES", obj: k, neg: neg, art: art, tmpl: dt, rank: 1})
	}
}

// ruleDrive: "I drive a Toyota Corolla".
func (c *cl) ruleDrive() {
	if c.future || c.modal != "" || c.would || c.at(c.i+1) == "to" {
		return
	}
	np := takeNP(c.toks, c.i+1)
	if !usableObject(np) || !isVehicle(np) && !np.hasName {
		return
	}
	k, art := c.object(np, ontology.Product, 2)
	neg := c.neg || c.usedTo || c.past && !c.perfect
	tmpl := "{S} drives {aO}"
	switch {
	case c.usedTo || c.past && !c.neg:
		tmpl = "{S} used to drive {aO}"
	case neg:
		tmpl = "{S} no longer drives {O}"
	}
	c.emit(fx{pred: "DRIVES", obj: k, neg: neg, art: art, tmpl: tmpl, rank: 1})
}

// ruleOwn: "I own a house", "we bought a Tesla Model 3", "I got a new laptop".
func (c *cl) ruleOwn() {
	if c.future || c.modal != "" || c.would {
		if c.future || c.would {
			c.planTo(c.verb, takeNP(c.toks, c.i+1), ontology.Product)
		}
		return
	}
	np := takeNP(c.toks, c.i+1)
	how := ""
	if c.verb == "buy" || c.verb == "purchase" {
		how = "bought"
		if c.neg {
			return
		}
	}
	c.possess(np, c.neg || c.usedTo, how)
}

// ruleSell: "I sold the Corolla".
func (c *cl) ruleSell() {
	if c.future || c.modal != "" || c.would || c.neg || !c.past && !c.perfect {
		return
	}
	np := takeNP(c.toks, c.i+1)
	if usableObject(np) && (isProduct(np) || np.hasName) {
		c.possess(np, true, "sold")
	}
}

// ruleUse: "I use an iPhone", "I don't use Windows anymore".
func (c *cl) ruleUse() {
	if c.future || c.modal != "" || c.would || c.past && !c.usedTo && !c.perfect {
		return
	}
	np := takeNP(c.toks, c.i+1)
	if !usableObject(np) || !isProduct(np) && !np.hasName {
		return
	}
	if typ, ok := classify(np); ok && (typ == ontology.Person || typ == ontology.Place) {
		return
	}
	k, art := c.object(np, ontology.Product, 2)
	neg := c.neg || c.usedTo
	tmpl := "{S} uses {aO}"
	switch {
	case c.usedTo:
		tmpl = "{S} used to use {aO}"
	case neg && c.cessation:
		tmpl = "{S} no longer uses {O}"
	case neg:
		tmpl = "{S} doesn't use {O}"
	}
	c.emit(fx{pred: "USES", obj: k, neg: neg, art: art, tmpl: tmpl, noDate: true})
}

// ruleKeep: "I'm keeping my iPhone" reaffirms that the speaker uses it.
func (c *cl) ruleKeep() {
	if c.neg || c.would || c.modal != "" {
		return
	}
	np := takeNP(c.toks, c.i+1)
	if !usableObject(np) || !isProduct(np) || np.det != "my" && np.det != "our" && np.det != "the" {
		return
	}
	k, _ := c.object(np, ontology.Product, 2)
	pred := "USES"
	if isVehicle(np) {
		pred = "DRIVES"
	}
	c.emit(fx{pred: pred, obj: k, tmpl: "{S} is keeping {their} {O}", noDate: true})
}

// petOrPeople reads "a dog named Rex", "two cats, Luna and Milo", "a sister
// named Emma", "two kids" at i, for have/adopt/get. It reports whether it
// matched.
func (c *cl) petOrPeople(i int, neg bool) bool {
	t := c.toks
	np := takeNP(t, i)
	if np.empty() {
		return false
	}
	head := np.head()
	species := ""
	switch {
	case petSpecies[np.lower()]:
		species = np.lower()
	case petSpecies[head] && len(np.toks) <= 2:
		species = head
	}
	_, isRel := relations[np.toks[len(np.toks)-1].w]
	if species == "" && !isRel {
		return false
	}
	// Names: "named Rex", "called Rex", ", Rex", "whose name is Rex",
	// ", her name is Luna" (handled by the next clause).
	j := np.next
	var names []string
	switch {
	case alt("named|called", c.at(j)):
		j++
	case c.at(j) == "whose" && c.at(j+1) == "name" && alt("is|'s", c.at(j+2)):
		j += 3
	case c.at(j) == ",":
		j++
	default:
		j = -1
	}
	if j > 0 {
		for j < len(t) {
			name, n := nameOf(t, j)
			if name == "" {
				break
			}
			names = append(names, name)
			j = n
			if alt(",|and|&", c.at(j)) {
				j++
				if c.at(j) == "and" {
					j++
				}
				continue
			}
			break
		}
	}
	owner := c.subj
	if species != "" {
		if len(names) == 0 {
			c.pet(owner, species, "", neg)
		}
		for _, n := range names {
			c.pet(owner, species, n, neg)
		}
		return true
	}
	role := np.toks[len(np.toks)-1].w
	if neg {
		return true // "I don't have kids": nothing to record about a relative
	}
	if len(names) == 0 {
		c.relative(owner, role, relations[role], "")
	}
	for _, n := range names {
		c.relative(owner, role, relations[role], n)
	}
	return true
}

// ruleHave: pets, relatives, allergies, budgets, schedules and
// possessions introduced by "have".
func (c *cl) ruleHave() {
	t := c.toks
	i := c.i + 1
	if c.at(i) == "to" || c.future || c.would || c.modal != "" {
		return
	}
	if c.at(i) == "got" {
		i++
	}
	past := c.past && !c.perfect
	neg := c.neg || c.usedTo || past
	if c.petOrPeople(i, neg) {
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
			c.budget(c.subj, qual, amt, false)
		}
		return
	}
	// Schedules: "I have piano lessons on Tuesdays".
	if occasionNouns[np.head()] && alt("on|every|each", c.at(np.next)) {
		c.schedule(np, np.next, false)
		return
	}
	if c.perfect && c.at(i) == "been" || !isProduct(np) {
		return
	}
	c.possess(np, neg, "")
}

// ruleAdopt: "we adopted a cat", "I rescued a puppy named Max", "I adopted
// a child".
func (c *cl) ruleAdopt() {
	if c.future || c.would || c.modal != "" || c.progressive {
		c.planFrom(c.i)
		return
	}
	if c.neg {
		return
	}
	c.petOrPeople(c.i+1, false)
}

// ruleGet: "I got married to Sam", "I got engaged", "I got a job at
// Globex", "we got a puppy", "I got a new laptop", "I got into pottery".
func (c *cl) ruleGet() {
	t := c.toks
	i := c.i + 1
	if c.future || c.would || c.modal != "" || c.neg {
		if (c.future || c.would) && !c.neg {
			c.planFrom(c.i)
		}
		return
	}
	if !c.past && !c.perfect {
		return // "I get tired" / "I get it"
	}
	switch c.at(i) {
	case "married", "engaged", "divorced", "separated":
		c.maritalStatus(c.at(i), i+1, false)
		return
	case "into":
		if np := takeNP(t, i+1); np.det == "" && !alt("trouble|accident|fight|argument|debt|college|school|university|program|shape|character", np.head()) {
			c.likeObjects(i+1, "LIKES", false, 0.7, "got into")
		}
		return
	case "laid", "fired", "let":
		c.dismissed(i)
		return
	case "hired":
		if alt("by|at", c.at(i+1)) {
			c.employer(takeNP(t, i+2), false, "hired")
			c.roleAfter(i + 2)
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
				c.employer(org, false, "got a job")
				j = org.next
			case c.at(j) == "as":
				r := takeNP(t, j+1)
				c.role(r, false)
				j = r.next
			case c.at(j) == "offer" || c.at(j) == "in":
				j = len(t)
			default:
				j = len(t)
			}
		}
		return
	}
	if c.petOrPeople(i, false) {
		return
	}
	c.possess(np, false, "got")
}

// ruleMarry: "I married Sam", "Sam and I got married" (via ruleGet).
func (c *cl) ruleMarry() {
	if c.neg || c.modal != "" {
		return
	}
	name, _ := nameOf(c.toks, c.i+1)
	if name == "" {
		return
	}
	k := c.e.x.b.named(name, ontology.Person, 2)
	c.e.x.people[k] = true
	if c.future || c.would || c.progressive {
		c.emit(fx{pred: "PLANS", obj: k, conf: 0.7, tmpl: "{S} plans to marry {O}{D}"})
		return
	}
	c.status("married", false)
	c.emit(fx{pred: "MARRIED_TO", obj: k, tmpl: "{S} is married to {O} (married{D})"})
}

// ruleDate: "I'm dating Alex", "I've been seeing Alex".
func (c *cl) ruleDate() {
	if c.future || c.modal != "" || !c.progressive && !c.perfect {
		return
	}
	name, _ := nameOf(c.toks, c.i+1)
	if name == "" {
		return
	}
	k := c.e.x.b.named(name, ontology.Person, 2)
	c.e.x.people[k] = true
	neg := c.neg || c.cessation
	c.emit(fx{pred: "PARTNER_OF", obj: k, neg: neg, tmpl: pick(neg, "{S} is dating {O}", "{S} is no longer dating {O}")})
}

// ruleBreak: "I broke up with Alex".
func (c *cl) ruleBreak() {
	if c.at(c.i+1) != "up" || c.neg || c.future || c.modal != "" {
		return
	}
	c.status("single", false)
	if c.at(c.i+2) == "with" {
		if name, _ := nameOf(c.toks, c.i+3); name != "" {
			k := c.e.x.b.named(name, ontology.Person, 2)
			c.emit(fx{pred: "PARTNER_OF", obj: k, neg: true, tmpl: "{S} broke up with {O}{D}"})
		}
	}
}

// ruleDivorce: "I divorced Sam".
func (c *cl) ruleDivorce() {
	if c.neg || c.future || c.modal != "" {
		return
	}
	c.status("divorced", false)
	if name, _ := nameOf(c.toks, c.i+1); name != "" {
		k := c.e.x.b.named(name, ontology.Person, 2)
		c.emit(fx{pred: "MARRIED_TO", obj: k, neg: true, tmpl: "{S} divorced {O}{D}"})
	}
}

// readAmount reads a sum of money at i: "2000 euros", "$2,000", "€3k",
// "3000 EUR", "about 500 dollars".
func readAmount(t []tok, i int) (string, int) {
	for i < len(t) && alt("about|around|roughly|approximately|up|to|only|just|now|still|max|maximum|under|over", t[i].w) {
		i++
	}
	if i >= len(t) {
		return "", i
	}
	if t[i].kind == nlp.Symbol && strings.ContainsAny(t[i].orig, "$€£¥₹") && i+1 < len(t) && t[i+1].kind == nlp.Number {
		s := t[i].orig + t[i+1].orig
		j := i + 2
		if j < len(t) && alt("k|thousand|million|grand", t[j].w) {
			s += " " + t[j].orig
			j++
		}
		return s, j
	}
	if t[i].kind == nlp.Number {
		s := t[i].orig
		j := i + 1
		if j < len(t) && alt("k|thousand|million|grand", t[j].w) {
			s += " " + t[j].orig
			j++
		}
		if j < len(t) && currencies[t[j].w] {
			return s + " " + t[j].orig, j + 1
		}
		if j < len(t) && t[j].kind == nlp.Symbol && strings.ContainsAny(t[j].orig, "$€£¥₹") {
			return s + t[j].orig, j + 1
		}
	}
	return "", i
}

var currencies = wordSet(`euro,euros,eur,dollar,dollars,usd,bucks,pound,pounds,gbp,quid,yen,jpy,franc,francs,
chf,rupee,rupees,inr,aud,cad,sek,nok,dkk,pln,yuan,rmb,won,pesos,peso,reais,real,krona,kronor,kroner`)
