package offline

import (
	"strings"

	"github.com/graphmem/graphmem/extract"
	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// window is the state of one Extract call: the result being built, the
// people named so far, and what each speaker's pronouns point at.
type window struct {
	in     extract.Input
	out    *builder
	people map[string]bool // keys of people named in the window (speakers, relatives)
	talk   map[string]*discourse
	rules  *recognizers
}

// discourse is what a speaker's pronouns can refer to, carried across the
// events of a window.
type discourse struct {
	lastPerson  string // "she lives in Rome"
	lastObject  string // "it's my favourite food"
	lastUnnamed string // "her name is Luna" names the cat adopted just before
	lastGroup   string // "they" after "my kids"
	lastFact    *fact  // what "sorry, I meant..." corrects
	// lastTaste is the thing of the last liking or aversion, and
	// lastTasteEvent the event it was said in: "I used to hate olives, but
	// now I love them" turns the same olives around.
	lastTaste, lastTasteEvent string
	// lastKind is the last bare kind of thing a clause of the speaker
	// opened with ("Sushi used to be my favourite, but now I can't stand
	// it"), and lastKindEvent the event it was said in.
	lastKind      nounPhrase
	lastKindEvent string
	// kindAsked is the event whose sentence was only a kind of thing
	// asked back ("Opera? Love it."): the "it" or "them" of a taste after
	// it is that kind.
	kindAsked string
	// triedEvent is the event in which the speaker said they tried a kind
	// of thing (lastKind): "tried oysters once and hated them" judges it.
	triedEvent string
}

// utterance is one event being read: who said it, what their pronouns
// point at, and the window's result the recognisers write to.
type utterance struct {
	event   extract.Event
	speaker string          // entity key of the author ("" when nobody's facts)
	talk    *discourse      // the speaker's referents, shared across the window
	out     *builder        // the window's entities, facts and mentions
	people  map[string]bool // the window's people (see window.people)
}

func newWindow(in extract.Input, rules *recognizers) *window {
	w := &window{in: in, out: newBuilder(in.UserName), people: make(map[string]bool),
		talk: make(map[string]*discourse), rules: rules}
	for _, ev := range in.Events {
		if n := strings.TrimSpace(ev.Name); n != "" {
			w.people[nlp.NormalizeName(n)] = true
		}
	}
	return w
}

// speakerOf returns the entity key of the author of a message, or "" when
// its statements are not facts about anyone (assistant, tool, system).
func (w *window) speakerOf(ev extract.Event) string {
	name := strings.TrimSpace(ev.Name)
	role := strings.ToLower(ev.Role)
	if role == "tool" || role == "system" {
		return ""
	}
	switch {
	case name == "" && role == "user":
		return w.out.user()
	case name == "":
		return ""
	case strings.EqualFold(name, w.in.UserName), strings.EqualFold(name, "user") && role == "user":
		return w.out.user()
	}
	key := w.out.named(name, ontology.Person, 3)
	w.people[key] = true
	return key
}

// read extracts one event: each clause of each of its speaker's sentences
// goes to the recognisers, and every sentence's names are mentioned.
func (w *window) read(ev extract.Event) {
	kind := strings.ToLower(ev.Kind)
	speaker := ""
	if kind == "" || kind == "message" || kind == "summary" {
		speaker = w.speakerOf(ev)
	}
	if speaker != "" {
		w.out.mention(ev.ID, speaker)
	}
	d := w.talk[speaker]
	if d == nil {
		d = &discourse{}
		w.talk[speaker] = d
	}
	u := &utterance{event: ev, speaker: speaker, talk: d, out: w.out, people: w.people}
	for _, s := range sentences(ev.Content, ev.OccurredAt) {
		if speaker != "" {
			// "As a nurse, I ...", "As a backend dev, how do I ...": a lead
			// that the clauses lose when it is stripped, read once per
			// sentence, statement or question.
			w.rules.work.asRole(u, s.toks)
			w.rules.health.asDiet(u, s.toks)
		}
		if speaker != "" && !s.question && w.correction(u, s) {
			w.mentionNames(ev.ID, s.toks)
			continue
		}
		if speaker != "" {
			// A detail given inside a request is still the speaker's ("new
			// email is jo@fastmail.fm, can you redo my signature?").
			w.contacts(u, s)
		}
		if speaker != "" && s.question {
			if np := takeNP(s.toks, 0); judgedKind(np) && np.next == len(s.toks)-1 && s.toks[np.next].w == "?" {
				d.lastKind, d.lastKindEvent, d.kindAsked = np, ev.ID, ev.ID // "Opera? Love it."
				continue
			}
			// A request presupposes the relatives it names ("any ideas
			// for my fiancée Mia?") and the named products it calls the
			// speaker's ("how do I store my Mazda MX-5?"), and a polite standing request to the
			// assistant is a preference ("could you keep your answers
			// short?"); it states nothing else.
			for _, toks := range clauses(s.toks) {
				c := &clause{said: u}
				if toks = c.stripLead(toks); len(toks) > 0 {
					c.toks = toks
					c.relationMentions()
					w.rules.possessions.presupposed(c)
					w.rules.standingRequest(c)
				}
			}
		}
		var stated [][]tok
		if s.question {
			stated = statedClauses(s.toks)
		} else {
			stated = clauses(elidedCopula(guessWho(s.toks)))
		}
		if speaker != "" && len(stated) > 0 {
			prev := ""
			for _, toks := range stated {
				var hypothetical bool
				prev, hypothetical = w.rules.read(u, toks, prev)
				if hypothetical {
					break
				}
			}
		}
		w.mentionNames(ev.ID, s.toks)
	}
}

// mentionNames records the proper names of a sentence as mentions, typed
// from the gazetteers. Sentence-initial capitals count only for known names.
func (w *window) mentionNames(eventID string, toks []tok) {
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if !t.cap || t.kind != nlp.Word || t.w == "i" || nameStop[t.w] || isCalendarWord(t.w) {
			continue
		}
		j := i
		for j+1 < len(toks) && j-i < 3 && (toks[j+1].cap && toks[j+1].kind == nlp.Word && !nameStop[toks[j+1].w] ||
			toks[j+1].kind == nlp.Number && !strings.ContainsAny(toks[j+1].w, ",.:/")) {
			j++
		}
		np := nounPhrase{toks: toks[i : j+1], hasName: true}
		name := np.surface()
		if k, ok := w.out.byName[nlp.Fold(name)]; ok {
			w.out.mention(eventID, k)
			i = j
			continue
		}
		key := np.key()
		known := w.out.ents[key] != nil || w.people[key]
		typ, typed := classify(np)
		if t.first && j == i && !known && !(typed && typ != ontology.Concept && typ != ontology.Activity) {
			i = j
			continue
		}
		if typ == ontology.Concept && firstNames[key] {
			typ = ontology.Person
		}
		if w.people[key] {
			typ, typed = ontology.Person, true
		}
		rank := 0
		if typed {
			rank = 1
		}
		if k := w.out.named(name, typ, rank); k != "" {
			w.out.mention(eventID, k)
		}
		i = j
	}
}

