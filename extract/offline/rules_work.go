package offline

import (
	"slices"
	"strings"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// workRules recognise employers, job titles, memberships and volunteering:
// working at and as, joining and leaving, being hired or let go ("I work at
// Acme Corp as a data analyst", "I quit my job at Initech", "my new job is
// at Spotify").
type workRules struct {
	hobbies *hobbyRules // "I quit smoking" ends a habit, not a job
}

// ruleWork: "I work at Acme Corp as a data analyst", "I work as a nurse",
// "I now work for Hooli", "I worked at Initech for years".
func (r *workRules) ruleWork(c *clause) {
	t := c.toks
	i := c.verbAt + 1
	if c.future || c.would || c.modal != "" {
		return
	}
	neg := c.neg || c.usedTo || (c.past && !c.perfect && !c.now)
	for k := 0; k < 2 && i < len(t); k++ {
		i = skipWorkAdverbial(c, i)
		switch c.at(i) {
		case "at", "for", "with":
			np := takeNP(t, i+1)
			if np.empty() {
				return
			}
			r.employer(c, np, neg, "")
			i = np.next
		case "as":
			np := takeNP(t, i+1)
			if np.empty() {
				return
			}
			r.explicitRole(c, np, neg)
			i = np.next
		default:
			// "I work nights stacking shelves at Tesco": the trade
			// said as what the work is spent doing.
			agent, ok := tradeAgents[tradeGerunds[c.at(i)]]
			if !ok || neg || k > 0 {
				return
			}
			role, next := tradeRole(c, i+1, agent)
			if role == "" || !alt("at|for|with", c.at(next)) {
				return
			}
			r.emitTrade(c, role)
			i = next
		}
	}
}

// ruleJoin: "I joined Globex as a data engineer" (an employer), "I joined
// a mentorship program" (a membership).
func (r *workRules) ruleJoin(c *clause) {
	t := c.toks
	np := takeNP(t, c.verbAt+1)
	if !usableObject(np) || c.neg || c.future || c.would {
		return
	}
	head := np.head()
	isGroup := groupNouns[head]
	if named := c.calledName(np); named.next != np.next && isWorkplaceKind(np) && !isGroup {
		np = named // "joined a startup called Fernway": a job, as "joined Fernway" is
	}
	if np.hasName && !isGroup && (isOrgLike(np) || knownOrgs[np.key()]) {
		r.employer(c, np, false, "joined")
		r.roleAfter(c, np.next)
		return
	}
	k, art := c.object(np, ontology.Organization, 1)
	if k == "" {
		return
	}
	c.emit(fx{pred: "MEMBER_OF", obj: k, art: art, tmpl: "{S} joined {aO}{D}"})
	if r.hobbies != nil {
		r.hobbies.classActivity(c, np, "joined") // "joined a running club"
	}
}

// ruleLeave: "I left Acme Corp", "I quit my job at Initech", "I resigned
// from Hooli", "I retired from teaching", "I quit smoking".
func (r *workRules) ruleLeave(c *clause) {
	t := c.toks
	i := c.verbAt + 1
	if c.future || c.would || c.neg || c.modal != "" {
		return
	}
	if alt("from|at", c.at(i)) {
		i++
	}
	how := map[string]string{"leave": "left", "quit": "quit", "resign": "resigned from", "retire": "retired from"}[c.verb]
	// "quit my job at X", "left my job with X"
	if alt("my|the|a|his|her|their|our", c.at(i)) && heldJobNouns[c.at(i+1)] { // "Sam quit his job at Google"
		if alt("at|with|in", c.at(i+2)) {
			r.employer(c, takeNP(t, i+3), true, how)
		}
		return
	}
	np := takeNP(t, i)
	if c.verb == "retire" && (c.past || c.perfect) {
		// "I retired last month", "retired from the council after 30
		// years": the employer slot becomes retirement, which closes the
		// old employer as self-employment does.
		c.emit(fx{pred: "WORKS_AT", obj: c.value("retired"), tmpl: "{S} is retired{since D}", rank: 2})
		if np.hasName && (isOrgLike(np) || knownOrgs[np.key()]) || np.det == "the" && isOrgLike(np) {
			r.employer(c, np, true, how)
		}
		return
	}
	if !usableObject(np) {
		return
	}
	switch {
	case len(np.toks) == 1 && professionGerunds[np.toks[0].w] != "":
		// "I left teaching in July": the profession, not a hobby
		r.leftProfession(c, np.toks[0].w, how)
	case strings.HasSuffix(np.toks[0].w, "ing") && !np.hasName:
		// "quit smoking", "stopped running"
		r.hobbies.stopActivity(c, np)
	case languages[np.key()]:
		k, _ := c.object(np, ontology.Language, 2)
		c.emit(fx{pred: "LEARNING", obj: k, neg: true, tmpl: "{S} gave up {O}{D}"})
	case isPlaceLike(np) && c.verb == "leave":
		k, _ := c.object(np, ontology.Place, 2)
		c.emit(fx{pred: "LIVES_IN", obj: k, neg: true, conf: 0.7, tmpl: "{S} left {O}{D}"})
	case np.hasName && (isOrgLike(np) || knownOrgs[np.key()]):
		r.employer(c, np, true, how)
	case leftGroupNouns[np.head()]:
		k, _ := c.object(np, ontology.Organization, 1)
		c.emit(fx{pred: "MEMBER_OF", obj: k, neg: true, tmpl: "{S} left {O}{D}"})
	}
}

// ruleTeach: "I teach maths at a secondary school", "I teach yoga": a
// subject taught, habitually, is a job as its teacher; the place after
// "at" is the employer when it is one. "I teach my kids to swim" (an
// object with a determiner) and a lesson once given ("I taught a class
// last week") are not.
func (r *workRules) ruleTeach(c *clause) {
	if c.neg || c.modal != "" || c.would || c.future || c.past && !c.perfect && !c.usedTo {
		return
	}
	np := takeNP(c.toks, c.verbAt+1)
	if np.empty() {
		return
	}
	role := ""
	switch {
	case schoolYear(c, c.verbAt+1):
		// "I teach Year 3 at Oakfield Primary", "I teach fifth grade": a
		// class, not a subject.
		role = "teacher"
	case np.det != "" || np.hasName && !languages[np.key()] || len(np.toks) > 2 || pronounObjects[np.toks[0].w]:
		return
	case languages[np.key()]:
		role = np.surface() + " teacher"
	default:
		role = np.lower() + " teacher"
	}
	k := c.said.out.named(role, ontology.Concept, 2)
	neg := c.usedTo
	c.emit(fx{pred: "WORKS_AS", obj: k, neg: neg, art: "a", tmpl: pick(neg, "{S} works as {aO}", "{S} no longer works as {aO}")})
	if c.at(np.next) == "at" {
		r.employer(c, takeNP(c.toks, np.next+1), neg, "")
	}
}

// schoolYear reports whether the words from i name a class of a school by
// its year ("Year 3", "grade 5", "fifth grade", "reception",
// "kindergarten").
func schoolYear(c *clause, i int) bool {
	w1, w2 := c.at(i), c.at(i+1)
	switch {
	case schoolClasses[w1]:
		return true
	case w1 == "year" || w1 == "grade":
		return i+1 < len(c.toks) && c.toks[i+1].kind == nlp.Number
	case w2 == "grade":
		return studyYears[w1] || gradeOrdinals[w1]
	}
	return false
}

// schoolClasses are the classes of a school named by one word.
var schoolClasses = wordSet(`reception,kindergarten,preschool,nursery`)

// gradeOrdinals name the grades studyYears does not.
var gradeOrdinals = wordSet(`sixth,seventh,eighth,ninth,tenth,eleventh,twelfth,6th,7th,8th,9th,10th,11th,12th`)

// livingScan reads a job said as what the speaker does "for a living": "I
// fix boilers for a living", "I walk dogs for a living now". The verb may
// be one no rule knows, so the clause is read from its words: "I", a verb
// in the present, what it acts on, then "for a living".
func (r *workRules) livingScan(c *clause) {
	t := c.toks
	if c.said.speaker == "" || c.hedge || len(t) < 5 || t[0].w != "i" {
		return
	}
	k := -1
	for j := 2; j+2 < len(t); j++ {
		if t[j].w == "for" && t[j+1].w == "a" && t[j+2].w == "living" {
			k = j
			break
		}
	}
	v := t[1].w
	if k < 0 || auxiliaries[v] || t[1].kind != nlp.Word || strings.HasSuffix(v, "ed") || strings.HasSuffix(v, "ing") {
		return // "I did this for a living", "I'm doing it for a living", "I'd do it for a living"
	}
	if lemma, f, ok := verbOf(v); ok {
		if f != formBase {
			return
		}
		v = lemma
	}
	var rest []string
	for _, w := range t[2:k] {
		if w.kind == nlp.Word {
			rest = append(rest, w.orig)
		}
	}
	if len(rest) == 0 || len(rest) > 5 {
		return
	}
	obj := strings.ToLower(strings.Join(rest, " "))
	key := c.said.out.named(gerund(v)+" "+obj, ontology.Concept, 2)
	subj := c.subj
	c.subj = c.said.speaker
	c.emit(fx{pred: "WORKS_AS", obj: key, tmpl: "{S} " + thirdPerson(v) + " " + obj + " for a living"})
	c.subj = subj
}

// ruleVolunteer: "I volunteer at the animal shelter".
func (r *workRules) ruleVolunteer(c *clause) { r.volunteerAt(c, c.verbAt+1) }

// ruleHelpOut: "I help out at the food bank on Saturdays": unpaid work,
// read as volunteering when the place is an organisation or a workplace.
func (r *workRules) ruleHelpOut(c *clause) {
	if c.at(c.verbAt+1) == "out" {
		r.volunteerAt(c, c.verbAt+2)
	}
}

// volunteerAt reads the place of unpaid work from i ("at the animal shelter").
func (r *workRules) volunteerAt(c *clause, i int) {
	if c.neg || c.modal != "" || c.would || c.future || !alt("at|for|with", c.at(i)) {
		return
	}
	np := takeNP(c.toks, i+1)
	if c.verb == "help" && !isOrgLike(np) && !knownOrgs[np.key()] && !isWorkplaceKind(np) && !volunteerPlaces[np.head()] {
		return // "I help out with the kids"
	}
	if k, art := c.object(np, ontology.Organization, 1); k != "" {
		if np.det == "the" && !np.hasName {
			art = "the"
		}
		c.emit(fx{pred: ontology.Fallback, raw: "volunteers at", obj: k, art: art, tmpl: pick(c.past && !c.perfect, "{S} volunteers at {aO}", "{S} volunteered at {aO}{D}")})
	}
}

// jobFrame: "my new job is at Spotify", "my employer is Initech", "my job
// title is product manager".
func (r *workRules) jobFrame(c *clause) bool {
	owner, i := c.possessor(0)
	if owner == "" {
		return false
	}
	for jobModifiers[c.at(i)] {
		i++
	}
	noun := c.at(i)
	if !jobFrameNouns[noun] {
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
			r.employer(c, org, false, "")
			r.roleAfter(c, org.next)
			return true
		}
		if noun != "job" || alt("a|an", c.at(n)) {
			r.role(c, takeNP(c.toks, n), false)
		}
		return true
	case "employer", "company", "workplace":
		r.employer(c, takeNP(c.toks, n), false, "")
		return true
	}
	r.role(c, takeNP(c.toks, n), false)
	return true
}

