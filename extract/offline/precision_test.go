package offline

import (
	"context"
	"testing"

	"github.com/graphmem/graphmem/extract"
)

// Questions, conditionals, wishes, advice, generic statements and other
// people's chatter must not become facts about the user.
func TestPrecisionNoUserFacts(t *testing.T) {
	for _, text := range []string{
		"Do you like sushi?",
		"Do you like sushi",
		"What do you think about Berlin?",
		"Where should I move, Berlin or Paris?",
		"Does your sister live in Rome?",
		"Did I tell you I moved to Berlin?",
		"If I lived in Paris I would learn French.",
		"If I get the job at Google, I'll move to California.",
		"I wish I lived in Paris.",
		"Imagine if I worked at Google.",
		"You should try sushi.",
		"Your sister lives in Rome.",
		"You live in Paris, right?",
		"Many people switch to Android for the price.",
		"Some people love sushi.",
		"Everyone hates Mondays.",
		"I should learn Spanish.",
		"I can't decide whether to move to Berlin.",
		"I don't know if I like sushi.",
		"I'm creating a library for when I have kids.",
		"It's a lot to take in.",
		"Thanks, that's really sweet!",
		"Wow, that's cool!",
		"Life's too short to worry.",
	} {
		res := extractUser(t, text, defaultAt)
		for _, f := range res.Facts {
			t.Errorf("%q produced %s %s %s: %q", text, f.Subject, f.Predicate, f.Object, f.Sentence)
		}
	}
}

func TestPrecisionHypotheticalsDoNotAssertStates(t *testing.T) {
	cases := []struct {
		text string
		none want
	}{
		{"I would love to live in Paris someday.", want{pred: "LIVES_IN", obj: "Paris"}},
		{"My friend thinks I should move to Berlin.", want{pred: "LIVES_IN", obj: "Berlin"}},
		{"I might move to Berlin.", want{pred: "LIVES_IN", obj: "Berlin"}},
		{"When I have kids, I want them to learn Spanish.", want{pred: "PARENT_OF", obj: "kids"}},
		{"I'd like to work at Google one day.", want{pred: "WORKS_AT", obj: "Google"}},
		{"I'm thinking about getting a dog.", want{pred: "HAS_PET", obj: "*"}},
	}
	for _, c := range cases {
		res := extractUser(t, c.text, defaultAt)
		checkAbsent(t, res, c.none)
	}
}

func TestHedgesLowerConfidence(t *testing.T) {
	for _, text := range []string{
		"I think I might move to Berlin next year.",
		"Maybe I'll learn Japanese.",
		"I guess I like jazz.",
		"I might start running.",
	} {
		res := extractUser(t, text, defaultAt)
		if len(res.Facts) == 0 {
			t.Errorf("%q: hedged statement lost entirely", text)
		}
		for _, f := range res.Facts {
			if f.Confidence > 0.5 {
				t.Errorf("%q: %s %s has confidence %v, want <= 0.5", text, f.Predicate, f.Object, f.Confidence)
			}
		}
	}
}

