package offline

import (
	"strings"

	"github.com/graphmem/graphmem/ontology"
)

// Rules about work and study: employers, job titles, schools, learning.

// employer emits WORKS_AT for an organization phrase. how tunes the
// sentence ("joined", "left", "hired").
func (c *cl) employer(np nounPhrase, neg bool, how string) {
	if !isOrgLike(np) && !knownOrgs[np.key()] {
		return
	}
	k, _ := c.object(np, ontology.Organization, 2)
	if k == "" {
		return
	}
	tmpl := "{S} works at {O}"
	switch {
	case neg && how != "":
		tmpl = "{S} " + how + " {O}{D} (no longer works there)"
	case neg && c.past && !c.perfect && !c.cessation:
		tmpl = "{S} used to work at {O}"
	case neg:
		tmpl = "{S} no longer works at {O}"
	case how != "" && c.date != nil:
		tmpl = "{S} works at {O} (" + how + "{D})"
	case how != "":
		tmpl = "{S} now works at {O}"
	case c.now:
		tmpl = "{S} now works at {O}"
	}
	c.emit(fx{pred: "WORKS_AT", obj: k, neg: neg, tmpl: tmpl, rank: 1})
}

// role emits WORKS_AS for a job title phrase.
func (c *cl) role(np nounPhrase, neg bool) {
	if np.empty() || len(np.toks) > 4 {
		return
	}
	role := np.lower()
	if !occupations[np.head()] && !occupations[role] && !occupations[lastTwo(role)] {
		return
	}
	k := c.e.x.b.named(role, ontology.Concept, 2)
	art := ""
	if np.det == "a" || np.det == "an" {
		art = np.det
	}
	tmpl := pick(neg, "{S} works as {aO}", "{S} no longer works as {aO}")
	c.emit(fx{pred: "WORKS_AS", obj: k, neg: neg, art: art, tmpl: tmpl})
}

// roleAfter reads an "as a data engineer" that follows an employer.
func (c *cl) roleAfter(i int) {
	for i < len(c.toks) && c.at(i) != "as" {
		i++
	}
	if c.at(i) == "as" {
		c.role(takeNP(c.toks, i+1), false)
	}
}

// ruleWork: "I work at Acme Corp as a data analyst", "I work as a nurse",
// "I now work for Hooli", "I worked at Initech for years".
func (c *cl) ruleWork() {
	t := c.toks
	i := c.i + 1
	if c.future || c.would || c.modal != "" {
		return
	}
	neg := c.neg || c.usedTo || (c.past && !c.perfect && !c.now)
	for k := 0; k < 2 && i < len(t); k++ {
		switch c.at(i) {
		case "at", "for", "with":
			np := takeNP(t, i+1)
			if np.empty() {
				return
			}
			c.employer(np, neg, "")
			i = np.next
		case "as":
			np := takeNP(t, i+1)
			if np.empty() {
				return
			}
			c.role(np, neg)
			i = np.next
		default:
			return
		}
	}
}

// ruleJoin: "I joined Globex as a data engineer" (an employer), "I joined
// a mentorship program" (a membership).
func (c *cl) ruleJoin() {
	t := c.toks
	np := takeNP(t, c.i+1)
	if !usableObject(np) || c.neg || c.future || c.would {
		return
	}
	head := np.head()
	isGroup := alt("club|group|program|programme|team|band|gym|class|choir|community|society|association|league|union|church|network|organization|organisation|committee|board|course|circle|crew|movement", head)
	if np.hasName && !isGroup && (isOrgLike(np) || knownOrgs[np.key()]) {
		c.employer(np, false, "joined")
		c.roleAfter(np.next)
		return
	}
	k, art := c.object(np, ontology.Organization, 1)
	if k == "" {
		return
	}
	c.emit(fx{pred: "MEMBER_OF", obj: k, art: art, tmpl: "{S} joined {aO}{D}"})
}

