package offline

import "testing"

func TestTurnaroundsAndJudgements(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "judgement of a kind", text: "Anchovies are disgusting, sorry.",
			want: []want{{pred: "DISLIKES", obj: "anchovies"}}},
		{name: "positive judgement", text: "Oat milk is so delicious.",
			want: []want{{pred: "LIKES", obj: "Oat milk"}}},
		{name: "taste verb", text: "Sports drinks taste vile to me these days.",
			want: []want{{pred: "DISLIKES", obj: "sports drinks"}}},
		{name: "find, a word of unease", text: "I find gyms intimidating.", want: []want{{pred: "DISLIKES", obj: "gyms"}}},
		{name: "got into, have got", text: "I've really got into spicy food this year.", want: []want{{pred: "LIKES", obj: "spicy food"}}},
		{name: "have got is no taste", text: "I've got a dog called Rex.", none: []want{{pred: "LIKES"}}},
		{name: "find", text: "I find audiobooks tedious.",
			want: []want{{pred: "DISLIKES", obj: "audiobooks"}}},
		{name: "grew on me", text: "Kombucha has really grown on me.",
			want: []want{{pred: "LIKES", obj: "kombucha"}}},
		{name: "won me over", text: "Board games finally won me over.",
			want: []want{{pred: "LIKES", obj: "board games"}}},
		{name: "come round", text: "I've come round to oat milk, it's actually nice.",
			want: []want{{pred: "LIKES", obj: "oat milk"}}},
		{name: "warmed up", text: "I've warmed up to jazz.",
			want: []want{{pred: "LIKES", obj: "jazz"}}},
		{name: "gone off", text: "I've gone off cheese lately.",
			want: []want{{pred: "DISLIKES", obj: "cheese"}}},
		{name: "fallen out of love", text: "I've fallen out of love with running.",
			want: []want{{pred: "DISLIKES", obj: "running"}}},
		{name: "can't stand any more", text: "I can't stand mushrooms any more.",
			want: []want{{pred: "DISLIKES", obj: "mushrooms"}}},
		// controls
		{name: "weather is no taste", text: "The weather is awful.", none: []want{{pred: "DISLIKES", obj: "weather"}}},
		{name: "a person is no taste", text: "My boss is terrible.", none: []want{{pred: "DISLIKES", obj: "boss"}}},
		{name: "one occasion", text: "The soup was bland.", none: []want{{pred: "DISLIKES", obj: "soup"}}},
		{name: "a use, not a taste", text: "Parks are great for kids.", none: []want{{pred: "LIKES", obj: "parks"}}},
		{name: "a place one went off to", text: "We went off to Crete.", none: []want{{pred: "DISLIKES", obj: "Crete"}}},
		{name: "a person fallen for", text: "I fell in love with Sam.", none: []want{{pred: "LIKES", obj: "Sam"}}},
	})
}
