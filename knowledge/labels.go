package knowledge

import (
	"strconv"

	"github.com/graphmem/graphmem/nlp"
)

// NumberedLabels reads the numbered labels a text gives, a word and the
// number after it: "I teach Year 3" gives year → 3, "we're in Zone 2" zone →
// 2, "I'm on chapter 12" chapter → 12. Two statements of the speaker's that
// give one label different numbers ("Year 3", then "Year 6 from
// September") speak of one thing whose value changed, whatever their
// other words. Dates ("June 2012", "Friday 15"), words that only lead up
// to a number ("under 25", "about 40") and numbers with units attached
// ("600km") are not labels.
func NumberedLabels(text string) map[string]string {
	ws := tokens(text)
	var out map[string]string
	for i := 0; i+1 < len(ws); i++ {
		w, n := ws[i], ws[i+1]
		if _, err := strconv.Atoi(n); err != nil || len(n) > 4 {
			continue
		}
		if len(w) < 3 || functionWords[w] || leadsUpToNumber[w] || firstPerson[w] {
			continue
		}
		if _, ok := nlp.ParseMonth(w); ok {
			continue
		}
		if _, ok := nlp.ParseWeekday(w); ok {
			continue
		}
		if _, err := strconv.Atoi(w); err == nil {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[w] = n
	}
	return out
}

// RelabelledOf reports whether b gives a label of a's another number
// ("Year 6" after "Year 3").
func RelabelledOf(a, b map[string]string) bool {
	for w, n := range a {
		if m, ok := b[w]; ok && m != n {
			return true
		}
	}
	return false
}

// leadsUpToNumber are the words before a number that say how many or how
// much rather than name a label: "under 25 minutes", "about 40", "every 2
// weeks", "top 10", "than 5".
var leadsUpToNumber = set("under", "over", "about", "around", "than", "every", "each", "nearly", "almost", "roughly",
	"approximately", "only", "just", "least", "most", "maybe", "perhaps", "some", "another", "other", "those", "these",
	"from", "until", "till", "between", "by", "with", "into", "onto", "out", "up", "down", "off", "per", "like", "after",
	"before", "since", "past", "top", "first", "last", "next", "all", "any", "both", "aged", "age", "ages", "number",
	"no", "not", "were", "been", "have", "has", "had", "got", "get", "gets", "make", "makes", "made",
	"there's", "plus", "minus", "times", "nearer", "above", "below", "within", "through") // and those of functionWords
