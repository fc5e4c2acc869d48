package offline

import (
	"slices"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// Workplaces said by their kind, not their name. People rarely name the
// business they work for in a chat ("I started at a bakery in town", "now
// I run a bike repair shop", "I qualified as a nurse"); the employer rule
// wants a proper name to avoid reading "I work with kids" as an employer,
// so an unnamed workplace counts only when its head noun is a kind of
// workplace (workplaceKinds) and a work frame introduces it.

// isWorkplaceKind reports whether an unnamed phrase names a kind of
// workplace: "a bakery", "the children's hospital", "a bike repair shop".
func isWorkplaceKind(np nounPhrase) bool {
	if np.empty() || np.hasName || len(np.toks) > 4 {
		return false
	}
	return workplaceKinds[np.head()] || workplaceKinds[lastTwo(np.lower())]
}

// calledName returns the name an unnamed phrase is introduced with ("a
// startup called Fernway", "a charity named Shelterbox"): the name, when
// one follows "called" or "named"; else the phrase as it is.
func (c *clause) calledName(np nounPhrase) nounPhrase {
	if np.hasName || np.empty() || !alt("called|named", c.at(np.next)) {
		return np
	}
	if name := takeNP(c.toks, np.next+1); name.hasName && name.det == "" {
		return name
	}
	return np
}

// placedWorkplace extends an unnamed workplace with the named place that
// follows it ("a small practice in Shrewsbury", "a bakery in Leeds"): the
// place is what tells one bakery from another, and what a question about
// where the user works asks for. Other phrases are returned as they are.
func (c *clause) placedWorkplace(np nounPhrase) nounPhrase {
	if !isWorkplaceKind(np) || c.at(np.next) != "in" {
		return np
	}
	place := takeNP(c.toks, np.next+1)
	if !isPlaceLike(place) || !place.hasName {
		return np
	}
	out := np
	out.toks = append(slices.Clone(np.toks), c.toks[np.next:place.next]...)
	out.hasName, out.next = false, place.next
	return out
}

// startedJob reads "started a (new) job at|with X (as Y)", "began a new
// role as Y", "started as a nurse at St Mary's": the same as "got a job". It reports whether it read the
// clause, so "start" keeps its other readings.
func (r *workRules) startedJob(c *clause) bool {
	if c.neg || c.future || c.would || c.modal != "" {
		return false
	}
	i := c.verbAt + 1
	if c.at(i) == "as" {
		// "Just started as junior sous chef at Brindle & Vine": a role in
		// the occupations lexicon, then where
		title := takeNP(c.toks, i+1)
		if t := title.head(); !occupations[t] && !occupations[title.lower()] && !occupations[lastTwo(title.lower())] {
			return false
		}
		r.role(c, title, false)
		r.gotJob(c, title.next)
		return true
	}
	if alt("a|an|my|the", c.at(i)) {
		i++
	}
	for jobModifiers[c.at(i)] {
		i++
	}
	if !alt("job|role|position|post", c.at(i)) {
		return false
	}
	r.gotJob(c, i+1)
	return true
}

// ruleQualify: "I qualified as a nurse in December" is a role the speaker
// now holds.
func (r *workRules) ruleQualify(c *clause) {
	if c.neg || c.future || c.would || c.modal != "" || c.at(c.verbAt+1) != "as" {
		return
	}
	r.explicitRole(c, takeNP(c.toks, c.verbAt+2), false)
}

// runsBusiness reads "I run a bike repair shop", "we run a small café":
// running a workplace is working there, not the hobby of running. It
// reports whether it read the clause.
func (r *workRules) runsBusiness(c *clause) bool {
	if c.modal != "" || c.would || c.future {
		return false
	}
	np := takeNP(c.toks, c.verbAt+1)
	if !isWorkplaceKind(np) && !isOrgLike(np) {
		return false
	}
	if c.neg && !c.cessation {
		return true // "I don't run a shop": no fact, and no hobby either
	}
	k, _ := c.object(np, ontology.Organization, 2)
	if k == "" {
		return true
	}
	neg := c.neg || c.usedTo || (c.past && !c.perfect && !c.now)
	art := ""
	if alt("a|an|the", np.det) {
		art = np.det
	}
	c.emit(fx{pred: "WORKS_AT", obj: k, neg: neg, art: art, tmpl: pick(neg, "{S} runs {aO}", "{S} no longer runs {aO}"), rank: 1})
	return true
}

// workplaceKinds are head nouns (or last two words) of places people work
// at, said without a name. Grows by a word.
var workplaceKinds = wordSet(`bakery,cafe,café,coffee shop,restaurant,pub,bar,hotel,hostel,shop,store,supermarket,
bookshop,bookstore,boutique,salon,barbershop,garage,workshop,factory,warehouse,plant,mill,brewery,distillery,vineyard,
winery,farm,nursery,school,academy,college,university,hospital,clinic,surgery,pharmacy,chemist,practice,care home,
hospice,charity,call centre,call center,startup,start-up,agency,firm,law firm,consultancy,studio,gallery,museum,
library,council,ministry,bank,insurer,newspaper,magazine,publisher,radio station,airline,airport,port,station,
kitchen,canteen,deli,butcher,florist,greengrocer,garden centre,garden center,gym,leisure centre,cinema,theatre,
theater,zoo,aquarium,kennel,kennels,cattery,vet,veterinary practice,daycare,creche,kindergarten,dealership,
laboratory,lab,observatory,refinery,mine,shipyard,dockyard,depot,courier,bistro,takeaway,food truck,stall,
business,company,franchise,guesthouse,b&b,bed and breakfast,market stall,cafe-bar,nail bar,tattoo parlour`)

// leftProfession: "I left teaching", "I quit nursing": the speaker no
// longer works as a teacher or a nurse (the policy closes a current
// "science teacher" by it: knowledge.KindOf).
func (r *workRules) leftProfession(c *clause, activity, how string) {
	role := professionGerunds[activity]
	k := c.said.out.named(role, ontology.Concept, 2)
	c.emit(fx{pred: "WORKS_AS", obj: k, neg: true, art: "a", tmpl: "{S} no longer works as {aO} (" + how + " " + activity + "{D})"})
}

// professionGerunds name a profession by its activity ("left teaching")
// and the role it makes ("teacher"). Grows by a pair.
var professionGerunds = map[string]string{
	"teaching": "teacher", "nursing": "nurse", "lecturing": "lecturer", "coaching": "coach", "accounting": "accountant",
	"banking": "banker", "farming": "farmer", "consulting": "consultant", "policing": "police officer",
	"journalism": "journalist", "engineering": "engineer", "law": "lawyer", "medicine": "doctor", "dentistry": "dentist",
	"plumbing": "plumber", "catering": "caterer", "hairdressing": "hairdresser", "tutoring": "tutor", "modelling": "model",
	"acting": "actor", "retail": "retail worker", "hospitality": "hospitality worker", "social work": "social worker",
}

// firstStintScan reads "I've just wrapped up my first week at Lumenfold",
// "my first day at Monzo went fine", "Week one at Quillmark Studio is in
// the books": a first day, week or shift at an organisation is a job
// begun there; "my shift at the Royal Albert pharmacy" is a job held
// there.
func (r *workRules) firstStintScan(c *clause) {
	t := c.toks
	if c.said.speaker == "" || c.hedge {
		return
	}
	const stints = "day|days|week|weeks|month|shift|fortnight"
	for i := 0; i+3 < len(t); i++ {
		at, how := 0, "started" // where the organisation starts
		switch {
		case alt("first|1st", t[i].w) && alt(stints, t[i+1].w) && alt("at|with", t[i+2].w):
			at = i + 3 // "(my) first week at Lumenfold"
		case alt(stints, t[i].w) && alt("one|1", t[i+1].w) && alt("at|with", t[i+2].w):
			at = i + 3 // "week one at Quillmark"
		case i > 0 && alt("my|our", t[i-1].w) && alt("shift|shifts|rota", t[i].w) && t[i+1].w == "at":
			at, how = i+2, "" // "my shift at the Royal Albert pharmacy": a shift worked there
		default:
			continue
		}
		if i > 0 && !alt("my|our|the|of|after|done|through", t[i-1].w) && t[i-1].kind != nlp.Punct {
			continue // "her first week at Monzo": someone else's
		}
		np := takeNP(t, at)
		if !isOrgLike(np) && !knownOrgs[np.key()] {
			return // "my first week at the gym", "my first day at school"
		}
		subj := c.subj
		c.subj = c.said.speaker
		r.employer(c, np, false, how)
		c.subj = subj
		return
	}
}

// asRole reads the lead of a clause before it is stripped (asRoleScan).
func (r *workRules) asRole(u *utterance, toks []tok) {
	if len(toks) > 0 && toks[0].w == "as" {
		c := &clause{said: u, toks: toks}
		c.scanMarkers()
		r.asRoleScan(c)
	}
}

// asRoleScan reads "As a backend dev, how do I...", "As a nurse, I see...":
// the speaker's own role, named before the clause it qualifies.
func (r *workRules) asRoleScan(c *clause) {
	t := c.toks
	if c.said.speaker == "" || c.hedge || len(t) < 5 || t[0].w != "as" || !alt("a|an", t[1].w) {
		return
	}
	np := takeNP(t, 1)
	if np.empty() || np.hasName || c.at(np.next) != "," {
		return
	}
	role := np.lower()
	if !occupations[np.head()] && !occupations[lastTwo(role)] {
		return // "As a kid, I...", "As a result, ..."
	}
	// The clause after the comma must be the speaker's ("As a nurse, I
	// ...", "As a dev, how do I ..."), not about someone else ("As a
	// teacher, my sister gets long holidays").
	rest := t[np.next+1:]
	if !slices.ContainsFunc(rest[:min(len(rest), 4)], func(x tok) bool { return x.w == "i" }) {
		return
	}
	subj := c.subj
	c.subj = c.said.speaker
	r.role(c, np, false)
	c.subj = subj
}
