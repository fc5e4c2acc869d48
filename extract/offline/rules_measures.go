package offline

import (
	"slices"
	"strings"

	"github.com/graphmem/graphmem/nlp"
)

// measureRules recognise measures and counts, each a HAS_MEASURE slot
// named by the measure ("salary", "weight", "resting heart rate", "parkrun
// count") whose object is the value with its unit, so a newer value
// supersedes the older one whatever verb moved it:
//
//	my resting heart rate is 62 now      → HAS_MEASURE(resting heart rate) 62
//	my rent went up to 1,450 euros        → HAS_MEASURE(rent) 1,450 euros
//	I weigh 72 kg / I earn 58k a year     → weight / salary
//	my drive to work takes 25 minutes     → commute
//	I've done 20 parkruns; my 31st parkrun → parkrun count
//
// The words are in lexicon_measures.go; a measure not listed there keeps
// the name the speaker gave it.
type measureRules struct{}

// measureFrame reads a clause that states a measure or a count, or, when
// it states none, a change of measure said after a comma without its
// "I'm" ("Got a pay rise, on 52k now", "I cut out sugar, down to 81 kg"),
// which the clause splitter left on the clause before it. The clause must
// be the speaker's: opened by "I" or "we", or by a verb with the subject
// left out ("My brother got a raise, on 70k now" is his).
func (r *measureRules) measureFrame(c *clause) bool {
	if r.measureClause(c) {
		return true
	}
	t := c.toks
	if len(t) == 0 || c.said.speaker == "" {
		return false
	}
	if _, _, isVerb := verbOf(t[0].w); !alt("i|we", t[0].w) && !isVerb {
		return false
	}
	for k := 1; k+2 < len(t); k++ {
		if t[k].w == "," && alt("down|up|on", t[k+1].w) {
			piece := *c
			piece.toks, piece.comma, piece.opening = t[k+1:], true, false
			if r.measureClause(&piece) {
				return true
			}
		}
	}
	return false
}

