package offline

import (
	"slices"
	"strings"

	"github.com/graphmem/graphmem/ontology"
)

// More constructions of taste, each a shape of English rather than a
// phrase: the thing acting on the speaker ("audiobooks put me to sleep",
// "board games bore me", "jazz does nothing for me"), the speaker's own
// kind of thing ("spicy food is my thing", "football isn't my thing"), a
// liking begun or lost ("I've started to love the cold", "I've learned to
// like olives", "I've lost interest in golf"), and an aversion said with a
// verb of enduring ("I can't handle spicy food anymore"). The words are in
// lexicon_turnarounds.go.

// actsOnMeFrame: "X bores me", "X puts me to sleep", "X does nothing for
// me", "X grates on me", "X delights me". The subject must be a kind of
// thing (judgedKind): "the film bored me" is one occasion, not a taste.
func (r *tasteRules) actsOnMeFrame(c *clause) bool {
	t := c.toks
	v := 1
	for v < len(t) && v < 7 && actingPolarity(c, v) == 0 {
		v++
	}
	if v >= len(t) || v >= 7 {
		return false
	}
	pol := actingPolarity(c, v)
	np, ok := subjectBefore(t, v, "really|just|always|still|kind|sort|honestly")
	// A single mass noun ("coffee", "jazz") is a kind too when the words
	// can only judge a kind ("does nothing for me", "isn't doing it for
	// me") or the clause marks a change ("opera bores me now").
	kind := judgedKind(np) || oneBareKind(np) && (alt("does|do|is|are|doesn't|don't", t[v].w) || c.cessation || c.now ||
		c.seq(v+1, "my", "stomach")) // "durian turns my stomach": only a kind of thing does
	if !ok || !kind {
		return false
	}
	phrase := pick(pol < 0, "enjoys {O}", "doesn't enjoy {O}")
	if pol < 0 && c.cessation {
		phrase = "no longer enjoys {O}"
	}
	return r.judge(c, np, pol, phrase)
}

// noMoreFrame: "no more cheese for me", "so no more late-night takeaways
// for me": a thing given up, said without a verb.
func (r *tasteRules) noMoreFrame(c *clause) bool {
	i := 0
	for i < len(c.toks) && !c.seq(i, "no", "more") {
		i++
	}
	if i >= len(c.toks) {
		return false
	}
	np := takeNP(c.toks, i+2)
	if c.seq(np.next, "for", "me") && judgedKind(np) || oneBareKind(np) && c.seq(np.next, "for", "me") {
		k, _ := c.object(np, "", 0)
		if k == "" {
			return false
		}
		subj := c.subj
		c.subj = c.said.speaker
		c.emit(fx{subj: c.said.speaker, pred: "LIKES", obj: k, neg: true, conf: 0.7, strength: 0.6, tmpl: "{S} has given up {O} (no more for them)", noDate: true})
		c.subj = subj
		return i <= 1 // "I've gone vegan so no more cheese for me": the clause's own rules read the rest

	}
	return false
}

// replacedFrame: "cycling has replaced running for me", "oat milk has
// replaced cow's milk in my coffee", "tea has taken over from coffee as
// my morning drink": the newer taste in, the older out.
func (r *tasteRules) replacedFrame(c *clause) bool {
	np := takeNP(c.toks, 0)
	if !judgedKind(np) && !oneBareKind(np) {
		return false
	}
	i := np.next
	if alt("has|have|'s|'ve", c.at(i)) {
		i++
	}
	switch {
	case alt("replaced|replace|replaces", c.at(i)):
		i++
	case alt("taken|took", c.at(i)) && c.seq(i+1, "over", "from"):
		i += 3
	default:
		return false
	}
	old := takeNP(c.toks, i)
	if !judgedKind(old) && !oneBareKind(old) || !(c.seq(old.next, "for", "me") || alt("as|in", c.at(old.next)) && alt("my|our", c.at(old.next+1))) {
		return false // "the new system replaced the old one": no taste of the speaker's
	}
	k, _ := c.object(np, "", 0)
	ko, _ := c.object(old, "", 0)
	if k == "" || ko == "" {
		return false
	}
	c.subj = c.said.speaker
	c.emit(fx{subj: c.said.speaker, pred: "LIKES", obj: k, conf: 0.75, strength: 0.7, tmpl: "{S} now prefers {O} (it replaced " + old.surface() + ")", noDate: true})
	c.emit(fx{subj: c.said.speaker, pred: "LIKES", obj: ko, neg: true, conf: 0.7, strength: 0.6, tmpl: "{S} no longer likes {O} as much (replaced by " + np.surface() + ")", noDate: true})
	return true
}

