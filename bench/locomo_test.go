package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// A two-session conversation in LoCoMo's shape, with a malformed evidence
// list and an item without evidence.
const miniLoCoMo = `[{"sample_id": "conv-x",
 "conversation": {"speaker_a": "Ann", "speaker_b": "Ben",
  "session_1_date_time": "1:56 pm on 8 May, 2023",
  "session_1": [{"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a cat."},
                {"speaker": "Ben", "dia_id": "D1:2", "text": "Cute!", "blip_caption": "a photo of a cat", "img_url": ["x"]}],
  "session_2_date_time": "9:00 am on 10 May, 2023",
  "session_2": [{"speaker": "Ben", "dia_id": "D2:1", "text": "How is the cat?"}],
  "session_3_date_time": "9:00 am on 11 May, 2023"},
 "qa": [{"question": "What did Ann adopt?", "answer": "a cat", "evidence": ["D1:1; D2:01"], "category": 4},
        {"question": "When?", "answer": 2023, "evidence": ["D"], "category": 2},
        {"question": "Why?", "answer": "x", "evidence": [], "category": 3},
        {"question": "Adversarial?", "adversarial_answer": "no", "evidence": ["D2:1"], "category": 5}]}]`

func TestLoadLoCoMo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mini.json")
	if err := os.WriteFile(path, []byte(miniLoCoMo), 0o644); err != nil {
		t.Fatal(err)
	}
	convs, err := loadLoCoMo(path)
	if err != nil {
		t.Fatal(err)
	}
	c := convs[0]
	if c.UserID != "conv-x" || len(c.Sessions) != 2 || len(c.Turns) != 3 {
		t.Fatalf("%+v", c)
	}
	evs := c.Sessions[0].events()
	want0 := eventIn{ID: "D1:1", Kind: "message", Role: "user", Name: "Ann", Content: "I adopted a cat.", OccurredAt: "2023-05-08T13:56:00Z"}
	if !reflect.DeepEqual(evs[0], want0) {
		t.Errorf("event 0 = %+v", evs[0])
	}
	if evs[1].Role != "assistant" || evs[1].OccurredAt != "2023-05-08T13:56:01Z" || evs[1].Metadata["caption"] != "a photo of a cat" {
		t.Errorf("event 1 = %+v", evs[1])
	}
	if c.Sessions[1].ID != "conv-x-s2" || !c.Sessions[1].Start.Equal(time.Date(2023, 5, 10, 9, 0, 0, 0, time.UTC)) {
		t.Errorf("session 2 = %+v", c.Sessions[1])
	}
	if got := c.Turns[1].indexText(); got != "Ben: Cute! [a photo of a cat]" {
		t.Errorf("index text %q", got)
	}
	if q := c.QA[0]; !reflect.DeepEqual(q.Gold, []string{"D1:1", "D2:1"}) || q.Category != 4 {
		t.Errorf("qa 0 = %+v", q)
	}
	if q := c.QA[1]; len(q.Gold) != 0 || !reflect.DeepEqual(q.Dropped, []string{"D"}) || q.Answer != "2023" {
		t.Errorf("qa 1 = %+v", q)
	}

	// Scoring without a server: the baselines only, skips counted.
	rep := evalRetrieval(t.Context(), nil, convs, fakeTokens{}, false, 100, 1, newProgress(discard{}, time.Hour))
	if rep.Questions != 4 || rep.Evaluated != 2 || rep.Skipped["no evidence"]["3"] != 1 || rep.Skipped["evidence does not resolve"]["2"] != 1 {
		t.Errorf("counts: %+v", rep)
	}
	if o := rep.Systems[sysOracle][groupHeadline]; o.N != 1 || o.AllAt10 != 1 || o.MRR != 1 {
		t.Errorf("oracle: %+v", o)
	}
	if _, ok := rep.Systems[sysGraphmem]; ok || rep.Note == "" {
		t.Error("graphmem must be absent when search is unavailable")
	}
	if _, err := json.Marshal(rep); err != nil {
		t.Error(err)
	}
}

type fakeTokens struct{}

func (fakeTokens) Count(s string) (int, error) { return len(s) / 4, nil }

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
