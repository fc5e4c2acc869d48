package knowledge

import "testing"

func TestReadStatement(t *testing.T) {
	cases := []struct {
		text string
		form Form
		self bool
	}{
		{"Cheers, much appreciated!", FormChatter, false},
		{"Okay, sounds good to me.", FormChatter, true},
		{"Hey there!", FormChatter, false},
		{"My sister finally found a flat in Leeds.", FormStatement, true},
		{"The new job starts on Monday.", FormStatement, false},
		{"Could you recommend a quiet hotel in Kyoto?", FormQuestion, false},
		{"which trail should I pick for a first hike", FormQuestion, true},
		{"We settled in Bergen in March. Any tips for rainy weekends?", FormStatement, true},
		{"Congrats on the new place!", FormStatement, false},
		// Remarks around a question ask; the speaker's news without the
		// "I" still states.
		{"That's so nice! What breed is she?", FormQuestion, false},
		{"Wow, great photo! Is that the lake near your cabin?", FormQuestion, false},
		{"Moved to Lyon in May. Any tips for the markets?", FormStatement, false},
		{"Just got back from Crete. Have you ever been?", FormStatement, false},
		{"Got diagnosed with asthma last spring, so no more smoky pubs.", FormStatement, false},
		{"finally bit the bullet and went full Neovim. whats a good plugin for fuzzy finding?", FormStatement, false},
		{"Fell for a rescue greyhound at the weekend. How do I introduce her to the cat?", FormStatement, true},
		{"My brother just moved to Cardiff. Any ideas for a housewarming gift?", FormStatement, true},
		// News before a question, without the "I" or in a clause before a
		// semicolon, still states.
		{"The car fund is at 5,200 now. What should I check on a used hatchback?", FormStatement, true},
		// Clauses set off by dashes state before the clause that asks.
		{"Now that I've moved onto days — 8 till 4:30 on the same ward — how do I reset my body clock?", FormStatement, true},
		{"Quick one - how do I reset my body clock?", FormQuestion, true},
		{"Down to 78 kilos now! Should I change anything in the plan?", FormStatement, true},
		{"I've switched my gym days to Tuesday; does the routine still work?", FormStatement, true},
		{"Lovely garden! Is that new?", FormQuestion, false},
		{"The class moved to Thursday mornings. Can you redo the timetable?", FormStatement, false},
		// A possession gained or lost, in the passive, is the speaker's news.
		{"The Trek was nicked from outside the station in August. What tyre pressures should I run?", FormStatement, true},
		{"The boiler finally got replaced, and a smart thermostat was bought too. How do I set it up?", FormStatement, true},
		{"The train was packed. What time is quieter?", FormQuestion, false},
		// Clauses of the speaker's own before the clause that asks state.
		{"My flight to Rome leaves at 6:40 on Friday, when should I leave for the airport?", FormStatement, true},
		{"We moved to Leeds in May, is the weather always this bad?", FormStatement, true},
		{"Hey, could you help me with a recipe?", FormQuestion, true},
		{"Is it normal that my dog sleeps all day?", FormQuestion, true},
		// Chat ends a sentence with an emoji or a line break as well.
		{"Ran my first 10k this morning 🎉 how long should I rest before the next?", FormStatement, true},
		{"Finished the last module at last\nwhat should I read next", FormStatement, true},
		{"Is this a good deal on a sofa 🤔", FormQuestion, false},
	}
	modal := []struct {
		text                string
		hypothetical, other bool
	}{
		{"Part of me wonders whether I should retrain as a pilot.", true, false},
		{"I might take up the cello next winter.", true, false},
		// A clause of the speaker's without a hedge states.
		{"I weigh 82 kg and want to get to 75.", false, false},
		{"I'm thinking about moving, maybe in spring.", true, false},
		{"I'd like to try rowing, but honestly I'm into climbing these days.", false, false},
		{"I play the cello in an amateur orchestra.", false, false},
		{"My brother just started at a law firm in Cardiff.", false, true},
		{"My brother just started at a law firm. I'm still at the bakery.", false, false},
		{"My niece moved to Lyon for her studies. Such a long way!", false, true},
		{"My sister's choir rehearsal moved to Thursdays.", false, true},
		// A later clause with the speaker as its subject is the speaker's own.
		{"My grandmother broke her hip, so I drive over to cook for her every evening.", false, false},
		{"My son is allergic to nuts and we check every label.", false, false},
		{"My daughter calls me every Sunday from Sydney.", false, true},
		{"Can you help me with a card for my sister? She just moved to Dublin.", false, true},
		{"He retired in May, so now I do the school run.", false, false},
		{"They finally promoted me to team lead.", false, false},
		{"My parents moved in with us last year.", false, true},
		{"I keep wondering about opening a cafe. Probably too risky though.", true, false},
		// A condition in the first person, contracted or plural, hedges.
		{"No clue if I'm cut out for teaching. I keep thinking about it.", true, false},
		{"In theory we could sell the flat and rent for a year.", true, false},
		{"If we're lucky the visa comes through by May.", true, false},
		// "I'd" before a plain verb is "would"; before a participle, "had".
		{"A book club could be fun, I'd enjoy the company more than the books.", true, false},
		{"I'd already paid the deposit for the flat in Bath.", false, false},
		{"I'd rather cycle than take the bus to work.", false, false},
		// Addressed to the one spoken to, with no word of the speaker's own.
		{"Your garden looks amazing this year!", false, true},
		{"You two make such a lovely couple. Congrats on the engagement!", false, true},
		{"You should be proud of yourself, that was a tough race.", false, true},
		{"Your idea was great, so I booked the ferry to Skye.", false, false},
		{"Thanks for asking! I finally sold the old van.", false, false},
	}
	for _, c := range []struct {
		text   string
		asksIf bool
	}{
		{"Hypothetically, if we sold the flat, what would the tax be? We bought it in 2015.", true},
		{"What if I quit the choir, would I miss it?", true},
		{"If you were me, which would you pick?", false},
		{"I moved to Bristol. Which area is best for cyclists?", false},
		{"What can I eat after the filling if I'm numb till the evening?", false},
		{"If I get tired on the climb, should I walk?", false},
		{"If we sold the caravan, could we afford a week in Crete?", true},
	} {
		if got := ReadStatement(c.text).AsksIf; got != c.asksIf {
			t.Errorf("ReadStatement(%q).AsksIf = %v, want %v", c.text, got, c.asksIf)
		}
	}
	for _, c := range modal {
		got := ReadStatement(c.text)
		if got.Hypothetical != c.hypothetical || got.Other != c.other {
			t.Errorf("ReadStatement(%q) = %+v, want hypothetical %v other %v", c.text, got, c.hypothetical, c.other)
		}
	}
	for _, c := range cases {
		got := ReadStatement(c.text)
		if got.Form != c.form || got.Self != c.self {
			t.Errorf("ReadStatement(%q) = %+v, want form %s self %v", c.text, got, c.form, c.self)
		}
	}
}