// An assistant (or tool) message never yields facts, whatever it says; the
// user's reply in the same window still does.
func TestAssistantAndToolMessagesAreNotFacts(t *testing.T) {
	in := extract.Input{UserID: "u1", Events: []extract.Event{
		{ID: "a1", Role: "assistant", Kind: "message", Content: "You live in Paris, right? I work at OpenAI and I love sushi. Many people switch to Android.", OccurredAt: defaultAt},
		{ID: "t1", Role: "tool", Kind: "tool_result", Content: "The user lives in Berlin and works at Globex.", OccurredAt: defaultAt},
		{ID: "s1", Role: "system", Kind: "message", Content: "I am a helpful assistant who loves jazz.", OccurredAt: defaultAt},
		{ID: "u1", Role: "user", Kind: "message", Content: "Not me, I'm keeping my iPhone.", OccurredAt: defaultAt},
	}}
	res, err := New(Config{}).Extract(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Facts {
		for _, id := range f.SourceEventIDs {
			if id != "u1" {
				t.Errorf("fact %q rests on non-user event %s", f.Sentence, id)
			}
		}
	}
	checkWant(t, res, want{pred: "USES", obj: "iPhone"})
	checkAbsent(t, res, want{pred: "USES", obj: "Android"})
	// The assistant's names are still mentioned.
	if len(res.Mentions["a1"]) == 0 {
		t.Errorf("assistant message mentions nothing: %v", res.Mentions)
	}
	checkInvariants(t, in, res)
}

// A named speaker's first person is that person, and the user (if named)
// is recognized by name.
func TestSpeakerAttribution(t *testing.T) {
	in := extract.Input{UserID: "u1", UserName: "Caroline", Events: []extract.Event{
		{ID: "1", Role: "user", Name: "Caroline", Content: "I live in Boston.", OccurredAt: defaultAt},
		{ID: "2", Role: "user", Name: "Melanie", Content: "I live in Denver and I love pottery.", OccurredAt: defaultAt},
		{ID: "3", Role: "assistant", Name: "Melanie", Content: "My kids love the beach.", OccurredAt: defaultAt},
		{ID: "4", Role: "user", Content: "I'm a counselor.", OccurredAt: defaultAt},
	}}
	res, err := New(Config{}).Extract(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	checkWant(t, res, want{pred: "LIVES_IN", obj: "Boston", says: "Caroline lives in Boston"})
	checkWant(t, res, want{pred: "WORKS_AS", obj: "counselor", says: "Caroline works as"})
	checkWant(t, res, want{subj: "Melanie", pred: "LIVES_IN", obj: "Denver", says: "Melanie lives in Denver"})
	checkWant(t, res, want{subj: "Melanie", pred: "LIKES", obj: "pottery"})
	checkWant(t, res, want{subj: "Melanie", pred: "PARENT_OF", obj: "kids"})
	checkAbsent(t, res, want{pred: "LIVES_IN", obj: "Denver"})
	var users []extract.Entity
	for _, e := range res.Entities {
		if e.IsUser {
			users = append(users, e)
		}
	}
	if len(users) != 1 || users[0].Name != "Caroline" {
		t.Errorf("user entities = %+v, want one named Caroline", users)
	}
	checkInvariants(t, in, res)
}

func TestUnknownUserIsTheUser(t *testing.T) {
	res := extractUser(t, "I live in Berlin.", defaultAt)
	for _, e := range res.Entities {
		if e.IsUser && (e.Name != "User" || e.Key != "user") {
			t.Errorf("user entity = %+v", e)
		}
	}
	checkWant(t, res, want{pred: "LIVES_IN", obj: "Berlin", says: "The user lives in Berlin"})
}

// Extraction reads the summary when a window arrives without raw events.
func TestExtractFromSummaryOnly(t *testing.T) {
	summary := "USER_CONTEXT:\n- [3 February 2024] The user lives in Paris\nCOMPLETED:\n" +
		"- [14 September 2024] User: Big news: I moved to Berlin last month (August 2024).\n" +
		"- [14 September 2024] Caroline: I went to a LGBTQ support group yesterday (13 September 2024).\n"
	res, err := New(Config{}).Extract(context.Background(), extract.Input{UserID: "u1", Summary: summary})
	if err != nil {
		t.Fatal(err)
	}
	// Facts read from a summary cannot cite raw events (the summary does not
	// name them); they are found all the same.
	for _, w := range []want{{pred: "LIVES_IN", obj: "Berlin", from: "2024-08-01"}, {pred: "LIVES_IN", obj: "Paris"},
		{subj: "Caroline", pred: "ATTENDED", obj: "LGBTQ support group", from: "2024-09-13"}} {
		facts := findFacts(res, w.subj, w.pred, w.obj)
		if len(facts) != 1 || facts[0].ValidFrom == nil || w.from != "" && facts[0].ValidFrom.Format("2006-01-02") != w.from {
			t.Errorf("%v: got %+v", w, facts)
		}
	}
}

func TestExtractHonoursCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := New(Config{}).Extract(ctx, extract.Input{Events: []extract.Event{{ID: "1", Role: "user", Content: "I live in Oslo."}}}); err == nil {
		t.Fatal("cancelled context: no error")
	}
}
