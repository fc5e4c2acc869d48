package offline

import "testing"

// A list of activities after a verb of liking or doing gives every item the
// fact its first item gets, though commas before gerunds used to cut it
// into clauses of their own.
func TestGerundListsShareTheFact(t *testing.T) {
	cases := []struct {
		text  string
		wants []want
	}{
		{"I love cycling, knitting, or playing my cello.", []want{
			{pred: "LIKES", obj: "cycling"}, {pred: "LIKES", obj: "knitting"}, {pred: "LIKES", obj: "playing cello"}}},
		{"I enjoy painting, hiking, and reading books.", []want{
			{pred: "LIKES", obj: "painting"}, {pred: "LIKES", obj: "hiking"}, {pred: "LIKES", obj: "reading books", says: "reading books"}}},
		{"I'm into hiking, camping, and fishing.", []want{
			{pred: "LIKES", obj: "hiking"}, {pred: "LIKES", obj: "camping"}, {pred: "LIKES", obj: "fishing"}}},
		{"I took up painting, knitting and yoga.", []want{
			{pred: "PRACTICES", obj: "painting"}, {pred: "PRACTICES", obj: "knitting"}, {pred: "PRACTICES", obj: "yoga"}}},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			res := extractUser(t, tc.text, defaultAt)
			for _, w := range tc.wants {
				checkWant(t, res, w)
			}
		})
	}
}

// A piece after a comma that has a subject, an auxiliary or a clause word
// of its own stays a clause; so does a gerund after a clause that opens no
// list.
func TestGerundListsKeepClauses(t *testing.T) {
	cases := []struct {
		text   string
		joined bool
	}{
		{"I love cycling, knitting, or playing my cello.", true},
		{"I'm into hiking, camping, and fishing.", true},
		{"I cooked, then we went out.", false},
		{"I was tired, hoping to sleep.", false},
		{"I bought a painting, hoping she likes it.", false},
		{"I love painting, we go out every week.", false},
		{"I love hiking, because it is quiet.", false},
		{"I love hiking, knowing I am alone.", false},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			ss := sentences(tc.text, defaultAt)
			if len(ss) != 1 {
				t.Fatalf("%d sentences", len(ss))
			}
			if got := len(clauses(ss[0].toks)) == 1; got != tc.joined {
				t.Errorf("one clause = %v, want %v", got, tc.joined)
			}
		})
	}
}

// Items of a list that reach past a clause boundary get no fact.
func TestGerundListsStopAtClauses(t *testing.T) {
	for _, tc := range []struct{ text, pred, not string }{
		{"I love painting, we go out every week.", "LIKES", "go out"},
		{"I was tired, hoping to sleep.", "LIKES", "hoping to sleep"},
		{"I love hiking, because it is quiet.", "LIKES", "quiet"},
	} {
		t.Run(tc.text, func(t *testing.T) {
			res := extractUser(t, tc.text, defaultAt)
			if got := findFacts(res, "", tc.pred, tc.not); len(got) > 0 {
				t.Errorf("read %q as a list item: %q", tc.not, got[0].Sentence)
			}
		})
	}
}

// "my hobbies are/include/- X, Y and Z" gives the owner a liking of each
// activity; a hobby noun followed by something that is no activity gives
// none.
func TestHobbyListFrame(t *testing.T) {
	cases := []struct {
		text  string
		wants []want
	}{
		{"My hobbies are painting, hiking and reading.", []want{
			{pred: "LIKES", obj: "painting"}, {pred: "LIKES", obj: "hiking"}, {pred: "LIKES", obj: "reading"}}},
		{"My hobbies include knitting and yoga.", []want{{pred: "LIKES", obj: "knitting"}, {pred: "LIKES", obj: "yoga"}}},
		{"My hobbies - painting, yoga and playing the guitar.", []want{
			{pred: "LIKES", obj: "painting"}, {pred: "LIKES", obj: "yoga"}, {pred: "LIKES", obj: "playing the guitar"}}},
		{"I love cycling, yoga, and playing my cello.", []want{
			{pred: "LIKES", obj: "cycling"}, {pred: "LIKES", obj: "yoga"}, {pred: "LIKES", obj: "playing cello"}}},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			res := extractUser(t, tc.text, defaultAt)
			for _, w := range tc.wants {
				checkWant(t, res, w)
			}
		})
	}
	for _, text := range []string{"My hobbies are expensive, but I love them.", "My hobbies aren't cheap.",
		"My activities are limited now."} {
		t.Run(text, func(t *testing.T) {
			res := extractUser(t, text, defaultAt)
			if got := findFacts(res, "", "LIKES", "*"); len(got) > 0 {
				t.Errorf("read a liking: %q", got[0].Sentence)
			}
		})
	}
}
