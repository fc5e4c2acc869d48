package offline

import (
	"strings"

	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/ontology"
)

// scheduleRules recognise when recurring occasions happen and when they move
// ("our team meeting is on Mondays", "the meeting moved to Thursdays", "we
// rescheduled the standup to Tuesdays").
type scheduleRules struct{}

// ruleReschedule: "we rescheduled the standup to Tuesdays".
func (r *scheduleRules) ruleReschedule(c *clause) {
	np := takeNP(c.toks, c.verbAt+1)
	if !np.empty() && isOccasion(np) && c.at(np.next) == "to" {
		r.schedule(c, np, np.next+1, true)
	}
}

// movedScan reads, in any clause of the speaker's and whoever the
// subject, "moved|pushed|bumped|shifted|rescheduled|postponed my|our|the
// OCCASION (back|forward) to WHEN": "My instructor moved my driving
// lessons to Wednesdays", "the garage moved the MOT to the 13th". Who
// moved it does not matter; the speaker's occasion has a new time. The
// clause's own rules run after it.
func (r *scheduleRules) movedScan(c *clause) {
	if c.said.speaker == "" || c.hedge {
		return
	}
	t := c.toks
	for v := 1; v+2 < len(t); v++ {
		lemma, form, ok := verbOf(t[v].w)
		if !ok || !scheduleMoveLemmas[lemma] || form != formPast && form != formPart {
			continue
		}
		if alt("will|'ll|would|might|could|should|if|not|n't|never", t[v-1].w) {
			return // a plan or a denial, not a new time
		}
		np := takeNP(t, v+1)
		if np.empty() || !isOccasion(np) || !alt("my|our|the", np.det) {
			continue
		}
		i := np.next
		if alt("back|forward|over|up", c.at(i)) {
			i++
		}
		if c.at(i) != "to" && !(c.at(i) == "for" && alt("reschedule|postpone", lemma)) { // "rescheduled my haircut for Saturday"
			continue
		}
		subj := c.subj
		c.subj = c.said.speaker
		r.schedule(c, np, i+1, true)
		c.subj = subj
		return
	}
}

// scheduleMoveLemmas are the verbs of moving an occasion to a new time.
var scheduleMoveLemmas = wordSet(`move,push,bump,shift,reschedule,postpone,switch,change`)

// scheduleFrame: "our team meeting is on Mondays", "the team meeting moved
// to Thursdays", "my yoga class was rescheduled to Friday".
func (r *scheduleRules) scheduleFrame(c *clause) bool {
	t := c.toks
	start := 0
	if c.at(0) == "the" && c.at(1) == "user" && c.at(2) == "'s" {
		start = 3
	}
	// "Got my driving test on the 19th", "I've got my MRI on Friday": an
	// occasion of the speaker's said with "have (got)" and its day.
	had := 0
	for had < 4 && alt("i|have|has|got|just|finally", c.at(had)) {
		had++
	}
	if had > 0 && alt("my|our", c.at(had)) && (c.at(had-1) == "got" || c.at(had-1) == "have") {
		start = had
	} else {
		had = 0
	}
	np := takeNP(t, start)
	if np.empty() || !isOccasion(np) || np.hasName && np.det == "" && !(len(np.toks) == 1 && np.toks[0].first) {
		return false
	}
	if np.det != "" && !alt("my|our|the", np.det) {
		return false
	}
	i := np.next
	if alt("to|with|at|in", c.at(i)) && i+1 < len(t) && (t[i+1].cap || alt("the|a|my|dr", t[i+1].w)) {
		// "my flight to Lima is on ...", "my appointment with Dr Shah is at 3"
		if pp := takeNP(t, i+1); !pp.empty() && pp.next > i+1 {
			i = pp.next
		}
	}
	if had > 0 {
		if !alt("on|for|at|this|next", c.at(i)) && c.at(i) != dateTok {
			return false
		}
		c.subj = c.said.speaker
		return r.schedule(c, np, i, false)
	}
	np0 := i
	moved := false
	for k := 0; k < 5 && i < len(t); k++ {
		switch {
		case alt("is|are|was|were|has|have|been|got|now|usually|always|still|just|officially|booked|scheduled|set|planned|fixed|arranged|confirmed|in", c.at(i)):
			i++
			continue
		case scheduleMoveVerbs[c.at(i)]:
			moved = true
			i++
			continue
		case scheduleHappenVerbs[c.at(i)]:
			i++
			continue
		}
		break
	}
	if i == np0 {
		return false
	}
	c.subj = c.said.speaker
	return r.schedule(c, np, i, moved)
}

// readWhen reads a schedule slot at i: "on Mondays", "every Monday at
// 10am", "to Thursdays", "on 8 May".
func (r *scheduleRules) readWhen(c *clause, i int) (string, string, int) {
	t := c.toks
	from := ""
	for alt("on|every|each|to|for|at|now|usually|always|still", c.at(i)) && !(c.at(i) == "at" && i+1 < len(t) && t[i+1].kind == nlp.Number) {
		i++
	}
	var days []string
	every := i > 0 && alt("every|each", c.at(i-1))
	for i < len(t) {
		if _, ok := nlp.ParseWeekday(t[i].w); ok && !every && i+1 < len(t) && t[i+1].w == dateTok &&
			t[i+1].date.Granularity == nlp.GranularityDay {
			i++ // "Tuesday 4th June": the date says the day
			continue
		}
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
		if t[i].w == dateTok && (t[i].date.Granularity == nlp.GranularityDay || t[i].date.Granularity == nlp.GranularityMonth) {
			days = append(days, t[i].date.Label) // "the 4th of May", "pushed back to next June"
			i++
		}
		break
	}
	if len(days) == 0 {
		if when, n := c.monthlyWeekday(i); when != "" {
			days, i = []string{when}, n
		}
	}
	if len(days) > 0 && dayParts[c.at(i)] {
		days[len(days)-1] += " " + c.toks[i].w // "Friday mornings"
		i++
	}
	if len(days) == 0 {
		if tm, n := c.clockTime(i); tm != "" {
			return tm, "", n // "pushed to 10 o'clock", "is at 9:15"
		}
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
func (r *scheduleRules) schedule(c *clause, np nounPhrase, i int, moved bool) bool {
	when, from, _ := r.readWhen(c, i)
	if when == "" {
		return false
	}
	owner := c.said.speaker
	if c.subj != "" && c.subj != c.said.speaker && (np.det == "his" || np.det == "her" || np.det == "their") {
		owner = c.subj
	}
	name := strings.TrimSpace(np.lower())
	if np.hasName {
		name = np.surface()
	}
	key := c.said.out.owned(owner, name, ontology.Occasion, 2)
	c.said.out.mention(c.said.event.ID, key)
	prep := "on "
	switch {
	case strings.HasPrefix(when, "every "):
		prep = ""
	case when[0] >= '0' && when[0] <= '9' || alt("noon|midday|midnight", when):
		prep = "at "
	case monthNames[strings.ToLower(strings.Fields(when)[0])]:
		prep = "in " // "June 2025"
	}
	tmpl := "{S} is " + prep + "{O}"
	switch {
	case from != "":
		tmpl = "{S} is now " + prep + "{O} (moved from " + from + ")"
	case moved || c.now:
		tmpl = "{S} is now " + prep + "{O}"
	}
	c.emit(fx{subj: key, pred: "SCHEDULED_ON", obj: c.value(when), tmpl: tmpl, noDate: true})
	return true
}

// monthNames start a date said to the month ("june 2025").
var monthNames = wordSet(`january,february,march,april,may,june,july,august,september,october,november,december`)