// actingPolarity reads a verb of the thing acting on the speaker at v:
// +1, -1, or 0 when there is none.
func actingPolarity(c *clause, v int) int {
	w := c.at(v)
	switch {
	case actsOnMeNegative[w] && c.at(v+1) == "me":
		return -1
	case actsOnMePositive[w] && c.at(v+1) == "me":
		return 1
	case alt("puts|put|send|sends", w) && c.seq(v+1, "me", "to", "sleep"):
		return -1
	case alt("does|do", w) && c.seq(v+1, "nothing", "for", "me"):
		return -1
	case alt("doesn't|don't", w) && c.seq(v+1, "do", "anything", "for", "me"):
		return -1
	case alt("doesn't|don't", w) && c.seq(v+1, "do", "it", "for", "me"), alt("does|do", w) && c.seq(v+1, "not", "do", "it", "for", "me"):
		return -1 // "sushi doesn't do it for me anymore"
	case alt("does|do", w) && c.seq(v+1, "it", "for", "me"):
		return 1 // "jazz really does it for me"
	case alt("isn't|aren't", w) && c.seq(v+1, "doing", "it", "for", "me"), alt("is|are|'s|'re", w) && c.seq(v+1, "not", "doing", "it", "for", "me"):
		return -1 // "coffee just isn't doing it for me anymore"
	case alt("grates|grate", w) && c.seq(v+1, "on", "me"):
		return -1
	case alt("leaves|leave", w) && c.seq(v+1, "me", "cold"):
		return -1 // "minimalism leaves me cold"
	case alt("puts|put|turns|turn", w) && c.seq(v+1, "me", "off"):
		return -1 // "rare steak puts me off now"
	case alt("gets|get", w) && c.seq(v+1, "on", "my", "nerves"):
		return -1
	case alt("suits|suit", w) && c.at(v+1) == "me" && !alt("to|for", c.at(v+2)):
		return 1 // "streaming suits me better now"; not "suits me for work" (a use)
	case alt("works|work", w) && c.seq(v+1, "for", "me") && c.at(v+3) != "as":
		return 1 // "audiobooks work for me"
	case alt("makes|make", w) && c.seq(v+1, "me") && alt("sick|gag|cringe|queasy|nauseous", c.at(v+2)):
		return -1
	case alt("turns|turn", w) && c.seq(v+1, "my", "stomach"), alt("makes|make", w) && c.seq(v+1, "my", "skin", "crawl"):
		return -1 // "durian turns my stomach"
	case alt("makes|make", w) && c.seq(v+1, "me") && alt("happy|smile", c.at(v+2)):
		return 1
	}
	return 0
}

