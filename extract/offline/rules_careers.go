package offline

import (
	"slices"
	"strings"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// Study and work transitions: starting, doing, leaving and finishing a
// course, preparing for and passing an exam, going freelance, being an
// apprentice ("I'm in my second year of medicine at Bristol", "I dropped
// out of my chemistry degree", "I'm doing a PhD in linguistics now", "I'm
// cramming for the GMAT", "I passed the bar exam", "I went freelance as an
// illustrator", "I'm apprenticing with a plumber"). A left course ends
// (valid_to) rather than being denied. The words are in lexicon_careers.go.

// yearOf reads "(in) my Nth year of X (at Y)" at i of a be-clause.
func (r *studyRules) yearOf(c *clause, i int) bool {
	if c.at(i) == "in" {
		i++
	}
	if !alt("my|our", c.at(i)) || !studyYears[c.at(i+1)] || !alt("year|term|semester", c.at(i+2)) {
		return false
	}
	i += 3
	if alt("of|at|in", c.at(i)) && c.at(i) != "at" {
		i++
		np := takeNP(c.toks, i)
		if np.empty() || np.hasName && !(len(np.toks) == 1 && np.toks[0].first) {
			return false
		}
		subj := strings.TrimSuffix(np.lower(), " school")
		k := c.said.out.named(subj, ontology.Concept, 1)
		c.said.out.mention(c.said.event.ID, k)
		c.emit(fx{pred: "STUDIES", obj: k, tmpl: "{S} studies {O} (" + words(c.toks[i-4:i-1]) + ")"})
		i = np.next
	}
	r.studyPlace(c, i, false)
	return true
}

// studyPlace reads "at Y" at i: the institution, a name (a city stands
// for its university here).
func (r *studyRules) studyPlace(c *clause, i int, ended bool) {
	if c.at(i) != "at" {
		return
	}
	r.studyAt(c, takeNP(c.toks, i+1), ended)
}

// studyAt emits the place of study org names, when it is a name or a
// known organisation.
func (r *studyRules) studyAt(c *clause, org nounPhrase, ended bool) {
	if !org.hasName && !knownOrgs[org.key()] {
		return
	}
	k, _ := c.object(org, ontology.Organization, 1)
	if k == "" {
		return
	}
	tmpl := "{S} studies at {O}"
	if ended {
		tmpl = "{S} left {O}{D}"
	}
	c.emit(fx{pred: "STUDIES_AT", obj: k, ended: ended, tmpl: tmpl})
}

// leaveStudy reads a left or dropped course at i ("dropped out of my
// chemistry degree", "left law school", "quit uni"). It reports whether
// the object was a course.
func (r *studyRules) leaveStudy(c *clause, i int, how string) bool {
	if c.future || c.would || c.neg || c.modal != "" {
		return false
	}
	np := takeNP(c.toks, i)
	if np.empty() || !courseNouns[np.toks[len(np.toks)-1].w] {
		return false
	}
	subject := ""
	if len(np.toks) > 1 {
		subject = words(np.toks[:len(np.toks)-1])
	}
	if subject != "" && !np.hasName {
		k := c.said.out.named(subject, ontology.Concept, 1)
		c.said.out.mention(c.said.event.ID, k)
		c.emit(fx{pred: "STUDIES", obj: k, ended: true, tmpl: "{S} " + how + " " + np.lower() + "{D}", rank: 2})
	} else if np.hasName {
		k, _ := c.object(np, ontology.Organization, 1)
		c.emit(fx{pred: "STUDIES_AT", obj: k, ended: true, tmpl: "{S} " + how + " {O}{D}", rank: 2})
	}
	r.studyPlace(c, np.next, true)
	return true
}

// ruleDrop: "I dropped out of my chemistry degree", "I dropped out of
// Leeds".
func (r *studyRules) ruleDrop(c *clause) {
	if c.seq(c.verbAt+1, "out", "of") {
		r.leaveStudy(c, c.verbAt+3, "dropped out of")
	}
}

// doingDegree: "I'm doing a PhD in linguistics (at Leiden)", "I started
// my master's in economics". It reports whether it read the clause.
func (r *studyRules) doingDegree(c *clause) bool {
	if c.future || c.would || c.neg || c.modal != "" || c.past && !c.now && c.verb != "start" && c.verb != "begin" {
		return false
	}
	i := c.verbAt + 1
	if !alt("a|an|my|the", c.at(i)) {
		return false
	}
	var level string
	switch {
	case alt("master|bachelor", c.at(i+1)) && alt("'s|is", c.at(i+2)): // the tokenizer expands "master's"
		level = c.toks[i+1].orig + "'s"
		i += 3
	case degreeNouns[c.at(i+1)]:
		level = c.toks[i+1].orig
		i += 2
	default:
		// "an Open University degree in history", "a part-time MBA"
		j := i + 2
		for j < i+5 && j < len(c.toks) && !degreeNouns[c.at(j)] && c.toks[j].kind == nlp.Word && !alt("in|on|at", c.at(j)) {
			j++
		}
		if !degreeNouns[c.at(j)] {
			return false
		}
		level = c.toks[j].orig
		i = j + 1
	}
	if alt("in|on", c.at(i)) {
		np := takeNP(c.toks, i+1)
		if usableObject(np) {
			k, _ := c.object(np, ontology.Concept, 1)
			c.emit(fx{pred: "STUDIES", obj: k, tmpl: "{S} is doing a " + level + " in {O}"})
			i = np.next
		}
	}
	k := c.said.out.named(level, ontology.Concept, 1)
	c.said.out.mention(c.said.event.ID, k)
	c.emit(fx{pred: "STUDIES", obj: k, tmpl: "{S} is doing a {O}"})
	r.studyPlace(c, i, false)
	return true
}

// enrol: "I enrolled in a nursing course at Coventry", "I signed up for a
// coding bootcamp".
func (r *studyRules) enrol(c *clause) {
	i := c.verbAt + 1
	if c.verb == "sign" {
		if c.at(i) != "up" {
			return
		}
		i++
	}
	if !alt("in|on|for|at", c.at(i)) || c.neg || c.future || c.would || c.modal != "" {
		return
	}
	np := takeNP(c.toks, i+1)
	if np.empty() || !courseNouns[np.toks[len(np.toks)-1].w] {
		if c.at(i) == "at" {
			r.studyPlace(c, i, false)
		}
		return
	}
	k, _ := c.object(np, ontology.Concept, 1)
	c.emit(fx{pred: "STUDIES", obj: k, art: np.det, tmpl: "{S} enrolled in {aO}{D}"})
	r.studyPlace(c, np.next, false)
}

// examPrep reads "(I'm) preparing|studying|cramming for the X exam" and
// reports whether it did: the exam is a goal until it is passed.
func (r *studyRules) examPrep(c *clause) bool {
	i := c.verbAt + 1
	if c.at(i) != "for" || c.neg || c.future || c.would || c.modal != "" || !c.progressive && !c.now {
		return false
	}
	np := takeNP(c.toks, i+1)
	if np.empty() || !examNouns[np.toks[len(np.toks)-1].w] && !np.hasName {
		return false
	}
	k := c.said.out.named(examName(np), ontology.Concept, 1)
	c.said.out.mention(c.said.event.ID, k)
	c.emit(fx{pred: "HAS_GOAL", obj: k, tmpl: "{S} is preparing for {O}"})
	return true
}

// examPassed: "I passed my driving test", "passed the CPA at last". The
// goal ends (valid_to) and stays in history.
func (r *studyRules) examPassed(c *clause) bool {
	if c.verb != "pass" || c.neg || c.future || c.would || c.modal != "" || !c.past && !c.perfect {
		return false
	}
	np := takeNP(c.toks, c.verbAt+1)
	if np.empty() || !examNouns[np.toks[len(np.toks)-1].w] && !np.hasName {
		return false
	}
	k := c.said.out.named(examName(np), ontology.Concept, 1)
	c.said.out.mention(c.said.event.ID, k)
	c.emit(fx{pred: "HAS_GOAL", obj: k, ended: true, tmpl: "{S} passed {O}{D}"})
	return true
}

// examName names an exam by its words without the article ("the bar
// exam" is "bar exam").
func examName(np nounPhrase) string { return np.surface() }

// freelance: "I went freelance as an illustrator", "I've gone
// self-employed", "I work for myself as a translator now". The employer
// slot becomes self-employment, which closes the old employer.
func (r *workRules) freelance(c *clause, i int) bool {
	if c.neg || c.future || c.would || c.modal != "" {
		return false
	}
	switch {
	case selfEmployed[c.at(i)]:
		i++
	case c.seq(i, "for", "myself"), c.seq(i, "for", "ourselves"):
		i += 2
	default:
		return false
	}
	k := c.value("self-employed")
	c.emit(fx{pred: "WORKS_AT", obj: k, tmpl: "{S} is self-employed (freelance{D})", rank: 2})
	r.roleAfter(c, i)
	return true
}

// ruleFreelance: "I freelance as a translator now", "Been freelancing
// since January": working for oneself, as the verb says it.
func (r *workRules) ruleFreelance(c *clause) {
	if c.neg || c.future || c.would || c.modal != "" || c.past && !c.perfect {
		return
	}
	k := c.value("self-employed")
	c.emit(fx{pred: "WORKS_AT", obj: k, tmpl: "{S} is self-employed (freelance{D})", rank: 2})
	r.roleAfter(c, c.verbAt+1)
}

// apprentice: "I'm apprenticing with a carpenter", "I'm training as an
// electrician", "I'm retraining as a plumber", "training to be a nurse":
// the trade is the speaker's role now.
func (r *workRules) apprentice(c *clause) {
	i := c.verbAt + 1
	if c.neg || c.future || c.would || c.modal != "" || !alt("with|as|under|to", c.at(i)) {
		return
	}
	if c.at(i) == "to" && alt("be|become", c.at(i+1)) {
		i++ // "I'm training to be a plumber"
	}
	np := takeNP(c.toks, i+1)
	if np.empty() || !occupations[np.head()] && !occupations[np.lower()] {
		return
	}
	prefix := "apprentice "
	if c.verb == "train" || c.verb == "retrain" {
		prefix = "trainee "
	}
	k := c.said.out.named(prefix+np.lower(), ontology.Concept, 2)
	c.said.out.mention(c.said.event.ID, k)
	art := "a"
	if prefix == "apprentice " {
		art = "an"
	}
	c.emit(fx{pred: "WORKS_AS", obj: k, art: art, tmpl: "{S} works as {aO}"})
}

// studyingToBe: "I'm studying to become a nurse": the trade trained for is
// the speaker's role now, as a student of it.
func (r *workRules) studyingToBe(c *clause) bool {
	i := c.verbAt + 1
	if c.neg || c.future || c.would || c.modal != "" || c.at(i) != "to" || !alt("be|become", c.at(i+1)) {
		return false
	}
	np := takeNP(c.toks, i+2)
	if np.empty() || len(np.toks) > 3 || !occupations[np.head()] && !occupations[np.lower()] {
		return false
	}
	k := c.said.out.named("student "+np.lower(), ontology.Concept, 2)
	c.emit(fx{pred: "WORKS_AS", obj: k, art: "a", tmpl: "{S} is studying to become " + np.det + " " + np.lower() + " ({aO})"})
	return true
}

// myDegreeScan reads a course named by its owner wherever it stands in the
// clause: "First week of my nursing degree at Glasgow Caledonian done!",
// "my physics masters is killing me", "the deadline for my diploma in
// fashion design". The speaker is doing that course, unless the clause
// says it is over ("I finished my law degree in 2019").
func (r *studyRules) myDegreeScan(c *clause) {
	t := c.toks
	if c.said.speaker == "" || c.hedge {
		return
	}
	for i := 0; i+1 < len(t); i++ {
		if t[i].w != "my" {
			continue
		}
		if i > 0 && alt("finished|completed|graduated|passed|left|quit|dropped|abandoned|got|did|after|before", t[i-1].w) {
			return // over, or a time reference: "after my degree"
		}
		// the field before the degree noun: "my nursing degree", "my
		// computer science masters"
		j := i + 1
		for j < len(t) && j < i+4 && !degreeNouns[t[j].w] && t[j].kind == nlp.Word && !alt("in|on|at|of|for|and", t[j].w) {
			j++
		}
		if j >= len(t) || !degreeNouns[t[j].w] || t[j].w == "certificate" || t[j].w == "foundation" {
			continue
		}
		var field []string
		for _, x := range t[i+1 : j] {
			if _, kin := relations[x.w]; kin || x.w == "'s" {
				field = nil // "my sister's nursing degree" is hers
				break
			}
			if !alt("new|first|second|third|final|part-time|full-time|online|evening|whole", x.w) {
				field = append(field, x.orig)
			}
		}
		next := j + 1
		if len(field) == 0 && alt("in|on", c.at(next)) { // "my degree in fashion design"
			np := takeNP(t, next+1)
			if usableObject(np) {
				field = []string{np.surface()}
				next = np.next
			}
		}
		if len(field) == 0 || len(field) > 3 {
			continue
		}
		name := strings.ToLower(strings.Join(field, " "))
		if !slices.ContainsFunc(strings.Fields(name), func(w string) bool { return disciplines[w] }) {
			return // "my dream degree": no field of study
		}
		subj := c.subj
		c.subj = c.said.speaker
		k := c.said.out.named(name, ontology.Concept, 1)
		c.said.out.mention(c.said.event.ID, k)
		c.emit(fx{pred: "STUDIES", obj: k, tmpl: "{S} is studying {O}"})
		if c.at(next) == "at" {
			// The place is its capitalised words ("at Glasgow Caledonian
			// done!" names Glasgow Caledonian).
			org := takeNP(t, next+1)
			n := 0
			for n < len(org.toks) && org.toks[n].cap {
				n++
			}
			if n > 0 {
				org.toks = org.toks[:n]
				r.studyAt(c, org, false)
			}
		}
		c.subj = subj
		return
	}
}