// dismissed reads "laid off from Umbrella Corp", "fired by Initech".
func (r *workRules) dismissed(c *clause, i int) {
	for j := i; j < len(c.toks) && j < i+4; j++ {
		if alt("from|by|at", c.at(j)) {
			r.employer(c, takeNP(c.toks, j+1), true, "was let go from")
			return
		}
	}
	// "I got laid off last month": no employer named, but whichever it was
	// is over
	c.emit(fx{pred: "WORKS_AT", obj: c.value("unemployed"), conf: 0.7, tmpl: "{S} lost their job{D}", rank: 2})
}

// madeRedundant: "I was made redundant in March", "got made redundant":
// a dismissal (dismissed).
func (r *workRules) madeRedundant(c *clause) bool {
	if c.neg || c.future || c.would || c.modal != "" || c.at(c.verbAt+1) != "redundant" || !c.past && !c.perfect && !c.be {
		return false
	}
	r.dismissed(c, c.verbAt+2)
	return true
}

// employmentStatus sets the employer slot to a status said of the speaker
// ("I'm retired", "I'm between jobs"), which closes the employer before it
// as self-employment does.
func (r *workRules) employmentStatus(c *clause, status string) {
	c.emit(fx{pred: "WORKS_AT", obj: c.value(status), conf: 0.8, tmpl: "{S} is " + status + "{since D}", rank: 2})
}

