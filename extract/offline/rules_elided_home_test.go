package offline

import "testing"

// A home rented or bought in a clause whose subject was left out after
// "and" is the speaker's, as it is with "we" said; a relative's clause is
// not. The sentences are this file's own.
func TestElidedSubjectHome(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "left one town and renting in another", text: "we finally left Swindon and are renting a little place in Keswick now",
			want: []want{{pred: "LIVES_IN", obj: "Keswick"}}},
		{name: "the subject said", text: "We are renting a little place in Keswick now.",
			want: []want{{pred: "LIVES_IN", obj: "Keswick"}}},
		{name: "a sister's clause", text: "my sister left Swindon and is renting a little place in Keswick now",
			none: []want{{pred: "LIVES_IN", obj: "Keswick"}}},
	})
}
