package offline

import (
	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
	"slices"
)

// Turnarounds and judgements of taste. A judgement of a kind of thing,
// said by the speaker in the present ("olives are revolting", "energy
// drinks taste awful to me now", "I find audiobooks tedious"), is a liking
// or an aversion; a turnaround ("I've come around on jazz", "kombucha grew
// on me", "I've gone off cheese", "I've fallen out of love with running")
// is the new one, which the knowledge policy sets against the old. The
// words are in lexicon_turnarounds.go.

// evaluation reads the adjective of a judgement at i, skipping the
// speaker's intensifiers, and returns +1, -1 or 0 and the word.
func (c *clause) evaluation(i int) (int, string, int) {
	for k := 0; k < 4 && evalAdverbs[c.at(i)]; k++ {
		i++
	}
	w := c.at(i)
	switch {
	case evalPositive[w]:
		return 1, w, i + 1
	case evalNegative[w]:
		return -1, w, i + 1
	case w == "the" && c.at(i+1) == "best":
		return 1, "the best", i + 2
	case w == "the" && c.at(i+1) == "worst":
		return -1, "the worst", i + 2
	case w == "like" && aversiveLikenesses[c.at(i+1)]:
		// "coriander tastes like soap to me"
		return -1, "like " + c.at(i+1), i + 2
	}
	return c.evaluativeNoun(i)
}

// evaluativeNoun reads a judgement said with a noun at i ("a chore", "like
// a real drag", "such a joy"): +1, -1 or 0, the words, and the next index.
func (c *clause) evaluativeNoun(i int) (int, string, int) {
	if c.at(i) == "like" {
		i++ // "feels like a chore" judges as "is a chore" does
	}
	start := i
	if c.at(i) == "such" {
		i++
	}
	if !alt("a|an", c.at(i)) {
		return 0, "", start
	}
	i++
	for k := 0; k < 3 && evalNounMarks[c.at(i)]; k++ {
		i++
	}
	switch w := c.at(i); {
	case evalNounsPositive[w]:
		return 1, words(c.toks[start : i+1]), i + 1
	case evalNounsNegative[w]:
		return -1, words(c.toks[start : i+1]), i + 1
	}
	return 0, "", start
}

// aversiveLikenesses are what a disliked taste is likened to ("tastes like
// soap"). Grows by a word.
var aversiveLikenesses = wordSet(`soap,cardboard,dirt,mud,medicine,chalk,plastic,metal,feet,sick,vomit,petrol,
rubber,ashtray,nothing,sawdust,glue,bleach,perfume`)

// judgedKind reports whether np names a kind of thing one can have a taste
// for: a bare phrase (no article, no possessive) that is not a person or
// an abstraction, known to the lexicon or plural ("olives", "true crime
// podcasts"), so "the weather is awful" and "my boss is terrible" are not
// tastes.
func judgedKind(np nounPhrase) bool {
	if np.empty() || !usableObject(np) || np.det != "" || np.count != "" {
		return false
	}
	h := np.head()
	if abstractObjects[h] && !tastedObjects[h] || notAversions[h] || pronounObjects[h] || isVagueGerund(np.toks[0].w) ||
		alt("having|getting|being|seeing|knowing|feeling|hearing|spending|finding|meeting", np.toks[0].w) {
		return false // "having another family is great" judges a situation, not a taste
	}
	typ, known := classify(np)
	if typ == ontology.Person || typ == ontology.Place {
		return false
	}
	last := np.toks[len(np.toks)-1].w
	return known || nlp.Singular(last) != last || len(np.toks) > 1 && !np.hasName
}

// bareWords reports whether toks are plain lower-case words without an
// article, a possessive or a pronoun: a bare kind ("sports drinks").
func bareWords(toks []tok) bool {
	for i, t := range toks {
		if t.kind != nlp.Word || t.cap && !t.first || auxiliaries[t.w] || pronounObjects[t.w] || subjectPronouns[t.w] ||
			i == 0 && alt("the|a|an|my|our|your|his|her|their|this|that|these|those|some|all|no", t.w) {
			return false
		}
	}
	return len(toks) > 0 && len(toks) <= 3
}