// employer emits WORKS_AT for an organization phrase. how tunes the
// sentence ("joined", "left", "hired").
func (r *workRules) employer(c *clause, np nounPhrase, neg bool, how string) {
	if named := c.calledName(np); named.next != np.next && isWorkplaceKind(np) {
		np = named // "a startup called Fernway"
	}
	if !isOrgLike(np) && !knownOrgs[np.key()] && !isWorkplaceKind(np) {
		return
	}
	kind := isWorkplaceKind(np)
	np = c.placedWorkplace(np)
	k, _ := c.object(np, ontology.Organization, 2)
	if k == "" {
		return
	}
	tmpl, art := "{S} works at {O}", ""
	if kind {
		// An unnamed workplace keeps its article: "works at a bakery".
		art = "a"
		if alt("an|the", np.det) {
			art = np.det
		}
	}
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
	if art != "" {
		tmpl = strings.Replace(tmpl, "{O}", "{aO}", 1)
	}
	c.emit(fx{pred: "WORKS_AT", obj: k, neg: neg, art: art, tmpl: tmpl, rank: 1})
}

// role emits WORKS_AS for a job title phrase.
func (r *workRules) role(c *clause, np nounPhrase, neg bool) {
	if np.empty() || len(np.toks) > 4 {
		return
	}
	role := np.lower()
	if !occupations[np.head()] && !occupations[role] && !occupations[lastTwo(role)] {
		return
	}
	k := c.said.out.named(role, ontology.Concept, 2)
	art := ""
	if np.det == "a" || np.det == "an" {
		art = np.det
	}
	tmpl := pick(neg, "{S} works as {aO}", "{S} no longer works as {aO}")
	c.emit(fx{pred: "WORKS_AS", obj: k, neg: neg, art: art, tmpl: tmpl})
}

