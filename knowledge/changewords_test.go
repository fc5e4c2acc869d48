package knowledge

import "testing"

func TestChangeWords(t *testing.T) {
	tests := []struct {
		name string
		f    func(string) bool
		text string
		want bool
	}{
		{"revises: a switch", Revises, "Switched to oat milk last month.", true},
		{"revises: instead before a comma", Revises, "I take the train instead, it's quicker", true},
		{"revises: instead before a colon", Revises, "Cycling instead: the bus was never on time", true},
		{"revises: leaving a job in other words", Revises, "I handed in my notice on Friday.", true},
		{"revises: an amount", Revises, "Rent went up to 1,450 this year.", true},
		{"revises: a bare now is no revision", Revises, "I'm into bouldering now.", false},
		{"revises: a word inside another is not read", Revises, "The recut version is longer.", false},
		{"amount only: a price rise", RevisesAmountOnly, "My gym membership has gone up again.", true},
		{"amount only: a choice as well", RevisesAmountOnly, "Prices went up so I switched gyms.", false},
		{"turns: came around", Turns, "I finally came around on olives.", true},
		{"turns: gone off", Turns, "I've totally gone off coffee.", true},
		{"turns: a plain liking", Turns, "I really like olives.", false},
		{"adds: as well", Adds, "I've taken up padel as well.", true},
		{"adds: a replacement", Adds, "I've taken up padel instead.", false},
		{"keeps: sticking with", Keeps, "Nah, I'm sticking with Monzo for now.", true},
		{"keeps: a switch", Keeps, "I switched to Starling.", false},
		{"keeps: declined, nothing named", Keeps, "Nah, not moving, I'll cut back on takeaways instead.", true},
		{"keeps only: where I am", KeepsOnly, "I'll stay where I am. The green fund costs triple.", true},
		{"keeps only: the kept value named", KeepsOnly, "Not switching, I'm sticking with Monzo.", false},
		{"keeps only: a plain statement", KeepsOnly, "I bank with Monzo.", false},
		{"keeps only: a typographic apostrophe", KeepsOnly, "Nah, I won’t switch, too much hassle.", true},
		{"keeps only: a preference is no decline", KeepsOnly, "I switched to oat milk, I'd rather not do dairy.", false},
		{"keeps only: a test passed is no decline", KeepsOnly, "I think I'll pass my driving test this time.", false},
		{"rescheduled: a new time", Rescheduled, "Moved my gym sessions to 6:15am.", true},
		{"rescheduled: a new weekday", Rescheduled, "Piano got pushed to Thursdays.", true},
		{"rescheduled: a move of home", Rescheduled, "We moved to Ghent in the spring.", false},
	}
	for _, tc := range tests {
		if got := tc.f(tc.text); got != tc.want {
			t.Errorf("%s: %q = %v, want %v", tc.name, tc.text, got, tc.want)
		}
	}
}

func TestWithoutAmountShifts(t *testing.T) {
	tests := []struct {
		text    string
		changes bool // whether what is left still revises
	}{
		{"The price of my budgeting app has gone up again.", false},
		{"My rent went up so we moved to a smaller flat.", true},
		{"Pay went up to 58k after I switched teams.", true},
	}
	for _, tc := range tests {
		if got := Revises(WithoutAmountShifts(tc.text)); got != tc.changes {
			t.Errorf("Revises(WithoutAmountShifts(%q)) = %v, want %v", tc.text, got, tc.changes)
		}
	}
}

func TestRevisedThing(t *testing.T) {
	tests := []struct{ text, want string }{
		{"Switched banks to Starling last week and the card works abroad.", "banks"},
		{"Swapped my keyboard for a split ergonomic one, the Corne.", "keyboard"},
		{"Cancelled the gym membership and joined a climbing wall instead.", "gym membership"},
		{"I quit my job at the bakery in March.", "job"},
		{"We sold the car, so it's bikes everywhere now.", "car"},
		{"I gave up meat in January.", "meat"},
		{"Traded in the Samsung for a Pixel.", ""},                             // a name: the value, not the kind
		{"I ditched the JetBrains stuff, everything goes through Neovim.", ""}, // a name
		{"Switched to decaf after the doctor's visit.", ""},                    // no object
		{"I replaced it with a standing desk.", ""},                            // a pronoun
		{"I moved to Ghent in the spring.", ""},                                // no replacing verb
		{"Dropped that app; it's all Spanish classes now.", ""},                // the thing said before
		{"Changed my mind about the Kindle, got a Kobo instead.", ""},          // no thing replaced
		{"Switched most of my savings to Chase.", ""},                          // a part, then "of"
		{"I've basically dropped everyone else.", ""},                          // a pronoun
		{"Got a new job! Dropped the evening course though.", "evening course"},
	}
	for _, tc := range tests {
		if got := RevisedThing(tc.text); got != tc.want {
			t.Errorf("RevisedThing(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestBeganAndTemporary(t *testing.T) {
	began := []struct {
		text string
		want bool
	}{
		{"Elsie's been at the Montessori since June and loves it.", true},
		{"Since picking up a secondhand canoe in May I'm out every weekend.", true},
		{"Just finished my first week as a newly qualified paramedic.", true},
		{"I've had asthma since I was a kid.", false},
		{"We've lived here since 2009.", false},
		{"I work at the library.", false},
		{"I've been at the bakery since June 2012.", false},
		{"I've felt like this since maybe March.", false},
		{"Ugh, I need a new job.", false},
		{"My shift started at 6am today.", false},
		{"Just started as a junior designer at Fernway.", true},
	}
	for _, tc := range began {
		if got := Began(tc.text); got != tc.want {
			t.Errorf("Began(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
	temporary := []struct {
		text string
		want bool
	}{
		{"I'm staying at my brother's in Leeds for two weeks while the boiler is fixed.", true},
		{"Covering as head of department for a couple of months, then it's back to teaching.", true},
		{"I'm temporarily working from the Glasgow office.", true},
		{"We're staying in Leeds, no plans to move.", false},
		{"I lived in Lisbon for two years before the kids.", false},
		{"My insurance is covering the repairs.", false},
		{"I'm staying with my sister for the next two weeks.", true},
		{"We're staying in Bristol until we retire.", false},
		{"I'm staying with Three until my contract ends.", false},
		{"My knee's been acting up for a few days.", false},
		{"School run, then back to my desk.", false},
	}
	for _, tc := range temporary {
		if got := Temporary(tc.text); got != tc.want {
			t.Errorf("Temporary(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}
