package offline

import (
	"strings"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// favouriteRules recognise favourites in either order: "my favourite food is
// sushi", "my favourite programming language is now Go", "Tea is my
// favourite drink", "it's my favourite food". A favourite is exclusive per
// category (the qualifier) and implies a liking.
type favouriteRules struct{}

// favouriteFrame: "my favourite food is sushi", "my favourite programming
// language is now Go", "Tea is my favourite drink", "it's my favourite food".
func (r *favouriteRules) favouriteFrame(c *clause) bool {
	t := c.toks
	// Form A: POSS favourite CAT is X
	if owner, i := c.possessor(0); owner != "" {
		for favouriteModifiers[c.at(i)] {
			i++
		}
		if c.at(i) != "favourite" && c.at(i) != "favourites" {
			return false
		}
		i++
		var catToks []tok
		timed := false
		for i < len(t) && len(catToks) < 3 && !alt("is|are|was|were|has|have", t[i].w) {
			if n := c.timeAdverbialAt(i); n > 0 {
				timed, i = true, i+n
				continue
			}
			catToks = append(catToks, t[i])
			i++
		}
		cat := words(catToks)
		n, ok, neg, now := c.copulaAt(i)
		now = now || timed
		if !ok {
			return false
		}
		if neg && c.cessation {
			now = false
		}
		items, _ := takeList(t, n)
		r.favourite(c, owner, cat, items, neg || c.neg, now || c.now)
		return true
	}
	// Form B: X is POSS favourite CAT
	var items []nounPhrase
	var n int
	if alt("it|that|this", c.at(0)) {
		if c.said.talk.lastObject == "" {
			return false
		}
		n = 1
	} else {
		items, n = takeList(t, 0)
		if len(items) == 0 {
			return false
		}
	}
	i, ok, neg, now := c.copulaAt(n)
	if !ok && items != nil && c.at(n) == "with" {
		// "Risotto with peas and mint is my comfort food": one dish
		cop := n
		for cop < len(t) && cop < n+8 && !alt("is|are", t[cop].w) {
			cop++
		}
		if i, ok, neg, now = c.copulaAt(cop); ok {
			items = []nounPhrase{{toks: t[:cop], next: cop, hasName: items[0].hasName, det: items[0].det}}
			if items[0].det != "" {
				items[0].toks = t[1:cop]
			}
		}
	}
	if !ok {
		return false
	}
	i = c.skipIntensifiers(i)
	owner, k := c.possessor(i)
	for favouriteModifiers[c.at(k)] {
		k++
	}
	if owner != "" && !favouriteWords[c.at(k)] && items != nil && len(items) == 1 {
		// "Teal is just my colour", "Stracciatella is my ice cream flavour":
		// a category that can only be a favourite.
		for j := k; j < k+3 && j < len(t) && t[j].kind == nlp.Word; j++ {
			if next := j + 1; impliedFavourites[t[j].w] &&
				(next >= len(t) || t[next].kind != nlp.Word || alt("always|now|these|and", c.at(next))) {
				r.favourite(c, owner, words(t[k:j+1]), items, neg || c.neg, now || c.now)
				return true
			}
		}
	}
	if owner == "" || !favouriteWords[c.at(k)] {
		return false
	}
	for favouriteWords[c.at(k+1)] {
		k++ // "my go-to comfort food"
	}
	end := k + 1
	for end < len(t) && t[end].kind == nlp.Word && c.timeAdverbialAt(end) == 0 &&
		!alt("for|since|because|when|while|as|and|but|so|ever", c.at(end)) { // "my favourite game for years"
		end++
	}
	cat := words(t[k+1 : end])
	if cat == "" && !alt("favourite|favourites|favorite|favorites|fave|faves|fav", c.at(k)) {
		return false // "Games are my go-to when I'm overwhelmed" names no category
	}
	if strings.Contains(cat, " ") {
		f := strings.Fields(cat)
		limit := 3
		if len(f) > 1 && alt("of|about|at|in", f[1]) {
			limit = 5 // "my favourite part of the gym", "my favourite thing about winter"
		}
		f = f[:min(len(f), limit)]
		for len(f) > 1 && alt("the|a|an|of|about|at|in|my|our|to", f[len(f)-1]) {
			f = f[:len(f)-1] // never a category cut mid-phrase ("part of the")
		}
		cat = strings.Join(f, " ")
	}
	cat = strings.TrimSpace(strings.Split(cat, " , ")[0])
	if items == nil {
		r.favouriteKey(c, owner, canonicalCategory(nlp.Singular(cat)), c.said.talk.lastObject, neg || c.neg, now || c.now)
		return true
	}
	r.favourite(c, owner, cat, items, neg || c.neg, now || c.now)
	return true
}

// favouriteCategoryType types the object of a favourite by its category.
func favouriteCategoryType(cat string) (ontology.EntityType, bool) {
	switch lastWord(cat) {
	case "food", "dish", "meal", "snack", "dessert", "cuisine", "drink", "beverage", "fruit", "treat", "restaurant":
		if lastWord(cat) == "restaurant" {
			return ontology.Place, true
		}
		return ontology.Food, true
	case "team", "club", "band", "company", "brand":
		return ontology.Organization, true
	case "language":
		return ontology.Language, true
	case "movie", "film", "book", "song", "show", "album", "series", "game", "novel", "painting", "genre", "author", "poem":
		return ontology.Artwork, true
	case "sport", "hobby", "activity", "exercise", "pastime":
		return ontology.Activity, true
	case "city", "country", "place", "destination", "spot", "beach", "park":
		return ontology.Place, true
	case "animal", "pet":
		return ontology.Animal, true
	case "singer", "artist", "actor", "actress", "player", "writer", "musician":
		return ontology.Person, true
	case "car", "phone", "app", "gadget", "device":
		return ontology.Product, true
	}
	return "", false
}

// favourite emits HAS_FAVORITE (one item) or LIKES (several).
func (r *favouriteRules) favourite(c *clause, owner, cat string, items []nounPhrase, neg, now bool) {
	cat = strings.TrimSpace(cat)
	qual := cat
	if f := strings.Fields(cat); len(f) > 0 {
		f[len(f)-1] = nlp.Singular(f[len(f)-1])
		qual = strings.Join(f, " ")
	}
	qual = canonicalCategory(qual)
	typ, typed := favouriteCategoryType(qual)
	var keys []string
	for _, np := range items {
		if !usableObject(np) {
			continue
		}
		t, rank := typ, 2
		if !typed {
			t, rank = "", 0
		}
		if k, _ := c.object(np, t, rank); k != "" {
			keys = append(keys, k)
		}
	}
	if len(keys) == 1 {
		r.favouriteKey(c, owner, qual, keys[0], neg, now)
		return
	}
	for _, k := range keys {
		tmpl := "{S} loves {O}"
		if qual != "" {
			tmpl = "{O} is one of {S's} favourite " + pluralize(qual)
		}
		c.emit(fx{subj: owner, pred: "LIKES", obj: k, neg: neg, strength: 0.9, tmpl: tmpl, noDate: true})
	}
}

func pluralize(w string) string {
	switch {
	case strings.HasSuffix(w, "s"), strings.HasSuffix(w, "sh"), strings.HasSuffix(w, "ch"):
		return w + "es"
	case strings.HasSuffix(w, "y") && len(w) > 1 && !strings.ContainsRune("aeiou", rune(w[len(w)-2])):
		return w[:len(w)-1] + "ies"
	}
	return w + "s"
}

// favouriteKey emits one favourite (and the liking it implies).
func (r *favouriteRules) favouriteKey(c *clause, owner, qual, key string, neg, now bool) {
	r.favouriteFact(c, owner, qual, key, neg, now)
	if neg {
		return
	}
	c.emit(fx{subj: owner, pred: "LIKES", obj: key, strength: 0.9, tmpl: "{S} loves {O}", noDate: true})
	if lastWord(qual) == "team" || lastWord(qual) == "club" {
		c.emit(fx{subj: owner, pred: "SUPPORTS", obj: key, tmpl: "{S} supports {O}", noDate: true})
	}
}

// favouriteFact emits the favourite alone.
func (r *favouriteRules) favouriteFact(c *clause, owner, qual, key string, neg, now bool) {
	tmpl := "{S's} favourite {Q} is {O}"
	switch {
	case qual == "" && neg:
		tmpl = "{O} is no longer {S's} favourite"
	case qual == "":
		tmpl = "{S's} favourite is {O}"
	case neg:
		tmpl = "{O} is no longer {S's} favourite {Q}"
	case now:
		tmpl = "{S's} favourite {Q} is now {O}"
	}
	c.emit(fx{subj: owner, pred: "HAS_FAVORITE", obj: key, qual: qual, neg: neg, strength: 1, tmpl: tmpl, noDate: true, rank: 2})
}

// canonicalCategory names a favourite's category by the one word its slot
// goes by ("film" and "movie" are one favourite).
func canonicalCategory(cat string) string {
	if c, ok := categorySynonyms[cat]; ok {
		return c
	}
	if f := strings.Fields(cat); len(f) > 1 {
		if c, ok := categorySynonyms[f[len(f)-1]]; ok && c != "takeaway order" {
			f[len(f)-1] = c
			return strings.Join(f, " ")
		}
	}
	return cat
}

// timeAdverbialAt returns the length of a time adverbial at i ("these
// days", "at the moment"), or 0.
func (c *clause) timeAdverbialAt(i int) int {
	for _, p := range timeAdverbials {
		if c.seq(i, p...) {
			return len(p)
		}
	}
	return 0
}

// intensifiers stand between "X is" and "my favourite Y" without changing
// what is said: "Autumn is hands down my favourite season", "Pho is easily
// my favourite dish", "Jazz is by far my favourite genre".
var intensifiers = [][]string{{"just"}, {"simply"}, {"really"}, {"definitely"}, {"totally"}, {"easily"},
	{"absolutely"}, {"honestly"}, {"literally"}, {"officially"}, {"still"}, {"undoubtedly"},
	{"hands", "down"}, {"by", "far"}, {"far", "and", "away"}, {"without", "a", "doubt"}, {"no", "doubt"}}

// skipIntensifiers returns the index after the intensifiers at i.
func (c *clause) skipIntensifiers(i int) int {
	for {
		n := 0
		for _, p := range intensifiers {
			if c.seq(i, p...) {
				n = len(p)
				break
			}
		}
		if n == 0 {
			return i
		}
		i += n
	}
}
