package offline

import "testing"

// A comparative correlative after a taste ("the hotter the better", "the
// stronger the better") says how much, not a second thing liked; a list of
// things after the verb still gives each one. The sentences are this
// file's own.
func TestTasteCorrelatives(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "the hotter the better", text: "I love spicy food, the hotter the better, I put chilli in everything.",
			want: []want{{pred: "LIKES", obj: "spicy food"}}, none: []want{{pred: "LIKES", obj: "hotter"}, {pred: "LIKES", obj: "better"}}},
		{name: "the stronger the better", text: "I like my coffee black, the stronger the better.",
			none: []want{{pred: "LIKES", obj: "stronger"}, {pred: "LIKES", obj: "better"}}},
		{name: "the more the merrier", text: "We love board games, the more players the merrier.",
			want: []want{{pred: "LIKES", obj: "board games"}}, none: []want{{pred: "LIKES", obj: "more players"}, {pred: "LIKES", obj: "merrier"}}},
		{name: "a list after the verb", text: "I love olives, the anchovies and capers.",
			want: []want{{pred: "LIKES", obj: "olives"}, {pred: "LIKES", obj: "capers"}}},
	})
}