// ruleLeave: "I left Acme Corp", "I quit my job at Initech", "I resigned
// from Hooli", "I retired from teaching", "I quit smoking".
func (c *cl) ruleLeave() {
	t := c.toks
	i := c.i + 1
	if c.future || c.would || c.neg || c.modal != "" {
		return
	}
	if alt("from|at", c.at(i)) {
		i++
	}
	how := map[string]string{"leave": "left", "quit": "quit", "resign": "resigned from", "retire": "retired from"}[c.verb]
	// "quit my job at X", "left my job with X"
	if alt("my|the|a", c.at(i)) && alt("job|position|role|post", c.at(i+1)) {
		if alt("at|with|in", c.at(i+2)) {
			c.employer(takeNP(t, i+3), true, how)
		}
		return
	}
	np := takeNP(t, i)
	if !usableObject(np) {
		return
	}
	switch {
	case strings.HasSuffix(np.toks[0].w, "ing") && !np.hasName:
		// "quit smoking", "stopped running"
		c.stopActivity(np)
	case languages[np.key()]:
		k, _ := c.object(np, ontology.Language, 2)
		c.emit(fx{pred: "LEARNING", obj: k, neg: true, tmpl: "{S} gave up {O}{D}"})
	case isPlaceLike(np) && c.verb == "leave":
		k, _ := c.object(np, ontology.Place, 2)
		c.emit(fx{pred: "LIVES_IN", obj: k, neg: true, conf: 0.7, tmpl: "{S} left {O}{D}"})
	case np.hasName && (isOrgLike(np) || knownOrgs[np.key()]):
		c.employer(np, true, how)
	case alt("club|group|band|team|gym|choir|program|class", np.head()):
		k, _ := c.object(np, ontology.Organization, 1)
		c.emit(fx{pred: "MEMBER_OF", obj: k, neg: true, tmpl: "{S} left {O}{D}"})
	}
}

// ruleLearn: "I'm learning Spanish", "I started learning Japanese", "I'm
// learning to play the guitar".
func (c *cl) ruleLearn() {
	t := c.toks
	i := c.i + 1
	if c.at(i) == "that" {
		return
	}
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
			c.learning(np)
		}
		return
	}
	items, _ := takeList(t, i)
	for _, np := range items {
		c.learning(np)
	}
}

// learning emits LEARNING for a subject of study (a plan when the speaker
// only intends to: "Maybe I'll learn Japanese").
func (c *cl) learning(np nounPhrase) {
	if !usableObject(np) {
		return
	}
	if c.future || c.would || c.hedge && c.modal != "" {
		if !c.neg {
			typ := ontology.Activity
			if languages[np.key()] {
				typ = ontology.Language
			}
			saved := c.verb
			c.verb = "plan"
			c.planTo("learn", np, typ)
			c.verb = saved
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

// ruleStudy: "I study biology at MIT", "I'm studying law", "I study at
// Oxford".
func (c *cl) ruleStudy() {
	t := c.toks
	i := c.i + 1
	if c.future || c.would || c.modal != "" {
		return
	}
	neg := c.neg || c.past && !c.perfect && !c.progressive
	if c.at(i) != "at" && c.at(i) != "in" && c.at(i) != "for" {
		np := takeNP(t, i)
		if usableObject(np) && !(len(np.toks) == 1 && alt("hard|abroad|online|together|late|more|less|alone|daily|everyday|tonight|remotely", np.toks[0].w)) {
			if languages[np.key()] {
				c.learning(np)
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

// ruleGraduate: "I graduated from Stanford in 2020".
func (c *cl) ruleGraduate() {
	if c.at(c.i+1) != "from" || c.neg || c.future {
		return
	}
	org := takeNP(c.toks, c.i+2)
	if isOrgLike(org) || knownOrgs[org.key()] {
		k, _ := c.object(org, ontology.Organization, 2)
		c.emit(fx{pred: "STUDIES_AT", obj: k, neg: true, tmpl: "{S} graduated from {O}{D}"})
	}
}

// jobFrame: "my new job is at Spotify", "my employer is Initech", "my job
// title is product manager".
func (c *cl) jobFrame() bool {
	owner, i := c.possessor(0)
	if owner == "" {
		return false
	}
	for alt("new|current|first|dream|old|previous|day", c.at(i)) {
		i++
	}
	noun := c.at(i)
	if !alt("job|employer|company|workplace|role|title|position|profession|occupation", noun) {
		return false
	}
	if noun == "job" && c.at(i+1) == "title" {
		i++
		noun = "title"
	}
	n, ok, neg, _ := c.copulaAt(i + 1)
	if !ok || neg {
		return false
	}
	c.subj = owner
	switch noun {
	case "job", "position", "role":
		if alt("at|with|for", c.at(n)) {
			org := takeNP(c.toks, n+1)
			c.employer(org, false, "")
			c.roleAfter(org.next)
			return true
		}
		if noun != "job" || alt("a|an", c.at(n)) {
			c.role(takeNP(c.toks, n), false)
		}
		return true
	case "employer", "company", "workplace":
		c.employer(takeNP(c.toks, n), false, "")
		return true
	}
	c.role(takeNP(c.toks, n), false)
	return true
}
