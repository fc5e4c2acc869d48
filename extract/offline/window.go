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
		}
		if speaker != "" && !s.question && w.correction(u, s) {
			w.mentionNames(ev.ID, s.toks)
			continue
		}
		if speaker != "" && !s.question {
			w.contacts(u, s)
		}
		if speaker != "" && s.question {
			// A request presupposes the relatives it names ("any ideas
			// for my fiancée Mia?"), and a polite standing request to the
			// assistant is a preference ("could you keep your answers
			// short?"); it states nothing else.
			for _, toks := range clauses(s.toks) {
				c := &clause{said: u}
				if toks = c.stripLead(toks); len(toks) > 0 {
					c.toks = toks
					c.relationMentions()
					w.rules.standingRequest(c)
				}
			}
		}
		var stated [][]tok
		if s.question {
			stated = statedClauses(s.toks)
		} else {
			stated = clauses(guessWho(s.toks))
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
		if j == len(toks) || !questionStarters[toks[j].w] && toks[j].w != "any" {
			continue
		}
		n, self := 0, false
		for _, t := range toks[:i] {
			if t.kind == nlp.Word {
				n++
				self = self || speakerWords[t.w]
			}
		}
		if n >= 3 && self {
			return clauses(toks[:i])
		}
		return nil
	}
	return nil
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
