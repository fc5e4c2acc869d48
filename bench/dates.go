package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// LoCoMo session times look like "1:56 pm on 8 May, 2023"; turns carry no
// time, so a turn's occurred_at is its session's time plus its index in
// seconds (benchmarks.md §6), which keeps the order and the day.
const locomoTimeLayout = "3:04 pm on 2 January, 2006"

func parseSessionTime(s string) (time.Time, error) {
	t, err := time.Parse(locomoTimeLayout, strings.TrimSpace(s))
	if err != nil {
		return time.Time{}, fmt.Errorf("session time %q: %w", s, err)
	}
	return t, nil
}

// monthNames is a constant table for date parsing and rendering.
var monthNames = [...]string{"january", "february", "march", "april", "may", "june", "july",
	"august", "september", "october", "november", "december"}

// answerDate is an absolute date stated by a category-2 answer, to the
// precision the answer gives (year, month or day).
type answerDate struct {
	Year, Month, Day int // Month and Day are 0 when not given
}

// parseAnswerDate recognizes answers that are one absolute date: "2022",
// "May 2023", "December, 2023", "7 May 2023", "August 9, 2022", optionally
// after "in"/"on" and with a final period. Relative answers ("The week
// before 9 June 2023") are not absolute dates and are left out: a returned
// text containing the anchor date would not show that the date was resolved.
func parseAnswerDate(answer string) (answerDate, bool) {
	s := strings.ToLower(strings.TrimSpace(answer))
	s = strings.TrimSuffix(s, ".")
	s = strings.ReplaceAll(s, ",", " ")
	f := strings.Fields(s)
	if len(f) > 0 && (f[0] == "in" || f[0] == "on") {
		f = f[1:]
	}
	year := func(w string) (int, bool) {
		y, err := strconv.Atoi(w)
		return y, err == nil && len(w) == 4 && y >= 1900 && y <= 2100
	}
	month := func(w string) (int, bool) {
		for i, m := range monthNames {
			if w == m {
				return i + 1, true
			}
		}
		return 0, false
	}
	day := func(w string) (int, bool) {
		for _, suf := range []string{"st", "nd", "rd", "th"} {
			w = strings.TrimSuffix(w, suf)
		}
		d, err := strconv.Atoi(w)
		return d, err == nil && d >= 1 && d <= 31
	}
	switch len(f) {
	case 1:
		if y, ok := year(f[0]); ok {
			return answerDate{Year: y}, true
		}
	case 2:
		m, ok1 := month(f[0])
		y, ok2 := year(f[1])
		if ok1 && ok2 {
			return answerDate{Year: y, Month: m}, true
		}
	case 3:
		if d, ok := day(f[0]); ok {
			if m, ok := month(f[1]); ok {
				if y, ok := year(f[2]); ok {
					return answerDate{Year: y, Month: m, Day: d}, true
				}
			}
		}
		if m, ok := month(f[0]); ok {
			if d, ok := day(f[1]); ok {
				if y, ok := year(f[2]); ok {
					return answerDate{Year: y, Month: m, Day: d}, true
				}
			}
		}
	}
	return answerDate{}, false
}

// foundIn reports whether text states the date in a common rendering
// ("7 May 2023", "May 7, 2023", "2023-05-07"; "May 2023", "2023-05";
// "2023"). A month-precision answer is also found by any day of that month.
func (d answerDate) foundIn(text string) bool {
	t := strings.ToLower(text)
	if d.Month == 0 {
		return containsPhrase(t, strconv.Itoa(d.Year))
	}
	m := monthNames[d.Month-1]
	y := strconv.Itoa(d.Year)
	iso := fmt.Sprintf("%04d-%02d", d.Year, d.Month)
	days := []int{d.Day}
	if d.Day == 0 {
		if containsPhrase(t, m+" "+y) || containsPhrase(t, m+", "+y) || containsPhrase(t, iso) {
			return true
		}
		days = days[:0]
		for i := 1; i <= 31; i++ {
			days = append(days, i)
		}
	}
	for _, dd := range days {
		ds := strconv.Itoa(dd)
		for _, form := range []string{
			ds + " " + m + " " + y, ds + " " + m + ", " + y, ds + ordinal(dd) + " " + m + " " + y,
			m + " " + ds + ", " + y, m + " " + ds + " " + y, m + " " + ds + ordinal(dd) + ", " + y,
			fmt.Sprintf("%s-%02d", iso, dd),
		} {
			if containsPhrase(t, form) {
				return true
			}
		}
	}
	return false
}

func ordinal(d int) string {
	switch {
	case d%100 >= 11 && d%100 <= 13:
		return "th"
	case d%10 == 1:
		return "st"
	case d%10 == 2:
		return "nd"
	case d%10 == 3:
		return "rd"
	}
	return "th"
}

// containsPhrase finds p in t as whole words: not preceded or followed by
// a letter or digit ("7 may 2023" is not in "17 may 2023").
func containsPhrase(t, p string) bool {
	alnum := func(b byte) bool { return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' }
	for i := 0; ; {
		j := strings.Index(t[i:], p)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(p)
		if (j == 0 || !alnum(t[j-1])) && (end == len(t) || !alnum(t[end])) {
			return true
		}
		i = j + 1
	}
}