// evaluativeFrame: "olives are revolting", "energy drinks taste awful to
// me now", "oat milk is delicious". A past judgement describes one
// occasion ("the soup was bland") and is not read.
func (r *tasteRules) evaluativeFrame(c *clause) bool {
	t := c.toks
	cop := 1
	for cop < len(t) && cop < 6 && !alt("is|are|'re|'s|do|does", t[cop].w) && !evalVerbs[t[cop].w] {
		cop++
	}
	np := takeNP(t[:min(cop, len(t))], 0)
	if np.next != cop && cop < len(t) && bareWords(t[:cop]) {
		np = nounPhrase{toks: t[:cop], next: cop} // "sports drinks" read as a verb by takeNP
	}
	ref := ""
	if np.next == 1 && cop == 1 {
		ref = c.pronounKind(np) // "now they taste awful to me"
	}
	if ref == "" && (np.next != cop || !judgedKind(np) && !(markedTurn(c) && oneBareKind(np))) {
		return false
	}
	i := np.next
	neg := false
	switch {
	case alt("is|are|'re|'s", c.at(i)):
		i++
	case evalVerbs[c.at(i)]:
		i++
	case alt("do|does", c.at(i)) && alt("not|n't", c.at(i+1)) && evalVerbs[c.at(i+2)]:
		return false // "olives don't taste bad" judges nothing plainly
	default:
		return false
	}
	if alt("not|n't|never", c.at(i)) {
		neg = true
		i++
	}
	pol, adj, next := c.evaluation(i)
	if pol == 0 || neg {
		return false
	}
	if c.at(next) == "for" || c.at(next) == "to" && c.at(next+1) != "me" {
		return false // "great for hiking", "terrible to park near" judge a use
	}
	if ref != "" {
		return r.judgeKey(c, ref, pol, "finds {O} "+adj)
	}
	return r.judge(c, np, pol, "finds {O} "+adj)
}

// markedTurn reports whether a clause marks a taste as the speaker's new
// view ("karaoke is actually really fun", "tofu is great now").
func markedTurn(c *clause) bool {
	return c.now || slices.ContainsFunc(c.toks, func(t tok) bool { return t.w == "actually" })
}

// oneBareKind: a single lower-case word with no article that is no person,
// place or abstraction ("karaoke"), which judgedKind leaves out for want
// of a plural or a lexicon entry.
func oneBareKind(np nounPhrase) bool {
	if len(np.toks) != 1 || np.det != "" || np.count != "" || np.hasName && !np.toks[0].first || !usableObject(np) {
		return false
	}
	h := np.head()
	if abstractObjects[h] && !tastedObjects[h] || notAversions[h] || pronounObjects[h] || isVagueGerund(h) ||
		alt("work|job|school|uni|home|family|everything|nothing|things|business|traffic|weather", h) {
		return false
	}
	typ, _ := classify(np)
	return typ != ontology.Person && typ != ontology.Place
}

// judge emits the speaker's liking (pol > 0) or aversion for np.
func (r *tasteRules) judge(c *clause, np nounPhrase, pol int, phrase string) bool {
	k, _ := c.object(np, "", 0)
	return r.judgeKey(c, k, pol, phrase)
}

// judgeKey emits the speaker's liking (pol > 0) or aversion for the entity k.
func (r *tasteRules) judgeKey(c *clause, k string, pol int, phrase string) bool {
	if k == "" {
		return false
	}
	c.subj = c.said.speaker
	pred := "LIKES"
	if pol < 0 {
		pred = "DISLIKES"
	}
	c.emit(fx{subj: c.said.speaker, pred: pred, obj: k, conf: 0.75, strength: 0.7, tmpl: "{S} " + phrase})
	return true
}

// ruleFind: "I find audiobooks tedious", "I'm finding sourdough addictive".
func (r *tasteRules) ruleFind(c *clause) {
	if c.neg || c.modal != "" || c.would || c.future || c.past && !c.now && !c.perfect {
		return
	}
	if alt("it|them", c.at(c.verbAt+1)) {
		// "my husband loves the cold, but I've always found it miserable":
		// the thing of the taste just said, judged by the speaker.
		if pol, adj, _ := c.evaluation(c.verbAt + 2); pol != 0 {
			k := c.tasteRef()
			if lf := c.said.talk.lastFact; k == "" && lf != nil && (lf.pred == "LIKES" || lf.pred == "DISLIKES") &&
				contains(lf.events, c.said.event.ID) {
				k = lf.obj // a relative's taste just said ("my husband loves the cold, but I find it miserable")
			}
			if k != "" {
				r.judgeKey(c, k, pol, "finds {O} "+adj)
			}
		}
		return
	}
	j := c.verbAt + 2
	pol, adj := 0, ""
	for ; j < len(c.toks) && j < c.verbAt+7; j++ {
		if pol, adj, _ = c.evaluation(j); pol != 0 {
			break
		}
	}
	if pol == 0 {
		return
	}
	// the judged phrase ends where the judgement's words begin
	end := j
	for end > c.verbAt+2 && evalAdverbs[c.at(end-1)] {
		end--
	}
	np := takeNP(c.toks[:end], c.verbAt+1)
	if np.next != end || !judgedKind(np) {
		return
	}
	r.judge(c, np, pol, "finds {O} "+adj)
}

