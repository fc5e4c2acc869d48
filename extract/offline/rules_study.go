package offline

import (
	"slices"

	"github.com/graphmem/graphmem/ontology"
)

// studyRules recognise learning and schooling: what people learn and study,
// the schools they attend or graduated from, and the languages they speak
// ("I'm learning Spanish", "I study biology at MIT", "I speak French").
type studyRules struct {
	plans *planRules // "maybe I'll learn Japanese" is a plan
}

// ruleLearn: "I'm learning Spanish", "I started learning Japanese", "I'm
// learning to play the guitar".
func (r *studyRules) ruleLearn(c *clause) {
	if c.at(c.verbAt+1) == "that" {
		return
	}
	r.learnAt(c, c.verbAt+1)
}

// learnAt reads what is learned from i: a skill ("to play the guitar",
// "how to code") or a list of subjects ("Spanish and French"). It reports
// whether it found any.
func (r *studyRules) learnAt(c *clause, i int) bool {
	t := c.toks
	if c.at(i) == "how" || c.at(i) == "to" {
		i++
		if c.at(i) == "to" {
			i++
		}
		// "learning to play the guitar": the skill is the object.
		if lemma, _, ok := verbOf(c.at(i)); ok {
			np := takeNP(t, i+1)
			if np.empty() {
				np = nounPhrase{toks: []tok{{w: gerund(lemma), orig: gerund(lemma)}}, next: i + 1}
			}
			r.learning(c, np)
			return true
		}
		return false
	}
	items, _ := takeList(t, i)
	read := false
	for _, np := range items {
		if usableObject(np) {
			r.learning(c, np)
			read = true
		}
	}
	return read
}

// ruleStudy: "I study biology at MIT", "I'm studying law", "I study at
// Oxford".
func (r *studyRules) ruleStudy(c *clause) {
	t := c.toks
	i := c.verbAt + 1
	if c.future || c.would || c.modal != "" {
		return
	}
	neg := c.neg || c.past && !c.perfect && !c.progressive
	if c.at(i) != "at" && c.at(i) != "in" && c.at(i) != "for" {
		np := takeNP(t, i)
		if usableObject(np) && !(len(np.toks) == 1 && notStudySubjects[np.toks[0].w]) {
			if languages[np.key()] {
				r.learning(c, np)
			} else if k, _ := c.object(np, ontology.Concept, 1); k != "" {
				c.emit(fx{pred: "STUDIES", obj: k, neg: neg, tmpl: pick(neg, "{S} studies {O}", "{S} studied {O}")})
			}
			i = np.next
		}
	}
	if c.at(i) == "at" {
		org := takeNP(t, i+1)
		if isOrgLike(org) && !isPlaceLike(org) || knownOrgs[org.key()] {
			k, _ := c.object(org, ontology.Organization, 2)
			c.emit(fx{pred: "STUDIES_AT", obj: k, neg: neg, tmpl: pick(neg, "{S} studies at {O}", "{S} studied at {O}")})
		}
	}
}

// ruleTransfer: a move between courses, "I transferred into architecture
// in January", "I've transferred onto the nursing degree", "transferred to
// civil engineering at Leeds". What follows must be a discipline or a
// course: "I transferred £200 to savings" and "I transferred to the Leeds
// office" are not study.
func (r *studyRules) ruleTransfer(c *clause) {
	if c.neg || c.future || c.would || c.modal != "" || !c.past && !c.perfect {
		return
	}
	i := c.verbAt + 1
	from := nounPhrase{}
	if c.at(i) == "from" {
		// "Transferred from UBC to McGill for my final year"
		from = takeNP(c.toks, i+1)
		i = from.next
	}
	if !alt("into|to|onto", c.at(i)) {
		return
	}
	np := takeNP(c.toks, i+1)
	if np.hasName && (schoolName(np) || studyCue(c)) {
		// a school: "transferred to King's College", "to McGill for my
		// final year" (a name needs the clause to say it is study)
		r.studyAt(c, np, false)
		if from.hasName {
			r.studyAt(c, from, true)
		}
		return
	}
	if np.empty() || np.hasName || len(np.toks) > 4 {
		return
	}
	field := np.toks
	if courseNouns[np.head()] || degreeNouns[np.head()] {
		field = field[:len(field)-1] // "the nursing degree": the field before the course
	}
	if len(field) == 0 || !disciplines[field[len(field)-1].w] {
		return
	}
	k, _ := c.object(nounPhrase{toks: field, next: np.next}, ontology.Concept, 1)
	if k == "" {
		return
	}
	c.emit(fx{pred: "STUDIES", obj: k, tmpl: "{S} studies {O}"})
	r.studyPlace(c, np.next, false)
}