// isCalendarWord reports whether w names a weekday or month ("Mondays").
func isCalendarWord(w string) bool {
	if _, ok := nlp.ParseWeekday(w); ok {
		return true
	}
	_, ok := nlp.ParseMonth(w)
	return ok
}

// statedClauses returns the clauses of a question before the comma or
// dash that opens the asking clause, when they are the speaker's own statement ("I'm
// a huge fan of jazz, could you make me a playlist?", "We live in Leeds
// now, any tips for a roast?"): the request does not unsay them. A question
// that only asks ("Hey there, could you help?", "Is it normal that my dog
// sleeps all day?") states nothing.
func statedClauses(toks []tok) [][]tok {
	for i := len(toks) - 1; i > 0; i-- {
		if toks[i].kind != nlp.Punct || !alt(",|—|–|-", toks[i].w) {
			continue // a comma or a dash ends the clauses that state
		}
		j := i + 1
		for j < len(toks) && (toks[j].kind != nlp.Word || toks[j].w == "and" || toks[j].w == "so" || toks[j].w == "but" || toks[j].w == "then") {
			j++
		}
		if j == len(toks) || !questionStarters[toks[j].w] && toks[j].w != "any" && !(requestNouns[toks[j].w] && j+2 >= len(toks)) {
			continue // "..., suggestions?", "..., any tips?" ask as a question word does
		}
		n, self := 0, false
		for _, t := range toks[:i] {
			if t.kind == nlp.Word {
				n++
				self = self || speakerWords[t.w]
			}
		}
		if n >= 3 && (self || subjectLeftOut(toks[:i])) {
			return clauses(toks[:i])
		}
		return nil
	}
	return nil
}

