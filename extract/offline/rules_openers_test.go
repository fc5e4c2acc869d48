package offline

import "testing"

// What a clause says after an opener: a taste whose subject comes after a
// place or a clause of saying, a long fronted phrase of time, "for good"
// and other spans that say how long rather than what; a pet introduced
// by name and then by a described breed; a stay bounded in time, which is
// a visit and not a home. Each shape has a control. The sentences are
// this file's own.
func TestOpenersAndSpans(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "grown on me after a place", text: "On holiday in Porto sardines have really grown on me.",
			want: []want{{pred: "LIKES", obj: "sardines"}}},
		{name: "won over after a clause of saying", text: "I have to admit jazz has completely won me over.",
			want: []want{{pred: "LIKES", obj: "jazz"}}},
		{name: "grown on me, a person's news", text: "After two years in Leeds my beard has grown on me.",
			none: []want{{pred: "LIKES", obj: "*"}}},
		{name: "done with, for good", text: "I'm done with energy drinks for good.",
			want: []want{{pred: "DISLIKES", obj: "energy drinks"}}},
		{name: "a long fronted phrase of time", text: "After a month of broken sleep in a noisy flat I gave up coffee.",
			want: []want{{pred: "LIKES", obj: "coffee", neg: true}}},
		{name: "for good causes stays in the object, it says what for", text: "I'm passionate about using tech for good in my community.",
			want: []want{{pred: "LIKES", obj: "using tech for good in community"}}},
		{name: "a pet by name, then its described breed", text: "We adopted Juno, a retired rescue lurcher, in May.",
			want: []want{{pred: "HAS_PET", obj: "Juno"}}},
		{name: "a described breed, then its name", text: "We adopted an elderly deaf whippet called Biscuit.",
			want: []want{{pred: "HAS_PET", obj: "Biscuit"}}},
		{name: "a stay bounded in time is a visit", text: "I'm staying with friends in Bergen for ten days.",
			want: []want{{pred: "VISITED", obj: "Bergen"}}, none: []want{{pred: "LIVES_IN", obj: "*"}}},
		{name: "a stay with no end is a home", text: "We're staying in Norwich for good.",
			want: []want{{pred: "LIVES_IN", obj: "Norwich"}}},
		{name: "a stay of years is a home", text: "I'm staying with my partner in Leeds for three years.",
			want: []want{{pred: "LIVES_IN", obj: "Leeds"}}, none: []want{{pred: "VISITED", obj: "*"}}},
		{name: "a clause after a noun is no description", text: "I work nights, the kids love pizza.",
			none: []want{{pred: "LIKES", obj: "*", subj: "user"}}},
	})
}