// myThingFrame: "spicy food is my thing", "football is life", "cycling is
// my jam", "lino printing is my new obsession"; "opera isn't my thing",
// "golf is not my cup of tea".
func (r *tasteRules) myThingFrame(c *clause) bool {
	// The construction itself says taste, so any bare kind will do
	// ("karaoke"), not only those judgedKind knows.
	np := takeNP(c.toks, 0)
	if np.empty() || np.det != "" || !usableObject(np) || pronounObjects[np.head()] {
		return false
	}
	if typ, _ := classify(np); typ == ontology.Person || typ == ontology.Place {
		return false
	}
	n, ok, neg, _ := c.copulaAt(np.next)
	usedTo := false
	if !ok && c.seq(np.next, "used", "to", "be") {
		n, ok, usedTo = np.next+3, true, true // "sushi used to be my thing"
	}
	if !ok && (alt("in|on|at|with|by|before|after|without", c.at(np.next)) && strings.HasSuffix(np.toks[0].w, "ing") ||
		c.at(np.next) == "about") { // "podcasts about history are my jam"
		// An activity with its circumstance: "hiking in the rain isn't
		// my thing", "swimming before work is my jam".
		if pp := takeNP(c.toks, np.next+1); !pp.empty() {
			if n, ok, neg, _ = c.copulaAt(pp.next); ok {
				np = nounPhrase{toks: c.toks[:pp.next], next: pp.next}
			}
		}
	}
	if !ok {
		return false
	}
	tasteNouns := "thing|jam|passion|weakness|obsession|addiction|pleasure"
	mine := c.seq(n, "my", tasteNouns) ||
		c.seq(n, "my", "new|latest|current|big|biggest|real|true|guilty", tasteNouns) || // "my new obsession"
		c.seq(n, "my", "happy", "place") || c.seq(n, "my", "idea", "of", "heaven|bliss|fun|paradise|a") && c.at(n+4) != "nightmare" ||
		c.seq(n, "a", "must", "for", "me") || // "karaoke is my idea of fun", "coffee is a must for me"
		c.seq(n, "right|just|totally|exactly", "up", "my", "street|alley") || c.seq(n, "up", "my", "street|alley") || // "bouldering is right up my street"
		c.seq(n, "a", "revelation") || c.seq(n, "a", "total|real|complete", "revelation") // "pho was a revelation"
	hell := c.seq(n, "my", "idea", "of", "hell|torture") || c.seq(n, "my", "idea", "of", "a", "nightmare") || // "karaoke is my idea of hell"
		c.seq(n, "a", "no", "from|for", "me") || c.seq(n, "a", "hard|firm|big|definite", "no", "from|for", "me") // "marmite is a hard no from me"
	switch {
	case mine || hell || c.seq(n, "life") && c.at(n+1) == "":
	case c.seq(n, "my", "cup", "of", "tea") && neg:
	default:
		return false
	}
	if usedTo {
		// a former taste: ended, not turned into an aversion
		if !mine || hell {
			return false
		}
		k, _ := c.object(np, "", 0)
		if k == "" {
			return false
		}
		c.subj = c.said.speaker
		c.emit(fx{subj: c.said.speaker, pred: "LIKES", obj: k, neg: true, conf: 0.7, tmpl: "{S} used to love {O}"})
		return true
	}
	if c.seq(n, "my", "cup", "of", "tea") || hell != neg {
		return r.judge(c, np, -1, "doesn't care for {O}")
	}
	return r.judge(c, np, 1, "loves {O}")
}

// kindOfPersonFrame: "I'm a dog person", "I'm not really a cat person",
// "I'm a morning person now", "I was never a cider person", "I've never
// been a beer person". A kind one was, with no "never" ("I was a cat
// person as a kid"), says nothing of now.
func (r *tasteRules) kindOfPersonFrame(c *clause) bool {
	if !alt("i|i'm|im|i've", c.at(0)) {
		return false
	}
	i, past := 1, false
	switch {
	case c.at(0) == "i" && alt("am|'m", c.at(1)):
		i = 2
	case c.at(0) == "i" && c.at(1) == "was":
		i, past = 2, true
	case c.at(0) == "i" && c.at(1) == "have" && c.at(2) == "never" && c.at(3) == "been":
		i, past = 4, true
	case c.at(0) == "i've" && c.at(1) == "never" && c.at(2) == "been":
		i, past = 3, true
	case c.at(0) == "i" || c.at(0) == "i've":
		return false
	}
	if past && i == 2 && !alt("never|not", c.at(2)) {
		return false // "I was a cat person as a kid"
	}
	neg := past && i > 2 // "I've never been a beer person"
	for k := 0; k < 4 && alt("not|really|never|honestly|definitely|totally|such|now|more|of", c.at(i)); k++ {
		neg = neg || alt("not|never", c.at(i))
		i++
	}
	if !alt("a|an", c.at(i)) || c.at(i+2) != "person" || c.at(i+1) == "" {
		return false
	}
	kind := c.toks[i+1 : i+2]
	if alt("people|good|nice|bad|private|shy|kind|different|new|better|the|same", kind[0].w) {
		return false // "a people person", "a good person": character, not taste
	}
	np := nounPhrase{toks: kind, next: i + 2}
	k, _ := c.object(np, "", 0)
	if k == "" {
		return false
	}
	c.subj = c.said.speaker
	if neg {
		c.emit(fx{subj: c.said.speaker, pred: "DISLIKES", obj: k, conf: 0.7, strength: 0.6, tmpl: "{S} is not a {O} person"})
	} else {
		c.emit(fx{subj: c.said.speaker, pred: "LIKES", obj: k, conf: 0.7, strength: 0.7, tmpl: "{S} is a {O} person"})
	}
	return true
}

