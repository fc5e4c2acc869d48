package offline

import (
	"strings"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// outingRules recognise outings and events: places gone to, occasions
// attended, trips taken, things watched, classes signed up for ("I went to
// a support group yesterday", "we went camping last week", "I watched
// Inception").
type outingRules struct {
	health  *healthRules // "I went vegan last year" is a diet
	hobbies *hobbyRules  // "we went camping" is a hobby practised
	plans   *planRules   // "we're going to Rome next month" is a plan
	study   *studyRules  // "I'm taking Spanish lessons" is learning
}

// ruleGo: "I went to a support group yesterday", "we went camping last
// week", "I go to the gym every morning", "we're going to Rome next month".
func (r *outingRules) ruleGo(c *clause) {
	t := c.toks
	i := c.verbAt + 1
	if c.neg || c.modal != "" || c.would {
		return
	}
	if c.at(i) == "back" {
		i++
	}
	plan := c.future || c.progressive && (c.date == nil || c.date.Until.After(c.said.event.OccurredAt))
	// "I went vegan last year"
	if d := c.at(i); diets[d] && !plan && (c.past || c.perfect) {
		r.health.diet(c, d, false, false)
		return
	}
	// "go camping", "went swimming with the kids"
	if w := c.at(i); goVerbs[w] || strings.HasSuffix(w, "ing") && activities[w] {
		np, detail := goActivity(c.gerundPhrase(w, i+1))
		if plan {
			r.plans.planTo(c, c.verb, "go", np, ontology.Activity)
			return
		}
		r.hobbies.practiceOf(c, np, false, detail)
		return
	}
	if c.at(i) == "on" && alt("a|an", c.at(i+1)) {
		np := takeNP(t, i+1)
		if (tripNouns[np.head()] || np.head() == "journey") && alt("to|in", c.at(np.next)) {
			i = np.next
		} else if !np.empty() {
			r.event(c, np, plan, "went on")
			return
		}
	}
	if !alt("to|into", c.at(i)) {
		return
	}
	np := takeNP(t, i+1)
	if !usableObject(np) {
		return
	}
	if plan {
		if !occasionNouns[np.head()] && !isPlaceLike(np) && !placeNouns[np.head()] {
			return
		}
		r.plans.planTo(c, c.verb, "go to", np, "")
		return
	}
	r.event(c, np, false, "went to")
}

// ruleTake: "I took the kids to the museum", "I took up pottery", "I'm
// taking Spanish lessons", "we took a trip to Peru".
func (r *outingRules) ruleTake(c *clause) {
	t := c.toks
	i := c.verbAt + 1
	if c.neg || c.modal != "" || c.would || c.future {
		return
	}
	if c.at(i) == "up" {
		r.hobbies.practice(c, takeNP(t, i+1), false)
		return
	}
	np := takeNP(t, i)
	if np.empty() {
		return
	}
	if lessonNouns[np.toks[len(np.toks)-1].w] && len(np.toks) > 1 {
		subject := nounPhrase{toks: np.toks[:len(np.toks)-1], hasName: np.hasName}
		r.study.learning(c, subject)
		return
	}
	if tripNouns[np.head()] && alt("to|in", c.at(np.next)) {
		dest := takeNP(t, np.next+1)
		if isPlaceLike(dest) {
			k, _ := c.object(dest, ontology.Place, 2)
			c.emit(fx{pred: "VISITED", obj: k, tmpl: "{S} took a trip to {O}{D}"})
		}
		return
	}
	if c.at(np.next) == "to" && (c.past || c.perfect) {
		r.event(c, takeNP(t, np.next+1), false, "went to")
	}
}

// ruleAttend: "I attended a conference", "I attend Stanford".
func (r *outingRules) ruleAttend(c *clause) {
	if c.neg || c.modal != "" || c.would {
		return
	}
	np := takeNP(c.toks, c.verbAt+1)
	if !usableObject(np) {
		return
	}
	if np.hasName && schoolNouns[np.head()] || knownOrgs[np.key()] && !c.past {
		k, _ := c.object(np, ontology.Organization, 2)
		c.emit(fx{pred: "STUDIES_AT", obj: k, neg: c.past && !c.perfect, tmpl: pick(c.past && !c.perfect, "{S} studies at {O}", "{S} attended {O}")})
		return
	}
	if c.future || c.progressive && c.date != nil && c.date.Until.After(c.said.event.OccurredAt) {
		r.plans.planTo(c, c.verb, "attend", np, ontology.Occasion)
		return
	}
	k, art := c.object(np, ontology.Occasion, 2)
	c.emit(fx{pred: "ATTENDED", obj: k, art: art, tmpl: pick(c.past || c.perfect, "{S} attends {aO}{D}", "{S} attended {aO}{D}")})
}

// ruleWatch: "I watched Inception last night".
func (r *outingRules) ruleWatch(c *clause) {
	if c.neg || c.modal != "" || c.would || c.future || !c.past && !c.perfect && !c.progressive {
		return
	}
	np := takeNP(c.toks, c.verbAt+1)
	if !usableObject(np) || !np.hasName && !np.quoted && !showNouns[np.head()] {
		return
	}
	k, art := c.object(np, ontology.Artwork, 1)
	c.emit(fx{pred: "WATCHED", obj: k, art: art, tmpl: "{S} watched {aO}{D}"})
}

// ruleSign: "I signed up for a pottery class".
func (r *outingRules) ruleSign(c *clause) {
	if c.at(c.verbAt+1) != "up" || c.at(c.verbAt+2) != "for" || c.neg || c.modal != "" || c.would {
		return
	}
	np := takeNP(c.toks, c.verbAt+3)
	if k, art := c.object(np, ontology.Occasion, 1); k != "" {
		c.emit(fx{pred: "MEMBER_OF", obj: k, art: art, tmpl: "{S} signed up for {aO}{D}"})
	}
}

// event emits ATTENDED for an occasion or VISITED for a place.
func (r *outingRules) event(c *clause, np nounPhrase, plan bool, verb string) {
	head := np.head()
	present := !c.past && !c.perfect
	if present && verb == "went to" {
		verb = "goes to"
	}
	if verb == "went on" && present {
		verb = "goes on"
	}
	switch {
	case occasionNouns[head] || occasionNouns[np.lower()]:
		k, art := c.object(np, ontology.Occasion, 2)
		c.emit(fx{pred: "ATTENDED", obj: k, art: art, tmpl: "{S} " + verb + " {aO}{D}"})
	case isPlaceLike(np) || placeNouns[head]:
		k, art := c.object(np, ontology.Place, 2)
		if np.det == "the" && !np.hasName {
			art = "the"
		}
		c.emit(fx{pred: "VISITED", obj: k, art: art, tmpl: "{S} " + verb + " {aO}{D}"})
	}
}

// goActivity is the activity of "went camping with my family", "go hiking
// all day", "went skiing in the Alps": the gerund without what says where,
// when or with whom it was done, so that every mention of the pastime is
// one entity; the details are returned apart, for the fact's sentence
// ("with family", "in the alps"). What the gerund takes
// as its object stays ("went shopping for shoes").
func goActivity(np nounPhrase) (nounPhrase, string) {
	for k := 1; k < len(np.toks); k++ {
		w := np.toks[k].w
		var next tok
		if k+1 < len(np.toks) {
			next = np.toks[k+1]
		}
		if goAdjuncts[w] || w == "for" && (determiners[next.w] || next.kind == nlp.Number || numberWords[next.w] ||
			alt("hours|ages|days|weeks|months|years|a|while", next.w)) {
			detail := nounPhrase{toks: np.toks[k:]}
			np.toks = np.toks[:k]
			return np, detail.surface()
		}
	}
	return np, ""
}

// goAdjuncts open what follows an activity said with "go" without being
// part of it: company, place, time.
var goAdjuncts = wordSet(`with,in,at,on,near,around,by,along,all,during,over,across,through,to,from,every,last,this,
next,again,today,yesterday,tonight,together,alone,once,twice,lately,recently`)
