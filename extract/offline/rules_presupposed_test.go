package offline

import "testing"

// A question states nothing, but a named product the speaker calls theirs
// is theirs; a product without a name, a supposition and a relative's
// product are not read. The sentences are this file's own.
func TestPresupposedPossessions(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "a named car in a question", text: "What's the best way to store my Mazda MX-5 over winter?",
			want: []want{{pred: "OWNS", obj: "Mazda MX-5"}, {pred: "DRIVES", obj: "Mazda MX-5"}}},
		{name: "a named device in a question", text: "Can my Kindle Paperwhite open PDFs?",
			want: []want{{pred: "OWNS", obj: "Kindle Paperwhite"}}},
		{name: "an unnamed product", text: "How often should I service my car?",
			none: []want{{pred: "OWNS", obj: "*"}}},
		{name: "a supposition", text: "What would I get if I sold my Toyota Yaris?",
			none: []want{{pred: "OWNS", obj: "*"}}},
	})
}