// lostInterest: "I've lost interest in golf", "I lost my taste for beer".
func (r *tasteRules) lostInterest(c *clause) bool {
	i := c.verbAt + 1
	switch {
	case c.seq(i, "interest", "in"):
		i += 2
	case alt("all|any|much", c.at(i)) && c.seq(i+1, "interest", "in"): // "lost all interest in running"
		i += 3
	case c.seq(i, "my", "taste|appetite", "for"):
		i += 3
	default:
		return false
	}
	if c.neg || c.future || c.modal != "" || !(c.past || c.perfect) {
		return false
	}
	return r.emitTaste(c, i, "DISLIKES", "has lost interest in")
}

// begunToLike: "I've started to love the cold", "I've learned to like
// olives", "I've come to enjoy opera", "I'm beginning to like jazz".
func (r *tasteRules) begunToLike(c *clause) bool {
	i := c.verbAt + 1
	if c.neg || c.future || c.modal != "" {
		return false
	}
	// "started liking blue cheese", "began enjoying opera": the gerund
	// says the same as "to like".
	if lemma, form, ok := verbOf(c.at(i)); ok && form == formIng && alt("like|love|enjoy|appreciate|hate|dislike|loathe|detest", lemma) &&
		(c.verb == "start" || c.verb == "begin") {
		pred := "LIKES"
		if alt("hate|dislike|loathe|detest", lemma) {
			pred = "DISLIKES"
		}
		return r.emitTaste(c, i+1, pred, "has come to "+lemma)
	}
	if c.at(i) != "to" || !alt("like|love|enjoy|appreciate|hate|dislike|loathe|detest", c.at(i+1)) {
		return false
	}
	pred, phrase := "LIKES", "has come to "+c.at(i+1)
	if alt("hate|dislike|loathe|detest", c.at(i+1)) {
		pred = "DISLIKES"
	}
	return r.emitTaste(c, i+2, pred, phrase)
}

// cannotEndure: "I can't handle spicy food anymore", "I can't bear
// musicals", "I can't stomach coffee". ("can't stand" is ruleLike's.)
func (r *tasteRules) cannotEndure(c *clause) bool {
	if !c.neg || c.modal == "" && !c.cessation || c.future {
		return false
	}
	if c.verb == "do" && !c.cessation {
		return false // "I can't do yoga because of my knee" is an ability; "I can't do musicals anymore" a taste lost
	}
	return r.emitTaste(c, c.verbAt+1, "DISLIKES", "can't "+c.verb)
}

// emitTaste emits pred for every kind of thing listed at i, without the
// adverbs that trail it ("sushi completely", "jazz anymore").
func (r *tasteRules) emitTaste(c *clause, i int, pred, phrase string) bool {
	items, _ := takeList(c.toks, i)
	if len(items) == 0 && alt("it|them", c.at(i)) || len(items) == 1 && len(items[0].toks) == 1 && alt("it|them", items[0].toks[0].w) {
		// "I used to hate olives, but now I can't get enough of them":
		// the thing of the taste turned around, when the clause marks
		// the turn
		// or when the clause joins the one that named it ("My partner
		// loves anchovies but I can't bear them", "tried oysters and
		// hated them")
		if k := c.tasteRef(); k != "" && c.refersBackAt(i) {
			c.emit(fx{pred: pred, obj: k, conf: 0.7, strength: 0.7, tmpl: "{S} " + phrase + " {O}", noDate: true})
			return true
		}
		return false
	}
	done := false
	for _, np := range items {
		np = trimTrailingAdverbs(np)
		if np.empty() {
			continue
		}
		if typ, _ := classify(np); typ == ontology.Person {
			continue
		}
		k, _ := c.object(np, "", 0)
		if k == "" {
			continue
		}
		c.emit(fx{pred: pred, obj: k, conf: 0.75, strength: 0.7, tmpl: "{S} " + phrase + " {O}", noDate: true})
		done = true
	}
	return done
}

// trimTrailingAdverbs drops the adverbs a noun phrase may have swallowed at
// its end ("sushi completely", "spicy food anymore").
func trimTrailingAdverbs(np nounPhrase) nounPhrase {
	for len(np.toks) > 1 && (evalAdverbs[np.toks[len(np.toks)-1].w] || trailingAdverbs[np.toks[len(np.toks)-1].w]) {
		np.toks = np.toks[:len(np.toks)-1]
	}
	return np
}

