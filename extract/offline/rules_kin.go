package offline

import (
	"slices"
	"strconv"
	"strings"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// kinRules recognise the people and animals in a speaker's life by their
// role: names ("my name is Sam", "her name is Luna", "my cat is called
// Luna"), "Emma is my sister", relatives and pets introduced by have, adopt
// and get ("we adopted a puppy named Max"), and birthdays. Relatives named
// in passing ("I went camping with my sister Emma") are read with the
// clause's references (refs.go).
type kinRules struct {
	plans *planRules // "we're thinking about adopting" is a plan
}

// ruleAdopt: "we adopted a cat", "I rescued a puppy named Max", "I adopted
// a child".
func (r *kinRules) ruleAdopt(c *clause) {
	if c.future || c.would || c.modal != "" || c.progressive {
		r.plans.planFrom(c, c.verb, c.verbAt)
		return
	}
	if c.neg {
		return
	}
	r.petOrPeople(c, c.verbAt+1, false)
}

// broughtHome: "we brought home a puppy", "just brought a kitten home
// from the shelter": an animal or a baby taken home is the speaker's now.
func (r *kinRules) broughtHome(c *clause) bool {
	if c.neg || c.future || c.would || c.modal != "" || !c.past && !c.perfect {
		return false
	}
	i := c.verbAt + 1
	home := c.at(i) == "home"
	if home {
		i++
	}
	np := takeNP(c.toks, i)
	if np.empty() || !home && c.at(np.next) != "home" {
		return false
	}
	return r.petOrPeople(c, i, false)
}

// ruleCelebrate: "we celebrated my daughter's birthday last night".
func (r *kinRules) ruleCelebrate(c *clause) {
	if c.neg || c.future || c.modal != "" || c.would {
		return
	}
	owner, i := c.possessor(c.verbAt + 1)
	if owner != "" && c.at(i) == "birthday" && c.date != nil && c.date.Granularity == nlp.GranularityDay {
		c.emit(fx{subj: owner, pred: "BORN_ON", obj: c.value(birthdayText(c.date)), conf: 0.6,
			tmpl: "{S's} birthday is on {O} (celebrated{D})", noDate: true})
	}
}

// nameFrame: "my name is Sam", "call me Sam", "her name is Luna", "my
// sister's name is Emma", "my cat is called Luna".
func (r *kinRules) nameFrame(c *clause) bool {
	t := c.toks
	b := c.said.out
	if c.seq(0, "call", "me") {
		if name, _ := nameOf(t, 2); name != "" {
			r.userName(c, c.said.speaker, name)
			return true
		}
	}
	// "we named him Alfie", "named her Pip", "called him Biscuit": the last
	// unnamed pet or baby takes the name. "called her" is also a phone
	// call, so it names an animal only.
	for i := 0; i < 3 && i+2 < len(t); i++ {
		if !alt("named|called", t[i].w) || !alt("him|her|it|them", t[i+1].w) || c.said.talk.lastUnnamed == "" {
			continue
		}
		e := b.ents[c.said.talk.lastUnnamed]
		if e == nil || t[i].w == "called" && e.typ != ontology.Animal {
			return false
		}
		if name, _ := nameOf(t, i+2); name != "" {
			b.rename(c.said.talk.lastUnnamed, name)
			c.said.talk.lastUnnamed = ""
			return true
		}
		return false
	}
	// "her name is Luna": the last unnamed pet or relative takes the name.
	if alt("his|her|its|their", c.at(0)) && c.at(1) == "name" && c.said.talk.lastUnnamed != "" {
		if n, ok, _, _ := c.copulaAt(2); ok {
			if name, _ := nameOf(t, n); name != "" {
				b.rename(c.said.talk.lastUnnamed, name)
				c.said.talk.lastUnnamed = ""
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
				if owner == c.said.speaker || b.ents[owner] != nil && b.ents[owner].isUser {
					r.userName(c, owner, name)
				} else if e := b.ents[owner]; e != nil && e.owner != "" {
					b.rename(owner, name)
				}
				return true
			}
		}
		return false
	}
	// "my cat is called Luna", "my sister is named Emma"
	if (c.at(0) == "my" || c.at(0) == "our") && owner == c.said.speaker {
		if k, n := c.relativeAt(0, c.said.speaker); k != "" && alt("is|are|was", c.at(n)) && alt("called|named", c.at(n+1)) {
			if name, _ := nameOf(t, n+2); name != "" {
				b.rename(k, name)
				return true
			}
		}
	}
	return false
}

// isMyFrame: "Emma is my sister", "Rex is my dog", "Sam is my husband".
func (r *kinRules) isMyFrame(c *clause) bool {
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
		c.relative(c.said.speaker, role, rel, name)
		return true
	}
	if petSpecies[nlp.Singular(role)] {
		c.pet(c.said.speaker, nlp.Singular(role), name, false)
		return true
	}
	return false
}

