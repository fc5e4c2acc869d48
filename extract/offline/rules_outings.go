package offline

import (
	"strings"
	"unicode"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// outingRules recognise outings and events: places gone to, occasions
// attended, trips taken, things watched, classes signed up for ("I went to
// a support group yesterday", "we went camping last week", "I watched
// Inception").
type outingRules struct {
	health  *healthRules // "I went vegan last year" is a diet
	hobbies *hobbyRules  // "we went camping" is a hobby practised
	plans   *planRules   // "we're going to Rome next month" is a plan
	study   *studyRules  // "I'm taking Spanish lessons" is learning
}

// ruleGo: "I went to a support group yesterday", "we went camping last
// week", "I go to the gym every morning", "we're going to Rome next month".
func (r *outingRules) ruleGo(c *clause) {
	t := c.toks
	i := c.verbAt + 1
	if c.neg || c.modal != "" || c.would {
		return
	}
	if c.at(i) == "back" {
		i++
	}
	plan := c.future || c.progressive && (c.date == nil || c.date.Until.After(c.said.event.OccurredAt))
	// "I went vegan last year", "went gluten free in January"
	if d := c.at(i); diets[d] && !plan && (c.past || c.perfect) {
		r.health.diet(c, d, false, false)
		return
	}
	if d := c.at(i) + " " + c.at(i+1); diets[d] && !plan && (c.past || c.perfect) {
		r.health.diet(c, d, false, false)
		return
	}
	// "go camping", "went swimming with the kids"
	if w := c.at(i); goVerbs[w] || strings.HasSuffix(w, "ing") && activities[w] {
		np, detail := goActivity(c.gerundPhrase(w, i+1))
		if plan {
			r.plans.planTo(c, c.verb, "go", np, ontology.Activity)
			return
		}
		r.hobbies.practiceOf(c, np, false, detail)
		return
	}
	if c.at(i) == "on" && alt("a|an", c.at(i+1)) {
		np := takeNP(t, i+1)
		if (tripNouns[np.head()] || np.head() == "journey") && alt("to|in", c.at(np.next)) {
			i = np.next
		} else if !np.empty() {
			r.event(c, np, plan, "went on")
			return
		}
	}
	if !alt("to|into", c.at(i)) {
		return
	}
	np := takeNP(t, i+1)
	if !usableObject(np) {
		return
	}
	if plan {
		if !occasionNouns[np.head()] && !isPlaceLike(np) && !placeNouns[np.head()] {
			return
		}
		r.plans.planTo(c, c.verb, "go to", np, "")
		return
	}
	r.event(c, np, false, "went to")
}

// ruleTake: "I took the kids to the museum", "I took up pottery", "I'm
// taking Spanish lessons", "we took a trip to Peru".
func (r *outingRules) ruleTake(c *clause) {
	t := c.toks
	i := c.verbAt + 1
	if c.neg || c.modal != "" || c.would || c.future {
		return
	}
	if c.at(i) == "up" {
		r.hobbies.practice(c, takeNP(t, i+1), false)
		return
	}
	np := takeNP(t, i)
	if np.empty() {
		return
	}
	if lessonNouns[np.toks[len(np.toks)-1].w] && len(np.toks) > 1 {
		subject := nounPhrase{toks: np.toks[:len(np.toks)-1], hasName: np.hasName}
		r.study.learning(c, subject)
		return
	}
	if tripNouns[np.head()] && alt("to|in", c.at(np.next)) {
		dest := takeNP(t, np.next+1)
		if isPlaceLike(dest) {
			k, _ := c.object(dest, ontology.Place, 2)
			c.emit(fx{pred: "VISITED", obj: k, tmpl: "{S} took a trip to {O}{D}"})
		}
		return
	}
	if c.at(np.next) == "to" && (c.past || c.perfect) {
		r.event(c, takeNP(t, np.next+1), false, "went to")
	}
}

// ruleAttend: "I attended a conference", "I attend Stanford".
func (r *outingRules) ruleAttend(c *clause) {
	if c.neg || c.modal != "" || c.would {
		return
	}
	np := takeNP(c.toks, c.verbAt+1)
	if !usableObject(np) {
		return
	}
	if np.hasName && schoolNouns[np.head()] || knownOrgs[np.key()] && !c.past {
		k, _ := c.object(np, ontology.Organization, 2)
		c.emit(fx{pred: "STUDIES_AT", obj: k, neg: c.past && !c.perfect, tmpl: pick(c.past && !c.perfect, "{S} studies at {O}", "{S} attended {O}")})
		return
	}
	if c.future || c.progressive && c.date != nil && c.date.Until.After(c.said.event.OccurredAt) {
		r.plans.planTo(c, c.verb, "attend", np, ontology.Occasion)
		return
	}
	k, art := c.object(np, ontology.Occasion, 2)
	c.emit(fx{pred: "ATTENDED", obj: k, art: art, tmpl: pick(c.past || c.perfect, "{S} attends {aO}{D}", "{S} attended {aO}{D}")})
}

// ruleWatch: "I watched Inception last night".
func (r *outingRules) ruleWatch(c *clause) {
	habit := c.verb == "rewatch" // "I rewatch Gilmore Girls every autumn" has watched it
	if c.neg || c.modal != "" || c.would || c.future || !c.past && !c.perfect && !c.progressive && !habit {
		return
	}
	i := c.verbAt + 1
	switch {
	case c.seq(i, "all", "of"), c.seq(i, "the", "entire"):
		i += 2 // "binged all of Quiet Acre"
	case c.seq(i, "the", "whole", "of"):
		i += 3 // "binged the whole of Severance"
	case c.seq(i, "the", "whole"):
		i += 2
	}
	r.watched(c, titleNP(c.toks, i), "watched")
}

// watched emits WATCHED for a title, or a show named by its kind.
func (r *outingRules) watched(c *clause, np nounPhrase, verb string) {
	if !usableObject(np) || !np.hasName && !np.quoted && !showNouns[np.head()] {
		return
	}
	k, art := c.object(np, ontology.Artwork, 1)
	c.emit(fx{pred: "WATCHED", obj: k, art: art, tmpl: "{S} " + verb + " {aO}{D}"})
}

// read emits READ for a title.
func (r *outingRules) read(c *clause, np nounPhrase, tmpl string) {
	if !usableObject(np) || !np.hasName && !np.quoted {
		return
	}
	k, art := c.object(np, ontology.Artwork, 1)
	c.emit(fx{pred: "READ", obj: k, art: art, tmpl: tmpl})
}

// ruleFinish: "I finished reading Wolf Hall", "Finished The Glass Orchard
// last night, the last episode wrecked me". A title finished is read or
// watched as the gerund says, else as the message's words say (pages,
// chapter, novel; episode, series, season); a title with no such word is
// left alone, since either would be a guess.
func (r *outingRules) ruleFinish(c *clause) {
	if c.neg || c.modal != "" || c.would || c.future || !c.past && !c.perfect {
		return
	}
	i := c.verbAt + 1
	kind := ""
	switch c.at(i) {
	case "reading", "rereading", "re-reading":
		kind, i = "READ", i+1
	case "watching", "rewatching", "re-watching", "bingeing", "binging":
		kind, i = "WATCHED", i+1
	}
	np := titleNP(c.toks, i)
	if !np.hasName && !np.quoted {
		return
	}
	if kind == "" {
		kind = mediaKind(c.said.event.Content)
	}
	switch kind {
	case "READ":
		r.read(c, np, "{S} finished reading {aO}{D}")
	case "WATCHED":
		r.watched(c, np, "finished watching")
	}
}

// progressScan reads a title the speaker is part-way through: "halfway
// through Wolf Hall", "only 40 pages left of The Salt Cartographer", "two
// episodes into Severance". Pages and chapters are read, episodes and
// seasons watched; "halfway through" takes the message's words (mediaKind).
func (r *outingRules) progressScan(c *clause) {
	t := c.toks
	if c.said.speaker == "" || c.hedge {
		return
	}
	for i := 0; i+2 < len(t) && i < 8; i++ {
		kind, at := "", 0
		switch {
		case t[i].w == "halfway" && t[i+1].w == "through":
			kind, at = mediaKind(c.said.event.Content), i+2
		case alt("pages|page|chapters|chapter", t[i].w) && i > 0 && (t[i-1].kind == nlp.Number || numberWords[t[i-1].w]) &&
			alt("left|into|in", t[i+1].w) && i+2 < len(t):
			kind, at = "READ", i+2
		case alt("episodes|episode|seasons|season", t[i].w) && i > 0 && (t[i-1].kind == nlp.Number || numberWords[t[i-1].w]) &&
			alt("left|into|in", t[i+1].w) && i+2 < len(t):
			kind, at = "WATCHED", i+2
		default:
			continue
		}
		if c.at(at) == "of" || c.at(at) == "to" {
			at++
		}
		for k := 0; k < i; k++ {
			if t[k].kind == nlp.Word && !alt("i|we|am|are|'m|just|only|about|nearly|almost|now|already|finally|so|and|have|got", t[k].w) &&
				t[k].kind != nlp.Number && !numberWords[t[k].w] {
				return // someone else's progress, or not a progress at all
			}
		}
		np := titleNP(t, at)
		subj := c.subj
		c.subj = c.said.speaker
		switch kind {
		case "READ":
			r.read(c, np, "{S} is reading {aO}")
		case "WATCHED":
			r.watched(c, np, "is watching")
		}
		c.subj = subj
		return
	}
}

// titleNP takes a title at i, across the small words a title keeps between
// its capitalised ones ("A Dance with Dragons", "The Lord of the Rings",
// "Pride and Prejudice"), which takeNP would end it at.
func titleNP(t []tok, i int) nounPhrase {
	np := takeNP(t, i)
	if !np.hasName {
		return np
	}
	end := np.next
	for end+1 < len(t) && alt("of|with|and|the|in|on|a|to|for|at|from", t[end].w) && !t[end].first {
		k := end + 1
		for k < len(t) && alt("the|a|an", t[k].w) {
			k++
		}
		if k >= len(t) || !t[k].cap || t[k].kind != nlp.Word {
			break
		}
		for k < len(t) && t[k].cap && t[k].kind == nlp.Word {
			k++
		}
		end = k
	}
	if end == np.next {
		return np
	}
	out := np
	out.toks = append(append([]tok(nil), np.toks...), t[np.next:end]...)
	out.next = end
	return out
}

// readCues and watchCues are the words that say whether a title in a
// message is a book or something watched.
var (
	readCues  = wordSet(`read,reading,book,books,novel,novels,pages,page,chapter,chapters,author,kindle,kobo,audiobook,paperback,hardback,trilogy,sequel,prose`)
	watchCues = wordSet(`watch,watching,watched,binge,binged,bingeing,series,show,season,seasons,episode,episodes,film,movie,netflix,finale,tv,stream,streaming,cinema,cast,actor,actress`)
)

// mediaKind reads a message's words for what its title is: "READ",
// "WATCHED", or "" when they say neither or both.
func mediaKind(text string) string {
	read, watch := false, false
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
		read = read || readCues[w]
		watch = watch || watchCues[w]
	}
	switch {
	case read && !watch:
		return "READ"
	case watch && !read:
		return "WATCHED"
	}
	return ""
}