// ruleGraduate: "I graduated from Stanford in 2020".
func (r *studyRules) ruleGraduate(c *clause) {
	if c.at(c.verbAt+1) != "from" || c.neg || c.future {
		return
	}
	org := takeNP(c.toks, c.verbAt+2)
	if isOrgLike(org) || knownOrgs[org.key()] || org.hasName && isPlaceLike(org) { // "graduated from Bristol": its university
		k, _ := c.object(org, ontology.Organization, 2)
		c.emit(fx{pred: "STUDIES_AT", obj: k, neg: true, tmpl: "{S} graduated from {O}{D}"})
	}
}

// ruleSpeak: "I speak Spanish and French".
func (r *studyRules) ruleSpeak(c *clause) {
	if c.neg || c.modal != "" || c.would || c.future || c.past && !c.perfect {
		return
	}
	items, _ := takeList(c.toks, c.verbAt+1)
	for _, np := range items {
		if !languages[np.key()] {
			continue
		}
		k, _ := c.object(np, ontology.Language, 2)
		c.emit(fx{pred: ontology.Fallback, raw: "speaks", obj: k, tmpl: "{S} speaks {O}", noDate: true})
	}
}

// learning emits LEARNING for a subject of study (a plan when the speaker
// only intends to: "Maybe I'll learn Japanese").
func (r *studyRules) learning(c *clause, np nounPhrase) {
	if !usableObject(np) || notLearnt[np.head()] || np.det == "some" {
		return // "learned some great tips" is no skill
	}
	if c.future || c.would || c.hedge && c.modal != "" {
		if !c.neg {
			typ := ontology.Activity
			if languages[np.key()] {
				typ = ontology.Language
			}
			r.plans.planTo(c, "plan", "learn", np, typ)
		}
		return
	}
	typ := ontology.Activity
	if languages[np.key()] || languages[np.lower()] {
		typ = ontology.Language
	}
	k, _ := c.object(np, typ, 2)
	if k == "" {
		return
	}
	neg := c.neg || c.usedTo
	tmpl := "{S} is learning {O}"
	switch {
	case neg && c.cessation:
		tmpl = "{S} is no longer learning {O}"
	case neg:
		tmpl = "{S} is not learning {O}"
	case c.now:
		tmpl = "{S} is now learning {O}"
	case c.verb == "start" || c.verb == "begin":
		tmpl = "{S} started learning {O}{D}"
	}
	c.emit(fx{pred: "LEARNING", obj: k, neg: neg, tmpl: tmpl, rank: 1})
}

// fluentIn reads the languages at i: "fluent in Spanish and French".
func (r *studyRules) fluentIn(c *clause, i int) {
	items, _ := takeList(c.toks, i)
	for _, np := range items {
		if isLanguage(np) {
			r.speaks(c, c.subj, np, " fluently")
		}
	}
}

// isLanguage reports whether a phrase is a language itself, not a phrase
// ending in one ("getting by in Italian").
func isLanguage(np nounPhrase) bool {
	return languages[np.lower()] || languages[np.key()] && len(np.toks) == 1
}

// speaks records that owner speaks the language np; how is said after it
// (" fluently", " (rusty)").
func (r *studyRules) speaks(c *clause, owner string, np nounPhrase, how string) {
	if k, _ := c.object(np, ontology.Language, 2); k != "" {
		c.emit(fx{subj: owner, pred: ontology.Fallback, raw: "speaks", obj: k, tmpl: "{S} speaks {O}" + how, noDate: true})
	}
}

