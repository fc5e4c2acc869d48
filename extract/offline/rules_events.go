package offline

import (
	"strings"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// Rules about what people do: outings and events they attend, hobbies they
// start and stop, things they make, and the other verbs of doing (celebrate,
// turn, speak, volunteer, become, follow).

// goVerbs are activities said with "go" ("I go running", "went camping").
var goVerbs = wordSet(`running,jogging,swimming,hiking,camping,cycling,biking,skiing,snowboarding,surfing,
climbing,fishing,dancing,skating,sailing,kayaking,canoeing,bowling,shopping,walking,riding,diving,snorkeling,
rowing,hunting,birdwatching,backpacking,clubbing,boating,sledding,paddleboarding`)

// abstractObjects are things one "makes" that are not creations.
var abstractObjects = wordSet(`wish,decision,friend,difference,mistake,progress,change,plan,effort,point,sense,money,
time,memory,call,choice,mess,list,deal,move,impact,connection,step,way,promise,appointment,reservation,
booking,joke,comment,noise,peace,use,fun,sure,it,living,breakfast,lunch,dinner,bed,tea,coffee,room,space,
contact,friendship,arrangement,progress,improvement,amends,sacrifice,commitment,statement,speech,trip`)

// creations are verbs whose past tense with an object makes something.
var creations = wordSet(`paint,draw,make,cook,bake,write,knit,build,compose,create`)

// activityVerbs map hobby verbs to their activity name.
var activityVerbs = wordSet(`run,swim,paint,draw,cook,bake,hike,dance,sing,write,knit,garden,surf,ski,climb,
meditate,jog,cycle,bike,camp,fish,read`)

// practiceTemplate phrases a hobby so that the sentence names it.
func practiceTemplate(activity string, neg bool, c *cl) string {
	goes := goVerbs[firstWord(activity)]
	switch {
	case neg && c.usedTo:
		return "{S} used to practise {O}"
	case neg && goes:
		return "{S} no longer goes {O}"
	case neg:
		return "{S} no longer does {O}"
	case c.verb == "start" || c.verb == "begin" || c.verb == "take":
		return "{S} started {O}{D}"
	case c.past && !c.perfect && goes:
		return "{S} went {O}{D}"
	case c.past && !c.perfect:
		return "{S} did some {O}{D}"
	case goes:
		return "{S} goes {O}"
	}
	return "{S} practices {O}"
}

// practice emits PRACTICES for an activity phrase.
func (c *cl) practice(np nounPhrase, neg bool) {
	if !usableObject(np) {
		return
	}
	k, _ := c.object(np, ontology.Activity, 2)
	if k == "" {
		return
	}
	c.emit(fx{pred: "PRACTICES", obj: k, neg: neg, tmpl: practiceTemplate(np.lower(), neg, c)})
}

// stopActivity records the end of a habit: "stopped running", "quit
// smoking", "stopped eating meat" (a cessation of liking meat).
func (c *cl) stopActivity(np nounPhrase) {
	first := np.toks[0].w
	lemma, _, _ := verbOf(first)
	if (lemma == "eat" || lemma == "drink") && len(np.toks) > 1 {
		obj := nounPhrase{toks: np.toks[1:]}
		if k, _ := c.object(obj, ontology.Food, 2); k != "" {
			c.emit(fx{pred: "LIKES", obj: k, neg: true, strength: 0.5, tmpl: "{S} stopped " + first + " {O}{D}"})
		}
		return
	}
	if lemma == "learn" && len(np.toks) > 1 {
		obj := nounPhrase{toks: np.toks[1:], hasName: np.hasName}
		typ := ontology.Activity
		if languages[obj.key()] {
			typ = ontology.Language
		}
		if k, _ := c.object(obj, typ, 2); k != "" {
			c.emit(fx{pred: "LEARNING", obj: k, neg: true, tmpl: "{S} stopped learning {O}{D}"})
		}
		return
	}
	if lemma == "work" && len(np.toks) > 2 && alt("at|for", np.toks[1].w) {
		// "I stopped working at Target"
		c.employer(nounPhrase{toks: np.toks[2:], hasName: np.hasName}, true, "stopped working at")
		return
	}
	if lemma == "work" || lemma == "live" {
		return
	}
	k, _ := c.object(np, ontology.Activity, 2)
	if k != "" {
		c.emit(fx{pred: "PRACTICES", obj: k, neg: true, tmpl: "{S} stopped {O}{D}"})
	}
}

// ruleGo: "I went to a support group yesterday", "we went camping last
// week", "I go to the gym every morning", "we're going to Rome next month".
func (c *cl) ruleGo() {
	t := c.toks
	i := c.i + 1
	if c.neg || c.modal != "" || c.would {
		return
	}
	if c.at(i) == "back" {
		i++
	}
	plan := c.future || c.progressive && (c.date == nil || c.date.Until.After(c.e.ev.OccurredAt))
	// "I went vegan last year"
	if d := c.at(i); diets[d] && !plan && (c.past || c.perfect) {
		c.diet(d, false, false)
		return
	}
	// "go camping", "went swimming with the kids"
	if w := c.at(i); goVerbs[w] || strings.HasSuffix(w, "ing") && activities[w] {
		np := c.gerundPhrase(w, i+1)
		if plan {
			c.planTo("go", np, ontology.Activity)
			return
		}
		c.practice(np, false)
		return
	}
	if c.at(i) == "on" && alt("a|an", c.at(i+1)) {
		np := takeNP(t, i+1)
		if alt("trip|vacation|holiday|tour|cruise|journey", np.head()) && alt("to|in", c.at(np.next)) {
			i = np.next
		} else if !np.empty() {
			c.event(np, plan, "went on")
			return
		}
	}
	if !alt("to|into", c.at(i)) {
		return
	}
	np := takeNP(t, i+1)
	if !usableObject(np) {
		return
	}
	if plan {
		if !occasionNouns[np.head()] && !isPlaceLike(np) && !placeNouns[np.head()] {
			return
		}
		c.verb = "go"
		c.planTo("go to", np, "")
		return
	}
	c.event(np, false, "went to")
}

// event emits ATTENDED for an occasion or VISITED for a place.
func (c *cl) event(np nounPhrase, plan bool, verb string) {
	head := np.head()
	present := !c.past && !c.perfect
	if present && verb == "went to" {
		verb = "goes to"
	}
	if verb == "went on" && present {
		verb = "goes on"
	}
	switch {
	case occasionNouns[head] || occasionNouns[np.lower()]:
		k, art := c.object(np, ontology.Occasion, 2)
		c.emit(fx{pred: "ATTENDED", obj: k, art: art, tmpl: "{S} " + verb + " {aO}{D}"})
	case isPlaceLike(np) || placeNouns[head]:
		k, art := c.object(np, ontology.Place, 2)
		if np.det == "the" && !np.hasName {
			art = "the"
		}
		c.emit(fx{pred: "VISITED", obj: k, art: art, tmpl: "{S} " + verb + " {aO}{D}"})
	}
}

// ruleTake: "I took the kids to the museum", "I took up pottery", "I'm
// taking Spanish lessons", "we took a trip to Peru".
func (c *cl) ruleTake() {
	t := c.toks
	i := c.i + 1
	if c.neg || c.modal != "" || c.would || c.future {
		return
	}
	if c.at(i) == "up" {
		c.practice(takeNP(t, i+1), false)
		return
	}
	np := takeNP(t, i)
	if np.empty() {
		return
	}
	if alt("class|classes|lesson|lessons|course|courses", np.toks[len(np.toks)-1].w) && len(np.toks) > 1 {
		subject := nounPhrase{toks: np.toks[:len(np.toks)-1], hasName: np.hasName}
		c.learning(subject)
		return
	}
	if alt("trip|vacation|holiday|tour|cruise", np.head()) && alt("to|in", c.at(np.next)) {
		dest := takeNP(t, np.next+1)
		if isPlaceLike(dest) {
			k, _ := c.object(dest, ontology.Place, 2)
			c.emit(fx{pred: "VISITED", obj: k, tmpl: "{S} took a trip to {O}{D}"})
		}
		return
	}
	if c.at(np.next) == "to" && (c.past || c.perfect) {
		c.event(takeNP(t, np.next+1), false, "went to")
	}
}

// ruleAttend: "I attended a conference", "I attend Stanford".
func (c *cl) ruleAttend() {
	if c.neg || c.modal != "" || c.would {
		return
	}
	np := takeNP(c.toks, c.i+1)
	if !usableObject(np) {
		return
	}
	if np.hasName && alt("university|college|school|academy|institute", np.head()) || knownOrgs[np.key()] && !c.past {
		k, _ := c.object(np, ontology.Organization, 2)
		c.emit(fx{pred: "STUDIES_AT", obj: k, neg: c.past && !c.perfect, tmpl: pick(c.past && !c.perfect, "{S} studies at {O}", "{S} attended {O}")})
		return
	}
	if c.future || c.progressive && c.date != nil && c.date.Until.After(c.e.ev.OccurredAt) {
		c.planTo("attend", np, ontology.Occasion)
		return
	}
	k, art := c.object(np, ontology.Occasion, 2)
	c.emit(fx{pred: "ATTENDED", obj: k, art: art, tmpl: pick(c.past || c.perfect, "{S} attends {aO}{D}", "{S} attended {aO}{D}")})
}

// ruleStart: "I started running", "I started working at Globex", "I began
// learning Japanese", "I started a blog".
func (c *cl) ruleStart() {
	t := c.toks
	i := c.i + 1
	if c.neg || c.modal != "" && !c.hedge || c.would {
		return
	}
	if c.future || c.hedge && c.modal != "" {
		saved := c.verb
		c.verb = "plan"
		c.planFrom(c.i)
		c.verb = saved
		return
	}
	w := c.at(i)
	if w == "to" {
		if lemma, _, ok := verbOf(c.at(i + 1)); ok {
			w, i = gerund(lemma), i+1
		}
	}
	lemma, f, isVerb := verbOf(w)
	switch {
	case isVerb && f == formIng && lemma == "work" && alt("at|for", c.at(i+1)):
		c.employer(takeNP(t, i+2), false, "started")
		c.roleAfter(i + 2)
	case isVerb && f == formIng && lemma == "learn":
		items, _ := takeList(t, i+1)
		for _, np := range items {
			c.learning(np)
		}
	case isVerb && f == formIng && (activities[w] || goVerbs[w] || activityVerbs[lemma] || lemma == "play" || lemma == "volunteer"):
		c.practice(c.gerundPhrase(w, i+1), false)
	case alt("a|my", w) && alt("job|position|role", takeNP(t, i).head()) || w == "at":
		j := i
		for j < len(t) && c.at(j) != "at" {
			j++
		}
		if j < len(t) {
			org := takeNP(t, j+1)
			c.employer(org, false, "started")
			c.roleAfter(org.next)
		}
	default:
		np := takeNP(t, i)
		if !usableObject(np) {
			return
		}
		if typ, known := classify(np); typ == ontology.Activity && (known && activities[np.key()] || np.next >= len(t) || c.at(np.next) == dateTok) {
			c.practice(np, false)
		} else if alt("blog|business|company|podcast|channel|band|club|garden|project|shop|startup|nonprofit|charity", np.head()) {
			k, art := c.object(np, ontology.Concept, 1)
			c.emit(fx{pred: "CREATED", obj: k, art: art, tmpl: "{S} started {aO}{D}"})
		}
	}
}

// ruleStop: "I stopped running", "I stopped eating meat".
func (c *cl) ruleStop() {
	if c.neg || c.future || c.modal != "" || c.would {
		return
	}
	w := c.at(c.i + 1)
	if _, f, ok := verbOf(w); ok && f == formIng {
		c.stopActivity(c.gerundPhrase(w, c.i+2))
	}
}

// ruleGive: "I gave up Spanish", "I've given up coffee", "I gave up on
// running".
func (c *cl) ruleGive() {
	i := c.i + 1
	if c.at(i) != "up" || c.neg || c.future || c.modal != "" || c.would {
		return
	}
	i++
	if c.at(i) == "on" {
		i++
	}
	w := c.at(i)
	if _, f, ok := verbOf(w); ok && f == formIng {
		c.stopActivity(c.gerundPhrase(w, i+1))
		return
	}
	np := takeNP(c.toks, i)
	if !usableObject(np) {
		return
	}
	typ, _ := classify(np)
	switch {
	case languages[np.key()] || typ == ontology.Language:
		k, _ := c.object(np, ontology.Language, 2)
		c.emit(fx{pred: "LEARNING", obj: k, neg: true, tmpl: "{S} gave up {O}{D}"})
	case typ == ontology.Food:
		k, _ := c.object(np, ontology.Food, 2)
		c.emit(fx{pred: "LIKES", obj: k, neg: true, strength: 0.6, tmpl: "{S} gave up {O}{D}"})
	case typ == ontology.Activity:
		k, _ := c.object(np, ontology.Activity, 2)
		c.emit(fx{pred: "PRACTICES", obj: k, neg: true, tmpl: "{S} gave up {O}{D}"})
	}
}

// ruleActivity: hobby verbs. Present tense is a habit ("I paint", "I run
// every morning"); past tense with an object is a creation ("I painted
// that lake sunrise last year") or a race ("I ran a charity race").
func (c *cl) ruleActivity() {
	t := c.toks
	if c.neg && !c.cessation && !c.usedTo || c.modal != "" || c.would {
		return
	}
	if c.future {
		c.planFrom(c.i)
		return
	}
	i := c.i + 1
	if alt("into|out|over|across|away|off|by|up|down|through|late|low|short|behind|errands|late", c.at(i)) {
		return // "I ran into a group", "we ran out of time"
	}
	np := takeNP(t, i)
	hasObj := usableObject(np) && !(np.det == "" && !np.hasName && len(np.toks) == 1 && alt("lot|bit|more|less|daily|weekly|regularly|often|together|alone|outside|home", np.toks[0].w))
	if !hasObj && creations[c.verb] && (np.det == "this" || np.det == "that" || np.det == "these" || np.det == "those") &&
		!np.empty() && !pronounObjects[np.toks[0].w] {
		hasObj = true // "I painted that lake sunrise": the thing shown is the creation
		np.det = "the"
	}
	if !hasObj && !activityVerbs[c.verb] {
		return // "I made it": nothing to name
	}
	if c.past && !c.perfect && !c.usedTo && hasObj {
		switch {
		case creations[c.verb] && abstractObjects[np.head()]:
		case creations[c.verb]:
			k, art := c.object(np, ontology.Artwork, 1)
			if k == "" {
				k, art = c.e.x.b.named(np.surface(), ontology.Artwork, 1), "the"
			}
			if np.det == "the" || np.det == "that" || np.det == "this" {
				art = "a"
				if strings.ContainsRune("aeiou", rune(c.e.x.b.ents[k].name[0])) {
					art = "an"
				}
			}
			c.emit(fx{pred: "CREATED", obj: k, art: art, tmpl: "{S} " + pastOf(c.verb) + " {aO}{D}"})
		case c.verb == "run" && alt("race|marathon|5k|10k|half-marathon|triathlon|relay", np.head()):
			k, art := c.object(np, ontology.Occasion, 2)
			c.emit(fx{pred: "ATTENDED", obj: k, art: art, tmpl: "{S} ran {aO}{D}"})
		case c.verb == "read":
			k, art := c.object(np, ontology.Artwork, 1)
			c.emit(fx{pred: "READ", obj: k, art: art, tmpl: "{S} read {aO}{D}"})
		}
		return
	}
	if c.verb == "read" && hasObj && (c.progressive || np.quoted) {
		k, art := c.object(np, ontology.Artwork, 1)
		c.emit(fx{pred: "READ", obj: k, art: art, tmpl: pick(c.progressive, "{S} read {aO}{D}", "{S} is reading {aO}")})
		return
	}
	if hasObj && creations[c.verb] && !np.hasName && !(c.verb == "cook" || c.verb == "bake" || c.verb == "write" || c.verb == "paint" || c.verb == "draw") {
		return
	}
	activity := nounPhrase{toks: []tok{{w: gerund(c.verb), orig: gerund(c.verb)}}}
	if hasObj && (c.verb == "paint" || c.verb == "draw" || c.verb == "write" || c.verb == "cook" || c.verb == "bake") && !np.hasName && len(np.toks) <= 2 && np.det == "" {
		activity = c.gerundPhrase(gerund(c.verb), i)
	}
	neg := c.neg || c.usedTo
	c.practice(activity, neg)
}

func pastOf(lemma string) string {
	if p, ok := irregularPast[lemma]; ok {
		return p
	}
	return regularPast(lemma)
}

// irregularPast lists the past tenses pastOf cannot derive.
var irregularPast = map[string]string{
	"paint": "painted", "draw": "drew", "make": "made", "cook": "cooked", "bake": "baked", "write": "wrote",
	"knit": "knitted", "build": "built", "compose": "composed", "create": "created", "read": "read",
}

// rulePlay: "I play the violin", "I play tennis every Sunday".
func (c *cl) rulePlay() {
	if c.modal != "" || c.would || c.at(c.i+1) == "with" {
		return
	}
	if c.future {
		c.planFrom(c.i)
		return
	}
	np := takeNP(c.toks, c.i+1)
	if !usableObject(np) {
		return
	}
	key := np.key()
	if !instruments[key] && !activities[key] && !strings.HasSuffix(key, "games") && !strings.HasSuffix(key, "game") && !strings.HasSuffix(key, "ball") {
		return
	}
	k, _ := c.object(np, ontology.Activity, 2)
	neg := c.neg || c.usedTo
	tmpl := "{S} plays {O}"
	switch {
	case c.usedTo:
		tmpl = "{S} used to play {O}"
	case neg:
		tmpl = "{S} no longer plays {O}"
	case c.past && !c.perfect:
		tmpl = "{S} played {O}{D}"
	}
	c.emit(fx{pred: "PRACTICES", obj: k, neg: neg, tmpl: tmpl})
}

// rulePractice: "I do yoga", "I practice karate".
func (c *cl) rulePractice() {
	if c.modal != "" || c.would || c.future || c.past && !c.perfect && !c.usedTo || c.neg && !c.cessation {
		return // "I haven't done pottery yet" says nothing lasting
	}
	np := takeNP(c.toks, c.i+1)
	if !usableObject(np) {
		return
	}
	if typ, _ := classify(np); typ != ontology.Activity && !activities[np.key()] {
		return
	}
	c.practice(np, c.neg || c.usedTo)
}

// ruleWatch: "I watched Inception last night".
func (c *cl) ruleWatch() {
	if c.neg || c.modal != "" || c.would || c.future || !c.past && !c.perfect && !c.progressive {
		return
	}
	np := takeNP(c.toks, c.i+1)
	if !usableObject(np) || !np.hasName && !np.quoted && !alt("movie|film|show|series|documentary|game|match|play|musical", np.head()) {
		return
	}
	k, art := c.object(np, ontology.Artwork, 1)
	c.emit(fx{pred: "WATCHED", obj: k, art: art, tmpl: "{S} watched {aO}{D}"})
}

// ruleSign: "I signed up for a pottery class".
func (c *cl) ruleSign() {
	if c.at(c.i+1) != "up" || c.at(c.i+2) != "for" || c.neg || c.modal != "" || c.would {
		return
	}
	np := takeNP(c.toks, c.i+3)
	if k, art := c.object(np, ontology.Occasion, 1); k != "" {
		c.emit(fx{pred: "MEMBER_OF", obj: k, art: art, tmpl: "{S} signed up for {aO}{D}"})
	}
}

// ruleCelebrate: "we celebrated my daughter's birthday last night".
func (c *cl) ruleCelebrate() {
	if c.neg || c.future || c.modal != "" || c.would {
		return
	}
	owner, i := c.possessor(c.i + 1)
	if owner != "" && c.at(i) == "birthday" && c.date != nil && c.date.Granularity == nlp.GranularityDay {
		c.emit(fx{subj: owner, pred: "BORN_ON", obj: c.value(birthdayText(c.date)), conf: 0.6,
			tmpl: "{S's} birthday is on {O} (celebrated{D})", noDate: true})
	}
}

// ruleTurn: "I just turned 30".
func (c *cl) ruleTurn() {
	if c.neg || c.modal != "" || c.would || c.future || !c.past && !c.perfect {
		return
	}
	c.ageAt(c.i + 1)
}

// ruleSpeak: "I speak Spanish and French".
func (c *cl) ruleSpeak() {
	if c.neg || c.modal != "" || c.would || c.future || c.past && !c.perfect {
		return
	}
	items, _ := takeList(c.toks, c.i+1)
	for _, np := range items {
		if !languages[np.key()] {
			continue
		}
		k, _ := c.object(np, ontology.Language, 2)
		c.emit(fx{pred: ontology.Fallback, raw: "speaks", obj: k, tmpl: "{S} speaks {O}", noDate: true})
	}
}

// ruleVolunteer: "I volunteer at the animal shelter".
func (c *cl) ruleVolunteer() {
	if c.neg || c.modal != "" || c.would || c.future || !alt("at|for|with", c.at(c.i+1)) {
		return
	}
	np := takeNP(c.toks, c.i+2)
	if k, art := c.object(np, ontology.Organization, 1); k != "" {
		if np.det == "the" && !np.hasName {
			art = "the"
		}
		c.emit(fx{pred: ontology.Fallback, raw: "volunteers at", obj: k, art: art, tmpl: pick(c.past && !c.perfect, "{S} volunteers at {aO}", "{S} volunteered at {aO}{D}")})
	}
}

// ruleBecome: "I became a nurse", "I became vegetarian" read as "I am ...".
func (c *cl) ruleBecome() {
	if c.modal != "" || c.would || c.future {
		return
	}
	c.i++
	c.past = false
	c.be = true
	c.verb = ""
	c.copula()
}

// ruleFollow: "I follow a vegan diet".
func (c *cl) ruleFollow() {
	np := takeNP(c.toks, c.i+1)
	if np.head() == "diet" && len(np.toks) > 1 {
		c.diet(np.lower(), c.neg || c.usedTo, c.past && !c.perfect)
	}
}
