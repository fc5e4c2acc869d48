package offline

import (
	"testing"

	"github.com/graphmem/graphmem/extract"
)

func TestRelationshipAndPetTransitions(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "companion split", text: "Zoe and I split up in June.",
			want: []want{{pred: "PARTNER_OF", obj: "Zoe"}, {pred: "HAS_STATUS", obj: "single"}}},
		{name: "started seeing a named person", text: "I've started seeing Ana from the choir.",
			want: []want{{pred: "PARTNER_OF", obj: "Ana"}}},
		{name: "dating a guy called", text: "I'm dating a guy called Luis now.",
			want: []want{{pred: "PARTNER_OF", obj: "Luis"}}},
		{name: "hired is a start", text: "I was hired by Monzo as a designer.",
			want: []want{{pred: "WORKS_AT", obj: "Monzo", says: "now works at"}, {pred: "WORKS_AS", obj: "designer"}}},
		{name: "a breed is a pet", text: "We adopted a rescue whippet called Mabel.",
			want: []want{{pred: "HAS_PET", obj: "Mabel", qual: "whippet"}}},
		// controls
		{name: "splitting a bill", text: "We split the bill.", none: []want{{pred: "HAS_STATUS", obj: "single"}}},
		{name: "a sighting", text: "I saw Tom yesterday.", none: []want{{pred: "PARTNER_OF", obj: "Tom"}}},
		{name: "seeing a professional", text: "I started seeing a therapist.", none: []want{{pred: "PARTNER_OF"}}},
		{name: "bought, in the passive", text: "The Trek was nicked in August, and with the payout a Canyon Grizl was bought to replace it.",
			want: []want{{pred: "OWNS", obj: "Canyon Grizl", says: "bought"}}},
		{name: "bought by someone else", text: "A new library was bought by the council.", none: []want{{pred: "OWNS"}}},
	})
}

// An ending closes the fact with the day it ended (valid_to) instead of
// denying it, so history keeps the pet or the partner.
func TestEndingsCarryValidTo(t *testing.T) {
	cases := []struct {
		name, text, pred, obj string
		to                    string // valid_to day
	}{
		{"pet died, dated", "Our dog Rufus passed away in March.", "HAS_PET", "Rufus", "2024-03-01"},
		{"pet put down (had to)", "We had to put our cat Miso down yesterday.", "HAS_PET", "Miso", "2024-09-13"},
		{"pet said goodbye to", "We have a cat called Tigger. We had to say goodbye to Tigger today.", "HAS_PET", "Tigger", "2024-09-14"},
		{"couple broke up", "My girlfriend Zoe and I broke up yesterday.", "PARTNER_OF", "Zoe", "2024-09-13"},
		{"sold", "I sold the Corolla yesterday.", "OWNS", "Corolla", "2024-09-13"},
		{"sold, the car no longer driven", "I sold the Corolla yesterday.", "DRIVES", "Corolla", "2024-09-13"},
		{"gave away", "We gave the old piano away today.", "OWNS", "piano", "2024-09-14"},
		{"stolen, in the passive", "My iPhone got stolen on the tube yesterday.", "OWNS", "iPhone", "2024-09-13"},
		{"written off, in the passive", "Our Fiesta has been written off since yesterday.", "DRIVES", "Fiesta", "2024-09-13"},
		{"sold, in the passive", "Our old Zafira's been sold, finally.", "OWNS", "Zafira", "2024-09-14"},
		{"pet given away", "We gave our rabbit Clover to a family with a big garden.", "HAS_PET", "Clover", "2024-09-14"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := extractUser(t, tc.text, defaultAt)
			f := findFact(res, tc.pred, tc.obj)
			if f == nil {
				t.Fatalf("no %s %s in %+v", tc.pred, tc.obj, res.Facts)
			}
			if f.ValidTo == nil || f.ValidTo.Format("2006-01-02") != tc.to {
				t.Errorf("valid_to = %v, want %s", f.ValidTo, tc.to)
			}
			if f.Polarity == "negative" {
				t.Errorf("an ending is not a denial: %+v", f)
			}
		})
	}
	// Controls: no pet, no ending.
	for _, text := range []string{"My grandad passed away.", "I lost my keys.", "I put the kettle on.", "I gave my sister a hug.",
		"I might sell the Corolla.", "I nearly had my phone stolen.", "My car might be stolen if I park there.",
		"A bike was stolen from the rack.", "I gave my dog a bath."} {
		for _, f := range extractUser(t, text, defaultAt).Facts {
			if f.ValidTo != nil {
				t.Errorf("%q ended %s", text, f.Predicate)
			}
		}
	}
}

// findFact returns the fact of pred whose object goes by name.
func findFact(res extract.Result, pred, name string) *extract.Fact {
	for i, f := range res.Facts {
		if f.Predicate != pred {
			continue
		}
		for _, e := range res.Entities {
			if e.Key == f.Object && entityMatches(e, name) {
				return &res.Facts[i]
			}
		}
	}
	return nil
}
