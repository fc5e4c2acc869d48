package offline

import (
	"slices"
	"strings"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// nounPhrase is an object or subject phrase read from a clause.
type nounPhrase struct {
	toks    []tok  // content tokens, determiner excluded
	det     string // leading determiner as written, folded ("a", "the", "my", "")
	count   string // a leading number word or digit ("two cats")
	quoted  bool   // a title in quotes
	next    int    // index after the phrase in the clause
	hasName bool   // some content token is a proper name (capitalized mid-sentence)
}

func (np nounPhrase) empty() bool { return len(np.toks) == 0 }

// key is the normalized phrase (entity key material).
func (np nounPhrase) key() string { return nlp.NormalizeName(np.surface()) }

// lower is the folded phrase as written (no singularization).
func (np nounPhrase) lower() string {
	ws := make([]string, len(np.toks))
	for i, t := range np.toks {
		ws[i] = t.w
	}
	return strings.ReplaceAll(strings.Join(ws, " "), " 's", "'s")
}

// head is the last word of the phrase, singularized.
func (np nounPhrase) head() string {
	if len(np.toks) == 0 {
		return ""
	}
	return nlp.Singular(np.toks[len(np.toks)-1].w)
}

// surface is the phrase as written, keeping proper-noun capitals and
// lower-casing common words that were capitalized only because they began
// the sentence ("Tea is my favourite drink" → "tea").
func (np nounPhrase) surface() string {
	var b strings.Builder
	for i, t := range np.toks {
		if i > 0 && t.w != "'s" && t.w != "+" && t.w != "," && !(t.start > 0 && t.start == np.toks[i-1].end && (t.w == "-" || np.toks[i-1].w == "-")) {
			b.WriteByte(' ') // a hyphen written inside a name stays joined ("MX-5")
		}
		s := t.orig
		if t.w == "'s" {
			s = "'s"
		}
		// A sentence's capital on a common word, or on the first of words
		// that takeNP did not read as a name ("Spicy food"), is no name's.
		if t.first && t.cap && !np.quoted && (isCommonWord(t.w) || !np.hasName && i+1 < len(np.toks) && !np.toks[i+1].cap) {
			s = strings.ToLower(s)
		}
		b.WriteString(s)
	}
	return b.String()
}

// isCommonWord reports whether w is a known common noun or gerund, so a
// sentence-initial capital on it is not a proper name.
func isCommonWord(w string) bool {
	return foods[w] || foods[nlp.Singular(w)] || activities[w] || animals[nlp.Singular(w)] ||
		strings.HasSuffix(w, "ing") || musicGenres[w] || vehicleNouns[w] || productNouns[w] ||
		occasionNouns[w] || placeNouns[w] || relations[w].pred != "" || occupations[w] || nlp.IsStopword(w) ||
		diets[w] || statuses[w]
}

// takeNP reads a noun phrase starting at toks[i]. It returns an empty
// phrase when none starts there.
func takeNP(toks []tok, i int) nounPhrase {
	np := nounPhrase{next: i}
	if i >= len(toks) {
		return np
	}
	// A quoted title: "Nothing is Impossible".
	if toks[i].kind == nlp.Punct && (toks[i].w == "\"" || toks[i].w == "“") {
		j := i + 1
		for j < len(toks) && !(toks[j].kind == nlp.Punct && (toks[j].w == "\"" || toks[j].w == "”")) {
			j++
		}
		if j < len(toks) && j > i+1 && j-i <= 12 {
			np.toks, np.quoted, np.next, np.hasName = toks[i+1:j], true, j+1, true
		}
		return np
	}
	if determiners[toks[i].w] {
		np.det = toks[i].w
		i++
	}
	if i < len(toks) && (toks[i].kind == nlp.Number || numberWords[toks[i].w]) && i+1 < len(toks) &&
		toks[i+1].kind == nlp.Word && !npStop[toks[i+1].w] {
		np.count = toks[i].w
		i++
	}
	for i < len(toks) && npSkipAdjectives[toks[i].w] && !(toks[i].cap && !toks[i].first) && i+1 < len(toks) &&
		toks[i+1].kind == nlp.Word && !npStop[toks[i+1].w] {
		i++
	}
	if i+2 < len(toks) && npStop[toks[i].w] && containers[toks[i].w] && toks[i+1].w == "of" {
		// "a bit of stilton", "a lot of jazz": the portion words that stop
		// a phrase stand for what follows their "of" (the other containers
		// are unwrapped after the loop).
		if inner := takeNP(toks, i+2); !inner.empty() {
			return inner
		}
	}
	start := i
	for i < len(toks) && i-start < 6 {
		t := toks[i]
		if t.w == dateTok {
			break
		}
		if t.kind == nlp.Punct || t.kind == nlp.Symbol {
			if t.w == "+" && i > start { // "LGBTQ+"
				i++
				continue
			}
			if modelHyphen(toks, i, start) { // "Mazda MX-5", "Ford F-150"
				i++
				continue
			}
			break
		}
		if t.kind == nlp.Number {
			// Numbers belong to names ("Tesla Model 3", "PS5", "MX-5") only.
			if i > start && (toks[i-1].cap || modelHyphen(toks, i-1, start)) {
				i++
				continue
			}
			break
		}
		if numberWords[t.w] && i > start && i+1 < len(toks) && (alt("times|x", toks[i+1].w) ||
			toks[i-1].cap && alt("years|months|weeks|days|hours|minutes|decades|nights", toks[i+1].w)) {
			break // "the gym three times a week", "in Berlin three years now": a frequency or a span ends the phrase
		}
		if determiners[t.w] && i > start && !(t.cap && !t.first) {
			break // "give kids a loving home": a new phrase starts
		}
		if t.w == "'s" {
			if i == start || i+1 >= len(toks) || toks[i+1].kind != nlp.Word || npStop[toks[i+1].w] {
				break
			}
			i++
			continue
		}
		if npStop[t.w] && !(t.cap && !t.first && i > start && t.w != "i") {
			// "of" and "&" join proper names ("University of Oxford").
			break
		}
		if t.w == "of" || t.w == "&" {
			if i > start && i+1 < len(toks) && toks[i+1].cap && toks[i+1].w != "i" {
				i++
				continue
			}
			// "Lord of the Rings"
			if t.w == "of" && i > start && toks[i-1].cap && i+2 < len(toks) && toks[i+1].w == "the" && toks[i+2].cap {
				i += 2
				continue
			}
			break
		}
		if i > start && toks[i-1].cap && !t.cap && lyAdverb(t.w) {
			break // "our place in Utrecht finally feels like home": the adverb ends the name
		}
		if _, f, isVerb := verbOf(t.w); isVerb && i > start && (f == formS || f == formPast) && !t.cap &&
			!(f == formS && pluralNounAt(toks, i)) {
			break // "raw fish makes": the verb ends the subject phrase
		}
		i++
	}
	if i == start {
		return np
	}
	if i+1 < len(toks) && toks[i].w == "of" && containers[toks[i-1].w] {
		// "a good glass of red wine" is the wine
		inner := takeNP(toks, i+1)
		if !inner.empty() {
			return inner
		}
	}
	np.toks = toks[start:i]
	np.next = i
	for k, t := range np.toks {
		// A sentence's first word is capitalized whatever it is: it names
		// something only when it is no common word, and not when lower-case
		// words follow it in the phrase ("Brutalist architecture", but
		// "Netflix" and "Lake Como").
		if t.cap && (!t.first || !isCommonWord(t.w) && (k+1 == len(np.toks) || np.toks[k+1].cap)) {
			np.hasName = true
		}
	}
	return np
}

// modelHyphen reports whether the hyphen at i joins a name to the number
// or capitalized word after it with no space on either side, as a model's
// name does ("MX-5", "F-150", "XC-40").
func modelHyphen(toks []tok, i, start int) bool {
	return toks[i].w == "-" && i > start && i+1 < len(toks) && toks[i-1].cap && toks[i-1].end == toks[i].start &&
		toks[i].end == toks[i+1].start && (toks[i+1].kind == nlp.Number || toks[i+1].cap)
}

// lyAdverb reports whether w is an adverb in -ly, which no name continues
// with ("Utrecht finally", "Lisbon mostly"); the nouns and adjectives in
// -ly that can follow a name ("the Smith family", "Lake Como daily trips")
// are not.
func lyAdverb(w string) bool {
	return len(w) > 4 && strings.HasSuffix(w, "ly") && !lyWords[w]
}

// pluralNounAt reports whether the -s form at i ends the phrase as a plural
// noun rather than starting a verb: nothing a verb would take follows it
// ("I'm done with energy drinks.", "energy drinks and coffee", "energy
// drinks anymore"), where "raw fish makes me sick" goes on.
func pluralNounAt(toks []tok, i int) bool {
	if !strings.HasSuffix(toks[i].w, "s") {
		return false
	}
	if i+1 >= len(toks) {
		return true
	}
	n := toks[i+1]
	return n.kind == nlp.Punct || alt("and|or|too|either|anymore|now|lately|nowadays|again", n.w) || trailingAdverbs[n.w] || forSpan(toks, i+1)
}

// takeList reads "A, B and C" starting at i: noun phrases separated by
// commas, "and", "or", "as well as", "&".
func takeList(toks []tok, i int) ([]nounPhrase, int) {
	var out []nounPhrase
	for {
		var np nounPhrase
		if i < len(toks) && isGerund(toks[i]) {
			np = gerundPhrase(toks, toks[i].w, i+1)
		} else {
			np = takeNP(toks, i)
		}
		if np.empty() {
			break
		}
		if n := np.next; n+1 < len(toks) && alt("and|&|n|'n'", toks[n].w) && binomials[np.toks[len(np.toks)-1].w+" "+toks[n+1].w] {
			// "fish and chips", "mac and cheese": one thing, not two
			np.toks = append(np.toks[:len(np.toks):len(np.toks)], toks[n], toks[n+1])
			np.next = n + 2
		}
		out = append(out, np)
		i = np.next
		j := i
		if j < len(toks) && toks[j].w == "," {
			j++
		}
		switch {
		case j < len(toks) && (toks[j].w == "and" || toks[j].w == "or" || toks[j].w == "&"):
			j++
		case j+2 < len(toks) && toks[j].w == "as" && toks[j+1].w == "well" && toks[j+2].w == "as":
			j += 3
		case j > i:
		default:
			return out, i
		}
		// Only continue when a real phrase follows (not a clause, nor a
		// comparative correlative: "spicy food, the hotter the better").
		if j >= len(toks) || auxiliaries[toks[j].w] || subjectPronouns[toks[j].w] || correlativeAt(toks, j) {
			return out, i
		}
		i = j
	}
	return out, i
}

// correlativeAt reports whether toks at i open a comparative correlative,
// "the hotter the better", "the more players the merrier": "the" and a
// comparative, then, within a few words, "the" and a comparative again.
// It says how much, and names nothing.
func correlativeAt(toks []tok, i int) bool {
	if i+3 >= len(toks) || toks[i].w != "the" || !comparative(toks[i+1].w) {
		return false
	}
	for j := i + 2; j+1 < len(toks) && j <= i+5; j++ {
		if toks[j].w == "the" && comparative(toks[j+1].w) {
			return true
		}
	}
	return false
}

// comparative reports whether a word is a comparative: more, less, the
// irregular ones, or an adjective's -er form ("hotter", "stronger").
func comparative(w string) bool {
	switch w {
	case "more", "less", "fewer", "better", "worse", "further", "farther":
		return true
	}
	return len(w) > 4 && strings.HasSuffix(w, "er")
}

// usableObject reports whether a phrase can be a fact's object.
func usableObject(np nounPhrase) bool {
	if np.empty() || len(np.toks) > 6 {
		return false
	}
	if pronounObjects[np.toks[0].w] && !np.toks[0].cap {
		return false // "something bigger", "one of them"
	}
	if np.det == "this" || np.det == "that" || np.det == "these" || np.det == "those" {
		// "that painting" points at something in the chat, not a stable thing.
		return np.hasName
	}
	for _, t := range np.toks {
		if t.kind == nlp.Word || t.kind == nlp.Number {
			return true
		}
	}
	return false
}

// classify types a phrase from the gazetteers, its capitals and its head.
func classify(np nounPhrase) (ontology.EntityType, bool) {
	key := np.key()
	if t, ok := entityTypeOf(key); ok {
		return t, true
	}
	low := np.lower()
	if t, ok := entityTypeOf(low); ok {
		return t, true
	}
	if np.quoted {
		return ontology.Artwork, true
	}
	head := np.head()
	switch {
	case orgSuffixes[head] && np.hasName:
		return ontology.Organization, true
	case places[head] || (placeNouns[head] && !np.hasName):
		return ontology.Place, true
	case occasionNouns[head]:
		return ontology.Occasion, true
	case foods[head]:
		return ontology.Food, true
	case activities[head] || strings.HasSuffix(np.toks[0].w, "ing") && len(np.toks) <= 3 && !np.hasName:
		return ontology.Activity, true
	case productNouns[head] || vehicleNouns[head] || vehicleMakes[np.toks[0].w]:
		return ontology.Product, true
	case animals[head]:
		return ontology.Animal, true
	case occupations[head]:
		return ontology.Concept, true
	}
	if np.hasName && len(np.toks) <= 3 && firstNames[np.toks[0].w] {
		return ontology.Person, true
	}
	return ontology.Concept, false
}

// isPlaceLike reports whether a phrase can be where someone lives: a
// known place, or a proper name.
func isPlaceLike(np nounPhrase) bool {
	if np.empty() {
		return false
	}
	if places[np.key()] || places[np.lower()] {
		return true
	}
	if !np.hasName {
		return false
	}
	t, ok := classify(np)
	switch {
	case !ok || t == ontology.Place:
		return true
	case t == ontology.Activity || t == ontology.Food || t == ontology.Animal:
		// A common word capitalised inside a sentence, where a place goes,
		// is a town's name: "we live in Reading", "moved to Buffalo".
		return np.det == "" && !slices.ContainsFunc(np.toks, func(t tok) bool { return !t.cap || t.first })
	}
	return false
}

// knownPlace reports whether a phrase is a place the lexicon or the name
// classifier knows; an unknown name is not one (isPlaceLike counts it).
func knownPlace(np nounPhrase) bool {
	if np.empty() {
		return false
	}
	if places[np.key()] || places[np.lower()] {
		return true
	}
	t, ok := classify(np)
	return np.hasName && ok && t == ontology.Place
}

// isOrgLike reports whether a phrase can be an employer: a proper name
// that is not a known place, language or person.
func isOrgLike(np nounPhrase) bool {
	if np.empty() || len(np.toks) == 1 && pronounObjects[np.toks[0].w] {
		return false
	}
	if knownOrgs[np.key()] {
		return true
	}
	if !np.hasName {
		return false
	}
	t, ok := classify(np)
	return !ok || t == ontology.Organization || t == ontology.Concept
}

// isGerund reports whether a token is an -ing verb form used as a noun
// ("running", "working in mental health"), not a noun that ends in -ing.
func isGerund(t tok) bool {
	w := t.w
	if len(w) < 5 || !strings.HasSuffix(w, "ing") || t.cap && !t.first || foods[w] || ingNouns[w] {
		return false
	}
	return true
}

// gerundPhrase builds an activity phrase from a gerund and the words that
// complete it ("working" + "in mental health", "playing" + "the violin",
// "creating" + "a safe, inviting place"), up to a clause boundary.
func gerundPhrase(t []tok, g string, i int) nounPhrase {
	parts := []tok{{w: g, orig: g}}
	j := i
	for j < len(t) && len(parts) < 7 {
		w := t[j]
		if w.kind == nlp.Punct && w.w != "," || w.kind == nlp.Symbol && w.w != "+" || w.w == dateTok || gerundStop[w.w] || forSpan(t, j) {
			break
		}
		if w.w == "," && (j+1 >= len(t) || t[j+1].kind != nlp.Word || listItemStart(t[j+1]) || determiners[t[j+1].w] ||
			subjectPronouns[t[j+1].w]) {
			break
		}
		if (w.w == "and" || w.w == "or") && (j+1 >= len(t) || listItemStart(t[j+1]) || subjectPronouns[t[j+1].w] || determiners[t[j+1].w]) {
			break
		}
		if alt("my|our|your|his|her|their", w.w) {
			j++
			continue
		}
		if n := quantityLen(t, j); n > 0 {
			j += n // "cooking a lot of lentils" is cooking lentils
			continue
		}
		parts = append(parts, w)
		j++
	}
	for len(parts) > 1 {
		last := parts[len(parts)-1].w
		if !(npStop[last] || determiners[last] || last == ",") {
			break
		}
		parts = parts[:len(parts)-1]
	}
	return nounPhrase{toks: parts, next: j}
}

// forSpan reports whether t[j] opens a "for" that says how long, not what
// for: "done with camping for good", "cycling for now", "off sugar for a
// while".
func forSpan(t []tok, j int) bool {
	if t[j].w != "for" || j+1 >= len(t) {
		return false
	}
	next := t[j+1].w
	if next == "good" {
		// "for good" lasts when it ends the clause ("done with camping for
		// good.", "quit for good last year"); "using tech for good in the
		// community" is for good causes
		return j+2 >= len(t) || t[j+2].kind != nlp.Word || alt("and|but|so|now|this|last|after|since|though", t[j+2].w)
	}
	return alt("now|ever|keeps|real|life", next) ||
		j+2 < len(t) && (next == "a" && alt("while|bit", t[j+2].w) || next == "the" && alt("moment|time|foreseeable", t[j+2].w))
}

// vpPhrase is a verb phrase as said, for plan sentences: the base verb and
// its complement up to a clause boundary, with "my"/"our" turned into
// "their" ("build my own family" → "build their own family").
func vpPhrase(t []tok, lemma string, i int) string {
	out := []string{lemma}
	j := i
	for j < len(t) && len(out) < 9 {
		w := t[j]
		if w.kind == nlp.Punct || w.kind == nlp.Symbol && w.w != "+" || w.w == dateTok || gerundStop[w.w] && !alt("them|it|him|her|me|us", w.w) {
			break
		}
		if (w.w == "and" || w.w == "or") && (j+1 >= len(t) || subjectPronouns[t[j+1].w] || isBaseForm(t[j+1].w)) {
			break
		}
		switch w.w {
		case "my", "our":
			out = append(out, "their")
		case "me", "us":
			out = append(out, "them")
		case "myself", "ourselves":
			out = append(out, "themselves")
		default:
			out = append(out, w.orig)
		}
		j++
	}
	for len(out) > 1 && (npStop[nlp.Fold(out[len(out)-1])] || determiners[nlp.Fold(out[len(out)-1])]) {
		out = out[:len(out)-1]
	}
	return strings.Join(out, " ")
}

// isBaseForm reports whether w is the base form of a known verb.
func isBaseForm(w string) bool {
	_, f, ok := verbOf(w)
	return ok && f == formBase || otherVerbs[w]
}

// quantityLen is the length of a vague quantity at i ("a lot of", "lots
// of", "loads of", "a bit of", "plenty of"), which no pastime's name
// keeps; 0 when none is there.
func quantityLen(t []tok, i int) int {
	at := func(k int) string {
		if k < len(t) {
			return t[k].w
		}
		return ""
	}
	switch {
	case at(i) == "a" && alt("lot|bit|ton|bunch|load", at(i+1)) && at(i+2) == "of":
		return 3
	case alt("lots|loads|tons|plenty", at(i)) && at(i+1) == "of":
		return 2
	}
	return 0
}
