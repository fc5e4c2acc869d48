package offline

import "testing"

// Tastes said in idioms: a thing right up one's street or a hard no, a
// revelation, a food one could eat every day or would never eat again, a
// smell that turns the stomach, a thing avoided like the plague, a
// convert, a habit kicked, nothing better than a thing, "give me X any
// day", and an "it" or "them" that points at another person's liking in
// the clause before.
// Each shape has a control that must stay silent. The sentences are this
// file's own.
func TestTasteIdioms(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "right up my street", text: "Bouldering is right up my street.",
			want: []want{{pred: "LIKES", obj: "bouldering"}}},
		{name: "a street named in a place is no taste", text: "The bakery is right up my street, two doors down.",
			none: []want{{pred: "LIKES", obj: "*"}}},
		{name: "a hard no", text: "Marmite is a hard no from me.",
			want: []want{{pred: "DISLIKES", obj: "marmite"}}},
		{name: "a revelation", text: "Pho was a revelation when I finally tried it.",
			want: []want{{pred: "LIKES", obj: "pho"}}},
		{name: "an event's revelation is no taste", text: "The news was a revelation to everyone.",
			none: []want{{pred: "LIKES", obj: "*"}}},
		{name: "could eat every day", text: "I could eat dumplings every day.",
			want: []want{{pred: "LIKES", obj: "dumplings"}}},
		{name: "could eat a horse names no food", text: "I could eat a horse right now.",
			none: []want{{pred: "LIKES", obj: "*"}}},
		{name: "could eat, once", text: "I could eat sushi tonight if you're up for it.",
			none: []want{{pred: "LIKES", obj: "*"}}},
		{name: "never again", text: "I'd never eat quinoa again.",
			want: []want{{pred: "DISLIKES", obj: "quinoa"}}},
		{name: "never again, a place", text: "I'll never eat there again.",
			none: []want{{pred: "DISLIKES", obj: "*"}}},
		{name: "would eat, supposed", text: "I would eat more fish if it were cheaper.",
			none: []want{{pred: "LIKES", obj: "*"}, {pred: "DISLIKES", obj: "*"}}},
		{name: "turns my stomach", text: "The smell of durian turns my stomach.",
			want: []want{{pred: "DISLIKES", obj: "durian"}}},
		{name: "one occasion turning the stomach", text: "That ferry crossing turned my stomach.",
			none: []want{{pred: "DISLIKES", obj: "*"}}},
		{name: "avoided like the plague", text: "I avoid energy drinks like the plague.",
			want: []want{{pred: "LIKES", obj: "energy drinks", neg: true}}},
		{name: "them after another person's liking", text: "My partner loves anchovies but I can't bear them.",
			want: []want{{pred: "DISLIKES", obj: "anchovies"}, {subj: "partner", pred: "LIKES", obj: "anchovies"}}},
		{name: "them with nothing liked before", text: "We saw the neighbours and I can't bear them.",
			none: []want{{pred: "DISLIKES", obj: "*"}}},
		{name: "it after a comma", text: "My kids love Bluey, I can't stand it.",
			want: []want{{pred: "DISLIKES", obj: "Bluey"}}},
		{name: "it after a comma, nothing liked before", text: "The flat is tiny, I can't stand it.",
			none: []want{{pred: "DISLIKES", obj: "*"}}},
		{name: "converted to", text: "I've been converted to oat milk.",
			want: []want{{pred: "LIKES", obj: "oat milk"}}},
		{name: "a building converted is no taste", text: "The barn was converted to flats last year.",
			none: []want{{pred: "LIKES", obj: "*"}}},
		{name: "a habit kicked", text: "I've finally kicked my sugar habit.",
			want: []want{{pred: "LIKES", obj: "sugar", neg: true}}},
		{name: "a ball kicked", text: "I kicked the ball over the fence.",
			none: []want{{pred: "LIKES", obj: "*"}}},
		{name: "nothing better than", text: "There's nothing better than a cold beer after a run.",
			want: []want{{pred: "LIKES", obj: "cold beer"}}},
		{name: "nothing better to do", text: "There's nothing better to do around here.",
			none: []want{{pred: "LIKES", obj: "*"}}},
		{name: "give me any day", text: "Give me a good thriller any day.",
			want: []want{{pred: "LIKES", obj: "thriller"}}},
		{name: "give me a minute", text: "Give me a minute to find it.",
			none: []want{{pred: "LIKES", obj: "*"}}},
	})
}