// requestNouns ask for help on their own at the end of a message
// ("suggestions?", "thoughts?").
var requestNouns = wordSet(`suggestions,thoughts,ideas,tips,recommendations,recs,advice,help,options,opinions`)

// subjectLeftOut reports whether a statement opens the way chat leaves its
// subject out: a verb (leftOutSubject: "Cancelled Spotify, ...", "Heading
// to Rome, ..."), "just", "been" or "back" ("Just back from Krakow, ..."),
// a negation ("Can't stand coriander, ...") or a measure of the speaker's
// named without "my" ("Rent's just gone up to £1,350 — is that allowed?").
// clause.subject gives such a clause to the speaker.
func subjectLeftOut(toks []tok) bool {
	if len(toks) < 2 || toks[0].kind != nlp.Word {
		return false
	}
	w := toks[0].w
	return alt("just|been|finally|officially|back", w) || negatedOpening(toks) || leftOutSubject(toks, false) ||
		(measureNames[w] != "" || w == "budget") && len(toks) > 2
}

// speakerWords are the words of a speaker saying something of their own.
var speakerWords = wordSet(`i,we,my,our,me,us`)

// guessWho reads "Guess who got the ward manager post!", "guess who's
// engaged": the speaker announcing news of their own, as "I got...".
func guessWho(toks []tok) []tok {
	if len(toks) < 3 || toks[0].w != "guess" || toks[1].w != "who" {
		return toks
	}
	rest := toks[2:]
	_, f, ok := verbOf(rest[0].w)
	if !(ok && f == formPast) && !alt("is|has|just|finally|officially", rest[0].w) {
		return toks
	}
	me := toks[1]
	me.w, me.orig, me.cap, me.first = "i", "I", true, true
	out := append([]tok{me}, rest...)
	if firstPerson, ok := map[string]string{"is": "am", "has": "have"}[rest[0].w]; ok {
		out[1].w, out[1].orig = firstPerson, firstPerson // "who's engaged" → "I am engaged"
	}
	return out
}

// cleftJudgements open an evaluation that looks like a cleft: "it's a
// shame I missed it", "it's a good thing we left early".
var cleftJudgements = wordSet(`shame,pity,wonder,miracle,good,bad,great,nice,funny,weird,strange,odd,surprise,relief,
joke,mystery,blessing,bonus,lucky,crazy,first,real,big,long`)

