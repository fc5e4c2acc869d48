package offline

import (
	"slices"
	"strings"

	"github.com/graphmem/graphmem/ontology"
)

// planRules recognise intentions: plans, wishes and goals ("I'm planning to
// go camping next month", "I want to learn Japanese", "my goal is to open a
// bakery"). They never assert the planned state itself.
type planRules struct{}

// rulePlan: "I'm planning to go camping next month", "I want to learn
// Japanese", "we're thinking about adopting", "I hope to visit Peru".
func (r *planRules) rulePlan(c *clause) {
	i := c.verbAt + 1
	if c.neg || c.past && !c.progressive && c.verb != "plan" {
		return
	}
	switch c.verb {
	case "think", "dream", "look":
		if c.verb == "look" && !(c.at(i) == "forward" && c.at(i+1) == "to") {
			return
		}
		if c.verb != "look" && !alt("about|of", c.at(i)) {
			return
		}
		if c.verb == "look" {
			i++
		}
		i++
	case "plan":
		if c.at(i) == "on" {
			i++
		}
	case "consider":
	default:
		if c.at(i) != "to" {
			return
		}
	}
	r.planFrom(c, c.verb, i-1)
}

// goalFrame: "my goal is to adopt", "my dream is to open a bakery".
func (r *planRules) goalFrame(c *clause) bool {
	owner, i := c.possessor(0)
	if owner == "" || owner != c.said.speaker || !goalNouns[c.at(i)] {
		return false
	}
	n, ok, neg, _ := c.copulaAt(i + 1)
	if !ok || neg || c.at(n) != "to" {
		return false
	}
	c.subj = owner
	intent := "aim"
	if c.at(i) == "plan" {
		intent = "plan"
	}
	r.planFrom(c, intent, n-1)
	return true
}

// planFrom reads a plan's verb phrase starting after index i ("to visit
// Japan", "going camping", "adopting a child") and emits PLANS (or
// HAS_GOAL for dreams and aims). intent is the verb of intention the
// sentence is phrased with (see planTo).
func (r *planRules) planFrom(c *clause, intent string, i int) {
	t := c.toks
	i++
	if c.at(i) == "to" {
		i++
	}
	w := c.at(i)
	lemma, f, ok := verbOf(w)
	if !ok && otherVerbs[w] && c.at(i-1) == "to" {
		lemma, f, ok = w, formBase, true // "to open a bakery"
	}
	if !ok {
		// "looking forward to the concert", "planning a trip"
		np := takeNP(t, i)
		if !usableObject(np) || !(occasionNouns[np.head()] || isPlaceLike(np)) {
			return
		}
		k, art := c.object(np, "", 0)
		if np.det == "the" {
			art = "the"
		}
		switch intent {
		case "plan":
			c.emit(fx{pred: "PLANS", obj: k, art: art, conf: 0.75, tmpl: "{S} is planning {aO}{D}"})
		case "look":
			c.emit(fx{pred: "PLANS", obj: k, art: art, conf: 0.75, tmpl: "{S} is looking forward to {aO}{D}"})
		default:
			r.planTo(c, intent, "go to", np, "")
		}
		return
	}
	if f == formIng && lemma == "go" || lemma == "go" {
		if g := c.at(i + 1); goVerbs[g] {
			r.planTo(c, intent, "go", c.gerundPhrase(g, i+2), ontology.Activity)
			return
		}
		if c.at(i+1) == "to" {
			r.planTo(c, intent, "go to", takeNP(t, i+2), "")
			return
		}
	}
	if lemma == "move" && alt("to|into", c.at(i+1)) {
		r.planTo(c, intent, "move to", takeNP(t, i+2), ontology.Place)
		return
	}
	j := i + 1
	for j < len(t) && alt("to|up|out|into|for|about|on|a|some", c.at(j)) && c.at(j) != "a" {
		j++
	}
	np := takeNP(t, j)
	verb := lemma
	if j > i+1 {
		verb += " " + words(t[i+1:j])
	}
	// The sentence keeps the whole verb phrase as said ("give kids a loving
	// home", "show their paintings"); the object names the entity.
	said := ""
	if usableObject(np) {
		if vp := vpPhrase(t, lemma, i+1); strings.Contains(vp, " ") {
			said = vp
		}
	}
	if f == formIng {
		// "thinking of working with trans people"
		if vagueVerbs[lemma] {
			return
		}
		k := i + 1
		for alt("to|in|at", c.at(k)) {
			k++
		}
		if np := takeNP(t, k); usableObject(np) && (np.hasName || isPlaceLike(np)) && !goVerbs[w] {
			// "thinking about visiting Japan": Japan is what the plan is about
			r.plan(c, intent, lemma, vpPhrase(t, lemma, i+1), np, "")
			return
		}
		r.planTo(c, intent, "", c.gerundPhrase(w, i+1), ontology.Activity)
		return
	}
	if vagueVerbs[lemma] {
		return
	}
	if !usableObject(np) {
		if !activityVerbs[lemma] && !goVerbs[gerund(lemma)] || np.next < len(t) && pronounObjects[c.at(j)] {
			return // "I'd love to support those ...": no object to name
		}
		np = nounPhrase{toks: []tok{{w: gerund(lemma), orig: gerund(lemma)}}, next: i + 1}
		r.planTo(c, intent, "", np, ontology.Activity)
		return
	}
	r.plan(c, intent, verb, said, np, "")
}

