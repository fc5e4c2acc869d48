package offline

import (
	"slices"
	"strings"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// healthRules recognise diets, allergies, intolerances and conditions ("I'm
// vegetarian", "I follow a keto diet", "I'm allergic to peanuts", "I'm
// lactose intolerant").
type healthRules struct{}

// ruleFollow: "I follow a vegan diet".
func (r *healthRules) ruleFollow(c *clause) {
	np := takeNP(c.toks, c.verbAt+1)
	if np.head() == "diet" && len(np.toks) > 1 {
		r.diet(c, np.lower(), c.neg || c.usedTo, c.past && !c.perfect)
	}
}

// diet emits HAS_DIET.
func (r *healthRules) diet(c *clause, d string, neg, past bool) {
	k := c.said.out.named(d, ontology.Condition, 2)
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
	if !strings.HasSuffix(d, " diet") && !dietAdjectives[d] {
		// a diet named as a practice: "keto", "intermittent fasting"
		tmpl = pick(neg || past, "{S} does "+d, "{S} no longer does "+d)
		if c.now && !neg && !past {
			tmpl += " now"
		}
	}
	c.emit(fx{pred: "HAS_DIET", obj: k, neg: neg || past, tmpl: tmpl})
}

// onDiet: "I'm on a keto diet".
func (r *healthRules) onDiet(c *clause, np nounPhrase, neg, past bool) {
	if np.head() == "diet" && len(np.toks) > 1 { // "on a diet" names no diet
		r.diet(c, strings.TrimSuffix(np.lower(), " diet")+" diet", neg, past)
	}
}

// allergicTo reads the list of allergens at i: "allergic to peanuts and
// shellfish".
func (r *healthRules) allergicTo(c *clause, i int, neg bool) {
	items, _ := takeList(c.toks, i)
	for _, np := range items {
		r.allergic(c, np, neg)
	}
}

// allergy reads an allergy named as a noun: "a peanut allergy", "an allergy
// to cats" (np is the phrase headed by "allergy").
func (r *healthRules) allergy(c *clause, np nounPhrase, neg bool) {
	if len(np.toks) > 1 {
		r.allergic(c, nounPhrase{toks: np.toks[:len(np.toks)-1]}, neg)
	} else if c.at(np.next) == "to" {
		r.allergicTo(c, np.next+1, neg)
	}
}

// allergic emits ALLERGIC_TO for one allergen.
func (r *healthRules) allergic(c *clause, np nounPhrase, neg bool) {
	if k, _ := c.object(np, "", 0); k != "" {
		c.emit(fx{pred: "ALLERGIC_TO", obj: k, neg: neg, tmpl: pick(neg, "{S} is allergic to {O}", "{S} is no longer allergic to {O}"), noDate: true})
	}
}

// intolerant: "I'm lactose intolerant" (food is "lactose" or "gluten").
func (r *healthRules) intolerant(c *clause, food string, neg bool) {
	k := c.said.out.named(food+" intolerance", ontology.Condition, 2)
	c.emit(fx{pred: "HAS_CONDITION", obj: k, neg: neg, tmpl: pick(neg, "{S} is "+food+" intolerant", "{S} is no longer "+food+" intolerant"), noDate: true})
}

// diagnosed: "I was diagnosed with asthma", "got diagnosed with coeliac
// disease last month": the condition diagnosed, whatever its name (i is
// the word after "with"); a diagnosis is a lasting condition, not an event.
func (r *healthRules) diagnosed(c *clause, i int) {
	np := takeNumberedNP(c.toks, i)
	if np.det != "" && np.det != "a" && np.det != "an" || np.hasName && len(np.toks) == 1 && np.toks[0].w == "it" {
		return // "diagnosed with the same thing", "diagnosed with it"
	}
	if k, _ := c.object(np, ontology.Condition, 2); k != "" {
		c.emit(fx{pred: "HAS_CONDITION", obj: k, tmpl: "{S} was diagnosed with {O}{D}"})
	}
}

// condition: "I'm diabetic", "I'm lactose intolerant" (adj is the
// lexicon's adjective, one or two words).
func (r *healthRules) condition(c *clause, adj string, neg bool) {
	k := c.said.out.named(conditions[adj], ontology.Condition, 2)
	tmpl := pick(neg, "{S} has {O} ({S} is "+adj+")", "{S} is no longer "+adj+" ({O})")
	c.emit(fx{pred: "HAS_CONDITION", obj: k, neg: neg, tmpl: tmpl, noDate: true})
}

// takeNumberedNP is takeNP keeping a number inside the name: "type 2
// diabetes", "stage 1 melanoma".
func takeNumberedNP(t []tok, i int) nounPhrase {
	np := takeNP(t, i)
	if n := np.next; !np.empty() && n+1 < len(t) && t[n].kind == nlp.Number {
		if rest := takeNP(t, n+1); !rest.empty() && rest.det == "" {
			np.toks = append(append(slices.Clone(np.toks), t[n]), rest.toks...)
			np.next = rest.next
		}
	}
	return np
}

// conditionPhrase is the condition named at i ("asthma", "type 1
// diabetes", "a bad back"), or an empty phrase when none is.
func conditionPhrase(c *clause, i int) nounPhrase {
	np := takeNumberedNP(c.toks, i)
	if len(np.toks) > 1 && alt("diagnosis|symptoms|flare-up|flare|flareup|meds|medication|treatment", np.head()) {
		np.toks = np.toks[:len(np.toks)-1] // "my coeliac diagnosis" is coeliac
		if noun := conditions[np.lower()]; noun != "" {
			np.toks = nil // an adjective: its condition's name ("celiac disease")
			for _, w := range strings.Fields(noun) {
				np.toks = append(np.toks, tok{w: w, orig: w, kind: nlp.Word})
			}
		}
	}
	if np.empty() || np.det != "" && !(np.det == "a" && conditionNouns["a "+np.lower()]) {
		return nounPhrase{}
	}
	if conditionNouns[np.lower()] || conditionNouns[np.head()] || conditionNouns[lastTwo(np.lower())] || medicalTerm(np.head()) {
		return np
	}
	return nounPhrase{}
}

// medicalTerm reports whether a word is named as a condition by its
// ending: an inflammation ("tendonitis", "bronchitis"), a disease process
// ("endometriosis", "scoliosis") or a pain ("fibromyalgia"), so the list
// of conditions need not name them all. Words that end so and are none
// ("dose", "purpose") are too short or lack the stem.
func medicalTerm(w string) bool {
	if len(w) < 7 {
		return false
	}
	for _, end := range []string{"itis", "osis", "algia", "emia", "aemia", "opathy", "oma"} {
		if strings.HasSuffix(w, end) && !notMedical[w] {
			return true
		}
	}
	return false
}

// notMedical end like a condition without being one.
var notMedical = wordSet(`diploma,aroma,diplomacy,symbiosis,osmosis,hypnosis,nostalgia,
telepathy,empathy,sympathy,homeopathy,naturopathy,academia,bohemia`)

// hasCondition emits HAS_CONDITION for a condition named as a noun ("I
// don't have diabetes" says what is not, and is left out).
func (r *healthRules) hasCondition(c *clause, np nounPhrase) {
	if k, _ := c.object(np, ontology.Condition, 2); k != "" {
		c.emit(fx{pred: "HAS_CONDITION", obj: k, tmpl: "{S} has {O}", noDate: true})
	}
}

// myConditionScan reads a condition the speaker names as theirs, whatever
// the clause is about: "I take metformin for my diabetes", "the cold
// plays havoc with my arthritis", "physio for my sciatica". "my" and a
// long-term condition of the lexicon say it is theirs; "my sister's
// asthma" is not (a possessive after "my" names another owner).
func (r *healthRules) myConditionScan(c *clause) {
	sp := c.said.speaker
	if sp == "" || c.hedge {
		return
	}
	t := c.toks
	for i := 0; i+1 < len(t); i++ {
		if t[i].w != "my" || i+2 < len(t) && t[i+2].w == "'s" {
			continue
		}
		np := conditionPhrase(c, i+1)
		if np.empty() {
			continue
		}
		for _, w := range t[:i] {
			if alt("if|might|may|whether|not|never|without", w.w) {
				return // "I don't think it's my asthma"
			}
		}
		if k, _ := c.object(np, ontology.Condition, 2); k != "" {
			c.emit(fx{subj: sp, pred: "HAS_CONDITION", obj: k, conf: 0.8, tmpl: "{S} has {O}", noDate: true})
		}
		return
	}
}

// injured: "I broke my ankle playing football", "sprained my wrist last
// week", "I've torn my ACL": an injury to a part of the speaker's body is a
// condition ("broken ankle"), dated when said. "I broke my phone" names no
// body part and is left to the other rules.
func (r *healthRules) injured(c *clause) bool {
	if c.neg || c.future || c.modal != "" || c.would || !c.past && !c.perfect {
		return false
	}
	i := c.verbAt + 1
	if !alt("my|our", c.at(i)) {
		return false
	}
	j := i + 1
	for j < len(c.toks) && j < i+3 && alt("left|right|lower|upper|big|little", c.at(j)) {
		j++
	}
	part := c.at(j)
	if !bodyParts[part] && !bodyParts[nlp.Singular(part)] {
		return false
	}
	p, ok := injuryParticiples[c.verb]
	if !ok {
		return false
	}
	np := nounPhrase{toks: []tok{{w: p, orig: p, kind: nlp.Word}, c.toks[j]}}
	if k, _ := c.object(np, ontology.Condition, 2); k != "" {
		c.emit(fx{pred: "HAS_CONDITION", obj: k, tmpl: "{S} got a {O}{D}"})
	}
	return true
}

// injuryParticiples name the injury each verb does ("broke" → "broken").
var injuryParticiples = map[string]string{"break": "broken", "sprain": "sprained", "fracture": "fractured",
	"tear": "torn", "twist": "twisted", "dislocate": "dislocated", "pull": "pulled", "injure": "injured",
	"hurt": "hurt", "damage": "damaged", "bruise": "bruised", "strain": "strained", "rupture": "ruptured"}

// bodyParts are the parts of a body an injury is said of. Grows by a word.
var bodyParts = wordSet(`ankle,knee,wrist,arm,leg,hip,back,neck,shoulder,elbow,foot,feet,toe,finger,thumb,hand,rib,
collarbone,hamstring,calf,achilles,acl,meniscus,ligament,tendon,nose,jaw,tooth,teeth,spine,pelvis,shin,heel,
groin,quad,disc,rotator,cuff,muscle`)

// asDiet reads a diet or a condition named as the speaker's before the
// clause it qualifies: "As a vegan, what protein should I eat?", "As a
// coeliac, I can't eat regular pasta". "As a vegan, my sister ..." is
// hers; "As a kid, I ..." names neither.
func (r *healthRules) asDiet(u *utterance, t []tok) {
	if u.speaker == "" || len(t) < 5 || t[0].w != "as" || !alt("a|an", t[1].w) || t[3].w != "," {
		return
	}
	w := t[2].w
	if !diets[w] && conditions[w] == "" {
		return
	}
	rest := t[4:]
	if !slices.ContainsFunc(rest[:min(len(rest), 5)], func(x tok) bool { return x.w == "i" }) {
		return
	}
	c := &clause{said: u, toks: t, subj: u.speaker}
	c.scanMarkers()
	if c.hedge {
		return
	}
	if diets[w] {
		r.diet(c, w, false, false)
		return
	}
	r.condition(c, w, false)
}

// dietPractice: "I'm doing keto at the moment", "trying intermittent
// fasting", "I eat plant-based now": a diet done, tried or eaten is the
// speaker's diet. It reports whether it read the clause.
func (r *healthRules) dietPractice(c *clause) bool {
	if c.future || c.would || c.modal != "" || c.hedge {
		return false
	}
	i := c.verbAt + 1
	for alt("mostly|mainly|strictly|fully|largely|completely", c.at(i)) {
		i++
	}
	d := ""
	if two := c.at(i) + " " + c.at(i+1); diets[two] {
		d = two
	} else if diets[c.at(i)] {
		d = c.at(i)
	}
	if d == "" || c.verb == "eat" && alt("diet|food|meals|dishes|options", c.at(i+1)) {
		return false // "I eat vegan food sometimes" is a taste, not a diet
	}
	r.diet(c, d, c.neg || c.usedTo, c.past && !c.perfect)
	return true
}

// sufferFrom: "I suffer from migraines", "I'm recovering from a torn ACL",
// "I used to suffer from hay fever": the condition suffered or recovered
// from. Recovery is from a condition or an injury only ("recovering from
// a long week" names none).
func (r *healthRules) sufferFrom(c *clause) bool {
	if c.future || c.would || c.modal != "" || c.hedge || c.at(c.verbAt+1) != "from" {
		return false
	}
	i := c.verbAt + 2
	np := conditionPhrase(c, i)
	if np.empty() && c.verb == "recover" && alt("a|an|my", c.at(i)) && injuryWords[c.at(i+1)] {
		np = takeNP(c.toks, i+1) // "a torn ACL"
	}
	if np.empty() && c.verb == "suffer" {
		if np = takeNumberedNP(c.toks, i); !usableObject(np) || np.hasName || np.det != "" {
			return false
		}
	}
	if np.empty() {
		return false
	}
	if c.verb == "recover" && !c.progressive && !c.perfect {
		return false // "I recovered from covid" ended it
	}
	neg := c.neg || c.usedTo || c.past && !c.perfect && !c.progressive
	k, _ := c.object(np, ontology.Condition, 2)
	if k == "" {
		return false
	}
	tmpl := pick(neg, "{S} suffers from {O}", "{S} no longer suffers from {O}")
	if c.verb == "recover" {
		tmpl = "{S} is recovering from {O}"
	}
	c.emit(fx{pred: "HAS_CONDITION", obj: k, neg: neg, tmpl: tmpl, noDate: true})
	return true
}

// injuryWords describe an injury before the body part ("a torn ACL", "a
// broken wrist").
var injuryWords = wordSet(`torn,broken,fractured,sprained,pulled,dislocated,ruptured,slipped,herniated,bruised,cracked`)

// dietAdjectives are the diets said of a person ("I'm vegan"); the others
// are practices one does ("I do keto").
var dietAdjectives = wordSet(`vegetarian,vegan,pescatarian,pescetarian,flexitarian,gluten-free,gluten free,dairy-free,
dairy free,lactose-free,halal,kosher,raw vegan,plant-based,plant based,carnivore,no dietary restrictions`)
