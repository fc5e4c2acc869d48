package offline

import "testing"

// The people and things of everyday speech: friends called mates and
// pals, parents called by their title ("Mum", "Dad"), people, pets and
// towns whose names are common words (Will, Pepper, Reading), favourites
// said with an intensifier, a superlative or "of choice", a job started
// "as" a role, a commute in the progressive, and a rented home. Each shape
// has a control that must stay silent. The sentences are this file's own.
func TestPeopleAndEverydayShapes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// friends by their everyday names
		{name: "a mate with a name that is a common word", text: "My mate Will just got a job at Harrow Bank.",
			want: []want{{pred: "FRIEND_OF", obj: "Will"}, {subj: "Will", pred: "WORKS_AT", obj: "Harrow Bank"}},
			none: []want{{pred: "WORKS_AT", obj: "*"}}},
		{name: "a pal's home is not the speaker's", text: "My pal Jonno lives in Perth now.",
			want: []want{{subj: "Jonno", pred: "LIVES_IN", obj: "Perth"}},
			none: []want{{pred: "LIVES_IN", obj: "*"}}},
		{name: "mate as a form of address names no friend", text: "Cheers mate, that really helps.",
			none: []want{{pred: "FRIEND_OF", obj: "*"}}},
		// parents and grandparents called by their title
		{name: "Dad as a name is the speaker's dad", text: "Dad has high blood pressure.",
			want: []want{{subj: "dad", pred: "HAS_CONDITION", obj: "high blood pressure"}},
			none: []want{{pred: "HAS_CONDITION", obj: "*"}}},
		{name: "a lower-case title at the start", text: "grandad lives in Galway, we visit at Easter.",
			want: []want{{subj: "grandad", pred: "LIVES_IN", obj: "Galway"}},
			none: []want{{pred: "LIVES_IN", obj: "*"}}},
		{name: "a title's move is not the speaker's", text: "Mum moved to Lisbon last spring.",
			want: []want{{subj: "mum", pred: "LIVES_IN", obj: "Lisbon"}},
			none: []want{{pred: "LIVES_IN", obj: "*"}}},
		{name: "a title before a noun is no subject", text: "Dad jokes are the worst.",
			none: []want{{subj: "dad", pred: "LIKES", obj: "*"}, {pred: "LIKES", obj: "*"}}},
		// names that are common words
		{name: "a pet called after a food", text: "Our dog Pepper is allergic to chicken.",
			want: []want{{pred: "HAS_PET", obj: "Pepper"}, {subj: "Pepper", pred: "ALLERGIC_TO", obj: "chicken"}},
			none: []want{{pred: "ALLERGIC_TO", obj: "*"}}},
		{name: "a town called like an activity", text: "We've lived in Reading for six years.",
			want: []want{{pred: "LIVES_IN", obj: "Reading"}}},
		{name: "an activity in lower case is no town", text: "I live for reading in bed on Sundays.",
			none: []want{{pred: "LIVES_IN", obj: "*"}}},
		// favourites with an intensifier, a superlative, "of choice"
		{name: "hands down my favourite", text: "Lasagne is hands down my favourite meal.",
			want: []want{{pred: "HAS_FAVORITE", obj: "lasagne"}}},
		{name: "easily my favourite", text: "Blue is easily my favourite colour.",
			want: []want{{pred: "HAS_FAVORITE", obj: "blue"}}},
		{name: "the best of a kind I've known", text: "The best album I've ever heard is Blue Lines.",
			want: []want{{pred: "HAS_FAVORITE", obj: "Blue Lines", qual: "album"}}},
		{name: "X is the best of a kind I've known", text: "Arrival is the greatest film I've seen.",
			want: []want{{pred: "HAS_FAVORITE", obj: "Arrival"}}},
		{name: "the best thing names no kind", text: "The best thing I've done is quit.",
			none: []want{{pred: "HAS_FAVORITE", obj: "*"}}},
		{name: "of choice", text: "My tipple of choice is a negroni.",
			want: []want{{pred: "HAS_FAVORITE", obj: "negroni"}}},
		{name: "X is my Y of choice", text: "Oat milk is my milk of choice now.",
			want: []want{{pred: "HAS_FAVORITE", obj: "oat milk"}}},
		{name: "no choice is no favourite", text: "I had no choice but to sell the car.",
			none: []want{{pred: "HAS_FAVORITE", obj: "*"}}},
		// work, commute, home
		{name: "started as a role", text: "Started as a paramedic at Leeds General last month.",
			want: []want{{pred: "WORKS_AS", obj: "paramedic"}}},
		{name: "started as no role", text: "It started as a joke between us.",
			none: []want{{pred: "WORKS_AS", obj: "*"}}},
		{name: "a commute in the progressive", text: "I'm walking to work these days.",
			want: []want{{pred: "COMMUTES_BY", obj: "on foot"}}},
		{name: "a trip tomorrow is no commute", text: "I'm driving to work tomorrow because of the strike.",
			none: []want{{pred: "COMMUTES_BY", obj: "*"}}},
		{name: "a rented home is no property", text: "We're renting a two-bed in Didsbury.",
			want: []want{{pred: "LIVES_IN", obj: "Didsbury"}},
			none: []want{{pred: "OWNS", obj: "*"}}},
		// things bought and cancelled (a sale in the passive is with the endings,
		// rules_transitions_test.go)
		{name: "treated oneself to a thing", text: "Treated myself to a Brompton after the bonus came through.",
			want: []want{{pred: "OWNS", obj: "Brompton"}}},
		{name: "treated oneself to no thing", text: "I treated myself to a long massage.",
			none: []want{{pred: "OWNS", obj: "*"}}},
		{name: "a trip cancelled", text: "We cancelled the Lisbon trip because of the strikes.",
			want: []want{{pred: "PLANS", obj: "Lisbon", neg: true}}},
		{name: "a trip called off", text: "I called off our holiday in Crete.",
			want: []want{{pred: "PLANS", obj: "Crete", neg: true}}},
		{name: "a service cancelled", text: "I cancelled my Audible subscription last month.",
			want: []want{{pred: "USES", obj: "Audible", neg: true}}},
		{name: "a meeting cancelled names no trip or service", text: "I cancelled the meeting with Priya.",
			none: []want{{pred: "PLANS", obj: "*"}, {pred: "USES", obj: "*"}}},
		// pets and workplaces named in passing
		{name: "a workplace introduced by its name", text: "I joined a startup called Tallyfield in March.",
			want: []want{{pred: "WORKS_AT", obj: "Tallyfield"}}, none: []want{{pred: "MEMBER_OF", obj: "*"}}},
		{name: "a group joined stays a membership", text: "I joined a choir called Vox Populi.",
			none: []want{{pred: "WORKS_AT", obj: "*"}}},
		{name: "an animal brought home", text: "Just brought home a kitten from the rescue centre!",
			want: []want{{pred: "HAS_PET", obj: "kitten"}}},
		{name: "the shopping brought home is no pet", text: "I brought the shopping home in the rain.",
			none: []want{{pred: "HAS_PET", obj: "*"}}},
		{name: "an animal named after it came", text: "We got a puppy on Saturday and named him Biscuit.",
			want: []want{{pred: "HAS_PET", obj: "Biscuit"}}},
		{name: "called her is a phone call for a person", text: "My sister was upset so I called her Sunday night.",
			none: []want{{pred: "SIBLING_OF", obj: "Sunday"}}},
		{name: "the name before its role", text: "Mochi, my hamster, escaped again last night.",
			want: []want{{pred: "HAS_PET", obj: "Mochi"}}},
		{name: "a name before its role, addressed to no one", text: "Priya, my sister, is visiting from Pune.",
			want: []want{{pred: "SIBLING_OF", obj: "Priya"}}},
	})
}
