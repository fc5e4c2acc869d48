package offline

import (
	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// cl is one clause under analysis: its subject, the modality read from its
// auxiliaries and adverbs, and its main verb.
type cl struct {
	e    *eventCtx
	toks []tok
	subj string // entity key of the subject

	// modality
	neg, cessation, again, now, also, usedTo bool
	future, past, perfect, progressive, be   bool
	would, hedge, strong, weak               bool
	modal                                    string

	coord    bool // the clause was joined by "and"/"or"/"but"/"then"
	temporal bool // "when I have kids": a condition unless in the past
	comma    bool // the clause followed a comma

	i         int // index of the main verb (or of the copula complement)
	verb      string
	form      verbForm
	literalVP string // a plan's verb phrase as said, for its sentence
	companion string // "Sam" in "Sam and I got married"

	date  *nlp.DateSpan // the clause's date, if it has one
	until *nlp.DateSpan // "until 2020"
}

// leadFillers are words a clause may start with that carry no content.
var leadFillers = wordSet(`yeah,yes,yep,yup,oh,wow,well,so,and,but,also,actually,anyway,anyways,btw,okay,hey,
hi,hello,haha,hahaha,lol,um,uh,hmm,plus,then,honestly,basically,seriously,big,news,update,fun,fact,ps,sadly,
unfortunately,luckily,fortunately,finally,ah,aw,aww,omg,oops,alright,right,besides,anyhow,speaking,
guess,what,quick,heads,side,note,by,the,way,totally,absolutely,definitely,indeed,thankfully,hopefully,
surprisingly,interestingly,funny,enough,good,great,cool,awesome,nice,dear,mel,sure,true,exactly,same,
ok,thanks,thank,you,agreed,bummer,congrats,mate,buddy,dude,man,sis,bro,friend,officially,ugh,phew,
because,since,when,while,although,though,after,before,once,until,whereas,&,or,cause,as,yeah,
,`)

// evidentials are prefixes that wrap a statement without changing whose it
// is; hedging ones lower the confidence.
var evidentials = []struct {
	words []string
	hedge bool
}{
	{[]string{"i", "found", "out"}, false}, {[]string{"i", "just", "found", "out"}, false},
	{[]string{"i", "realized"}, false}, {[]string{"i", "realised"}, false}, {[]string{"i", "discovered"}, false},
	{[]string{"i", "noticed"}, false}, {[]string{"it", "turns", "out"}, false}, {[]string{"turns", "out"}, false},
	{[]string{"i", "have", "to", "say"}, false}, {[]string{"i", "must", "say"}, false},
	{[]string{"to", "be", "honest"}, false}, {[]string{"i", "can", "tell", "you"}, false},
	{[]string{"i", "wanted", "to", "tell", "you"}, false}, {[]string{"i", "want", "to", "tell", "you"}, false},
	{[]string{"i", "forgot", "to", "mention"}, false}, {[]string{"i", "should", "mention"}, false},
	{[]string{"as", "you", "know"}, false}, {[]string{"you", "know"}, false}, {[]string{"not", "me"}, false},
	{[]string{"i", "think"}, true}, {[]string{"i", "guess"}, true}, {[]string{"i", "believe"}, true},
	{[]string{"i", "suppose"}, true}, {[]string{"i", "feel", "like"}, true}, {[]string{"i", "would", "say"}, true},
	{[]string{"i", "am", "pretty", "sure"}, false}, {[]string{"i", "am", "not", "sure", "but"}, true},
	{[]string{"maybe"}, true}, {[]string{"perhaps"}, true}, {[]string{"probably"}, true}, {[]string{"possibly"}, true},
}

// hypotheticalStarts open conditions, wishes and imaginings: nothing in
// the rest of the sentence is asserted.
var hypotheticalStarts = wordSet(`if,unless,whether,imagine,suppose,supposing,assuming,hypothetically,wish,
pretend,say,let's`)

// clause analyses one clause and emits its facts. inherited is the subject
// of the previous clause of the sentence (for "I live in Paris and work as
// a nurse"). It returns the clause's subject.
func (e *eventCtx) clause(toks []tok, inherited string) string {
	c := &cl{e: e}
	if len(toks) > 0 {
		switch toks[0].w {
		case "and", "or", "&", "then", "but":
			c.coord = true
		case ",":
			c.comma = true
		case "who", "which", "that", "whom", "whose", "where":
			return inherited // relative clauses describe someone else
		case "when", "once", "whenever", "until", "before", "after":
			c.temporal = true
		}
	}
	toks = c.stripLead(toks)
	if len(toks) == 0 {
		return inherited
	}
	if hypotheticalStarts[toks[0].w] || (toks[0].w == "i" && len(toks) > 1 && toks[1].w == "wish") ||
		(toks[0].w == "what" && len(toks) > 1 && toks[1].w == "if") {
		e.hypothetical = true
		return ""
	}
	c.toks = toks
	c.scanMarkers()
	c.relationMentions()
	if c.clauseFrames() {
		return c.subj
	}
	subj, i := c.subject(inherited)
	if subj == "" {
		return ""
	}
	c.subj = subj
	c.parseAux(i)
	if c.modal == "should" || c.modal == "must" || c.modal == "can" && !c.neg {
		return subj // advice and ability are not facts ("I should learn Spanish")
	}
	if c.would && !c.desire() {
		return subj // "I would live in Paris if..." is hypothetical
	}
	if c.temporal && !c.past && !c.perfect {
		return subj // "for when I have kids" asserts nothing yet
	}
	c.dispatch()
	return subj
}

// stripLead removes fillers and evidential prefixes from the start of a
// clause, noting hedges.
func (c *cl) stripLead(toks []tok) []tok {
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
		if w == "since" && len(toks) > 1 && toks[1].w == "then" {
			toks = toks[2:]
			continue
		}
		if n := fillerLen(toks); n > 0 {
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

// fillerPhrases are multi-word openers with no content.
var fillerPhrases = [][]string{
	{"by", "the", "way"}, {"guess", "what"}, {"big", "news"}, {"fun", "fact"}, {"side", "note"},
	{"quick", "update"}, {"heads", "up"}, {"thank", "you"}, {"good", "news"}, {"great", "news"},
	{"the", "thing", "is"}, {"long", "story", "short"}, {"in", "fact"}, {"to", "be", "fair"},
}

// contextFillers are fillers only when a comma follows ("Great, I ...").
var contextFillers = wordSet(`good,great,nice,cool,awesome,sure,true,exactly,same,right,well,man,dude`)

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
func (c *cl) vocative(toks []tok) bool {
	t := toks[0]
	if !t.cap || t.kind != nlp.Word {
		return false
	}
	key := nlp.NormalizeName(t.orig)
	if !c.e.x.people[key] && !firstNames[key] {
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
func (c *cl) scanMarkers() {
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
func (c *cl) subject(inherited string) (string, int) {
	t := c.toks
	e := c.e
	switch t[0].w {
	case "i", "we":
		return e.speaker, 1
	case "me":
		if len(t) > 2 && t[1].w == "and" {
			if name, _ := nameOf(t, 2); name != "" {
				c.companion = e.x.b.named(name, ontology.Person, 2)
			}
			return e.speaker, 3
		}
	case "the":
		if len(t) > 1 && t[1].w == "user" {
			if len(t) > 2 && t[2].w == "'s" {
				if k, n := c.relativeAt(2, e.x.b.user()); k != "" {
					return k, n
				}
				return "", 0
			}
			return e.x.b.user(), 2
		}
	case "my", "our":
		if k, n := c.relativeAt(0, e.speaker); k != "" {
			if c.at(n) == "and" && c.at(n+1) == "i" {
				c.companion = k // "My husband and I moved to Austin"
				return e.speaker, n + 2
			}
			return k, n
		}
		return "", 0
	case "he", "she":
		if e.d.lastPerson != "" {
			return e.d.lastPerson, 1
		}
		return "", 0
	case "they":
		if e.d.lastGroup != "" {
			return e.d.lastGroup, 1
		}
		return "", 0
	case "you", "it", "this", "that", "there", "people", "everyone", "everybody", "nobody", "someone":
		return "", 0
	}
	// A name, possibly followed by "and I" (→ the speaker).
	if t[0].cap && t[0].kind == nlp.Word && !nameStop[t[0].w] {
		j := 0
		for j+1 < len(t) && t[j+1].cap && t[j+1].kind == nlp.Word && j < 2 {
			j++
		}
		np := nounPhrase{toks: t[:j+1], hasName: true}
		if j+2 < len(t) && t[j+1].w == "and" && t[j+2].w == "i" {
			c.companion = e.x.b.named(np.surface(), ontology.Person, 2)
			return e.speaker, j + 3
		}
		key := np.key()
		if ent, ok := e.x.b.ents[key]; ok && (ent.typ == ontology.Person || ent.typ == ontology.Animal) {
			c.notePerson(key)
			return key, j + 1
		}
		if e.x.people[key] || firstNames[key] || (j+1 < len(t) && isFrameVerb(t[j+1].w) && !t[0].first) {
			if typ, ok := classify(np); ok && typ != ontology.Person && !firstNames[key] {
				return "", 0
			}
			k := e.x.b.named(np.surface(), ontology.Person, 2)
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
		if inherited == "" && f == formPast && t[0].first {
			return e.speaker, 0
		}
	}
	if auxiliaries[t[0].w] && inherited != "" && (c.coord || c.comma) {
		return inherited, 0
	}
	return "", 0
}

// isFrameVerb reports whether w is a verb form that opens a known frame
// after a name ("Emma lives in Rome").
func isFrameVerb(w string) bool {
	if auxiliaries[w] {
		return w == "is" || w == "was" || w == "has" || w == "does" || w == "did" || w == "will"
	}
	_, f, ok := verbOf(w)
	return ok && (f == formS || f == formPast)
}

func (c *cl) notePerson(key string) {
	if key != "" && key != c.e.speaker {
		c.e.d.lastPerson = key
	}
}

// parseAux reads auxiliaries, negation, modals and adverbs from index i and
// leaves c.i on the main verb or the copula's complement.
func (c *cl) parseAux(i int) {
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
		case w == "do" || w == "does":
		case w == "did":
			c.past = true
		case w == "have" || w == "has" || w == "had":
			if next == "been" || next == "got" || next == "not" || next == "never" || next == "just" || next == "already" ||
				next == "finally" || next == "recently" || next == "also" || next == "always" || next == "now" || next == "ever" ||
				isParticiple(next) {
				c.perfect = true
				if w == "had" {
					c.past = true
				}
				if next == "got" { // "have got" is "have"
					c.i, c.verb, c.form = i+1, "have", formBase
					return
				}
			} else {
				c.i, c.verb, c.form = i, "have", formBase
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
			w == "definitely" || w == "genuinely" || w == "super" || w == "particularly" || w == "especially":
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
	c.i = i
	if i < len(t) {
		if lemma, f, ok := verbOf(t[i].w); ok {
			if c.be && (f == formPast || f == formPart) && passiveFrames[lemma] {
				// "I'm based in", "I was hired by", "I'm married to": read as
				// copula complements.
				return
			}
			if c.be && f == formIng {
				c.progressive = true
			}
			if c.be && f != formIng && f != formPast && f != formPart {
				return // "my favourite drink is tea": "drink" is a noun here
			}
			c.verb, c.form = lemma, f
			if f == formPast && !c.perfect {
				c.past = true
			}
			if c.be && f == formIng {
				c.be = false
			}
		}
	}
}

// passiveFrames are participles read by the copula rules.
var passiveFrames = wordSet(`base,settle,marry,divorce,hire,employ,bear,engage,name,call,schedule,reschedule,
move,locate,raise,obsess,enroll,retire,adopt,date`)

// isBaseVerb reports whether w is the base form of a known verb.
func isBaseVerb(w string) bool { return isBaseForm(w) }

// isParticiple reports whether w is a past participle of a known verb.
func isParticiple(w string) bool {
	_, f, ok := verbOf(w)
	return ok && (f == formPast || f == formPart) || participles[w]
}

// desire reports whether a "would" clause expresses a wish the rules read
// as a plan ("I'd love to visit Japan", "I'd like to learn Spanish").
func (c *cl) desire() bool {
	if c.i >= len(c.toks) {
		return false
	}
	switch c.toks[c.i].w {
	case "love", "like", "prefer", "rather":
		return true
	}
	return false
}

// conf is the confidence of a fact read from this clause.
func (c *cl) conf(base float64) float64 {
	switch {
	case c.hedge:
		return min(base, 0.45)
	case c.e.ev.Kind == "summary":
		return base * 0.9
	}
	return base
}

// at returns the folded word at clause index i, or "".
func (c *cl) at(i int) string {
	if i < 0 || i >= len(c.toks) {
		return ""
	}
	return c.toks[i].w
}

// seq reports whether the clause has words at index i (each element may
// list alternatives separated by "|").
func (c *cl) seq(i int, words ...string) bool {
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

// fx describes a fact a rule emits; emit fills in the clause's subject,
// polarity, dates and confidence.
type fx struct {
	subj     string // defaults to the clause's subject
	pred     string
	obj      string
	qual     string
	neg      bool
	conf     float64 // defaults to 0.9
	strength float64
	tmpl     string
	art      string
	rank     int
	raw      string
	noDate   bool // the clause's date does not apply to this fact
}

// emit records a fact read from this clause.
func (c *cl) emit(f fx) {
	if f.subj == "" {
		f.subj = c.subj
	}
	if f.conf == 0 {
		f.conf = 0.9
	}
	pol := ontology.Positive
	if f.neg {
		pol = ontology.Negative
	}
	ft := &fact{subj: f.subj, pred: f.pred, obj: f.obj, qual: f.qual, pol: pol, conf: c.conf(f.conf),
		strength: f.strength, tmpl: f.tmpl, objArticle: f.art, rank: f.rank, raw: f.raw}
	if c.date != nil && !f.noDate {
		from := c.date.Time
		ft.validFrom = &from
		ft.date = c.date.Phrase()
	} else if at := c.e.ev.OccurredAt; !at.IsZero() {
		ft.validFrom = &at
	}
	if c.until != nil && !f.noDate {
		to := c.until.Until
		ft.validTo = &to
	}
	c.e.x.b.add(ft, c.e.ev.ID)
	if f.obj != "" && f.obj != c.e.speaker {
		c.e.d.lastObject = f.obj
	}
}

// object creates the entity for a phrase and returns its key and the
// article the speaker used ("a", "an" or "").
func (c *cl) object(np nounPhrase, typ ontology.EntityType, rank int) (string, string) {
	if !usableObject(np) {
		return "", ""
	}
	name := np.surface()
	if np.count != "" && !np.hasName {
		name = np.surface()
	}
	if typ == "" {
		var ok bool
		typ, ok = classify(np)
		rank = 0
		if ok {
			rank = 1
		}
	}
	key := c.e.x.b.named(name, typ, rank)
	if key == "" {
		return "", ""
	}
	c.e.x.b.mention(c.e.ev.ID, key)
	art := ""
	switch np.det {
	case "a", "an":
		art = np.det
	case "the":
		if np.hasName && !places[key] {
			art = "the" // "sold the Corolla"
		}
	case "my", "our":
		if typ != ontology.Person && typ != ontology.Place && !np.hasName {
			art = "{their}"
		}
	}
	if typ == ontology.Person {
		c.notePerson(key)
	}
	return key, art
}

// value creates a Value entity for a literal ("3000 euros", "Thursdays").
func (c *cl) value(text string) string {
	if text == "" {
		return ""
	}
	e := c.e.x.b.entity("#"+nlp.Fold(text), text, ontology.Value, 3)
	return e.key
}