// measureClause reads a clause that states a measure or a count.
func (r *measureRules) measureClause(c *clause) bool {
	if c.neg || measureHedged(c.toks) {
		return false
	}
	t := c.toks
	// "my X is N", "my X went up to N", "my X takes N minutes"; "this
	// week's long run was 21 km" is the speaker's too.
	owner, i := c.possessor(0)
	if owner == "" && c.said.speaker != "" && len(t) > 1 && (t[0].first || c.opening || c.comma) && measureNames[t[0].w] != "" {
		k := 1
		for k < len(t)-1 && alt("just|now|finally|recently|already|also", t[k].w) {
			k++ // "Rent just went up to 1,450"
		}
		if alt("is|'s|went|has|was", t[k].w) || measureChanges[t[k].w] {
			owner = c.said.speaker // "Rent's just gone up to £1,350": chat drops the "my"
		}
	}
	if owner == "" && c.said.speaker != "" && alt("this|last|today|yesterday|tonight", c.at(0)) {
		j := 0
		if c.at(0) == "this" || c.at(0) == "last" {
			j = 1
		}
		if alt("week|weekend|month|year|today|yesterday|tonight|morning", c.at(j)) && c.at(j+1) == "'s" {
			owner, i = c.said.speaker, j+2
		}
	}
	if owner == "" && c.said.speaker != "" && c.date != nil && len(t) > 0 && !t[0].first &&
		(strings.HasSuffix(c.date.Text, "'s") || strings.HasSuffix(c.date.Text, "’s")) {
		owner, i = c.said.speaker, 0 // "This weekend's long run": the date took the possessive
	}
	if owner != "" {
		j := i
		for j < len(t) && j-i < 5 && t[j].kind == nlp.Word && !alt("is|are|was|were|'s|takes|took|has|have", t[j].w) && !measureChanges[t[j].w] &&
			!(j > i && alt("just|finally|recently|already|also", t[j].w)) {
			j++
		}
		name := measureName(t[i:j])
		for j < len(t) && alt("just|finally|recently|already|also", t[j].w) {
			j++ // "Rent just went up": the adverb names nothing
		}
		if name == "" || j >= len(t) || alt("number|phone|mobile|landline|phone number|mobile number", name) {
			return false // a phone number is a contact (contacts.go), not a measure
		}
		k := j + 1
		if alt("has|have", t[j].w) {
			if !measureChanges[c.at(k)] && c.at(k) != "been" {
				return false
			}
			k++
		}
		if alt("takes|took", t[j].w) && c.at(k) == "me" {
			k++
		}
		if alt("is|'s", t[j].w) {
			for alt("just|been|now", c.at(k)) || measureChanges[c.at(k)] {
				k++ // "Rent's just gone up to ...": the contraction read as "is"
			}
		}
		if text, ok := c.measureValue(k); ok {
			r.emitMeasure(c, owner, name, text)
			return true
		}
		return false
	}
	speaker := c.said.speaker
	if speaker == "" {
		return false
	}
	// "Getting to work is 20 minutes door to door now": a listed measure
	// named by a gerund phrase is the speaker's.
	g := 0
	for k := 1; k+1 < len(t) && g == 0; k++ {
		if t[k].w == "," && isGerund(t[k+1]) {
			g = k + 1 // "Since the tram opened, getting to work is 25 minutes"
		}
	}
	if len(t) > 0 && (isGerund(t[0]) || g > 0) {
		j := g + 1
		for j < len(t) && j < g+5 && !alt("is|takes|took|was", t[j].w) {
			j++
		}
		if name, ok := measureNames[words(t[g:j])]; ok && j < len(t) {
			k := j + 1
			if alt("takes|took", t[j].w) && c.at(k) == "me" {
				k++
			}
			if text, ok := c.measureValue(k); ok {
				r.emitMeasure(c, speaker, name, text)
				return true
			}
		}
		return false
	}
	// "(so) now it's a 50-minute drive each way", "since the move it's..."
	for j := 0; j < 5 && j < len(t); j++ {
		if c.at(j) != "it" {
			continue
		}
		if n, ok, _, _ := c.copulaAt(j + 1); ok {
			if value, ok := journeyTime(c, n); ok {
				r.emitMeasure(c, speaker, "commute", value)
				return true
			}
		}
		break
	}
	i = 0
	im := c.at(0) == "i" && (c.at(1) == "'m" || c.at(1) == "am")
	switch c.at(0) {
	case "i", "we":
		i = 1
	case "i've", "we've":
		i = 1
	case "that", "this", "it":
		// "that makes 13 cinema trips", "that was my 31st parkrun"
		if alt("makes|made", c.at(1)) {
			if text, noun, ok := c.countAt(2); ok {
				r.emitMeasure(c, speaker, plural(noun)+" count", text)
				return true
			}
		}
		if n, ok, _, _ := c.copulaAt(1); ok && (c.at(n) == "my" || c.at(n) == "our") {
			if ord, noun, ok := ordinalAt(t, n+1); ok {
				r.emitMeasure(c, speaker, plural(noun)+" count", ord+" "+noun)
				return true
			}
		}
		return false
	case "down", "up", "on":
		// "Down from 94 to 81 kg since March!", "got a raise, on 52k
		// now": chat drops the "I'm" of a measure's change.
		if !(t[0].first || c.opening || c.comma) {
			return false
		}
		im = true
	default:
		return false
	}
	for alt("'ve|have|now|currently|also|still|just|already|finally|'m|am", c.at(i)) {
		i++
	}
	if im {
		for i < len(t) && measureFillers[t[i].w] && t[i].w != "a" && t[i].w != "the" {
			i++ // "I'm down to 84 kilos", "I'm up to nearly 90 kg"
		}
		i = fromTo(t, i) // "I'm down from 94 to 81 kg"
		if c.at(i) == "on" {
			// "I'm on 52k now", "I'm on £38,000": a sum one is on is a pay
			amt, _ := readAmount(t, i+1)
			if amt == "" && i+1 < len(t) && (strings.HasSuffix(t[i+1].w, "k") || alt("k|grand", c.at(i+2))) {
				amt = budgetAmount(t, i+1) // "52k", "52 grand": no currency, but a pay
			}
			if amt != "" {
				r.emitMeasure(c, speaker, "salary", amt)
				return true
			}
		}
	}
	if im && i < len(t) && t[i].kind == nlp.Number {
		// "I'm 72 kg now", "I'm 1.65 m and 60 kg": the unit names the measure
		found := false
		for k := i; k < len(t); k++ {
			if t[k].kind != nlp.Number {
				continue
			}
			name := unitMeasures[c.at(k+1)]
			if name == "" {
				if u := strings.TrimLeft(t[k].w, "0123456789.,"); unitMeasures[u] != "" && u != t[k].w {
					name = unitMeasures[u] // "72kg"
					r.emitMeasure(c, speaker, name, t[k].orig)
					found = true
				}
				continue
			}
			r.emitMeasure(c, speaker, name, t[k].orig+" "+t[k+1].orig)
			found = true
		}
		return found
	}
	if name, ok := measureVerbs[c.at(i)]; ok {
		if text, ok := c.measureValue(i + 1); ok {
			r.emitMeasure(c, speaker, name, text)
			return true
		}
	}
	if countVerbs[c.at(i)] {
		if text, noun, ok := c.countAt(i + 1); ok {
			r.emitMeasure(c, speaker, plural(noun)+" count", text)
			return true
		}
	}
	return false
}

