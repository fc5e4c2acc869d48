package offline

import "testing"

func TestInvertedFavourites(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "object first, habit", text: "Pho is the dish I order most.",
			want: []want{{pred: "HAS_FAVORITE", obj: "pho", qual: "food"}}},
		{name: "category first, habit", text: "The film I rewatch most is Alien.",
			want: []want{{pred: "HAS_FAVORITE", obj: "Alien", qual: "movie"}}},
		{name: "what I get", text: "Pad thai is what I get every single time now.",
			want: []want{{pred: "HAS_FAVORITE", obj: "Pad thai", qual: "takeaway order"}}},
		{name: "overtaken as my comfort read", text: "Dune has overtaken everything as my comfort read.",
			want: []want{{pred: "HAS_FAVORITE", obj: "Dune", qual: "book"}}},
		{name: "replaced as go-to", text: "Oolong replaced coffee as my go-to drink.",
			want: []want{{pred: "HAS_FAVORITE", obj: "Oolong", qual: "drink"}}},
		{name: "go-to comfort food", text: "Ramen is my go-to comfort food these days.",
			want: []want{{pred: "HAS_FAVORITE", obj: "ramen", qual: "food"}}},
		{name: "a time adverbial inside the category", text: "My favourite card game these days is Cribbage.",
			want: []want{{pred: "HAS_FAVORITE", obj: "Cribbage", qual: "card game"}}},
		{name: "film and movie share a slot", text: "My favourite film is Alien.",
			want: []want{{pred: "HAS_FAVORITE", obj: "Alien", qual: "movie"}}},
		// controls
		{name: "a person seen most", text: "The guy I see most is Tom.", none: []want{{pred: "HAS_FAVORITE", obj: "Tom"}}},
		{name: "a wish is no habit", text: "Laksa is what I want.", none: []want{{pred: "HAS_FAVORITE", obj: "Laksa"}}},
		{name: "a friend is no favourite", text: "Tom has become my best friend.", none: []want{{pred: "HAS_FAVORITE", obj: "Tom"}}},
	})
}
