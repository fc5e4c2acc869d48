package offline

import "github.com/graphmem/graphmem/ontology"

// switchRules recognise switches from one thing to another ("I switched
// from coffee to green tea", "I switched to Android", "I replaced my iPhone
// with a Pixel"): the end of one state and the start of the next, in the
// category of what was switched (a liking, a device used, a car driven, a
// language learnt, an employer, a home).
type switchRules struct {
	places *placeRules
}

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
	case alt("replace|trade|swap|exchange|ditch|dump|drop", c.verb):
		if c.verb == "trade" && c.at(i) == "in" {
			i++ // "traded in the Corolla for a Niro"
		}
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
	if r.swappedHome(c, from, to) {
		return
	}
	if shiftTimes[from.head()] || shiftTimes[to.head()] {
		return // "I switched from nights to days at the hospital": a rota, not a taste
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
	case isVehicle(ref) || isVehicle(from):
		pred = "DRIVES"
		typ = ""
	case c.verb == "trade" && !known:
		pred = "OWNS" // what is traded in is a thing owned ("traded in the Golf for a Kona")
	}
	switch typ {
	case ontology.Product:
		pred = "USES"
	case ontology.Language:
		pred = "LEARNING"
	case ontology.Organization:
		pred = "WORKS_AT"
		if alt("ditch|dump|drop", c.verb) {
			pred = "USES" // one ditches a provider, not an employer ("dumped Sky for Netflix")
		}
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
			"WORKS_AT": "works at", "LIVES_IN": "lives in", "DRIVES": "drives", "OWNS": "owns"}[pred] + " {O}"
		if usableObject(to) {
			tmpl += " (switched to " + to.surface() + "{D})"
		}
		c.emit(fx{pred: pred, obj: k, neg: true, strength: 0.7, tmpl: tmpl, rank: 1})
	}
}

// droppedFor: "I dropped PyCharm for Neovim" is a switch; "I dropped my
// phone" is not, so without "for" after the object it reads nothing.
func (r *switchRules) droppedFor(c *clause) bool {
	if np := takeNP(c.toks, c.verbAt+1); !usableObject(np) || c.at(np.next) != "for" {
		return false
	}
	r.ruleSwitch(c)
	return true
}

// swappedHome reads a switch whose new side is a home somewhere: "we
// swapped the countryside for a flat in Lyon", "I traded Leeds for a
// cottage in Devon". It is a move to the place, not a liking of the flat;
// the old side is a former home only when it names a place. It reports
// whether it read the clause.
func (r *switchRules) swappedHome(c *clause, from, to nounPhrase) bool {
	if r.places == nil || !usableObject(to) || !dwellingNouns[to.head()] || c.at(to.next) != "in" {
		return false
	}
	place := takeNP(c.toks, to.next+1)
	if !isPlaceLike(place) || !place.hasName {
		return false
	}
	old := ""
	if usableObject(from) && isPlaceLike(from) && from.hasName {
		r.places.residence(c, from, true, false, "")
		old = from.surface()
	}
	r.places.residence(c, place, false, true, old)
	return true
}

// shiftTimes are the parts of the day or week a rota moves between.
var shiftTimes = wordSet(`day,days,night,nights,morning,mornings,evening,evenings,afternoon,afternoons,weekend,weekends,
weekday,weekdays,early,earlies,late,lates,shift,shifts,nightshift,dayshift`)
