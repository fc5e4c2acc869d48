package offline

import "testing"

// Stable facts said in passing: a machine's software, the household car,
// a role outside the lexicon, a degree with modifiers, habits of eating.
func TestStableFactsInPassing(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "device runs", text: "My laptop runs Fedora and I do all my coding on it.",
			want: []want{{pred: "USES", obj: "Fedora"}}},
		{name: "staying on", text: "Nope. I'm sticking with Android.", want: []want{{pred: "USES", obj: "Android"}}},
		{name: "household car", text: "Our car is a Skoda Fabia, tiny but cheap.", want: []want{{pred: "DRIVES", obj: "Skoda Fabia"}}},
		{name: "new car in passing", text: "We're taking the new Kia Niro to Wales. Any packing tips?",
			want: []want{{pred: "DRIVES", obj: "Kia Niro"}}},
		{name: "any explicit role", text: "I work as a dental hygienist in a busy practice.",
			want: []want{{pred: "WORKS_AS", obj: "dental hygienist"}}},
		{name: "degree with modifiers", text: "I'm doing a part-time Open University degree in geology.",
			want: []want{{pred: "STUDIES", obj: "geology"}}},
		{name: "moved between services", text: "I've moved from Deezer to Qobuz for the sound.",
			want: []want{{pred: "USES", obj: "Qobuz"}, {pred: "USES", obj: "Deezer", neg: true}}},
		{name: "eats everything", text: "I eat pretty much everything.", want: []want{{pred: "HAS_DIET", obj: "no dietary restrictions"}}},
		{name: "eating frequency kept", text: "I eat fish most days.", want: []want{{pred: "LIKES", obj: "fish", says: "most days"}}},
		{name: "teetotal", text: "I've been teetotal for years.", want: []want{{pred: "IS_A", obj: "teetotal"}}},
		{name: "an hour", text: "My drive to the office takes about an hour each way, longer if it snows.",
			want: []want{{pred: "HAS_MEASURE", qual: "commute", obj: "an hour each way"}}},
		{name: "a weekday inside a measure's name", text: "My long ride on Saturdays is 40 km at the moment.",
			want: []want{{pred: "HAS_MEASURE", qual: "long ride", obj: "40 km"}}},
		{name: "a dated possessive", text: "This weekend's long ride was 65 km.",
			want: []want{{pred: "HAS_MEASURE", qual: "long ride", obj: "65 km"}}},
		// controls
		{name: "someone's laptop", text: "My brother's laptop runs Windows.", none: []want{{pred: "USES"}}},
		{name: "staying with a person", text: "I'm staying with Tom this week.", none: []want{{pred: "USES"}}},
		{name: "a conditional measure", text: "If my rent goes up to 2000, I'll move.", none: []want{{pred: "HAS_MEASURE"}}},
		{name: "not eating anything", text: "I don't eat anything before noon.", none: []want{{pred: "HAS_DIET"}}},
	})
}

// A named bike is owned and ridden, not driven.
func TestBikesNamedInPassing(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "a road bike by its make", text: "My road bike is a Trek Domane with 28 mm tyres. Can I fit 32s?",
			want: []want{{pred: "OWNS", obj: "Trek Domane"}}, none: []want{{pred: "DRIVES"}}},
		{name: "an e-bike", text: "My e-bike is a VanMoof S3.", want: []want{{pred: "OWNS", obj: "VanMoof S3"}}},
		// controls
		{name: "a state of the bike", text: "My bike is a bit rusty.", none: []want{{pred: "OWNS"}}},
		{name: "a bike once had", text: "My bike was a Raleigh.", none: []want{{pred: "OWNS"}}},
	})
}
