package offline

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/graphmem/graphmem/extract"
)

func day(y int, m time.Month, d int) *time.Time {
	t := time.Date(y, m, d, 12, 0, 0, 0, time.UTC)
	return &t
}

func findInsight(ins []extract.Insight, parts ...string) *extract.Insight {
	for i := range ins {
		ok := true
		for _, p := range parts {
			if !strings.Contains(ins[i].Text, p) {
				ok = false
			}
		}
		if ok {
			return &ins[i]
		}
	}
	return nil
}

func TestInsightsFromFacts(t *testing.T) {
	in := extract.InsightInput{UserID: "u1", Facts: []extract.InsightFact{
		{ID: "f1", Subject: "Caroline", Predicate: "ATTENDED", Object: "LGBTQ support group", Sentence: "Caroline went to a LGBTQ support group on 7 May 2023",
			SessionIDs: []string{"s1"}, SourceEventIDs: []string{"D1:3"}, ValidFrom: day(2023, 5, 7)},
		{ID: "f2", Subject: "Caroline", Predicate: "ATTENDED", Object: "support group", Sentence: "Caroline went to a support group on 20 June 2023",
			SessionIDs: []string{"s4"}, SourceEventIDs: []string{"D4:2"}, ValidFrom: day(2023, 6, 20)},
		{ID: "f3", Subject: "User", Predicate: "HAS_PET", Object: "Rex", Sentence: "The user has a dog named Rex", SessionIDs: []string{"a"}, SourceEventIDs: []string{"e1"}},
		{ID: "f4", Subject: "User", Predicate: "HAS_PET", Object: "Luna", Sentence: "The user has a cat named Luna", SessionIDs: []string{"b"}, SourceEventIDs: []string{"e2"}},
		{ID: "f5", Subject: "User", Predicate: "LIVES_IN", Object: "Berlin", Sentence: "The user lives in Berlin", SessionIDs: []string{"b"}},
	}}
	ins, err := New(Config{}).Insights(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	rep := findInsight(ins, "Caroline regularly attends LGBTQ support groups")
	if rep == nil {
		t.Fatalf("no repetition insight: %+v", ins)
	}
	if strings.Join(rep.FactIDs, ",") != "f1,f2" || strings.Join(rep.SourceEventIDs, ",") != "D1:3,D4:2" || rep.Confidence <= 0.5 {
		t.Errorf("repetition insight = %+v", *rep)
	}
	pets := findInsight(ins, "The user has several pets", "Rex (dog)", "Luna (cat)")
	if pets == nil || len(pets.FactIDs) != 2 || pets.Key != "user pets" {
		t.Errorf("no pets insight: %+v", ins)
	}
	if rep.Key != "caroline attended support group" {
		t.Errorf("repetition key = %q", rep.Key)
	}
	for _, i := range ins {
		if strings.Contains(i.Text, "Berlin") {
			t.Errorf("single fact became an insight: %q", i.Text)
		}
	}
}

func TestInsightsFromEvents(t *testing.T) {
	at := func(d int) time.Time { return time.Date(2024, 1, d, 10, 0, 0, 0, time.UTC) }
	in := extract.InsightInput{UserID: "u1", Events: []extract.Event{
		{ID: "1", Role: "user", Content: "I love sushi, it's my favourite food.", OccurredAt: at(5)},
		{ID: "2", Role: "user", Content: "I went to a yoga class yesterday.", OccurredAt: at(8)},
		{ID: "3", Role: "user", Content: "Yesterday I went to a yoga class again.", OccurredAt: at(15)},
		{ID: "4", Role: "user", Content: "Actually I don't like sushi anymore.", OccurredAt: at(20)},
		{ID: "5", Role: "assistant", Content: "You love hiking, you went hiking twice.", OccurredAt: at(21)},
	}}
	ins, err := New(Config{}).Insights(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if findInsight(ins, "The user regularly attends yoga classes") == nil {
		t.Errorf("no repetition from events: %+v", ins)
	}
	flip := findInsight(ins, "The user's taste in sushi changed")
	if flip == nil || !strings.Contains(flip.Text, "5 January 2024") || !strings.Contains(flip.Text, "20 January 2024") {
		t.Fatalf("no flip insight: %+v", ins)
	}
	if strings.Join(flip.SourceEventIDs, ",") != "1,4" {
		t.Errorf("flip rests on %v", flip.SourceEventIDs)
	}
	for _, i := range ins {
		if strings.Contains(i.Text, "hiking") {
			t.Errorf("assistant chatter became an insight: %q", i.Text)
		}
	}
	again, _ := New(Config{}).Insights(context.Background(), in)
	if len(again) != len(ins) || again[0].Text != ins[0].Text {
		t.Error("insights are not deterministic")
	}
}
