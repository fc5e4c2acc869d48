package offline

import (
	"strconv"
	"strings"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// Rules about people: relatives and friends, pets, names, and the frames
// decided by a clause's shape (favourites, birthdays, "Emma is my sister").

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