// birthdayFrame: "my birthday is on 8 May", "my daughter's birthday is in
// August".
func (r *kinRules) birthdayFrame(c *clause) bool {
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

// userName records the speaker's own name as an alias and a fact.
func (r *kinRules) userName(c *clause, owner, name string) {
	b := c.said.out
	if e := b.ents[owner]; e != nil {
		b.alias(e, name)
	}
	c.emit(fx{subj: owner, pred: ontology.Fallback, raw: "is named", obj: c.value(name), tmpl: "{S's} name is {O}", noDate: true})
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

// birth reads a child born to the speaker, with "had" in the past: "we had
// a baby girl in June", "I had a little boy last spring", "we had our
// second son". The role is the child's (a girl is a daughter); a baby of
// no said sex is a child. "I had a baby shower" is no child: the phrase
// must end on the child.
func (r *kinRules) birth(c *clause, i int) bool {
	np := takeNP(c.toks, i)
	if !np.empty() && youngAnimals[np.head()] {
		return true // "our cat had kittens": a litter born, not a pet that is gone
	}
	if np.empty() || np.det != "" && !alt("a|our|my|another", np.det) {
		return false
	}
	role := np.head()
	switch {
	case alt("girl|daughter", role):
		role = "daughter"
	case alt("boy|son", role):
		role = "son"
	case role == "baby" || role == "twins":
	default:
		return false
	}
	if (role == "daughter" || role == "son") && np.det != "our" && np.det != "my" && !slices.ContainsFunc(np.toks, func(t tok) bool {
		return alt("baby|little|newborn|second|third|first", t.w)
	}) {
		return false // "I had a girl over for dinner"? say nothing
	}
	c.relative(c.subj, role, relations[role], "")
	return true
}

// youngAnimals are the young an animal has ("our dog had puppies").
var youngAnimals = wordSet(`kitten,kittens,puppy,puppies,pup,pups,cub,cubs,foal,foals,lamb,lambs,chick,chicks,piglet,
piglets,calf,calves,duckling,ducklings,litter,kits,joeys`)

// petOrPeople reads "a dog named Rex", "two cats, Luna and Milo", "a sister
// named Emma", "two kids" at i, for have/adopt/get. It reports whether it
// matched.
func (r *kinRules) petOrPeople(c *clause, i int, neg bool) bool {
	t := c.toks
	np := takeNP(t, i)
	if np.empty() {
		return false
	}
	if name, n := nameOf(t, i); name != "" && c.at(n) == "," && !neg {
		// "We adopted Nova, a retired racing greyhound, ...": the name,
		// then what it is.
		if kind := takeNP(t, n+1); !kind.empty() {
			if species := petSpeciesOf(kind); species != "" {
				c.pet(c.subj, species, name, false)
				return true
			}
		}
	}
	species := petSpeciesOf(np)
	_, isRel := relations[np.toks[len(np.toks)-1].w]
	if species == "" && !isRel {
		return false
	}
	// Names: "named Rex", "called Rex", ", Rex", "whose name is Rex",
	// ", her name is Luna" (handled by the next clause).
	j := np.next
	var names []string
	switch {
	case alt("named|called", c.at(j)):
		j++
	case c.at(j) == "whose" && c.at(j+1) == "name" && alt("is|'s", c.at(j+2)):
		j += 3
	case c.at(j) == ",":
		j++
	default:
		j = -1
	}
	if j > 0 {
		for j < len(t) {
			name, n := nameOf(t, j)
			if name == "" {
				break
			}
			names = append(names, name)
			j = n
			if alt(",|and|&", c.at(j)) {
				j++
				if c.at(j) == "and" {
					j++
				}
				continue
			}
			break
		}
	}
	owner := c.subj
	if species != "" {
		if len(names) == 0 {
			c.pet(owner, species, "", neg)
		}
		for _, n := range names {
			c.pet(owner, species, n, neg)
		}
		return true
	}
	role := np.toks[len(np.toks)-1].w
	if neg {
		return true // "I don't have kids": nothing to record about a relative
	}
	if len(names) == 0 {
		c.relative(owner, role, relations[role], "")
	}
	for _, n := range names {
		c.relative(owner, role, relations[role], n)
	}
	return true
}

// petSpeciesOf returns the species a noun phrase names ("a beagle", "a
// golden retriever", "a retired racing greyhound", "a tiny rescue
// kitten"), or "": the whole phrase, or its head after at most three
// lower-case words that describe it.
func petSpeciesOf(np nounPhrase) string {
	if petSpecies[np.lower()] {
		return np.lower()
	}
	head := np.head()
	if !petSpecies[head] || len(np.toks) > 4 {
		return ""
	}
	for _, t := range np.toks[:len(np.toks)-1] {
		if t.cap && !t.first || t.kind != nlp.Word {
			return "" // "a Pokémon Snorlax plush" is no pet
		}
	}
	return head
}

// caresForRelative: "I look after my dad three days a week", "I care for
// my mum since her stroke", "I've been looking after my gran": the speaker
// is a carer, of that relative. A taste ("I don't care for olives") is the
// taste rules'; looking after a pet or a house names no carer.
func (r *kinRules) caresForRelative(c *clause) bool {
	i := c.verbAt + 1
	if c.neg || c.future || c.would || c.modal != "" || c.past && !c.perfect || c.said.speaker == "" || c.subj != c.said.speaker {
		return false
	}
	if !(c.verb == "look" && c.at(i) == "after" || c.verb == "care" && c.at(i) == "for") || !alt("my|our", c.at(i+1)) {
		return false
	}
	rel, n := c.relativeAt(i+1, c.said.speaker)
	if rel == "" || c.at(n) == "'s" {
		return false // "my neighbour's cat"
	}
	k := c.said.out.named("carer", ontology.Concept, 2)
	c.emit(fx{pred: "IS_A", obj: k, art: "a", tmpl: "{S} is {aO}: looks after " + c.said.out.display(rel, false), noDate: true})
	return true
}

// livesWith: "my mum moved in with us after her fall", "my sister lives
// with us", "I live with my boyfriend", "I moved in with my girlfriend":
// who shares the speaker's home, a fact the place rules (which read where)
// do not hold. The ontology has no predicate for it; it is kept under the
// fallback with its verb phrase, so its sentence still answers "who lives
// with the user?". It never claims the clause: the verb's own rule still
// reads the rest ("I live with my boyfriend in Leeds").
func (r *kinRules) livesWith(c *clause) bool {
	sp := c.said.speaker
	if sp == "" || c.neg || c.future || c.would || c.modal != "" || c.usedTo {
		return false
	}
	i := c.verbAt + 1
	if c.verb == "move" {
		if c.at(i) != "in" {
			return false
		}
		i++
	}
	if c.at(i) != "with" {
		return false
	}
	if c.subj != sp {
		// a relative with the speaker: "with us", "with me"
		if !alt("us|me", c.at(i+1)) || !strings.HasPrefix(c.subj, sp+"/") {
			return false
		}
		c.emit(fx{pred: ontology.Fallback, raw: "lives with", obj: sp, tmpl: "{S} lives with {O}", noDate: true})
		return false
	}
	if !alt("my|our", c.at(i+1)) {
		return false
	}
	rel, n := c.relativeAt(i+1, sp)
	if rel == "" || c.at(n) == "'s" {
		return false
	}
	c.emit(fx{pred: ontology.Fallback, raw: "lives with", obj: rel, tmpl: "{S} lives with {O}", noDate: true})
	return false
}
