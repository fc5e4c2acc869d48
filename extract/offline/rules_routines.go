package offline

import (
	"strings"

	"github.com/graphmem/graphmem/nlp"
)

// Routines: an activity the speaker does on a day or at a frequency, one
// current routine per activity ("I go to the gym on Mondays and
// Thursdays", "I swim three times a week", "I run every morning now",
// "Tuesday is my gym day"). The scan leaves the clause to its other rules
// (the activity is still practised); it only adds HAS_ROUTINE with the
// activity as qualifier.

// frequencyAt reads a frequency at i: "every Monday", "every morning", "on
// Mondays (and Thursdays)", "three times a week", "twice a month",
// "daily". It returns the phrase and the index after it.
func (c *clause) frequencyAt(i int) (string, int) {
	t := c.toks
	start := i
	switch {
	case alt("daily|weekly|nightly|fortnightly|monthly", c.at(i)):
		return c.at(i), i + 1
	case alt("every|each", c.at(i)):
		j := i + 1
		if alt("other|second|single", c.at(j)) {
			j++
		}
		if d, ok := nlp.ParseWeekday(c.at(j)); ok {
			s := "every " + strings.Join(strings.Fields(words(t[i+1:j])+" "+d.String()), " ")
			return strings.TrimSpace(s), j + 1
		}
		if alt("day|morning|evening|night|weekend|week|lunchtime|afternoon|month|weekday", c.at(j)) {
			return words(t[start : j+1]), j + 1
		}
		if t[min(j, len(t)-1)].kind == nlp.Word && j < len(t) && c.at(j) == dateTok {
			return "", i
		}
	case alt("at|on", c.at(i)) && c.at(i+1) == "weekends":
		return "at weekends", i + 2
	case c.at(i) == "on":
		var days []string
		j := i + 1
		for j < len(t) {
			d, ok := nlp.ParseWeekday(c.at(j))
			if !ok || !strings.HasSuffix(c.at(j), "s") {
				break
			}
			days = append(days, d.String()+"s")
			j++
			if alt("and|&|,", c.at(j)) {
				j++
			}
		}
		if len(days) > 0 {
			return strings.Join(days, " and "), j
		}
		// "on Monday evenings": a day's part, every week
		if d, ok := nlp.ParseWeekday(c.at(i + 1)); ok && alt("mornings|evenings|afternoons|nights|lunchtimes", c.at(i+2)) {
			return d.String() + " " + c.at(i+2), i + 3
		}
		// "(usually) on a Saturday": any Saturday
		if d, ok := nlp.ParseWeekday(c.at(i + 2)); ok && c.at(i+1) == "a" {
			return d.String() + "s", i + 3
		}
	case alt("most|many", c.at(i)):
		// "most Sundays", "most weekends"
		if d, ok := nlp.ParseWeekday(c.at(i + 1)); ok && strings.HasSuffix(c.at(i+1), "s") {
			return c.at(i) + " " + d.String() + "s", i + 2
		}
		if alt("weekends|evenings|mornings|nights|days|weeks", c.at(i+1)) {
			return words(t[i : i+2]), i + 2
		}
	case alt("once|twice", c.at(i)) || (t[min(i, len(t)-1)].kind == nlp.Number || valueWords[c.at(i)] || numberWords[c.at(i)]) && alt("times|x", c.at(i+1)):
		j := i + 1
		if !alt("once|twice", c.at(i)) {
			j++
		}
		if alt("a|per|each|every", c.at(j)) && alt("day|week|month|year|fortnight", c.at(j+1)) {
			return words(t[start : j+2]), j + 2
		}
	}
	return "", i
}

