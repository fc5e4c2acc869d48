package offline

import (
	"strings"

	"github.com/graphmem/graphmem/nlp"
)

// Reschedules and recurring times beyond "on Mondays": a weekday of the
// month ("the last Friday of the month", "every second Tuesday"), a part
// of the day ("Friday mornings"), and a clock time alone ("standup got
// pushed to 10 o'clock", "physio is at 5"). The occasion may be an
// activity or appointment of routineNouns as well as an occasion noun.

// isOccasion reports whether np names something that recurs on a schedule.
func isOccasion(np nounPhrase) bool {
	return occasionNouns[np.head()] || routineNouns[np.head()] || routineNouns[np.lower()]
}

// monthlyWeekday reads "(the) first|last|second Wednesday (of the|every
// month)" and "(every) other Tuesday" at i.
func (c *clause) monthlyWeekday(i int) (string, int) {
	if c.at(i) == "the" {
		i++
	}
	var ord, day string
	switch {
	case c.at(i) == dateTok:
		// "last Thursday" read as a date by the tokenizer
		f := strings.Fields(strings.ToLower(c.toks[i].orig))
		if len(f) != 2 || !ordinalWeekdays[f[0]] {
			return "", i
		}
		ord, day = f[0], f[1]
		i++
	case ordinalWeekdays[c.at(i)]:
		ord, day = c.at(i), c.at(i+1)
		i += 2
	default:
		return "", i
	}
	d, ok := nlp.ParseWeekday(day)
	if !ok {
		return "", i
	}
	when := ord + " " + d.String()
	if c.seq(i, "of", "the", "month") || c.seq(i, "of", "every", "month") || c.seq(i, "of", "each", "month") {
		when += " of the month"
		i += 3
	} else if start := i - 3; start >= 0 && c.at(start) == "every" {
		when = "every " + when
	}
	return when, i
}

// clockTime reads a time of day at i ("10 o'clock", "9:15", "7pm", "half
// past eight" is not read), after an optional "at" or "to".
func (c *clause) clockTime(i int) (string, int) {
	if alt("at|to|for", c.at(i)) {
		i++
	}
	if i >= len(c.toks) {
		return "", i
	}
	t := c.toks[i]
	switch {
	case alt("noon|midday|midnight", t.w):
		return t.w, i + 1
	case t.kind != nlp.Number:
		return "", i
	}
	tm := t.orig
	i++
	switch {
	case c.at(i) == "o'clock":
		tm += " o'clock"
		i++
	case alt("am|pm|a.m|p.m|a.m.|p.m.", c.at(i)):
		tm += " " + c.toks[i].orig
		i++
	case strings.ContainsAny(tm, ":.") || strings.HasSuffix(strings.ToLower(tm), "am") || strings.HasSuffix(strings.ToLower(tm), "pm"):
	default:
		return "", i // a bare number is no time ("moved to 3")
	}
	return tm, i
}
