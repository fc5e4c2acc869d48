package offline

import "github.com/graphmem/graphmem/ontology"

// Habits one keeps or gives up that are said without an object: "I smoke
// about ten a day", "I don't vape", and their end counted from the last
// time: "It's been 100 days since my last cigarette".

// objectlessHabits are the verbs of a habit said without an object.
var objectlessHabits = wordSet(`smoke,vape`)

// habitNouns name, by its verb, the habit whose last instance is counted
// from ("since my last cigarette"). Grows by a noun.
var habitNouns = map[string]string{"cigarette": "smoke", "cig": "smoke", "fag": "smoke", "smoke": "smoke",
	"vape": "vape", "drink": "drink", "drop": "drink", "alcohol": "drink", "booze": "drink", "bet": "gamble"}

// untouched: "I haven't touched a cigarette since March", "Haven't touched
// a drop in months": not having taken the habit's thing for a while says
// the habit stopped. Only the perfect says so ("I didn't touch a drink at
// the wedding" is one evening).
func (r *hobbyRules) untouched(c *clause) {
	if !c.neg || !c.perfect || c.modal != "" || c.would || c.future {
		return
	}
	np := takeNP(c.toks, c.verbAt+1)
	if verb := habitNouns[np.head()]; verb != "" {
		r.emitHabit(c, verb, true, true)
	}
}

// packedIn: "I've packed in football", "packed football in", "packed up
// smoking": British for giving something up.
func (r *hobbyRules) packedIn(c *clause) {
	if c.neg || c.future || c.modal != "" || c.would || !(c.past || c.perfect) {
		return
	}
	i := c.verbAt + 1
	if alt("in|up", c.at(i)) {
		i++
	}
	w := c.at(i)
	if _, f, ok := verbOf(w); ok && f == formIng {
		r.stopActivity(c, c.gerundPhrase(w, i+1))
		return
	}
	np := takeNP(c.toks, i)
	if i == c.verbAt+1 && !alt("in|up", c.at(np.next)) {
		return // "I packed my bags": nothing was given up
	}
	r.givenUp(c, np, "gave up")
}

// ruleHabit: "I smoke about ten a day", "I still vape", "I don't smoke
// anymore", "I used to smoke".
func (r *hobbyRules) ruleHabit(c *clause) {
	if !objectlessHabits[c.verb] || c.modal != "" || c.would || c.future || c.progressive || c.past && !c.usedTo {
		return // "I smoked a cigar at the wedding" is an occasion, not a habit
	}
	r.emitHabit(c, c.verb, c.neg || c.usedTo, c.cessation || c.usedTo)
}

// lastTimeFrame: "It's been 100 days since my last cigarette", "Three
// months since my last drink!": counting from the last time says the habit
// stopped then.
func (r *hobbyRules) lastTimeFrame(c *clause) bool {
	t := c.toks
	for i := 0; i+3 < len(t); i++ {
		if t[i].w != "since" || !alt("my|our", t[i+1].w) || t[i+2].w != "last" {
			continue
		}
		if verb := habitNouns[t[i+3].w]; verb != "" {
			c.subj = c.said.speaker
			r.emitHabit(c, verb, true, true)
			return true
		}
	}
	return false
}

// emitHabit emits the habit of a verb (smoking for "smoke") kept, or not
// kept (neg): given up when ended ("no longer smokes"), else simply absent
// ("does not smoke").
func (r *hobbyRules) emitHabit(c *clause, verb string, neg, ended bool) {
	k := c.said.out.named(gerund(verb), ontology.Activity, 2)
	tmpl := "{S} " + verb + "s{D}"
	switch {
	case neg && ended:
		tmpl = "{S} no longer " + verb + "s{since D}" // "no longer smokes (since March 2024)"
	case neg:
		tmpl = "{S} does not " + verb
	}
	c.emit(fx{pred: "PRACTICES", obj: k, neg: neg, tmpl: tmpl})
}