// growOnFrame: "kombucha grew on me", "true crime podcasts have really
// grown on me", "sea swimming won me over".
func (r *tasteRules) growOnFrame(c *clause) bool {
	t := c.toks
	v := 1
	for v < len(t) && v < 12 && !(alt("grew|grown|growing", t[v].w) && c.seq(v+1, "on", "me") ||
		alt("won|win|wins", t[v].w) && c.seq(v+1, "me", "over")) {
		v++
	}
	if v >= len(t) || v >= 12 {
		return false
	}
	np, ok := subjectBefore(t, v, "has|have|'s|'ve|is|are|'re|slowly|finally|gradually|eventually")
	if !ok {
		// "weirdly after two weeks in Crete olives have totally grown on
		// me", "I have to admit opera has won me over": the thing is the
		// phrase right before the verb, after an opener or a clause of
		// saying.
		np, ok = subjectAfterOpener(t, v, "has|have|'s|'ve|is|are|'re|slowly|finally|gradually|eventually")
	}
	if ok && len(np.toks) == 1 && alt("it|they", np.toks[0].w) {
		// "I never liked tea, but it's grown on me": the thing of the
		// taste said before in the message.
		k := c.tasteRef()
		if k == "" {
			return false
		}
		c.subj = c.said.speaker
		c.emit(fx{subj: c.said.speaker, pred: "LIKES", obj: k, conf: 0.75, strength: 0.7, tmpl: "{S} has come to like {O}"})
		return true
	}
	if !ok || !usableObject(np) || np.det == "my" || np.det == "our" {
		return false
	}
	return c.speakerTaste(np, fx{pred: "LIKES", conf: 0.8, strength: 0.7, tmpl: "{S} has come to like {O}"})
}

// turnaround reads the verbs of a change of taste after the verb: "come
// around on|to X", "warm (up) to X", "go off X", "fall out of love with
// X", "fall in love with X", "fall for X". It reports whether it read the clause.
func (r *tasteRules) turnaround(c *clause) bool {
	if c.neg || c.modal != "" || c.would || c.future {
		return false
	}
	i := c.verbAt + 1
	for k := 0; k < 2 && mannerAdverbs[c.at(i)]; k++ {
		i++ // "I've fallen hard for crosswords", "come right round to"
	}
	pred, phrase := "", ""
	switch c.verb {
	case "come":
		if alt("around|round", c.at(i)) && alt("on|to", c.at(i+1)) {
			pred, phrase, i = "LIKES", "has come around on", i+2
		}
	case "warm":
		if c.at(i) == "up" {
			i++
		}
		if c.at(i) == "to" {
			pred, phrase, i = "LIKES", "has warmed to", i+1
		}
	case "go":
		for k := 0; k < 3 && alt("right|completely|totally|really|rather|a|bit|little|kind|sort|of|somewhat", c.at(i)) && c.at(i) != "off"; k++ {
			i++ // "I've gone right off cheesecake", "gone a bit off"
		}
		if c.at(i) == "off" && (c.past || c.perfect) {
			pred, phrase, i = "DISLIKES", "has gone off", i+1
		}
	case "turn":
		if c.at(i) == "against" && (c.past || c.perfect) {
			pred, phrase, i = "DISLIKES", "has turned against", i+1
		}
	case "convert":
		// "I've been converted to oat milk": won over, said in the passive
		if c.at(i) == "to" && c.be {
			pred, phrase, i = "LIKES", "has been converted to", i+1
		}
	case "kick":
		// "I've kicked my Coke habit", "kicked the crisps habit": a taste given up
		return r.kickedHabit(c, i)
	case "fall":
		if c.seq(i, "out", "of", "love", "with") {
			pred, phrase, i = "DISLIKES", "has fallen out of love with", i+4
		} else if c.seq(i, "in", "love", "with") {
			pred, phrase, i = "LIKES", "has fallen in love with", i+3
		} else if c.at(i) == "for" && (c.past || c.perfect) {
			// "I've fallen for Korean dramas": a thing, never a person
			// (checked below), won the speaker over.
			pred, phrase, i = "LIKES", "has fallen for", i+1
		}
	}
	if pred == "" {
		return false
	}
	items, _ := takeList(c.toks, i)
	for _, np := range items {
		np = trimTrailingAdverbs(np)
		if typ, _ := classify(np); typ == ontology.Person {
			continue // falling for someone is not a taste
		}
		if phrase == "has fallen for" && (np.det != "" || (np.hasName && len(np.toks) == 1)) {
			// "fell for the scam", "fell for Jonas": a trick or a person;
			// a taste is a bare kind ("fallen for Korean dramas").
			continue
		}
		k, _ := c.object(np, "", 0)
		if k == "" {
			continue
		}
		c.emit(fx{pred: pred, obj: k, conf: 0.8, strength: 0.7, tmpl: "{S} " + phrase + " {O}"})
	}
	return true
}