// grownFond: "I've grown fond of opera", "I became obsessed with padel",
// "I got hooked on crosswords", "I've got really into bouldering": a verb
// of becoming before an adjective of liking (likeAdjectives) says the
// liking began, as "be" says it holds.
func (r *tasteRules) grownFond(c *clause) bool {
	if c.neg || c.future || c.modal != "" || c.would {
		return false
	}
	if c.verb == "have" && c.at(c.verbAt) != "got" {
		return false // "have got" is read as "have": "I've got into bouldering" becomes, "I have a dog" does not
	}
	if c.verb != "get" && !(c.past || c.perfect || c.progressive || c.now) {
		return false // "children grow fond of..." in the present is a generality
	}
	i := c.verbAt + 1
	for i < c.verbAt+3 && alt("really|very|quite|so|totally|rather|pretty|properly|a|bit|little", c.at(i)) {
		i++
	}
	adj := c.at(i)
	switch {
	case adj == "into":
		// "got into pottery" takes to a pastime; "got into an accident",
		// "a fight", "the habit" or "college" is an event or a place.
		if np := takeNP(c.toks, i+1); np.det != "" || intoNotTastes[np.head()] {
			return false
		}
		return r.emitTaste(c, i+1, "LIKES", "has got into")
	case likeAdjectives[adj] != "" && alt(likeAdjectives[adj], c.at(i+1)):
		return r.emitTaste(c, i+2, "LIKES", "has become "+adj+" "+c.at(i+1))
	}
	return false
}

// developedTaste: "I've developed a taste for blue cheese", "I acquired a
// real liking for opera".
func (r *tasteRules) developedTaste(c *clause) bool {
	if c.neg || c.future || c.modal != "" || !(c.past || c.perfect || c.progressive) {
		return false
	}
	i := c.verbAt + 1
	if !alt("a|an", c.at(i)) {
		return false
	}
	i++
	if alt("real|strong|new|big|serious|genuine|bit|sudden|proper", c.at(i)) && c.at(i+1) != "for" {
		i++
	}
	if c.at(i) == "of" { // "a bit of a taste for"
		i++
		if alt("a|an", c.at(i)) {
			i++
		}
	}
	if !tasteNounsFor[c.at(i)] || c.at(i+1) != "for" {
		return false
	}
	return r.emitTaste(c, i+2, "LIKES", "has developed a "+c.at(i)+" for")
}

// haveForTaste: "I have no patience for golf", "I've no interest in
// reality TV", "I have a soft spot for dumplings", "I have a weakness for
// pastries". The speaker's own "have" only.
func (r *tasteRules) haveForTaste(c *clause) bool {
	if c.subj != c.said.speaker || c.future || c.modal != "" || c.past && !c.perfect && !c.now {
		return false
	}
	i := c.verbAt + 1
	switch {
	// Not "no time for": "I have no time for lunch today" is a busy day.
	case c.at(i) == "no" && alt("patience|love|stomach|interest|appetite", c.at(i+1)) && alt("for|in", c.at(i+2)):
		return r.emitTaste(c, i+3, "DISLIKES", "has no "+c.at(i+1)+" for")
	case c.neg && alt("much|any", c.at(i)) && alt("patience|love|stomach|interest|appetite", c.at(i+1)) && alt("for|in", c.at(i+2)):
		return r.emitTaste(c, i+3, "DISLIKES", "has no "+c.at(i+1)+" for")
	case c.neg:
		return false
	case c.seq(i, "a", "soft", "spot", "for"):
		return r.emitTaste(c, i+4, "LIKES", "has a soft spot for")
	case alt("a|an", c.at(i)) && alt("weakness|penchant|taste|liking|fondness|passion|craving", c.at(i+1)) && c.at(i+2) == "for":
		return r.emitTaste(c, i+3, "LIKES", "has a "+c.at(i+1)+" for")
	case alt("a|an", c.at(i)) && alt("real|big|huge|serious|strong", c.at(i+1)) && alt("weakness|penchant|taste|liking|fondness|passion|craving", c.at(i+2)) && c.at(i+3) == "for":
		return r.emitTaste(c, i+4, "LIKES", "has a "+c.at(i+2)+" for")
	}
	return false
}

