package offline

import (
	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// possessionRules recognise the things people own, use and drive: own, buy,
// sell, use, keep, drive ("we bought a Tesla Model 3", "I sold the
// Corolla", "I don't use Windows anymore").
type possessionRules struct {
	plans *planRules // "I'll buy a bike" is a plan
}

// ruleDrive: "I drive a Toyota Corolla".
func (r *possessionRules) ruleDrive(c *clause) {
	if c.future || c.modal != "" || c.would || c.at(c.verbAt+1) == "to" {
		return
	}
	np := takeNP(c.toks, c.verbAt+1)
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
func (r *possessionRules) ruleOwn(c *clause) {
	if c.future || c.modal != "" || c.would {
		if c.future || c.would {
			r.plans.planTo(c, c.verb, c.verb, takeNP(c.toks, c.verbAt+1), ontology.Product)
		}
		return
	}
	np := takeNP(c.toks, c.verbAt+1)
	if (c.verb == "rent" || c.verb == "lease") && dwellingNouns[np.head()] {
		return // a rented flat is one's home (dwellingScan), not one's property
	}
	how := ""
	if c.verb == "buy" || c.verb == "purchase" {
		how = "bought"
		if c.neg {
			return
		}
	}
	r.possess(c, np, c.neg || c.usedTo, how)
}

// ruleInherit: "I inherited my granddad's Omega Seamaster", "we inherited
// Mum's piano": what was left to the speaker is the speaker's now (a
// product or a named thing, not "a sense of humour").
func (r *possessionRules) ruleInherit(c *clause) {
	if c.future || c.modal != "" || c.would || c.neg || !c.past && !c.perfect {
		return
	}
	i := c.verbAt + 1
	np := takeNP(c.toks, i)
	for j := i; j < np.next; j++ {
		if c.toks[j].w == "'s" { // the previous owner's: "my granddad's watch"
			np = takeNP(c.toks, j+1)
			break
		}
	}
	if !usableObject(np) || !isProduct(np) && !np.hasName {
		return
	}
	np.det = "a"
	r.possess(c, np, false, "inherited")
}

// treatedTo: "treated myself to a Fender Strat", "we treated ourselves to
// a new sofa": a thing bought for oneself (a product or a named thing, not
// "a massage").
func (r *possessionRules) treatedTo(c *clause) {
	if alt("myself|ourselves", c.at(c.verbAt+1)) && c.at(c.verbAt+2) == "to" {
		r.gotThing(c, c.verbAt+3, "bought")
	}
}

// upgradedTo: "I upgraded to an iPhone 15", "just upgraded to the Pixel
// 9": the newer thing is the speaker's now ("upgraded to first class"
// names no thing).
func (r *possessionRules) upgradedTo(c *clause) {
	if c.at(c.verbAt+1) == "to" {
		r.gotThing(c, c.verbAt+2, "got")
	}
}

// pickedUpThing: "Picked up a second-hand Brompton on eBay", "we picked up
// a cheap telly in the sales": a thing got, in the past, is the speaker's.
// A hobby picked up is hobbies.pickUp's; people and colds are no things.
func (r *possessionRules) pickedUpThing(c *clause) bool {
	if c.at(c.verbAt+1) != "up" {
		return false
	}
	if np := takeNP(c.toks, c.verbAt+2); !np.hasName && !alt("a|an|my|our|some|the", np.det) {
		return false
	}
	return r.gotThing(c, c.verbAt+2, "got")
}

// gotThing reads a thing the speaker got, in the past, from i (after
// "treated myself to", "upgraded to", "picked up"): a product or a named
// thing, never a person, a place or a class of travel. It reports whether
// it read one.
func (r *possessionRules) gotThing(c *clause, i int, how string) bool {
	if c.neg || c.future || c.modal != "" || c.would || !c.past && !c.perfect {
		return false
	}
	np := takeNP(c.toks, i)
	if !usableObject(np) || !isProduct(np) && !np.hasName {
		return false
	}
	if typ, ok := classify(np); ok && typ != ontology.Product {
		return false // "upgraded to first class", "picked up Sarah from the station"
	}
	r.possess(c, np, false, how)
	return true
}

// ruleSell: "I sold the Corolla".
func (r *possessionRules) ruleSell(c *clause) {
	if c.future || c.modal != "" || c.would || c.neg || !c.past && !c.perfect {
		return
	}
	np := takeNP(c.toks, c.verbAt+1)
	if usableObject(np) && (isProduct(np) || np.hasName) {
		r.parted(c, np, "sold")
	}
}

// ruleGiveAway: "I gave away my old piano", "we gave the Fiesta away".
// givenMe: "My brother gave me his old Pixel 8", "Mum gave me her car":
// what someone gave the speaker is the speaker's now (a product or a named
// thing: not "a lift", "some advice").
func (r *possessionRules) givenMe(c *clause) bool {
	i := c.verbAt + 1
	if c.at(i) != "me" || c.neg || c.future || c.modal != "" || c.would || !c.past && !c.perfect || c.said.speaker == "" {
		return false
	}
	np := takeNP(c.toks, i+1)
	if !usableObject(np) || !isProduct(np) && !np.hasName {
		return false
	}
	if alt("his|her|their|its", np.det) {
		np.det = "a" // the giver's old phone is now a phone of the speaker's
	}
	subj := c.subj
	c.subj = c.said.speaker
	r.possess(c, np, false, "got")
	c.subj = subj
	return true
}

func (r *possessionRules) ruleGiveAway(c *clause) bool {
	i := c.verbAt + 1
	if c.future || c.modal != "" || c.would || c.neg || !c.past && !c.perfect {
		return false
	}
	if c.at(i) == "away" {
		i++
	}
	np := takeNP(c.toks, i)
	if !usableObject(np) || !isProduct(np) && !np.hasName {
		return false
	}
	switch {
	case c.at(i-1) == "away" || c.at(np.next) == "away":
		r.parted(c, np, "gave away")
	case alt("my|our", np.det) && c.at(np.next) == "to" && isProduct(np):
		r.parted(c, np, "gave away") // "I gave my old car to my brother"
	default:
		return false
	}
	return true
}

// lostThing: "I lost my phone on the bus", "we've lost the car keys": a
// thing of the speaker's no longer had. A person or a pet lost is
// kin.ruleEnding's; "lost my temper" names no product.
func (r *possessionRules) lostThing(c *clause) bool {
	if c.neg || c.future || c.modal != "" || c.would || !c.past && !c.perfect || c.subj != c.said.speaker {
		return false
	}
	np := takeNP(c.toks, c.verbAt+1)
	if !alt("my|our", np.det) || !usableObject(np) || !isProduct(np) {
		return false
	}
	r.parted(c, np, "lost")
	return true
}

// parted ends what the speaker owned and, for a vehicle, drove: the facts
// close on the day said (valid_to) and stay in history ("sold the Corolla
// in May").
func (r *possessionRules) parted(c *clause, np nounPhrase, how string) {
	k, _ := c.object(np, ontology.Product, 2)
	if k == "" {
		return
	}
	art := ""
	if np.det == "the" || np.det == "my" || np.det == "our" {
		art = "{their}"
	}
	tmpl := "{S} " + how + " {aO}{D} (no longer owns it)"
	if how == "died" {
		tmpl = "{S's} {O} died{D} (no longer owned)" // "my old MacBook finally died"
	}
	c.emit(fx{pred: "OWNS", obj: k, art: art, ended: true, tmpl: tmpl, rank: 2})
	if isVehicle(np) {
		c.emit(fx{pred: "DRIVES", obj: k, art: art, ended: true, tmpl: "{S} no longer drives {aO} (" + how + "{D})", rank: 2})
	}
}

// ruleUse: "I use an iPhone", "I don't use Windows anymore".
func (r *possessionRules) ruleUse(c *clause) {
	if c.future || c.modal != "" || c.would || c.past && !c.usedTo && !c.perfect {
		return
	}
	np := takeNP(c.toks, c.verbAt+1)
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
func (r *possessionRules) ruleKeep(c *clause) {
	if c.neg || c.would || c.modal != "" {
		return
	}
	np := takeNP(c.toks, c.verbAt+1)
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

// isVehicle reports whether a phrase names a car or other vehicle.
func isVehicle(np nounPhrase) bool {
	if np.empty() {
		return false
	}
	// A make anywhere before the head: "a second-hand Nissan Leaf".
	for _, t := range np.toks {
		if vehicleMakes[t.w] {
			return true
		}
	}
	return vehicleNouns[np.head()]
}

// isProduct reports whether a phrase names a possession worth a fact.
func isProduct(np nounPhrase) bool {
	if np.empty() {
		return false
	}
	key := np.key()
	low := np.lower()
	head := np.head()
	if n := len(np.toks); n > 1 && np.toks[n-1].kind == nlp.Number {
		head = nlp.Singular(np.toks[n-2].w) // "an iPhone 13": the model's number follows the product
	}
	return isVehicle(np) || productBrands[key] || productBrands[np.toks[0].w] || productNouns[head] ||
		len(np.toks) > 1 && productNouns[lastTwo(low)] // "a sewing machine", "an air fryer"
}

// possess emits OWNS (and DRIVES for a vehicle). how is the verb of the
// sentence ("bought", "sold", "have").
func (r *possessionRules) possess(c *clause, np nounPhrase, neg bool, how string) {
	if !usableObject(np) || !isProduct(np) && !np.hasName {
		return
	}
	k, art := c.object(np, ontology.Product, 2)
	if k == "" {
		return
	}
	b := c.said.out
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
