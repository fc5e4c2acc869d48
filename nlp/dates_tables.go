package nlp

import (
	"strings"
	"time"
)

// monthNames maps full and abbreviated month names to months.
var monthNames = map[string]time.Month{
	"january": time.January, "jan": time.January, "february": time.February, "feb": time.February,
	"march": time.March, "mar": time.March, "april": time.April, "apr": time.April,
	"may": time.May, "june": time.June, "jun": time.June, "july": time.July, "jul": time.July,
	"august": time.August, "aug": time.August, "september": time.September, "sep": time.September,
	"sept": time.September, "october": time.October, "oct": time.October,
	"november": time.November, "nov": time.November, "december": time.December, "dec": time.December,
}

// ambiguousMonths are month names that are also common English words; they
// count as months only when capitalized or next to a day number.
var ambiguousMonths = map[string]bool{"may": true, "march": true, "mar": true, "jan": true, "sep": true, "dec": true, "jun": true, "jul": true, "aug": true}

// weekdayNames maps weekday names, plurals and abbreviations to weekdays.
var weekdayNames = map[string]time.Weekday{
	"monday": time.Monday, "mon": time.Monday, "tuesday": time.Tuesday, "tue": time.Tuesday,
	"tues": time.Tuesday, "wednesday": time.Wednesday, "wed": time.Wednesday,
	"thursday": time.Thursday, "thu": time.Thursday, "thur": time.Thursday, "thurs": time.Thursday,
	"friday": time.Friday, "fri": time.Friday, "saturday": time.Saturday, "sat": time.Saturday,
	"sunday": time.Sunday, "sun": time.Sunday,
}

// ParseWeekday reads a weekday name, plural ("Mondays") or abbreviation
// ("Tues"). Plurals are how schedules are said ("meetings are on Mondays").
func ParseWeekday(word string) (time.Weekday, bool) {
	w := strings.TrimSuffix(Fold(word), ".")
	if d, ok := weekdayNames[w]; ok {
		return d, true
	}
	if strings.HasSuffix(w, "days") {
		if d, ok := weekdayNames[strings.TrimSuffix(w, "s")]; ok {
			return d, true
		}
	}
	return 0, false
}

// ParseMonth reads a full or abbreviated month name.
func ParseMonth(word string) (time.Month, bool) {
	m, ok := monthNames[strings.TrimSuffix(Fold(word), ".")]
	return m, ok
}

// quantities maps number words to values; approximate ones are flagged.
var quantities = map[string]struct {
	n      int
	approx bool
}{
	"a": {1, false}, "an": {1, false}, "one": {1, false}, "two": {2, false}, "three": {3, false},
	"four": {4, false}, "five": {5, false}, "six": {6, false}, "seven": {7, false},
	"eight": {8, false}, "nine": {9, false}, "ten": {10, false}, "eleven": {11, false},
	"twelve": {12, false}, "fifteen": {15, false}, "twenty": {20, false}, "thirty": {30, false},
	"few": {3, true}, "several": {3, true}, "couple": {2, true}, "the": {1, false},
}

// dateUnits maps unit words to granularities.
var dateUnits = map[string]Granularity{
	"day": GranularityDay, "days": GranularityDay, "week": GranularityWeek, "weeks": GranularityWeek,
	"weekend": GranularityWeekend, "weekends": GranularityWeekend, "month": GranularityMonth,
	"months": GranularityMonth, "year": GranularityYear, "years": GranularityYear,
	"fortnight": GranularityWeek, "summer": GranularitySeason, "winter": GranularitySeason,
	"spring": GranularitySeason, "fall": GranularitySeason, "autumn": GranularitySeason,
}

// seasonStart is the first month of each (northern-hemisphere) season.
var seasonStart = map[string]time.Month{
	"spring": time.March, "summer": time.June, "fall": time.September, "autumn": time.September,
	"winter": time.December,
}

// yearPrepositions introduce a bare year ("in 2022", "since 2016").
var yearPrepositions = map[string]bool{
	"in": true, "since": true, "until": true, "till": true, "by": true, "from": true, "during": true,
	"of": true, "before": true, "after": true, "around": true, "circa": true, "early": true,
	"late": true, "mid": true, "throughout": true, "through": true,
}

// monthPrepositions introduce a bare month name ("in January").
var monthPrepositions = map[string]bool{
	"in": true, "since": true, "until": true, "till": true, "by": true, "from": true, "during": true,
	"of": true, "before": true, "after": true, "around": true, "early": true, "late": true,
	"mid": true, "through": true, "throughout": true, "end": true, "beginning": true, "start": true,
}

// notAfterYear are words that make a 4-digit number an amount, not a year.
var notAfterYear = map[string]bool{
	"euro": true, "euros": true, "dollar": true, "dollars": true, "usd": true, "eur": true,
	"pounds": true, "gbp": true, "bucks": true, "yen": true, "people": true, "km": true,
	"miles": true, "meters": true, "metres": true, "steps": true, "words": true, "calories": true,
	"kcal": true, "feet": true, "ft": true, "pages": true, "points": true, "followers": true,
}

// futureCues and pastCues decide the year of a date given without one.
// plannedMoves are the verbs whose progressive says a plan ("we're moving
// in March", "I'm flying to Lima on the 3rd").
var plannedMoves = map[string]bool{"moving": true, "relocating": true, "flying": true, "leaving": true,
	"travelling": true, "traveling": true, "heading": true, "visiting": true, "starting": true, "getting": true,
	"having": true, "taking": true, "doing": true, "running": true, "joining": true, "emigrating": true}

// progressiveBe are the forms of "be" before a progressive.
var progressiveBe = map[string]bool{"am": true, "is": true, "are": true}

var futureCues = map[string]bool{
	"will": true, "'ll": true, "gonna": true, "going": true, "plan": true, "planning": true,
	"plans": true, "next": true, "upcoming": true, "coming": true, "hope": true, "hoping": true,
	"soon": true, "forward": true, "scheduled": true, "booked": true, "tomorrow": true, "until": true,
	"intend": true, "want": true, "wanna": true, "expect": true, "expecting": true, "due": true,
}

var pastCues = map[string]bool{
	"was": true, "were": true, "did": true, "had": true, "went": true, "got": true, "ago": true,
	"last": true, "yesterday": true, "came": true, "made": true, "took": true, "met": true,
	"saw": true, "left": true, "began": true, "started": true, "moved": true, "ran": true,
	"bought": true, "sold": true, "became": true, "gave": true, "found": true, "told": true,
	"felt": true, "since": true, "married": true, "born": true, "visited": true, "attended": true,
	// irregular past tenses, which the "-ed" test misses ("I quit sugar in
	// January" is last January, not next)
	"quit": true, "broke": true, "lost": true, "won": true, "wrote": true, "spent": true, "flew": true, "drove": true,
	"taught": true, "caught": true, "fell": true, "grew": true, "knew": true, "paid": true, "kept": true, "slept": true,
	"swam": true, "sang": true, "rode": true, "wore": true, "chose": true, "tore": true, "sent": true, "built": true,
	"brought": true, "held": true, "fought": true, "forgot": true, "ate": true, "drank": true, "threw": true,
}
