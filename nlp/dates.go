package nlp

import (
	"strconv"
	"strings"
	"time"
)

// Granularity is the size of the period a date expression names.
type Granularity string

// Granularities, from finest to coarsest.
const (
	GranularityDay     Granularity = "day"
	GranularityWeek    Granularity = "week"
	GranularityWeekend Granularity = "weekend"
	GranularityMonth   Granularity = "month"
	GranularitySeason  Granularity = "season"
	GranularityYear    Granularity = "year"
)

// DateSpan is one date expression found in a text, resolved to a period.
type DateSpan struct {
	Start int    // byte offset of the expression in the text
	End   int    // byte offset after the expression
	Text  string // the expression as written ("last week", "8 May")
	// Time is the first instant of the period, in the reference time's
	// location; Until is the first instant after it.
	Time        time.Time
	Until       time.Time
	Granularity Granularity
	// Relative means the resolution depended on the reference time
	// ("yesterday", "last month", or a day given without its year).
	Relative bool
	// Approximate marks vague quantities ("a few weeks ago").
	Approximate bool
	// Label is the absolute form written into rewritten text: "7 May 2023",
	// "April 2023", "2022", "summer 2023", "the week before 9 June 2023",
	// "the weekend of 15–16 July 2023". Every label parses back to the same
	// period, so rewritten text can be resolved again without drift.
	Label string
	// annotated is set when the text already carries the label in
	// parentheses right after the expression, so it must not be added again.
	annotated bool
}

// Annotated reports whether the text already spells out the absolute date
// right after the expression, in parentheses.
func (d DateSpan) Annotated() bool { return d.annotated }

// FindDates finds the date expressions of text and resolves them against
// ref (the time the text was said). It returns spans in text order, never
// overlapping. Conventions, chosen to match how people talk in chat:
//   - weeks start on Monday; "last week" is the calendar week before ref's;
//   - "last Friday" is the latest Friday strictly before ref's day, "next
//     Friday" the first one strictly after, "this Friday" the first one on
//     or after;
//   - "last weekend" is the latest Saturday–Sunday that ended before ref's
//     day (on a weekend day, the previous one); "this weekend" is the
//     current or coming one; "next weekend" the one after that;
//   - a day or month without a year ("on 8 May", "in January") takes the
//     year that puts it in the past when the sentence speaks of the past,
//     in the future when it speaks of the future, and otherwise the nearest;
//   - "a few"/"several" count as 3 and "a couple" as 2, flagged Approximate.
//
// A relative expression already followed by a parenthesized absolute date
// (text this function rewrote before) takes that date, so resolving a
// rewritten text again with a later ref changes nothing.
func FindDates(text string, ref time.Time) []DateSpan {
	if ref.IsZero() {
		ref = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	s := newDateScanner(text, ref)
	var out []DateSpan
	for i := 0; i < len(s.low); {
		span, next, ok := s.match(i)
		if !ok {
			i++
			continue
		}
		out = append(out, span)
		i = next
	}
	return s.attachAnnotations(out)
}

// ResolveDates returns text with the absolute date added in parentheses
// after every relative expression ("I went to a support group yesterday (7
// May 2023)"), and the spans found. Offsets in the spans refer to the
// original text. Expressions that are already absolute, or already
// annotated, are left as they are.
func ResolveDates(text string, ref time.Time) (string, []DateSpan) {
	spans := FindDates(text, ref)
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		if !sp.Relative || sp.annotated || sp.Label == "" {
			continue
		}
		b.WriteString(text[last:sp.End])
		b.WriteString(" (")
		b.WriteString(sp.Label)
		b.WriteString(")")
		last = sp.End
	}
	if last == 0 {
		return text, spans
	}
	b.WriteString(text[last:])
	return b.String(), spans
}

// FormatDay writes a day the way summaries and fact sentences do: "7 May 2023".
func FormatDay(t time.Time) string {
	return strconv.Itoa(t.Day()) + " " + t.Month().String() + " " + strconv.Itoa(t.Year())
}

// FormatMonth writes a month: "May 2023".
func FormatMonth(t time.Time) string { return t.Month().String() + " " + strconv.Itoa(t.Year()) }

// Phrase returns the span's label as an adverbial that can end a sentence:
// "on 7 May 2023", "in April 2023", "in 2022", "the week before 9 June
// 2023", "during the weekend of 15–16 July 2023".
func (d DateSpan) Phrase() string {
	l := d.Label
	switch {
	case l == "":
		return ""
	case strings.HasPrefix(l, "the weekend"):
		return "during " + l
	case strings.HasPrefix(l, "the "), strings.Contains(l, " before "), strings.Contains(l, " after "):
		return l
	}
	switch d.Granularity {
	case GranularityDay:
		return "on " + l
	default:
		return "in " + l
	}
}

type dateScanner struct {
	text string
	ref  time.Time
	day  time.Time // ref's day at midnight
	toks []Token
	low  []string // folded token text, possessive "'s" removed
	caps []bool
}

