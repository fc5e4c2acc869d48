package offline

import (
	"slices"
	"testing"
)

// Each conjunct of a coordinated object gets the fact its first item gets,
// from the same turn, with the same dates and polarity.
func TestEnumerationConjunctsShareTheFact(t *testing.T) {
	cases := []struct {
		text  string
		wants []want
	}{
		{"I play the clarinet and the flute.", []want{
			{pred: "PRACTICES", obj: "clarinet"}, {pred: "PRACTICES", obj: "flute", says: "flute"}}},
		{"I visited Paris, Rome and Berlin last year.", []want{
			{pred: "VISITED", obj: "Paris", from: "2023-01-01"}, {pred: "VISITED", obj: "Rome", from: "2023-01-01"},
			{pred: "VISITED", obj: "Berlin", from: "2023-01-01", says: "Berlin"}}},
		{"I bought a bike and a kayak.", []want{{pred: "OWNS", obj: "bike"}, {pred: "OWNS", obj: "kayak", says: "a kayak"}}},
		{"I've been to Japan and Korea.", []want{{pred: "VISITED", obj: "Japan"}, {pred: "VISITED", obj: "Korea"}}},
		{"I don't play the violin or the cello anymore.", []want{
			{pred: "PRACTICES", obj: "violin", neg: true}, {pred: "PRACTICES", obj: "cello", neg: true}}},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			res := extractUser(t, tc.text, defaultAt)
			for _, w := range tc.wants {
				checkWant(t, res, w)
			}
			// Every conjunct's fact cites the turn it was said in.
			for _, f := range res.Facts {
				if !slices.Equal(f.SourceEventIDs, []string{"e1"}) {
					t.Errorf("%q cites %v", f.Sentence, f.SourceEventIDs)
				}
			}
		})
	}
}

// A list ends where a clause goes on: the phrase after "and" that is the
// subject of its own verb, or a phrase followed by more than a list's
// boundary, is not another object.
func TestEnumerationStopsAtClauses(t *testing.T) {
	cases := []struct {
		text string
		pred string
		not  string // an object no fact of pred may have
	}{
		{"I like tea and my brother likes coffee.", "LIKES", "brother"},
		{"I bought a bike and my sister bought a car.", "OWNS", "car"},
		{"I visited Paris and then we flew home.", "VISITED", "home"},
		// One-valued slots are not listed: each item would supersede the last.
		{"We're taking the new Volvo, two kids and a dog.", "DRIVES", "dog"},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			res := extractUser(t, tc.text, defaultAt)
			if got := findFacts(res, "", tc.pred, tc.not); len(got) > 0 {
				t.Errorf("read %q as a list item: %q", tc.not, got[0].Sentence)
			}
		})
	}
}
