package extract

import (
	"strconv"
	"strings"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// Rules about people: relatives and friends, pets, names, identity, and
// the copula frames ("I am ...").

// relativeAdjectives may sit between "my" and a role word.
var relativeAdjectives = wordSet(`little,older,younger,big,baby,best,new,eldest,oldest,youngest,twin,dear,lovely,
late,sweet,beautiful,wonderful,amazing,awesome,close,good,old,two,three,four,adorable,cute,own`)

// relativeAt reads "my [adj] ROLE [Name]", "my ROLE, Name,", "my SPECIES
// [Name]" at index i (which holds the possessive, or "'s" after an owner)
// and returns the entity it names and the index after it. It records the
// relation between owner and relative as a fact.
func (c *cl) relativeAt(i int, owner string) (string, int) {
	t := c.toks
	if owner == "" || i >= len(t) {
		return "", 0
	}
	j := i + 1
	for j < len(t) && relativeAdjectives[t[j].w] {
		j++
	}
	if j >= len(t) {
		return "", 0
	}
	role := t[j].w
	species := ""
	if j+1 < len(t) && petSpecies[role+" "+t[j+1].w] {
		species, j = role+" "+t[j+1].w, j+1
	} else if petSpecies[nlp.Singular(role)] && !foods[role] || role == "fish" && j+1 < len(t) && t[j+1].cap {
		species = nlp.Singular(role)
	}
	rel, isRel := relations[role]
	if !isRel && species == "" {
		return "", 0
	}
	j++
	// The name: "my sister Emma", "my sister, Emma,", "my dog Rex".
	name := ""
	k := j
	if k < len(t) && t[k].w == "," {
		k++
	}
	if k < len(t) && t[k].cap && t[k].kind == nlp.Word && !nameStop[t[k].w] && !isCommonWord(t[k].w) {
		n := k
		for n+1 < len(t) && t[n+1].cap && t[n+1].kind == nlp.Word && n-k < 2 {
			n++
		}
		np := nounPhrase{toks: t[k : n+1], hasName: true}
		if typ, ok := classify(np); !ok || typ == ontology.Person || species != "" && typ != ontology.Place {
			name = np.surface()
			j = n + 1
			for j < len(t) && t[j].w == "," {
				j++
			}
		}
	}
	if species != "" {
		return c.pet(owner, species, name, false), j
	}
	return c.relative(owner, role, rel, name), j
}

// relative records owner → relative and returns the relative's key.
func (c *cl) relative(owner, role string, rel relation, name string) string {
	b := c.e.x.b
	var key string
	if name != "" {
		key = b.named(name, ontology.Person, 2)
		c.e.x.people[key] = true
		c.notePerson(key)
	} else {
		key = b.owned(owner, role, ontology.Person, 2)
		c.e.d.lastUnnamed = key
		if !strings.HasSuffix(role, "s") || role == "boss" {
			c.notePerson(key)
		} else {
			c.e.d.lastGroup = key
		}
	}
	if key == owner {
		return key
	}
	b.mention(c.e.ev.ID, key)
	if name == "" {
		switch rel.pred {
		case "CHILD_OF", "FRIEND_OF", "COLLEAGUE_OF", "RELATIVE_OF", "KNOWS":
			return key // "my mom", "my friends": too common to be news
		}
	}
	tmpl := "{S} has a {Q}{? named O}"
	if strings.HasSuffix(role, "s") && role != "boss" || role == "children" || role == "folks" {
		tmpl = "{S} has " + role + "{? named O}"
	}
	switch rel.pred {
	case "MARRIED_TO":
		tmpl = "{S} is married to {O} ({S's} {Q})||{S} has a {Q}"
	case "PARTNER_OF":
		tmpl = "{S} is in a relationship with {O} ({S's} {Q})||{S} has a {Q}"
	case "FRIEND_OF", "COLLEAGUE_OF", "KNOWS", "RELATIVE_OF", "CHILD_OF":
		tmpl = "{O} is {S's} {Q}"
	}
	c.emit(fx{subj: owner, pred: rel.pred, obj: key, qual: rel.label, tmpl: tmpl, conf: 0.85, noDate: true})
	return key
}

// pet records owner HAS_PET animal and returns the animal's key. An unnamed
// pet becomes the target of a later "her name is Luna".
func (c *cl) pet(owner, species, name string, neg bool) string {
	b := c.e.x.b
	var key string
	if name != "" {
		key = b.named(name, ontology.Animal, 2)
		b.alias(b.ents[key], species)
	} else {
		key = b.owned(owner, species, ontology.Animal, 2)
		c.e.d.lastUnnamed = key
	}
	b.mention(c.e.ev.ID, key)
	tmpl := "{S} has a {Q}{? named O}"
	if neg {
		tmpl = "{S} no longer has {O}"
	}
	c.emit(fx{subj: owner, pred: "HAS_PET", obj: key, qual: nlp.Singular(species), neg: neg, tmpl: tmpl, noDate: true, rank: 1})
	return key
}

// relationMentions records the relatives and pets a clause names anywhere
// ("I went camping with my sister Emma"), and "Emma, my sister".
func (c *cl) relationMentions() {
	if c.e.speaker == "" {
		return
	}
	t := c.toks
	for i := 1; i < len(t); i++ {
		if t[i].w == "my" || t[i].w == "our" {
			c.relativeAt(i, c.e.speaker)
		}
	}
	// "Emma, my sister," / "Rex, my dog"
	for i := 0; i+3 < len(t); i++ {
		if t[i].cap && !nameStop[t[i].w] && t[i+1].w == "," && (t[i+2].w == "my" || t[i+2].w == "our") {
			role := t[i+3].w
			name := t[i].orig
			if rel, ok := relations[role]; ok {
				c.relative(c.e.speaker, role, rel, name)
			} else if petSpecies[nlp.Singular(role)] {
				c.pet(c.e.speaker, nlp.Singular(role), name, false)
			}
		}
	}
}

// nameOf reads a proper name at i (up to three capitalized words).
func nameOf(t []tok, i int) (string, int) {
	if i >= len(t) || !t[i].cap || t[i].kind != nlp.Word || nameStop[t[i].w] {
		return "", i
	}
	j := i
	for j+1 < len(t) && t[j+1].cap && t[j+1].kind == nlp.Word && j-i < 2 {
		j++
	}
	return nounPhrase{toks: t[i : j+1], hasName: true}.surface(), j + 1
}

// possessor reads a possessive at i: "my"/"our" (the speaker), "the
// user's", "his"/"her"/"their" (the last person), "Emma's", "my sister's".
// It returns the owner's key and the index after the possessive.
func (c *cl) possessor(i int) (string, int) {
	t := c.toks
	if i >= len(t) {
		return "", i
	}
	switch t[i].w {
	case "my", "our":
		// "my sister's", "my dog's"
		if k, n := c.relativeAt(i, c.e.speaker); k != "" && n < len(t) && t[n].w == "'s" {
			return k, n + 1
		}
		if i+2 < len(t) && t[i+2].w == "'s" {
			if k, n := c.relativeAt(i, c.e.speaker); k != "" && n == i+2 {
				return k, n + 1
			}
		}
		return c.e.speaker, i + 1
	case "his", "her", "their":
		if c.e.d.lastPerson != "" {
			return c.e.d.lastPerson, i + 1
		}
		return "", i
	case "the":
		if i+2 < len(t) && t[i+1].w == "user" && t[i+2].w == "'s" {
			return c.e.x.b.user(), i + 3
		}
	}
	if name, n := nameOf(t, i); name != "" && n < len(t) && t[n].w == "'s" {
		key := nlp.NormalizeName(name)
		if c.e.x.people[key] || firstNames[key] || c.e.x.b.ents[key] != nil {
			k := c.e.x.b.named(name, ontology.Person, 2)
			return k, n + 1
		}
	}
	return "", i
}

// clauseFrames handles clauses whose shape, not their subject, decides the
// fact: favourites, budgets, birthdays, names, schedules, "X is my sister",
// "window seats are too cramped". It reports whether one matched.
func (c *cl) clauseFrames() bool {
	if c.e.speaker == "" {
		return false
	}
	return c.favouriteFrame() || c.budgetFrame() || c.birthdayFrame() || c.nameFrame() ||
		c.isMyFrame() || c.goalFrame() || c.homeFrame() || c.jobFrame() || c.notForMeFrame() ||
		c.scheduleFrame() || c.tooFrame()
}

// copulaAt reports whether index i holds "is/are/was/were" and returns the
// index after it and any "now"/"still"/"no longer"/"not" that follows.
func (c *cl) copulaAt(i int) (next int, ok, neg, now bool) {
	if !alt("is|are|was|were|am|has|have", c.at(i)) {
		return i, false, false, false
	}
	if alt("has|have", c.at(i)) {
		if c.at(i+1) != "become" && c.at(i+1) != "been" {
			return i, false, false, false
		}
		i++
	}
	i++
	for {
		switch c.at(i) {
		case "now", "still", "currently", "always", "officially", "definitely", "also", "probably", "actually", "really":
			now = now || c.at(i) == "now" || c.at(i) == "currently"
			i++
			continue
		case "not", "never":
			neg = true
			i++
			continue
		case "no":
			if c.at(i+1) == "longer" {
				neg = true
				i += 2
				continue
			}
		}
		return i, true, neg, now
	}
}

// nameFrame: "my name is Sam", "call me Sam", "her name is Luna", "my
// sister's name is Emma", "my cat is called Luna".
func (c *cl) nameFrame() bool {
	t := c.toks
	b := c.e.x.b
	if c.seq(0, "call", "me") {
		if name, _ := nameOf(t, 2); name != "" {
			c.userName(c.e.speaker, name)
			return true
		}
	}
	// "her name is Luna": the last unnamed pet or relative takes the name.
	if alt("his|her|its|their", c.at(0)) && c.at(1) == "name" && c.e.d.lastUnnamed != "" {
		if n, ok, _, _ := c.copulaAt(2); ok {
			if name, _ := nameOf(t, n); name != "" {
				b.rename(c.e.d.lastUnnamed, name)
				c.e.d.lastUnnamed = ""
				return true
			}
		}
		return false
	}
	owner, i := c.possessor(0)
	if owner == "" {
		return false
	}
	if c.at(i) == "name" {
		if n, ok, neg, _ := c.copulaAt(i + 1); ok && !neg {
			if name, _ := nameOf(t, n); name != "" {
				if owner == c.e.speaker || b.ents[owner] != nil && b.ents[owner].isUser {
					c.userName(owner, name)
				} else if e := b.ents[owner]; e != nil && e.owner != "" {
					b.rename(owner, name)
				}
				return true
			}
		}
		return false
	}
	// "my cat is called Luna", "my sister is named Emma"
	if (c.at(0) == "my" || c.at(0) == "our") && owner == c.e.speaker {
		if k, n := c.relativeAt(0, c.e.speaker); k != "" && alt("is|are|was", c.at(n)) && alt("called|named", c.at(n+1)) {
			if name, _ := nameOf(t, n+2); name != "" {
				b.rename(k, name)
				return true
			}
		}
	}
	return false
}

// userName records the speaker's own name as an alias and a fact.
func (c *cl) userName(owner, name string) {
	b := c.e.x.b
	if e := b.ents[owner]; e != nil {
		b.alias(e, name)
	}
	c.emit(fx{subj: owner, pred: ontology.Fallback, raw: "is named", obj: c.value(name), tmpl: "{S's} name is {O}", noDate: true})
}

// isMyFrame: "Emma is my sister", "Rex is my dog", "Sam is my husband".
func (c *cl) isMyFrame() bool {
	t := c.toks
	name, n := nameOf(t, 0)
	if name == "" {
		return false
	}
	i, ok, neg, _ := c.copulaAt(n)
	if !ok || neg || !alt("my|our", c.at(i)) {
		return false
	}
	j := i + 1
	for j < len(t) && relativeAdjectives[t[j].w] {
		j++
	}
	role := c.at(j)
	if rel, ok := relations[role]; ok {
		c.relative(c.e.speaker, role, rel, name)
		return true
	}
	if petSpecies[nlp.Singular(role)] {
		c.pet(c.e.speaker, nlp.Singular(role), name, false)
		return true
	}
	return false
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

// favouriteFrame: "my favourite food is sushi", "my favourite programming
// language is now Go", "Tea is my favourite drink", "it's my favourite food".
func (c *cl) favouriteFrame() bool {
	t := c.toks
	// Form A: POSS favourite CAT is X
	if owner, i := c.possessor(0); owner != "" {
		for alt("new|all-time|absolute|current|personal|very|ultimate|top|biggest|latest|most", c.at(i)) {
			i++
		}
		if c.at(i) != "favourite" && c.at(i) != "favourites" {
			return false
		}
		i++
		catStart := i
		for i < len(t) && i-catStart < 3 && !alt("is|are|was|were|has|have", t[i].w) {
			i++
		}
		cat := words(t[catStart:i])
		n, ok, neg, now := c.copulaAt(i)
		if !ok {
			return false
		}
		if neg && c.cessation {
			now = false
		}
		items, _ := takeList(t, n)
		c.favourite(owner, cat, items, neg || c.neg, now || c.now)
		return true
	}
	// Form B: X is POSS favourite CAT
	var items []nounPhrase
	var n int
	if alt("it|that|this", c.at(0)) {
		if c.e.d.lastObject == "" {
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
	if !ok {
		return false
	}
	owner, k := c.possessor(i)
	for alt("new|all-time|absolute|current|personal|very|ultimate|top|biggest|latest|most", c.at(k)) {
		k++
	}
	if owner == "" || !alt("favourite|favourites", c.at(k)) {
		return false
	}
	cat := words(t[k+1:])
	if strings.Contains(cat, " ") {
		if f := strings.Fields(cat); len(f) > 3 {
			cat = strings.Join(f[:3], " ")
		}
	}
	cat = strings.TrimSpace(strings.Split(cat, " , ")[0])
	if items == nil {
		c.favouriteKey(owner, nlp.Singular(cat), c.e.d.lastObject, neg || c.neg, now || c.now)
		return true
	}
	c.favourite(owner, cat, items, neg || c.neg, now || c.now)
	return true
}

// words joins the folded words of toks (stopping at punctuation).
func words(toks []tok) string {
	ws := make([]string, 0, len(toks))
	for _, t := range toks {
		if t.kind != nlp.Word && t.kind != nlp.Number {
			break
		}
		if t.w == "now" || t.w == "too" || t.w == "anymore" || t.w == "again" || t.w == "also" {
			continue
		}
		ws = append(ws, t.w)
	}
	return strings.Join(ws, " ")
}

// favourite emits HAS_FAVORITE (one item) or LIKES (several).
func (c *cl) favourite(owner, cat string, items []nounPhrase, neg, now bool) {
	cat = strings.TrimSpace(cat)
	qual := cat
	if f := strings.Fields(cat); len(f) > 0 {
		f[len(f)-1] = nlp.Singular(f[len(f)-1])
		qual = strings.Join(f, " ")
	}
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
		c.favouriteKey(owner, qual, keys[0], neg, now)
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
func (c *cl) favouriteKey(owner, qual, key string, neg, now bool) {
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
	if neg {
		return
	}
	c.emit(fx{subj: owner, pred: "LIKES", obj: key, strength: 0.9, tmpl: "{S} loves {O}", noDate: true})
	if lastWord(qual) == "team" || lastWord(qual) == "club" {
		c.emit(fx{subj: owner, pred: "SUPPORTS", obj: key, tmpl: "{S} supports {O}", noDate: true})
	}
}

// birthdayFrame: "my birthday is on 8 May", "my daughter's birthday is in
// August".
func (c *cl) birthdayFrame() bool {
	owner, i := c.possessor(0)
	if owner == "" || c.at(i) != "birthday" {
		return false
	}
	n, ok, neg, _ := c.copulaAt(i + 1)
	if !ok || neg {
		return false
	}
	for alt("on|in|the", c.at(n)) {
		n++
	}
	if n >= len(c.toks) || c.toks[n].w != dateTok {
		return false
	}
	d := c.toks[n].date
	val := birthdayText(d)
	if val == "" {
		return false
	}
	c.emit(fx{subj: owner, pred: "BORN_ON", obj: c.value(val), tmpl: "{S's} birthday is on {O}", noDate: true})
	return true
}

// birthdayText is the day and month of a birthday ("13 August"), or the
// month alone when that is all that was said.
func birthdayText(d *nlp.DateSpan) string {
	switch d.Granularity {
	case nlp.GranularityDay:
		return strconv.Itoa(d.Time.Day()) + " " + d.Time.Month().String()
	case nlp.GranularityMonth:
		return d.Time.Month().String()
	}
	return ""
}

// copula handles "I am ..." clauses (c.be set, no main verb).
func (c *cl) copula() {
	t := c.toks
	i := c.i
	w := c.at(i)
	neg := c.neg
	past := c.past && !c.perfect && !c.now
	switch {
	case w == "from" || (w == "originally" && c.at(i+1) == "from"):
		if w == "originally" {
			i++
		}
		np := takeNP(t, i+1)
		if !neg && isPlaceLike(np) {
			k, _ := c.object(np, ontology.Place, 2)
			c.emit(fx{pred: "FROM", obj: k, tmpl: "{S} is from {O}", noDate: true})
		}
		return
	case alt("based|settled|located|living", w) && alt("in|out", c.at(i+1)):
		j := i + 2
		if c.at(j) == "of" {
			j++
		}
		c.residence(takeNP(t, j), neg, false, "")
		return
	case w == "born":
		c.born(i + 1)
		return
	case w == "married" || w == "engaged" || w == "divorced" || w == "separated" || w == "widowed":
		c.maritalStatus(w, i+1, neg)
		return
	case w == "in" && c.at(i+1) == "a" && c.at(i+2) == "relationship":
		c.status("in a relationship", neg)
		if c.at(i+3) == "with" {
			if name, _ := nameOf(t, i+4); name != "" {
				k := c.e.x.b.named(name, ontology.Person, 2)
				c.emit(fx{pred: "PARTNER_OF", obj: k, neg: neg, tmpl: "{S} is in a relationship with {O}", noDate: true})
			}
		}
		return
	case w == "laid" && c.at(i+1) == "off", w == "fired", w == "let" && c.at(i+1) == "go", w == "made" && c.at(i+1) == "redundant":
		c.dismissed(i)
		return
	case (w == "hired" || w == "employed") && alt("by|at", c.at(i+1)):
		c.employer(takeNP(t, i+2), neg || past, "hired")
		c.roleAfter(i + 2)
		return
	case w == "allergic":
		if c.at(i+1) == "to" {
			items, _ := takeList(t, i+2)
			for _, np := range items {
				if k, _ := c.object(np, "", 0); k != "" {
					c.emit(fx{pred: "ALLERGIC_TO", obj: k, neg: neg, tmpl: pick(neg, "{S} is allergic to {O}", "{S} is no longer allergic to {O}"), noDate: true})
				}
			}
		}
		return
	case (w == "lactose" || w == "gluten") && c.at(i+1) == "intolerant":
		k := c.e.x.b.named(w+" intolerance", ontology.Condition, 2)
		c.emit(fx{pred: "HAS_CONDITION", obj: k, neg: neg, tmpl: pick(neg, "{S} is "+w+" intolerant", "{S} is no longer "+w+" intolerant"), noDate: true})
		return
	case w == "fluent" && c.at(i+1) == "in" && !neg:
		items, _ := takeList(t, i+2)
		for _, np := range items {
			if languages[np.key()] {
				k, _ := c.object(np, ontology.Language, 2)
				c.emit(fx{pred: ontology.Fallback, raw: "speaks", obj: k, tmpl: "{S} speaks {O} fluently", noDate: true})
			}
		}
		return
	case w == "into":
		c.likeObjects(i+1, "LIKES", neg, 0.75, "is into")
		return
	case likeAdjectives[w] != "" && alt(likeAdjectives[w], c.at(i+1)):
		c.likeObjects(i+2, "LIKES", neg, 0.9, "is "+w+" "+c.at(i+1))
		return
	case alt("tired|sick|bored", w) && alt("of|with", c.at(i+1)) || w == "fed" && c.at(i+1) == "up" && c.at(i+2) == "with":
		j := i + 2
		if w == "fed" {
			j++
		}
		if !neg {
			c.likeObjects(j, "DISLIKES", false, 0.6, "is "+words(t[i:j]))
		}
		return
	case alt("scared|afraid|terrified", w) && c.at(i+1) == "of":
		if !neg {
			c.likeObjects(i+2, "DISLIKES", false, 0.6, "is "+w+" of")
		}
		return
	case w == "a" && c.at(i+1) == "member" && c.at(i+2) == "of", w == "part" && c.at(i+1) == "of":
		j := i + 3
		if w == "part" {
			j = i + 2
		}
		np := takeNP(t, j)
		if k, _ := c.object(np, ontology.Organization, 1); k != "" {
			c.emit(fx{pred: "MEMBER_OF", obj: k, neg: neg || past, tmpl: pick(neg || past, "{S} is a member of {O}", "{S} is no longer a member of {O}"), noDate: true})
		}
		return
	case w == "to" && c.perfect:
		np := takeNP(t, i+1)
		if isPlaceLike(np) {
			k, _ := c.object(np, ontology.Place, 2)
			c.emit(fx{pred: "VISITED", obj: k, neg: neg, tmpl: pick(neg, "{S} has been to {O}", "{S} has never been to {O}")})
		}
		return
	case w == "in" && c.now && !past:
		np := takeNP(t, i+1)
		if isPlaceLike(np) && np.hasName {
			c.residence(np, neg, false, "")
		}
		return
	case w == "on" && alt("a|the", c.at(i+1)):
		// "I'm on a keto diet"
		np := takeNP(t, i+1)
		if np.head() == "diet" {
			c.diet(strings.TrimSuffix(np.lower(), " diet")+" diet", neg, past)
		}
		return
	}
	// Ages: "I am 30", "I'm 30 years old".
	if c.ageAt(i) {
		return
	}
	// Fans: "I'm a big fan of jazz", "I'm a Chelsea fan".
	if c.fanFrame(i, neg) {
		return
	}
	// Single adjectives: diets, statuses, nationalities, identities.
	j := i
	if alt("a|an", c.at(j)) {
		j++
	}
	w = c.at(j)
	two := w + " " + c.at(j+1)
	switch {
	case diets[two] || diets[w]:
		d := w
		if diets[two] {
			d = two
		}
		c.diet(d, neg, past)
		return
	case statuses[w] && j == i:
		c.status(w, neg || past)
		return
	case nationalities[w] != "" && j == i && (j+1 >= len(t) || t[j+1].kind != nlp.Word || t[j+1].w == "and"):
		if !neg {
			k := c.e.x.b.named(nationalities[w], ontology.Place, 2)
			c.emit(fx{pred: "FROM", obj: k, conf: 0.8, tmpl: "{S} is " + capitalize(w) + " (from {O})", noDate: true})
		}
		return
	case conditions[two] != "" || conditions[w] != "" && j == i:
		cond := conditions[w]
		adj := w
		if conditions[two] != "" {
			cond, adj = conditions[two], two
		}
		k := c.e.x.b.named(cond, ontology.Condition, 2)
		tmpl := pick(neg || past, "{S} has {O} ({S} is "+adj+")", "{S} is no longer "+adj+" ({O})")
		c.emit(fx{pred: "HAS_CONDITION", obj: k, neg: neg || past, tmpl: tmpl, noDate: true})
		return
	case identityWords[w] && (j == i || j+1 >= len(t) || t[j+1].kind != nlp.Word):
		k := c.e.x.b.named(w, ontology.Concept, 2)
		c.emit(fx{pred: "IS_A", obj: k, neg: neg || past, tmpl: pick(neg || past, "{S} is "+w, "{S} is no longer "+w), noDate: true})
		return
	}
	// Roles and identities introduced by an article: "a nurse", "a data
	// analyst at Acme", "the CEO of Initech", "a transgender woman".
	if alt("a|an|the", c.at(i)) || (c.at(i) == "self-employed" || c.at(i) == "retired" || c.at(i) == "unemployed") {
		c.roleOrIdentity(i, neg, past)
	}
}

// likeAdjectives map adjectives of liking to the prepositions they take.
var likeAdjectives = map[string]string{
	"obsessed": "with", "crazy": "about", "passionate": "about", "keen": "on", "fond": "of",
	"addicted": "to", "hooked": "on", "mad": "about", "nuts": "about", "enthusiastic": "about",
}

// pick returns pos or negT depending on neg.
func pick(neg bool, pos, negT string) string {
	if neg {
		return negT
	}
	return pos
}

// ageAt reads an age at i: "30", "30 years old", "thirty".
func (c *cl) ageAt(i int) bool {
	t := c.toks
	if i >= len(t) || (t[i].kind != nlp.Number && !numberWords[t[i].w]) || c.neg || c.past && c.verb != "turn" {
		return false // "when I was ten" is no age now
	}
	n := t[i].w
	if _, err := strconv.Atoi(n); err != nil && !numberWords[n] {
		return false
	}
	j := i + 1
	switch {
	case alt("years|yrs|year", c.at(j)) && c.at(j+1) == "old", c.at(j) == dateTok:
	case j < len(t) && t[j].kind == nlp.Word && !alt("now|today|already|and|but|this|next", t[j].w):
		return false
	case j < len(t) && t[j].kind == nlp.Symbol:
		return false
	}
	if v, err := strconv.Atoi(n); err == nil && (v < 1 || v > 120) {
		return false
	}
	c.emit(fx{pred: "HAS_AGE", obj: c.value(n), tmpl: "{S} is {O} years old", noDate: true})
	return true
}

// fanFrame: "a (big) fan of X", "a X fan", "not a fan of X".
func (c *cl) fanFrame(i int, neg bool) bool {
	t := c.toks
	j := i
	if alt("a|an|the", c.at(j)) {
		j++
	}
	for alt("big|huge|massive|great|lifelong|die-hard|diehard|longtime|long-time|massive|true|real", c.at(j)) {
		j++
	}
	if c.at(j) == "fan" && c.at(j+1) == "of" {
		items, _ := takeList(t, j+2)
		for _, np := range items {
			c.fanOf(np, neg)
		}
		return len(items) > 0
	}
	// "a Chelsea fan", "a jazz fan"
	np := takeNP(t, j)
	if !np.empty() && np.head() == "fan" && len(np.toks) > 1 {
		inner := nounPhrase{toks: np.toks[:len(np.toks)-1], hasName: np.hasName, det: ""}
		c.fanOf(inner, neg)
		return true
	}
	return false
}

func (c *cl) fanOf(np nounPhrase, neg bool) {
	if teamWords[np.key()] || np.hasName && orgSuffixes[np.head()] {
		k, _ := c.object(np, ontology.Organization, 2)
		c.emit(fx{pred: "SUPPORTS", obj: k, neg: neg, tmpl: pick(neg, "{S} supports {O}", "{S} no longer supports {O}")})
		return
	}
	k, _ := c.object(np, "", 0)
	if k == "" {
		return
	}
	tmpl := "{S} is a fan of {O}"
	switch {
	case neg && c.cessation:
		tmpl = "{S} is no longer a fan of {O}"
	case neg:
		tmpl = "{S} is not a fan of {O}"
	}
	c.emit(fx{pred: "LIKES", obj: k, neg: neg, strength: 0.8, tmpl: tmpl})
}

// born reads "born in Sweden", "born in 1990", "born on 8 May 1990".
func (c *cl) born(i int) {
	t := c.toks
	if c.at(i) == "and" || c.at(i) == "," {
		return
	}
	if alt("in|on", c.at(i)) && c.at(i+1) == dateTok || c.at(i) == dateTok {
		k := i
		if c.at(k) != dateTok {
			k++
		}
		d := t[k].date
		val := d.Label
		c.emit(fx{pred: "BORN_ON", obj: c.value(val), tmpl: "{S} was born " + d.Phrase(), noDate: true})
		return
	}
	if c.at(i) == "in" {
		np := takeNP(t, i+1)
		if isPlaceLike(np) {
			k, _ := c.object(np, ontology.Place, 2)
			c.emit(fx{pred: "FROM", obj: k, tmpl: "{S} was born in {O}", noDate: true})
		}
	}
}

// maritalStatus reads "married (to Sam)", "engaged (to Alex)", "divorced".
func (c *cl) maritalStatus(w string, i int, neg bool) {
	past := c.past && !c.perfect && !c.now
	if w == "married" && past && !c.neg && c.at(i) != "to" && c.verb == "" {
		// "I was married for ten years" says little about now.
		return
	}
	c.status(w, neg)
	if c.companion != "" && !alt("to|with|from", c.at(i)) && (w == "married" || w == "engaged") && !neg {
		// "Sam and I got married"
		if w == "married" {
			c.emit(fx{pred: "MARRIED_TO", obj: c.companion, tmpl: "{S} got married to {O}{D}"})
		} else {
			c.emit(fx{pred: "PARTNER_OF", obj: c.companion, tmpl: "{S} is engaged to {O}{D}"})
		}
	}
	if alt("to|with|from", c.at(i)) {
		if name, _ := nameOf(c.toks, i+1); name != "" {
			k := c.e.x.b.named(name, ontology.Person, 2)
			c.e.x.people[k] = true
			switch w {
			case "married":
				tmpl := pick(neg, "{S} is married to {O}{since D}", "{S} is no longer married to {O}")
				if c.verb == "get" && !neg {
					tmpl = "{S} got married to {O}{D}"
				}
				c.emit(fx{pred: "MARRIED_TO", obj: k, neg: neg, tmpl: tmpl})
			case "engaged":
				c.emit(fx{pred: "PARTNER_OF", obj: k, neg: neg, tmpl: "{S} is engaged to {O}{D}"})
			case "divorced", "separated":
				c.emit(fx{pred: "MARRIED_TO", obj: k, neg: true, tmpl: "{S} is " + w + " from {O}"})
			}
		}
	}
}

// status emits HAS_STATUS ("single", "married", "in a relationship").
func (c *cl) status(s string, neg bool) {
	k := c.e.x.b.named(s, ontology.Concept, 2)
	c.emit(fx{pred: "HAS_STATUS", obj: k, neg: neg, tmpl: pick(neg, "{S} is "+s+"{since D}", "{S} is no longer "+s)})
}

// diet emits HAS_DIET.
func (c *cl) diet(d string, neg, past bool) {
	k := c.e.x.b.named(d, ontology.Condition, 2)
	tmpl := "{S} is " + d
	if strings.HasSuffix(d, " diet") {
		tmpl = "{S} follows a " + d
	}
	switch {
	case neg && c.cessation || neg && c.again:
		tmpl = "{S} is no longer " + d
	case neg:
		tmpl = "{S} is not " + d
	case past:
		tmpl = "{S} used to be " + d
	case c.now:
		tmpl += " now"
	}
	if strings.HasSuffix(d, " diet") && neg {
		tmpl = "{S} no longer follows a " + d
	}
	c.emit(fx{pred: "HAS_DIET", obj: k, neg: neg || past, tmpl: tmpl})
}

// identityBlock are heads that do not make an identity ("a bit", "a lot").
var identityBlock = wordSet(`bit,lot,little,while,mess,wreck,fool,sucker,pro,natural,part,member,kind,sort,way,
fan,believer,fun,blast,joy,pleasure,lucky,one,thing,person,big,huge,day,time,moment,journey,work,progress,
chance,need,must,dream,goal,step,lesson,reminder,sign,start,beginning,bunch,couple,few,number,ton,tons,
mix,step,good,great,nice,real,true,total,complete,perfect,bad,terrible,better,best,fan`)

// roleOrIdentity reads "a nurse", "a data analyst at Acme", "the CEO of
// Initech", "a student at MIT", "a transgender woman".
func (c *cl) roleOrIdentity(i int, neg, past bool) {
	t := c.toks
	np := takeNP(t, i)
	if np.empty() || len(np.toks) > 4 {
		return
	}
	head := np.head()
	role := np.lower()
	isRole := occupations[head] || occupations[role] || occupations[lastTwo(role)]
	after := np.next
	negT := neg || past
	if isRole && head == "student" {
		k := c.e.x.b.named(role, ontology.Concept, 2)
		c.emit(fx{pred: "IS_A", obj: k, neg: negT, tmpl: pick(negT, "{S} is a "+role, "{S} is no longer a "+role), noDate: true})
		if alt("at|in", c.at(after)) {
			org := takeNP(t, after+1)
			if isOrgLike(org) {
				ok, _ := c.object(org, ontology.Organization, 2)
				c.emit(fx{pred: "STUDIES_AT", obj: ok, neg: negT, tmpl: pick(negT, "{S} studies at {O}", "{S} no longer studies at {O}")})
			}
		}
		return
	}
	if isRole {
		k := c.e.x.b.named(role, ontology.Concept, 2)
		art := np.det
		if art != "a" && art != "an" {
			art = ""
		}
		tmpl := "{S} works as {aO}"
		switch {
		case past:
			tmpl = "{S} used to work as {aO}"
		case neg:
			tmpl = "{S} no longer works as {aO}"
		case c.now || c.e.ev.Kind == "summary":
			tmpl = "{S} now works as {aO}"
		}
		c.emit(fx{pred: "WORKS_AS", obj: k, neg: negT, tmpl: tmpl, art: art})
		if alt("at|for|of|in", c.at(after)) {
			org := takeNP(t, after+1)
			if isOrgLike(org) && !isPlaceLike(org) || knownOrgs[org.key()] {
				c.employer(org, negT, "")
			}
		}
		return
	}
	if identityBlock[head] || np.hasName && len(np.toks) == 1 || neg && !c.cessation || past && !c.cessation {
		return // "when I was a kid" is not an identity given up
	}
	if _, _, isVerb := verbOf(head); isVerb && !strings.HasSuffix(head, "er") {
		return
	}
	if alt("a|an", np.det) {
		k := c.e.x.b.named(role, ontology.Concept, 1)
		c.emit(fx{pred: "IS_A", obj: k, neg: negT, conf: 0.8, tmpl: pick(negT, "{S} is {aO}", "{S} is no longer {aO}"), art: np.det, noDate: true})
	}
}

func lastTwo(s string) string {
	f := strings.Fields(s)
	if len(f) < 2 {
		return s
	}
	return f[len(f)-2] + " " + f[len(f)-1]
}

// likeObjects emits a preference for every phrase of a list at i.
func (c *cl) likeObjects(i int, pred string, neg bool, strength float64, phrase string) {
	items, _ := takeList(c.toks, i)
	for _, np := range items {
		k, _ := c.object(np, "", 0)
		if k == "" {
			continue
		}
		tmpl := "{S} " + phrase + " {O}"
		if neg {
			tmpl = "{S} is no longer " + strings.TrimPrefix(phrase, "is ") + " {O}"
			if !c.cessation {
				tmpl = "{S} is not " + strings.TrimPrefix(phrase, "is ") + " {O}"
			}
		}
		c.emit(fx{pred: pred, obj: k, neg: neg, strength: strength, tmpl: tmpl})
	}
}

// dismissed reads "laid off from Umbrella Corp", "fired by Initech".
func (c *cl) dismissed(i int) {
	for j := i; j < len(c.toks) && j < i+4; j++ {
		if alt("from|by|at", c.at(j)) {
			c.employer(takeNP(c.toks, j+1), true, "was let go from")
			return
		}
	}
}