// itCleft reads an it-cleft as its plain clause: "it's Rui Kanemoto I keep
// reaching for" as "I keep reaching for Rui Kanemoto", "it's oat milk that
// I drink now" as "I drink oat milk now". The focused phrase (at most five
// words, no verb) goes after the verb phrase, before a closing time adverb.
// "It's raining", "it's a shame I missed it" (an evaluation: an article
// before a judgement), "it's why I ..." (a wh-word) and "it's me who ..."
// (a pronoun) stay as they are.
func itCleft(toks []tok) []tok {
	if len(toks) < 5 || toks[0].w != "it" || !alt("is|was", toks[1].w) {
		return toks
	}
	k := 2
	for k < len(toks) && k <= 7 && !alt("i|we", toks[k].w) {
		w := toks[k].w
		if toks[k].kind != nlp.Word || auxiliaries[w] || subjectPronouns[w] || alt("me|him|her|them|us|not|never|just|so|too|really", w) {
			return toks
		}
		if _, _, ok := verbOf(w); ok {
			return toks
		}
		k++
	}
	if k >= len(toks)-1 || !alt("i|we", toks[k].w) {
		return toks
	}
	focus := toks[2:k]
	if n := len(focus); n > 0 && alt("that|who|which", focus[n-1].w) {
		focus = focus[:n-1]
	}
	if len(focus) == 0 || len(focus) > 1 && alt("a|an|the|such", focus[0].w) && cleftJudgements[focus[1].w] ||
		alt("why|how|what|where|when|because|like|no|so|as|about|true|clear|obvious|likely|possible|time|hard|easy", focus[0].w) {
		return toks // "It's why I enjoy playing", "it's time we moved"
	}
	rest := toks[k:]
	next := rest[1].w
	if _, f, ok := verbOf(next); !auxiliaries[next] && !clauseAdverbs[next] && !(ok && f != formIng && f != formPart) {
		return toks
	}
	end := len(rest)
	for end > 2 && (alt("now|anymore|nowadays|lately|mostly|most|these|days|again", rest[end-1].w) || rest[end-1].kind == nlp.Punct) {
		end--
	}
	out := make([]tok, 0, len(toks))
	out = append(out, rest[:end]...)
	out = append(out, focus...)
	return append(out, rest[end:]...)
}

// elidedCopula restores the "I'm" chat leaves out before a word that
// describes the speaker: "Not a fan of musicals", "No longer into true
// crime", "Obsessed with padel", "Officially single again", "Vegan since
// May". The word must be one that says a taste (with its preposition),
// fandom, status, diet or condition, followed by nothing that makes it a
// modifier ("Single parents need support", "Vegan food is great" stay
// as they are).
func elidedCopula(toks []tok) []tok {
	if len(toks) < 2 || !toks[0].first || toks[0].kind != nlp.Word {
		return toks
	}
	i := 0
	for i < len(toks) && alt("so|really|totally|officially|finally|now|still|also|newly|proudly|happily|not|never|absolutely", toks[i].w) {
		i++
	}
	if i+1 < len(toks) && toks[i].w == "no" && toks[i+1].w == "longer" {
		i += 2
	}
	if i >= len(toks) {
		return toks
	}
	w := toks[i].w
	next := ""
	if i+1 < len(toks) {
		next = toks[i+1].w
	}
	after := i+1 >= len(toks) || toks[i+1].kind != nlp.Word || alt("again|now|anymore|officially|since|as|for|and|too|though|already|at|with", next)
	ok := false
	switch {
	case likeAdjectives[w] != "" && next == likeAdjectives[w]:
		ok = true // "obsessed with padel"
	case w == "into" && i+1 < len(toks) && toks[i+1].kind == nlp.Word && !determiners[next]:
		ok = true // "into true crime these days"
	case alt("a|an", w) && i+2 < len(toks) && (toks[i+1].w == "fan" || fanModifiers[toks[i+1].w] && toks[i+2].w == "fan"):
		ok = true // "not a fan of musicals", "a huge fan of Idles"
	case statuses[w] || diets[w] || conditions[w] != "":
		ok = after // "single again", "vegan since May", "pregnant!!"
	}
	// "Big fan of Studio Ghibli", "Huge fan of hers": the article goes too
	article := i == 0 && fanModifiers[w] && next == "fan" && i+2 < len(toks) && toks[i+2].w == "of"
	if !ok && !article || i == 0 && !toks[0].first {
		return toks
	}
	me := tok{w: "i", orig: "I", kind: nlp.Word, cap: true, first: true}
	am := tok{w: "am", orig: "am", kind: nlp.Word}
	rest := append([]tok(nil), toks...)
	rest[0].first, rest[0].cap = false, false
	if article {
		return append([]tok{me, am, {w: "a", orig: "a", kind: nlp.Word}}, rest...)
	}
	return append([]tok{me, am}, rest...)
}
