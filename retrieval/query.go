package retrieval

import (
	"strings"

	"github.com/graphmem/graphmem/nlp"
)

// queryAnalysis is what search reads from a query: the words for full
// text, whether it is about the user, and which fact predicates it asks
// about. The entities it names are found by matching its word n-grams
// against stored names (nameGrams), not by guessing from capitals.
type queryAnalysis struct {
	Words      []string        // lower-case content words, for Lucene (which stems them itself)
	Stems      map[string]bool // stemmed content words, to score fact sentences
	AboutUser  bool            // "the user", "I", "my", "me"
	Predicates map[string]float64
	// HintStems are the stems that produced predicate hints: a fact of the
	// hinted type already answers them, so they are not asked of its words.
	HintStems map[string]bool
}

// questionWords carry no topic: they are dropped from full-text queries on
// top of ordinary stop words.
var questionWords = map[string]bool{
	"what": true, "when": true, "where": true, "who": true, "whom": true, "whose": true, "which": true,
	"why": true, "how": true, "did": true, "does": true, "do": true, "is": true, "are": true, "was": true,
	"were": true, "has": true, "have": true, "had": true, "kind": true, "kinds": true, "type": true,
	"types": true, "user": true, "user's": true, "ever": true, "currently": true, "now": true,
	"would": true, "could": true, "likely": true, "might": true, "many": true, "much": true,
}

