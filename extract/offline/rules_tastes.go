package offline

import (
	"strings"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// tasteRules recognise likes and dislikes with their negations and changes,
// preferences between options, habits of eating and drinking, teams
// supported and fandom, and aversions said about the thing ("I love
// sushi", "I don't drink coffee anymore", "I prefer aisle seats", "window
// seats are too cramped", "Coffee isn't for me anymore").
type tasteRules struct {
	plans *planRules // "I'd love to visit Japan" is a wish
}

// ruleLike handles like, love, adore, enjoy, fancy, hate, dislike, detest,
// loathe, despise and "can't stand".
func (r *tasteRules) ruleLike(c *clause) {
	if c.future || c.modal != "" && !(c.verb == "stand" && c.neg) {
		return
	}
	if c.past && !c.usedTo && !c.perfect {
		// "I tried oysters once and hated them": the judgement of a kind
		// just tried is a taste.
		if c.coord && c.said.talk.triedEvent == c.said.event.ID && alt("it|them", c.at(c.verbAt+1)) && c.verb != "stand" {
			if k := c.tasteRef(); k != "" {
				c.emit(fx{pred: tastePred(c.verb), obj: k, neg: c.neg,
					strength: likeStrength[c.verb], tmpl: "{S} tried {O} and " + c.toks[c.verbAt].w + " " + c.at(c.verbAt+1), noDate: true})
				return
			}
		}
		// "I loved the concert": an experience, not a taste; but a kind
		// loved then ("I loved horror films as a teenager") is what a
		// "they" that follows may turn around.
		if np := trimTrailingAdverbs(takeNP(c.toks, c.verbAt+1)); judgedKind(np) {
			c.said.talk.lastKind, c.said.talk.lastKindEvent = np, c.said.event.ID
		}
		return
	}
	if c.verb == "stand" && !c.neg {
		return
	}
	if c.would {
		r.plans.planFrom(c, c.verb, c.verbAt+1)
		return
	}
	items := r.likeObject(c, c.verbAt+1)
	pred := tastePred(c.verb)
	strength := likeStrength[c.verb]
	if c.strong {
		strength = min(1, strength+0.1)
	}
	if c.weak {
		strength = 0.5
	}
	neg := c.neg || c.usedTo
	if c.verb == "stand" {
		neg = false // "can't stand" is the aversion itself
	}
	if k := r.tasteAntecedent(c, items); k != "" {
		c.emit(fx{pred: pred, obj: k, neg: neg, strength: strength, tmpl: r.likeTemplate(c, pred, neg), noDate: true, rank: 1})
		return
	}
	for _, np := range items {
		if len(np.toks) == 1 && isVagueGerund(np.toks[0].w) {
			continue // "I love making it better": nothing nameable
		}
		k, art := c.object(np, "", 0)
		if k == "" {
			continue
		}
		c.emit(fx{pred: pred, obj: k, neg: neg, strength: strength, tmpl: r.likeTemplate(c, pred, neg), art: art, noDate: true, rank: 1})
	}
}

// tastePred is the predicate of a verb of taste: an aversion for "hate",
// "dislike", "detest", "loathe", "despise" and "(can't) stand", a liking
// otherwise.
func tastePred(verb string) string {
	if alt("hate|dislike|detest|loathe|despise|stand", verb) {
		return "DISLIKES"
	}
	return "LIKES"
}

// triedKind: "I tried oysters once and hated them": a kind of thing tried
// is what an "it" or "them" of a taste joined to it judges. It states no
// taste itself.
func (r *tasteRules) triedKind(c *clause) {
	if c.neg || c.future || c.would || c.modal != "" || !c.past && !c.perfect {
		return
	}
	if np := trimTrailingAdverbs(takeNP(c.toks, c.verbAt+1)); judgedKind(np) {
		c.said.talk.lastKind, c.said.talk.lastKindEvent, c.said.talk.triedEvent = np, c.said.event.ID, c.said.event.ID
	}
}

// tasteAntecedent resolves "it" or "them" as the object of a liking to the
// thing of the taste said just before in the same message, when the
// clause marks a turn ("I used to hate olives, but now I love them", "I
// never liked jazz, now I adore it"): the same thing, turned around.
// Anything else ("I love it here") stays unread.
func (r *tasteRules) tasteAntecedent(c *clause, items []nounPhrase) string {
	if len(items) != 0 || !c.refersBackAt(c.verbAt+1) {
		return ""
	}
	return c.tasteRef()
}

// refersBackAt reports whether the "it" or "them" at i, the object of a
// taste, may stand for the thing said before it in the message: not a
// place or an event ("I love it here", "I love it when..."), and the
// clause marks a turn ("I used to hate olives, but now I love them"), is
// joined to the clause that named it ("my partner loves anchovies but I
// hate them"), or follows a kind asked back ("Opera? Love it.").
func (c *clause) refersBackAt(i int) bool {
	if !alt("it|them", c.at(i)) || alt("here|there|when|if|that", c.at(i+1)) {
		return false
	}
	return c.now || c.usedTo || c.again || c.cessation || c.coord || c.comma || c.said.talk.kindAsked == c.said.event.ID
}

// tasteRef is the thing an "it" or "they" of a taste stands for: the thing
// of the last liking or aversion said in this message, else the bare kind
// a clause of this message opened with. "" when there is none.
func (c *clause) tasteRef() string {
	talk := c.said.talk
	if talk.lastTasteEvent == c.said.event.ID && talk.lastTaste != "" {
		return talk.lastTaste
	}
	if talk.lastKindEvent == c.said.event.ID {
		k, _ := c.object(talk.lastKind, "", 0)
		return k
	}
	return ""
}

// pronounKind reads a clause opening with "it" or "they" that marks a turn
// ("now they taste awful to me", "they're not for me anymore") as the thing
// tasteRef names. "" when the clause opens otherwise or nothing is named.
func (c *clause) pronounKind(np nounPhrase) string {
	if len(np.toks) != 1 || !alt("it|they", np.toks[0].w) || !(c.now || c.cessation || c.again) {
		return ""
	}
	return c.tasteRef()
}

// rulePrefer: "I prefer aisle seats", "these days I prefer tea over coffee",
// "I prefer to travel by train".
func (r *tasteRules) rulePrefer(c *clause) {
	if c.future || c.past && !c.usedTo && !c.perfect {
		return
	}
	items := r.likeObject(c, c.verbAt+1)
	if len(items) == 0 {
		return
	}
	np := items[0]
	over := ""
	j := np.next
	switch {
	case alt("to|over|than", c.at(j)):
		j++
	case c.at(j) == "rather" && c.at(j+1) == "than", c.at(j) == "instead" && c.at(j+1) == "of":
		j += 2
	default:
		j = -1
	}
	if j > 0 {
		if other := takeNP(c.toks, j); usableObject(other) {
			over = other.surface()
		}
	}
	k, _ := c.object(np, "", 0)
	if k == "" {
		return
	}
	qual := preferenceSlot(np)
	neg := c.neg || c.usedTo
	tmpl := "{S} prefers {O}"
	switch {
	case c.usedTo:
		tmpl = "{S} used to prefer {O}"
	case neg:
		tmpl = "{S} no longer prefers {O}"
	case c.now:
		tmpl = "{S} now prefers {O}"
	}
	if over != "" && !neg {
		tmpl += " over " + over
	}
	c.emit(fx{pred: "PREFERS", obj: k, qual: qual, neg: neg, strength: 0.8, tmpl: tmpl, noDate: true, rank: 1})
	if over != "" && !neg {
		dispreferred(c, np, takeNP(c.toks, j), k, qual, "prefers", "over")
	}
}

// ruleConsume: "I drink coffee every morning", "I eat chicken again", "I
// don't drink coffee anymore" (LIKES with low strength; the negation is a
// cessation of liking).
func (r *tasteRules) ruleConsume(c *clause) {
	if r.consumeHyperbole(c) {
		return
	}
	if c.future || c.modal != "" || c.would || c.past && !c.usedTo && !c.perfect || c.progressive {
		return
	}
	if c.verb == "eat" && !c.neg && !c.usedTo {
		// "I eat pretty much everything": no restriction is a diet too
		for k := c.verbAt + 1; k < len(c.toks) && k < c.verbAt+4; k++ {
			if alt("everything|anything", c.at(k)) {
				c.emit(fx{pred: "HAS_DIET", obj: c.value("no dietary restrictions"), conf: 0.75,
					tmpl: "{S} eats everything ({O})", noDate: true})
				return
			}
		}
	}
	items, next := takeList(c.toks, c.verbAt+1)
	often := ""
	if f, _ := c.frequencyAt(next); f != "" {
		often = " " + f
	} else if c.seq(next, "most", "days") || c.seq(next, "a", "lot") || c.seq(next, "most", "weeks") {
		often = " " + words(c.toks[next:next+2])
	}
	for _, np := range items {
		k := consumedFood(c, np)
		if k == "" {
			continue
		}
		neg := c.neg || c.usedTo
		v := c.verb
		tmpl := "{S} " + thirdPersonOf(v) + " {O}"
		switch {
		case c.usedTo:
			tmpl = "{S} used to " + v + " {O}"
		case neg && c.cessation:
			tmpl = "{S} doesn't " + v + " {O} anymore"
		case neg:
			tmpl = "{S} doesn't " + v + " {O}"
		case c.again:
			tmpl = "{S} " + thirdPersonOf(v) + " {O} again"
		case often != "":
			tmpl += often // "eats meat most days"
		}
		c.emit(fx{pred: "LIKES", obj: k, neg: neg, strength: 0.5, conf: 0.8, tmpl: tmpl, noDate: true})
	}
}

// consumeHyperbole: "I could eat dumplings every day" says a liking; "I'd
// happily never eat quinoa again" and "I'll never drink tequila again" an
// aversion. Eating or drinking that is only supposed or to come says
// nothing of a habit (ruleConsume leaves it), but said this way it judges
// the food. "I could eat a horse" names no habit of any food, and "I'll
// never eat there again" no food.
func (r *tasteRules) consumeHyperbole(c *clause) bool {
	items, next := takeList(c.toks, c.verbAt+1)
	if len(items) == 0 {
		return false
	}
	pred, tmpl := "", ""
	switch {
	case c.modal == "could" && !c.neg && !c.past && (c.seq(next, "every", "day|night|meal|week|morning") || c.seq(next, "all", "day|week") ||
		c.at(next) == "forever" || c.seq(next, "for", "every", "meal") || c.seq(next, "for", "days")):
		pred, tmpl = "LIKES", "{S} could "+c.verb+" {O} every day"
	case (c.would || c.future) && c.neg && c.again:
		pred, tmpl = "DISLIKES", "{S} would never "+c.verb+" {O} again"
	default:
		return false
	}
	read := false
	for _, np := range items {
		np = trimTrailingAdverbs(np)
		if np.det == "a" || np.det == "an" {
			continue // "I could eat a horse"
		}
		k := consumedFood(c, np)
		if k == "" {
			continue
		}
		c.emit(fx{pred: pred, obj: k, strength: 0.7, conf: 0.75, tmpl: tmpl, noDate: true})
		read = true
	}
	return read
}

// consumedFood is the entity of a food or drink eaten or drunk (np, a
// kind known to the lexicon), "" for anything else: a name ("I eat at
// Dishoom"), a place or a thing no lexicon calls food.
func consumedFood(c *clause, np nounPhrase) string {
	if !usableObject(np) || np.hasName {
		return ""
	}
	if _, known := entityTypeOf(np.key()); !known && !foods[np.head()] && !drinks[np.head()] {
		return ""
	}
	k, _ := c.object(np, ontology.Food, 2)
	return k
}

// ruleSupport: "I support Arsenal", "I root for the Lakers", "my brother
// supports Chelsea".
func (r *tasteRules) ruleSupport(c *clause) {
	if c.future || c.modal != "" || c.would || c.progressive {
		return
	}
	i := c.verbAt + 1
	if c.verb != "support" {
		if c.at(i) != "for" && c.at(i) != "on" {
			return
		}
		i++
	}
	np := takeNP(c.toks, i)
	if !usableObject(np) || !np.hasName && !teamWords[np.key()] {
		return
	}
	if typ, ok := classify(np); ok && typ == ontology.Person {
		return
	}
	neg := c.neg || c.usedTo || c.past && !c.perfect
	k, _ := c.object(np, ontology.Organization, 2)
	tmpl := "{S} supports {O}"
	switch {
	case c.usedTo || c.past && !c.neg:
		tmpl = "{S} used to support {O}"
	case neg:
		tmpl = "{S} no longer supports {O}"
	}
	c.emit(fx{pred: "SUPPORTS", obj: k, neg: neg, tmpl: tmpl, noDate: true})
}

// fandom: "a (big) fan of X", "a X fan", "not a fan of X".
func (r *tasteRules) fandom(c *clause, i int, neg bool) bool {
	t := c.toks
	j := i
	if c.at(j) == "no" { // "I'm no fan of loud bars"
		neg = true
		j++
	}
	switch { // "I'm not much of a fan of horror films" ("much" may be read as an adverb of the verb)
	case c.seq(j, "much", "of"):
		j += 2
	case c.at(j) == "of" && j > 0 && c.at(j-1) == "much":
		j++
	}
	if alt("a|an|the", c.at(j)) {
		j++
	}
	for fanModifiers[c.at(j)] {
		j++
	}
	if c.at(j) == "sucker" && c.at(j+1) == "for" && !neg { // "I'm a sucker for a good crime drama"
		return r.emitTaste(c, j+2, "LIKES", "is a sucker for")
	}
	if c.at(j) == "fan" && c.at(j+1) == "of" {
		items, _ := takeList(t, j+2)
		for _, np := range items {
			r.fanOf(c, np, neg)
		}
		return len(items) > 0
	}
	// "a Chelsea fan", "a jazz fan"
	np := takeNP(t, j)
	if !np.empty() && np.head() == "fan" && len(np.toks) > 1 {
		inner := nounPhrase{toks: np.toks[:len(np.toks)-1], hasName: np.hasName, det: ""}
		r.fanOf(c, inner, neg)
		return true
	}
	// "a big coffee drinker", "not much of a beer drinker", "a chocolate
	// addict": what one consumes or is keen on, said by the consumer's
	// noun. The thing must be a noun ("a fussy eater" names none).
	if !np.empty() && tasteAgents[np.head()] && len(np.toks) > 1 && !np.hasName {
		inner := nounPhrase{toks: np.toks[:len(np.toks)-1], det: ""}
		if notTasteKinds[inner.toks[0].w] {
			return false
		}
		k, _ := c.object(inner, "", 0)
		if k == "" {
			return false
		}
		agent := np.lower()
		c.emit(fx{pred: "LIKES", obj: k, neg: neg, strength: 0.7, conf: 0.8,
			tmpl: pick(neg, "{S} is a "+agent+" (likes {O})", "{S} is not much of a "+agent+" (doesn't much like {O})")})
		return true
	}
	return false
}

// tooFrame: "window seats are too cramped" is the speaker's aversion.
func (r *tasteRules) tooFrame(c *clause) bool {
	t := c.toks
	np := takeNP(t, 0)
	if np.empty() || !usableObject(np) || np.det == "my" || np.det == "our" {
		return false
	}
	i, ok, neg, _ := c.copulaAt(np.next)
	if !ok || neg || c.at(i) != "too" || i+1 >= len(t) || t[i+1].kind != nlp.Word {
		return false
	}
	// "too much faff" says the aversion itself, so any kind will do; "too
	// short" needs a thing the lexicon knows ("Life's too short").
	hassle := c.at(i+1) == "much" && hassleNouns[c.at(i+2)]
	if typ, known := classify(np); typ == ontology.Person || len(np.toks) < 2 && !known && !(hassle && oneBareKind(np)) ||
		abstractObjects[np.head()] || notAversions[np.head()] {
		return false // "Life's too short" is not an aversion to life
	}
	adj := t[i+1].w
	if hassle {
		adj = "much " + c.at(i+2)
	}
	c.subj = c.said.speaker
	k, _ := c.object(np, "", 0)
	if k == "" {
		return false
	}
	c.emit(fx{subj: c.said.speaker, pred: "DISLIKES", obj: k, conf: 0.6, strength: 0.5, tmpl: "{S} finds {O} too " + adj, noDate: true})
	// A preference stated in the same message for the same kind of thing
	// is a preference over this one ("I prefer aisle seats, window seats
	// are too cramped").
	b := c.said.out
	for _, f := range b.facts {
		if f.pred == "PREFERS" && f.subj == c.said.speaker && f.pol == ontology.Positive && f.qual == np.head() &&
			contains(f.events, c.said.event.ID) && f.obj != k && !strings.Contains(f.tmpl, " over ") {
			f.tmpl += " over " + b.ents[k].name
		}
	}
	return true
}

// notForMeFrame: "Coffee isn't for me anymore", "spicy food is not for me".
func (r *tasteRules) notForMeFrame(c *clause) bool {
	np := takeNP(c.toks, 0)
	ref := ""
	if alt("it|they", c.at(0)) {
		np = nounPhrase{toks: c.toks[:1], next: 1}
		ref = c.pronounKind(np) // "they're not for me anymore"
		if ref == "" {
			return false
		}
	} else if np.empty() || !usableObject(np) || np.det == "my" || np.det == "our" {
		return false
	}
	n, ok, neg, _ := c.copulaAt(np.next)
	if !ok || !neg || c.at(n) != "for" || c.at(n+1) != "me" {
		return false
	}
	k := ref
	if k == "" {
		k, _ = c.object(np, "", 0)
	}
	if k == "" {
		return false
	}
	tmpl := "{S} doesn't like {O}"
	if c.cessation {
		tmpl = "{S} doesn't like {O} anymore"
	}
	c.emit(fx{subj: c.said.speaker, pred: "LIKES", obj: k, neg: true, strength: 0.6, tmpl: tmpl, noDate: true})
	return true
}

func (r *tasteRules) fanOf(c *clause, np nounPhrase, neg bool) {
	if teamWords[np.key()] || np.hasName && orgSuffixes[np.head()] {
		k, _ := c.object(np, ontology.Organization, 2)
		c.emit(fx{pred: "SUPPORTS", obj: k, neg: neg, tmpl: pick(neg, "{S} supports {O}", "{S} no longer supports {O}")})
		return
	}
	k, _ := c.object(np, "", 0)
	if k == "" {
		return
	}
	tmpl := "{S} is a fan of {O}"
	switch {
	case neg && c.cessation:
		tmpl = "{S} is no longer a fan of {O}"
	case neg:
		tmpl = "{S} is not a fan of {O}"
	}
	c.emit(fx{pred: "LIKES", obj: k, neg: neg, strength: 0.8, tmpl: tmpl})
}

// likeObjects emits a preference for every phrase of a list at i.
func (r *tasteRules) likeObjects(c *clause, i int, pred string, neg bool, strength float64, phrase string) {
	items, _ := takeList(c.toks, i)
	for _, np := range items {
		k, _ := c.object(np, "", 0)
		if k == "" {
			continue
		}
		tmpl := "{S} " + phrase + " {O}"
		if neg {
			tmpl = "{S} is no longer " + strings.TrimPrefix(phrase, "is ") + " {O}"
			if !c.cessation {
				tmpl = "{S} is not " + strings.TrimPrefix(phrase, "is ") + " {O}"
			}
		}
		c.emit(fx{pred: pred, obj: k, neg: neg, strength: strength, tmpl: tmpl})
	}
}

// likeObject reads what is liked at i: a gerund phrase ("going to the
// beach"), "to VERB ..." ("to paint" → "painting"), or a list of phrases.
func (r *tasteRules) likeObject(c *clause, i int) []nounPhrase {
	t := c.toks
	if c.at(i) == "to" {
		lemma, _, ok := verbOf(c.at(i + 1))
		if !ok {
			return nil
		}
		return []nounPhrase{c.gerundPhrase(gerund(lemma), i+2)}
	}
	if i < len(t) && isGerund(t[i]) {
		items, _ := takeList(t, i)
		return items
	}
	items, _ := takeList(t, i)
	return items
}

// likeTemplate phrases a liking with the speaker's own verb and markers.
func (r *tasteRules) likeTemplate(c *clause, pred string, neg bool) string {
	v := c.verb
	third := thirdPersonOf(v)
	adv := ""
	switch {
	case c.strong && !neg:
		adv = "really "
	case c.also && !neg:
		adv = "also "
	case c.now && !neg:
		adv = "now "
	}
	if v == "stand" {
		return "{S} can't stand {aO}"
	}
	switch {
	case c.usedTo:
		return "{S} used to " + v + " {aO}"
	case neg && pred == "DISLIKES":
		return "{S} no longer " + third + " {aO}"
	case neg && c.cessation && strings.Contains(c.clauseText(), "no longer"):
		return "{S} no longer " + third + " {aO}"
	case neg && c.cessation:
		return "{S} doesn't " + v + " {aO} anymore"
	case neg:
		return "{S} doesn't " + v + " {aO}"
	case c.again:
		return "{S} " + adv + third + " {aO} again"
	}
	return "{S} " + adv + third + " {aO}"
}

// preferenceSlot is the qualifier of a preference: the kind of thing
// preferred ("aisle seats" → "seat"; "green tea" → "drink"), so that
// preferring aisle seats replaces preferring window seats but not
// preferring tea.
func preferenceSlot(np nounPhrase) string {
	head := np.head()
	if len(np.toks) > 1 && !np.hasName && !strings.HasSuffix(np.toks[0].w, "ing") {
		return head
	}
	key := np.key()
	switch {
	case drinks[key] || drinks[head]:
		return "drink"
	case foods[key]:
		return "food"
	case strings.HasSuffix(np.toks[0].w, "ing"), activities[key]:
		return "activity"
	case musicGenres[key]:
		return "music"
	}
	return key
}

// isVagueGerund reports whether w is the -ing form of a verb too general to
// name an activity on its own ("making", "doing", "getting").
func isVagueGerund(w string) bool {
	lemma, f, ok := verbOf(w)
	return ok && f == formIng && vagueVerbs[lemma]
}