func (r *measureRules) emitMeasure(c *clause, owner, name, value string) {
	obj := c.value(value)
	if obj == "" {
		return
	}
	c.emit(fx{subj: owner, pred: "HAS_MEASURE", obj: obj, qual: name, tmpl: "{S's} {Q} is {O}{D}"})
}

// measureName is the slot a measure phrase names: a listed synonym's
// canonical name, else the phrase itself without its leading adjectives of
// period or novelty ("new", "monthly").
func measureName(toks []tok) string {
	var ws []string
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.w == "on" && i+1 < len(toks) {
			if _, ok := nlp.ParseWeekday(toks[i+1].w); ok {
				i++ // "my long run on Sundays" is the long run
				continue
			}
		}
		if _, kin := relations[t.w]; t.kind != nlp.Word || t.cap && !t.first || kin {
			return "" // a person's name or role: "my daughter Mia is 5" is an age
		}
		ws = append(ws, t.w)
	}
	for len(ws) > 0 && measureAdjectives[ws[0]] {
		ws = ws[1:]
	}
	if len(ws) == 0 || len(ws) > 4 {
		return ""
	}
	phrase := strings.Join(ws, " ")
	if n, ok := measureNames[phrase]; ok {
		return n
	}
	if slices.ContainsFunc(ws, func(w string) bool { return contactKinds[w] }) {
		return "" // "my new address is 12 Rowan Close" is a contact (rules_contacts.go)
	}
	if n, ok := measureNames[ws[len(ws)-1]]; ok && len(ws) <= 2 {
		return n
	}
	// An unlisted name is a measure only when a value follows; the caller
	// checks that.
	return phrase
}

// contactKinds name contact details whose value starts with a number that
// is no measure ("my address is 12 Rowan Close"). A phone number is left
// to be read as a value here too: its corrections ("sorry, it's ...06")
// are read that way.
var contactKinds = map[string]bool{"address": true, "postcode": true, "zip": true, "zipcode": true}

var measureAdjectives = map[string]bool{"new": true, "current": true, "monthly": true, "weekly": true, "daily": true,
	"annual": true, "yearly": true, "average": true, "usual": true, "typical": true, "latest": true, "total": true}

// measureValue reads a value at i: fillers, an optional currency sign, a
// number (digits or a word) and its units. It returns the value as written.
func (c *clause) measureValue(i int) (string, bool) {
	t := c.toks
	for i < len(t) && measureFillers[t[i].w] {
		i++
	}
	if j := fromTo(t, i); j > i {
		i = j // "went up from 1,200 to 1,350 a month"
		for i < len(t) && measureFillers[t[i].w] {
			i++
		}
	}
	start := i
	if i < len(t) && (t[i].w == "£" || t[i].w == "$" || t[i].w == "€") {
		i++
	}
	// "about an hour each way", "half an hour", "a couple of hours"
	if i+1 < len(t) && (alt("an|a", t[i].w) && alt("hour|minute|day|week|mile|kilometre|kilometer", t[i+1].w) ||
		t[i].w == "half" && alt("an|a", t[i+1].w)) {
		j := i + 2
		if t[i].w == "half" {
			j++
		}
		for n := 0; j < len(t) && n < 3 && measureUnits[t[j].w] && !alt("a|an|per", t[j].w); n++ {
			j++
		}
		return c.surfaceOf(start, j), true
	}
	if i >= len(t) || !(t[i].kind == nlp.Number || valueWords[t[i].w]) {
		return "", false
	}
	if t[i].kind == nlp.Number && isOrdinal(t[i].w) {
		return "", false
	}
	if i+1 < len(t) && t[i+1].cap && t[i+1].kind == nlp.Word && !measureUnits[t[i+1].w] {
		return "", false // "a 2019 MacBook Air": a model year, not an amount
	}
	i++
	for n := 0; i < len(t) && n < 4 && measureUnits[t[i].w]; n++ {
		i++
	}
	for i > start+1 && alt("a|an|per|each|every|the", t[i-1].w) {
		i-- // a dangling article is not part of the value
	}
	return c.surfaceOf(start, i), true
}

// countAt reads "N nouns" at i: a running total ("20 parkruns").
func (c *clause) countAt(i int) (text, noun string, ok bool) {
	t := c.toks
	for i < len(t) && measureFillers[t[i].w] {
		i++
	}
	if i+1 >= len(t) || !(t[i].kind == nlp.Number || valueWords[t[i].w]) || isOrdinal(t[i].w) {
		return "", "", false
	}
	j := i + 1
	for j < len(t) && j-i <= 2 && t[j].kind == nlp.Word && !stopAfterCount[t[j].w] {
		j++
	}
	if j == i+1 {
		return "", "", false
	}
	return c.surfaceOf(i, j), words(t[i+1 : j]), true
}

