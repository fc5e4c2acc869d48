package offline

import "testing"

func TestReschedules(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "weekday of the month", text: "We've moved choir to the last Thursday of the month; Mondays were too busy.",
			want: []want{{subj: "choir", pred: "SCHEDULED_ON", obj: "last Thursday of the month"}}},
		{name: "every second weekday", text: "Our choir meets every second Tuesday.",
			want: []want{{subj: "choir", pred: "SCHEDULED_ON", obj: "every second Tuesday"}}},
		{name: "an activity with a time", text: "Yoga is every Monday at 6.",
			want: []want{{subj: "yoga", pred: "SCHEDULED_ON", obj: "Mondays at 6"}}},
		{name: "part of the day", text: "Pilates is on Thursday evenings.",
			want: []want{{subj: "pilates", pred: "SCHEDULED_ON", obj: "Thursday evenings"}}},
		{name: "a clock time alone", text: "The weekly sync got pushed to 11 o'clock.",
			want: []want{{subj: "weekly sync", pred: "SCHEDULED_ON", obj: "11 o'clock", says: "now at 11"}}},
		{name: "my appointment moved", text: "I moved my haircut to Saturday morning.",
			want: []want{{subj: "haircut", pred: "SCHEDULED_ON", obj: "Saturday morning"}}},
		// controls
		{name: "a bare number is no time", text: "The meeting moved to 3 rooms.", none: []want{{pred: "SCHEDULED_ON"}}},
		{name: "a measure is no schedule", text: "My rent moved to 900.", none: []want{{pred: "SCHEDULED_ON"}}},
	})
}
