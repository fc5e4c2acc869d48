package offline

import "testing"

// TestTasteWordings covers constructions of liking and aversion beyond the
// verbs (issue 10 §3): verbs of becoming before an adjective of liking, a
// taste developed or had "for" a thing, portions and senses named instead
// of the thing, adverbs inside the perfect and before the copula,
// "nothing beats", a choice between two, plural nouns spelled like verbs, a taste dropped ("over it",
// "turned against", "doesn't do it for me") and the pronoun of a taste
// said before. The sentences were written for this test, not taken from
// any evaluation set; the controls below keep the constructions from
// reading busy days, moods and idioms as tastes.
func TestTasteWordings(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "nothing beats a cup of", text: "Honestly, nothing beats a good cup of rooibos.", want: []want{{pred: "LIKES", obj: "rooibos"}}},
		{name: "you can't beat", text: "You can't beat a Sunday roast.", want: []want{{pred: "LIKES", obj: "Sunday roast"}}},
		{name: "grown fond of", text: "I've grown fond of opera.", want: []want{{pred: "LIKES", obj: "opera"}}},
		{name: "got hooked on", text: "I got hooked on sudoku last winter.", want: []want{{pred: "LIKES", obj: "sudoku"}}},
		{name: "developed a taste for", text: "I've developed a taste for blue cheese.", want: []want{{pred: "LIKES", obj: "blue cheese"}}},
		{name: "adverb in the perfect", text: "I've really warmed to jazz.", want: []want{{pred: "LIKES", obj: "jazz"}}},
		{name: "partial to a bit of", text: "I'm partial to a bit of stilton.", want: []want{{pred: "LIKES", obj: "stilton"}}},
		{name: "all about", text: "These days I'm all about oat milk.", want: []want{{pred: "LIKES", obj: "oat milk"}}},
		{name: "soft spot for", text: "I have a soft spot for custard tarts.", want: []want{{pred: "LIKES", obj: "custard tarts"}}},
		{name: "taste of", text: "I can't bear the taste of coriander.", want: []want{{pred: "DISLIKES", obj: "coriander"}},
			none: []want{{pred: "DISLIKES", obj: "taste"}}},
		{name: "adverb before the copula", text: "Horror films really aren't my thing.", want: []want{{pred: "DISLIKES", obj: "horror films"}}},
		{name: "no patience for", text: "I have no patience for golf.", want: []want{{pred: "DISLIKES", obj: "golf"}}},
		{name: "gone right off", text: "I've gone right off cheesecake.", want: []want{{pred: "DISLIKES", obj: "cheesecake"}}},
		{name: "doesn't do it for me", text: "Sushi doesn't do it for me anymore.", want: []want{{pred: "DISLIKES", obj: "sushi"}}},
		{name: "over it", text: "I was crazy about sushi, but I'm over it now.", want: []want{{pred: "DISLIKES", obj: "sushi"}}},
		{name: "turned against", text: "I've turned against spicy food lately.", want: []want{{pred: "DISLIKES", obj: "spicy food"}}},
		{name: "would pick over", text: "I'd pick tea over coffee any day.", want: []want{{pred: "PREFERS", obj: "tea"}}},
		{name: "plural noun like a verb", text: "I'm done with energy drinks.", want: []want{{pred: "DISLIKES", obj: "energy drinks"}},
			none: []want{{pred: "DISLIKES", obj: "energy"}}},
		{name: "plural noun in a list", text: "I love energy drinks and crisps.", want: []want{{pred: "LIKES", obj: "energy drinks"}, {pred: "LIKES", obj: "crisps"}}},
		{name: "lost all interest", text: "My knees gave up and honestly I've lost all interest in running.", want: []want{{pred: "DISLIKES", obj: "running"}}},
		{name: "cut out", text: "I've cut out espresso completely, it was wrecking my sleep.", want: []want{{pred: "LIKES", obj: "espresso", neg: true}}},
		{name: "discourse opener", text: "Funny thing, jazz has really grown on me this year.", want: []want{{pred: "LIKES", obj: "jazz"}}},
		// controls
		{name: "no time for lunch", text: "I have no time for lunch today.", none: []want{{pred: "DISLIKES", obj: "lunch"}}},
		{name: "over the moon", text: "I'm over the moon about the new flat.", none: []want{{pred: "DISLIKES", obj: "moon"}}},
		{name: "beat the system", text: "You can't beat the system.", none: []want{{pred: "LIKES", obj: "system"}}},
		{name: "grew up", text: "I grew up in Leeds.", none: []want{{pred: "LIKES", obj: "*"}}},
		{name: "would pick up", text: "I'd pick up the kids if I could.", none: []want{{pred: "PREFERS", obj: "*"}}},
		{name: "cut out of a photo", text: "I cut out the background of the photo.", none: []want{{pred: "LIKES", obj: "*"}}},
	})
}
