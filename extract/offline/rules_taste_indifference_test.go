package offline

import "testing"

// A taste said by indifference or by the kind of person one never was, and
// "my jam" as a liking rather than a category of favourite. Each shape has
// a control. The sentences are this file's own.
func TestTasteIndifference(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "couldn't care less", text: "I couldn't care less about rugby, to be honest.",
			want: []want{{pred: "LIKES", obj: "rugby", neg: true}}},
		{name: "not fussed", text: "I'm not fussed about opera.",
			want: []want{{pred: "LIKES", obj: "opera", neg: true}}},
		{name: "not fussed about a person", text: "I'm not bothered about Tom Hardy.",
			none: []want{{pred: "LIKES", obj: "*"}}},
		{name: "never a kind of person", text: "I was never a cider person, far too sweet for me.",
			want: []want{{pred: "DISLIKES", obj: "cider"}}},
		{name: "never been a kind of person", text: "I've never been a beach person.",
			want: []want{{pred: "DISLIKES", obj: "beach"}}},
		{name: "a kind of person once", text: "I was a cat person as a kid.",
			none: []want{{pred: "LIKES", obj: "cat"}, {pred: "DISLIKES", obj: "cat"}}},
		{name: "my jam is a liking", text: "Board games are my jam.",
			want: []want{{pred: "LIKES", obj: "board games"}}, none: []want{{pred: "HAS_FAVORITE", obj: "*"}}},
	})
}