func newDateScanner(text string, ref time.Time) *dateScanner {
	toks := Tokenize(text)
	s := &dateScanner{text: text, ref: ref, toks: toks, low: make([]string, len(toks)), caps: make([]bool, len(toks))}
	s.day = time.Date(ref.Year(), ref.Month(), ref.Day(), 0, 0, 0, 0, ref.Location())
	for i, t := range toks {
		l := t.Lower()
		l = strings.TrimSuffix(l, "'s")
		l = strings.TrimSuffix(l, ".")
		s.low[i] = l
		s.caps[i] = t.IsCapitalized()
	}
	return s
}

func (s *dateScanner) tok(i int) string {
	if i < 0 || i >= len(s.low) {
		return ""
	}
	return s.low[i]
}

// span builds a DateSpan covering tokens [i, j).
func (s *dateScanner) span(i, j int, from, until time.Time, g Granularity, relative bool) DateSpan {
	st, en := s.toks[i].Start, s.toks[j-1].End
	return DateSpan{Start: st, End: en, Text: s.text[st:en], Time: from, Until: until, Granularity: g, Relative: relative}
}

func (s *dateScanner) match(i int) (DateSpan, int, bool) {
	if s.toks[i].Kind == Punct || s.toks[i].Kind == Symbol {
		return DateSpan{}, 0, false
	}
	for _, m := range []func(int) (DateSpan, int, bool){
		s.matchAnchored, s.matchDayWords, s.matchAgo, s.matchInFuture, s.matchLastNext,
		s.matchDayMonth, s.matchMonthDay, s.matchMonthYear, s.matchISO, s.matchSeasonYear,
		s.matchBareMonth, s.matchBareYear, s.matchDayOfMonth,
	} {
		if sp, next, ok := m(i); ok {
			if sp.Label == "" {
				sp.Label = defaultLabel(sp)
			}
			return sp, next, true
		}
	}
	return DateSpan{}, 0, false
}

func (s *dateScanner) dayOf(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, s.ref.Location())
}

func (s *dateScanner) daySpan(i, j int, d time.Time, relative bool) DateSpan {
	d = s.dayOf(d)
	return s.span(i, j, d, d.AddDate(0, 0, 1), GranularityDay, relative)
}

// matchDayWords: yesterday, today, tonight, tomorrow, last night, this
// morning, the day before yesterday, the day after tomorrow.
func (s *dateScanner) matchDayWords(i int) (DateSpan, int, bool) {
	switch s.low[i] {
	case "yesterday":
		return s.daySpan(i, i+1, s.day.AddDate(0, 0, -1), true), i + 1, true
	case "today", "tonight":
		return s.daySpan(i, i+1, s.day, true), i + 1, true
	case "tomorrow":
		return s.daySpan(i, i+1, s.day.AddDate(0, 0, 1), true), i + 1, true
	case "last":
		if s.tok(i+1) == "night" {
			return s.daySpan(i, i+2, s.day.AddDate(0, 0, -1), true), i + 2, true
		}
	case "this":
		switch s.tok(i + 1) {
		case "morning", "afternoon", "evening":
			return s.daySpan(i, i+2, s.day, true), i + 2, true
		}
	case "the":
		if s.tok(i+1) == "day" && s.tok(i+2) == "before" && s.tok(i+3) == "yesterday" {
			return s.daySpan(i, i+4, s.day.AddDate(0, 0, -2), true), i + 4, true
		}
		if s.tok(i+1) == "day" && s.tok(i+2) == "after" && s.tok(i+3) == "tomorrow" {
			return s.daySpan(i, i+4, s.day.AddDate(0, 0, 2), true), i + 4, true
		}
	}
	return DateSpan{}, 0, false
}

// quantity reads "two", "2", "a few", "a couple of", "several" at i and
// returns the value, whether it is approximate, and the index after it.
func (s *dateScanner) quantity(i int) (n int, approx bool, next int, ok bool) {
	w := s.tok(i)
	if s.toks[min(i, len(s.toks)-1)].Kind == Number {
		v, err := strconv.Atoi(w)
		if err != nil || v <= 0 || v > 100 {
			return 0, false, 0, false
		}
		return v, false, i + 1, true
	}
	if w == "a" && (s.tok(i+1) == "few" || s.tok(i+1) == "couple") {
		j := i + 2
		if s.tok(j) == "of" {
			j++
		}
		return quantities[s.tok(i+1)].n, true, j, true
	}
	if w == "couple" && s.tok(i+1) == "of" {
		return 2, true, i + 2, true
	}
	if q, found := quantities[w]; found && w != "the" {
		return q.n, q.approx, i + 1, true
	}
	return 0, false, 0, false
}

