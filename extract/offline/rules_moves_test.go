package offline

import "testing"

func TestIndirectMoves(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "possessive home", text: "Our flat in Bristol gets so much light in the mornings.",
			want: []want{{pred: "LIVES_IN", obj: "Bristol"}}},
		{name: "my house", text: "My house in Porto is tiny but I adore the street.",
			want: []want{{pred: "LIVES_IN", obj: "Porto"}}},
		{name: "renting", text: "We're renting a bungalow in Nairobi for the time being.",
			want: []want{{pred: "LIVES_IN", obj: "Nairobi"}}},
		{name: "bought", text: "We bought a small cottage in Galway last spring!",
			want: []want{{pred: "LIVES_IN", obj: "Galway"}}},
		{name: "the new home", text: "The new apartment in Lyon has a balcony at last.",
			want: []want{{pred: "LIVES_IN", obj: "Lyon"}}},
		{name: "back for good", text: "I'm back in Hobart for good, the furniture arrives Monday.",
			want: []want{{pred: "LIVES_IN", obj: "Hobart"}}},
		{name: "in a town, in a home", text: "I'm in Turin, in a shared flat near the station.",
			want: []want{{pred: "LIVES_IN", obj: "Turin"}}},
		{name: "settled", text: "Since we settled in Bergen the kids cycle to school.",
			want: []want{{pred: "LIVES_IN", obj: "Bergen"}}},
		{name: "a heading before the statement", text: "Quick gripe: I live in Malmo and the wind never stops.",
			want: []want{{pred: "LIVES_IN", obj: "Malmo"}}},
		{name: "an adverb after the name ends it", text: "Our house in Aarhus finally feels lived in.",
			want: []want{{pred: "LIVES_IN", obj: "Aarhus"}}},
		{name: "a name of two words before an adverb", text: "Our flat in San Sebastian mostly smells of the sea.",
			want: []want{{pred: "LIVES_IN", obj: "San Sebastian"}}},
		{name: "a former home", text: "Our old flat in Leeds had mould everywhere.",
			want: []want{{pred: "LIVES_IN", obj: "Leeds", neg: true}}},
		// controls
		{name: "a relative's home is theirs", text: "My sister's flat in Rome is huge.",
			none: []want{{pred: "LIVES_IN", obj: "Rome"}}},
		{name: "a home still to buy", text: "We might buy a house in Cardiff.",
			none: []want{{pred: "LIVES_IN", obj: "Cardiff"}}},
		{name: "a home still looked for", text: "We're looking at a flat in Dundee next week.",
			none: []want{{pred: "LIVES_IN", obj: "Dundee"}}},
		{name: "a short stay", text: "I'm in Madrid for a conference.",
			none: []want{{pred: "LIVES_IN", obj: "Madrid"}}},
		{name: "someone else's purchase", text: "Tom bought a villa in Crete.",
			none: []want{{pred: "LIVES_IN", obj: "Crete"}}},
	})
}