// explicitRole emits WORKS_AS for the phrase after "work as": the frame
// says it is a role, so a title outside the occupations lexicon counts
// ("I work as a dental hygienist").
func (r *workRules) explicitRole(c *clause, np nounPhrase, neg bool) {
	role := np.lower()
	if occupations[np.head()] || occupations[role] || occupations[lastTwo(role)] || np.hasName || len(np.toks) > 3 ||
		np.det != "a" && np.det != "an" {
		r.role(c, np, neg)
		return
	}
	r.titled(c, role, np.det, neg)
}

// titled emits WORKS_AS for a role a frame shows to be one ("work as", "got
// the ... post", "deputy head at ..."), in the occupations lexicon or not;
// art is the article it was said with, if any.
func (r *workRules) titled(c *clause, role, art string, neg bool) {
	k := c.said.out.named(role, ontology.Concept, 2)
	c.emit(fx{pred: "WORKS_AS", obj: k, neg: neg, art: art, tmpl: pick(neg, "{S} works as {aO}", "{S} no longer works as {aO}")})
}

// roleAfter reads an "as a data engineer" that follows an employer.
func (r *workRules) roleAfter(c *clause, i int) {
	for i < len(c.toks) && c.at(i) != "as" {
		i++
	}
	if c.at(i) == "as" {
		r.role(c, takeNP(c.toks, i+1), false)
	}
}