// shift moves the reference day by n units (negative is the past) and
// returns the period at that unit's granularity.
func (s *dateScanner) shift(anchor time.Time, g Granularity, n int) (time.Time, time.Time) {
	switch g {
	case GranularityDay:
		d := anchor.AddDate(0, 0, n)
		return d, d.AddDate(0, 0, 1)
	case GranularityWeek:
		m := monday(anchor).AddDate(0, 0, 7*n)
		return m, m.AddDate(0, 0, 7)
	case GranularityWeekend:
		sat := thisWeekend(anchor).AddDate(0, 0, 7*n)
		return sat, sat.AddDate(0, 0, 2)
	case GranularityMonth:
		m := time.Date(anchor.Year(), anchor.Month(), 1, 0, 0, 0, 0, anchor.Location()).AddDate(0, n, 0)
		return m, m.AddDate(0, 1, 0)
	case GranularityYear:
		y := time.Date(anchor.Year()+n, 1, 1, 0, 0, 0, 0, anchor.Location())
		return y, y.AddDate(1, 0, 0)
	}
	return anchor, anchor.AddDate(0, 0, 1)
}

// monday returns the Monday of t's ISO week.
func monday(t time.Time) time.Time {
	off := (int(t.Weekday()) + 6) % 7
	return t.AddDate(0, 0, -off)
}

func isWeekend(t time.Time) bool { return t.Weekday() == time.Saturday || t.Weekday() == time.Sunday }

// thisWeekend returns the Saturday of the weekend t is in, or of the coming
// weekend on a weekday.
func thisWeekend(t time.Time) time.Time {
	switch t.Weekday() {
	case time.Saturday:
		return t
	case time.Sunday:
		return t.AddDate(0, 0, -1)
	}
	return t.AddDate(0, 0, int(time.Saturday-t.Weekday()))
}

// matchAgo: "two days ago", "a few weeks ago", "a couple of months ago".
func (s *dateScanner) matchAgo(i int) (DateSpan, int, bool) {
	n, approx, j, ok := s.quantity(i)
	if !ok {
		return DateSpan{}, 0, false
	}
	g, isUnit := dateUnits[s.tok(j)]
	if !isUnit || g == GranularitySeason || s.tok(j+1) != "ago" {
		return DateSpan{}, 0, false
	}
	if s.tok(j) == "fortnight" {
		n *= 2
	}
	from, until := s.shift(s.day, g, -n)
	sp := s.span(i, j+2, from, until, g, true)
	sp.Approximate = approx
	if approx || g == GranularityWeek || g == GranularityWeekend {
		sp.Label = s.words(i, j+1) + " before " + FormatDay(s.day)
	}
	return sp, j + 2, true
}

// matchInFuture: "in two weeks", "in 3 days", "two days from now".
func (s *dateScanner) matchInFuture(i int) (DateSpan, int, bool) {
	start := i
	if s.low[i] == "in" {
		i++
	} else if _, _, j, ok := s.quantity(i); !ok || s.tok(j+1) != "from" || s.tok(j+2) != "now" {
		return DateSpan{}, 0, false
	}
	n, approx, j, ok := s.quantity(i)
	if !ok {
		return DateSpan{}, 0, false
	}
	g, isUnit := dateUnits[s.tok(j)]
	if !isUnit || g == GranularitySeason {
		return DateSpan{}, 0, false
	}
	end := j + 1
	if s.low[start] != "in" {
		end = j + 3
	} else {
		start++ // the span starts at the quantity, "in" stays outside
	}
	from, until := s.shift(s.day, g, n)
	sp := s.span(start, end, from, until, g, true)
	sp.Approximate = approx
	if approx || g == GranularityWeek || g == GranularityWeekend {
		sp.Label = s.words(i, j+1) + " after " + FormatDay(s.day)
	}
	return sp, end, true
}