// nothingBeatsFrame: "nothing beats a good cup of rooibos", "nothing
// tops pho", "you can't beat a Sunday roast", "nothing compares to jazz
// on vinyl", "there's nothing better than a cold beer", "give me a good
// thriller any day".
func (r *tasteRules) nothingBeatsFrame(c *clause) bool {
	i := 0
	end := len(c.toks) // the frame's closing words ("any day") are no part of the thing
	switch {
	case c.at(0) == "nothing" && alt("beats|tops|beat|top", c.at(1)):
		i = 2
	case c.at(0) == "nothing" && alt("compares|comes", c.at(1)) && alt("to|close", c.at(2)):
		i = 3
		if c.at(2) == "close" && c.at(3) == "to" {
			i = 4
		}
	case c.at(0) == "you" && alt("can't|cannot", c.at(1)) && c.at(2) == "beat":
		i = 3
	case c.at(0) == "you" && c.seq(1, "can", "not", "beat"):
		i = 4
	case c.seq(0, "there's|theres|nothing's", "nothing|better", "better|than"), c.seq(0, "there", "is", "nothing", "better"):
		// "there's nothing better than a cold beer after a run"
		i = 1
		for i < 5 && c.at(i) != "than" {
			i++
		}
		if c.at(i) != "than" {
			return false
		}
		i++
	case c.seq(0, "give", "me") && (c.seq(len(c.toks)-2, "any", "day") || c.seq(len(c.toks)-2, "every", "time")) &&
		!slices.ContainsFunc(c.toks, func(t tok) bool { return alt("over|than|instead", t.w) }):
		// "give me a good thriller any day" (a choice between two,
		// "give me a paperback over an e-reader", is giveMeOverFrame's)
		i, end = 2, len(c.toks)-2
	default:
		return false
	}
	read := c
	if end < len(c.toks) {
		cut := *c // the thing read without the closing words
		cut.toks = c.toks[:end]
		read = &cut
	}
	np := takeNP(read.toks, i)
	if np.empty() || !usableObject(np) || c.at(0) == "you" && np.det != "" && !alt("a|an", np.det) {
		return false // "you can't beat the system" is no taste
	}
	if typ, _ := classify(np); typ == ontology.Person {
		return false
	}
	c.subj = c.said.speaker // the next clause's subject, as for every frame
	read.subj = c.subj
	return r.emitTaste(read, i, "LIKES", "loves")
}

// overItFrame: "I'm over sushi", "I was crazy about sushi, but I'm over it
// now": done with a taste. A pronoun stands for the taste said just before
// in the message; a phrase must be a kind of thing ("I'm over the moon",
// "I'm over the flu" are neither).
func (r *tasteRules) overIt(c *clause, i int) bool {
	if c.neg || c.past && !c.perfect && !c.now || c.future || c.at(i) != "over" {
		return false
	}
	if alt("it|them", c.at(i+1)) {
		k := c.tasteRef()
		if k == "" {
			return false
		}
		c.emit(fx{pred: "DISLIKES", obj: k, conf: 0.7, strength: 0.6, tmpl: "{S} is over {O}", noDate: true})
		return true
	}
	np := trimTrailingAdverbs(takeNP(c.toks, i+1))
	if !judgedKind(np) {
		return false
	}
	return r.emitTaste(c, i+1, "DISLIKES", "is over")
}

// wouldPickOver: "I'd pick tea over coffee any day", "I'd choose trains
// over planes": a preference said as a choice.
func (r *tasteRules) wouldPickOver(c *clause) bool {
	if !c.would || c.neg {
		return false
	}
	np := takeNP(c.toks, c.verbAt+1)
	if np.empty() || c.at(np.next) != "over" {
		return false
	}
	r.rulePrefer(c) // the choice is the speaker's standing preference, not a wish
	return true
}

// caresFor: "I don't care much for musicals", "I've never cared for opera":
// an aversion. "I care for my mum" says nothing of taste.
func (r *tasteRules) caresFor(c *clause) bool {
	if !c.neg || c.future || c.would {
		return false
	}
	i := c.verbAt + 1
	for i < c.verbAt+3 && alt("much|really|too|very|greatly", c.at(i)) {
		i++
	}
	if c.at(i) != "for" {
		return false
	}
	return r.emitTaste(c, i+1, "DISLIKES", "doesn't care for")
}