// TestRevisionMarkers: a correction takes back what was just said, a
// change marks an update; ordinary statements are neither.
func TestRevisionMarkers(t *testing.T) {
	cases := []struct {
		text               string
		correction, change bool
	}{
		{"Actually, the meeting is on the 14th.", true, false},
		{"Hmm, it's actually the green one.", true, false},
		{"Scratch that: three kids, not two.", true, false},
		{"Sorry, I meant the Leeds office, not York.", true, false},
		{"My mistake, the flight leaves at noon.", true, false},
		{"Oh wait, I misread the card: it's on Thursday at 4pm.", true, false},
		{"Sorry, I had the time wrong earlier; the train is at 8:10.", true, false},
		{"Ugh, I got the address wrong — it's number 14.", true, false},
		{"The quiz was wrong about the capital of Australia.", false, false},
		{"Hang on, sorry, I read the timetable wrong: the ferry is at 9.", true, false},
		{"Oh no, I'd typed the wrong postcode, it's LS6 2AB.", true, false},
		{"I took the wrong bus this morning and missed the meeting.", false, false},
		{"My brother told me the wrong date for the party.", false, false},
		{"I misremembered, the party is at Jo's place.", true, false},
		{"Lately I'm into bouldering.", false, true},
		{"The dentist moved me to Thursdays from now on.", false, true},
		{"I no longer eat dairy.", false, true},
		{"The quiz team swapped Tuesdays for Thursdays.", false, true},
		{"That makes twelve countries for me.", false, true},
		{"Finished three more over Christmas, which brings us to 14 chapters in total.", false, true},
		{"Spin class has taken over from yoga.", false, true},
		{"I work at the post office.", false, false},
		{"We visited the museum with the kids.", false, false},
	}
	for _, c := range cases {
		got := ReadStatement(c.text)
		if got.Correction != c.correction || got.Change != c.change {
			t.Errorf("ReadStatement(%q) = correction %v change %v, want %v %v", c.text, got.Correction, got.Change, c.correction, c.change)
		}
	}
}

// TestEndingMarkers: a turn that says something of the speaker's ended.
func TestEndingMarkers(t *testing.T) {
	for text, want := range map[string]bool{
		"We finally sold the camper van.":          true,
		"Biscuit passed away in his sleep.":        true,
		"I quit the choir after ten years.":        true,
		"I don't have the motorbike any more.":     true,
		"Sam and I went our separate ways.":        true,
		"I let the allotment lapse.":               true,
		"My bike got nicked outside the gym.":      true,
		"Handed in my notice at the agency today.": true,
		"I resigned from the council in March.":    true,
		"We bought a camper van.":                  false,
		"Biscuit loves sleeping on the sofa.":      false,
		"I joined a choir that rehearses weekly.":  false,
	} {
		if got := ReadStatement(text).Ending; got != want {
			t.Errorf("ReadStatement(%q).Ending = %v, want %v", text, got, want)
		}
	}
}