// matchLastNext: last/next/this/past/coming + week, weekend, month, year,
// season, weekday or month name; "this past weekend"; "over the weekend";
// "earlier this month"; "later this year".
func (s *dateScanner) matchLastNext(i int) (DateSpan, int, bool) {
	start := i
	w := s.low[i]
	dir := 0
	switch w {
	case "last", "past", "previous":
		dir = -1
	case "next", "following":
		dir = 1
	case "this", "coming":
		if s.tok(i+1) == "past" {
			dir = -1
			i++
		} else if s.tok(i+1) == "coming" {
			i++
		}
	case "earlier", "later":
		if s.tok(i+1) != "this" {
			return DateSpan{}, 0, false
		}
		i++
	case "over":
		if s.tok(i+1) == "the" && (s.tok(i+2) == "weekend") {
			sat := thisWeekend(s.day)
			if !isWeekend(s.day) {
				sat = sat.AddDate(0, 0, -7)
			}
			sp := s.span(i+1, i+3, sat, sat.AddDate(0, 0, 2), GranularityWeekend, true)
			return sp, i + 3, true
		}
		return DateSpan{}, 0, false
	case "the":
		if s.tok(i+1) == "past" && (s.tok(i+2) == "weekend" || s.tok(i+2) == "week") {
			dir = -1
			i++
		} else {
			return DateSpan{}, 0, false
		}
	default:
		return DateSpan{}, 0, false
	}
	unit := s.tok(i + 1)
	end := i + 2
	if g, ok := dateUnits[unit]; ok && !strings.HasSuffix(unit, "s") || unit == "fortnight" {
		if g == GranularitySeason {
			return s.season(start, end, unit, dir), end, true
		}
		if unit == "fortnight" {
			g = GranularityWeek
		}
		var from, until time.Time
		if g == GranularityWeekend {
			sat := thisWeekend(s.day).AddDate(0, 0, 7*dir)
			from, until = sat, sat.AddDate(0, 0, 2)
		} else {
			from, until = s.shift(s.day, g, dir)
		}
		sp := s.span(start, end, from, until, g, true)
		if g == GranularityWeek {
			sp.Label = [...]string{"the week before ", "the week of ", "the week after "}[dir+1] + FormatDay(s.day)
		}
		return sp, end, true
	}
	if wd, ok := weekdayNames[unit]; ok {
		d := s.day
		switch {
		case dir < 0:
			d = d.AddDate(0, 0, -1)
			for d.Weekday() != wd {
				d = d.AddDate(0, 0, -1)
			}
		case dir > 0:
			d = d.AddDate(0, 0, 1)
			for d.Weekday() != wd {
				d = d.AddDate(0, 0, 1)
			}
		default:
			for d.Weekday() != wd {
				d = d.AddDate(0, 0, 1)
			}
		}
		return s.daySpan(start, end, d, true), end, true
	}
	if m, ok := monthNames[unit]; ok && (s.caps[i+1] || !ambiguousMonths[unit]) {
		y := s.day.Year()
		switch {
		case dir < 0 && m >= s.day.Month():
			y--
		case dir > 0 && m <= s.day.Month():
			y++
		}
		from := time.Date(y, m, 1, 0, 0, 0, 0, s.ref.Location())
		return s.span(start, end, from, from.AddDate(0, 1, 0), GranularityMonth, true), end, true
	}
	return DateSpan{}, 0, false
}

// season resolves "last summer", "this winter", "next spring".
func (s *dateScanner) season(i, j int, name string, dir int) DateSpan {
	sm := seasonStart[name]
	y := s.day.Year()
	// The season that contains (or most recently started before) ref.
	start := time.Date(y, sm, 1, 0, 0, 0, 0, s.ref.Location())
	if start.After(s.day) {
		start = start.AddDate(-1, 0, 0)
	}
	inSeason := s.day.Before(start.AddDate(0, 3, 0))
	switch {
	case dir < 0 && inSeason:
		start = start.AddDate(-1, 0, 0)
	case dir > 0 || (dir == 0 && !inSeason):
		start = start.AddDate(1, 0, 0)
	}
	return s.span(i, j, start, start.AddDate(0, 3, 0), GranularitySeason, true)
}

// dayNumber reads a day of month: "8", "8th", "22nd".
func dayNumber(w string) (int, bool) {
	w = strings.TrimRight(w, "stndrh")
	v, err := strconv.Atoi(w)
	if err != nil || v < 1 || v > 31 {
		return 0, false
	}
	return v, true
}

// yearNumber reads a four-digit year between 1900 and 2099.
func yearNumber(w string) (int, bool) {
	if len(w) != 4 {
		return 0, false
	}
	v, err := strconv.Atoi(w)
	if err != nil || v < 1900 || v > 2099 {
		return 0, false
	}
	return v, true
}

// yearAfter reads an optional ", 2023" or "2023" at j.
func (s *dateScanner) yearAfter(j int) (int, int, bool) {
	k := j
	if s.tok(k) == "," {
		k++
	}
	if k < len(s.toks) && s.toks[k].Kind == Number {
		if y, ok := yearNumber(s.low[k]); ok && !notAfterYear[s.tok(k+1)] {
			return y, k + 1, true
		}
	}
	return 0, j, false
}

// matchDayMonth: "8 May 2023", "8 May, 2023", "8th of May", "the 8th of May".
func (s *dateScanner) matchDayMonth(i int) (DateSpan, int, bool) {
	start := i
	if s.low[i] == "the" {
		i++
	}
	if i >= len(s.toks) || s.toks[i].Kind != Number {
		return DateSpan{}, 0, false
	}
	d, ok := dayNumber(s.low[i])
	if !ok {
		return DateSpan{}, 0, false
	}
	j := i + 1
	if s.tok(j) == "of" {
		j++
	}
	m, ok := monthNames[s.tok(j)]
	if !ok || (ambiguousMonths[s.tok(j)] && !s.caps[j]) {
		return DateSpan{}, 0, false
	}
	if start != i && s.tok(i+1) != "of" {
		start = i // "the 8 May" is odd; keep "the" outside
	}
	return s.finishDay(start, j+1, d, m)
}

