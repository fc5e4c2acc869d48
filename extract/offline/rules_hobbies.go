package offline

import (
	"slices"
	"strings"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// hobbyRules recognise the hobbies and habits people take up, keep and give
// up, and the things they make ("I started running", "I play the violin",
// "I gave up on running", "I painted that lake sunrise last year").
type hobbyRules struct {
	plans *planRules  // "I'll start running" is a plan
	study *studyRules // "I started learning Japanese" is learning
	work  *workRules  // "I started working at Globex" is a job
}

// ruleStart: "I started running", "I started working at Globex", "I began
// learning Japanese", "I started a blog".
func (r *hobbyRules) ruleStart(c *clause) {
	t := c.toks
	i := c.verbAt + 1
	if c.neg || c.modal != "" && !c.hedge || c.would {
		return
	}
	if c.future || c.hedge && c.modal != "" {
		r.plans.planFrom(c, "plan", c.verbAt)
		return
	}
	w := c.at(i)
	if w == "to" {
		if lemma, _, ok := verbOf(c.at(i + 1)); ok {
			w, i = gerund(lemma), i+1
		}
	}
	lemma, f, isVerb := verbOf(w)
	switch {
	case isVerb && f == formIng && lemma == "work" && alt("at|for", c.at(i+1)):
		r.work.employer(c, takeNP(t, i+2), false, "started")
		r.work.roleAfter(c, i+2)
	case professionGerunds[w] != "" && strings.HasSuffix(w, "ing"):
		// "I started lecturing in pharmacology at Nottingham Trent",
		// "started nursing last year": a profession taken up, at the
		// employer that follows ("I started law at Leeds" is a degree).
		j := i + 1
		if c.at(j) == "in" {
			j = takeNP(t, j+1).next
		}
		switch {
		case alt("at|for", c.at(j)):
			r.work.emitTrade(c, professionGerunds[w])
			r.work.employer(c, takeNP(t, j+1), false, "started")
		case j >= len(t) || c.at(j) == dateTok:
			r.work.emitTrade(c, professionGerunds[w])
		}
	case isVerb && f == formIng && lemma == "learn":
		items, _ := takeList(t, i+1)
		for _, np := range items {
			r.study.learning(c, np)
		}
	case isVerb && f == formIng && (activities[w] || goVerbs[w] || activityVerbs[lemma] || lemma == "play" || lemma == "volunteer"):
		r.practice(c, c.gerundPhrase(w, i+1), false)
	case alt("a|my", w) && alt("job|position|role", takeNP(t, i).head()) || w == "at":
		j := i
		for j < len(t) && c.at(j) != "at" {
			j++
		}
		if j < len(t) {
			org := takeNP(t, j+1)
			r.work.employer(c, org, false, "started")
			r.work.roleAfter(c, org.next)
		}
	default:
		np := takeNP(t, i)
		if !usableObject(np) {
			return
		}
		if typ, known := classify(np); typ == ontology.Activity && (known && activities[np.key()] || np.next >= len(t) || c.at(np.next) == dateTok) {
			r.practice(c, np, false)
		} else if startedCreations[np.head()] {
			k, art := c.object(np, ontology.Concept, 1)
			c.emit(fx{pred: "CREATED", obj: k, art: art, tmpl: "{S} started {aO}{D}"})
		}
	}
}

// ruleStop: "I stopped running", "I stopped eating meat".
func (r *hobbyRules) ruleStop(c *clause) {
	if c.neg || c.future || c.modal != "" || c.would {
		return
	}
	w := c.at(c.verbAt + 1)
	if _, f, ok := verbOf(w); ok && f == formIng {
		r.stopActivity(c, c.gerundPhrase(w, c.verbAt+2))
	}
}

// ruleGive: "I gave up Spanish", "I've given up coffee", "I gave up on
// running".
func (r *hobbyRules) ruleGive(c *clause) {
	i := c.verbAt + 1
	if c.at(i) != "up" || c.neg || c.future || c.modal != "" || c.would {
		return
	}
	i++
	if c.at(i) == "on" {
		i++
	}
	w := c.at(i)
	if _, f, ok := verbOf(w); ok && f == formIng {
		r.stopActivity(c, c.gerundPhrase(w, i+1))
		return
	}
	r.givenUp(c, takeNP(c.toks, i), "gave up")
}

// givenUp emits the end of what np names: a language no longer learnt, a
// food or drink no longer taken, an activity no longer done.
func (r *hobbyRules) givenUp(c *clause, np nounPhrase, phrase string) bool {
	np = trimTrailingAdverbs(np)
	if !usableObject(np) {
		return false
	}
	if len(np.toks) == 1 && alt("alcohol|booze|drink|drinking|cigarettes|smoking|fags|vaping", np.toks[0].w) {
		// "gave up alcohol", "quit cigarettes": the habit, as "gave up
		// drinking" and "quit smoking" name it
		habit := map[string]string{"alcohol": "drinking", "booze": "drinking", "drink": "drinking", "drinking": "drinking",
			"cigarettes": "smoking", "smoking": "smoking", "fags": "smoking", "vaping": "vaping"}[np.toks[0].w]
		r.stopActivity(c, nounPhrase{toks: []tok{{w: habit, orig: habit, kind: nlp.Word}}})
		return true
	}
	typ, _ := classify(np)
	switch {
	case languages[np.key()] || typ == ontology.Language:
		k, _ := c.object(np, ontology.Language, 2)
		c.emit(fx{pred: "LEARNING", obj: k, neg: true, tmpl: "{S} " + phrase + " {O}{D}"})
	case typ == ontology.Food:
		k, _ := c.object(np, ontology.Food, 2)
		c.emit(fx{pred: "LIKES", obj: k, neg: true, strength: 0.6, tmpl: "{S} " + phrase + " {O}{D}"})
	case typ == ontology.Activity:
		k, _ := c.object(np, ontology.Activity, 2)
		c.emit(fx{pred: "PRACTICES", obj: k, neg: true, tmpl: "{S} " + phrase + " {O}{D}"})
	default:
		return false
	}
	return true
}

// quitTaking: "I quit caffeine in March", "quit dairy last month": a food
// or drink given up (a job or a course quit is ruleLeave's and leftStudy's).
func (r *hobbyRules) quitTaking(c *clause) bool {
	if c.neg || c.future || c.modal != "" || c.would || !c.past && !c.perfect {
		return false
	}
	np := takeNP(c.toks, c.verbAt+1)
	if np.hasName || isOrgLike(np) {
		return false // "quit Deloitte": a job, ruleLeave's
	}
	return r.givenUp(c, np, "quit")
}

// cutOut: "I've cut out espresso completely", "I cut out sugar in
// January": a food, drink or habit given up.
func (r *hobbyRules) cutOut(c *clause) bool {
	if c.neg || c.future || c.modal != "" || c.would || c.at(c.verbAt+1) != "out" {
		return false
	}
	return r.givenUp(c, takeNP(c.toks, c.verbAt+2), "cut out")
}

// ruleActivity: hobby verbs. Present tense is a habit ("I paint", "I run
// every morning"); past tense with an object is a creation ("I painted
// that lake sunrise last year") or a race ("I ran a charity race").
func (r *hobbyRules) ruleActivity(c *clause) {
	t := c.toks
	if c.neg && !c.cessation && !c.usedTo || c.modal != "" || c.would {
		return
	}
	if c.future {
		r.plans.planFrom(c, c.verb, c.verbAt)
		return
	}
	i := c.verbAt + 1
	if notHobbyParticles[c.at(i)] {
		return // "I ran into a group", "we ran out of time"
	}
	if c.verb == "write" && slices.ContainsFunc(t[i:min(i+4, len(t))], func(x tok) bool { return workWritings[x.w] }) {
		return // "I write all my Python in PyCharm", "I write emails all day": work, not the pastime of writing
	}
	np := takeNP(t, i)
	hasObj := usableObject(np) && !(np.det == "" && !np.hasName && len(np.toks) == 1 && notHobbyObjects[np.toks[0].w])
	if !hasObj && creations[c.verb] && (np.det == "this" || np.det == "that" || np.det == "these" || np.det == "those") &&
		!np.empty() && !pronounObjects[np.toks[0].w] {
		hasObj = true // "I painted that lake sunrise": the thing shown is the creation
		np.det = "the"
	}
	if !hasObj && !activityVerbs[c.verb] {
		return // "I made it": nothing to name
	}
	if c.past && !c.perfect && !c.usedTo && hasObj {
		switch {
		case creations[c.verb] && abstractObjects[np.head()]:
		case creations[c.verb]:
			k, art := c.object(np, ontology.Artwork, 1)
			if k == "" {
				k, art = c.said.out.named(np.surface(), ontology.Artwork, 1), "the"
			}
			if np.det == "the" || np.det == "that" || np.det == "this" {
				art = "a" // rendered "an" before a vowel (builder.render)
			}
			c.emit(fx{pred: "CREATED", obj: k, art: art, tmpl: "{S} " + pastOf(c.verb) + " {aO}{D}"})
		case c.verb == "run" && raceNouns[np.head()]:
			k, art := c.object(np, ontology.Occasion, 2)
			c.emit(fx{pred: "ATTENDED", obj: k, art: art, tmpl: "{S} ran {aO}{D}"})
		case c.verb == "read" || c.verb == "reread":
			k, art := c.object(np, ontology.Artwork, 1)
			c.emit(fx{pred: "READ", obj: k, art: art, tmpl: "{S} read {aO}{D}"})
		}
		return
	}
	if c.verb == "reread" && hasObj && !c.future {
		// "I reread Middlemarch every winter": read before, and again
		k, art := c.object(np, ontology.Artwork, 1)
		c.emit(fx{pred: "READ", obj: k, art: art, tmpl: "{S} rereads {aO}"})
		return
	}
	if c.verb == "read" && hasObj && (c.progressive || np.quoted) {
		k, art := c.object(np, ontology.Artwork, 1)
		c.emit(fx{pred: "READ", obj: k, art: art, tmpl: pick(c.progressive, "{S} read {aO}{D}", "{S} is reading {aO}")})
		return
	}
	namesCraft := alt("cook|bake|write|paint|draw|knit", c.verb) // "I knit jumpers": the craft, with what it makes
	if hasObj && creations[c.verb] && !np.hasName && !namesCraft {
		return
	}
	activity := nounPhrase{toks: []tok{{w: gerund(c.verb), orig: gerund(c.verb)}}}
	if hasObj && namesCraft && !np.hasName && len(np.toks) <= 2 && np.det == "" {
		activity = c.gerundPhrase(gerund(c.verb), i)
	}
	neg := c.neg || c.usedTo
	r.practice(c, activity, neg)
}

// ruleCollect: "I collect vintage fountain pens", "I've been collecting
// vinyl since uni": a collection is a hobby, named with what is collected.
// A one-off ("I collected the kids", "collected my parcel") names a
// particular thing, with a determiner or a name; it is no hobby.
func (r *hobbyRules) ruleCollect(c *clause) {
	if c.neg && !c.usedTo || c.modal != "" || c.would || c.future || c.past && !c.perfect && !c.usedTo {
		return
	}
	np := takeNP(c.toks, c.verbAt+1)
	if !usableObject(np) || np.det != "" || np.hasName || pronounObjects[np.toks[0].w] {
		return
	}
	r.practice(c, nounPhrase{toks: append([]tok{{w: "collecting", orig: "collecting"}}, np.toks...)}, c.usedTo)
}

// ruleSpend: "I spend Sundays restoring an old Vespa", "we spend most
// weekends sailing": the time given to an activity, habitually, makes it
// a hobby. Money spent ("I spent 200 on shoes") names no span of time.
func (r *hobbyRules) ruleSpend(c *clause) {
	if c.neg || c.modal != "" || c.would || c.future || c.past && !c.perfect && !c.usedTo {
		return
	}
	i := c.verbAt + 1
	for alt("most|my|our|the|all|every|a|few|some|many|long|free|spare|lazy|quiet", c.at(i)) {
		i++
	}
	if !timeSpans[c.at(i)] {
		return
	}
	g := c.at(i + 1)
	if _, f, ok := verbOf(g); !ok || f != formIng {
		if !strings.HasSuffix(g, "ing") || len(g) < 6 {
			return
		}
	}
	r.practice(c, c.gerundPhrase(g, i+2), c.usedTo)
}

// rulePlay: "I play the violin", "I play tennis every Sunday".
func (r *hobbyRules) rulePlay(c *clause) {
	if c.modal != "" || c.would || c.at(c.verbAt+1) == "with" {
		return
	}
	if c.future {
		r.plans.planFrom(c, c.verb, c.verbAt)
		return
	}
	np := takeNP(c.toks, c.verbAt+1)
	// "padel twice a week": the frequency is the routine's, not the name's
	if k := slices.IndexFunc(np.toks, func(x tok) bool { return alt("twice|once|thrice|every|each|weekly|daily", x.w) }); k > 0 {
		np.next -= len(np.toks) - k // the frequency starts where the name ends
		np.toks = np.toks[:k]
	}
	if !usableObject(np) {
		return
	}
	key := np.key()
	if !instruments[key] && !activities[key] && !strings.HasSuffix(key, "games") && !strings.HasSuffix(key, "game") && !strings.HasSuffix(key, "ball") &&
		!(np.det == "" && !np.hasName && len(np.toks) <= 2 && c.hasFrequencyAt(np.next)) {
		return // an unknown game is one when it is played "twice a week" ("I play padel twice a week")
	}
	k, _ := c.object(np, ontology.Activity, 2)
	neg := c.neg || c.usedTo
	tmpl := "{S} plays {O}"
	switch {
	case c.usedTo:
		tmpl = "{S} used to play {O}"
	case neg:
		tmpl = "{S} no longer plays {O}"
	case c.past && !c.perfect:
		tmpl = "{S} played {O}{D}"
	}
	c.emit(fx{pred: "PRACTICES", obj: k, neg: neg, tmpl: tmpl})
}

// rulePractice: "I do yoga", "I practice karate".
func (r *hobbyRules) rulePractice(c *clause) {
	if c.modal != "" || c.would || c.future || c.past && !c.perfect && !c.usedTo || c.neg && !c.cessation {
		return // "I haven't done pottery yet" says nothing lasting
	}
	i := c.verbAt + 1
	// "I do a bit of woodwork", "we do a lot of hiking": the amount is not
	// the activity.
	if alt("a|quite", c.at(i)) && alt("bit|lot|fair", c.at(i+1)) && c.at(i+2) == "of" {
		i += 3
	} else if c.at(i) == "a" && c.at(i+1) == "fair" && c.at(i+2) == "bit" && c.at(i+3) == "of" {
		i += 4
	}
	np := takeNP(c.toks, i)
	// "yoga twice a week": the frequency is the routine's, not the name's.
	if k := slices.IndexFunc(np.toks, func(x tok) bool { return alt("twice|once|thrice|every|each|weekly|daily", x.w) }); k > 0 {
		np.toks = np.toks[:k]
	}
	if !usableObject(np) {
		return
	}
	if typ, _ := classify(np); typ != ontology.Activity && !activities[np.key()] {
		return
	}
	r.practice(c, np, c.neg || c.usedTo)
}

// practiceTemplate phrases a hobby so that the sentence names it.
func practiceTemplate(activity string, neg bool, c *clause) string {
	goes := goVerbs[firstWord(activity)]
	switch {
	case neg && c.usedTo:
		return "{S} used to practise {O}"
	case neg && goes:
		return "{S} no longer goes {O}"
	case neg:
		return "{S} no longer does {O}"
	case c.verb == "start" || c.verb == "begin" || c.verb == "take":
		return "{S} started {O}{D}"
	case c.past && !c.perfect && goes:
		return "{S} went {O}{D}"
	case c.past && !c.perfect:
		return "{S} did some {O}{D}"
	case goes:
		return "{S} goes {O}"
	}
	return "{S} practices {O}"
}

// practice emits PRACTICES for an activity phrase.
func (r *hobbyRules) practice(c *clause, np nounPhrase, neg bool) {
	r.practiceOf(c, np, neg, "")
}

// practiceOf emits PRACTICES for an activity phrase, with the details the
// sentence says after it (where, when, with whom: "with family") in its
// sentence, not in the activity.
func (r *hobbyRules) practiceOf(c *clause, np nounPhrase, neg bool, detail string) {
	if !usableObject(np) {
		return
	}
	k, _ := c.object(np, ontology.Activity, 2)
	if k == "" {
		return
	}
	tmpl := practiceTemplate(np.lower(), neg, c)
	if detail != "" {
		tmpl = strings.Replace(tmpl, "{O}", "{O} "+detail, 1)
	}
	c.emit(fx{pred: "PRACTICES", obj: k, neg: neg, tmpl: tmpl})
}

// stopActivity records the end of a habit: "stopped running", "quit
// smoking", "stopped eating meat" (a cessation of liking meat).
func (r *hobbyRules) stopActivity(c *clause, np nounPhrase) {
	first := np.toks[0].w
	lemma, _, _ := verbOf(first)
	if (lemma == "eat" || lemma == "drink") && len(np.toks) > 1 {
		obj := nounPhrase{toks: np.toks[1:]}
		if k, _ := c.object(obj, ontology.Food, 2); k != "" {
			c.emit(fx{pred: "LIKES", obj: k, neg: true, strength: 0.5, tmpl: "{S} stopped " + first + " {O}{D}"})
		}
		return
	}
	if lemma == "learn" && len(np.toks) > 1 {
		obj := nounPhrase{toks: np.toks[1:], hasName: np.hasName}
		typ := ontology.Activity
		if languages[obj.key()] {
			typ = ontology.Language
		}
		if k, _ := c.object(obj, typ, 2); k != "" {
			c.emit(fx{pred: "LEARNING", obj: k, neg: true, tmpl: "{S} stopped learning {O}{D}"})
		}
		return
	}
	if lemma == "work" && len(np.toks) > 2 && alt("at|for", np.toks[1].w) {
		// "I stopped working at Target"
		r.work.employer(c, nounPhrase{toks: np.toks[2:], hasName: np.hasName}, true, "stopped working at")
		return
	}
	if lemma == "work" || lemma == "live" {
		return
	}
	k, _ := c.object(np, ontology.Activity, 2)
	if k != "" {
		c.emit(fx{pred: "PRACTICES", obj: k, neg: true, tmpl: "{S} stopped {O}{D}"})
	}
}

func pastOf(lemma string) string {
	if p, ok := irregularPast[lemma]; ok {
		return p
	}
	return regularPast(lemma)
}

// rulePickUp: "I've picked up bouldering", "took up wild swimming this
// summer": a hobby taken up is practised and, said by the speaker, liked.
func (r *hobbyRules) rulePickUp(c *clause) { r.pickUp(c) }

// pickUp reads the hobby taken up and reports whether it found one.
func (r *hobbyRules) pickUp(c *clause) bool {
	i := c.verbAt + 1
	if c.at(i) != "up" || c.neg || c.future || c.would || c.modal != "" {
		return false
	}
	np := takeNP(c.toks, i+1)
	if !usableObject(np) || np.hasName {
		return false
	}
	last := np.toks[len(np.toks)-1]
	if !activities[np.key()] && !activities[last.w] && !(isGerund(last) && !isVagueGerund(last.w)) {
		return false
	}
	r.practice(c, np, false)
	k, _ := c.object(np, ontology.Activity, 1)
	c.emit(fx{pred: "LIKES", obj: k, strength: 0.6, conf: 0.7, tmpl: "{S} took up {O}{D}"})
	return true
}

// hasFrequencyAt reports whether a frequency (frequencyAt) stands at i.
func (c *clause) hasFrequencyAt(i int) bool {
	f, _ := c.frequencyAt(i)
	return f != ""
}

// classActivity: the pastime of a class, club or course one signed up for
// or joined ("a pottery class", "a running club", "salsa lessons") is one
// the speaker takes up. A class named by anything but a pastime ("a
// parenting class") says no pastime.
func (r *hobbyRules) classActivity(c *clause, np nounPhrase, how string) {
	if len(np.toks) < 2 || !alt("class|classes|club|course|lessons|lesson|workshop|group|sessions|session|team", np.head()) {
		return
	}
	act := np.toks[len(np.toks)-2].w
	if !activities[act] {
		return
	}
	k := c.said.out.named(act, ontology.Activity, 1)
	art := ""
	if np.det == "a" || np.det == "an" {
		art = np.det + " "
	}
	c.emit(fx{pred: "PRACTICES", obj: k, conf: 0.7, tmpl: "{S} does {O} (" + how + " " + art + np.lower() + "{D})"})
}
