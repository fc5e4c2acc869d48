package offline

import (
	"context"
	"testing"

	"github.com/graphmem/graphmem/extract"
)

func TestMeasures(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "salary by a change verb", text: "My take-home pay went up to 3,100 euros a month.",
			want: []want{{pred: "HAS_MEASURE", qual: "salary", obj: "3,100 euros a month"}}},
		{name: "weight by verb", text: "I weigh about 81 kilos these days.",
			want: []want{{pred: "HAS_MEASURE", qual: "weight", obj: "81 kilos"}}},
		{name: "earn", text: "I earn 47k at the moment.", want: []want{{pred: "HAS_MEASURE", qual: "salary", obj: "47k"}}},
		{name: "down to a weight", text: "Can you suggest lighter lunches? I'm down to 77 kg and want to keep going.",
			want: []want{{pred: "HAS_MEASURE", qual: "weight", obj: "77 kg"}}},
		{name: "down to no measure", text: "I'm down to my last tenner.", none: []want{{pred: "HAS_MEASURE", obj: "*"}}},
		{name: "duration with unit", text: "My commute takes me 35 minutes each way.",
			want: []want{{pred: "HAS_MEASURE", qual: "commute", obj: "35 minutes each way"}}},
		// A journey's length said with "it's" is the commute when it is the
		// way to work; a hyphen inside "40-minute" joins, it ends no clause.
		{name: "journey each way", text: "Since the move it's a 40-minute cycle each way, which I love.",
			want: []want{{pred: "HAS_MEASURE", qual: "commute", obj: "40 minutes"}}},
		{name: "journey to the office", text: "So now it's an hour on the bus to the office.",
			want: []want{{pred: "HAS_MEASURE", qual: "commute", obj: "1 hour"}}},
		{name: "a journey elsewhere", text: "It's a 2-hour drive to my parents' place.", none: []want{{pred: "HAS_MEASURE"}}},
		{name: "unlisted measure keeps its name", text: "My pulse at rest is 58 now.",
			want: []want{{pred: "HAS_MEASURE", qual: "pulse at rest", obj: "58"}}},
		{name: "running total", text: "I've done 14 marathons so far.",
			want: []want{{pred: "HAS_MEASURE", qual: "marathons count", obj: "14 marathons"}}},
		{name: "ordinal shares the total's slot", text: "That was my 9th marathon on Sunday.",
			want: []want{{pred: "HAS_MEASURE", qual: "marathons count", obj: "9th marathon"}}},
		{name: "that makes", text: "That makes 23 countries now.",
			want: []want{{pred: "HAS_MEASURE", qual: "countries count", obj: "23 countries"}}},
		{name: "a relative's measure is theirs", text: "My sister's salary is 90k.",
			want: []want{{subj: "sister", pred: "HAS_MEASURE", qual: "salary", obj: "90k"}},
			none: []want{{pred: "HAS_MEASURE", obj: "90k"}}},
		{name: "a condition states no value", text: "If my rent goes up to 2000 I'll move.",
			none: []want{{pred: "HAS_MEASURE", obj: "2000"}}},
		{name: "a goal is not a value", text: "My target weight is 70 kg.",
			none: []want{{pred: "HAS_MEASURE", obj: "70 kg"}}},
		{name: "an age is not a measure", text: "My son Theo is 7.",
			none: []want{{pred: "HAS_MEASURE", obj: "7"}}},
		{name: "a clock time is not a measure", text: "Our table is at 8 tonight.",
			none: []want{{pred: "HAS_MEASURE", obj: "8"}}},
	})
}

// extractTurns runs several user turns as one window.
func extractTurns(t *testing.T, turns ...string) extract.Result {
	t.Helper()
	in := extract.Input{UserID: "u1"}
	for i, text := range turns {
		in.Events = append(in.Events, extract.Event{ID: "e" + string(rune('1'+i)), Role: "user", Kind: "message",
			Content: text, OccurredAt: defaultAt})
	}
	res, err := New(Config{}).Extract(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestCorrections(t *testing.T) {
	cases := []struct {
		name       string
		turns      []string
		pred, qual string
		slip, fix  string // object names; fix "" = no correction
	}{
		{name: "a day, slip named", turns: []string{"My physio session is on Tuesday.", "Sorry, I meant Thursday, not Tuesday."},
			pred: "SCHEDULED_ON", slip: "Tuesday", fix: "Thursday"},
		{name: "a place, same turn", turns: []string{"I grew up in Leeds. Wait, no, it's Sheffield, Leeds is where my aunt lives."},
			pred: "FROM", slip: "Leeds", fix: "Sheffield"},
		{name: "a value", turns: []string{"My weekly rent is 420 pounds.", "Let me correct that: 460 pounds."},
			pred: "HAS_MEASURE", qual: "rent", slip: "420 pounds", fix: "460 pounds"},
		{name: "a many-value slot", turns: []string{"I'm allergic to walnuts. Oops, I meant pecans."},
			pred: "ALLERGIC_TO", slip: "walnuts", fix: "pecans"},
		{name: "'I mean' glossing is no correction", turns: []string{"I'm from Leeds.", "I mean, it was a long time ago."},
			pred: "FROM", slip: "Leeds"},
		{name: "nothing said before: nothing to correct", turns: []string{"Sorry, I meant Thursday."}, pred: "SCHEDULED_ON"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := extractTurns(t, tc.turns...)
			names := map[string]string{}
			for _, e := range res.Entities {
				names[e.Key] = e.Name
			}
			var got, corrections int
			for _, f := range res.Facts {
				if !f.Correction {
					continue
				}
				corrections++
				if f.Predicate == tc.pred && names[f.Object] == tc.fix && names[f.Corrects] == tc.slip &&
					(tc.qual == "" || f.Qualifier == tc.qual) {
					got++
				}
			}
			want := 0
			if tc.fix != "" {
				want = 1
			}
			if got != want || corrections != want {
				t.Errorf("corrections %d (matching %d), want %d: %+v", corrections, got, want, res.Facts)
			}
		})
	}
}
