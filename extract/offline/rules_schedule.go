package offline

import (
	"strings"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// Rules for schedules and budgets: "our team meeting is on Mondays", "the
// meeting moved to Thursdays", "my budget for the trip is 2000 euros".

// ruleReschedule: "we rescheduled the standup to Tuesdays".
func (c *cl) ruleReschedule() {
	np := takeNP(c.toks, c.i+1)
	if !np.empty() && occasionNouns[np.head()] && c.at(np.next) == "to" {
		c.schedule(np, np.next+1, true)
	}
}

// ruleBudgetChange: "I raised my budget to 3000 euros".
func (c *cl) ruleBudgetChange() {
	owner, i := c.possessor(c.i + 1)
	if owner == "" {
		return
	}
	qual, j := c.budgetSlot(i)
	if j < 0 || c.at(j) != "to" {
		return
	}
	if amt, _ := readAmount(c.toks, j+1); amt != "" {
		c.budget(owner, qual, amt, true)
	}
}

// budgetSlot reads "trip budget", "budget for the trip", "budget" at i and
// returns the qualifier and the index after; -1 when there is no budget.
func (c *cl) budgetSlot(i int) (string, int) {
	t := c.toks
	start := i
	for i < len(t) && c.at(i) != "budget" && i-start < 3 && t[i].kind == nlp.Word {
		i++
	}
	if c.at(i) != "budget" {
		return "", -1
	}
	qual := nlp.Singular(words(t[start:i]))
	i++
	if alt("for|on", c.at(i)) {
		q := takeNP(t, i+1)
		if !q.empty() {
			qual = q.head()
			if len(q.toks) > 1 && !q.hasName {
				qual = nlp.NormalizeName(q.lower())
			}
			i = q.next
		}
	}
	return qual, i
}

// budget emits HAS_BUDGET.
func (c *cl) budget(owner, qual, amount string, now bool) {
	tmpl := "{S's} budget is {O}"
	if qual != "" {
		tmpl = "{S's} budget for the {Q} is {O}"
	}
	if now || c.now {
		tmpl = strings.Replace(tmpl, " is {O}", " is now {O}", 1)
	}
	c.emit(fx{subj: owner, pred: "HAS_BUDGET", obj: c.value(amount), qual: qual, tmpl: tmpl, noDate: true})
}

// budgetFrame: "my budget for the trip is 2000 euros", "our trip budget is
// now 3000 euros", "the budget for the trip is 500 dollars".
func (c *cl) budgetFrame() bool {
	owner, i := c.possessor(0)
	if owner == "" && c.at(0) == "the" {
		owner, i = c.e.speaker, 1
	}
	if owner == "" {
		return false
	}
	qual, j := c.budgetSlot(i)
	if j < 0 {
		return false
	}
	n, ok, neg, now := c.copulaAt(j)
	if !ok && alt("went|goes|rose|increased|decreased|dropped|changed|grew|fell|moved|is", c.at(j)) {
		// "my trip budget went up to 4000 dollars"
		n, ok, now = j+1, true, true
		for alt("up|down|to|now|from", c.at(n)) {
			n++
		}
	}
	if !ok || neg {
		return false
	}
	amt, _ := readAmount(c.toks, n)
	if amt == "" {
		return false
	}
	c.subj = owner
	c.budget(owner, qual, amt, now)
	return true
}

// readWhen reads a schedule slot at i: "on Mondays", "every Monday at
// 10am", "to Thursdays", "on 8 May".
func (c *cl) readWhen(i int) (string, string, int) {
	t := c.toks
	from := ""
	for alt("on|every|each|to|for|at|now|usually|always|still", c.at(i)) && !(c.at(i) == "at" && i+1 < len(t) && t[i+1].kind == nlp.Number) {
		i++
	}
	var days []string
	every := i > 0 && alt("every|each", c.at(i-1))
	for i < len(t) {
		if d, ok := nlp.ParseWeekday(t[i].w); ok {
			name := d.String()
			if every || strings.HasSuffix(t[i].w, "s") {
				name += "s"
			}
			days = append(days, name)
			i++
			if alt("and|&|or|,", c.at(i)) {
				i++
				continue
			}
			break
		}
		if t[i].w == dateTok && t[i].date.Granularity == nlp.GranularityDay {
			days = append(days, t[i].date.Label)
			i++
		}
		break
	}
	if len(days) == 0 {
		return "", "", i
	}
	when := strings.Join(days, " and ")
	if c.at(i) == "at" && i+1 < len(t) && (t[i+1].kind == nlp.Number || alt("noon|midnight", c.at(i+1))) {
		tm := t[i+1].orig
		i += 2
		if alt("am|pm|a.m|p.m", c.at(i)) {
			tm += " " + t[i].orig
			i++
		}
		when += " at " + tm
	}
	if c.at(i) == "from" || c.at(i) == "instead" && c.at(i+1) == "of" {
		j := i + 1
		if c.at(i) == "instead" {
			j++
		}
		if d, ok := nlp.ParseWeekday(c.at(j)); ok {
			from = d.String()
			if strings.HasSuffix(c.at(j), "s") {
				from += "s"
			}
		}
	}
	return when, from, i
}

// schedule emits SCHEDULED_ON for an occasion phrase and the slot at i.
func (c *cl) schedule(np nounPhrase, i int, moved bool) bool {
	when, from, _ := c.readWhen(i)
	if when == "" {
		return false
	}
	owner := c.e.speaker
	if c.subj != "" && c.subj != c.e.speaker && (np.det == "his" || np.det == "her" || np.det == "their") {
		owner = c.subj
	}
	name := strings.TrimSpace(np.lower())
	if np.hasName {
		name = np.surface()
	}
	key := c.e.x.b.owned(owner, name, ontology.Occasion, 2)
	c.e.x.b.mention(c.e.ev.ID, key)
	tmpl := "{S} is on {O}"
	switch {
	case from != "":
		tmpl = "{S} is now on {O} (moved from " + from + ")"
	case moved || c.now:
		tmpl = "{S} is now on {O}"
	}
	c.emit(fx{subj: key, pred: "SCHEDULED_ON", obj: c.value(when), tmpl: tmpl, noDate: true})
	return true
}

// scheduleFrame: "our team meeting is on Mondays", "the team meeting moved
// to Thursdays", "my yoga class was rescheduled to Friday".
func (c *cl) scheduleFrame() bool {
	t := c.toks
	start := 0
	if c.at(0) == "the" && c.at(1) == "user" && c.at(2) == "'s" {
		start = 3
	}
	np := takeNP(t, start)
	if np.empty() || !occasionNouns[np.head()] || np.hasName && np.det == "" {
		return false
	}
	if np.det != "" && !alt("my|our|the", np.det) {
		return false
	}
	i := np.next
	moved := false
	for k := 0; k < 4 && i < len(t); k++ {
		switch {
		case alt("is|are|was|were|has|have|been|got|now|usually|always|still|just|officially", c.at(i)):
			i++
			continue
		case alt("moved|rescheduled|changed|shifted|switched|pushed|bumped", c.at(i)):
			moved = true
			i++
			continue
		case alt("happens|happen|falls|fall|takes|take|place|occurs|occur", c.at(i)):
			i++
			continue
		}
		break
	}
	if i == np.next {
		return false
	}
	c.subj = c.e.speaker
	return c.schedule(np, i, moved)
}
