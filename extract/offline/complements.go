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

// become reads "I became a nurse", "I became vegetarian" as "I am ...".
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

// be reads "I am ..." clauses (a form of "be", no main verb): first the
// complements that open with a word that says what follows ("from",
// "allergic", "married", "into"), then ages and fandom, then the single
// adjectives of the lexicon (diets, statuses, nationalities, conditions,
// identities), and last a role or identity introduced by an article.
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
		if !neg {
			r.places.origin(c, takeNP(t, i+1))
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
		r.couples.inRelationship(c, i+3, neg)
		return
	case w == "laid" && c.at(i+1) == "off", w == "fired", w == "let" && c.at(i+1) == "go", w == "made" && c.at(i+1) == "redundant":
		r.work.dismissed(c, i)
		return
	case (w == "hired" || w == "employed") && alt("by|at", c.at(i+1)):
		// "I was hired by Monzo" starts the job; "I was employed by" ended it.
		how := ""
		if w == "hired" {
			how = "hired"
		}
		r.work.employer(c, takeNP(t, i+2), neg || past && w == "employed", how)
		r.work.roleAfter(c, i+2)
		return
	case w == "allergic":
		if c.at(i+1) == "to" {
			r.health.allergicTo(c, i+2, neg)
		}
		return
	case w == "off" && !past && !neg && c.seq(i+1, "to", "go") && (goVerbs[c.at(i+3)] || activities[c.at(i+3)] && strings.HasSuffix(c.at(i+3), "ing")):
		// "I'm off to go swimming with the kids": the pastime, done now
		np, detail := goActivity(c.gerundPhrase(c.at(i+3), i+4))
		r.hobbies.practiceOf(c, np, false, detail)
		return
	case w == "off" && c.at(i+1) == "to" && !past && !neg:
		// "we're off to Iceland in March": a trip to come.
		if np := takeNP(t, i+2); np.hasName {
			r.plans.planTo(c, "", "visit", np, ontology.Place)
		}
		return
	case w == "at" && c.perfect && !neg && r.work.beenAt(c, i+1):
		// "I've been at Deloitte for six years now"
		return
	case w == "off" && !past && !neg && r.tastes.offFood(c, i+1):
		// "I'm off dairy on doctor's orders", "I've been off booze since January"
		return
	case w == "diagnosed" && c.at(i+1) == "with":
		if !neg {
			r.health.diagnosed(c, i+2)
		}
		return
	case (w == "lactose" || w == "gluten") && c.at(i+1) == "intolerant":
		r.health.intolerant(c, w, neg)
		return
	case w == "fluent" && c.at(i+1) == "in" && !neg:
		r.study.fluentIn(c, i+2)
		return
	case w == "into":
		r.tastes.likeObjects(c, i+1, "LIKES", neg, 0.75, "is into")
		return
	case w == "about" && c.at(i-1) == "all" && !neg && !past:
		r.tastes.likeObjects(c, i+1, "LIKES", false, 0.8, "is all about") // "these days I'm all about oat milk"
		return
	case w == "over" && r.tastes.overIt(c, i):
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
	case w == "a" && c.at(i+1) == "convert" && c.at(i+2) == "to", w == "a" && alt("new|total|complete", c.at(i+1)) && c.at(i+2) == "convert" && c.at(i+3) == "to":
		j := i + 3
		if c.at(i+1) != "convert" {
			j++
		}
		r.tastes.likeObjects(c, j, "LIKES", neg, 0.8, "is a convert to")
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
		r.work.memberOf(c, takeNP(t, j), neg || past)
		return
	case w == "to" && c.perfect:
		r.places.beenTo(c, takeNP(t, i+1), neg)
		return
	case w == "with" && !past && r.possessions.providerWith(c, i+1, neg):
		// "I'm with Vodafone on a two-year contract"
		return
	case !neg && !past && r.study.partway(c, i):
		// "I'm halfway through a nursing diploma", "in the first term of an art foundation course"
		return
	case w == "in" && alt("my|our", c.at(i+1)) && studyYears[c.at(i+2)] && !neg && !past:
		// "I'm in my second year of medicine at Bristol"
		r.study.yearOf(c, i)
		return
	case w == "in" && alt("a|the|our|my", c.at(i+1)) && !past && r.work.inGroup(c, i+1, neg):
		// "I'm in a book club that meets on Thursdays", "I'm in the choir"
		return
	case w == "in" && c.now && !past:
		r.places.nowIn(c, takeNP(t, i+1), neg)
		return
	case (w == "in" || w == "back" && c.at(i+1) == "in") && !past && !neg:
		j := i + 1
		if w == "back" {
			j++
		}
		// "we're back in Hobart for good", "I'm in Oslo permanently"
		if np := takeNP(t, j); c.settledIn(np) || w == "back" && np.hasName && c.said.speaker == c.subj {
			r.places.nowIn(c, np, false)
			return
		}
	case w == "on" && alt("a|the", c.at(i+1)):
		r.health.onDiet(c, takeNP(t, i+1), neg, past)
		return
	}
	// "I'm 34 weeks pregnant", "I'm six months sober": the span says how
	// long, the adjective what.
	if i+2 < len(t) && (t[i].kind == nlp.Number || numberWords[t[i].w]) && alt("weeks|months|days|years", c.at(i+1)) &&
		conditions[c.at(i+2)] != "" {
		r.health.condition(c, c.at(i+2), neg || past)
		return
	}
	// Ages: "I am 30", "I'm 30 years old".
	if r.identity.ageAt(c, i) {
		return
	}
	// Fans: "I'm a big fan of jazz", "I'm a Chelsea fan".
	if r.tastes.fandom(c, i, neg) {
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
			r.places.nationality(c, w)
		}
		return
	case conditions[two] != "" || conditions[w] != "" && j == i:
		adj := w
		if conditions[two] != "" {
			adj = two
		}
		r.health.condition(c, adj, neg || past)
		return
	case identityWords[w] && (j == i || j+1 >= len(t) || t[j+1].kind != nlp.Word):
		r.identity.identityWord(c, w, neg || past)
		if !neg && !past && alt("self-employed|retired|unemployed", w) {
			r.work.employmentStatus(c, w) // the employer slot's value now
		}
		return
	}
	// Roles and identities introduced by an article: "a nurse", "a data
	// analyst at Acme", "the CEO of Initech", "a transgender woman".
	if alt("a|an|the", c.at(i)) || (c.at(i) == "self-employed" || c.at(i) == "retired" || c.at(i) == "unemployed") {
		r.identity.roleOrIdentity(c, i, neg, past)
		if !neg && !past && alt("self-employed|retired|unemployed", c.at(i)) {
			r.work.employmentStatus(c, c.at(i)) // the employer slot's value now
		}
		return
	}
	if w == "between" && alt("jobs|roles|contracts", c.at(i+1)) && !neg && !past {
		r.work.employmentStatus(c, "unemployed") // "I'm between jobs right now"
		return
	}
	// A title without an article, which an employer after it shows to be
	// one: "I'm deputy head at Fernhill Junior".
	if !past && i < len(t) && t[i].kind == nlp.Word {
		r.identity.titleAt(c, takeNP(t, i), neg)
	}
}

