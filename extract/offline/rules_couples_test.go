package offline

import "testing"

// Break-ups said without "break up" (sentences written for these rules).
func TestSeparateWays(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "went our separate ways", text: "Mia and I went our separate ways in June.",
			want: []want{{pred: "PARTNER_OF", obj: "Mia", says: "broke up"}, {pred: "HAS_STATUS", obj: "single"}}},
		{name: "parted ways", text: "We parted ways last month.", want: []want{{pred: "HAS_STATUS", obj: "single"}}},
		{name: "called off the engagement", text: "Jake and I called off the engagement.", want: []want{{pred: "PARTNER_OF", obj: "Jake"}}},
		// controls
		{name: "roads", text: "The two roads went separate ways.", none: []want{{pred: "HAS_STATUS", obj: "single"}}},
		{name: "a phone call", text: "I called my mum.", none: []want{{pred: "HAS_STATUS", obj: "single"}}},
		{name: "an outing together", text: "We went to the beach.", none: []want{{pred: "HAS_STATUS", obj: "single"}}},
	})
}
