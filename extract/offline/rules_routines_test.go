package offline

import "testing"

func TestRoutinesAndContacts(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "place on days", text: "I go to the gym on Mondays and Thursdays.",
			want: []want{{pred: "HAS_ROUTINE", qual: "gym", obj: "Mondays and Thursdays", says: "on Mondays"}}},
		{name: "times a week", text: "I swim three times a week.",
			want: []want{{pred: "HAS_ROUTINE", qual: "swimming", obj: "three times a week"}}},
		{name: "every morning", text: "I run every morning now.", want: []want{{pred: "HAS_ROUTINE", qual: "running", obj: "every morning"}}},
		{name: "every other weekday", text: "I go running every other Sunday.",
			want: []want{{pred: "HAS_ROUTINE", qual: "running", obj: "every other Sunday"}}},
		{name: "day first", text: "Tuesday is my gym day.", want: []want{{pred: "HAS_ROUTINE", qual: "gym", obj: "Tuesdays"}}},
		{name: "email", text: "My new email is sam.k@mailbox.org.",
			want: []want{{pred: "HAS_CONTACT", qual: "email", obj: "sam.k@mailbox.org"}}},
		{name: "phone", text: "You can reach me on 07700 900123 now.",
			want: []want{{pred: "HAS_CONTACT", qual: "phone", obj: "07700 900123"}}},
		// controls
		{name: "a commute is no routine", text: "I cycle to work every day.", none: []want{{pred: "HAS_ROUTINE"}}},
		{name: "one week's visits", text: "I went to the gym every day last week.", none: []want{{pred: "HAS_ROUTINE"}}},
		{name: "a relative's routine", text: "My brother swims daily.", none: []want{{pred: "HAS_ROUTINE"}}},
		{name: "a relative's email", text: "My sister's email is ana@example.com.", none: []want{{pred: "HAS_CONTACT"}}},
		{name: "a conditional address", text: "If my email bounces, try jo@work.io.", none: []want{{pred: "HAS_CONTACT"}}},
		{name: "a house number", text: "We moved to 12 Elm Street in 2021.", none: []want{{pred: "HAS_CONTACT"}}},
	})
}
