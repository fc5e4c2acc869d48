package offline

import "testing"

func TestTasteFrames(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "acts on me", text: "Crossword puzzles bore me.", want: []want{{pred: "DISLIKES", obj: "crossword puzzles"}}},
		{name: "puts me to sleep", text: "Opera puts me to sleep.", want: []want{{pred: "DISLIKES", obj: "opera"}}},
		{name: "does nothing for me", text: "Honestly, modern art does nothing for me.", want: []want{{pred: "DISLIKES", obj: "modern art"}}},
		{name: "delights me", text: "Birdwatching delights me.", want: []want{{pred: "LIKES", obj: "birdwatching"}}},
		{name: "my thing", text: "Trail running is my thing.", want: []want{{pred: "LIKES", obj: "trail running"}}},
		{name: "not my thing", text: "Karaoke isn't my thing.", want: []want{{pred: "DISLIKES", obj: "karaoke"}}},
		{name: "kind of person", text: "I'm not really a beach person.", want: []want{{pred: "DISLIKES", obj: "beach"}}},
		{name: "lost interest", text: "I've lost interest in chess.", want: []want{{pred: "DISLIKES", obj: "chess"}}},
		{name: "begun to like", text: "I've started to enjoy opera.", want: []want{{pred: "LIKES", obj: "opera"}}},
		{name: "learned to like", text: "I've learned to like black coffee.", want: []want{{pred: "LIKES", obj: "black coffee"}}},
		{name: "cannot endure", text: "I can't bear musicals anymore.", want: []want{{pred: "DISLIKES", obj: "musicals"}}},
		{name: "growing on me", text: "Folk music is growing on me.", want: []want{{pred: "LIKES", obj: "folk music"}}},
		{name: "trailing adverb", text: "I've gone off pizza completely.", want: []want{{pred: "DISLIKES", obj: "pizza"}}},
		// controls
		{name: "one occasion bored me", text: "The lecture bored me.", none: []want{{pred: "DISLIKES", obj: "lecture"}}},
		{name: "a person annoys me", text: "My neighbour annoys me.", none: []want{{pred: "DISLIKES", obj: "neighbour"}}},
		{name: "character, not taste", text: "I'm a people person.", none: []want{{pred: "LIKES", obj: "people"}}},
		{name: "lost a thing", text: "I lost my keys.", none: []want{{pred: "DISLIKES", obj: "keys"}}},
		{name: "can handle", text: "I can handle the pressure.", none: []want{{pred: "DISLIKES", obj: "pressure"}}},
		{name: "started a course", text: "I started to learn Spanish.", none: []want{{pred: "LIKES", obj: "Spanish"}}},
	})
}

func TestTasteFramesEndure(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "can't handle", text: "I can't handle spicy food anymore.", want: []want{{pred: "DISLIKES", obj: "spicy food"}}},
		{name: "my name is no thing", text: "Sam is my thing.", none: []want{{pred: "LIKES", obj: "Sam"}}},
	})
}

func TestTasteOfAThing(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "the taste of", text: "I can't stand the smell of durian.", want: []want{{pred: "DISLIKES", obj: "durian"}},
			none: []want{{pred: "DISLIKES", obj: "smell"}}},
	})
}
