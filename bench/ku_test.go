package main

import (
	"strings"
	"testing"
	"time"

	"github.com/graphmem/graphmem/bench/dataset"
)

func res(kind, status, text string) searchResult {
	return searchResult{ID: text, Kind: kind, Status: status, Text: text}
}

func TestEvalSearchTop(t *testing.T) {
	ch := kuCheck{Type: "search_top", Expect: []string{"Berlin"}, Reject: []string{"Paris"}, K: 1}
	stale := newStaleSet([]fact{{ID: "f1", Fact: "The user lives in Paris", Status: "superseded"},
		{ID: "f2", Fact: "The user lives in Berlin", Status: "current"}})
	cases := []struct {
		name                                  string
		results                               []searchResult
		pass, first, superseded, rejectedTop5 bool
	}{
		{"current first", []searchResult{res("fact", "current", "The user lives in berlin"), res("raw", "current", "I live in Paris")},
			true, true, false, true},
		{"stale above, marked", []searchResult{res("fact", "superseded", "The user lives in Paris"), res("fact", "current", "lives in Berlin")},
			false, false, false, false},
		{"stale above, unmarked", []searchResult{res("fact", "current", "The user lives in Paris"), res("fact", "current", "lives in Berlin")},
			false, false, true, true},
		{"missing", []searchResult{res("raw", "current", "hello")}, false, false, false, false},
		{"empty", nil, false, false, false, false},
	}
	for _, c := range cases {
		o := evalSearchTop(c.results, ch, stale)
		if o.Pass != c.pass || o.CurrentFirst != c.first || o.SupersededTop5 != c.superseded || o.RejectedTop5 != c.rejectedTop5 {
			t.Errorf("%s: %+v", c.name, o)
		}
		if !o.Pass && o.Reason == "" {
			t.Errorf("%s: a failure needs a reason", c.name)
		}
	}
	// With k = 3 a marked stale result above the expected one is fine,
	// an unmarked one is not.
	ch.K = 3
	ok := evalSearchTop([]searchResult{res("fact", "superseded", "Paris"), res("fact", "current", "Berlin")}, ch, stale)
	bad := evalSearchTop([]searchResult{res("raw", "current", "Paris"), res("fact", "current", "Berlin")}, ch, stale)
	if !ok.Pass || ok.Rank != 2 || bad.Pass || !strings.Contains(bad.Reason, "rejected") {
		t.Errorf("k=3: %+v / %+v", ok, bad)
	}
}

func TestEvalHistory(t *testing.T) {
	ch := kuCheck{Type: "history", Expect: []string{"paris"}, K: 2}
	if ok, _ := evalHistory([]searchResult{res("fact", "current", "Berlin"), res("fact", "superseded", "Lived in Paris")}, ch); !ok {
		t.Error("rank 2 within k")
	}
	if ok, why := evalHistory([]searchResult{res("fact", "current", "Berlin"), res("x", "", "y"), res("fact", "superseded", "Paris")}, ch); ok || why == "" {
		t.Error("rank 3 beyond k")
	}
}

func TestEvalPreference(t *testing.T) {
	ch := kuCheck{Type: "preference", Object: "Sushi", Polarity: "negative"}
	cases := []struct {
		prefs []preference
		want  bool
	}{
		{[]preference{{Object: "sushi", Polarity: "negative", Status: "current"}, {Object: "sushi", Polarity: "positive", Status: "superseded"}}, true},
		{[]preference{{Object: "sushi rolls", Polarity: "negative", Status: "current"}, {Object: "sushi", Polarity: "positive", Status: "current"}}, false},
		{[]preference{{Object: "sushi", Polarity: "positive", Status: "current"}}, false},
		{nil, false},
	}
	for i, c := range cases {
		if got, why := evalPreference(c.prefs, ch); got != c.want || (!got && why == "") {
			t.Errorf("case %d: %v %q", i, got, why)
		}
	}
}

func TestKUBaseline(t *testing.T) {
	s := kuScenario{ID: "s", UserID: "u"}
	s.Sessions = append(s.Sessions, dataset.Session{At: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)})
	for _, c := range []string{"I live in Paris and work as a nurse.", "Nice!", "I moved to Berlin last month.", "Congrats on the move!"} {
		s.Sessions[0].Events = append(s.Sessions[0].Events, dataset.Event{Role: "user", Content: c})
	}
	s.Checks = []kuCheck{{Type: "search_top", Query: "Where does the user live?", Expect: []string{"Berlin"}, Reject: []string{"Paris"}, K: 1},
		{Type: "search_top", Query: "nurse", Expect: []string{"nurse"}, K: 3}, // no reject: not an update check
		{Type: "history", Query: "Paris", Expect: []string{"Paris"}, K: 5}, {Type: "preference", Object: "x", Polarity: "positive"}}
	var b kuBaseline
	b.run([]kuScenario{s})
	if b.ByType["history"].Passed != 1 || b.ByType["preference"] != nil || b.CurrentFirst.N != 1 || b.RejectedTop5.Passed != 1 ||
		b.ByType["search_top"].N != 2 {
		t.Errorf("%+v %+v %+v", b.ByType["history"], b.CurrentFirst, b.RejectedTop5)
	}
}