// memberOf: "I'm a member of the choir", "I'm part of a book club".
func (r *workRules) memberOf(c *clause, np nounPhrase, neg bool) {
	if k, _ := c.object(np, ontology.Organization, 1); k != "" {
		// an unnamed group keeps its article: "a member of a book club"
		art := ""
		if !np.hasName {
			art = pick(np.det == "the", "a", "the")
		}
		c.emit(fx{pred: "MEMBER_OF", obj: k, neg: neg, art: art, tmpl: pick(neg, "{S} is a member of {aO}", "{S} is no longer a member of {aO}"), noDate: true})
	}
}

// gotJob reads what follows "got a job" from j: "at Globex", "as a data
// engineer", in either order.
// titledJob reads the title a job gained is named by: "Got the ward sister
// post", "I landed the deputy head job", "got the senior analyst role"
// (senior stays in the title when a noun follows it). A job described only
// by its qualities ("a new job", "the full-time post") names none.
func (r *workRules) titledJob(c *clause, np nounPhrase) {
	if len(np.toks) < 2 || len(np.toks) > 4 || np.hasName || np.head() == "offer" || np.head() == "promotion" ||
		c.said.speaker == "" || c.subj != c.said.speaker {
		return
	}
	title := np.toks[:len(np.toks)-1]
	if !slices.ContainsFunc(title, func(t tok) bool { return !jobQualities[t.w] }) {
		return
	}
	for len(title) > 1 && jobQualities[title[0].w] && !alt("senior|junior", title[0].w) {
		title = title[1:] // "the new ward sister post"
	}
	r.titled(c, nounPhrase{toks: title}.lower(), "", false)
}

func (r *workRules) gotJob(c *clause, j int) {
	t := c.toks
	for k := 0; k < 3 && j < len(t); k++ {
		switch {
		case alt("at|with", c.at(j)):
			org := takeNP(t, j+1)
			r.employer(c, org, false, "got a job")
			j = org.next
		case c.at(j) == "as":
			title := takeNP(t, j+1)
			r.role(c, title, false)
			j = title.next
		case c.at(j) == "offer" || c.at(j) == "in":
			j = len(t)
		default:
			j = len(t)
		}
	}
}

func lastTwo(s string) string {
	f := strings.Fields(s)
	if len(f) < 2 {
		return s
	}
	return f[len(f)-2] + " " + f[len(f)-1]
}

// skipWorkAdverbial steps over how or where one works, between the verb
// and its "as"/"at" ("I work from home as a translator", "I work
// part-time at the library", "I mostly work nights as a porter").
func skipWorkAdverbial(c *clause, i int) int {
	for {
		n := 0
		for _, p := range workAdverbials {
			ws := strings.Fields(p)
			ok := true
			for j, w := range ws {
				if c.at(i+j) != w {
					ok = false
					break
				}
			}
			if ok && len(ws) > n {
				n = len(ws)
			}
		}
		if n == 0 {
			return i
		}
		i += n
	}
}

// droppedPursuit: "I dropped Italian", "I ditched yoga after the injury":
// a language or an activity given up, as "quit" and "gave up" read them.
func (r *recognizers) droppedPursuit(c *clause) bool {
	if c.neg || c.future || c.would || c.modal != "" || c.at(c.verbAt+1) == "out" || c.at(c.verbAt+1) == "off" {
		return false
	}
	np := takeNP(c.toks, c.verbAt+1)
	switch {
	case !usableObject(np) || np.hasName && !languages[np.key()]:
		return false
	case languages[np.key()]:
		k, _ := c.object(np, ontology.Language, 2)
		c.emit(fx{pred: "LEARNING", obj: k, neg: true, tmpl: "{S} dropped {O}{D}"})
		return true
	case activities[np.key()] || strings.HasSuffix(np.toks[0].w, "ing") && len(np.toks) <= 3:
		r.hobbies.stopActivity(c, np)
		return true
	}
	return false
}

