package kuextract

import (
	"context"
	"testing"
	"time"

	"github.com/graphmem/graphmem/extract"
	"github.com/graphmem/graphmem/extract/offline"
	"github.com/graphmem/graphmem/ontology"
)

// scripted is an extractor that answers each window with a fixed result,
// shaped as the LLM engine returns it (extract/llm's validation output).
type scripted struct{ results []extract.Result }

func (s *scripted) Extract(_ context.Context, in extract.Input) (extract.Result, error) {
	r := s.results[0]
	s.results = s.results[1:]
	return r, nil
}

func userTurns(at time.Time, texts ...string) Session {
	s := Session{At: at}
	for i, text := range texts {
		s.Events = append(s.Events, extract.Event{ID: string(rune('a' + i)), Role: "user", Kind: "message", Content: text, OccurredAt: at})
	}
	return s
}

// state renders what the policy believes of one slot's objects: name →
// status, with "(never held)" for a value closed with an empty validity.
func state(m Memory, subject, pred string) map[string]string {
	out := map[string]string{}
	for _, f := range m.Facts {
		if m.Names[f.Subject] != subject && f.Subject != subject || f.Predicate.Name != pred || f.Polarity != ontology.Positive {
			continue
		}
		s := string(f.Status)
		if f.ValidTo != nil && f.ValidTo.Equal(f.ValidFrom) {
			s += " (never held)"
		}
		out[m.Names[f.Object]] = s
	}
	return out
}

// Both engines feed one policy: the same statements, read by the offline
// engine from text and given by the LLM engine as structured facts, end in
// the same beliefs.
func TestBothEnginesFeedOnePolicy(t *testing.T) {
	d1, d2 := time.Date(2025, 1, 10, 9, 0, 0, 0, time.UTC), time.Date(2025, 6, 2, 9, 0, 0, 0, time.UTC)
	user := extract.Entity{Key: "user", Name: "User", Type: ontology.Person, IsUser: true}
	val := func(k, n string) extract.Entity { return extract.Entity{Key: k, Name: n, Type: ontology.Value} }
	end := d2
	cases := []struct {
		name    string
		text    []Session
		llm     []extract.Result
		subject string
		pred    string
		want    map[string]string
	}{
		{
			name: "a newer measure supersedes (one slot)",
			text: []Session{userTurns(d1, "My rent is 900 euros."), userTurns(d2, "My rent went up to 1,050 euros.")},
			llm: []extract.Result{
				{Entities: []extract.Entity{user, val("v1", "900 euros")}, Facts: []extract.Fact{{Subject: "user", Predicate: "HAS_MEASURE", Object: "v1", Qualifier: "rent", Polarity: ontology.Positive, Confidence: 0.9}}},
				{Entities: []extract.Entity{user, val("v2", "1,050 euros")}, Facts: []extract.Fact{{Subject: "user", Predicate: "HAS_MEASURE", Object: "v2", Qualifier: "rent", Polarity: ontology.Positive, Confidence: 0.9}}},
			},
			subject: "user", pred: "HAS_MEASURE",
			want: map[string]string{"900 euros": "superseded", "1,050 euros": "current"},
		},
		{
			name: "a correction: the slip never held",
			text: []Session{userTurns(d1, "My dentist appointment is on Monday.", "Sorry, I meant Friday, not Monday.")},
			llm: []extract.Result{{Entities: []extract.Entity{user, {Key: "appt", Name: "dentist appointment", Type: ontology.Occasion, Owner: "user"}, val("mon", "Monday"), val("fri", "Friday")},
				Facts: []extract.Fact{{Subject: "appt", Predicate: "SCHEDULED_ON", Object: "mon", Polarity: ontology.Positive, Confidence: 0.9},
					{Subject: "appt", Predicate: "SCHEDULED_ON", Object: "fri", Polarity: ontology.Positive, Confidence: 0.9, Correction: true, Corrects: "mon"}}}},
			subject: "dentist appointment", pred: "SCHEDULED_ON",
			want: map[string]string{"Monday": "superseded (never held)", "Friday": "current"},
		},
		{
			name: "a relative's measure leaves the user's",
			text: []Session{userTurns(d1, "I earn 52k."), userTurns(d2, "My brother's salary is 80k.")},
			llm: []extract.Result{
				{Entities: []extract.Entity{user, val("v1", "52k")}, Facts: []extract.Fact{{Subject: "user", Predicate: "EARNS", Object: "v1", Qualifier: "salary", Polarity: ontology.Positive, Confidence: 0.9}}},
				{Entities: []extract.Entity{user, {Key: "bro", Name: "brother", Type: ontology.Person, Owner: "user"}, val("v2", "80k")},
					Facts: []extract.Fact{{Subject: "bro", Predicate: "HAS_MEASURE", Object: "v2", Qualifier: "salary", Polarity: ontology.Positive, Confidence: 0.9}}},
			},
			subject: "user", pred: "HAS_MEASURE",
			want: map[string]string{"52k": "current"},
		},
		{
			name: "a many slot accumulates; an ending closes one value with no successor",
			text: []Session{userTurns(d1, "I own a kayak. I also own a road bike."), userTurns(d2, "I sold the kayak.")},
			llm: []extract.Result{
				{Entities: []extract.Entity{user, {Key: "k", Name: "kayak", Type: ontology.Product}, {Key: "b", Name: "road bike", Type: ontology.Product}},
					Facts: []extract.Fact{{Subject: "user", Predicate: "OWNS", Object: "k", Polarity: ontology.Positive, Confidence: 0.9},
						{Subject: "user", Predicate: "OWNS", Object: "b", Polarity: ontology.Positive, Confidence: 0.9}}},
				{Entities: []extract.Entity{user, {Key: "k", Name: "kayak", Type: ontology.Product}},
					Facts: []extract.Fact{{Subject: "user", Predicate: "OWNS", Object: "k", Polarity: ontology.Positive, Confidence: 0.9, ValidTo: &end}}},
			},
			subject: "user", pred: "OWNS",
			want: map[string]string{"kayak": "superseded", "road bike": "current"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			engines := map[string]extract.Extractor{"offline": offline.New(offline.Config{}), "llm": &scripted{results: tc.llm}}
			for name, ex := range engines {
				m, err := Run(context.Background(), ex, "u", tc.text)
				if err != nil {
					t.Fatal(err)
				}
				got := state(m, tc.subject, tc.pred)
				for obj, want := range tc.want {
					if got[obj] != want {
						t.Errorf("%s: %s is %q, want %q (all: %v)", name, obj, got[obj], want, got)
					}
				}
				if tc.name == "a relative's measure leaves the user's" && len(got) != 1 {
					t.Errorf("%s: the user's salary slot holds %v", name, got)
				}
			}
		})
	}
}
