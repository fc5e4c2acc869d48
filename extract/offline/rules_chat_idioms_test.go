package offline

import "testing"

// Shapes of chat English that carry a fact without the usual clause: a
// subject left out, a lead phrase naming the speaker's role, an
// announcement ("Guess who..."), a pseudo-cleft of taste, an adverb inside
// a phrasal verb, a habit not touched since, a job begun by its first
// week, a course named by its owner, a thing inherited. The sentences are this file's own, not the scenarios'.
func TestChatIdioms(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// the subject left out
		{name: "been doing, no subject", text: "Been climbing at the wall three times a week.",
			want: []want{{pred: "PRACTICES", obj: "climbing"}}},
		{name: "haven't, no subject", text: "Haven't touched a drop since New Year.",
			want: []want{{pred: "PRACTICES", obj: "drinking", neg: true}}},
		{name: "just + past, no subject", text: "Just joined Octopus Energy as an analyst.",
			want: []want{{pred: "WORKS_AT", obj: "Octopus Energy"}}},
		{name: "a question is not the speaker's statement", text: "Have you tried the pho place on Mill Road?",
			none: []want{{pred: "PRACTICES"}, {pred: "LIKES"}}},
		// habits not touched since
		{name: "untouched cigarettes", text: "I haven't touched a cigarette in six weeks.",
			want: []want{{pred: "PRACTICES", obj: "smoking", neg: true}}},
		{name: "untouched since a month", text: "I haven't touched a cigarette since March.",
			want: []want{{pred: "PRACTICES", obj: "smoking", neg: true, says: "no longer smokes (since March 2024)"}}},
		{name: "one evening is no habit", text: "I didn't touch a drink at the party.",
			none: []want{{pred: "PRACTICES"}}},
		// phrasal verbs of giving up, adverbs inside phrasal verbs
		{name: "packed in", text: "I've packed in rugby after the last concussion.",
			want: []want{{pred: "PRACTICES", obj: "rugby", neg: true}}},
		{name: "packed in a gerund", text: "I packed in smoking last spring.",
			want: []want{{pred: "PRACTICES", obj: "smoking", neg: true}}},
		{name: "packing a bag is nothing", text: "I packed my suitcase last night.",
			none: []want{{pred: "PRACTICES"}}},
		{name: "adverb before the participle", text: "I've totally come around to anchovies.",
			want: []want{{pred: "LIKES", obj: "anchovies"}}},
		{name: "adverb inside fallen for", text: "I've fallen completely for sea swimming.",
			want: []want{{pred: "LIKES", obj: "sea swimming"}}},
		// announcements
		{name: "guess who got", text: "Guess who got the deputy head job!",
			want: []want{{pred: "WORKS_AS", obj: "deputy head"}}},
		{name: "guess who is", text: "Guess who's engaged!",
			want: []want{{pred: "HAS_STATUS", obj: "engaged"}}},
		// a lead that names the speaker's role
		{name: "as a role, statement", text: "As a paramedic, I see this all the time.",
			want: []want{{pred: "WORKS_AS", obj: "paramedic"}}},
		{name: "as a role, before a question", text: "As a junior developer, how do I ask for a code review without nagging?",
			want: []want{{pred: "WORKS_AS", obj: "junior developer"}}},
		{name: "as a child is no role", text: "As a teenager, I hated broccoli.",
			none: []want{{pred: "WORKS_AS"}}},
		{name: "as a role of someone else", text: "As a teacher, my sister gets long holidays.",
			none: []want{{pred: "WORKS_AS"}}},
		// a job begun by its first days
		{name: "first week at an organisation", text: "Survived my first week at Deliveroo - so many acronyms.",
			want: []want{{pred: "WORKS_AT", obj: "Deliveroo"}}},
		{name: "first day at a place that is no employer", text: "My first day at the new gym nearly killed me.",
			none: []want{{pred: "WORKS_AT"}}},
		{name: "week one at an organisation", text: "Week one at Larkspur Labs is done, what a ride.",
			want: []want{{pred: "WORKS_AT", obj: "Larkspur Labs"}}},
		{name: "someone else's first week", text: "Her first week at Larkspur Labs went well.",
			none: []want{{pred: "WORKS_AT"}}},
		{name: "a shift worked at an organisation", text: "My shift at the Whitfield Care Home doesn't end till 9pm.",
			want: []want{{pred: "WORKS_AT", obj: "Whitfield Care Home"}}},
		{name: "a shift at a place that is no employer", text: "My shift at the gym is a spin class.",
			none: []want{{pred: "WORKS_AT"}}},
		{name: "moved over to a service", text: "Dropped Deezer and moved over to Tidal, how do I move my playlists?",
			want: []want{{pred: "USES", obj: "Tidal"}}, none: []want{{pred: "LIVES_IN", obj: "*"}}},
		{name: "moved over to a city", text: "We moved over to Dublin in May.",
			want: []want{{pred: "LIVES_IN", obj: "Dublin"}}},
		{name: "a statement ended by an emoji, then a request", text: "Week one at Larkspur Labs is in the books 🎉 can you help me write a hello for the team channel?",
			want: []want{{pred: "WORKS_AT", obj: "Larkspur Labs"}}},
		// a course named by its owner, a thing inherited
		{name: "my course, anywhere in the clause", text: "Exams for my midwifery degree at Keele start on Monday.",
			want: []want{{pred: "STUDIES", obj: "midwifery"}, {pred: "STUDIES_AT", obj: "Keele"}}},
		{name: "my course, field after it", text: "The reading list for my masters in economics is endless.",
			want: []want{{pred: "STUDIES", obj: "economics"}}},
		{name: "a course that is over", text: "I completed my chemistry degree years ago.",
			none: []want{{pred: "STUDIES"}}},
		{name: "a relative's course", text: "My brother's history degree costs a fortune.",
			none: []want{{pred: "STUDIES"}}},
		{name: "inherited a thing", text: "I inherited my nan's Singer sewing machine.",
			want: []want{{pred: "OWNS", obj: "Singer sewing machine"}}},
		{name: "inherited a trait", text: "I inherited my mum's temper.",
			none: []want{{pred: "OWNS"}}},
		// pseudo-clefts of taste
		{name: "the thing I'm obsessed with", text: "The thing I'm obsessed with at the moment is sourdough.",
			want: []want{{pred: "LIKES", obj: "sourdough"}}},
		{name: "what I love most", text: "What I love most is wild swimming.",
			want: []want{{pred: "LIKES", obj: "wild swimming"}}},
		{name: "one thing I can't stand", text: "One thing I can't stand is liquorice.",
			want: []want{{pred: "DISLIKES", obj: "liquorice"}}},
		{name: "what I love is a situation", text: "What I love is that nobody rushes you.",
			none: []want{{pred: "LIKES"}}},
		{name: "what I want is no taste", text: "What I want is a bigger flat.",
			none: []want{{pred: "LIKES"}}},
	})
}