// TestRelationsOpenASentenceAboutThem: "my best mate Jonas", "my husband"
// open a sentence about someone else, unless the speaker is a subject too.
func TestRelationsOpenASentenceAboutThem(t *testing.T) {
	cases := []struct {
		text  string
		other bool
	}{
		{"My best mate Jonas has just quit accountancy to become a barista.", true},
		{"My husband's just been diagnosed with a shellfish allergy.", true},
		{"My older sister moved to Perth in June.", true},
		{"My husband and I moved to Perth in June.", false},
		{"My best friend's wedding was lovely, and I gave a speech.", false},
		{"My new job starts on Monday.", false},
	}
	for _, c := range cases {
		if got := ReadStatement(c.text).Other; got != c.other {
			t.Errorf("ReadStatement(%q).Other = %v, want %v", c.text, got, c.other)
		}
	}
}

func TestMeasureDimensions(t *testing.T) {
	cases := []struct {
		text string
		want []string
	}{
		{"I weigh 92 kg and want to drop a bit.", []string{"mass"}},
		{"Down to 84.5kg this morning!", []string{"mass"}},
		{"Take-home is now £2,910 after tax.", []string{"money"}},
		{"I run about 35 km a week, 3 hours in all.", []string{"distance", "duration"}},
		{"My resting heart rate is 58 bpm.", []string{"rate"}},
		{"The GP put my sertraline up to 100 mg.", []string{"dose"}},
		{"I work nights, 7pm to 7am.", []string{"time"}},
		{"Days now, 8 till 4:30 on the same ward.", []string{"time"}},
		{"We've got three kids under nine.", nil},
		{"I have 2 cats.", nil},
	}
	for _, c := range cases {
		got := MeasureDimensions(c.text)
		if len(got) != len(c.want) {
			t.Errorf("MeasureDimensions(%q) = %v, want %v", c.text, got, c.want)
			continue
		}
		for _, d := range c.want {
			if !got[d] {
				t.Errorf("MeasureDimensions(%q) = %v, want %v", c.text, got, c.want)
			}
		}
	}
}

// TestOwnSentences: the sentences about someone else are left out, those
// of the speaker's kept, and a sentence about both is the speaker's.
func TestOwnSentences(t *testing.T) {
	for text, want := range map[string]string{
		"My sister's moved to Cardiff for her new job 😭 help me plan a weekend visiting her": "help me plan a weekend visiting her",
		"She just moved to Dublin. I stayed in Leeds.":                                       "I stayed in Leeds.",
		"My dad has dementia, so I moved him in with us.":                                    "My dad has dementia, so I moved him in with us.",
		"They promoted me to manager.":                                                       "They promoted me to manager.",
		"I switched to Neovim.":                                                              "I switched to Neovim.",
	} {
		if got := OwnSentences(text); got != want {
			t.Errorf("OwnSentences(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestOwnClauses(t *testing.T) {
	tests := []struct{ text, want string }{
		{"My husband's just started as a site manager, so I'm doing every school run now.", "I'm doing every school run now."},
		{"My sister got a new job and I'm thrilled for her.", "I'm thrilled for her."},
		{"I've been at Hilltop since June, loving it.", "I've been at Hilltop since June loving it."},
	}
	for _, tc := range tests {
		if got := OwnClauses(tc.text); got != tc.want {
			t.Errorf("OwnClauses(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestEndsValue: a clause of the speaker's that names the value and holds
// an ending word ends it; a relative's ending, a hedge, an ending of
// something else in the same sentence and a mention without an ending do
// not.
func TestEndsValue(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text, value string
		want        bool
	}{
		{"Sold the car! It's the Brompton plus the tram for me now.", "car", true},
		{"We finally left Leipzig and the small flat behind.", "Leipzig", true},
		{"Gave away both bikes last weekend.", "bike", true},
		{"Our old Golf got written off in the crash, so we're car-free.", "Golf", true},
		{"My sister left Leipzig last year.", "Leipzig", false},
		{"I might sell the car in spring.", "car", false},
		{"I live near Leipzig station and sold the old sofa.", "Leipzig", false},
		{"The car is running fine after the service.", "car", false},
		{"I sold the carpet.", "car", false},
	} {
		if got := EndsValue(tc.text, tc.value); got != tc.want {
			t.Errorf("EndsValue(%q, %q) = %v, want %v", tc.text, tc.value, got, tc.want)
		}
	}
}

// TestAsksAboutOthers: a question naming a relation, asking who, or asking
// about the family asks about people in the user's life; one about the
// user's own things does not.
func TestAsksAboutOthers(t *testing.T) {
	t.Parallel()
	for q, want := range map[string]bool{
		"Which nursery does the user's daughter attend?": true,
		"Who lives with the user?":                       true,
		"How big is the user's family?":                  true,
		"Where does the user live?":                      false,
		"What does the user do for a living?":            false,
	} {
		if got := AsksAboutOthers(q); got != want {
			t.Errorf("AsksAboutOthers(%q) = %v, want %v", q, got, want)
		}
	}
}