// ruleSign: "I signed up for a pottery class".
func (r *outingRules) ruleSign(c *clause) {
	if c.at(c.verbAt+1) != "up" || c.at(c.verbAt+2) != "for" || c.neg || c.modal != "" || c.would {
		return
	}
	np := takeNP(c.toks, c.verbAt+3)
	if k, art := c.object(np, ontology.Occasion, 1); k != "" {
		c.emit(fx{pred: "MEMBER_OF", obj: k, art: art, tmpl: "{S} signed up for {aO}{D}"})
		r.hobbies.classActivity(c, np, "signed up for")
	}
}

// event emits ATTENDED for an occasion or VISITED for a place.
func (r *outingRules) event(c *clause, np nounPhrase, plan bool, verb string) {
	head := np.head()
	present := !c.past && !c.perfect
	if present && verb == "went to" {
		verb = "goes to"
	}
	if verb == "went on" && present {
		verb = "goes on"
	}
	switch {
	case occasionNouns[head] || occasionNouns[np.lower()]:
		k, art := c.object(np, ontology.Occasion, 2)
		c.emit(fx{pred: "ATTENDED", obj: k, art: art, tmpl: "{S} " + verb + " {aO}{D}"})
	case isPlaceLike(np) || placeNouns[head]:
		k, art := c.object(np, ontology.Place, 2)
		if np.det == "the" && !np.hasName {
			art = "the"
		}
		c.emit(fx{pred: "VISITED", obj: k, art: art, tmpl: "{S} " + verb + " {aO}{D}"})
	}
}

