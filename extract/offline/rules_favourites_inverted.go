package offline

import (
	"slices"
	"unicode"

	"strings"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// Favourites said by habit or object first, without "my favourite ... is":
// "Pho is the dish I order most", "the film I rewatch most is Alien",
// "Pad thai is what I get every single time now", "Dune has overtaken
// everything as my comfort read". The category comes from the sentence
// ("dish") or, failing that, from the habit's verb ("order" → a takeaway
// order); the words are in lexicon_favourites.go.

// habitFavouriteFrame reads the three habit shapes and the overtaking one.
func (r *favouriteRules) habitFavouriteFrame(c *clause) bool {
	sp := c.said.speaker
	t := c.toks
	if sp == "" || c.hedge {
		return false
	}
	// "The CAT I VERB most is X"
	if c.at(0) == "the" {
		cat, i := c.categoryAt(1)
		if cat == "" {
			return false
		}
		verbCat, j, ok := c.habitAt(i)
		if !ok {
			return false
		}
		_ = verbCat
		n, isCop, neg, _ := c.copulaAt(j)
		if !isCop || neg {
			return false
		}
		items, _ := takeList(t, n)
		if len(items) != 1 {
			return false
		}
		r.favourite(c, sp, cat, items, false, c.now)
		c.subj = sp
		return true
	}
	// "X is the CAT I VERB most", "X is what I VERB every time"
	cop := 1
	for cop < len(t) && cop < 7 && !alt("is|are|'s|has|have", t[cop].w) && !overtakeVerbs[t[cop].w] {
		cop++
	}
	if cop >= len(t) || cop >= 7 {
		return false
	}
	np := takeNP(t[:cop], 0)
	if np.next != cop && bareWords(t[:cop]) {
		np = nounPhrase{toks: t[:cop], next: cop}
	}
	if np.next != cop || !usableObject(np) || np.det == "my" || np.det == "our" || alt("it|this|that", np.lower()) {
		return false
	}
	i := cop + 1
	if alt("has|have", t[cop].w) || overtakeVerbs[t[cop].w] {
		return r.overtake(c, np, cop)
	}
	for c.at(i) == "now" || c.at(i) == "still" || c.at(i) == "always" {
		i++
	}
	cat := ""
	switch {
	case c.at(i) == "the":
		var k int
		if cat, k = c.categoryAt(i + 1); cat == "" {
			return false
		}
		i = k
	case c.at(i) == "what":
		i++
	default:
		return r.overtake(c, np, cop)
	}
	verbCat, _, ok := c.habitAt(i)
	if !ok {
		return false
	}
	if cat == "" {
		cat = verbCat
	}
	if cat == "" {
		return false
	}
	r.favourite(c, sp, cat, []nounPhrase{np}, false, c.now)
	c.subj = sp
	return true
}

// categoryAt reads a favourite's category at i ("dish", "board game"),
// known to the lexicon, and returns it with the index after it.
func (c *clause) categoryAt(i int) (string, int) {
	for n := 2; n >= 1; n-- {
		if i+n > len(c.toks) {
			continue
		}
		w := words(c.toks[i : i+n])
		if strings.Count(w, " ") != n-1 {
			continue
		}
		f := strings.Fields(w)
		if len(f) != n {
			continue // punctuation or symbols ("The#"): no category words
		}
		f[len(f)-1] = nlp.Singular(f[len(f)-1])
		cat := strings.Join(f, " ")
		if _, ok := favouriteCategoryType(canonicalCategory(cat)); ok || categorySynonyms[cat] != "" {
			return cat, i + n
		}
	}
	return "", i
}

// habitAt reads "(that) I VERB (particle) MARKER" at i: the speaker's habit
// with a word of frequency. It returns the category the verb implies and
// the index after the habit.
func (c *clause) habitAt(i int) (string, int, bool) {
	if c.at(i) == "that" {
		i++
	}
	if !alt("i|we", c.at(i)) {
		return "", i, false
	}
	i++
	for alt("always|usually|still|end|ended|just|'ve|have|probably", c.at(i)) {
		i++
		if c.at(i) == "up" {
			i++
		}
	}
	w := c.at(i)
	lemma := w
	if l, _, ok := verbOf(w); ok {
		lemma = l
	}
	lemma = strings.TrimSuffix(strings.TrimSuffix(lemma, "ing"), "ed")
	cat, ok := habitVerbs[lemma]
	if !ok {
		if cat, ok = habitVerbs[strings.TrimSuffix(w, "s")]; !ok {
			return "", i, false
		}
	}
	i++
	if alt("to|for|from|on|in", c.at(i)) {
		i++ // "listen to", "reach for"
	}
	for k := 0; k < 3; k++ {
		if c.at(i) == "now" || c.at(i) == "these" || c.at(i) == "days" {
			i++
		}
	}
	for _, m := range habitMarkers {
		if c.seq(i, m...) {
			return cat, i + len(m), true
		}
	}
	return "", i, false
}

// overtake: "X has overtaken everything as my comfort movie", "X replaced
// Y as my go-to drink", "X became my favourite podcast".
func (r *favouriteRules) overtake(c *clause, np nounPhrase, i int) bool {
	if alt("has|have|'s|is", c.at(i)) {
		i++
	}
	for evalAdverbs[c.at(i)] || c.at(i) == "officially" || c.at(i) == "finally" {
		i++
	}
	if !overtakeVerbs[c.at(i)] {
		return false
	}
	for k := i + 1; k < len(c.toks) && k < i+8; k++ {
		if c.at(k) != "as" && !(alt("become|became|becomes", c.at(i)) && k == i+1) {
			continue
		}
		j := k
		if c.at(j) == "as" {
			j++
		}
		if !alt("my|our", c.at(j)) {
			continue
		}
		j++
		fav := false
		for favouriteWords[c.at(j)] || favouriteModifiers[c.at(j)] || alt("new|top|number|one", c.at(j)) {
			fav, j = true, j+1
		}
		cat, _ := c.categoryAt(j)
		if !fav || cat == "" {
			return false
		}
		r.favourite(c, c.said.speaker, cat, []nounPhrase{np}, false, true)
		c.subj = c.said.speaker
		return true
	}
	return false
}

// alwaysForMeFrame: "whenever we get takeaway, it's always lamb rogan josh
// for me", "at the pub it's always a pint of Guinness for me": a habitual
// choice, said as what it always is for the speaker. The category comes
// from the occasion the message names (occasionCategories: a takeaway is
// a takeaway order, the pub a drink); without one it is a liking.
func (r *favouriteRules) alwaysForMeFrame(c *clause) bool {
	sp := c.said.speaker
	if sp == "" || c.hedge {
		return false
	}
	// the occasion may open the clause: "when we eat out it's always..."
	k := 0
	for k < 8 && k+2 < len(c.toks) && !(c.at(k) == "it" && alt("is|'s", c.at(k+1)) && alt("always|usually|invariably", c.at(k+2))) {
		k++
	}
	if k >= 8 || k+2 >= len(c.toks) {
		return false
	}
	np := takeNP(c.toks, k+3)
	if !c.seq(np.next, "for", "me") || !usableObject(np) || np.det == "my" || np.det == "our" {
		return false
	}
	if typ, _ := classify(np); typ == ontology.Person || typ == ontology.Place {
		return false
	}
	cat := ""
	for _, w := range strings.FieldsFunc(strings.ToLower(c.said.event.Content), func(r rune) bool {
		return !unicode.IsLetter(r) && r != '-'
	}) {
		if occasionCategories[w] != "" {
			cat = occasionCategories[w]
			break
		}
	}
	c.subj = sp
	if cat != "" {
		// A habit, not a love: when the habit changes ("paneer is what I
		// get every time now"), nothing of this turn stays current.
		if key, _ := c.object(np, ontology.Food, 2); key != "" {
			r.favouriteFact(c, sp, canonicalCategory(cat), key, false, c.now)
			return true
		}
		return false
	}
	key, _ := c.object(np, "", 0)
	if key == "" {
		return false
	}
	c.emit(fx{subj: sp, pred: "LIKES", obj: key, conf: 0.75, strength: 0.7, tmpl: "{S} always has {O}", noDate: true})
	return true
}

// superlativeFrame: "The best book I've ever read is Dune", "Dune is the
// best film I've seen this year", "best pizza I've had is Franco's": the
// best of a category by the speaker's own experience is their favourite of
// it. The category must be one favourites have ("the best thing I've
// done" names none) and the experience the speaker's.
func (r *favouriteRules) superlativeFrame(c *clause) bool {
	sp := c.said.speaker
	if sp == "" || c.hedge || c.neg {
		return false
	}
	t := c.toks
	var items []nounPhrase
	i := 0
	if c.at(0) != "the" && !superlatives[c.at(0)] {
		// "Dune is the best book I've ever read"
		var n int
		if items, n = takeList(t, 0); len(items) != 1 {
			return false
		}
		var ok, neg bool
		if i, ok, neg, _ = c.copulaAt(n); !ok || neg {
			return false
		}
	}
	if c.at(i) == "the" {
		i++
	}
	if !superlatives[c.at(i)] {
		return false
	}
	cat, j := c.categoryAt(i + 1)
	if cat == "" {
		return false
	}
	j, ok := c.experienceAt(j)
	if !ok {
		return false
	}
	if items == nil {
		// "... I've ever read is Dune": the copula comes after the
		// experience's time ("this year", "in my life"), if any
		for k := 0; k < 4 && j < len(t) && !alt("is|'s", c.at(j)); k++ {
			j++
		}
		n, isCop, neg, _ := c.copulaAt(j)
		if !isCop || neg {
			return false
		}
		if items, _ = takeList(t, n); len(items) != 1 {
			return false
		}
	}
	r.favourite(c, sp, cat, items, false, c.now)
	c.subj = sp
	return true
}

// superlatives make "the X I've had" the best of its kind.
var superlatives = wordSet(`best,greatest,finest`)

// experienceAt reads "(that) I('ve) (ever) VERB" at i: the speaker's own
// experience of what precedes ("I've ever read", "we've had", "I watched").
func (c *clause) experienceAt(i int) (int, bool) {
	if c.at(i) == "that" {
		i++
	}
	if !alt("i|we", c.at(i)) {
		return i, false
	}
	i++
	for alt("have|had|ever|'ve|probably|honestly|genuinely|really", c.at(i)) {
		i++
	}
	if _, f, ok := verbOf(c.at(i)); !ok || f == formIng {
		return i, false
	}
	return i + 1, true
}

// ofChoiceFrame: "my drink of choice is gin", "Gin is my drink of choice",
// "podcast of choice these days: Hollow Ledger". "X of choice" is what one
// picks over the rest of its kind: a favourite, whatever the category.
func (r *favouriteRules) ofChoiceFrame(c *clause) bool {
	sp := c.said.speaker
	t := c.toks
	m := slices.IndexFunc(t, func(tk tok) bool { return tk.w == "of" })
	if sp == "" || c.hedge || m < 1 || c.at(m+1) != "choice" {
		return false
	}
	// the category: one or two words before "of", after a possessive
	start := m - 1
	if start > 0 && c.at(start-1) != "my" && c.at(start-1) != "our" && !nlp.IsStopword(c.at(start-1)) &&
		t[start-1].kind == nlp.Word {
		start--
	}
	catToks := t[start:m]
	if slices.ContainsFunc(catToks, func(tk tok) bool { return tk.kind != nlp.Word || nlp.IsStopword(tk.w) }) {
		return false
	}
	cat := words(catToks)
	owner := sp
	if start > 0 {
		owner, _ = c.possessor(start - 1)
		if owner == "" {
			return false
		}
	}
	before := start - 1 // the possessive, or -1
	if start == 0 {
		before = -1
	}
	var items []nounPhrase
	if before > 1 {
		// "Gin is my drink of choice"
		list, n := takeList(t, 0)
		if _, ok, neg, _ := c.copulaAt(n); !ok || neg || len(list) != 1 || c.skipIntensifiers(n+1) != before {
			return false
		}
		items = list
	} else {
		j := m + 2
		for k := 0; k < 3; k++ {
			if n := c.timeAdverbialAt(j); n > 0 {
				j += n
			} else if t := c.at(j); t == dateTok || t == "now" || t == "," {
				j++
			}
		}
		if n, ok, neg, _ := c.copulaAt(j); ok && !neg {
			j = n
		} else if ok && neg {
			return false
		}
		list, _ := takeList(t, j)
		if len(list) != 1 {
			return false
		}
		items = list
	}
	r.favourite(c, owner, nlp.Singular(cat), items, false, c.now)
	c.subj = owner
	return true
}
