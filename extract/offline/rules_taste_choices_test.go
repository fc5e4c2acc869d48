package offline

import "testing"

// TestTasteChoices covers preferences said as choices, judgements said
// with a noun or an idiom, and tastes of an activity with its
// circumstance (rules_taste_choices.go and the frames of taste). The
// sentences were written for this test; the tuning probe of preference
// changes (bench/data/probes/preference-changes.jsonl) has other ones.
// The controls keep wishes about what to do, errands, single choices,
// requests and uses from reading as tastes.
func TestTasteChoices(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "would rather than", text: "I'd rather have green tea than coffee these days.",
			want: []want{{pred: "PREFERS", obj: "green tea"}, {pred: "PREFERS", obj: "coffee", neg: true}}},
		{name: "would rather a bare phrase", text: "Honestly I'd rather the bus.", want: []want{{pred: "PREFERS", obj: "bus"}}},
		{name: "would rather a verb to", text: "I'd rather listen to audiobooks than read.",
			want: []want{{pred: "PREFERS", obj: "audiobooks"}}, none: []want{{pred: "PREFERS", obj: "read"}}},
		{name: "would rather the form of a thing", text: "I'd rather get my bank statements as a paper letter.",
			want: []want{{pred: "PREFERS", obj: "paper letter", qual: "statement"}}},
		{name: "give me over", text: "Give me a paperback over an e-reader any day.",
			want: []want{{pred: "PREFERS", obj: "paperback"}, {pred: "PREFERS", obj: "e-reader", neg: true}}},
		{name: "habitual choice", text: "I usually order the mushroom risotto there.", want: []want{{pred: "PREFERS", obj: "mushroom risotto"}}},
		{name: "habitual booking", text: "We always book the early flight.", want: []want{{pred: "PREFERS", obj: "early flight"}}},
		{name: "avoid", text: "I avoid fried food now.", want: []want{{pred: "LIKES", obj: "fried food", neg: true}}},
		{name: "steer clear", text: "I steer clear of energy drinks.", want: []want{{pred: "LIKES", obj: "energy drinks", neg: true}}},
		{name: "much prefer", text: "I much prefer trains to planes.", want: []want{{pred: "PREFERS", obj: "trains"}}},
		{name: "judged with a noun", text: "Ironing is a total chore.", want: []want{{pred: "DISLIKES", obj: "ironing"}}},
		{name: "feels like a noun", text: "Yoga feels like a treat after work.", want: []want{{pred: "LIKES", obj: "yoga"}}},
		{name: "too much hassle", text: "Camping is too much hassle these days.", want: []want{{pred: "DISLIKES", obj: "camping"}}},
		{name: "leaves me cold", text: "Brutalist architecture leaves me cold.", want: []want{{pred: "DISLIKES", obj: "brutalist architecture"}}},
		{name: "puts me off", text: "Blue cheese puts me off.", want: []want{{pred: "DISLIKES", obj: "blue cheese"}}},
		{name: "suits me", text: "Early mornings suit me better now.", want: []want{{pred: "LIKES", obj: "early mornings"}}},
		{name: "activity with its circumstance", text: "Swimming in cold water is my thing now.",
			want: []want{{pred: "LIKES", obj: "swimming in cold water"}}},
		{name: "a relative's taste, the speaker's judgement", text: "My brother loves horror films but I find them boring.",
			want: []want{{pred: "DISLIKES", obj: "horror films"}}},
		{name: "stance adverb before a favourite", text: "Oddly, the sauna is my favourite part of the spa.",
			want: []want{{pred: "HAS_FAVORITE", obj: "sauna", qual: "part of the spa"}}},
		{name: "reply language", text: "Please write to me in Portuguese from now on.",
			want: []want{{pred: "PREFERS", obj: "Portuguese", qual: "reply language"}}},
		{name: "reply style, kept", text: "Please keep the replies brief and simple.",
			want: []want{{pred: "PREFERS", obj: "brief simple replies", qual: "reply style"}}},
		{name: "reply style, wanted", text: "From now on I'd prefer thorough, detailed explanations.",
			want: []want{{pred: "PREFERS", obj: "thorough detailed explanations", qual: "reply style"}}},
		{name: "how I like my thing", text: "Black is how I take my coffee these days.",
			want: []want{{pred: "PREFERS", obj: "black", qual: "coffee"}}},
		{name: "reply style asked as a question", text: "Could you keep your answers short from now on?",
			want: []want{{pred: "PREFERS", obj: "short answers", qual: "reply style"}}},
		{name: "reply language asked as a question", text: "Can you reply in German from now on?",
			want: []want{{pred: "PREFERS", obj: "German", qual: "reply language"}}},
		// controls
		{name: "a one-off explanation", text: "Can you give me detailed explanations of the tax rules?", none: []want{{pred: "PREFERS"}}},
		{name: "a one-off answer", text: "Could you give me a short answer?", none: []want{{pred: "PREFERS"}}},
		{name: "how I met someone", text: "Work is how I met my husband.", none: []want{{pred: "PREFERS"}}},
		{name: "answers to questions", text: "I'd like answers to my questions about the visa.", none: []want{{pred: "PREFERS"}}},
		{name: "someone's replies", text: "Her replies were short and rude.", none: []want{{pred: "PREFERS"}}},
		{name: "keep a thing", text: "Keep the receipts short of the folder.", none: []want{{pred: "PREFERS"}}},
		{name: "a phrase in a language", text: "How do you say thank you in Portuguese?", none: []want{{pred: "PREFERS"}}},
		{name: "speaking to a relative", text: "I talk to my dad in Welsh.", none: []want{{pred: "PREFERS"}}},
		{name: "one occasion", text: "Honestly I'd rather have a nap than go out.", none: []want{{pred: "PREFERS"}}},
		{name: "wish to do", text: "I'd rather stay home tonight.", none: []want{{pred: "PREFERS"}}},
		{name: "rather not", text: "I'd rather not talk about it.", none: []want{{pred: "PREFERS"}}},
		{name: "one booking", text: "I booked a table for Friday.", none: []want{{pred: "PREFERS"}}},
		{name: "a request", text: "Give me a minute to think.", none: []want{{pred: "PREFERS"}}},
		{name: "avoid once", text: "I avoided the motorway yesterday.", none: []want{{pred: "LIKES"}}},
		{name: "avoid a person", text: "I avoid my ex.", none: []want{{pred: "LIKES"}}},
		{name: "a use, not a taste", text: "The blue dress suits me for weddings.", none: []want{{pred: "LIKES"}}},
		{name: "a plan that works", text: "The plan works for me.", none: []want{{pred: "LIKES"}}},
	})
}