// predicateLexicon maps words a question uses to the fact types that
// answer it, with a weight: "where does she live" is about LIVES_IN, "what
// activities" about PRACTICES and ATTENDED. It is a general English lexicon
// over the ontology's vocabulary, not a list of known questions; it is
// indexed by stem (hintIndex) so inflections match.
var predicateLexicon = map[string]map[string]float64{
	"live":         {"LIVES_IN": 1, "FROM": 0.5},
	"home":         {"LIVES_IN": 1, "FROM": 0.7},
	"hometown":     {"FROM": 1, "LIVES_IN": 0.5},
	"move":         {"LIVES_IN": 1, "FROM": 0.8},
	"moved":        {"LIVES_IN": 1, "FROM": 0.8},
	"city":         {"LIVES_IN": 0.8, "VISITED": 0.5, "FROM": 0.5},
	"country":      {"FROM": 1, "LIVES_IN": 0.6, "VISITED": 0.5},
	"origin":       {"FROM": 1},
	"work":         {"WORKS_AT": 1, "WORKS_AS": 0.8},
	"job":          {"WORKS_AT": 1, "WORKS_AS": 1},
	"career":       {"WORKS_AS": 1, "WORKS_AT": 0.6, "HAS_GOAL": 0.6, "STUDIES": 0.4},
	"company":      {"WORKS_AT": 1},
	"employer":     {"WORKS_AT": 1},
	"profession":   {"WORKS_AS": 1},
	"occupation":   {"WORKS_AS": 1},
	"study":        {"STUDIES": 1, "STUDIES_AT": 1, "LEARNING": 0.6},
	"school":       {"STUDIES_AT": 1},
	"education":    {"STUDIES": 1, "STUDIES_AT": 1, "HAS_GOAL": 0.5},
	"learn":        {"LEARNING": 1, "STUDIES": 0.6},
	"language":     {"LEARNING": 0.8, "HAS_FAVORITE": 0.4},
	"like":         {"LIKES": 1, "PREFERS": 0.6, "HAS_FAVORITE": 0.6, "DISLIKES": 0.6},
	"love":         {"LIKES": 1, "HAS_FAVORITE": 0.6},
	"enjoy":        {"LIKES": 1, "PRACTICES": 0.6},
	"favorite":     {"HAS_FAVORITE": 1, "LIKES": 0.7, "PREFERS": 0.5},
	"favourite":    {"HAS_FAVORITE": 1, "LIKES": 0.7, "PREFERS": 0.5},
	"prefer":       {"PREFERS": 1, "LIKES": 0.6, "HAS_FAVORITE": 0.5},
	"hate":         {"DISLIKES": 1},
	"dislike":      {"DISLIKES": 1},
	"activity":     {"PRACTICES": 1, "ATTENDED": 0.8, "LIKES": 0.4},
	"hobby":        {"PRACTICES": 1, "LIKES": 0.6},
	"partake":      {"PRACTICES": 1, "ATTENDED": 0.8},
	"fun":          {"PRACTICES": 0.8, "LIKES": 0.6},
	"sport":        {"PRACTICES": 1, "SUPPORTS": 0.6},
	"plays":        {"PRACTICES": 1},
	"play":         {"PRACTICES": 1},
	"attend":       {"ATTENDED": 1},
	"went":         {"ATTENDED": 0.8, "VISITED": 0.8},
	"event":        {"ATTENDED": 1},
	"visit":        {"VISITED": 1},
	"travel":       {"VISITED": 1},
	"trip":         {"VISITED": 0.8, "HAS_BUDGET": 0.5, "PLANS": 0.6},
	"camp":         {"PRACTICES": 0.6, "VISITED": 0.6, "ATTENDED": 0.5},
	"plan":         {"PLANS": 1, "HAS_GOAL": 0.6},
	"goal":         {"HAS_GOAL": 1, "PLANS": 0.6},
	"want":         {"HAS_GOAL": 0.8, "PLANS": 0.8},
	"dream":        {"HAS_GOAL": 1},
	"pet":          {"HAS_PET": 1},
	"dog":          {"HAS_PET": 1},
	"cat":          {"HAS_PET": 1},
	"animal":       {"HAS_PET": 0.8},
	"kid":          {"PARENT_OF": 1, "CHILD_OF": 0.4},
	"child":        {"PARENT_OF": 1, "CHILD_OF": 0.4},
	"son":          {"PARENT_OF": 1},
	"daughter":     {"PARENT_OF": 1},
	"parent":       {"CHILD_OF": 1, "PARENT_OF": 0.5},
	"mother":       {"CHILD_OF": 1, "PARENT_OF": 0.4},
	"mom":          {"CHILD_OF": 1, "PARENT_OF": 0.4},
	"father":       {"CHILD_OF": 1, "PARENT_OF": 0.4},
	"dad":          {"CHILD_OF": 1, "PARENT_OF": 0.4},
	"family":       {"PARENT_OF": 0.8, "SIBLING_OF": 0.8, "RELATIVE_OF": 0.8, "MARRIED_TO": 0.6, "CHILD_OF": 0.6},
	"sister":       {"SIBLING_OF": 1},
	"brother":      {"SIBLING_OF": 1},
	"sibling":      {"SIBLING_OF": 1},
	"grandma":      {"RELATIVE_OF": 1},
	"grandmother":  {"RELATIVE_OF": 1},
	"friend":       {"FRIEND_OF": 1, "KNOWS": 0.5},
	"colleague":    {"COLLEAGUE_OF": 1},
	"married":      {"MARRIED_TO": 1, "HAS_STATUS": 0.8},
	"husband":      {"MARRIED_TO": 1},
	"wife":         {"MARRIED_TO": 1},
	"spouse":       {"MARRIED_TO": 1},
	"partner":      {"PARTNER_OF": 1, "MARRIED_TO": 0.8},
	"relationship": {"HAS_STATUS": 1, "PARTNER_OF": 0.8, "MARRIED_TO": 0.8},
	"single":       {"HAS_STATUS": 1},
	"status":       {"HAS_STATUS": 1},
	"identity":     {"IS_A": 1},
	"car":          {"DRIVES": 1, "OWNS": 0.8},
	"drive":        {"DRIVES": 1},
	"own":          {"OWNS": 1},
	"bought":       {"OWNS": 1},
	"phone":        {"USES": 1, "OWNS": 0.8},
	"uses":         {"USES": 0.8},
	"use":          {"USES": 0.8},
	"team":         {"SUPPORTS": 1, "MEMBER_OF": 0.6},
	"support":      {"SUPPORTS": 1},
	"member":       {"MEMBER_OF": 1},
	"group":        {"MEMBER_OF": 0.8, "ATTENDED": 0.6},
	"allergic":     {"ALLERGIC_TO": 1},
	"diet":         {"HAS_DIET": 1},
	"vegetarian":   {"HAS_DIET": 1},
	"vegan":        {"HAS_DIET": 1},
	"eat":          {"HAS_DIET": 0.6, "LIKES": 0.6},
	"food":         {"LIKES": 0.8, "HAS_FAVORITE": 0.6, "HAS_DIET": 0.4},
	"drink":        {"LIKES": 0.8},
	"read":         {"READ": 1},
	"book":         {"READ": 1, "CREATED": 0.4},
	"watch":        {"WATCHED": 1},
	"movie":        {"WATCHED": 1},
	"film":         {"WATCHED": 1},
	"paint":        {"CREATED": 1, "PRACTICES": 0.8},
	"create":       {"CREATED": 1},
	"made":         {"CREATED": 0.8},
	"budget":       {"HAS_BUDGET": 1, "HAS_MEASURE": 0.8},
	"cost":         {"HAS_BUDGET": 0.6},
	"price":        {"HAS_BUDGET": 0.6},
	"meet":         {"SCHEDULED_ON": 1},
	"schedule":     {"SCHEDULED_ON": 1},
	"age":          {"HAS_AGE": 1},
	"old":          {"HAS_AGE": 0.8},
	"birthday":     {"BORN_ON": 1},
	"born":         {"BORN_ON": 1, "FROM": 0.6},
	"research":     {"STUDIES": 0.8, "HAS_GOAL": 0.4},
	"instrument":   {"PRACTICES": 1},
	// Measures: the verb or the noun of the quantity asked for ("How much
	// does the user weigh?" finds "The user's weight is 84 kilos", which
	// shares no stem with it).
	"weigh": {"HAS_MEASURE": 1}, "weight": {"HAS_MEASURE": 1}, "earn": {"HAS_MEASURE": 1}, "salary": {"HAS_MEASURE": 1},
	"income": {"HAS_MEASURE": 1}, "paid": {"HAS_MEASURE": 0.8}, "rent": {"HAS_MEASURE": 1}, "mortgage": {"HAS_MEASURE": 1},
	"tall": {"HAS_MEASURE": 1}, "height": {"HAS_MEASURE": 1}, "pulse": {"HAS_MEASURE": 1}, "sleep": {"HAS_MEASURE": 0.8},
	"saved": {"HAS_MEASURE": 0.8}, "savings": {"HAS_MEASURE": 1},
}