// ordinalAt reads "31st parkrun" at i.
func ordinalAt(t []tok, i int) (ord, noun string, ok bool) {
	if i+1 >= len(t) || t[i].kind != nlp.Number || !isOrdinal(t[i].w) || t[i+1].kind != nlp.Word {
		return "", "", false
	}
	j := i + 1
	for j < len(t) && j-i <= 2 && t[j].kind == nlp.Word && !stopAfterCount[t[j].w] {
		j++
	}
	return t[i].orig, words(t[i+1 : j]), true
}

var stopAfterCount = map[string]bool{"this": true, "so": true, "at": true, "in": true, "on": true, "and": true,
	"since": true, "now": true, "for": true, "with": true, "of": true, "after": true, "last": true, "today": true,
	"already": true, "by": true, "to": true, "from": true, "but": true,
	// a rate follows the number, not the thing counted ("25k a week")
	"a": true, "an": true, "per": true, "each": true, "every": true}

func isOrdinal(w string) bool {
	return len(w) > 2 && w[0] >= '0' && w[0] <= '9' && alt("st|nd|rd|th", w[len(w)-2:])
}

// plural is a count's slot word: "parkrun" and "parkruns" are one slot.
func plural(noun string) string {
	if noun == "" || strings.HasSuffix(noun, "s") {
		return noun
	}
	return noun + "s"
}

// measureHedged: a measure in a wish, plan or condition is not a value.
func measureHedged(t []tok) bool {
	for k, x := range t {
		if x.w == "," && k > 3 {
			return false // "an hour each way, longer if it rains": the statement came first
		}
		if alt("if|would|will|might|could|should|hope|want|wish|goal|target|aim|aiming|plan|planning|'d|'ll", x.w) {
			return true
		}
	}
	return false
}

// surfaceOf is the clause's text from token i to j (exclusive) as written.
func (c *clause) surfaceOf(i, j int) string {
	t := c.toks
	if i >= j || j > len(t) {
		return ""
	}
	text := c.said.event.Content
	if t[i].start >= 0 && t[j-1].end <= len(text) && t[i].start < t[j-1].end {
		return strings.Join(strings.Fields(text[t[i].start:t[j-1].end]), " ")
	}
	var ws []string
	for _, x := range t[i:j] {
		ws = append(ws, x.orig)
	}
	return strings.Join(ws, " ")
}

// journeyTime reads, after "it's", a journey's length that says it is the
// way to work: "a 50-minute drive each way", "now a 20 minute walk to the
// office", "about an hour on the train each way". The way back or to work
// makes it the commute; "it's a 3-hour drive to the coast" is not.
func journeyTime(c *clause, i int) (string, bool) {
	for alt("now|only|just|about|around|roughly|nearly|almost|over", c.at(i)) {
		i++
	}
	if !alt("a|an", c.at(i)) {
		return "", false
	}
	i++
	var value string
	switch w := c.at(i); {
	case i < len(c.toks) && c.toks[i].kind == nlp.Number:
		// "50-minute", "50 minute", "50 min"
		k := i + 1
		if c.at(k) == "-" {
			k++
		}
		unit := strings.TrimSuffix(c.at(k), "s")
		if unit == "min" {
			unit = "minute"
		}
		if unit != "minute" && unit != "hour" {
			return "", false
		}
		value = w + " " + unit + "s"
		i = k + 1
	case w == "hour" || w == "half-hour":
		value = "1 hour"
		if w == "half-hour" {
			value = "30 minutes"
		}
		i++
	default:
		return "", false
	}
	for k := 0; k < 3 && i < len(c.toks) && !journeyNouns[c.at(i)]; k++ {
		i++ // "drive", "train ride", "on the train"
	}
	if !journeyNouns[c.at(i)] {
		return "", false
	}
	i++
	rest := words(c.toks[i:min(i+3, len(c.toks))]) + " "
	if strings.HasPrefix(rest, "each way ") || strings.HasPrefix(rest, "to work ") || strings.HasPrefix(rest, "to the office ") ||
		strings.HasPrefix(rest, "door to door ") || strings.HasPrefix(rest, "into work ") || strings.HasPrefix(rest, "in to work ") {
		return value, true
	}
	return "", false
}

// journeyNouns are the ways of getting somewhere a commute is said as.
var journeyNouns = wordSet(`drive,ride,journey,commute,walk,cycle,trip,bike,train,bus,tube,ferry,run`)
