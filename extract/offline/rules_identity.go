package offline

import (
	"slices"
	"strconv"
	"strings"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// identityRules recognise who someone is: their age, when and where they
// were born, the identities and roles they name with "I am" ("I'm 34", "I
// was born in Sweden", "I'm a transgender woman", "I'm a teacher at Lincoln
// High School").
type identityRules struct {
	work *workRules // "a data analyst at Acme" names an employer too
}

// ruleTurn: "I just turned 30".
func (r *identityRules) ruleTurn(c *clause) {
	if c.neg || c.modal != "" || c.would || c.future || !c.past && !c.perfect {
		return
	}
	r.ageAt(c, c.verbAt+1)
}

// ageAt reads an age at i: "30", "30 years old", "thirty".
func (r *identityRules) ageAt(c *clause, i int) bool {
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

// born reads "born in Sweden", "born in 1990", "born on 8 May 1990".
func (r *identityRules) born(c *clause, i int) {
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

// roleOrIdentity reads "a nurse", "a data analyst at Acme", "the CEO of
// Initech", "a student at MIT", "a transgender woman".
func (r *identityRules) roleOrIdentity(c *clause, i int, neg, past bool) {
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
		k := c.said.out.named(role, ontology.Concept, 2)
		c.emit(fx{pred: "IS_A", obj: k, neg: negT, tmpl: pick(negT, "{S} is a "+role, "{S} is no longer a "+role), noDate: true})
		// "a third-year law student": the field before "student"
		for _, w := range np.toks[:len(np.toks)-1] {
			if disciplines[w.w] {
				fk := c.said.out.named(w.w, ontology.Concept, 1)
				c.emit(fx{pred: "STUDIES", obj: fk, neg: negT, tmpl: pick(negT, "{S} studies {O}", "{S} no longer studies {O}")})
				break
			}
		}
		if alt("at|in", c.at(after)) {
			org := takeNP(t, after+1)
			// "a student at Leeds": a university is called by its town
			if isOrgLike(org) || c.at(after) == "at" && org.hasName && isPlaceLike(org) {
				ok, _ := c.object(org, ontology.Organization, 2)
				c.emit(fx{pred: "STUDIES_AT", obj: ok, neg: negT, tmpl: pick(negT, "{S} studies at {O}", "{S} no longer studies at {O}")})
			}
		}
		return
	}
	if isRole {
		k := c.said.out.named(role, ontology.Concept, 2)
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
		case c.now || c.said.event.Kind == "summary":
			tmpl = "{S} now works as {aO}"
		}
		c.emit(fx{pred: "WORKS_AS", obj: k, neg: negT, tmpl: tmpl, art: art})
		if alt("at|for|of|in", c.at(after)) {
			org := takeNP(t, after+1)
			// A name after a role and "at" is where the role is held ("a
			// nurse at St Thomas'"), unless it is a place ("a teacher in
			// Leeds").
			named := c.at(after) == "at" && org.hasName && len(org.toks) <= 4
			if isOrgLike(org) && !isPlaceLike(org) || named && !knownPlace(org) || knownOrgs[org.key()] || isWorkplaceKind(org) {
				r.work.employer(c, org, negT, "")
			}
		}
		return
	}
	if r.titleAt(c, np, negT) {
		return
	}
	if identityBlock[head] || np.hasName && len(np.toks) == 1 || neg && !c.cessation || past && !c.cessation {
		return // "when I was a kid" is not an identity given up
	}
	if _, _, isVerb := verbOf(head); isVerb && !strings.HasSuffix(head, "er") {
		return
	}
	if alt("a|an", np.det) {
		k := c.said.out.named(role, ontology.Concept, 1)
		c.emit(fx{pred: "IS_A", obj: k, neg: negT, conf: 0.8, tmpl: pick(negT, "{S} is {aO}", "{S} is no longer {aO}"), art: np.det, noDate: true})
	}
}

// titleAt reads a title said without an article, which the employer after
// it shows to be one: "I'm deputy head at Fernhill Junior", "I'm head of
// maths at Leyton Academy". Without "at" and a name ("I'm head over heels")
// nothing is read.
func (r *identityRules) titleAt(c *clause, np nounPhrase, neg bool) bool {
	if np.det != "" || np.hasName || len(np.toks) > 3 || !occupations[np.head()] && !titleHeads[np.head()] {
		return false // "I'm really happy at Google" names no title
	}
	title, after := np.toks, np.next
	if c.at(after) == "of" {
		// "head of maths": the title runs on through its "of"
		of := takeNP(c.toks, after+1)
		if of.empty() || of.hasName || len(title)+len(of.toks) > 4 {
			return false
		}
		title = append(append(slices.Clone(title), c.toks[after]), of.toks...)
		after = of.next
	}
	if c.at(after) != "at" {
		return false
	}
	org := takeNP(c.toks, after+1)
	if !org.hasName || knownPlace(org) || len(org.toks) > 4 {
		return false
	}
	r.work.titled(c, nounPhrase{toks: title}.lower(), "", neg)
	r.work.employer(c, org, neg, "")
	return true
}

// titleHeads end a title said without an article ("deputy head", "team
// lead", "head of maths"), besides the occupations. Grows by a word.
var titleHeads = wordSet(`head,lead,chief,chair,director,captain,principal,president,deputy,manager,officer,coordinator,
supervisor,editor,partner,founder,owner,registrar,consultant,fellow,governor,treasurer,secretary`)

// identityWord: "I'm transgender", "I'm an introvert" (an adjective of the
// identity lexicon).
func (r *identityRules) identityWord(c *clause, w string, neg bool) {
	k := c.said.out.named(w, ontology.Concept, 2)
	c.emit(fx{pred: "IS_A", obj: k, neg: neg, tmpl: pick(neg, "{S} is "+w, "{S} is no longer "+w), noDate: true})
}
