package offline

import "github.com/graphmem/graphmem/ontology"

// switchRules recognise switches from one thing to another ("I switched
// from coffee to green tea", "I switched to Android", "I replaced my iPhone
// with a Pixel"): the end of one state and the start of the next, in the
// category of what was switched (a liking, a device used, a car driven, a
// language learnt, an employer, a home).
type switchRules struct{}

// ruleSwitch: "I switched from coffee to green tea", "I switched to
// Android", "I replaced my iPhone with a Pixel".
func (r *switchRules) ruleSwitch(c *clause) {
	if c.future || c.modal != "" || c.would || c.neg {
		return
	}
	t := c.toks
	i := c.verbAt + 1
	var from, to nounPhrase
	switch {
	case c.at(i) == "from":
		from = takeNP(t, i+1)
		if c.at(from.next) == "to" {
			to = takeNP(t, from.next+1)
		}
	case c.at(i) == "to" || c.at(i) == "over" && c.at(i+1) == "to":
		if c.at(i) == "over" {
			i++
		}
		to = takeNP(t, i+1)
		if c.at(to.next) == "from" {
			from = takeNP(t, to.next+1)
		}
	case c.verb == "replace" || c.verb == "trade" || c.verb == "swap" || c.verb == "exchange":
		from = takeNP(t, i)
		j := from.next
		if c.at(j) == "in" && c.at(j+1) == "for" {
			j++ // "traded the Kindle in for a Kobo"
		}
		if alt("with|for", c.at(j)) {
			to = takeNP(t, j+1)
		}
	default:
		return
	}
	if !usableObject(to) && !usableObject(from) {
		return
	}
	ref := to
	if !usableObject(ref) {
		ref = from
	}
	typ, known := classify(ref)
	if !known && usableObject(from) && ref.key() != from.key() {
		typ, _ = classify(from) // "traded the ThinkPad in for a MacBook": the old one's kind
	}
	pred := "LIKES"
	switch {
	case isVehicle(ref):
		pred = "DRIVES"
		typ = ""
	}
	switch typ {
	case ontology.Product:
		pred = "USES"
	case ontology.Language:
		pred = "LEARNING"
	case ontology.Organization:
		pred = "WORKS_AT"
	case ontology.Place:
		pred = "LIVES_IN"
	}
	if usableObject(to) {
		k, art := c.object(to, "", 0)
		tmpl := "{S} switched to {aO}{D}"
		if usableObject(from) {
			tmpl = "{S} switched from " + from.surface() + " to {aO}{D}"
		}
		c.emit(fx{pred: pred, obj: k, art: art, strength: 0.7, tmpl: tmpl, rank: 1})
	}
	if usableObject(from) {
		k, _ := c.object(from, "", 0)
		tmpl := "{S} no longer " + map[string]string{"LIKES": "likes", "USES": "uses", "LEARNING": "is learning",
			"WORKS_AT": "works at", "LIVES_IN": "lives in", "DRIVES": "drives"}[pred] + " {O}"
		if usableObject(to) {
			tmpl += " (switched to " + to.surface() + "{D})"
		}
		c.emit(fx{pred: pred, obj: k, neg: true, strength: 0.7, tmpl: tmpl, rank: 1})
	}
}