// goActivity is the activity of "went camping with my family", "go hiking
// all day", "went skiing in the Alps": the gerund without what says where,
// when or with whom it was done, so that every mention of the pastime is
// one entity; the details are returned apart, for the fact's sentence
// ("with family", "in the alps"). What the gerund takes
// as its object stays ("went shopping for shoes").
func goActivity(np nounPhrase) (nounPhrase, string) {
	for k := 1; k < len(np.toks); k++ {
		w := np.toks[k].w
		var next tok
		if k+1 < len(np.toks) {
			next = np.toks[k+1]
		}
		if goAdjuncts[w] || w == "for" && (determiners[next.w] || next.kind == nlp.Number || numberWords[next.w] ||
			alt("hours|ages|days|weeks|months|years|a|while", next.w)) {
			detail := nounPhrase{toks: np.toks[k:]}
			np.toks = np.toks[:k]
			return np, detail.surface()
		}
	}
	return np, ""
}

// goAdjuncts open what follows an activity said with "go" without being
// part of it: company, place, time.
var goAdjuncts = wordSet(`with,in,at,on,near,around,by,along,all,during,over,across,through,to,from,every,last,this,
next,again,today,yesterday,tonight,together,alone,once,twice,lately,recently`)

// backFromScan reads a trip the speaker has come back from: "Just back
// from a week in Krakow", "I got back from Lisbon on Sunday", "we're back
// from Crete". The subject is the speaker's ("I", "we") or left out at the
// start of the sentence; "my sister is back from Peru" is hers, and a plan
// ("when I get back from Rome") asserts nothing yet.
func (r *outingRules) backFromScan(c *clause) {
	t := c.toks
	if c.said.speaker == "" || c.hedge || c.temporal {
		return
	}
	for i := 0; i+2 < len(t) && i < 6; i++ {
		if t[i].w != "back" || t[i+1].w != "from" && !(t[i+1].w == "home" && c.at(i+2) == "from") {
			continue
		}
		from := i + 1
		if t[from].w == "home" {
			from++ // "Back home from Lisbon"
		}
		own := false
		for k := 0; k < i; k++ {
			switch {
			case alt("i|we", t[k].w):
				own = true
			case !alt("just|got|get|am|are|was|were|finally|only|have|had|come|came|arrived|flew|finally|safely|now", t[k].w):
				return
			}
		}
		if !own && !(i == 0 || t[0].first) {
			return
		}
		if alt("get|will|going", c.at(i-1)) && !alt("got", c.at(i-1)) && c.at(i-1) != "just" {
			return // "when I get back from Rome"
		}
		np := takeNP(t, from+1)
		if (durationNouns[np.head()] || tripNouns[np.head()]) && alt("in|at|to", c.at(np.next)) {
			np = takeNP(t, np.next+1) // "a week in Krakow", "holiday in Spain"
		}
		if !usableObject(np) || !np.hasName || !isPlaceLike(np) {
			return // "back from the gym" is no trip
		}
		subj, past := c.subj, c.past
		c.subj, c.past = c.said.speaker, true
		k, art := c.object(np, ontology.Place, 2)
		c.emit(fx{pred: "VISITED", obj: k, art: art, tmpl: "{S} came back from {aO}{D}"})
		c.subj, c.past = subj, past
		return
	}
}