// tradeScan reads a job said as the work done for an employer: "I design
// kitchens for a firm in Leeds" (a kitchen designer at a firm in Leeds), "I
// manage a team at a call centre", "I cook at a Thai restaurant". Three
// things must hold, so that an errand or a hobby is not read as a job: the
// verb names a trade (tradeAgents: "buy" and "visit" do not), it is said
// by the speaker in the present ("I designed a logo for a charity once" is
// an occasion), and the phrase after "for" or "at" is an employer (a
// workplace or an organisation, not "for my mum"). The verbs need not be
// ones another rule reads, so the clause is read from its words, as
// livingScan does.
func (r *workRules) tradeScan(c *clause) {
	t := c.toks
	if c.said.speaker == "" || c.hedge || len(t) < 4 || t[0].w != "i" {
		return
	}
	v := 1
	for v < len(t) && v < 3 && alt("also|mostly|mainly|now|still|currently|actually|basically|just", t[v].w) {
		v++
	}
	agent, ok := tradeAgents[c.at(v)]
	if !ok || t[v].kind != nlp.Word {
		return
	}
	role, at := tradeRole(c, v+1, agent)
	if role == "" || !alt("for|at", c.at(at)) {
		return
	}
	org := takeNP(t, at+1)
	if !isOrgLike(org) && !knownOrgs[org.key()] && !isWorkplaceKind(org) {
		return
	}
	subj := c.subj
	c.subj = c.said.speaker
	r.emitTrade(c, role)
	r.employer(c, org, false, "")
	c.subj = subj
}

// tradeRole reads the object of a trade verb from i and names the worker:
// "kitchens" and "designer" make "kitchen designer"; an object that names
// nothing leaves the agent alone ("repairer"), and so does no object, for
// the trades said without one (tradeAlone: "I cook at a bistro"). It
// returns "" when the object is a person or a pronoun ("I train my kids"),
// and the index after the object and any adverbial of work ("nights",
// "part-time").
func tradeRole(c *clause, i int, agent string) (string, int) {
	if alt("for|at", c.at(i)) {
		if !tradeAlone[agent] {
			return "", i // "I train at a gym" is exercise, "I cook at a bistro" a job
		}
		return agent, i
	}
	np := takeNP(c.toks, i)
	if !np.empty() && len(np.toks) == 1 && tradeVagueObjects[np.toks[0].w] {
		return agent, skipWorkAdverbial(c, np.next) // "I fix things for a charity"
	}
	if np.empty() || !alt("|a|an|the", np.det) || np.hasName || len(np.toks) > 3 || pronounObjects[np.toks[0].w] ||
		particles[np.toks[0].w] {
		return "", i // "I pick up my prescription at the pharmacy"
	}
	if typ, _ := classify(np); typ == ontology.Person {
		return "", i
	}
	next := skipWorkAdverbial(c, np.next)
	if tradeVagueObjects[np.head()] {
		return agent, next
	}
	words := make([]string, 0, len(np.toks))
	for _, t := range np.toks[:len(np.toks)-1] {
		words = append(words, t.w)
	}
	words = append(words, np.head(), agent)
	return strings.Join(words, " "), next
}

// emitTrade emits the worker tradeRole named as the subject's job.
func (r *workRules) emitTrade(c *clause, role string) {
	k := c.said.out.named(role, ontology.Concept, 2)
	c.emit(fx{pred: "WORKS_AS", obj: k, art: "a", tmpl: "{S} works as {aO}"})
}

// inGroup reads a group the subject is in, from i: "(I'm in) a book club",
// "(I sing in) the church choir", "(I play in) a five-a-side league". The
// phrase's head must be a kind of group (groupNouns less those one is in
// without belonging: a class, a course, a gym).
func (r *workRules) inGroup(c *clause, i int, neg bool) bool {
	np := takeNP(c.toks, i)
	if np.empty() || len(np.toks) > 4 || !groupNouns[np.head()] || alt("class|course|gym|program|programme|board", np.head()) {
		return false
	}
	r.memberOf(c, np, neg)
	return true
}

