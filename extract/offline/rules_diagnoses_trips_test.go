package offline

import "testing"

// Conditions, hobbies, jobs, children and trips to come, said in passing:
// each names a lasting fact that a later question asks about in other
// words.
func TestDiagnosesCollectionsAndTrips(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "diagnosed, no subject", text: "Got diagnosed with type 2 diabetes in March.",
			want: []want{{pred: "HAS_CONDITION", obj: "type 2 diabetes"}}},
		{name: "was diagnosed", text: "I was diagnosed with asthma as a kid.", want: []want{{pred: "HAS_CONDITION", obj: "asthma"}}},
		{name: "have been diagnosed", text: "I've been diagnosed with an underactive thyroid.",
			want: []want{{pred: "HAS_CONDITION", obj: "underactive thyroid"}}},
		{name: "a collection", text: "I collect old vinyl records, mostly jazz.", want: []want{{pred: "PRACTICES", obj: "collecting vinyl records"}}},
		{name: "collecting for years", text: "I've been collecting stamps since I was nine.", want: []want{{pred: "PRACTICES", obj: "collecting stamps"}}},
		{name: "a trip as a purpose", text: "I'm learning Italian for a trip to Rome next spring.",
			want: []want{{pred: "PLANS", obj: "Rome"}, {pred: "LEARNING", obj: "Italian"}}},
		{name: "saving for a holiday", text: "Saving every penny for our holiday in Crete.", want: []want{{pred: "PLANS", obj: "Crete"}}},
		{name: "off to", text: "We're off to Iceland in March for a week of hiking.", want: []want{{pred: "PLANS", obj: "Iceland"}}},
		{name: "a condition had for years", text: "I've had type 1 diabetes since I was a teenager.",
			want: []want{{pred: "HAS_CONDITION", obj: "type 1 diabetes"}}},
		{name: "a condition had", text: "I have asthma, so no smoky pubs for me.", want: []want{{pred: "HAS_CONDITION", obj: "asthma"}}},
		{name: "a subject taught", text: "I teach maths at a secondary school.",
			want: []want{{pred: "WORKS_AS", obj: "maths teacher"}, {pred: "WORKS_AT", obj: "secondary school"}}},
		{name: "a language taught", text: "I teach Spanish to adults in the evenings.", want: []want{{pred: "WORKS_AS", obj: "Spanish teacher"}}},
		{name: "time spent on a hobby", text: "I spend Sundays restoring an old Vespa.", want: []want{{pred: "PRACTICES", obj: "restoring an old vespa"}}},
		{name: "evenings spent", text: "I spend most evenings knitting.", want: []want{{pred: "PRACTICES", obj: "knitting"}}},
		{name: "twins are children", text: "My twins are turning four next month.", want: []want{{pred: "PARENT_OF", obj: "twins", qual: "twins"}}},
		{name: "got myself", text: "I got myself an e-bike for the commute.", want: []want{{pred: "OWNS", obj: "e-bike"}}},
		// controls
		{name: "a twin is a sibling", text: "My twin lives in Perth.", none: []want{{pred: "PARENT_OF"}}},
		{name: "a condition not had", text: "I don't have diabetes, luckily.", none: []want{{pred: "HAS_CONDITION"}}},
		{name: "a condition had once", text: "I had gout once, years ago.", none: []want{{pred: "HAS_CONDITION"}}},
		{name: "a class taught once", text: "I taught a class on pottery last week.", none: []want{{pred: "WORKS_AS"}}},
		{name: "teaching one's kids", text: "I teach my kids to swim.", none: []want{{pred: "WORKS_AS"}}},
		{name: "money spent", text: "I spend 200 pounds a month on coffee.", none: []want{{pred: "PRACTICES"}}},
		{name: "diagnosed with a pronoun", text: "I was diagnosed with it years ago.", none: []want{{pred: "HAS_CONDITION"}}},
		{name: "not diagnosed", text: "I wasn't diagnosed with anything in the end.", none: []want{{pred: "HAS_CONDITION"}}},
		{name: "collected someone", text: "I collected the kids from school.", none: []want{{pred: "PRACTICES"}}},
		{name: "collected a parcel", text: "I collected my parcel this morning.", none: []want{{pred: "PRACTICES"}}},
		{name: "a trip taken", text: "We took a trip to Peru last year.", none: []want{{pred: "PLANS"}}},
		{name: "off to bed", text: "I'm off to bed.", none: []want{{pred: "PLANS"}}},
		{name: "was off to", text: "I was off to Paris when the strike started.", none: []want{{pred: "PLANS"}}},
		{name: "a trip in a question", text: "Any ideas for a trip to Rome?", none: []want{{pred: "PLANS"}}},
	})
}
