package offline

import "testing"

// Tastes said in chat fragments: a kind asked back and judged without the
// "I" ("Opera? Love it."), a falling-out with a kind as a compound subject,
// an intensified judgement, a kind tried and judged in the same breath,
// and a dish named by two words joined with "and". Each shape has a
// control. The sentences are this file's own.
func TestTasteFragments(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "a kind asked back, then loved", text: "Opera? Love it.",
			want: []want{{pred: "LIKES", obj: "opera"}}},
		{name: "a kind asked back, then hated", text: "Camping? Absolutely hate it.",
			want: []want{{pred: "DISLIKES", obj: "camping"}}},
		{name: "an acknowledgement alone is no taste", text: "Love it! Thanks for the list.",
			none: []want{{pred: "LIKES", obj: "*"}}},
		{name: "a place asked back and enjoyed once is no taste", text: "Lisbon? Loved it.",
			none: []want{{pred: "LIKES", obj: "*"}}},
		{name: "a falling-out with a kind", text: "Spicy food and I don't get on.",
			want: []want{{pred: "DISLIKES", obj: "spicy food"}}},
		{name: "an intensified judgement", text: "Darts is deathly dull.",
			want: []want{{pred: "DISLIKES", obj: "darts"}}},
		{name: "a kind tried and hated", text: "I tried oysters once and hated them.",
			want: []want{{pred: "DISLIKES", obj: "oysters"}}},
		{name: "a place tried and hated is no taste", text: "I tried the new cafe once and hated it.",
			none: []want{{pred: "DISLIKES", obj: "*"}}},
		{name: "a dish of two words", text: "Fish and chips is my favourite takeaway.",
			want: []want{{pred: "LIKES", obj: "fish and chips"}}, none: []want{{pred: "LIKES", obj: "chips"}}},
		{name: "two things liked", text: "I like tea and coffee.",
			want: []want{{pred: "LIKES", obj: "tea"}, {pred: "LIKES", obj: "coffee"}}},
	})
}