// matchDayOfMonth: "on the 19th", "by the 3rd", "until the 21st": a day
// of the month said alone, with an ordinal suffix, after a preposition of
// time (a bare "the 3rd" is too often a rank). The month is the nearest
// one whose day it is in the sentence's tense: this month's day, or next
// month's when it has passed (last month's in the past tense).
func (s *dateScanner) matchDayOfMonth(i int) (DateSpan, int, bool) {
	if i == 0 || !dayOfMonthPreps[s.low[i-1]] || s.low[i] != "the" || i+1 >= len(s.toks) || s.toks[i+1].Kind != Number {
		return DateSpan{}, 0, false
	}
	w := s.low[i+1]
	if len(w) < 3 || !strings.HasSuffix(w, "st") && !strings.HasSuffix(w, "nd") && !strings.HasSuffix(w, "rd") && !strings.HasSuffix(w, "th") {
		return DateSpan{}, 0, false
	}
	d, ok := dayNumber(w)
	if !ok || d < 1 || d > 31 {
		return DateSpan{}, 0, false
	}
	if _, isMonth := monthNames[s.tok(i+2)]; isMonth || s.tok(i+2) == "of" {
		return DateSpan{}, 0, false // "the 8th of May" is matchDayMonth's
	}
	if i+2 < len(s.toks) && s.toks[i+2].Kind == Word && !afterDayOfMonth[s.low[i+2]] {
		return DateSpan{}, 0, false // "on the 3rd floor", "on the 2nd try": a rank
	}
	y, m := s.day.Year(), s.day.Month()
	switch t := s.tenseAt(i); {
	case t < 0 && d > s.day.Day():
		m--
	case t >= 0 && d < s.day.Day():
		m++
	}
	day := time.Date(y, m, 1, 0, 0, 0, 0, s.ref.Location())
	if d > daysIn(day.Month(), day.Year()) {
		return DateSpan{}, 0, false
	}
	day = day.AddDate(0, 0, d-1)
	return s.daySpan(i, i+2, day, true), i + 2, true
}

// afterDayOfMonth are the words that may follow "the 19th" as a day.
var afterDayOfMonth = map[string]bool{"at": true, "and": true, "or": true, "in": true, "for": true, "to": true,
	"when": true, "so": true, "because": true, "but": true, "then": true, "instead": true, "now": true, "too": true}

// dayOfMonthPreps may stand before "the 19th" as a day of the month.
var dayOfMonthPreps = map[string]bool{"on": true, "by": true, "until": true, "till": true, "til": true, "from": true,
	"before": true, "after": true, "since": true}

// matchMonthDay: "May 8, 2023", "May 8th".
func (s *dateScanner) matchMonthDay(i int) (DateSpan, int, bool) {
	m, ok := monthNames[s.low[i]]
	if !ok || i+1 >= len(s.toks) || s.toks[i+1].Kind != Number {
		return DateSpan{}, 0, false
	}
	if ambiguousMonths[s.low[i]] && !s.caps[i] {
		return DateSpan{}, 0, false
	}
	d, ok := dayNumber(s.low[i+1])
	if !ok {
		return DateSpan{}, 0, false
	}
	return s.finishDay(i, i+2, d, m)
}

// finishDay completes a day-month match with an optional year, inferring
// the year from the sentence's tense when it is missing.
func (s *dateScanner) finishDay(i, j, d int, m time.Month) (DateSpan, int, bool) {
	y, next, hasYear := s.yearAfter(j)
	relative := false
	if !hasYear {
		relative = true
		y = s.inferYear(i, m, d)
	}
	if d > daysIn(m, y) {
		return DateSpan{}, 0, false
	}
	day := time.Date(y, m, d, 0, 0, 0, 0, s.ref.Location())
	return s.daySpan(i, next, day, relative), next, true
}

func daysIn(m time.Month, y int) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// inferYear picks the year of a date given without one (see FindDates).
func (s *dateScanner) inferYear(i int, m time.Month, d int) int {
	y := s.day.Year()
	cand := time.Date(y, m, max(d, 1), 0, 0, 0, 0, s.ref.Location())
	if d == 0 {
		// Month precision: compare whole months.
		cand = time.Date(y, m, 1, 0, 0, 0, 0, s.ref.Location())
		cur := time.Date(y, s.day.Month(), 1, 0, 0, 0, 0, s.ref.Location())
		switch t := s.tenseAt(i); {
		case t < 0 && cand.After(cur):
			return y - 1
		case t > 0 && cand.Before(cur):
			return y + 1
		case t == 0:
			return nearestYear(cur, m)
		}
		return y
	}
	switch t := s.tenseAt(i); {
	case t < 0 && cand.After(s.day):
		return y - 1
	case t > 0 && cand.Before(s.day):
		return y + 1
	case t == 0:
		diff := cand.Sub(s.day).Hours() / 24
		if diff > 183 {
			return y - 1
		}
		if diff < -183 {
			return y + 1
		}
	}
	return y
}