// planTo emits PLANS (or HAS_GOAL) for "<verb> <object>", phrased with the
// speaker's own verb of intention: "plans to visit Japan", "is thinking
// about going camping", "is looking forward to reading". intent is that
// verb's lemma ("plan", "want", "think", "dream", "aim", ...); any other
// verb ("move", "visit") phrases the plan as "is going to". An empty verb
// names the object as an activity to take up ("take up pottery").
// tripScan reads a trip named as the purpose of anything the speaker
// says: "I'm learning Italian for a trip to Rome next spring", "saving up
// for our holiday in Crete". What one does for a trip is done before it,
// so the trip is still to come, whatever the main clause says; a trip
// taken is an outing's ("we took a trip to Peru").
func (r *planRules) tripScan(c *clause) {
	if c.said.speaker == "" || c.hedge {
		return
	}
	t := c.toks
	for j := 0; j+4 < len(t); j++ {
		if t[j].w != "for" || !alt("a|my|our|the|this", t[j+1].w) || !tripNouns[t[j+2].w] || !alt("to|in", t[j+3].w) {
			continue
		}
		if np := takeNP(t, j+4); np.hasName {
			subj := c.subj
			c.subj = c.said.speaker
			r.planTo(c, "", "visit", np, ontology.Place)
			c.subj = subj
		}
		return
	}
}

func (r *planRules) planTo(c *clause, intent, verb string, np nounPhrase, typ ontology.EntityType) {
	r.plan(c, intent, verb, "", np, typ)
}

// plan is planTo with the verb phrase as the speaker said it ("" for
// none), which the sentence keeps whole ("plans to give kids a loving
// home").
func (r *planRules) plan(c *clause, intent, verb, said string, np nounPhrase, typ ontology.EntityType) {
	if !usableObject(np) {
		return
	}
	rank := 1
	if typ == "" {
		rank = 0
	}
	k, art := c.object(np, typ, rank)
	if k == "" {
		return
	}
	if np.det == "the" && !np.hasName {
		art = "the"
	}
	vp := verb + " {aO}"
	if said != "" {
		vp = said
	}
	if verb == "" {
		vp = "take up {O}"
		if goVerbs[firstWord(np.lower())] {
			vp = "go {O}"
		}
		if intent == "look" || intent == "think" || intent == "consider" || intent == "dream" {
			vp = "{O}"
		}
	}
	ing := vp
	if f := strings.Fields(vp); len(f) > 0 && !strings.HasPrefix(f[0], "{") {
		if lemma, _, ok := verbOf(f[0]); ok {
			f[0] = gerund(lemma)
		}
		ing = strings.Join(f, " ")
	}
	pred := "PLANS"
	conf := 0.75
	var tmpl string
	switch intent {
	case "dream", "aim":
		pred, tmpl = "HAS_GOAL", "{S's} goal is to "+vp
		if intent == "dream" {
			tmpl = "{S} dreams of " + ing
		}
	case "want", "hope", "like", "love":
		tmpl = "{S} wants to " + vp
		if intent == "hope" {
			tmpl = "{S} hopes to " + vp
		}
	case "think", "consider":
		tmpl, conf = "{S} is thinking about "+ing, 0.5
	case "look":
		tmpl = "{S} is looking forward to " + ing
	case "plan", "intend":
		tmpl = "{S} plans to " + vp
	case "go":
		tmpl = "{S} is going to " + vp
		if strings.HasPrefix(vp, "go to ") {
			tmpl = "{S} is going to " + strings.TrimPrefix(vp, "go to ")
		}
	default:
		tmpl = "{S} is going to " + vp
	}
	if c.hedge {
		conf = 0.45
	}
	c.emit(fx{pred: pred, obj: k, art: art, conf: conf, tmpl: tmpl + "{D}"})
}