// maxNameWords is the longest entity name a query is searched for, in
// words ("New York City Marathon").
const maxNameWords = 4

// nameGrams returns the normalized 1- to maxNameWords-word sequences of a
// query, which are matched exactly against entity names (as the extractor
// normalizes them) to find the entities the query names.
func nameGrams(q string) []string {
	words := nlp.Words(q)
	seen := map[string]bool{}
	var out []string
	for i := range words {
		for n := 1; n <= maxNameWords && i+n <= len(words); n++ {
			g := nlp.NormalizeName(strings.Join(words[i:i+n], " "))
			if g == "" || seen[g] || (n == 1 && (questionWords[g] || nlp.IsStopword(g))) {
				continue
			}
			seen[g] = true
			out = append(out, g)
		}
	}
	return out
}

// whHints say which fact types a question word asks for: "where" wants a
// place or an organization, "who" a person, "when" a time. They add to the
// topic's hints, so "where does she work" prefers WORKS_AT to WORKS_AS.
var whHints = map[string]map[string]float64{
	"where": {"LIVES_IN": 1, "WORKS_AT": 1, "FROM": 1, "VISITED": 1, "STUDIES_AT": 1, "LOCATED_IN": 1, "ATTENDED": 0.6, "MEMBER_OF": 0.5},
	"who": {"MARRIED_TO": 1, "PARTNER_OF": 1, "FRIEND_OF": 1, "SIBLING_OF": 1, "PARENT_OF": 1, "CHILD_OF": 1,
		"RELATIVE_OF": 1, "KNOWS": 0.8, "COLLEAGUE_OF": 1, "SUPPORTS": 0.4},
	"when":  {"SCHEDULED_ON": 1, "BORN_ON": 1, "ATTENDED": 0.4, "VISITED": 0.4, "PLANS": 0.4},
	"which": {"HAS_FAVORITE": 0.5, "PREFERS": 0.5, "SUPPORTS": 0.4, "USES": 0.4, "DRIVES": 0.4, "LEARNING": 0.4},
}