// kickedHabit reads "kicked my X habit" at i (after the verb): X, of one
// to three words before "habit", is a taste given up.
func (r *tasteRules) kickedHabit(c *clause, i int) bool {
	if !alt("my|the|our", c.at(i)) || !(c.past || c.perfect) {
		return false
	}
	j := i + 2
	for j < i+5 && j < len(c.toks) && c.at(j) != "habit" {
		j++
	}
	if c.at(j) != "habit" {
		return false
	}
	k, _ := c.object(nounPhrase{toks: c.toks[i+1 : j], next: j}, "", 0)
	if k == "" {
		return false
	}
	c.emit(fx{pred: "LIKES", obj: k, neg: true, conf: 0.75, strength: 0.6, tmpl: "{S} has kicked the {O} habit"})
	return true
}

// ruleTurn is the verb rule of "warm", "fall", "convert" and "kick", which
// mean nothing else to the engine.
func (r *tasteRules) ruleTurn(c *clause) { r.turnaround(c) }

// subjectBefore reads the noun phrase that is the subject of the verb at v,
// without the adverbs and auxiliaries (skip) standing before the verb; ok
// is false unless the phrase ends right there.
func subjectBefore(t []tok, v int, skip string) (nounPhrase, bool) {
	end := subjectEnd(t, v, skip)
	np := takeNP(t[:end], 0)
	if np.next != end && bareWords(t[:end]) {
		np = nounPhrase{toks: t[:end], next: end}
	}
	return np, np.next == end
}

// subjectEnd is where the subject of the verb at v ends: before the
// adverbs and the words of skip that stand between them.
func subjectEnd(t []tok, v int, skip string) int {
	end := v
	for end > 1 && (evalAdverbs[t[end-1].w] || alt(skip, t[end-1].w)) {
		end--
	}
	return end
}

// subjectAfterOpener reads the subject of the verb at v when the clause
// opens with something else: the noun phrase of at most three words right
// before the verb (and the words of skip), after a name that ends an
// opener ("in Crete"), a verb of a clause of saying ("I have to admit"),
// or punctuation. Numbers, durations, prepositions, pronouns and verbs
// belong to the opener, not the subject.
func subjectAfterOpener(t []tok, v int, skip string) (nounPhrase, bool) {
	end := subjectEnd(t, v, skip)
	s := end
	for s > 0 && end-s < 3 {
		w := t[s-1]
		if w.kind != nlp.Word || w.cap || numberWords[w.w] || durationNouns[nlp.Singular(w.w)] || npStop[w.w] ||
			subjectPronouns[w.w] || alt("it|they|me|us|you", w.w) || alt(openerEnds, w.w) {
			break
		}
		if _, _, isVerb := verbOf(w.w); isVerb {
			break
		}
		s--
		if determiners[w.w] {
			break
		}
	}
	if s == end || s == 0 {
		return nounPhrase{}, false // nothing before the verb, or the whole clause: subjectBefore's case
	}
	if prev := t[s-1]; !(prev.cap || prev.kind != nlp.Word || alt(openerEnds, prev.w)) {
		return nounPhrase{}, false
	}
	np := takeNP(t[:end], s)
	return np, !np.empty() && np.next == end
}

// openerEnds are the words that end a clause of saying or a stance said
// before a subject ("I have to admit", "honestly").
const openerEnds = "admit|say|said|think|guess|swear|confess|reckon|suppose|believe|honestly|weirdly|somehow|surprisingly"

// usedToThink reads "I used to think karaoke was awful": a judgement the speaker held and no longer
// holds, so the taste is the opposite's absence ("no longer finds it
// awful"). It also names the thing for an "it" that follows ("...but now I
// love it"). It reports whether it read the clause.
func (r *tasteRules) usedToThink(c *clause) bool {
	if !c.usedTo || c.future || c.modal != "" {
		return false
	}
	i := c.verbAt + 1
	if c.at(i) == "that" {
		i++
	}
	np := takeNP(c.toks, i)
	if !judgedKind(np) && !oneBareKind(np) || !alt("was|were|is|are", c.at(np.next)) {
		return false
	}
	pol, adj, _ := c.evaluation(np.next + 1)
	if pol == 0 {
		return false
	}
	k, _ := c.object(np, "", 0)
	if k == "" {
		return false
	}
	pred := "LIKES"
	if pol < 0 {
		pred = "DISLIKES"
	}
	c.subj = c.said.speaker
	c.emit(fx{pred: pred, obj: k, neg: true, conf: 0.75, strength: 0.6, tmpl: "{S} no longer finds {O} " + adj, noDate: true})
	return true
}
