package nlp

import (
	"strings"
	"testing"
	"time"
)

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// Monday 8 May 2023, 13:56 (the first LoCoMo session).
var refMon = time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)

func TestFindDates(t *testing.T) {
	thu := time.Date(2023, 5, 25, 13, 14, 0, 0, time.UTC) // Thursday
	sat := time.Date(2023, 7, 15, 13, 51, 0, 0, time.UTC) // Saturday
	cases := []struct {
		name   string
		text   string
		ref    time.Time
		expr   string
		from   time.Time
		until  time.Time
		g      Granularity
		rel    bool
		approx bool
		label  string
	}{
		{"yesterday", "I went to a support group yesterday.", refMon, "yesterday", day(2023, 5, 7), day(2023, 5, 8), GranularityDay, true, false, "7 May 2023"},
		{"today", "Today was long", refMon, "Today", day(2023, 5, 8), day(2023, 5, 9), GranularityDay, true, false, "8 May 2023"},
		{"tonight", "we eat out tonight", refMon, "tonight", day(2023, 5, 8), day(2023, 5, 9), GranularityDay, true, false, "8 May 2023"},
		{"tomorrow", "see you tomorrow", refMon, "tomorrow", day(2023, 5, 9), day(2023, 5, 10), GranularityDay, true, false, "9 May 2023"},
		{"last night", "Last night was amazing", refMon, "Last night", day(2023, 5, 7), day(2023, 5, 8), GranularityDay, true, false, "7 May 2023"},
		{"day before yesterday", "the day before yesterday it rained", refMon, "the day before yesterday", day(2023, 5, 6), day(2023, 5, 7), GranularityDay, true, false, "6 May 2023"},
		{"two days ago", "I went to a conference two days ago", refMon, "two days ago", day(2023, 5, 6), day(2023, 5, 7), GranularityDay, true, false, "6 May 2023"},
		{"3 days ago digits", "3 days ago", refMon, "3 days ago", day(2023, 5, 5), day(2023, 5, 6), GranularityDay, true, false, "5 May 2023"},
		{"a few days ago", "a few days ago I met her", refMon, "a few days ago", day(2023, 5, 5), day(2023, 5, 6), GranularityDay, true, true, "a few days before 8 May 2023"},
		{"a couple of weeks ago", "a couple of weeks ago", refMon, "a couple of weeks ago", day(2023, 4, 24), day(2023, 5, 1), GranularityWeek, true, true, "a couple of weeks before 8 May 2023"},
		{"two weekends ago", "camping two weekends ago", day(2023, 7, 17), "two weekends ago", day(2023, 7, 8), day(2023, 7, 10), GranularityWeekend, true, false, "two weekends before 17 July 2023"},
		{"three months ago", "three months ago", refMon, "three months ago", day(2023, 2, 1), day(2023, 3, 1), GranularityMonth, true, false, "February 2023"},
		{"ten years ago", "ten years ago", refMon, "ten years ago", day(2013, 1, 1), day(2014, 1, 1), GranularityYear, true, false, "2013"},
		{"day of the month ahead", "My exam is on the 19th.", refMon, "the 19th", day(2023, 5, 19), day(2023, 5, 20), GranularityDay, true, false, "19 May 2023"},
		{"day of the month passed is next month's", "The party is on the 3rd.", refMon, "the 3rd", day(2023, 6, 3), day(2023, 6, 4), GranularityDay, true, false, "3 June 2023"},
		{"day of the month in the past tense", "We moved in on the 20th.", refMon, "the 20th", day(2023, 4, 20), day(2023, 4, 21), GranularityDay, true, false, "20 April 2023"},
		{"a move in the progressive is a plan", "We're moving to Canada in March.", day(2023, 9, 14), "March", day(2024, 3, 1), day(2024, 4, 1), GranularityMonth, true, false, "March 2024"},
		{"have got is the present", "I've got my scan on the 2nd.", refMon, "the 2nd", day(2023, 6, 2), day(2023, 6, 3), GranularityDay, true, false, "2 June 2023"},
		{"last week", "my school event last week", day(2023, 6, 9), "last week", day(2023, 5, 29), day(2023, 6, 5), GranularityWeek, true, false, "the week before 9 June 2023"},
		{"this week", "Guess what I did this week?", day(2023, 8, 23), "this week", day(2023, 8, 21), day(2023, 8, 28), GranularityWeek, true, false, "the week of 23 August 2023"},
		{"next week", "next week is busy", refMon, "next week", day(2023, 5, 15), day(2023, 5, 22), GranularityWeek, true, false, "the week after 8 May 2023"},
		{"last month", "I moved to Berlin last month.", time.Date(2024, 9, 14, 18, 30, 0, 0, time.UTC), "last month", day(2024, 8, 1), day(2024, 9, 1), GranularityMonth, true, false, "August 2024"},
		{"next month", "going camping next month", thu, "next month", day(2023, 6, 1), day(2023, 7, 1), GranularityMonth, true, false, "June 2023"},
		{"this month", "a conference this month", thu, "this month", day(2023, 5, 1), day(2023, 6, 1), GranularityMonth, true, false, "May 2023"},
		{"last year", "I painted it last year", refMon, "last year", day(2022, 1, 1), day(2023, 1, 1), GranularityYear, true, false, "2022"},
		{"next year", "next year", refMon, "next year", day(2024, 1, 1), day(2025, 1, 1), GranularityYear, true, false, "2024"},
		{"last Saturday", "I ran a race last Saturday", thu, "last Saturday", day(2023, 5, 20), day(2023, 5, 21), GranularityDay, true, false, "20 May 2023"},
		{"last Friday on a Saturday", "Last Friday I went", sat, "Last Friday", day(2023, 7, 14), day(2023, 7, 15), GranularityDay, true, false, "14 July 2023"},
		{"last Fri abbreviation", "Last Fri I took the kids", sat, "Last Fri", day(2023, 7, 14), day(2023, 7, 15), GranularityDay, true, false, "14 July 2023"},
		{"last Saturday on a Saturday", "last Saturday", sat, "last Saturday", day(2023, 7, 8), day(2023, 7, 9), GranularityDay, true, false, "8 July 2023"},
		{"next Friday", "next Friday we fly", thu, "next Friday", day(2023, 5, 26), day(2023, 5, 27), GranularityDay, true, false, "26 May 2023"},
		{"this Friday", "this Friday", thu, "this Friday", day(2023, 5, 26), day(2023, 5, 27), GranularityDay, true, false, "26 May 2023"},
		{"last weekend on Monday", "Last weekend I joined", day(2023, 7, 17), "Last weekend", day(2023, 7, 15), day(2023, 7, 17), GranularityWeekend, true, false, "the weekend of 15–16 July 2023"},
		{"last weekend on Sunday", "last weekend", day(2023, 7, 16), "last weekend", day(2023, 7, 8), day(2023, 7, 10), GranularityWeekend, true, false, "the weekend of 8–9 July 2023"},
		{"this weekend on Thursday", "this weekend", thu, "this weekend", day(2023, 5, 27), day(2023, 5, 29), GranularityWeekend, true, false, "the weekend of 27–28 May 2023"},
		{"this weekend on Saturday", "this weekend", sat, "this weekend", day(2023, 7, 15), day(2023, 7, 17), GranularityWeekend, true, false, "the weekend of 15–16 July 2023"},
		{"this past weekend", "that roadtrip this past weekend", day(2023, 10, 20), "this past weekend", day(2023, 10, 14), day(2023, 10, 16), GranularityWeekend, true, false, "the weekend of 14–15 October 2023"},
		{"over the weekend", "over the weekend we hiked", day(2023, 10, 20), "the weekend", day(2023, 10, 14), day(2023, 10, 16), GranularityWeekend, true, false, "the weekend of 14–15 October 2023"},
		{"weekend across months", "last weekend", day(2023, 7, 3), "last weekend", day(2023, 7, 1), day(2023, 7, 3), GranularityWeekend, true, false, "the weekend of 1–2 July 2023"},
		{"last summer", "last summer", refMon, "last summer", day(2022, 6, 1), day(2022, 9, 1), GranularitySeason, true, false, "summer 2022"},
		{"this summer", "this summer", refMon, "this summer", day(2023, 6, 1), day(2023, 9, 1), GranularitySeason, true, false, "summer 2023"},
		{"earlier this year", "earlier this year", refMon, "earlier this year", day(2023, 1, 1), day(2024, 1, 1), GranularityYear, true, false, "2023"},
		{"in two weeks", "we leave in two weeks", refMon, "two weeks", day(2023, 5, 22), day(2023, 5, 29), GranularityWeek, true, false, "two weeks after 8 May 2023"},
		{"in 3 days", "in 3 days", refMon, "3 days", day(2023, 5, 11), day(2023, 5, 12), GranularityDay, true, false, "11 May 2023"},
		{"in January past", "I got married to Sam in January.", time.Date(2025, 2, 10, 10, 0, 0, 0, time.UTC), "January", day(2025, 1, 1), day(2025, 2, 1), GranularityMonth, true, false, "January 2025"},
		{"in March future", "I'm planning a trip in March.", time.Date(2025, 2, 10, 10, 0, 0, 0, time.UTC), "March", day(2025, 3, 1), day(2025, 4, 1), GranularityMonth, true, false, "March 2025"},
		{"in November past across year", "We met in November.", time.Date(2025, 2, 10, 10, 0, 0, 0, time.UTC), "November", day(2024, 11, 1), day(2024, 12, 1), GranularityMonth, true, false, "November 2024"},
		{"in December future across year", "I will visit in December.", refMon, "December", day(2023, 12, 1), day(2024, 1, 1), GranularityMonth, true, false, "December 2023"},
		{"on 8 May", "my birthday is on 8 May", day(2023, 5, 1), "8 May", day(2023, 5, 8), day(2023, 5, 9), GranularityDay, true, false, "8 May 2023"},
		{"the 3rd of June past", "I went there on the 3rd of June", day(2023, 8, 1), "the 3rd of June", day(2023, 6, 3), day(2023, 6, 4), GranularityDay, true, false, "3 June 2023"},
		{"December 20 past tense", "We married on December 20", day(2023, 1, 10), "December 20", day(2022, 12, 20), day(2022, 12, 21), GranularityDay, true, false, "20 December 2022"},
		{"May 8, 2023", "It was May 8, 2023.", refMon, "May 8, 2023", day(2023, 5, 8), day(2023, 5, 9), GranularityDay, false, false, "8 May 2023"},
		{"8 May 2023", "on 8 May 2023", refMon, "8 May 2023", day(2023, 5, 8), day(2023, 5, 9), GranularityDay, false, false, "8 May 2023"},
		{"8 May, 2023", "1:56 pm on 8 May, 2023", refMon, "8 May, 2023", day(2023, 5, 8), day(2023, 5, 9), GranularityDay, false, false, "8 May 2023"},
		{"ISO", "due 2023-05-08.", refMon, "2023-05-08", day(2023, 5, 8), day(2023, 5, 9), GranularityDay, false, false, "8 May 2023"},
		{"ISO month", "since 2023-02", refMon, "2023-02", day(2023, 2, 1), day(2023, 3, 1), GranularityMonth, false, false, "February 2023"},
		{"slash day first", "on 25/12/2022", refMon, "25/12/2022", day(2022, 12, 25), day(2022, 12, 26), GranularityDay, false, false, "25 December 2022"},
		{"May 2023", "back in May 2023", refMon, "May 2023", day(2023, 5, 1), day(2023, 6, 1), GranularityMonth, false, false, "May 2023"},
		{"in 2022", "I read it in 2022", refMon, "2022", day(2022, 1, 1), day(2023, 1, 1), GranularityYear, false, false, "2022"},
		{"since 2016", "painting since 2016", refMon, "2016", day(2016, 1, 1), day(2017, 1, 1), GranularityYear, false, false, "2016"},
		{"summer of 2022", "the summer of 2022", refMon, "summer of 2022", day(2022, 6, 1), day(2022, 9, 1), GranularitySeason, false, false, "summer 2022"},
		{"anchored week before", "the week before 9 June 2023", refMon, "the week before 9 June 2023", day(2023, 5, 29), day(2023, 6, 5), GranularityWeek, false, false, "the week before 9 June 2023"},
		{"anchored weekday", "The Friday before 15 July 2023", refMon, "The Friday before 15 July 2023", day(2023, 7, 14), day(2023, 7, 15), GranularityDay, false, false, "the Friday before 15 July 2023"},
		{"anchored weekend range", "the weekend of 15–16 July 2023", refMon, "the weekend of 15–16 July 2023", day(2023, 7, 15), day(2023, 7, 17), GranularityWeekend, false, false, "the weekend of 15–16 July 2023"},
		{"anchored approx", "a few days before 12 July 2023", refMon, "a few days before 12 July 2023", day(2023, 7, 9), day(2023, 7, 10), GranularityDay, false, true, "a few days before 12 July 2023"},
		{"mid-May", "mid-May works", day(2023, 4, 1), "mid-May", day(2023, 5, 1), day(2023, 6, 1), GranularityMonth, true, false, "May 2023"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			spans := FindDates(c.text, c.ref)
			if len(spans) != 1 {
				t.Fatalf("FindDates(%q) found %d spans: %+v", c.text, len(spans), spans)
			}
			sp := spans[0]
			if sp.Text != c.expr || c.text[sp.Start:sp.End] != sp.Text {
				t.Errorf("expression = %q (offsets %d..%d), want %q", sp.Text, sp.Start, sp.End, c.expr)
			}
			if !sp.Time.Equal(c.from) || !sp.Until.Equal(c.until) {
				t.Errorf("period = %s..%s, want %s..%s", sp.Time.Format(time.DateOnly), sp.Until.Format(time.DateOnly),
					c.from.Format(time.DateOnly), c.until.Format(time.DateOnly))
			}
			if sp.Granularity != c.g || sp.Relative != c.rel || sp.Approximate != c.approx {
				t.Errorf("granularity/relative/approx = %s/%v/%v, want %s/%v/%v", sp.Granularity, sp.Relative, sp.Approximate, c.g, c.rel, c.approx)
			}
			if sp.Label != c.label {
				t.Errorf("label = %q, want %q", sp.Label, c.label)
			}
		})
	}
}

