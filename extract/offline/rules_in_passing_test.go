package offline

import "testing"

// Facts said in passing: inside a request, by a unit, object first, or
// without a subject.
func TestInPassingAndImplied(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// A list of verbless pieces before a clause with its own subject,
		// and a heading before a time, leave the clause its subject.
		{name: "a list before the news", text: "Bio points: 12 years in retail, Brixton born, and since May I'm store manager at Halden Books.",
			want: []want{{pred: "WORKS_AS", obj: "store manager"}, {pred: "WORKS_AT", obj: "Halden Books"}}},
		{name: "a heading before a time", text: "Context: since January we're vegan, so no dairy please.",
			want: []want{{pred: "HAS_DIET", obj: "vegan"}}},
		{name: "a request names a relative", text: "Any tips for my fiancée Mia? She loves hiking.",
			want: []want{{pred: "PARTNER_OF", obj: "Mia", qual: "fiancee"}}},
		{name: "weight by its unit", text: "Could you plan my meals? I'm 72 kg now and I train four times a week.",
			want: []want{{pred: "HAS_MEASURE", qual: "weight", obj: "72 kg"}}},
		{name: "height and weight", text: "For context, I'm 1.65 m and 60 kg.",
			want: []want{{pred: "HAS_MEASURE", qual: "height", obj: "1.65 m"}, {pred: "HAS_MEASURE", qual: "weight", obj: "60 kg"}}},
		{name: "commute by a gerund", text: "Getting to work is 20 minutes now.",
			want: []want{{pred: "HAS_MEASURE", qual: "commute", obj: "20 minutes"}}},
		{name: "commute after a clause of time", text: "Since the bridge reopened, getting to the office is 15 minutes.",
			want: []want{{pred: "HAS_MEASURE", qual: "commute", obj: "15 minutes"}}},
		{name: "commute by its mode", text: "My cycle to the office takes 40 minutes.",
			want: []want{{pred: "HAS_MEASURE", qual: "commute", obj: "40 minutes"}}},
		{name: "a dish with its trimmings", text: "Risotto with peas and mint is my comfort food.",
			want: []want{{pred: "HAS_FAVORITE", qual: "food", obj: "risotto with peas and mint"}}},
		{name: "a category that is a favourite", text: "Stracciatella is my ice cream flavour, always has been.",
			want: []want{{pred: "HAS_FAVORITE", qual: "ice cream flavour", obj: "Stracciatella"}}},
		{name: "just my colour", text: "Teal is just my colour.", want: []want{{pred: "HAS_FAVORITE", qual: "colour", obj: "Teal"}}},
		{name: "took up", text: "I took up rowing in the spring.", want: []want{{pred: "LIKES", obj: "rowing"}}},
		{name: "picked up, no subject", text: "Picked up bouldering too.", want: []want{{pred: "LIKES", obj: "bouldering"}}},
		{name: "traded in for", text: "Traded my Kindle in for a Kobo last month.",
			want: []want{{pred: "USES", obj: "Kobo"}, {pred: "USES", obj: "Kindle", neg: true}}},
		{name: "after a clause whose verb the rules do not know", text: "The gym closed and I love yoga now.",
			want: []want{{pred: "LIKES", obj: "yoga"}}},
		{name: "after a possessive subject with such a verb", text: "My old gym closed and I love yoga now.",
			want: []want{{pred: "LIKES", obj: "yoga"}}},
		{name: "compound subject still one clause", text: "My wife and I moved to Lyon last year.",
			want: []want{{pred: "LIVES_IN", obj: "Lyon"}}},
		{name: "a statement before the clause that asks", text: "I'm a huge fan of jazz, could you make me a playlist for a dinner party?",
			want: []want{{pred: "LIKES", obj: "jazz"}}},
		{name: "a home before the clause that asks", text: "We live in Leeds now, any tips for a Sunday roast?",
			want: []want{{pred: "LIVES_IN", obj: "Leeds"}}},
		// controls
		{name: "a question that only asks", text: "Hey there, could you recommend a jazz album?", none: []want{{pred: "LIKES"}}},
		{name: "a relative inside the question", text: "Is it normal that my dog loves the rain?", none: []want{{pred: "LIKES"}}},
		{name: "a kin role is no favourite", text: "Sam is my brother.", none: []want{{pred: "HAS_FAVORITE"}}},
		{name: "picking someone up", text: "I picked up the kids.", none: []want{{pred: "LIKES"}}},
		{name: "an age is no measure", text: "I'm 34 years old.", none: []want{{pred: "HAS_MEASURE"}}},
		{name: "a request states nothing else", text: "Can you suggest a laptop for coding?", none: []want{{pred: "USES"}, {pred: "LIKES"}}},
	})
}

