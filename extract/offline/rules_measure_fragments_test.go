package offline

import "testing"

// A measure's change said in chat without "I'm": at the start of a
// sentence, or after a comma that follows the speaker's own clause. A
// relative's clause, "up to you" and a date after "on" are no measure. The
// sentences are this file's own.
func TestMeasureFragments(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "down from one weight to another", text: "Down from 96 to 83 kg since January!",
			want: []want{{pred: "HAS_MEASURE", obj: "83 kg", qual: "weight"}}},
		{name: "a pay after a comma", text: "Got a pay rise, on 61k now.",
			want: []want{{pred: "HAS_MEASURE", obj: "61k", qual: "salary"}}},
		{name: "a relative's pay", text: "My brother got a pay rise, on 70k now.",
			none: []want{{pred: "HAS_MEASURE", obj: "*"}}},
		{name: "up to you", text: "Up to you, I don't mind either way.",
			none: []want{{pred: "HAS_MEASURE", obj: "*"}}},
		{name: "a date after on", text: "On 3 May we flew out to Crete.",
			none: []want{{pred: "HAS_MEASURE", obj: "*"}}},
	})
}
