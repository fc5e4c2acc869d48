package offline

import (
	"strconv"
	"strings"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// Rules for "I am ..." clauses: origin and residence by adjective, jobs and
// identities, relationship status, diets, allergies and conditions, ages,
// fandom and the adjectives of liking.

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
