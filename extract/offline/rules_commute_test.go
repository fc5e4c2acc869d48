package offline

import "testing"

func TestCommutes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "take the means", text: "I take the tram to work every day.",
			want: []want{{pred: "COMMUTES_BY", obj: "tram", qual: "work"}}},
		{name: "get, office", text: "I usually get the train to the office.",
			want: []want{{pred: "COMMUTES_BY", obj: "train", qual: "work"}}},
		{name: "a numbered route", text: "I catch the 12 bus to school.",
			want: []want{{pred: "COMMUTES_BY", obj: "12 bus", qual: "school"}}},
		{name: "walk", text: "I walk to the office these days, it's only 15 minutes.",
			want: []want{{pred: "COMMUTES_BY", obj: "on foot", qual: "work", says: "walks to work"}}},
		{name: "cycle", text: "I ditched the car. I cycle to uni now.",
			want: []want{{pred: "COMMUTES_BY", obj: "bike", qual: "school"}}},
		{name: "commute by", text: "I commute by ferry.", want: []want{{pred: "COMMUTES_BY", obj: "ferry"}}},
		// controls
		{name: "one trip", text: "I took a taxi to work yesterday.", none: []want{{pred: "COMMUTES_BY"}}},
		{name: "walking the dog", text: "I walk the dog every morning.", none: []want{{pred: "COMMUTES_BY"}}},
		{name: "someone else's commute", text: "My husband takes the bus to work.", none: []want{{pred: "COMMUTES_BY", obj: "bus"}}},
	})
}