// routineScan adds HAS_ROUTINE for "I <activity> <frequency>", "I go to
// the <place> <frequency>", "I go <activity-ing> <frequency>", "I do|play
// <activity> <frequency>".
func (r *hobbyRules) routineScan(c *clause) {
	sp := c.said.speaker
	t := c.toks
	if sp == "" || c.hedge {
		return
	}
	// "Every Saturday morning I'm at the allotment": the frequency said first
	fronted, s := c.frequencyAt(0)
	if fronted != "" {
		for alt("morning|mornings|evening|evenings|afternoon|afternoons|night|nights", c.at(s)) {
			fronted += " " + c.at(s)
			s++
		}
	}
	if !alt("i|we", c.at(s)) {
		return
	}
	i := s + 1
	be := false
	for alt("usually|always|normally|now|still|generally|typically|also|regularly|try|to|'ve|have|started|been|'m|am|'re|are", c.at(i)) {
		be = be || alt("'m|am|'re|are", c.at(i))
		i++
	}
	if be && alt("at|down|up|out", c.at(i)) {
		// "I'm at the allotment every Saturday", "most Sundays I'm down
		// at the climbing wall": a place one is at, habitually
		if c.at(i) != "at" && c.at(i+1) == "at" {
			i++
		}
		np := takeNP(t, i+1)
		if c.at(i) != "at" || np.empty() || np.det != "the" || np.hasName || len(np.toks) > 3 {
			return
		}
		r.routineAt(c, np.lower(), fronted, np.next)
		return
	}
	lemma, form, ok := verbOf(c.at(i))
	if !ok || form == formPast || form == formPart {
		return
	}
	activity := ""
	j := i + 1
	switch {
	case lemma == "go" && c.at(j) == "to":
		np := takeNP(t, j+1)
		if np.empty() || !(placeNouns[np.head()] || routineNouns[np.head()] || occasionNouns[np.head()]) || np.hasName {
			return
		}
		activity, j = np.lower(), np.next
	case lemma == "go" && j < len(t) && (goVerbs[c.at(j)] || activities[c.at(j)]):
		activity, j = c.at(j), j+1
	case alt("do|play|practise|practice", lemma):
		np := takeNP(t, j)
		if np.empty() || !(activities[np.key()] || activities[np.head()] || routineNouns[np.head()]) {
			return
		}
		activity, j = np.lower(), np.next
	case lemma == "walk" && alt("the|my|our", c.at(j)) && petSpecies[nlp.Singular(c.at(j+1))]:
		activity, j = "walking the "+c.at(j+1), j+2 // "I walk the dog at 6 every morning"
	case activityVerbs[lemma] || commuteVerbs[lemma] != "" && lemma != "drive" && lemma != "walk":
		activity = gerund(lemma)
	default:
		return
	}
	if alt("to|into", c.at(j)) && commuteDestinations[c.at(j+1)] != "" {
		return // "I cycle to work every day" is a commute
	}
	r.routineAt(c, activity, fronted, j)
}

// routineAt emits the routine of an activity (or a place one goes to) when
// a frequency was said before the subject (fronted) or is said within six
// words after j.
func (r *hobbyRules) routineAt(c *clause, activity, fronted string, j int) {
	freq, on := fronted, ""
	if fronted != "" && c.at(0) == "on" {
		on = "on "
	}
	for k := j; freq == "" && k < len(c.toks) && k < j+6; k++ {
		if f, _ := c.frequencyAt(k); f != "" {
			freq = f
			if c.at(k) == "on" && !strings.HasPrefix(f, "at ") {
				on = "on "
			}
		}
	}
	if freq == "" {
		return
	}
	c.emit(fx{subj: c.said.speaker, pred: "HAS_ROUTINE", obj: c.value(freq), qual: strings.TrimPrefix(activity, "the "),
		conf: 0.8, tmpl: "{S} goes " + routineVerb(activity) + " " + on + "{O}", noDate: true})
}

// routineVerb phrases the activity of a routine after "goes".
func routineVerb(activity string) string {
	if first, _, _ := strings.Cut(activity, " "); strings.HasSuffix(first, "ing") {
		return activity
	}
	return "to the " + activity
}

// routineDayFrame: "Tuesday is my gym day", "Saturdays are my long-run
// days".
func (r *hobbyRules) routineDayFrame(c *clause) bool {
	// "Tuesday is my gym day", "Tuesdays and Thursdays are my swim mornings"
	var days []string
	k := 0
	for k < len(c.toks) {
		d, ok := nlp.ParseWeekday(c.at(k))
		if !ok {
			break
		}
		days = append(days, d.String()+"s")
		k++
		if alt("and|&|,|or", c.at(k)) {
			k++
		}
	}
	if len(days) == 0 || alt("and|&|,|or", c.at(k-1)) {
		return false
	}
	n, isCop, neg, _ := c.copulaAt(k)
	if !isCop || neg || !alt("my|our", c.at(n)) {
		return false
	}
	j := n + 1
	for j < len(c.toks) && j < n+4 && !alt("day|days|night|nights|morning|mornings|evening|evenings", c.at(j)) {
		j++
	}
	if j == n+1 || j >= len(c.toks) || j >= n+4 {
		return false
	}
	activity := words(c.toks[n+1 : j])
	when := strings.Join(days, " and ")
	if c.at(j) != "day" && c.at(j) != "days" {
		when += " (" + c.at(j) + ")"
	}
	c.subj = c.said.speaker
	c.emit(fx{subj: c.said.speaker, pred: "HAS_ROUTINE", obj: c.value(when), qual: activity, conf: 0.8,
		tmpl: "{S's} " + activity + " " + pick(strings.HasSuffix(c.at(j), "s"), "day is", "days are") + " {O}", noDate: true})
	return true
}
