package offline

import (
	"strings"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// References: who a clause talks about when it names people by role
// ("my sister Emma", "my dog's", "the user's brother", "Emma, my sister").
// Reading such a reference records the relation it states (the speaker has
// a sister named Emma), whichever recogniser reads the rest of the clause.

// relativeAt reads "my [adj] ROLE [Name]", "my ROLE, Name,", "my SPECIES
// [Name]" at index i (which holds the possessive, or "'s" after an owner)
// and returns the entity it names and the index after it. It records the
// relation between owner and relative as a fact.
func (c *clause) relativeAt(i int, owner string) (string, int) {
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
	// A capital right after the role, inside the sentence, makes a name of
	// a common word too: people and pets are called Dev, Will, Rose,
	// Pepper or Biscuit. At the sentence's start a capital proves nothing.
	common := k < len(t) && isCommonWord(t[k].w)
	if k < len(t) && t[k].cap && t[k].kind == nlp.Word && !nameStop[t[k].w] && (!common || !t[k].first) {
		n := k
		for n+1 < len(t) && t[n+1].cap && t[n+1].kind == nlp.Word && n-k < 2 {
			n++
		}
		np := nounPhrase{toks: t[k : n+1], hasName: true}
		typ, ok := classify(np)
		if !ok || typ == ontology.Person || species != "" && typ != ontology.Place ||
			common && typ != ontology.Place && typ != ontology.Organization {
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
func (c *clause) relative(owner, role string, rel relation, name string) string {
	b := c.said.out
	var key string
	if name != "" {
		key = b.named(name, ontology.Person, 2)
		c.said.people[key] = true
		c.notePerson(key)
	} else {
		key = b.owned(owner, role, ontology.Person, 2)
		c.said.talk.lastUnnamed = key
		if !strings.HasSuffix(role, "s") || role == "boss" {
			c.notePerson(key)
		} else {
			c.said.talk.lastGroup = key
		}
	}
	if key == owner {
		return key
	}
	b.mention(c.said.event.ID, key)
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
		if rel.label == "fiance" || rel.label == "fiancee" {
			// "a gift for my fiancée Priya": said in passing, it is
			// news that the speaker is engaged, and to whom
			tmpl = "{S} is engaged to {O} ({S's} {Q})||{S} has a {Q} (engaged)"
			if owner == c.said.speaker {
				k := b.named("engaged", ontology.Concept, 2)
				c.emit(fx{subj: owner, pred: "HAS_STATUS", obj: k, conf: 0.8, tmpl: "{S} is engaged", noDate: true})
			}
		}
	case "FRIEND_OF", "COLLEAGUE_OF", "KNOWS", "RELATIVE_OF", "CHILD_OF":
		tmpl = "{O} is {S's} {Q}"
	}
	c.emit(fx{subj: owner, pred: rel.pred, obj: key, qual: rel.label, tmpl: tmpl, conf: 0.85, noDate: true})
	return key
}

// pet records owner HAS_PET animal and returns the animal's key. An unnamed
// pet becomes the target of a later "her name is Luna".
func (c *clause) pet(owner, species, name string, neg bool) string {
	b := c.said.out
	var key string
	if name != "" {
		key = b.named(name, ontology.Animal, 2)
		b.alias(b.ents[key], species)
	} else {
		key = b.owned(owner, species, ontology.Animal, 2)
		c.said.talk.lastUnnamed = key
	}
	b.mention(c.said.event.ID, key)
	tmpl := "{S} has a {Q}{? named O}"
	if neg {
		tmpl = "{S} no longer has {O}"
	}
	c.emit(fx{subj: owner, pred: "HAS_PET", obj: key, qual: nlp.Singular(species), neg: neg, tmpl: tmpl, noDate: true, rank: 1})
	return key
}

// relationMentions records the relatives and pets a clause names anywhere
// ("I went camping with my sister Emma"), and "Emma, my sister".
func (c *clause) relationMentions() {
	if c.said.speaker == "" {
		return
	}
	t := c.toks
	// "Emma, my sister," / "Rex, my dog": the name comes first
	named := map[int]bool{} // the possessives read here
	for i := 0; i+3 < len(t); i++ {
		if t[i].cap && !nameStop[t[i].w] && t[i+1].w == "," && (t[i+2].w == "my" || t[i+2].w == "our") {
			role := t[i+3].w
			name := t[i].orig
			if rel, ok := relations[role]; ok {
				c.relative(c.said.speaker, role, rel, name)
				named[i+2] = true
			} else if petSpecies[nlp.Singular(role)] {
				c.pet(c.said.speaker, nlp.Singular(role), name, false)
				named[i+2] = true
			}
		}
	}
	for i := 1; i < len(t); i++ {
		if (t[i].w == "my" || t[i].w == "our") && !named[i] {
			c.relativeAt(i, c.said.speaker)
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
func (c *clause) possessor(i int) (string, int) {
	t := c.toks
	if i >= len(t) {
		return "", i
	}
	switch t[i].w {
	case "my", "our":
		// "my sister's", "my dog's"
		if k, n := c.relativeAt(i, c.said.speaker); k != "" && n < len(t) && t[n].w == "'s" {
			return k, n + 1
		}
		if i+2 < len(t) && t[i+2].w == "'s" {
			if k, n := c.relativeAt(i, c.said.speaker); k != "" && n == i+2 {
				return k, n + 1
			}
		}
		return c.said.speaker, i + 1
	case "his", "her", "their":
		if c.said.talk.lastPerson != "" {
			return c.said.talk.lastPerson, i + 1
		}
		return "", i
	case "the":
		if i+2 < len(t) && t[i+1].w == "user" && t[i+2].w == "'s" {
			return c.said.out.user(), i + 3
		}
	}
	if name, n := nameOf(t, i); name != "" && n < len(t) && t[n].w == "'s" {
		key := nlp.NormalizeName(name)
		if c.said.people[key] || firstNames[key] || c.said.out.ents[key] != nil {
			k := c.said.out.named(name, ontology.Person, 2)
			return k, n + 1
		}
	}
	return "", i
}