// neverSayNo: "I never say no to a cheese board", "I'd never say no to
// tapas": a liking.
func (r *tasteRules) neverSayNo(c *clause) bool {
	if !c.neg || c.past && !c.perfect || !c.seq(c.verbAt+1, "no", "to") {
		return false
	}
	return r.emitTaste(c, c.verbAt+3, "LIKES", "never says no to")
}

// pleasureFrame: "my guilty pleasure is reality TV", "my biggest weakness
// is salted caramel", "my current obsession is sourdough": a liking said
// by what it is to the speaker, as myThingFrame reads "X is my thing".
func (r *tasteRules) pleasureFrame(c *clause) bool {
	if !alt("my|our", c.at(0)) {
		return false
	}
	i := 1
	for i < 3 && alt("biggest|one|secret|current|latest|new|real|only|little|ultimate|absolute", c.at(i)) {
		i++
	}
	switch {
	case c.seq(i, "guilty", "pleasure"), c.seq(i, "comfort", "food"):
		i += 2
	case alt("weakness|vice|obsession|addiction|indulgence|kryptonite|passion", c.at(i)):
		i++
	default:
		return false
	}
	j, ok, neg, _ := c.copulaAt(i)
	if !ok || neg {
		return false
	}
	items, _ := takeList(c.toks, j)
	read := false
	for _, np := range items {
		np = trimTrailingAdverbs(np)
		if !usableObject(np) || np.det == "my" || np.det == "our" {
			continue
		}
		if c.speakerTaste(np, fx{pred: "LIKES", conf: 0.8, strength: 0.8, tmpl: "{S} loves {O} (" + words(c.toks[1:i]) + ")"}) {
			read = true
		}
	}
	return read
}

// getAlongFrame: "spicy food and I don't get along", "dairy and I don't
// get on anymore": an aversion said as a falling-out with a kind of thing.
// A person ("my boss and I don't get along") is a relation, not a taste.
func (r *tasteRules) getAlongFrame(c *clause) bool {
	np := takeNP(c.toks, 0)
	if np.empty() || c.at(np.next) != "and" || c.at(np.next+1) != "i" || !judgedKind(np) {
		return false
	}
	i := np.next + 2
	if !alt("don't|do|never|really|just", c.at(i)) {
		return false
	}
	for i < np.next+5 && alt("don't|do|not|never|really|just", c.at(i)) {
		i++
	}
	if !(c.at(i) == "get" && alt("along|on", c.at(i+1)) || c.at(i) == "agree") {
		return false
	}
	return c.speakerTaste(np, fx{pred: "DISLIKES", conf: 0.7, strength: 0.6, tmpl: "{S} doesn't get along with {O}", noDate: true})
}

// speakerTaste emits f, the speaker's taste for np, unless np names a
// person (a falling-out with one's boss is no taste) or nothing. It
// reports whether it emitted.
func (c *clause) speakerTaste(np nounPhrase, f fx) bool {
	if typ, _ := classify(np); typ == ontology.Person {
		return false
	}
	k, _ := c.object(np, "", 0)
	if k == "" {
		return false
	}
	c.subj = c.said.speaker
	f.subj, f.obj = c.said.speaker, k
	c.emit(f)
	return true
}

// offFood reads what the subject is off (from i): a food, a drink or a
// habit given up ("off dairy", "off the booze", "off sugar for good"),
// not a place or a time away ("off work", "off sick", "off today").
func (r *tasteRules) offFood(c *clause, i int) bool {
	if c.at(i) == "the" && alt("booze|drink|sauce|fags|cigs|smokes|sweets|carbs", c.at(i+1)) {
		i++ // "off the booze"
	}
	np := takeNP(c.toks, i)
	if np.empty() || np.det != "" || len(np.toks) > 2 || offNotFood[np.toks[0].w] || !judgedKind(np) && !oneBareKind(np) {
		return false
	}
	k, _ := c.object(np, "", 0)
	if k == "" {
		return false
	}
	c.emit(fx{pred: "LIKES", obj: k, neg: true, conf: 0.75, strength: 0.6, tmpl: "{S} is off {O} (avoids it)", noDate: true})
	return true
}

