package offline

import (
	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// placeRules recognise where people live, where they come from, and where
// they moved and travelled ("I moved to Berlin last month", "I grew up in
// Lyon", "we visited Japan", "Home is Melbourne these days").
type placeRules struct {
	plans     *planRules     // a move or trip still to come is a plan
	schedules *scheduleRules // "we moved the team meeting to Thursdays" is a schedule
	switches  *switchRules   // "I moved from Spotify to Apple Music" is a switch
}

// ruleLive: "I live in Paris", "we're living in Oslo", "I used to live in
// Rome", "I don't live in London anymore".
func (r *placeRules) ruleLive(c *clause) {
	i := c.verbAt + 1
	if c.at(i) == "with" {
		// "I live with my parents in Seoul"
		np := takeNP(c.toks, i+1)
		i = np.next
	}
	if alt("on|at", c.at(i)) {
		// "My uncle lives on a farm in Kerry", "we live at the end of a
		// lane near Hay": the home, then the town it is in
		if np := takeNP(c.toks, i+1); !np.empty() && !np.hasName && alt("a|an|the", np.det) && c.at(np.next) == "in" {
			i = np.next
		}
	}
	if !alt("in|at|near|outside", c.at(i)) {
		return
	}
	if c.at(i) != "in" {
		return
	}
	np := takeNP(c.toks, i+1)
	if dwellingNouns[np.head()] && !np.hasName && alt("in|on|near|outside", c.at(np.next)) {
		// "We live in a small flat in Glasgow": the place is the town the
		// dwelling is in, not the dwelling
		if town := takeNP(c.toks, np.next+1); town.hasName {
			np = town
		}
	}
	if c.future || c.would {
		r.plans.planTo(c, c.verb, "live in", np, ontology.Place)
		return
	}
	if c.verb == "stay" && boundedSpan(c.toks, np.next) {
		// "I'm staying at a friend's place in Oslo for two weeks": a
		// visit, not a home
		if isPlaceLike(np) && !c.neg {
			if k, _ := c.object(np, ontology.Place, 2); k != "" {
				c.emit(fx{pred: "VISITED", obj: k, tmpl: pick(c.past && !c.perfect, "{S} is staying in {O}{D}", "{S} stayed in {O}{D}")})
			}
		}
		return
	}
	r.residence(c, np, c.neg, false, "")
}

// boundedSpan reports whether the words from i say how long something
// lasts, which makes a stay a visit: "for two weeks", "for a few days",
// "until the 20th", "over the summer", "this week". "For good", "for now"
// and spans of years ("staying with my partner in Leeds for three years")
// bound nothing a visit would.
func boundedSpan(t []tok, i int) bool {
	for j := i; j < len(t); j++ {
		switch t[j].w {
		case "until", "till", "til":
			// a near time ("until the 20th", "until Friday"), not a life
			// event ("until we retire")
			k := j + 1
			if k < len(t) && alt("the|next|this", t[k].w) {
				k++
			}
			if k < len(t) && (t[k].kind == nlp.Number || t[k].w == dateTok || alt("end|weekend|christmas|easter|tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december", t[k].w)) {
				return true
			}
		case "for", "over", "this", "next":
			k := j + 1
			for k < len(t) && k <= j+3 && (alt("a|an|the|few|couple|of|another|next|whole|entire", t[k].w) || numberWords[t[k].w] || t[k].kind == nlp.Number) {
				k++
			}
			if k < len(t) && alt("day|days|night|nights|week|weeks|weekend|weekends|fortnight|month|months|summer|holidays", t[k].w) {
				return true
			}
		}
	}
	return false
}

// ruleMove: "I moved to Berlin last month", "we relocated to Madrid", "I'm
// moving to Oslo next month" (a plan), "I moved from Sweden to Berlin",
// "we moved the team meeting to Thursdays" (a schedule).
func (r *placeRules) ruleMove(c *clause) {
	t := c.toks
	i := c.verbAt + 1
	if c.at(i) == "back" || c.at(i) == "here" || c.at(i) == "away" {
		i++
	}
	// A schedule: "moved the team meeting to Thursdays".
	if np := takeNP(t, i); !np.empty() && isOccasion(np) && c.at(np.next) == "to" {
		r.schedules.schedule(c, np, np.next+1, true)
		return
	}
	from := ""
	if c.at(i) == "from" {
		src := takeNP(t, i+1)
		if isPlaceLike(src) {
			from = src.surface()
			i = src.next
			if c.at(i) != "to" && !c.future {
				k, _ := c.object(src, ontology.Place, 2)
				c.emit(fx{pred: "LIVES_IN", obj: k, neg: true, conf: 0.7, tmpl: "{S} moved away from {O}{D}"})
				return
			}
		} else {
			// "I've moved from Spotify to Apple Music" is a switch
			if c.at(src.next) == "to" && usableObject(src) && r.switches != nil {
				r.switches.ruleSwitch(c)
			}
			return
		}
	}
	if c.seq(i, "over", "to") {
		// "moved over to Apple Music": a switch of service, unless the
		// name is a place ("moved over to Dublin").
		if np := takeNP(t, i+2); usableObject(np) && np.hasName && !isPlaceLike(np) && r.switches != nil {
			r.switches.ruleSwitch(c)
			return
		}
		i++
	}
	if c.seq(i, "in", "with") {
		// "moved back in with my parents in Swindon": whom with, then where
		who := takeNP(t, i+2)
		if !who.empty() && c.at(who.next) == "in" {
			if place := takeNP(t, who.next+1); place.hasName && isPlaceLike(place) {
				r.residence(c, place, false, true, "")
			}
		}
		return
	}
	if c.at(i) != "to" && c.at(i) != "into" && c.at(i) != "in" {
		return
	}
	np := takeNP(t, i+1)
	futureDate := c.date != nil && c.date.Time.After(c.said.event.OccurredAt) && !c.said.event.OccurredAt.IsZero()
	if c.future || c.would || (c.progressive && (futureDate || c.date == nil)) || c.modal != "" {
		r.plans.planTo(c, c.verb, "move to", np, ontology.Place)
		return
	}
	if c.neg {
		return
	}
	if from != "" {
		src := c.said.out.named(from, ontology.Place, 2)
		c.emit(fx{pred: "LIVES_IN", obj: src, neg: true, conf: 0.7, tmpl: "{S} no longer lives in {O} (moved away{D})"})
	}
	r.residence(c, np, false, true, from)
}

// ruleSettle: "we settled in Lisbon".
func (r *placeRules) ruleSettle(c *clause) {
	if c.at(c.verbAt+1) == "in" || c.at(c.verbAt+1) == "down" && c.at(c.verbAt+2) == "in" {
		j := c.verbAt + 2
		if c.at(c.verbAt+1) == "down" {
			j++
		}
		r.residence(c, takeNP(c.toks, j), c.neg, true, "")
	}
}

// ruleCome: "I come from Sweden", "I'm originally from", "I hail from".
func (r *placeRules) ruleCome(c *clause) {
	i := c.verbAt + 1
	if c.at(i) == "originally" {
		i++
	}
	if c.at(i) != "from" || c.neg || c.future {
		return
	}
	r.origin(c, takeNP(c.toks, i+1))
}

// ruleGrow: "I grew up in Lyon".
func (r *placeRules) ruleGrow(c *clause) {
	if c.at(c.verbAt+1) == "up" && c.at(c.verbAt+2) == "in" && !c.neg {
		np := takeNP(c.toks, c.verbAt+3)
		if isPlaceLike(np) {
			k, _ := c.object(np, ontology.Place, 2)
			c.emit(fx{pred: "FROM", obj: k, tmpl: "{S} grew up in {O}", noDate: true})
		}
	}
}

// ruleVisit: "I visited Japan last year", "we travelled to Peru", "I flew
// to Rome", "I'm visiting Lisbon next week" (a plan).
func (r *placeRules) ruleVisit(c *clause) {
	t := c.toks
	i := c.verbAt + 1
	if alt("to|around|through|across", c.at(i)) {
		i++
	}
	np := takeNP(t, i)
	if !usableObject(np) || c.neg {
		return
	}
	if !isPlaceLike(np) && !placeNouns[np.head()] {
		if c.verb == "visit" && np.hasName {
			// Visiting a person: "I visited Emma".
			k, _ := c.object(np, ontology.Person, 1)
			if k != "" && !c.future {
				c.emit(fx{pred: "KNOWS", obj: k, conf: 0.7, tmpl: "{S} visited {O}{D}"})
			}
		}
		return
	}
	if c.future || c.would || c.progressive && (c.date == nil || c.date.Time.After(c.said.event.OccurredAt)) {
		r.plans.planTo(c, c.verb, "visit", np, ontology.Place)
		return
	}
	k, art := c.object(np, ontology.Place, 2)
	if np.det == "the" && !np.hasName {
		art = "the"
	}
	verb := "visited"
	if c.verb == "travel" || c.verb == "fly" {
		verb = map[string]string{"travel": "travelled to", "fly": "flew to"}[c.verb]
	}
	tmpl := "{S} " + verb + " {aO}{D}"
	if !c.past && !c.perfect {
		tmpl = "{S} visits {aO}{D}"
	}
	c.emit(fx{pred: "VISITED", obj: k, art: art, tmpl: tmpl})
}

// homeFrame: "Home is Melbourne these days", "Lisbon is home now", "I call
// Oslo home".
func (r *placeRules) homeFrame(c *clause) bool {
	t := c.toks
	var np nounPhrase
	switch {
	case c.at(0) == "home" || c.at(0) == "my" && c.at(1) == "home":
		j := 1
		if c.at(0) == "my" {
			j = 2
		}
		n, ok, neg, _ := c.copulaAt(j)
		if !ok || neg {
			return false
		}
		np = takeNP(t, n)
	case c.at(0) == "i" && c.at(1) == "call":
		np = takeNP(t, 2)
		if c.at(np.next) != "home" {
			return false
		}
	default:
		np = takeNP(t, 0)
		n, ok, neg, _ := c.copulaAt(np.next)
		if np.empty() || !ok || neg || c.at(n) != "home" || c.at(n+1) == "to" {
			return false
		}
	}
	if !isPlaceLike(np) || !np.hasName && !places[np.key()] {
		return false
	}
	c.subj = c.said.speaker
	r.residence(c, np, false, false, "")
	return true
}

// residence emits LIVES_IN for a place phrase. moved marks a move (the
// sentence says so); from names the previous place when the speaker gave it.
func (r *placeRules) residence(c *clause, np nounPhrase, neg, moved bool, from string) {
	if !isPlaceLike(np) {
		return
	}
	k, _ := c.object(np, ontology.Place, 2)
	if k == "" {
		return
	}
	past := c.past && !c.perfect && !moved && !c.now
	tmpl := "{S} lives in {O}"
	switch {
	case c.usedTo || past && !neg:
		tmpl = "{S} used to live in {O}"
		neg = true
	case neg:
		tmpl = "{S} no longer lives in {O}"
	case moved && c.date != nil:
		tmpl = "{S} lives in {O} (moved there{D})"
	case moved && from != "":
		tmpl = "{S} lives in {O} (moved from " + from + ")"
	case moved:
		tmpl = "{S} lives in {O} (moved there)"
	case c.now:
		tmpl = "{S} now lives in {O}"
	}
	conf := 0.9
	if past {
		conf = 0.7
	}
	c.emit(fx{pred: "LIVES_IN", obj: k, neg: neg, conf: conf, tmpl: tmpl, rank: 1})
}

// origin emits FROM for "I'm (originally) from Sweden", "I come from Oslo".
func (r *placeRules) origin(c *clause, np nounPhrase) {
	if isPlaceLike(np) {
		k, _ := c.object(np, ontology.Place, 2)
		c.emit(fx{pred: "FROM", obj: k, tmpl: "{S} is from {O}", noDate: true})
	}
}

// nationality: "I'm Swedish" is FROM Sweden.
func (r *placeRules) nationality(c *clause, demonym string) {
	k := c.said.out.named(nationalities[demonym], ontology.Place, 2)
	c.emit(fx{pred: "FROM", obj: k, conf: 0.8, tmpl: "{S} is " + capitalize(demonym) + " (from {O})", noDate: true})
}

// beenTo: "I've been to Japan", "I've never been to Peru".
func (r *placeRules) beenTo(c *clause, np nounPhrase, neg bool) {
	if isPlaceLike(np) {
		k, _ := c.object(np, ontology.Place, 2)
		c.emit(fx{pred: "VISITED", obj: k, neg: neg, tmpl: pick(neg, "{S} has been to {O}", "{S} has never been to {O}")})
	}
}

// nowIn: "I'm in Lisbon now" is where the speaker lives.
func (r *placeRules) nowIn(c *clause, np nounPhrase, neg bool) {
	if isPlaceLike(np) && np.hasName {
		r.residence(c, np, neg, false, "")
	}
}

// rentIn: "renting in Hove for now", "we rent in Leith": the town one rents
// in is one's home, as "live in" says. "We're renting a flat in Leith" is
// dwellingScan's; "I rent out my flat" names no home of the speaker's.
func (r *placeRules) rentIn(c *clause) bool {
	if c.neg || c.future || c.would || c.modal != "" || c.past && !c.perfect || c.at(c.verbAt+1) != "in" {
		return false
	}
	np := takeNP(c.toks, c.verbAt+2)
	if !np.hasName || !isPlaceLike(np) {
		return false
	}
	r.residence(c, np, false, false, "")
	return true
}