// The labels FindDates writes must parse back to the same period, so that a
// rewritten summary can be resolved again without drift.
func TestLabelsRoundTrip(t *testing.T) {
	exprs := []string{"yesterday", "last week", "this week", "next week", "last weekend", "two weekends ago",
		"a few days ago", "two weeks ago", "last month", "last year", "last summer", "in two weeks", "last Friday"}
	for _, ref := range []time.Time{refMon, day(2023, 7, 16), day(2024, 1, 3)} {
		for _, e := range exprs {
			sp := FindDates(e, ref)
			if len(sp) != 1 {
				t.Fatalf("%q: %d spans", e, len(sp))
			}
			back := FindDates("("+sp[0].Label+")", ref.AddDate(1, 0, 0))
			if sp[0].Granularity == GranularityYear && len(back) == 0 {
				continue // bare years are annotations only (see TestResolveDatesIdempotent)
			}
			if len(back) != 1 || !back[0].Time.Equal(sp[0].Time) || back[0].Granularity != sp[0].Granularity {
				t.Errorf("ref %s: %q labelled %q re-parses as %+v", ref.Format(time.DateOnly), e, sp[0].Label, back)
			}
		}
	}
}

func TestFindDatesIgnoresNonDates(t *testing.T) {
	for _, text := range []string{
		"This may be the last time we talk.",
		"Next time bring this pic!",
		"I want to march with them",
		"My budget is 2000 euros.",
		"The last chat was fun, this one too.",
		"We were 2000 people there",
		"I spent 3 days there and 2 weeks in Rome",
		"Sunday roasts are the best",
		"I'll be there in a minute",
		"Our flat is on the 3rd floor.",
		"She came 2nd in the race.",
		"",
	} {
		if spans := FindDates(text, refMon); len(spans) != 0 {
			t.Errorf("FindDates(%q) = %+v, want none", text, spans)
		}
	}
}