// playsIn reads the group an activity is done in: "I sing in a choir on
// Tuesday nights", "I play in a five-a-side league", "I row for the
// university club". The activity itself is its verb's rule's; this adds
// the membership. A one-off ("I sang in a choir at school") is past.
func (r *workRules) playsIn(c *clause) {
	if c.neg || c.future || c.would || c.modal != "" || c.past && !c.perfect {
		return
	}
	for k := c.verbAt + 1; k < len(c.toks) && k <= c.verbAt+4; k++ {
		if alt("in|with|for", c.at(k)) && alt("a|the|our|my|an", c.at(k+1)) {
			if r.inGroup(c, k+1, false) {
				return
			}
		}
	}
}

// gaveNotice: "I handed in my notice at the bank", "I've put in my notice
// with Initech", "I gave notice at work": the speaker is leaving that job
// (closed now; a notice period is not modelled).
func (r *workRules) gaveNotice(c *clause) bool {
	i := c.verbAt + 1
	if c.neg || c.future || c.would || c.modal != "" || !(c.past || c.perfect) {
		return false
	}
	if c.at(i) == "in" {
		i++
	}
	if alt("my|his|her|their|our", c.at(i)) {
		i++
	}
	if c.at(i) != "notice" {
		return false
	}
	if alt("at|with|to", c.at(i+1)) {
		r.employer(c, takeNP(c.toks, i+2), true, "handed in notice at")
	}
	return true
}

// rulePromoted: "I got promoted to team lead last month", "I've been
// promoted to senior nurse", "they promoted me to head chef": the new
// title is the speaker's role from then on (WORKS_AS holds one value, so
// it supersedes the title before).
func (r *workRules) rulePromoted(c *clause) { r.promotedAt(c, c.verbAt+1) }

// gotPromoted: "I got promoted to team lead", the passive with "get".
func (r *workRules) gotPromoted(c *clause) bool {
	if c.at(c.verbAt+1) != "promoted" || !c.past && !c.perfect {
		return false
	}
	r.promotedAt(c, c.verbAt+2)
	return true
}

// promotedAt reads the title a promotion gave, from i (at "to" or "me").
func (r *workRules) promotedAt(c *clause, i int) {
	if c.at(i) == "me" {
		i++ // "they promoted me to ..."
		c.subj = c.said.speaker
	} else if !c.past && !c.perfect {
		return
	}
	if c.neg || c.future || c.would || c.modal != "" || c.at(i) != "to" || c.said.speaker == "" {
		return
	}
	np := takeNP(c.toks, i+1)
	if np.empty() || np.hasName || len(np.toks) > 4 || pronounObjects[np.toks[0].w] {
		return
	}
	if c.at(np.next) == "of" {
		// "head of science": the title runs on through its "of"
		if of := takeNP(c.toks, np.next+1); !of.empty() && len(np.toks)+len(of.toks) < 5 {
			np.toks = append(append(append([]tok{}, np.toks...), c.toks[np.next]), of.toks...)
		}
	}
	k := c.said.out.named(np.lower(), ontology.Concept, 2)
	c.emit(fx{pred: "WORKS_AS", obj: k, art: "a", tmpl: "{S} works as {aO} (promoted{D})"})
}

// beenAt: "I've been at Deloitte for six years now", "I've been at the
// council since 2019": a named organisation (or a workplace) one has been
// at for a span of time is an employer; "I've been at the beach all day"
// is neither named nor a span.
func (r *workRules) beenAt(c *clause, i int) bool {
	np := takeNP(c.toks, i)
	if np.empty() || !(np.hasName && (isOrgLike(np) || knownOrgs[np.key()]) || isWorkplaceKind(np) && np.det == "the") {
		return false
	}
	if !alt("for|since", c.at(np.next)) {
		return false
	}
	if k := np.next + 1; c.at(np.next) == "for" && !(numberWords[c.at(k)] || c.toks[min(k, len(c.toks)-1)].kind == nlp.Number ||
		alt("a|years|months|ages|decades|over|almost|nearly|about|the", c.at(k))) {
		return false // "at Tesco for some milk"
	}
	if c.at(np.next) == "for" && !slices.ContainsFunc(c.toks[np.next:], func(t tok) bool { return alt("year|month|decade|age", nlp.Singular(t.w)) }) {
		return false // "at the hospital for three days with my dad" is a stay, not a job
	}
	r.employer(c, np, false, "")
	return true
}