// have reads what "have" introduces: pets and relatives, allergies,
// budgets, schedules, and possessions.
func (r *recognizers) have(c *clause) {
	t := c.toks
	i := c.verbAt + 1
	if c.at(i) == "to" && c.past && !c.neg && !c.future && !c.would && c.modal == "" {
		// "we had to put our cat down", "I had to sell my car": an
		// obligation met is the event itself.
		if lemma, _, ok := verbOf(c.at(i + 1)); ok && obligedEvents[lemma] {
			c.verbAt, c.verb = i+1, lemma
			r.dispatch(c)
		}
		return
	}
	if c.at(i) == "to" || c.future || c.would || c.modal != "" {
		return
	}
	if c.at(i) == "got" {
		i++
	}
	past := c.past && !c.perfect
	neg := c.neg || c.usedTo || past
	if past && !c.neg && !c.usedTo && r.kin.birth(c, i) {
		return
	}
	if r.kin.petOrPeople(c, i, neg) {
		return
	}
	np := takeNP(t, i)
	if np.empty() {
		return
	}
	// Conditions: "I've had asthma since I was a kid", "I have type 1
	// diabetes" (a condition had in the past is over: "I had gout").
	if cond := conditionPhrase(c, i); !cond.empty() {
		if !past && !c.neg {
			r.health.hasCondition(c, cond)
		}
		return
	}
	// Allergies: "a peanut allergy", "an allergy to cats".
	if np.head() == "allergy" {
		r.health.allergy(c, np, neg)
		return
	}
	// Budgets: "a budget of 2000 euros for the trip".
	if np.head() == "budget" && c.at(np.next) == "of" {
		r.budgets.budgetOf(c, np.next+1)
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

// get reads what "get" introduces, in the past only ("I get tired" says
// nothing lasting): a marital status ("I got married to Sam"), a taste ("I
// got into pottery"), a job gained or lost ("I got a job at Globex", "I got
// laid off"), a pet or relative ("we got a puppy"), a possession ("I got a
// new laptop").
func (r *recognizers) get(c *clause) {
	t := c.toks
	i := c.verbAt + 1
	if c.future || c.would || c.modal != "" || c.neg {
		if (c.future || c.would) && !c.neg {
			r.plans.planFrom(c, c.verb, c.verbAt)
		}
		return
	}
	if !c.past && !c.perfect {
		return // "I get tired" / "I get it"
	}
	if alt("myself|ourselves", c.at(i)) && c.at(i+1) != "" && !alt("into|married|engaged|hired|fired", c.at(i+1)) {
		i++ // "I got myself an e-bike": what was got follows
	}
	switch c.at(i) {
	case "married", "engaged", "divorced", "separated":
		r.couples.maritalStatus(c, c.at(i), i+1, false)
		return
	case "hitched":
		r.couples.maritalStatus(c, "married", i+1, false) // "Priya and I got hitched"
		return
	case "accepted":
		r.study.accepted(c, i+1) // "got accepted onto the MSc in Data Science at Edinburgh"
		return
	case "diagnosed":
		if c.at(i+1) == "with" {
			r.health.diagnosed(c, i+2) // "got diagnosed with coeliac disease"
		}
		return
	case "into":
		if np := takeNP(t, i+1); np.det == "" && !intoNotTastes[np.head()] {
			r.tastes.likeObjects(c, i+1, "LIKES", false, 0.7, "got into")
		}
		return
	case "rid":
		// "we got rid of the telly", "I've got rid of my car": a thing of
		// the speaker's given up
		if np := takeNP(t, i+2); c.at(i+1) == "of" && alt("my|our|the", np.det) && usableObject(np) && isProduct(np) {
			r.possessions.parted(c, np, "got rid of")
		}
		return
	case "made":
		if c.at(i+1) == "redundant" {
			r.work.dismissed(c, i+2) // "got made redundant"
			return
		}
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
	if alt("raise|rise|payrise|pay-rise", np.head()) && c.at(np.next) == "to" && c.subj == c.said.speaker {
		// "Got a pay rise to 48k": the pay it came to
		if amt := budgetAmount(t, np.next+1); amt != "" {
			r.measures.emitMeasure(c, c.subj, "salary", amt)
		}
		return
	}
	if gainedJobNouns[np.head()] {
		r.work.titledJob(c, np)
		r.work.gotJob(c, np.next)
		return
	}
	if r.kin.petOrPeople(c, i, false) {
		return
	}
	r.possessions.possess(c, np, false, "got")
}

// admittedInto: "My son got into Edinburgh to study medicine", "I got into
// Oxford!": a place at a university (a known place or a school's name, or
// said with "to study"), not a taste as "got into jazz" is; "we got into
// Paris at midnight" is an arrival. It reports whether it read the clause.
func (r *recognizers) admittedInto(c *clause) bool {
	i := c.verbAt + 1
	if c.at(i) != "into" || c.neg || c.future || c.would || c.modal != "" || !c.past && !c.perfect {
		return false
	}
	t := c.toks
	np := takeNP(t, i+1)
	// A town alone is a university only when nothing follows it: "we got
	// into Paris at midnight" arrived.
	alone := np.next >= len(t) || t[np.next].kind != nlp.Word
	if np.hasName && knownPlace(np) && !alone && !c.seq(np.next, "to", "study") {
		// an arrival, no taste: "we got into Paris at midnight"
		if k, art := c.object(np, ontology.Place, 2); k != "" {
			c.emit(fx{pred: "VISITED", obj: k, art: art, tmpl: "{S} arrived in {O}{D}"})
		}
		return true
	}
	if !np.hasName || !(knownPlace(np) && alone || schoolName(np) || c.seq(np.next, "to", "study")) {
		return false
	}
	r.study.studyAt(c, np, false)
	if c.seq(np.next, "to", "study") {
		if field := takeNP(t, np.next+2); usableObject(field) && !field.hasName {
			if k, _ := c.object(field, ontology.Concept, 1); k != "" {
				c.emit(fx{pred: "STUDIES", obj: k, tmpl: "{S} got in to study {O}"})
			}
		}
	}
	return true
}