// bookedTrip: "I've booked a week in Crete for August", "we booked flights
// to Lisbon", "we've booked a cottage in Cornwall for Easter": a trip to
// come, said by what was booked. What was booked must be a stay or a
// journey (tripNouns and bookedStays); "I booked a table at Nando's" is not.
func (r *planRules) bookedTrip(c *clause) bool {
	if c.neg || c.future || c.would || c.modal != "" || !(c.past || c.perfect) || c.said.speaker == "" {
		return false
	}
	np := takeNP(c.toks, c.verbAt+1)
	if np.empty() || !tripNouns[np.head()] && !bookedStays[np.head()] || np.hasName {
		return false
	}
	j := np.next
	if !alt("to|in", c.at(j)) {
		return false
	}
	place := takeNP(c.toks, j+1)
	if !place.hasName || !isPlaceLike(place) {
		return false
	}
	subj := c.subj
	c.subj = c.said.speaker
	r.planTo(c, "", "visit", place, ontology.Place)
	c.subj = subj
	return true
}

// ruleCancel: "we cancelled the Bali trip", "I called off our holiday in
// Crete" end a trip to come; "I cancelled Netflix", "cancelled my Spotify
// subscription" end a service used. What is cancelled must say which trip
// or which service: "I cancelled my plans" and "cancelled the meeting"
// name neither.
func (r *planRules) ruleCancel(c *clause) {
	if c.neg || c.future || c.would || c.modal != "" || !(c.past || c.perfect) || c.said.speaker == "" || c.subj != c.said.speaker {
		return
	}
	i := c.verbAt + 1
	if c.verb == "call" {
		if c.at(i) != "off" {
			return
		}
		i++
	}
	np := takeNP(c.toks, i)
	if np.empty() {
		return
	}
	if tripNouns[np.head()] {
		place := nounPhrase{}
		if alt("to|in", c.at(np.next)) {
			place = takeNP(c.toks, np.next+1) // "our holiday in Crete"
		} else {
			place = modifierOf(np) // "the Bali trip"
		}
		if place.hasName && isPlaceLike(place) {
			r.cancelTrip(c, place)
		}
		return
	}
	if c.verb != "cancel" {
		return
	}
	if np.hasName && knownPlace(np) {
		r.cancelTrip(c, np) // "we had to cancel Paris": a trip named by where it went
		return
	}
	service := np
	if subscriptionNouns[np.head()] {
		service = modifierOf(np) // "my Spotify subscription"
	}
	if !service.hasName || !usableObject(service) {
		return
	}
	if typ, ok := classify(service); ok && typ != ontology.Product && typ != ontology.Organization {
		return
	}
	k, _ := c.object(service, ontology.Product, 2)
	if k != "" {
		c.emit(fx{pred: "USES", obj: k, neg: true, conf: 0.75, tmpl: "{S} no longer uses {O} (cancelled{D})"})
	}
}

// cancelTrip ends the plan of a trip to place.
func (r *planRules) cancelTrip(c *clause, place nounPhrase) {
	if k, _ := c.object(place, ontology.Place, 2); k != "" {
		c.emit(fx{pred: "PLANS", obj: k, neg: true, conf: 0.75, tmpl: "{S} cancelled the trip to {O}{D}"})
	}
}

// modifierOf is the phrase before a phrase's head noun ("Bali" of "the Bali
// trip", "Spotify" of "my Spotify subscription"), a name when every word
// of it is capitalised; empty for a bare head.
func modifierOf(np nounPhrase) nounPhrase {
	if len(np.toks) < 2 {
		return nounPhrase{}
	}
	m := nounPhrase{toks: np.toks[:len(np.toks)-1], next: np.next}
	m.hasName = !slices.ContainsFunc(m.toks, func(t tok) bool { return !t.cap })
	return m
}

// subscriptionNouns follow the name of a service one pays for.
var subscriptionNouns = wordSet(`subscription,membership,account,plan,contract,sub`)
