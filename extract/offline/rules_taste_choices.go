package offline

import (
	"strings"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// Tastes said as choices. A preference is often not said with "prefer" or
// "like" but as the choice itself: what the speaker would rather have
// ("I'd rather listen to audiobooks than read"), demands ("give me trains
// over planes any day"), habitually picks ("I always order the veggie
// option", "I usually book a window seat") or keeps away from ("I avoid
// fizzy drinks now"). Each reads a shape of English, not a phrase; the
// chosen thing is read by the noun-phrase grammar like any other object.

// choiceVerbs may open what the speaker would rather have ("I'd rather
// have", "I'd rather listen to"); a bare noun phrase may follow "rather"
// too ("I'd rather tea, thanks").
var choiceVerbs = wordSet(`have,take,get,do,eat,drink,watch,listen,read,use,book,order,play,buy,wear,drive,
try,go,stick,see,hear,cook,make,learn,fly,travel`)

// habitChoiceVerbs are the verbs of a choice made again and again ("I
// always book an aisle seat", "I normally order the curry").
var habitChoiceVerbs = wordSet(`book,order,choose,pick,request,reserve,buy,get`)

// habitChoiceAdverbs make a choice a habit, and so a preference.
var habitChoiceAdverbs = wordSet(`always,usually,normally,generally,invariably,mostly,typically`)

// wouldRatherFrame: "I'd rather have tea than coffee", "these days I'd
// rather listen to podcasts", "I'd rather the train, honestly". The
// thing chosen is preferred; the thing it is chosen over, when said, is
// not. "I'd rather not", "I'd rather stay in" and "I'd rather you didn't"
// choose no thing and read nothing.
func (r *tasteRules) wouldRatherFrame(c *clause) bool {
	i := -1
	for k := 1; k < len(c.toks) && k < 6; k++ {
		if c.at(k) == "rather" && alt("would|'d|i'd|we'd", c.at(k-1)) {
			i = k + 1
			break
		}
	}
	if i < 0 || !alt("i|i'd|we|we'd", c.at(0)) || alt("not|you|he|she|they|we|it|die|be", c.at(i)) {
		return false
	}
	if lemma, _, ok := verbOf(c.at(i)); ok {
		if !choiceVerbs[lemma] {
			return false // "I'd rather stay in": a wish about what to do
		}
		i++
		if alt("to|for|with", c.at(i)) { // "listen to", "go for", "stick with"
			i++
		}
	}
	np := trimTrailingAdverbs(takeNP(c.toks, i))
	if alt("a|an", np.det) && c.at(np.next) != "as" {
		return false // "I'd rather read a book" or "have a nap" chooses one occasion, not a kind
	}
	qual := ""
	if !np.empty() {
		qual = preferenceSlot(np)
	}
	if c.at(np.next) == "as" && alt("a|an", c.at(np.next+1)) {
		// "I'd rather have the news as a podcast": the form chosen for
		// the thing is the preference, the thing its slot.
		if form := trimTrailingAdverbs(takeNP(c.toks, np.next+1)); usableObject(form) {
			qual, np = np.head(), form
		}
	}
	c.subj = c.said.speaker
	k := chosenKind(c, np, true)
	if k == "" {
		return false // "I'd rather order in" chooses no thing
	}
	j := np.next
	for k := 0; k < 2 && alt("now|these|days|nowadays|honestly|instead", c.at(j)); k++ {
		j++
	}
	tmpl := "{S} would rather have {O}"
	var other nounPhrase
	if c.at(j) == "than" {
		// "than read" sets a thing against an activity: nothing to disprefer.
		if o := trimTrailingAdverbs(takeNP(c.toks, j+1)); usableObject(o) && !pronounObjects[o.head()] &&
			!(len(o.toks) == 1 && isBaseVerb(o.head())) {
			other = o
			tmpl += " than " + o.surface()
		}
	}
	c.emit(fx{subj: c.said.speaker, pred: "PREFERS", obj: k, qual: qual, strength: 0.7, conf: 0.75, tmpl: tmpl, noDate: true, rank: 1})
	dispreferred(c, np, other, k, qual, "would rather have", "than")
	return true
}

// giveMeOverFrame: "give me the mountains over the beach any day", "give
// me a paperback over an e-reader": the speaker's preference said as a
// demand. Without "over" ("give me a minute") it is a request, not a
// taste.
func (r *tasteRules) giveMeOverFrame(c *clause) bool {
	if c.at(0) != "give" || c.at(1) != "me" {
		return false
	}
	np := trimTrailingAdverbs(takeNP(c.toks, 2))
	if c.at(np.next) != "over" {
		return false
	}
	other := trimTrailingAdverbs(takeNP(c.toks, np.next+1))
	if !usableObject(other) {
		return false
	}
	c.subj = c.said.speaker
	k := chosenKind(c, np, true)
	if k == "" {
		return false
	}
	qual := preferenceSlot(np)
	c.emit(fx{subj: c.said.speaker, pred: "PREFERS", obj: k, qual: qual, strength: 0.8, conf: 0.75,
		tmpl: "{S} prefers {O} over " + other.surface(), noDate: true, rank: 1})
	dispreferred(c, np, other, k, qual, "prefers", "over")
	return true
}

// dispreferred emits the speaker's preference against other, the thing np
// (entity k) was chosen over ("tea over coffee": not coffee), with the
// sentence "{S} <says> <np> <than> {O}". Nothing when other is empty or
// names the same thing.
func dispreferred(c *clause, np, other nounPhrase, k, qual, says, than string) {
	if other.empty() {
		return
	}
	if ok, _ := c.object(other, "", 0); ok != "" && ok != k {
		c.emit(fx{subj: c.said.speaker, pred: "PREFERS", obj: ok, qual: qual, neg: true, conf: 0.7, strength: 0.5,
			tmpl: "{S} " + says + " " + np.surface() + " " + than + " {O}", noDate: true})
	}
}

// chosenKind is the entity of np as a thing one can choose or keep away
// from: "" when np is empty, a pronoun or a person, or a place unless
// places count ("give me the mountains over the beach").
func chosenKind(c *clause, np nounPhrase, places bool) string {
	if np.empty() || !usableObject(np) || pronounObjects[np.head()] {
		return ""
	}
	if typ, _ := classify(np); typ == ontology.Person || typ == ontology.Place && !places {
		return ""
	}
	k, _ := c.object(np, "", 0)
	return k
}

// habitChoice: "I always book an aisle seat", "we usually order the
// veggie curry", "these days I always choose the stairs". A choice made
// habitually is a preference for the kind of thing chosen; a single
// choice ("I booked a table for Friday") is an errand and stays unread.
func (r *tasteRules) habitChoice(c *clause) bool {
	if c.subj != c.said.speaker || c.neg || c.future || c.would || c.modal != "" || c.progressive ||
		c.past && !c.usedTo || !habitChoiceVerbs[c.verb] {
		return false
	}
	if c.verbAt == 0 || !habitChoiceAdverbs[c.toks[c.verbAt-1].w] {
		return false
	}
	np := trimTrailingAdverbs(takeNP(c.toks, c.verbAt+1))
	if abstractObjects[np.head()] {
		return false
	}
	k := chosenKind(c, np, false)
	if k == "" {
		return false
	}
	tmpl := "{S} always goes for {O}"
	if c.usedTo {
		tmpl = "{S} used to go for {O}"
	}
	c.emit(fx{pred: "PREFERS", obj: k, qual: preferenceSlot(np), neg: c.usedTo, strength: 0.7, conf: 0.7, tmpl: tmpl, noDate: true, rank: 1})
	return true
}

// avoidTaste: "I avoid alcohol now", "I've been avoiding sugar", "I steer
// clear of spicy food": the speaker keeps away from a kind of thing, the
// end of any liking for it. A thing avoided once ("I avoided the traffic")
// or a person or place avoided is no taste.
func (r *tasteRules) avoidTaste(c *clause) bool {
	if c.subj != c.said.speaker || c.neg || c.future || c.would || c.modal != "" || c.past && !c.perfect && !c.now {
		return false
	}
	i := c.verbAt + 1
	if c.verb == "steer" {
		if !c.seq(i, "clear", "of") {
			return false
		}
		i += 2
	}
	toks := c.toks
	for j := i + 1; j+2 < len(toks); j++ {
		if c.seq(j, "like", "the", "plague") {
			toks = toks[:j] // "I avoid energy drinks like the plague": the idiom is no part of the thing
			break
		}
	}
	np := trimTrailingAdverbs(takeNP(toks, i))
	if np.det != "" && !alt("any|all", np.det) || notAversions[np.head()] || abstractObjects[np.head()] {
		return false // "I avoid my ex", "the traffic": one thing, not a kind
	}
	k := chosenKind(c, np, false)
	if k == "" {
		return false
	}
	c.emit(fx{pred: "LIKES", obj: k, neg: true, strength: 0.6, conf: 0.7, tmpl: "{S} avoids {O}", noDate: true, rank: 1})
	return true
}

// replyVerbs are what a speaker asks the assistant to do in a language.
var replyVerbs = wordSet(`answer,reply,respond,write,talk,speak,text,chat`)

// requestLead may come before the verb of a standing request to the
// assistant ("from now on please answer me in Spanish", "could you always
// reply in French").
var requestLead = wordSet(`please,from,now,on,always,can,could,would,will,you,kindly,just,only,pls,in,future,the`)

// replyLanguageFrame: "please answer me in Spanish from now on", "could
// you always reply in French", "write to me in German please": a standing
// request for the language of replies, which an assistant must remember
// as the user's preference. A one-off ("how do I say hello in Spanish")
// has no reply verb in the imperative and reads nothing.
func (r *tasteRules) replyLanguageFrame(c *clause) bool {
	v := 0
	for v < len(c.toks) && v < 6 && requestLead[c.at(v)] {
		v++
	}
	if v >= len(c.toks) || !replyVerbs[c.at(v)] || v > 0 && c.at(v-1) == "to" {
		return false
	}
	i := v + 1
	switch {
	case c.at(i) == "me" || c.at(i) == "back":
		i++
	case c.at(i) == "to" && c.at(i+1) == "me":
		i += 2
	}
	if c.at(i) != "in" || !languages[c.at(i+1)] || c.at(i+2) != "" && !alt("please|from|now|only|always|,|.|!|thanks|thank|instead|too", c.at(i+2)) {
		return false
	}
	np := nounPhrase{toks: c.toks[i+1 : i+2], next: i + 2}
	c.subj = c.said.speaker
	k, _ := c.object(np, "", 0)
	if k == "" {
		return false
	}
	c.emit(fx{subj: c.said.speaker, pred: "PREFERS", obj: k, qual: "reply language", strength: 0.8, conf: 0.8,
		tmpl: "{S} wants replies in {O}", noDate: true, rank: 1})
	return true
}

// replyNouns are what the assistant gives back: the things a reply-style
// preference is about.
var replyNouns = wordSet(`answers,answer,replies,reply,responses,response,explanations,explanation`)

// replyStyleFrame: "please keep your answers short", "I'd like longer,
// detailed explanations from now on", "give me short answers": a standing
// request for the style of replies, which an assistant must remember as
// the user's preference (qualifier "reply style": a newer style replaces
// the older). The described thing is the reply noun with its adjectives
// ("short answers"). Only the speaker's own requests to the assistant
// count: "her answers were short" names no request.
func (r *tasteRules) replyStyleFrame(c *clause) bool {
	v := 0
	for v < len(c.toks) && v < 6 && requestLead[c.at(v)] {
		v++
	}
	var adjs []string
	var noun string
	switch {
	case c.at(v) == "keep" || c.at(v) == "make":
		// "keep your answers short", "make the replies shorter"
		i := v + 1
		if alt("your|the|all|my", c.at(i)) {
			i++
		}
		if !replyNouns[c.at(i)] {
			return false
		}
		noun = c.at(i)
		for j := i + 1; j < len(c.toks) && j < i+6 && (styleAdjective(c.at(j)) || alt(",|and|more|nice", c.at(j))); j++ {
			if styleAdjective(c.at(j)) {
				adjs = append(adjs, c.at(j))
			}
		}
	case c.said.speaker != "" && (c.seq(v, "i", "'d", "like") || c.seq(v, "i", "would", "like") || c.seq(v, "i", "want") ||
		c.seq(v, "i", "prefer") || c.seq(v, "i", "'d", "prefer") || c.seq(v, "i", "would", "prefer") || c.at(v) == "give" && c.at(v+1) == "me"):
		i := v + 2
		if c.at(v+2) == "like" || c.at(v+2) == "prefer" {
			i = v + 3
		}
		for ; i < len(c.toks) && (styleAdjective(c.at(i)) || c.at(i) == "," || c.at(i) == "and" || c.at(i) == "more"); i++ {
			if styleAdjective(c.at(i)) {
				adjs = append(adjs, c.at(i))
			}
		}
		if !replyNouns[c.at(i)] || c.at(i+1) == "of" || c.at(i+1) == "to" {
			return false // "I'd like answers to my questions", "explanations of X": no style
		}
		noun = c.at(i)
	default:
		return false
	}
	if len(adjs) == 0 || noun == "" {
		return false
	}
	var words []tok
	for _, w := range append(adjs, replyPlural(noun)) {
		words = append(words, tok{w: w, orig: w, kind: nlp.Word})
	}
	c.subj = c.said.speaker
	k, _ := c.object(nounPhrase{toks: words, next: len(c.toks)}, ontology.Concept, 0)
	if k == "" {
		return false
	}
	c.emit(fx{subj: c.said.speaker, pred: "PREFERS", obj: k, qual: "reply style", strength: 0.8, conf: 0.8,
		tmpl: "{S} wants {O}", noDate: true, rank: 1})
	return true
}

// replyPlural names a reply noun in the plural: the preference is about
// replies in general ("short answers").
func replyPlural(n string) string {
	switch {
	case strings.HasSuffix(n, "s"):
		return n
	case strings.HasSuffix(n, "y"):
		return strings.TrimSuffix(n, "y") + "ies"
	}
	return n + "s"
}

// styleAdjective reports whether w describes the form of a reply.
func styleAdjective(w string) bool {
	return replyStyles[w]
}

// replyStyles are the adjectives of a reply's form.
var replyStyles = wordSet(`short,shorter,brief,briefer,concise,long,longer,detailed,thorough,simple,simpler,plain,
formal,informal,casual,technical,step-by-step,quick,quicker,clear,clearer,friendly,blunt,direct,in-depth,fuller,full`)

// howILikeFrame: "medium-well is how I want my steak these days", "black is
// how I take my coffee": the way the speaker has a thing, preferred
// (PREFERS, qualified by the thing).
func (r *tasteRules) howILikeFrame(c *clause) bool {
	if c.said.speaker == "" || c.neg || c.hedge {
		return false
	}
	np := takeNP(c.toks, 0)
	if np.empty() || np.det != "" {
		return false
	}
	i := np.next
	if c.at(i) != "is" && c.at(i) != "'s" || c.at(i+1) != "how" || c.at(i+2) != "i" ||
		!alt("like|want|take|have|prefer|order|drink|eat", c.at(i+3)) {
		return false
	}
	if c.at(i+4) != "my" {
		return false // "strong is how I like it": the thing is elsewhere
	}
	thing := takeNP(c.toks, i+5)
	if thing.empty() {
		return false
	}
	qual := thing.surface()
	c.subj = c.said.speaker
	k, _ := c.object(np, ontology.Concept, 0)
	if k == "" {
		return false
	}
	c.emit(fx{subj: c.said.speaker, pred: "PREFERS", obj: k, qual: strings.ToLower(qual), strength: 0.8, conf: 0.75,
		tmpl: "{S} prefers {O}", noDate: true, rank: 1})
	return true
}

// keepReachingFor: "I keep reaching for Rui Kanemoto", "I keep going back
// to that ramen place", "these days it's oat milk I keep coming back to":
// a habit of choosing one thing over and over says the speaker likes it.
func (r *tasteRules) keepReachingFor(c *clause) bool {
	if c.subj != c.said.speaker || c.neg || c.future || c.would || c.modal != "" || c.past && !c.perfect {
		return false
	}
	i := c.verbAt + 1
	switch {
	case c.seq(i, "reaching", "for"), c.seq(i, "returning", "to"):
		i += 2
	case c.seq(i, "going", "back", "to"), c.seq(i, "coming", "back", "to"):
		i += 3
	default:
		return false
	}
	np := takeNP(c.toks, i)
	if !usableObject(np) || abstractObjects[np.head()] || alt("my|our|his|her|their|your", np.det) {
		return false // "I keep reaching for my phone" is a habit, not a taste
	}
	r.likeObjects(c, i, "LIKES", false, 0.8, "keeps "+words(c.toks[c.verbAt+1:i]))
	return true
}