// thingIFrame reads a pseudo-cleft of taste: "Another thing I'm hooked on
// lately is kimchi", "The thing I'm obsessed with right now is padel", "What
// I love most is the sea", "One thing I can't stand is coriander". The
// clause before "is" says the taste, the phrase after it names its thing.
func (r *tasteRules) thingIFrame(c *clause) bool {
	t := c.toks
	i := 0
	switch {
	case c.at(0) == "what" && c.at(1) == "i":
		i = 2
	case alt("the|another|one|my|a", c.at(0)) && alt("thing|things", c.at(1)) && c.at(2) == "i":
		i = 3
	case alt("the|another|one|my|a", c.at(0)) && alt("thing|things", c.at(1)) && c.at(2) == "that" && c.at(3) == "i":
		i = 4
	default:
		return false
	}
	if c.neg || c.future || c.modal != "" && c.modal != "can" || c.would {
		return false
	}
	// Where the taste's "is" stands: the first "is"/"are" after i.
	be := -1
	for j := i; j < len(t) && j < i+8; j++ {
		if alt("is|are|was", t[j].w) && j > i {
			be = j
			break
		}
	}
	if be < 0 || be+1 >= len(t) {
		return false
	}
	pred, phrase := "", ""
	mid := t[i:be]
	has := func(w string) bool { return slices.ContainsFunc(mid, func(x tok) bool { return x.w == w }) }
	switch {
	case has("not") || has("never") || has("n't"):
		if has("stand") || has("bear") || has("stomach") {
			pred, phrase = "DISLIKES", "can't stand"
		}
	case has("hate") || has("loathe") || has("detest") || has("dislike") || has("despise"):
		pred, phrase = "DISLIKES", "dislikes"
	case has("love") || has("adore") || has("like") || has("enjoy") || has("loving") || has("enjoying"):
		pred, phrase = "LIKES", "loves"
	default:
		for _, x := range mid {
			if prep, ok := likeAdjectives[x.w]; ok && has(prep) {
				pred, phrase = "LIKES", "is "+x.w+" "+prep
				break
			}
		}
	}
	if pred == "" {
		return false
	}
	j := be + 1
	for alt("definitely|probably|really|just|still|honestly|totally", c.at(j)) {
		j++
	}
	np := trimTrailingAdverbs(takeNP(t, j))
	if !usableObject(np) || pronounObjects[np.head()] || evalPositive[np.toks[0].w] || evalNegative[np.toks[0].w] {
		return false
	}
	if alt("that|when|how|being|to", np.toks[0].w) {
		return false // "what I love is that...", "...is being outside": a situation, not a thing
	}
	subj := c.subj
	c.subj = c.said.speaker
	ok := r.emitTaste(c, j, pred, phrase)
	if !ok {
		c.subj = subj
	}
	return ok
}

// indifferentFrame: "I couldn't care less about football", "I'm not fussed
// about opera", "I'm not really bothered about cheese": a thing the
// speaker has no liking for, a liking negated rather than an aversion.
func (r *tasteRules) indifferentFrame(c *clause) bool {
	if c.at(0) != "i" {
		return false // contractions arrive expanded: "I couldn't" is "i could not", "I'm" "i am"
	}
	i := 1
	for alt("honestly|really|genuinely|just", c.at(i)) {
		i++
	}
	var phrase string
	switch {
	case c.seq(i, "could", "not", "care", "less", "about"):
		i += 5
		phrase = "couldn't care less about {O}"
	case c.seq(i, "am", "not") && alt("fussed|bothered", c.at(i+2)) && alt("about|by|with", c.at(i+3)):
		i += 4
		phrase = "isn't fussed about {O}"
	case c.seq(i, "am", "not", "really") && alt("fussed|bothered", c.at(i+3)) && alt("about|by|with", c.at(i+4)):
		i += 5
		phrase = "isn't fussed about {O}"
	default:
		return false
	}
	np := takeNP(c.toks, i)
	if !usableObject(np) || pronounObjects[np.head()] {
		return false
	}
	if typ, _ := classify(np); typ == ontology.Person {
		return false // "I'm not bothered about Tom": a person, not a taste
	}
	k, _ := c.object(np, "", 0)
	if k == "" {
		return false
	}
	c.subj = c.said.speaker
	c.emit(fx{subj: c.said.speaker, pred: "LIKES", obj: k, neg: true, conf: 0.7, tmpl: "{S} " + phrase})
	return true
}