// Activities said in a clause of time or cause, and what one gets into.
func TestActivitiesInSubordinateClauses(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "after a clause the rules do not read", text: "I had a quiet weekend after we went camping with my family.",
			want: []want{{pred: "PRACTICES", obj: "camping"}}},
		{name: "since, after a verb the rules do not know", text: "I feel great since I went swimming this morning.",
			want: []want{{pred: "PRACTICES", obj: "swimming"}}},
		{name: "the activity without where and with whom", text: "We went skiing in the Alps with friends.",
			want: []want{{pred: "PRACTICES", obj: "skiing"}}},
		{name: "what the gerund takes stays", text: "I went shopping for shoes.",
			want: []want{{pred: "PRACTICES", obj: "shopping for shoes"}}},
		{name: "got into a pastime", text: "I got into pottery last year.", want: []want{{pred: "LIKES", obj: "pottery"}}},
		// controls
		{name: "after a time, not a clause", text: "I went swimming after work.", want: []want{{pred: "PRACTICES", obj: "swimming"}}},
		{name: "got into an accident", text: "My son got into an accident on the road trip.", none: []want{{pred: "LIKES"}}},
		{name: "got into a fight", text: "I got into a fight with my brother.", none: []want{{pred: "LIKES"}}},
		{name: "getting into a new hobby names none", text: "I've been getting into a new hobby recently.", none: []want{{pred: "LIKES"}}},
	})
}

// Facts before a dash that opens a request, and professions taken up.
func TestFactsBeforeADashAndProfessionsTakenUp(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "a statement before a dash that asks", text: "Last week we adopted a greyhound called Moss — how much exercise does he need?",
			want: []want{{pred: "HAS_PET", obj: "Moss"}}},
		{name: "a profession taken up, at an employer", text: "Since I started lecturing in pharmacology at Nottingham Trent, my voice is shot. How do I protect it?",
			want: []want{{pred: "WORKS_AS", obj: "lecturer"}, {pred: "WORKS_AT", obj: "Nottingham Trent"}}},
		{name: "a profession taken up, alone", text: "I started nursing last year.", want: []want{{pred: "WORKS_AS", obj: "nurse"}}},
		// controls
		{name: "a dash that asks only", text: "Quick one — how much exercise does a greyhound need?", none: []want{{pred: "HAS_PET"}}},
		{name: "nursing someone", text: "I started nursing my mum after her fall.", none: []want{{pred: "WORKS_AS"}}},
		{name: "teaching oneself", text: "I started teaching myself guitar.", none: []want{{pred: "WORKS_AS"}}},
		{name: "a subject begun is a degree", text: "I started law at Leeds in September.", none: []want{{pred: "WORKS_AS"}}},
	})
}

// Habits said without an object, and their end counted from the last time.
func TestHabitsKeptAndGivenUp(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "a habit with its amount", text: "I smoke about ten a day and get winded on the stairs.", want: []want{{pred: "PRACTICES", obj: "smoking"}}},
		{name: "counted from the last time", text: "It's been 100 days since my last cigarette!", want: []want{{pred: "PRACTICES", obj: "smoking", neg: true}}},
		{name: "a plain denial", text: "I don't vape.", want: []want{{pred: "PRACTICES", obj: "vaping", neg: true}}},
		{name: "used to", text: "I used to smoke twenty a day.", want: []want{{pred: "PRACTICES", obj: "smoking", neg: true}}},
		// controls
		{name: "one occasion", text: "I smoked a cigar at the wedding.", none: []want{{pred: "PRACTICES"}}},
		{name: "smoke the noun", text: "The kitchen was full of smoke.", none: []want{{pred: "PRACTICES"}}},
		{name: "a plan", text: "I might vape instead.", none: []want{{pred: "PRACTICES"}}},
	})
}

// Ditching one thing for another is a switch; dropping an object is not.
func TestDitchedForAnother(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "a service dropped for another", text: "I dropped Spotify for Tidal last month.",
			want: []want{{pred: "USES", obj: "Tidal"}, {pred: "USES", obj: "Spotify", neg: true}}},
		{name: "a provider is no employer", text: "We dumped Sky for Netflix.",
			want: []want{{pred: "USES", obj: "Netflix"}}, none: []want{{pred: "WORKS_AT"}}},
		{name: "an activity ditched for another", text: "I ditched running for cycling.",
			want: []want{{pred: "LIKES", obj: "cycling"}, {pred: "LIKES", obj: "running", neg: true}}},
		{name: "given to the speaker", text: "My brother gave me his old Pixel 8, so I'm on Android now.",
			want: []want{{pred: "OWNS", obj: "Pixel 8"}}},
		// controls
		{name: "an object dropped", text: "I dropped my phone in the bath.", none: []want{{pred: "USES"}, {pred: "LIKES"}}},
		{name: "given a lift", text: "My boss gave me a lift.", none: []want{{pred: "OWNS"}}},
		{name: "given away by the speaker", text: "I gave my brother my old laptop.", none: []want{{pred: "OWNS", obj: "laptop"}}},
	})
}

// What one writes at work is not the pastime of writing.
func TestWritingAtWorkIsNoPastime(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "poetry is a pastime", text: "I write poetry.", want: []want{{pred: "PRACTICES", obj: "writing poetry"}}},
		// controls
		{name: "a language at work", text: "I write all my Python in PyCharm at work.", none: []want{{pred: "PRACTICES"}}},
		{name: "emails all day", text: "I write emails all day.", none: []want{{pred: "PRACTICES"}}},
	})
}