func TestResolveDates(t *testing.T) {
	cases := []struct {
		in, want string
		ref      time.Time
	}{
		{"I went to a support group yesterday", "I went to a support group yesterday (7 May 2023)", refMon},
		{"Yesterday I took the kids to the museum, and last week we went camping.",
			"Yesterday (7 May 2023) I took the kids to the museum, and last week (the week before 8 May 2023) we went camping.", refMon},
		{"I moved to Berlin last month.", "I moved to Berlin last month (August 2024).", time.Date(2024, 9, 14, 18, 30, 0, 0, time.UTC)},
		{"It was on May 8, 2023 in 2023-05-08 form.", "It was on May 8, 2023 in 2023-05-08 form.", refMon},
		{"No dates here.", "No dates here.", refMon},
		{"on 8 May we met", "on 8 May (8 May 2023) we met", refMon},
	}
	for _, c := range cases {
		got, _ := ResolveDates(c.in, c.ref)
		if got != c.want {
			t.Errorf("ResolveDates(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// Resolving a rewritten text again, even at a later reference time, must
// neither add a second annotation nor change the resolved dates.
func TestResolveDatesIdempotent(t *testing.T) {
	text := "Yesterday I painted, last year I read it, last week I ran, two weekends ago we camped, a few days ago we met."
	once, first := ResolveDates(text, refMon)
	later := refMon.AddDate(0, 3, 0)
	twice, second := ResolveDates(once, later)
	if once != twice {
		t.Fatalf("second pass changed text:\n%q\n%q", once, twice)
	}
	if len(first) != len(second) {
		t.Fatalf("span counts differ: %d vs %d", len(first), len(second))
	}
	for i := range first {
		if !first[i].Time.Equal(second[i].Time) || !second[i].Annotated() {
			t.Errorf("span %q drifted: %s vs %s (annotated=%v)", first[i].Text, first[i].Time, second[i].Time, second[i].Annotated())
		}
	}
	if strings.Count(twice, "(") != 5 {
		t.Errorf("expected 5 annotations: %q", twice)
	}
}

func TestPhrase(t *testing.T) {
	cases := map[string]string{
		"yesterday":    "on 7 May 2023",
		"last month":   "in April 2023",
		"last year":    "in 2022",
		"last week":    "the week before 8 May 2023",
		"last weekend": "during the weekend of 6–7 May 2023",
		"last summer":  "in summer 2022",
	}
	for expr, want := range cases {
		if got := FindDates(expr, refMon)[0].Phrase(); got != want {
			t.Errorf("Phrase(%q) = %q, want %q", expr, got, want)
		}
	}
}

func TestParseTimestamp(t *testing.T) {
	cases := map[string]time.Time{
		"1:56 pm on 8 May, 2023":         time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC),
		"10:37 am on 27 June, 2023":      time.Date(2023, 6, 27, 10, 37, 0, 0, time.UTC),
		"12:09 am on 13 September, 2023": time.Date(2023, 9, 13, 0, 9, 0, 0, time.UTC),
		"2024-02-03T10:00:00Z":           time.Date(2024, 2, 3, 10, 0, 0, 0, time.UTC),
		"2024-02-03":                     time.Date(2024, 2, 3, 0, 0, 0, 0, time.UTC),
		"8 May 2023":                     time.Date(2023, 5, 8, 0, 0, 0, 0, time.UTC),
	}
	for in, want := range cases {
		got, err := ParseTimestamp(in)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseTimestamp(%q) = %s, %v; want %s", in, got, err, want)
		}
	}
	if _, err := ParseTimestamp("someday"); err == nil {
		t.Error("ParseTimestamp(someday) succeeded")
	}
}

func TestParseWeekdayAndMonth(t *testing.T) {
	for in, want := range map[string]time.Weekday{"Mondays": time.Monday, "thurs": time.Thursday, "Sunday": time.Sunday, "Tues.": time.Tuesday} {
		if got, ok := ParseWeekday(in); !ok || got != want {
			t.Errorf("ParseWeekday(%q) = %v %v", in, got, ok)
		}
	}
	if _, ok := ParseWeekday("someday"); ok {
		t.Error("ParseWeekday(someday) succeeded")
	}
	if m, ok := ParseMonth("Sept"); !ok || m != time.September {
		t.Errorf("ParseMonth(Sept) = %v %v", m, ok)
	}
}

func FuzzResolveDates(f *testing.F) {
	for _, s := range []string{"yesterday (7 May 2023)", "the weekend of 15–16 July 2023", "in 2 weeks", "31/02/2023",
		"the 31st of February", "a couple of", "last", "the week before 9", "(", "last year (", "2023-13-45", "in 0 days"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, spans := ResolveDates(s, refMon)
		prev := 0
		for _, sp := range spans {
			if sp.Start < prev || sp.End > len(s) || sp.Start >= sp.End || s[sp.Start:sp.End] != sp.Text {
				t.Fatalf("bad span %+v in %q", sp, s)
			}
			if !sp.Until.After(sp.Time) {
				t.Fatalf("empty period %+v", sp)
			}
			prev = sp.End
		}
		if len(out) < len(s) {
			t.Fatalf("rewrite lost text: %q -> %q", s, out)
		}
	})
}