// spentIn: "I spent two weeks in Vietnam over the summer", "we spent the
// weekend in Bath" (a place visited); "I'm spending a month in Peru next
// year" (a trip planned). The span is a time ("two weeks", "the
// weekend"), not money; the place is named.
func (r *outingRules) spentIn(c *clause) bool {
	if c.neg || c.modal != "" || c.would {
		return false
	}
	i := c.verbAt + 1
	for alt("a|an|the|two|three|four|five|six|few|couple|of|whole|entire|last|most|our|my|ten|several|some", c.at(i)) ||
		i < len(c.toks) && c.toks[i].kind == nlp.Number {
		i++
	}
	if !durationNouns[nlp.Singular(c.at(i))] && !timeSpans[c.at(i)] || !alt("in|at", c.at(i+1)) {
		return false
	}
	np := takeNP(c.toks, i+2)
	if !usableObject(np) || !np.hasName || !isPlaceLike(np) {
		return false
	}
	plan := c.future || c.progressive && c.date != nil && c.date.Until.After(c.said.event.OccurredAt)
	if plan {
		r.plans.planTo(c, c.verb, "spend time in", np, ontology.Place)
		return true
	}
	if !c.past && !c.perfect {
		return false
	}
	k, art := c.object(np, ontology.Place, 2)
	c.emit(fx{pred: "VISITED", obj: k, art: art, tmpl: "{S} spent " + c.surfaceOf(c.verbAt+1, i+1) + " in {aO}{D}"})
	return true
}
