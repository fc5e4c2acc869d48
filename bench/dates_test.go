package main

import (
	"testing"
	"time"
)

func TestParseSessionTime(t *testing.T) {
	got, err := parseSessionTime("1:56 pm on 8 May, 2023")
	if err != nil || !got.Equal(time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)) {
		t.Errorf("got %v, %v", got, err)
	}
	got, err = parseSessionTime("12:40 am on 27 March, 2022")
	if err != nil || !got.Equal(time.Date(2022, 3, 27, 0, 40, 0, 0, time.UTC)) {
		t.Errorf("got %v, %v", got, err)
	}
	if _, err := parseSessionTime("yesterday"); err == nil {
		t.Error("want an error")
	}
}

func TestParseAnswerDate(t *testing.T) {
	for in, want := range map[string]answerDate{
		"2022": {Year: 2022}, "7 May 2023": {2023, 5, 7}, "May 2023": {Year: 2023, Month: 5},
		"December, 2023": {Year: 2023, Month: 12}, "August 9, 2022": {2022, 8, 9}, "November, 2023.": {Year: 2023, Month: 11},
		"in 2021": {Year: 2021}, "October 13th, 2023": {2023, 10, 13},
	} {
		if got, ok := parseAnswerDate(in); !ok || got != want {
			t.Errorf("parseAnswerDate(%q) = %+v, %v; want %+v", in, got, ok, want)
		}
	}
	for _, in := range []string{"The week before 9 June 2023", "two weeks", "summer 2023", "Januarty 5, 2024", "Seattle", "12"} {
		if got, ok := parseAnswerDate(in); ok {
			t.Errorf("parseAnswerDate(%q) = %+v, want not a date", in, got)
		}
	}
}

func TestDateFoundIn(t *testing.T) {
	day := answerDate{2023, 5, 7}
	for _, text := range []string{"On 7 May 2023 she went", "May 7, 2023", "7th May 2023", "(2023-05-07)", "may 7 2023"} {
		if !day.foundIn(text) {
			t.Errorf("%q should contain %+v", text, day)
		}
	}
	for _, text := range []string{"17 May 2023", "May 2023", "7 June 2023", "2023"} {
		if day.foundIn(text) {
			t.Errorf("%q should not contain %+v", text, day)
		}
	}
	month := answerDate{Year: 2023, Month: 5}
	for _, text := range []string{"in May 2023", "May, 2023", "on 21 May 2023", "May 21, 2023", "2023-05-21"} {
		if !month.foundIn(text) {
			t.Errorf("%q should contain %+v", text, month)
		}
	}
	if month.foundIn("May 2022") {
		t.Error("wrong year")
	}
	year := answerDate{Year: 2022}
	if !year.foundIn("back in 2022.") || year.foundIn("20221") || year.foundIn("12022") {
		t.Error("year matching")
	}
}