// nearestYear picks the year that puts month m closest to cur.
func nearestYear(cur time.Time, m time.Month) int {
	y := cur.Year()
	diff := int(m) - int(cur.Month())
	switch {
	case diff > 6:
		return y - 1
	case diff < -6:
		return y + 1
	}
	return y
}

// tenseAt looks at the sentence around token i for cues of past (-1) or
// future (+1) time; 0 means none or both.
func (s *dateScanner) tenseAt(i int) int {
	lo, hi := i, i
	for lo > 0 && !isSentenceEnd(s.toks[lo-1]) {
		lo--
	}
	for hi < len(s.toks) && !isSentenceEnd(s.toks[hi]) {
		hi++
	}
	past, future := 0, 0
	for k := lo; k < hi; k++ {
		w := s.low[k]
		switch {
		case futureCues[w] || strings.HasSuffix(w, "'ll"):
			future++
		case plannedMoves[w] && k > lo && (progressiveBe[s.low[k-1]] || strings.HasSuffix(s.low[k-1], "'re") ||
			strings.HasSuffix(s.low[k-1], "'m") || strings.HasSuffix(s.low[k-1], "’re") || strings.HasSuffix(s.low[k-1], "’m")):
			// "We're moving to Canada in March": the progressive of a move
			// or a trip is a plan
			future++
		case w == "got" && k > lo && (s.low[k-1] == "have" || s.low[k-1] == "has" || strings.HasSuffix(s.low[k-1], "'ve") ||
			strings.HasSuffix(s.low[k-1], "’ve")):
			// "I've got my driving test on the 19th" has it now
		case pastCues[w] || (len(w) > 4 && strings.HasSuffix(w, "ed") && s.toks[k].Kind == Word && k > lo):
			past++
		}
	}
	switch {
	case past > future:
		return -1
	case future > past:
		return 1
	}
	return 0
}

func isSentenceEnd(t Token) bool {
	return t.Kind == Punct && strings.ContainsAny(t.Text, ".!?…")
}

// matchMonthYear: "May 2023", "summer of 2022" is handled by matchSeasonYear.
func (s *dateScanner) matchMonthYear(i int) (DateSpan, int, bool) {
	m, ok := monthNames[s.low[i]]
	if !ok {
		return DateSpan{}, 0, false
	}
	j := i + 1
	if s.tok(j) == "of" {
		j++
	}
	y, next, hasYear := s.yearAfter(j)
	if !hasYear {
		return DateSpan{}, 0, false
	}
	if ambiguousMonths[s.low[i]] && !s.caps[i] {
		return DateSpan{}, 0, false
	}
	from := time.Date(y, m, 1, 0, 0, 0, 0, s.ref.Location())
	return s.span(i, next, from, from.AddDate(0, 1, 0), GranularityMonth, false), next, true
}

// matchSeasonYear: "summer 2023", "summer of 2022".
func (s *dateScanner) matchSeasonYear(i int) (DateSpan, int, bool) {
	sm, ok := seasonStart[s.low[i]]
	if !ok {
		return DateSpan{}, 0, false
	}
	j := i + 1
	if s.tok(j) == "of" {
		j++
	}
	y, next, hasYear := s.yearAfter(j)
	if !hasYear {
		return DateSpan{}, 0, false
	}
	from := time.Date(y, sm, 1, 0, 0, 0, 0, s.ref.Location())
	return s.span(i, next, from, from.AddDate(0, 3, 0), GranularitySeason, false), next, true
}

// matchISO: "2023-05-08", "2023-05", "05/08/2023" (day first when the first
// part exceeds 12, otherwise month first, as in US usage).
func (s *dateScanner) matchISO(i int) (DateSpan, int, bool) {
	if s.toks[i].Kind != Number {
		return DateSpan{}, 0, false
	}
	w := s.low[i]
	if parts := strings.Split(w, "-"); len(parts) >= 2 && len(parts) <= 3 && len(parts[0]) == 4 {
		y, ok := yearNumber(parts[0])
		mo, err := strconv.Atoi(parts[1])
		if !ok || err != nil || mo < 1 || mo > 12 {
			return DateSpan{}, 0, false
		}
		if len(parts) == 2 {
			from := time.Date(y, time.Month(mo), 1, 0, 0, 0, 0, s.ref.Location())
			return s.span(i, i+1, from, from.AddDate(0, 1, 0), GranularityMonth, false), i + 1, true
		}
		d, err := strconv.Atoi(strings.SplitN(parts[2], "t", 2)[0])
		if err != nil || d < 1 || d > daysIn(time.Month(mo), y) {
			return DateSpan{}, 0, false
		}
		return s.daySpan(i, i+1, time.Date(y, time.Month(mo), d, 0, 0, 0, 0, s.ref.Location()), false), i + 1, true
	}
	if parts := strings.Split(w, "/"); len(parts) == 3 {
		a, e1 := strconv.Atoi(parts[0])
		b, e2 := strconv.Atoi(parts[1])
		y, e3 := strconv.Atoi(parts[2])
		if e1 != nil || e2 != nil || e3 != nil {
			return DateSpan{}, 0, false
		}
		if y < 100 {
			y += 2000
		}
		mo, d := a, b
		if a > 12 {
			mo, d = b, a
		}
		if y < 1900 || y > 2099 || mo < 1 || mo > 12 || d < 1 || d > daysIn(time.Month(mo), y) {
			return DateSpan{}, 0, false
		}
		return s.daySpan(i, i+1, time.Date(y, time.Month(mo), d, 0, 0, 0, 0, s.ref.Location()), false), i + 1, true
	}
	return DateSpan{}, 0, false
}

