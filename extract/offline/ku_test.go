package offline

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/graphmem/graphmem/bench/dataset"
	"github.com/graphmem/graphmem/extract"
)

// kuScenario is one knowledge-update conversation (testdata copy of the
// shared visible set), read by bench/dataset's loader.
type kuScenario = dataset.Scenario

func loadKU(t *testing.T) []kuScenario {
	t.Helper()
	out, err := dataset.LoadScenarios("testdata/knowledge_update.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// kuInputs turns each session into one extract.Input, as the service does.
func kuInputs(s kuScenario) []extract.Input {
	var ins []extract.Input
	for si, sess := range s.Sessions {
		in := extract.Input{UserID: "u-" + s.ID, SessionID: fmt.Sprintf("%s-s%d", s.ID, si)}
		for ei, e := range sess.Events {
			in.Events = append(in.Events, extract.Event{ID: fmt.Sprintf("s%d-e%d", si, ei), Role: e.Role, Kind: "message",
				Name: e.Name, Content: e.Content, OccurredAt: sess.At})
		}
		ins = append(ins, in)
	}
	return ins
}

// kuWant lists, per scenario and session, the facts each check needs.
var kuWant = map[string][][]want{
	"ku-v-01": {{{pred: "LIVES_IN", obj: "Paris"}, {pred: "WORKS_AS", obj: "nurse"}},
		{{pred: "LIVES_IN", obj: "Berlin", from: "2024-08-01", says: "Berlin"}}},
	"ku-v-02": {{{pred: "LIKES", obj: "sushi"}, {pred: "HAS_FAVORITE", obj: "sushi", qual: "food"}},
		{{pred: "LIKES", obj: "sushi", neg: true, says: "doesn't like sushi"}}},
	"ku-v-03": {{{pred: "WORKS_AT", obj: "Acme Corp"}, {pred: "WORKS_AS", obj: "data analyst"}},
		{{pred: "WORKS_AT", obj: "Acme Corp", neg: true}, {pred: "WORKS_AT", obj: "Globex", says: "Globex"}}},
	"ku-v-04": {{{pred: "LIKES", obj: "pizza"}}, {{pred: "LIKES", obj: "burgers"}}},
	"ku-v-05": {{{subj: "Emma", pred: "LIVES_IN", obj: "Rome", says: "Emma lives in Rome"}, {pred: "SIBLING_OF", obj: "Emma", qual: "sister"}},
		{{pred: "LIVES_IN", obj: "Lisbon"}}},
	"ku-v-06": {{{pred: "LIKES", obj: "coffee"}}, {{pred: "LIKES", obj: "coffee", neg: true}, {pred: "LIKES", obj: "green tea"}}},
	"ku-v-07": {{{pred: "HAS_PET", obj: "Rex", qual: "dog", says: "Rex"}}, {{pred: "HAS_PET", obj: "Luna", qual: "cat", says: "Luna"}}},
	"ku-v-08": {{{pred: "HAS_DIET", obj: "vegetarian"}},
		{{pred: "HAS_DIET", obj: "vegetarian", neg: true, says: "no longer vegetarian"}, {pred: "LIKES", obj: "chicken"}}},
	"ku-v-09": {{{pred: "PREFERS", obj: "window seats", qual: "seat"}}, {{pred: "PREFERS", obj: "aisle seats", qual: "seat", says: "aisle"}}},
	"ku-v-10": {{{pred: "HAS_FAVORITE", obj: "Python", qual: "programming language"}},
		{{pred: "HAS_FAVORITE", obj: "Go", qual: "programming language", says: " Go"}}},
	"ku-v-11": {{{pred: "DRIVES", obj: "Toyota Corolla"}},
		{{pred: "DRIVES", obj: "Tesla Model 3", says: "Tesla"}, {pred: "DRIVES", obj: "Corolla", says: "no longer drives"}}}, // ended: valid_to
	"ku-v-12": {{{pred: "ALLERGIC_TO", obj: "peanuts", says: "peanut"}}, {{pred: "ALLERGIC_TO", obj: "shellfish", says: "shellfish"}}},
	"ku-v-13": {{{pred: "SUPPORTS", obj: "Arsenal"}}, {{subj: "brother", pred: "SUPPORTS", obj: "Chelsea"}}},
	"ku-v-14": {{{subj: "team meeting", pred: "SCHEDULED_ON", obj: "Mondays"}},
		{{subj: "team meeting", pred: "SCHEDULED_ON", obj: "Thursdays", says: "Thursday"}}},
	"ku-v-15": {{{pred: "DISLIKES", obj: "running"}}, {{pred: "LIKES", obj: "running"}}},
	"ku-v-16": {{{pred: "HAS_STATUS", obj: "single"}}, {{pred: "MARRIED_TO", obj: "Sam", says: "Sam"}, {pred: "HAS_STATUS", obj: "married"}}},
	"ku-v-17": {{{pred: "USES", obj: "iPhone"}}, {{pred: "USES", obj: "iPhone", says: "iPhone"}}},
	"ku-v-18": {{{pred: "LEARNING", obj: "Spanish"}}, {{pred: "LEARNING", obj: "Spanish", neg: true}, {pred: "LEARNING", obj: "Japanese", says: "Japanese"}}},
	"ku-v-19": {{{pred: "HAS_BUDGET", obj: "2000 euros", qual: "trip"}}, {{pred: "HAS_BUDGET", obj: "3000 euros", qual: "trip", says: "3000"}}},
	"ku-v-20": {{{pred: "LIKES", obj: "jazz"}}, {{pred: "LIKES", obj: "rock music"}}, {{pred: "LIKES", obj: "jazz", neg: true}}},
}

// kuNone lists facts that must not appear (a relative's fact, an
// assistant's suggestion).
var kuNone = map[string][][]want{
	"ku-v-05": {{{pred: "LIVES_IN", obj: "Rome"}}, nil},
	"ku-v-13": {nil, {{pred: "SUPPORTS", obj: "Chelsea"}}},
	"ku-v-17": {nil, {{pred: "USES", obj: "Android"}}},
}

func TestKnowledgeUpdateScenarios(t *testing.T) {
	o := New(Config{})
	scenarios := loadKU(t)
	if len(scenarios) != 20 {
		t.Fatalf("want 20 scenarios, got %d", len(scenarios))
	}
	for _, s := range scenarios {
		t.Run(s.ID, func(t *testing.T) {
			wants, ok := kuWant[s.ID]
			if !ok {
				t.Fatalf("no expectations for %s", s.ID)
			}
			for si, in := range kuInputs(s) {
				res, err := o.Extract(context.Background(), in)
				if err != nil {
					t.Fatal(err)
				}
				for _, w := range wants[si] {
					checkWant(t, res, w)
				}
				if none := kuNone[s.ID]; si < len(none) {
					for _, w := range none[si] {
						checkAbsent(t, res, w)
					}
				}
				checkInvariants(t, in, res)
			}
		})
	}
}

// Superseding facts must land in the same slot as the facts they replace:
// same subject key, predicate and qualifier across sessions.
func TestKnowledgeUpdateSlotsMatchAcrossSessions(t *testing.T) {
	o := New(Config{})
	slot := func(in extract.Input, pred string) string {
		res, _ := o.Extract(context.Background(), in)
		for _, f := range res.Facts {
			if f.Predicate == pred && f.Polarity == "positive" {
				return f.Subject + "|" + f.Qualifier
			}
		}
		return ""
	}
	for id, pred := range map[string]string{"ku-v-09": "PREFERS", "ku-v-10": "HAS_FAVORITE", "ku-v-14": "SCHEDULED_ON",
		"ku-v-19": "HAS_BUDGET", "ku-v-01": "LIVES_IN", "ku-v-11": "DRIVES"} {
		for _, s := range loadKU(t) {
			if s.ID != id {
				continue
			}
			ins := kuInputs(s)
			a, b := slot(ins[0], pred), slot(ins[1], pred)
			if a == "" || a != b {
				t.Errorf("%s %s: slots differ across sessions: %q vs %q", id, pred, a, b)
			}
		}
	}
}

// checkInvariants holds for every result: the model is named, every fact
// has a sentence naming its object, cites events of the input, and no
// fact rests on an unnamed assistant message.
func checkInvariants(t *testing.T, in extract.Input, res extract.Result) {
	t.Helper()
	if res.Model != ExtractModel {
		t.Errorf("model = %q", res.Model)
	}
	byID := map[string]extract.Event{}
	for _, ev := range in.Events {
		byID[ev.ID] = ev
	}
	ents := map[string]extract.Entity{}
	users := 0
	for _, e := range res.Entities {
		if _, dup := ents[e.Key]; dup {
			t.Errorf("duplicate entity key %q", e.Key)
		}
		ents[e.Key] = e
		if e.IsUser {
			users++
			if e.Key != userKey {
				t.Errorf("user entity key %q", e.Key)
			}
		}
		if !ontologyTypeValid(e) {
			t.Errorf("entity %q has invalid type %q", e.Name, e.Type)
		}
	}
	if users > 1 {
		t.Errorf("%d user entities", users)
	}
	for _, f := range res.Facts {
		if _, ok := ents[f.Subject]; !ok {
			t.Errorf("fact subject %q is not an entity", f.Subject)
		}
		obj, ok := ents[f.Object]
		if !ok {
			t.Errorf("fact object %q is not an entity", f.Object)
			continue
		}
		if !strings.Contains(strings.ToLower(f.Sentence), strings.ToLower(obj.Name)) {
			t.Errorf("sentence %q does not name its object %q", f.Sentence, obj.Name)
		}
		if len(f.SourceEventIDs) == 0 {
			t.Errorf("fact %q has no source events", f.Sentence)
		}
		for _, id := range f.SourceEventIDs {
			ev, ok := byID[id]
			if !ok {
				t.Errorf("fact %q cites unknown event %q", f.Sentence, id)
			}
			if strings.EqualFold(ev.Role, "assistant") && ev.Name == "" {
				t.Errorf("fact %q rests on an assistant message", f.Sentence)
			}
		}
		if f.Confidence <= 0 || f.Confidence > 1 || f.Strength < 0 || f.Strength > 1 {
			t.Errorf("fact %q has confidence %v strength %v", f.Sentence, f.Confidence, f.Strength)
		}
	}
	for id, keys := range res.Mentions {
		if _, ok := byID[id]; !ok {
			t.Errorf("mentions for unknown event %q", id)
		}
		for _, k := range keys {
			if _, ok := ents[k]; !ok {
				t.Errorf("mention of unknown entity %q", k)
			}
		}
	}
}

func ontologyTypeValid(e extract.Entity) bool {
	return e.Type.Label() == string(e.Type)
}