// hintIndex is predicateLexicon keyed by stem.
type hintIndex map[string]map[string]float64

func newHintIndex() hintIndex {
	idx := hintIndex{}
	for word, preds := range predicateLexicon {
		stem := nlp.Stem(word)
		if idx[stem] == nil {
			idx[stem] = map[string]float64{}
		}
		for p, w := range preds {
			idx[stem][p] = max(idx[stem][p], w)
		}
	}
	return idx
}

// analyzeQuery reads a query once for every search signal; whWeight scales
// the question word's hints against the topic's (Config.WhHintWeight).
func analyzeQuery(q string, hints hintIndex, whWeight float64) queryAnalysis {
	a := queryAnalysis{Stems: map[string]bool{}, Predicates: map[string]float64{}, HintStems: map[string]bool{}}
	wh := map[string]float64{}
	for _, w := range nlp.Words(q) {
		bare := strings.TrimSuffix(w, "'s")
		switch bare {
		case "i", "me", "my", "mine", "myself", "user", "users":
			a.AboutUser = true
		}
		for p, wgt := range whHints[bare] {
			wh[p] = max(wh[p], wgt)
		}
		if bare == "" {
			continue
		}
		// Hints come from every word: "like" is a stop word for full text
		// but says the question is about LIKES.
		stem := nlp.Stem(bare)
		for p, wgt := range hints[stem] {
			a.Predicates[p] = max(a.Predicates[p], wgt)
			a.HintStems[stem] = true
		}
		if questionWords[w] || nlp.IsStopword(bare) {
			continue
		}
		a.Words = append(a.Words, bare)
		a.Stems[stem] = true
	}
	for p, wgt := range wh {
		a.Predicates[p] += whWeight * wgt
	}
	return a
}

// withoutNames returns the query's topic: its stems minus those of the
// given entity names. "What is John's degree in?" is about "degree" once
// John is resolved; a memory that only says "John" has not answered it.
func (a queryAnalysis) withoutNames(names []string) map[string]bool {
	topic := make(map[string]bool, len(a.Stems))
	for st := range a.Stems {
		topic[st] = true
	}
	for _, n := range names {
		for _, t := range nlp.Terms(n) {
			delete(topic, t)
		}
	}
	return topic
}

// termCache memoizes the lower-cased texts of one search: the same fact
// or turn is scored against several topics.
type termCache map[string]string

// coverage is the share of the topic stems that text contains; with no
// topic (the query is only names) every text covers it. A stem matches a
// word that starts with it ("paint" in "painting"); stems of shortStem
// letters or fewer must be the whole word, so "go" does not match "good". This
// scan is much cheaper than tokenizing every candidate, and it is all
// ranking needs.
func (tc termCache) coverage(topic map[string]bool, text string) float64 {
	if len(topic) == 0 {
		return 1
	}
	lower, ok := tc[text]
	if !ok {
		lower = nlp.Fold(text)
		tc[text] = lower
	}
	n := 0
	for st := range topic {
		if containsWordPrefix(lower, st) {
			n++
		}
	}
	return float64(n) / float64(len(topic))
}

// shortStem is the longest stem that must match a whole word (or its
// plural) rather than a word's start: short stems start too many words.
const shortStem = 3

// containsWordPrefix reports whether a word of text starts with stem (or,
// for short stems, is stem, optionally plural).
func containsWordPrefix(text, stem string) bool {
	for from := 0; ; {
		i := strings.Index(text[from:], stem)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(stem)
		if i == 0 || !isLetter(text[i-1]) {
			if len(stem) > shortStem || wordEndsAt(text, end) || (text[end] == 's' && wordEndsAt(text, end+1)) ||
				(strings.HasPrefix(text[end:], "es") && wordEndsAt(text, end+2)) {
				return true
			}
		}
		from = i + 1
	}
}

func wordEndsAt(text string, i int) bool { return i >= len(text) || !isLetter(text[i]) }

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b >= 0x80 }