// matchBareMonth: "in January", "since March", "mid-May", "early June".
func (s *dateScanner) matchBareMonth(i int) (DateSpan, int, bool) {
	w := s.low[i]
	j := i
	if strings.HasPrefix(w, "mid-") {
		w = strings.TrimPrefix(w, "mid-")
	} else {
		if !monthPrepositions[w] {
			return DateSpan{}, 0, false
		}
		j = i + 1
		if s.tok(j) == "of" || s.tok(j) == "in" {
			j++
		}
		w = s.tok(j)
	}
	m, ok := monthNames[w]
	mid := strings.HasPrefix(s.low[i], "mid-")
	if !ok || j >= len(s.toks) || (ambiguousMonths[w] && !s.caps[j] && !mid) || len(w) < 3 {
		return DateSpan{}, 0, false
	}
	if _, _, hasYear := s.yearAfter(j + 1); hasYear && !mid {
		return DateSpan{}, 0, false // "in May 2023": matchMonthYear takes it
	}
	if _, isDay := dayNumber(s.tok(j + 1)); isDay && j+1 < len(s.toks) && s.toks[j+1].Kind == Number && !mid {
		return DateSpan{}, 0, false // "since May 8": matchMonthDay takes it
	}
	y := s.inferYear(j, m, 0)
	from := time.Date(y, m, 1, 0, 0, 0, 0, s.ref.Location())
	start := j
	if mid {
		start = i
	}
	return s.span(start, j+1, from, from.AddDate(0, 1, 0), GranularityMonth, true), j + 1, true
}

// matchBareYear: "in 2022", "since 2016", "back in 2019".
func (s *dateScanner) matchBareYear(i int) (DateSpan, int, bool) {
	if !yearPrepositions[s.low[i]] || i+1 >= len(s.toks) || s.toks[i+1].Kind != Number {
		return DateSpan{}, 0, false
	}
	y, ok := yearNumber(s.low[i+1])
	if !ok || notAfterYear[s.tok(i+2)] {
		return DateSpan{}, 0, false
	}
	from := time.Date(y, 1, 1, 0, 0, 0, 0, s.ref.Location())
	return s.span(i+1, i+2, from, from.AddDate(1, 0, 0), GranularityYear, false), i + 2, true
}

// matchAnchored reads the labels this package writes, which are relative to
// an explicit day: "the week before 9 June 2023", "two weeks before 9 June
// 2023", "the week of 9 June 2023", "the weekend of 15–16 July 2023", "the
// Friday before 15 July 2023", "a few days before 12 July 2023".
func (s *dateScanner) matchAnchored(i int) (DateSpan, int, bool) {
	n, approx, j, ok := 1, false, i+1, s.low[i] == "the"
	if !ok {
		n, approx, j, ok = s.quantity(i)
		if !ok {
			return DateSpan{}, 0, false
		}
	}
	unit := s.tok(j)
	g, isUnit := dateUnits[unit]
	wd, isWeekday := weekdayNames[unit]
	if (!isUnit || g == GranularitySeason) && !isWeekday {
		return DateSpan{}, 0, false
	}
	rel := s.tok(j + 1)
	if rel != "before" && rel != "after" && rel != "of" {
		return DateSpan{}, 0, false
	}
	k := j + 2
	// The anchor: a full day, or a day range "15–16 July 2023".
	ad, ok := dayNumber(s.tok(k))
	if !ok || k >= len(s.toks) || s.toks[k].Kind != Number {
		return DateSpan{}, 0, false
	}
	if strings.Contains(s.low[k], "-") {
		ad, ok = dayNumber(strings.SplitN(s.low[k], "-", 2)[0])
		if !ok {
			return DateSpan{}, 0, false
		}
	} else if s.tok(k+1) == "–" || s.tok(k+1) == "-" {
		k += 2
		if _, ok := dayNumber(s.tok(k)); !ok {
			return DateSpan{}, 0, false
		}
	}
	am, ok := monthNames[s.tok(k+1)]
	if !ok {
		return DateSpan{}, 0, false
	}
	ay, next, hasYear := s.yearAfter(k + 2)
	if !hasYear || ad > daysIn(am, ay) {
		return DateSpan{}, 0, false
	}
	anchor := time.Date(ay, am, ad, 0, 0, 0, 0, s.ref.Location())
	var from, until time.Time
	switch {
	case isWeekday:
		if rel == "of" {
			return DateSpan{}, 0, false
		}
		d := anchor
		step := -1
		if rel == "after" {
			step = 1
		}
		d = d.AddDate(0, 0, step)
		for d.Weekday() != wd {
			d = d.AddDate(0, 0, step)
		}
		from, until, g = d, d.AddDate(0, 0, 1), GranularityDay
	case rel == "of":
		if g == GranularityWeekend {
			from = thisWeekend(anchor)
			if anchor.Weekday() != time.Saturday && anchor.Weekday() != time.Sunday {
				// "the weekend of 15–16 July" names its Saturday.
				from = anchor
			}
			until = from.AddDate(0, 0, 2)
		} else {
			from, until = s.shift(anchor, g, 0)
		}
	default:
		if rel == "before" {
			n = -n
		}
		if g == GranularityWeekend {
			sat := thisWeekend(anchor)
			if n < 0 {
				sat = sat.AddDate(0, 0, 7*n)
			} else {
				sat = sat.AddDate(0, 0, 7*(n-1))
				if isWeekend(anchor) {
					sat = sat.AddDate(0, 0, 7)
				}
			}
			from, until = sat, sat.AddDate(0, 0, 2)
		} else {
			from, until = s.shift(anchor, g, n)
		}
	}
	sp := s.span(i, next, from, until, g, false)
	sp.Approximate = approx
	sp.Label = strings.Join(strings.Fields(sp.Text), " ")
	if strings.HasPrefix(sp.Label, "The ") {
		sp.Label = "the " + sp.Label[4:]
	}
	return sp, next, true
}

