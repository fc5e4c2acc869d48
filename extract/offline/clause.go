package offline

import (
	"strings"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// The shared clause analysis. Every clause of a speaker's sentence is read
// once into a clause: the fillers and evidentials before it are stripped,
// its subject found, the modality of its auxiliaries and adverbs read, and
// its main verb located. The recognisers (rules_*.go) then read the clause's
// shape and words and write facts through it (emit.go). The analysis never
// decides what fact a clause states; the recognisers never re-parse who
// said it, when, or how firmly.

// clause is one clause under analysis.
type clause struct {
	said *utterance // the event it was read from, its speaker and their discourse
	toks []tok
	subj string // entity key of the subject
	// carried is the subject of the clause before, which a clause that
	// leaves its own out after "and" carries on ("we left Croydon and are
	// renting ..."); the scans read it before the subject is parsed.
	carried string

	modality

	coord    bool // the clause was joined by "and"/"or"/"but"/"then"
	temporal bool // "when I have kids": a condition unless in the past
	comma    bool // the clause followed a comma
	opening  bool // the clause opens its sentence, before leads such as "Finally," were stripped

	verbAt    int    // index of the main verb (or of the copula complement)
	verb      string // the main verb's lemma; "" for a copula clause
	form      verbForm
	companion string // "Sam" in "Sam and I got married"

	date  *nlp.DateSpan // the clause's date, if it has one
	until *nlp.DateSpan // "until 2020"

	list listObject // the last object phrase, whose conjuncts share its facts (rules_enumeration.go)
}

// modality is what a clause's auxiliaries, adverbs and markers say about
// its verb. The recognisers read it to tell a state from its end ("no
// longer"), a habit from an experience (past tense), and a fact from a plan
// or a guess.
type modality struct {
	// not/never; anymore/no longer; again; now/these days; also/too; used to
	neg, cessation, again, now, also, usedTo bool
	// will/going to; past tense; have + participle; be + -ing; a form of "be"
	future, past, perfect, progressive, be bool
	// would; might/maybe/I think; really/so; kind of
	would, hedge, strong, weak bool
	// can, could, may, might, must or should
	modal string
}

// stripLead removes fillers and evidential prefixes from the start of a
// clause, noting hedges.
func (c *clause) stripLead(toks []tok) []tok {
	for len(toks) > 0 {
		w := toks[0].w
		if w == dateTok {
			if c.date == nil {
				c.date = toks[0].date
			}
			toks = toks[1:]
			continue
		}
		if toks[0].kind == nlp.Punct || toks[0].kind == nlp.Symbol {
			toks = toks[1:]
			continue
		}
		matched := false
		for _, ev := range evidentials {
			if hasPrefix(toks, ev.words) && len(toks) > len(ev.words) {
				rest := toks[len(ev.words):]
				if rest[0].w == "that" || rest[0].w == "," {
					rest = rest[1:]
				}
				// Only strip when a statement follows (a subject).
				if len(rest) > 0 && (subjectPronouns[rest[0].w] || rest[0].w == "my" || rest[0].w == "our" ||
					rest[0].cap || ev.words[0] == "maybe" || ev.words[0] == "probably" || ev.words[0] == "perhaps" ||
					ev.words[0] == "possibly") {
					toks = rest
					if ev.hedge {
						c.hedge = true
					}
					matched = true
					break
				}
			}
		}
		if matched {
			continue
		}
		// "These days", "Nowadays", "Now", "Last month", a leading date.
		if w == "these" && len(toks) > 1 && toks[1].w == "days" {
			c.now = true
			toks = toks[2:]
			continue
		}
		if w == "nowadays" || w == "now" || w == "currently" || w == "lately" || w == "recently" || w == "today" {
			c.now = c.now || w != "recently"
			toks = toks[1:]
			continue
		}
		if w == dateTok {
			if c.date == nil {
				c.date = toks[0].date
			}
			toks = toks[1:]
			continue
		}
		if stanceAdverbs[w] && len(toks) > 1 && (toks[1].kind == nlp.Word || toks[1].w == ",") {
			toks = toks[1:] // "Weirdly the treadmill is my favourite bit now"
			continue
		}
		if n := weekdayLead(toks); n > 0 {
			toks = toks[n:] // "Monday I started at Halvorsen", "On Friday we moved"
			continue
		}
		if w == "since" && len(toks) > 1 && toks[1].w == "then" {
			toks = toks[2:]
			continue
		}
		if n := fillerLen(toks); n > 0 {
			toks = toks[n:]
			continue
		}
		if appositiveName(toks) {
			break // "Bella, my beagle, ...": a name the next words explain, not one addressed
		}
		if n := labelLen(toks); n > 0 {
			toks = toks[n:]
			continue
		}
		if c.vocative(toks) {
			toks = toks[1:]
			continue
		}
		break
	}
	return toks
}

// appositiveName reports whether toks open with a name that "my ROLE,"
// explains ("Bella, my beagle, ate a sock", "Emma, my sister, lives in
// Leeds"): the name is the subject, not someone addressed or a heading.
func appositiveName(toks []tok) bool {
	if len(toks) < 5 || !toks[0].cap || toks[0].kind != nlp.Word || nameStop[toks[0].w] || toks[1].w != "," ||
		!alt("my|our", toks[2].w) {
		return false
	}
	role := toks[3].w
	if relations[role].pred == "" && !petSpecies[nlp.Singular(role)] {
		return false
	}
	return toks[4].w == ","
}

// weekdayLead is the length of a day said before the subject without a
// comma ("Monday I started at ...", "on Friday we moved"), which the date
// finder leaves as a word; 0 when no "I" or "we" follows.
func weekdayLead(toks []tok) int {
	i := 0
	if i < len(toks) && alt("on|last|this", toks[i].w) {
		i++
	}
	if i+1 >= len(toks) {
		return 0
	}
	if _, ok := nlp.ParseWeekday(toks[i].w); !ok || strings.HasSuffix(toks[i].w, "s") {
		return 0 // "On Fridays I go to the pub quiz" is a routine, read as one
	}
	if !alt("i|we", toks[i+1].w) {
		return 0
	}
	return i + 1
}

// labelLen returns the length of a short heading that announces a statement
// ("Quick update:", "Context for you -", "Facts: since May I'm ..."), colon
// or dash included, when a statement of the speaker follows it and the
// heading has no verb.
func labelLen(toks []tok) int {
	for k := 1; k <= 4 && k+1 < len(toks); k++ {
		if toks[k-1].kind != nlp.Word {
			return 0
		}
		if w := toks[k].w; alt(":|-|–|—|,", w) && (alt("i|we|my|our", toks[k+1].w) || ownSubject(toks[k+1:])) && !hasVerb(toks[:k]) {
			return k + 1 // clauses() joins a verbless heading to its statement with a comma
		}
	}
	return 0
}

// fillerLen returns how many leading tokens are filler.
func fillerLen(toks []tok) int {
	for _, p := range fillerPhrases {
		if hasPrefix(toks, p) {
			return len(p)
		}
	}
	w := toks[0].w
	if contextFillers[w] {
		if len(toks) > 1 && (toks[1].w == "," || toks[1].w == "!") {
			return 2
		}
		if w != "well" && w != "right" {
			return 0
		}
	}
	switch w {
	case "the", "what", "you", "by", "big", "fun", "side", "quick", "heads", "guess", "thank", "good", "great":
		return 0
	}
	if leadFillers[w] {
		return 1
	}
	return 0
}

// vocative reports whether the clause opens by addressing someone ("Caroline,
// I ..."): a known person's name followed by a comma, "!" or nothing.
func (c *clause) vocative(toks []tok) bool {
	t := toks[0]
	if !t.cap || t.kind != nlp.Word {
		return false
	}
	key := nlp.NormalizeName(t.orig)
	if !c.said.people[key] && !firstNames[key] {
		return false
	}
	return len(toks) == 1 || toks[1].w == "," || toks[1].w == "!"
}

func hasPrefix(toks []tok, words []string) bool {
	if len(toks) < len(words) {
		return false
	}
	for i, w := range words {
		if toks[i].w != w {
			return false
		}
	}
	return true
}

// scanMarkers reads the clause-wide markers of change and time:
// "anymore", "no longer", "again", "now", "these days", "as well", dates.
func (c *clause) scanMarkers() {
	t := c.toks
	for i := 0; i < len(t); i++ {
		switch t[i].w {
		case "anymore":
			c.cessation = true
		case "any":
			if i+1 < len(t) && (t[i+1].w == "more" || t[i+1].w == "longer") && (i+2 == len(t) || t[i+2].kind != nlp.Word) {
				c.cessation = true
			}
		case "no":
			if i+1 < len(t) && t[i+1].w == "longer" {
				c.cessation, c.neg = true, true
			}
		case "again":
			c.again = true
		case "now", "nowadays", "currently":
			c.now = true
		case "these":
			if i+1 < len(t) && t[i+1].w == "days" {
				c.now = true
			}
		case "also", "too":
			c.also = true
		case "well":
			if i > 0 && t[i-1].w == "as" && (i+1 == len(t) || t[i+1].kind != nlp.Word) {
				c.also = true
			}
		case dateTok:
			if i > 0 && (t[i-1].w == "until" || t[i-1].w == "till") {
				c.until = t[i].date
			} else if c.date == nil {
				c.date = t[i].date
			}
		}
	}
}

// subject finds the clause's subject and returns its key and the index
// after it. Supported: I/we (the speaker), "the user", "my sister (Emma)",
// "my dog (Rex)", a known or plausible person's name, he/she/they (the last
// person mentioned), and an inherited subject when the clause opens with a
// verb.
func (c *clause) subject(inherited string) (string, int) {
	t := c.toks
	u := c.said
	switch t[0].w {
	case "i", "we":
		return u.speaker, 1
	case "me":
		if len(t) > 2 && t[1].w == "and" {
			if name, _ := nameOf(t, 2); name != "" {
				c.companion = u.out.named(name, ontology.Person, 2)
			}
			return u.speaker, 3
		}
	case "the":
		if len(t) > 1 && t[1].w == "user" {
			if len(t) > 2 && t[2].w == "'s" {
				if k, n := c.relativeAt(2, u.out.user()); k != "" {
					return k, n
				}
				return "", 0
			}
			return u.out.user(), 2
		}
	case "my", "our":
		if k, n := c.relativeAt(0, u.speaker); k != "" {
			if c.at(n) == "and" && c.at(n+1) == "i" {
				c.companion = k // "My husband and I moved to Austin"
				return u.speaker, n + 2
			}
			return k, n
		}
		return "", 0
	case "he", "she":
		if u.talk.lastPerson != "" {
			return u.talk.lastPerson, 1
		}
		return "", 0
	case "they":
		if u.talk.lastGroup != "" {
			return u.talk.lastGroup, 1
		}
		return "", 0
	case "you", "it", "this", "that", "there", "people", "everyone", "everybody", "nobody", "someone":
		return "", 0
	}
	// "Mum has type 2 diabetes", "Dad just moved to Spain": a parent or
	// grandparent called by the title the speaker uses for them is the
	// speaker's, as "my mum" is.
	if role := kinTitles[t[0].w]; role != "" && len(t) > 1 && u.speaker != "" &&
		(auxiliaries[t[1].w] || clauseAdverbs[t[1].w] || isVerbForm(t[1].w)) {
		return c.relative(u.speaker, role, relations[role], ""), 1
	}
	// "Picked up bouldering too": a sentence that opens with a past-tense
	// verb is the speaker's, though its first word is capitalised.
	if _, f, ok := verbOf(t[0].w); ok && f == formPast && t[0].first && inherited == "" && !firstNames[t[0].w] &&
		u.out.ents[t[0].w] == nil {
		return u.speaker, 0
	}
	// "Been bouldering twice a week", "Haven't touched a drop since March",
	// "Just started at Monzo": a sentence that opens with the perfect's
	// auxiliary, or with a time adverb before a past verb, is the
	// speaker's ("Have you tried..." asks).
	if inherited == "" && (t[0].first || c.opening) && len(t) > 1 && u.speaker != "" {
		_, f, _ := verbOf(t[1].w)
		switch {
		case t[0].w == "been" && t[1].kind == nlp.Word:
			return u.speaker, 0
		case t[0].w == "have" && (alt("not|never|just|been|finally|already|recently", t[1].w) || isParticiple(t[1].w)):
			return u.speaker, 0
		case alt("just|finally|recently|officially", t[0].w) && f == formPast:
			return u.speaker, 0
		case negatedOpening(t):
			return u.speaker, 0
		case leftOutSubject(t, c.date != nil):
			return u.speaker, 0
		case u.talk.kindAsked == u.event.ID && tasteAnswer(t):
			return u.speaker, 0 // "Opera? Love it."
		}
	}
	// A name, possibly followed by "and I" (→ the speaker).
	if t[0].cap && t[0].kind == nlp.Word && !nameStop[t[0].w] {
		j := 0
		for j+1 < len(t) && t[j+1].cap && t[j+1].kind == nlp.Word && j < 2 {
			j++
		}
		np := nounPhrase{toks: t[:j+1], hasName: true}
		if j+2 < len(t) && t[j+1].w == "and" && t[j+2].w == "i" {
			c.companion = u.out.named(np.surface(), ontology.Person, 2)
			return u.speaker, j + 3
		}
		key := np.key()
		// "Sarah from work is pregnant", "Tom from the office moved to
		// Leeds": where the speaker knows them from says who they are
		if rel, n := knownFrom(t, j+1); rel != "" && u.speaker != "" && (firstNames[key] || u.people[key] || !t[0].first) &&
			!isCommonWord(key) {
			k := c.relative(u.speaker, rel, relations[rel], np.surface())
			return k, n
		}
		if ent, ok := u.out.ents[key]; ok && (ent.typ == ontology.Person || ent.typ == ontology.Animal) {
			c.notePerson(key)
			return key, j + 1
		}
		if u.people[key] || firstNames[key] || (j+1 < len(t) && isFrameVerb(t[j+1].w) && !t[0].first) {
			if typ, ok := classify(np); ok && typ != ontology.Person && !firstNames[key] {
				return "", 0
			}
			k := u.out.named(np.surface(), ontology.Person, 2)
			c.notePerson(k)
			return k, j + 1
		}
		return "", 0
	}
	// A clause that opens with a verb shares the previous clause's subject;
	// a sentence that opens with a past-tense verb is the speaker's
	// ("Went to the park yesterday").
	if lemma, f, ok := verbOf(t[0].w); ok {
		if inherited != "" && f != formIng && (c.coord || c.comma && lemma != "like" && lemma != "love") {
			return inherited, 0
		}
		if inherited != "" && f == formIng && c.comma && leftOutSubject(t, false) {
			return inherited, 0 // "sold the house, renting in Hove for now"
		}
		if inherited == "" && f == formPast && t[0].first {
			return u.speaker, 0
		}
	}
	if auxiliaries[t[0].w] && inherited != "" && (c.coord || c.comma) {
		return inherited, 0
	}
	return "", 0
}

// tasteAnswer reports whether a clause is a taste said without its "I"
// about "it" or "them", after adverbs: "Love it", "Absolutely hate them",
// "Really can't stand it". Alone it is an acknowledgement ("Love it!" to
// a suggestion); after a kind asked back it answers for the speaker.
func tasteAnswer(t []tok) bool {
	k := 0
	for k < len(t) && (evalAdverbs[t[k].w] || alt("can't|cannot|don't|do|not", t[k].w)) {
		k++
	}
	_, taste := likeStrength[t[k].w]
	return k+1 < len(t) && taste && alt("it|them", t[k+1].w)
}

// knownFrom reads "from work", "from the office", "from uni" at i, after a
// name: the relation it says (a colleague, a friend) and the index after it.
func knownFrom(t []tok, i int) (string, int) {
	if i+1 >= len(t) || t[i].w != "from" {
		return "", i
	}
	j := i + 1
	if alt("the|my|our", t[j].w) {
		j++
	}
	if j >= len(t) {
		return "", i
	}
	switch t[j].w {
	case "work", "office", "job":
		return "colleague", j + 1
	case "uni", "university", "college", "school", "church", "gym", "choir", "club", "team", "class", "book":
		if t[j].w == "book" && (j+1 >= len(t) || t[j+1].w != "club") {
			return "", i
		}
		if t[j].w == "book" {
			j++
		}
		return "friend", j + 1
	}
	return "", i
}

// leftOutSubject reports whether a sentence opens with its verb, the
// subject left out as chat does, after adverbs such as "just" or
// "finally": a past tense ("Finally got a new laptop"; a verb whose past
// is its base, "quit dairy", "cut out sugar", only with a date, since
// without one it is an imperative), a present participle with a
// complement and no copula after it ("Heading to Rome next month",
// "Starting my PhD at ETH in October"; not a gerund that is itself the
// subject, "Running is my thing", "Painting helps me", nor a reply about
// the listener, "Loving your new hair"), "had to" ("Had to put our cat
// down") or "can spend" ("Can spend up to £400 on it").
func leftOutSubject(t []tok, dated bool) bool {
	k := 0
	for k < len(t) && alt("just|finally|recently|already|officially|also|still|currently|only|now|literally|actually", t[k].w) {
		k++
	}
	if k+1 >= len(t) || t[k].kind != nlp.Word || firstNames[t[k].w] {
		return false
	}
	w := t[k].w
	if w == "had" && t[k+1].w == "to" {
		return true
	}
	if alt("can|could", w) && t[k+1].w == "spend" {
		return true // "can spend up to £400 on a present": a question would name its subject ("can you ...")
	}
	_, f, ok := verbOf(w)
	if !ok {
		return false
	}
	switch f {
	case formPast, formPart:
		return true
	case formBase:
		return dated && pastIsBase[w]
	case formIng:
		if t[k+1].kind != nlp.Word || auxiliaries[t[k+1].w] {
			return false
		}
		if w == "going" && t[k+1].w == "to" && k+2 < len(t) && isBaseVerb(t[k+2].w) {
			return false // "Gonna be a great night", "gonna volunteer next month": "it", or a plan
		}
		for _, x := range t[k+1:] {
			if alt("is|was|are|were|has|had|will|would|can|could|does|did|'s", x.w) || gerundSubjectVerbs[x.w] {
				return false // "Running marathons is my thing", "Biking sounds fun"
			}
			if _, f, ok := verbOf(x.w); ok && (f == formS || f == formPast) {
				return false // "Painting helps me unwind", "Volunteering there made me happy"
			}
			if alt("you|your|you're|yours", x.w) {
				return false // "Looking forward to hearing your story": a reply to the listener
			}
		}
		if lemma, _, _ := verbOf(w); likeStrength[lemma] > 0 && alt("your|the|that|this|those|these|it", t[k+1].w) {
			return false // "Loving your new passion!": a reply about the listener's thing
		}
		return true
	}
	return false
}

// gerundSubjectVerbs are verbs that follow a gerund used as a subject
// ("Painting helps", "Biking sounds like fun"), known to no rule.
var gerundSubjectVerbs = wordSet(`sounds,seems,looks,feels,helps,makes,keeps,brings,gives,takes,means,gets,costs,
sounded,seemed,looked,felt,helped,brought,gave,took,meant`)

// pastIsBase are verbs whose past tense is spelled as their base form.
var pastIsBase = wordSet(`quit,cut,put,set,hit,let,shut,spread,split,cost,hurt,bet,burst,cast,read`)

// negatedOpening reports whether a sentence with its subject left out
// opens with a negation: "can't stand coriander", "never liked olives",
// "won't eat pork again", "don't drink anymore". "Don't" followed by a
// verb of doing is an imperative to the listener ("Don't forget I'm
// vegan", "don't use bullet points"), so after "do not" only a verb of
// taste, habit or state is the speaker's.
func negatedOpening(t []tok) bool {
	i := 0
	switch {
	case t[0].w == "never":
		i = 1
	case len(t) > 2 && alt("can|could|will|would|did|does|do", t[0].w) && t[1].w == "not":
		i = 2
	default:
		return false
	}
	for i < len(t) && alt("really|even|ever|just|actually|honestly|exactly", t[i].w) {
		i++
	}
	if i >= len(t) {
		return false
	}
	lemma, _, ok := verbOf(t[i].w)
	if !ok && !(t[0].w == "never" && alt("been|had|liked|smoked", t[i].w)) {
		return false
	}
	if t[0].w == "do" {
		return negatedStates[lemma]
	}
	return true
}

// negatedStates are the verbs after which "don't" states the speaker's
// taste, habit or state, not an instruction.
var negatedStates = wordSet(`like,love,enjoy,eat,drink,smoke,own,have,live,work,drive,play,mind,care,fancy,watch,
read,cook,need,do,get,touch,vape,gamble,speak,trust,believe,remember,know`)

// isFrameVerb reports whether w is a verb form that opens a known frame
// after a name ("Emma lives in Rome").
func isFrameVerb(w string) bool {
	if auxiliaries[w] {
		return w == "is" || w == "was" || w == "has" || w == "does" || w == "did" || w == "will"
	}
	_, f, ok := verbOf(w)
	return ok && (f == formS || f == formPast)
}

func (c *clause) notePerson(key string) {
	if key != "" && key != c.said.speaker {
		c.said.talk.lastPerson = key
	}
}

// parseAux reads auxiliaries, negation, modals and adverbs from index i and
// leaves c.i on the main verb or the copula's complement.
func (c *clause) parseAux(i int) {
	t := c.toks
	for i < len(t) {
		w := t[i].w
		next := ""
		if i+1 < len(t) {
			next = t[i+1].w
		}
		switch {
		case w == "not" || w == "never":
			c.neg = true
		case w == "no" && next == "longer":
			c.neg, c.cessation = true, true
			i++
		case w == "used" && next == "to":
			c.usedTo, c.past = true, true
			i++
		case w == "going" && next == "to" && i+2 < len(t) && isBaseVerb(t[i+2].w):
			c.future = true
			i++
		case w == "about" && next == "to":
			c.future = true
			i++
		case w == "am" || w == "is" || w == "are":
			c.be = true
		case w == "was" || w == "were":
			c.be, c.past = true, true
		case w == "be":
			c.be = true
		case w == "been":
			c.be, c.perfect = true, true
		case w == "being":
			c.be = true
		case (w == "do" || w == "does" || w == "did") && !doSupport(t, i):
			goto done // "I do yoga", "she does the accounts": the main verb
		case w == "do" || w == "does":
		case w == "did":
			c.past = true
		case w == "have" || w == "has" || w == "had":
			// "I've really warmed to jazz", "I have slowly come around":
			// adverbs may stand between the auxiliary and its participle.
			j := i + 1
			for j < len(t) && j < i+3 && perfectAdverbs[t[j].w] {
				j++
			}
			at := i + 1 // where next stands
			if j > i+1 && j < len(t) && isParticiple(t[j].w) {
				next, at = t[j].w, j
			}
			if next == "been" || next == "got" || next == "not" || next == "never" || next == "just" || next == "already" ||
				next == "finally" || next == "recently" || next == "also" || next == "always" || next == "now" || next == "ever" ||
				isParticiple(next) {
				c.perfect = true
				if w == "had" {
					c.past = true
				}
				// The adverbs before the participle are read; the loop
				// goes on at the participle ("I've completely come round").
				i = at - 1
				if next == "got" { // "have got" is "have"; "I've really got into" skips the adverb
					c.verbAt, c.verb, c.form = at, "have", formBase
					return
				}
			} else {
				c.verbAt, c.verb, c.form = i, "have", formBase
				if w == "had" {
					c.past, c.form = true, formPast
				}
				return
			}
		case w == "will" || w == "shall":
			c.future = true
		case w == "would":
			c.would = true
		case w == "can" || w == "could" || w == "may" || w == "might" || w == "must" || w == "should":
			c.modal = w
			if w == "might" || w == "may" || w == "could" {
				c.hedge = true
			}
		case w == "kind" || w == "sort":
			if next != "of" {
				goto done
			}
			c.weak = true
			i++
		case w == "really" || w == "absolutely" || w == "totally" || w == "truly" || w == "so" || w == "seriously" ||
			w == "definitely" || w == "genuinely" || w == "super" || w == "particularly" || w == "especially" ||
			w == "much" || w == "far" || w == "increasingly": // "I much prefer", "I far prefer"
			c.strong = true
		case w == "also" || w == "too":
			c.also = true
		case w == "still", w == "just", w == "actually", w == "finally", w == "already", w == "always", w == "usually",
			w == "often", w == "sometimes", w == "recently", w == "lately", w == "even", w == "officially", w == "ever",
			w == "mostly", w == "generally", w == "personally", w == "simply", w == "certainly", w == "only",
			w == "newly", w == "somewhat", w == "pretty", w == "quite", w == "both", w == "all", w == "once",
			w == "now", w == "currently", w == "nowadays", w == "again", w == "first", w == "happily", w == "proudly",
			w == "recently", w == "originally", w == "basically", w == "honestly", w == "literally", w == "typically":
			if w == "now" || w == "currently" || w == "nowadays" {
				c.now = true
			}
		case w == dateTok:
		case w == "gonna":
			c.future = true
		default:
			goto done
		}
		i++
	}
done:
	c.verbAt = i
	if i < len(t) {
		if lemma, f, ok := verbOf(t[i].w); ok {
			if c.be && (f == formPast || f == formPart) && passiveFrames[lemma] {
				// "I'm based in", "I was hired by", "I'm married to": read as
				// copula complements.
				return
			}
			if c.be && f == formIng || f == formIng && i == 0 {
				c.progressive = true // "I'm heading to Rome", and with the subject left out "Heading to Rome"
			}
			if c.be && f != formIng && f != formPast && f != formPart {
				return // "my favourite drink is tea": "drink" is a noun here
			}
			c.verb, c.form = lemma, f
			if f == formPast && !c.perfect {
				c.past = true
			}
			if f == formBase && pastIsBase[t[i].w] && c.date != nil && c.date.Until.Before(c.said.event.OccurredAt) {
				c.past, c.form = true, formPast // "I quit dairy last month"
			}
			if c.be && f == formIng {
				c.be = false
			}
		}
	}
}

// perfectAdverbs may stand between "have" and its participle ("I've really
// warmed to", "I have gradually come around").
var perfectAdverbs = wordSet(`really,slowly,gradually,totally,completely,properly,genuinely,truly,somehow,honestly,
actually,kind,sort,of,definitely,absolutely,quite,rather`)

// isBaseVerb reports whether w is the base form of a known verb.
func isBaseVerb(w string) bool { return isBaseForm(w) }

// isParticiple reports whether w is a past participle of a known verb.
func isParticiple(w string) bool {
	_, f, ok := verbOf(w)
	return ok && (f == formPast || f == formPart) || participles[w]
}

// desire reports whether a "would" clause expresses a wish the rules read
// as a plan ("I'd love to visit Japan", "I'd like to learn Spanish").
func (c *clause) desire() bool {
	if c.verbAt >= len(c.toks) {
		return false
	}
	switch c.toks[c.verbAt].w {
	case "love", "like", "prefer", "rather":
		return true
	case "pick", "choose", "take":
		// "I'd pick tea over coffee any day": a choice between two is a
		// preference (wouldPickOver).
		np := takeNP(c.toks, c.verbAt+1)
		return !np.empty() && c.at(np.next) == "over"
	}
	return false
}

// at returns the folded word at clause index i, or "".
func (c *clause) at(i int) string {
	if i < 0 || i >= len(c.toks) {
		return ""
	}
	return c.toks[i].w
}

// seq reports whether the clause has words at index i (each element may
// list alternatives separated by "|").
func (c *clause) seq(i int, words ...string) bool {
	for k, w := range words {
		got := c.at(i + k)
		if got == "" || !alt(w, got) {
			return false
		}
	}
	return true
}

func alt(pattern, w string) bool {
	for len(pattern) > 0 {
		k := 0
		for k < len(pattern) && pattern[k] != '|' {
			k++
		}
		if pattern[:k] == w {
			return true
		}
		if k == len(pattern) {
			return false
		}
		pattern = pattern[k+1:]
	}
	return false
}

// copulaAt reports whether index i holds "is/are/was/were" and returns the
// index after it and any "now"/"still"/"no longer"/"not" that follows.
func (c *clause) copulaAt(i int) (next int, ok, neg, now bool) {
	if alt("really|just|honestly|simply|definitely|actually|still|truly|also|now|currently", c.at(i)) &&
		alt("is|are|was|were|am|has|have", c.at(i+1)) {
		now = c.at(i) == "now" || c.at(i) == "currently"
		i++ // "horror films really aren't my thing"
	}
	if !alt("is|are|was|were|am|has|have", c.at(i)) {
		return i, false, false, false
	}
	if alt("has|have", c.at(i)) {
		j := i + 1
		for alt("always|long|now|still|officially|definitely|also|actually|really|never", c.at(j)) && j < i+3 {
			j++ // "has always been", "has long been"
		}
		if c.at(j) != "become" && c.at(j) != "been" {
			return i, false, false, false
		}
		neg = c.at(j-1) == "never"
		i = j
	}
	i++
	for {
		switch c.at(i) {
		case "now", "still", "currently", "always", "officially", "definitely", "also", "probably", "actually", "really":
			now = now || c.at(i) == "now" || c.at(i) == "currently"
			i++
			continue
		case "not", "never":
			neg = true
			i++
			continue
		case "no":
			if c.at(i+1) == "longer" {
				neg = true
				i += 2
				continue
			}
		}
		return i, true, neg, now
	}
}

// words joins the folded words of toks (stopping at punctuation).
func words(toks []tok) string {
	ws := make([]string, 0, len(toks))
	for _, t := range toks {
		if t.kind != nlp.Word && t.kind != nlp.Number {
			break
		}
		if t.w == "now" || t.w == "too" || t.w == "anymore" || t.w == "again" || t.w == "also" {
			continue
		}
		ws = append(ws, t.w)
	}
	return strings.Join(ws, " ")
}

// gerundPhrase reads the activity phrase of gerund g whose complement
// starts at i.
func (c *clause) gerundPhrase(g string, i int) nounPhrase { return gerundPhrase(c.toks, g, i) }

// clauseText is the clause's folded words, for phrase checks.
func (c *clause) clauseText() string {
	ws := make([]string, len(c.toks))
	for i, t := range c.toks {
		ws[i] = t.w
	}
	return strings.Join(ws, " ")
}

// doSupport reports whether the "do" at i helps another verb ("I do love
// jazz", "I don't eat meat", "did you go") rather than being the main verb
// ("I do yoga", "I do a bit of woodwork").
func doSupport(t []tok, i int) bool {
	j := i + 1
	for j < len(t) && alt("really|actually|still|also|sometimes|always|usually|often|genuinely|honestly|just|so|totally|absolutely", t[j].w) {
		j++
	}
	if j >= len(t) {
		return true // "I do." answers; nothing to read
	}
	w := t[j].w
	if w == "not" || w == "n't" || auxiliaries[w] || subjectPronouns[w] {
		return true
	}
	_, _, ok := verbOf(w)
	return ok
}

// frontedPhrase is the length of a short prepositional phrase of time said
// before the subject without a comma ("After the surgery I gave up
// running", "Since the wedding we've lived in Hove", "After three nights
// of sideways rain in a leaking tent I am done with camping"): the
// preposition, at most nine words with no verb among them, then "I" or
// "we" and an auxiliary or a verb. The phrase dates the clause; it is not
// its subject.
func frontedPhrase(toks []tok) int {
	if len(toks) < 4 || !alt("after|before|since|following|during|until", toks[0].w) {
		return 0
	}
	for k := 2; k < len(toks)-1 && k <= 10; k++ {
		w := toks[k].w
		if alt("i|we", w) {
			next := toks[k+1].w
			if auxiliaries[next] || clauseAdverbs[next] {
				return k
			}
			if _, f, ok := verbOf(next); ok && f != formIng && f != formPart {
				return k
			}
			return 0
		}
		if toks[k].kind != nlp.Word || auxiliaries[w] || subjectPronouns[w] {
			return 0
		}
		if _, _, ok := verbOf(w); ok && !(alt("a|an|the|of|my|our|in|with|from", toks[k-1].w) && describesNext(toks, k)) {
			return 0 // a verb, not a word that describes a noun ("a month of broken sleep")
		}
	}
	return 0
}

// frontedSpan is the length of a span of time said before the subject
// without a comma ("After ten years in London we've moved to Bristol",
// "After a decade at Lloyds I've joined a startup"): a duration, then at
// most a short "in|at PLACE", then "I" or "we". It is not a clause of its
// own, and not a "when" that makes the clause a condition. 0 when the
// clause opens otherwise ("After we moved, ..." has a verb: a clause).
func frontedSpan(toks []tok) int {
	if n := frontedPhrase(toks); n > 0 {
		return n
	}
	if len(toks) < 5 || !alt("after|following|within", toks[0].w) {
		return 0
	}
	i := 1
	if !alt("a|an|the|many|some", toks[i].w) && !numberWords[toks[i].w] && toks[i].kind != nlp.Number {
		return 0
	}
	for i < len(toks) && i < 3 && (alt("a|an|the|many|some|few|couple|of", toks[i].w) || numberWords[toks[i].w] || toks[i].kind == nlp.Number) {
		i++
	}
	if i >= len(toks) || !durationNouns[nlp.Singular(toks[i].w)] {
		return 0
	}
	i++
	if i < len(toks) && alt("in|at|with|of", toks[i].w) {
		for k := i + 1; k < len(toks) && k <= i+4; k++ {
			if alt("i|we", toks[k].w) {
				return k
			}
			if _, _, isVerb := verbOf(toks[k].w); isVerb || toks[k].kind == nlp.Punct {
				return 0
			}
		}
		return 0
	}
	if i < len(toks) && alt("i|we", toks[i].w) {
		return i
	}
	return 0
}