// schoolName reports whether a name is a school's by one of its words
// ("King's College", "Leeds Beckett University", "Glasgow School of Art").
func schoolName(np nounPhrase) bool {
	return np.hasName && slices.ContainsFunc(np.toks, func(t tok) bool {
		return t.cap && alt("university|college|school|academy|institute|polytechnic|uni|conservatoire|conservatory", t.w)
	})
}

// studyCue reports whether a clause speaks of study: a year, term or
// course of it ("for my final year", "this semester", "the degree").
func studyCue(c *clause) bool {
	for i, t := range c.toks {
		if alt("semester|term|degree|course|uni|university|college|modules|module|dissertation|thesis|freshman|sophomore", t.w) ||
			t.w == "year" && alt("final|first|second|third|fourth|last", c.at(i-1)) {
			return true
		}
	}
	return false
}

// courseIn reads "doing an evening course in bookkeeping", "taking a
// class in pottery", "on a short course on wine": the field of a course
// taken is studied. It reports whether it read the clause.
func (r *studyRules) courseIn(c *clause) bool {
	if c.neg || c.future || c.would || c.modal != "" || c.past && !c.perfect && !c.progressive {
		return false
	}
	np := takeNP(c.toks, c.verbAt+1)
	if np.empty() || np.hasName || !alt("course|class|classes|module|diploma|certificate", np.head()) || !alt("in|on", c.at(np.next)) {
		return false
	}
	field := takeNP(c.toks, np.next+1)
	if !usableObject(field) || len(field.toks) > 3 {
		return false
	}
	if languages[field.key()] {
		r.learning(c, field)
		return true
	}
	k, _ := c.object(field, ontology.Concept, 1)
	if k == "" {
		return false
	}
	c.emit(fx{pred: "STUDIES", obj: k, tmpl: "{S} is doing a course in {O}"})
	r.studyPlace(c, field.next, false)
	return true
}

// taughtSelf: "I'm teaching myself Korean", "taught myself to code": one
// learns what one teaches oneself.
func (r *studyRules) taughtSelf(c *clause) bool {
	if c.neg || c.future || c.would || c.modal != "" || !alt("myself|ourselves", c.at(c.verbAt+1)) {
		return false
	}
	return r.learnAt(c, c.verbAt+2)
}

// accepted reads what follows "got accepted" at i: "onto the MSc in Data
// Science at Edinburgh", "into Glasgow School of Art", "to study law at
// Leeds": a course and a school the speaker now studies on and at.
func (r *studyRules) accepted(c *clause, i int) {
	if !alt("onto|into|to|on|at|by", c.at(i)) {
		return
	}
	i++
	if c.at(i) == "study" {
		i++
	}
	np := takeNP(c.toks, i)
	if np.empty() {
		return
	}
	if np.hasName && (schoolName(np) || isOrgLike(np) || isPlaceLike(np)) && !courseNouns[np.head()] && !degreeNouns[np.head()] {
		r.studyAt(c, np, false) // "got accepted into Glasgow School of Art"
		return
	}
	field := np
	if (courseNouns[np.head()] || degreeNouns[np.head()]) && alt("in|of", c.at(np.next)) {
		field = takeNP(c.toks, np.next+1) // "the MSc in Data Science"
	} else if courseNouns[np.head()] || degreeNouns[np.head()] {
		field = nounPhrase{toks: np.toks[:len(np.toks)-1], next: np.next} // "the nursing degree"
	}
	if usableObject(field) && len(field.toks) <= 3 {
		if k, _ := c.object(field, ontology.Concept, 1); k != "" {
			c.emit(fx{pred: "STUDIES", obj: k, tmpl: "{S} got accepted to study {O}"})
		}
	}
	r.studyPlace(c, field.next, false)
}

// grewUpSpeaking: "I grew up speaking Welsh", "grew up speaking Tamil and
// English at home": a first language, spoken still.
func (r *studyRules) grewUpSpeaking(c *clause) bool {
	if c.neg || !c.seq(c.verbAt+1, "up", "speaking") {
		return false
	}
	items, _ := takeList(c.toks, c.verbAt+3)
	read := false
	for _, np := range items {
		if isLanguage(np) {
			r.speaks(c, c.subj, np, " (grew up speaking it)")
			read = true
		}
	}
	return read
}