// attachAnnotations gives a relative span that is directly followed by a
// parenthesized date the resolution of that date, and drops the
// parenthesized span from the list.
func (s *dateScanner) attachAnnotations(spans []DateSpan) []DateSpan {
	out := spans[:0]
	for k := 0; k < len(spans); k++ {
		sp := spans[k]
		if k+1 < len(spans) {
			nx := spans[k+1]
			between := strings.TrimSpace(s.text[sp.End:nx.Start])
			after := strings.TrimSpace(s.text[nx.End:])
			if between == "(" && strings.HasPrefix(after, ")") && !nx.Relative {
				sp.Time, sp.Until, sp.Granularity = nx.Time, nx.Until, nx.Granularity
				sp.Approximate = nx.Approximate
				sp.Label = nx.Label
				sp.annotated = true
				k++
			}
		}
		if !sp.annotated && sp.Relative {
			s.attachYear(&sp)
		}
		out = append(out, sp)
	}
	return out
}

// words joins the folded tokens [i, j) with single spaces.
func (s *dateScanner) words(i, j int) string {
	return strings.Join(s.low[i:j], " ")
}

// defaultLabel is the absolute form of a span at its granularity.
func defaultLabel(sp DateSpan) string {
	t := sp.Time
	switch sp.Granularity {
	case GranularityDay:
		return FormatDay(t)
	case GranularityMonth:
		return FormatMonth(t)
	case GranularityYear:
		return strconv.Itoa(t.Year())
	case GranularitySeason:
		return seasonName(t.Month()) + " " + strconv.Itoa(t.Year())
	case GranularityWeekend:
		return "the weekend of " + rangeLabel(t, t.AddDate(0, 0, 1))
	case GranularityWeek:
		return "the week of " + FormatDay(t)
	}
	return FormatDay(t)
}

// rangeLabel writes two days compactly: "15–16 July 2023", "30 June–1 July
// 2023", "31 December 2022–1 January 2023".
func rangeLabel(a, b time.Time) string {
	switch {
	case a.Year() != b.Year():
		return FormatDay(a) + "–" + FormatDay(b)
	case a.Month() != b.Month():
		return strconv.Itoa(a.Day()) + " " + a.Month().String() + "–" + FormatDay(b)
	}
	return strconv.Itoa(a.Day()) + "–" + FormatDay(b)
}

func seasonName(m time.Month) string {
	switch m {
	case time.March, time.April, time.May:
		return "spring"
	case time.June, time.July, time.August:
		return "summer"
	case time.September, time.October, time.November:
		return "autumn"
	}
	return "winter"
}

// attachYear handles "last year (2022)": a bare year in parentheses is not a
// span of its own (a bare number is too ambiguous), but it is an annotation.
func (s *dateScanner) attachYear(sp *DateSpan) {
	rest := strings.TrimLeft(s.text[sp.End:], " ")
	if !strings.HasPrefix(rest, "(") {
		return
	}
	end := strings.IndexByte(rest, ')')
	if end < 0 {
		return
	}
	y, ok := yearNumber(strings.TrimSpace(rest[1:end]))
	if !ok {
		return
	}
	from := time.Date(y, 1, 1, 0, 0, 0, 0, s.ref.Location())
	sp.Time, sp.Until, sp.Granularity = from, from.AddDate(1, 0, 0), GranularityYear
	sp.Label = strconv.Itoa(y)
	sp.annotated = true
}
