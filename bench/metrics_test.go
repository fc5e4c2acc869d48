package main

import (
	"math"
	"reflect"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestNormalizeEvidence(t *testing.T) {
	known := map[string]bool{"D8:6": true, "D9:17": true, "D11:26": true, "D30:5": true, "D4:4": true, "D9:1": true}
	ids, dropped := normalizeEvidence(
		[]string{"D8:6; D9:17", "D:11:26", "D30:05", "D", "D4:36", "D9:1 D4:4", "D8:6", "x"},
		func(id string) bool { return known[id] })
	if want := []string{"D8:6", "D9:17", "D11:26", "D30:5", "D9:1", "D4:4"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("ids = %v, want %v", ids, want)
	}
	if want := []string{"D", "D4:36", "x"}; !reflect.DeepEqual(dropped, want) {
		t.Errorf("dropped = %v, want %v", dropped, want)
	}
}

func TestCanonicalTurnID(t *testing.T) {
	for in, want := range map[string]string{"D1:3": "D1:3", "D:11:26": "D11:26", "D30:05": "D30:5", " D2:1 ": "D2:1"} {
		if got, ok := canonicalTurnID(in); !ok || got != want {
			t.Errorf("canonicalTurnID(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"D", "D1", "E1:2", "D1:x", "D-1:2", ""} {
		if got, ok := canonicalTurnID(in); ok {
			t.Errorf("canonicalTurnID(%q) = %q, want failure", in, got)
		}
	}
}

func TestScoreTurns(t *testing.T) {
	ranked := []string{"D1:1", "D2:5", "D1:2", "D3:1", "D4:1", "D5:1", "D6:1", "D7:1", "D8:1", "D9:1", "D2:6"}
	s := scoreTurns(ranked, []string{"D2:5", "D9:1"})
	if !s.AnyAt5 || s.AllAt5 || !s.AnyAt10 || !s.AllAt10 {
		t.Errorf("any/all = %+v", s)
	}
	if !near(s.FracAt5, 0.5) || !near(s.FracAt10, 1) || !near(s.RR, 0.5) {
		t.Errorf("frac5 %v frac10 %v rr %v", s.FracAt5, s.FracAt10, s.RR)
	}
	// DCG = 1/log2(3) + 1/log2(11); IDCG = 1 + 1/log2(3).
	if want := (1/math.Log2(3) + 1/math.Log2(11)) / (1 + 1/math.Log2(3)); !near(s.NDCG10, want) {
		t.Errorf("ndcg = %v, want %v", s.NDCG10, want)
	}
	// Sessions in order: D1, D2, D3, D4, D5 | D6 ... D9: D9 is 9th.
	if s.SessAllAt5 {
		t.Error("session all@5 should miss D9")
	}

	// A gold turn past rank 10 counts for "all sources" but not @10 or MRR.
	s = scoreTurns(ranked, []string{"D2:6"})
	if s.AnyAt10 || s.RR != 0 || s.NDCG10 != 0 || !s.AllTop10Results {
		t.Errorf("rank 11: %+v", s)
	}
	if s = scoreTurns(nil, []string{"D1:1"}); s.AnyAt10 || s.AllTop10Results || s.SessAllAt5 {
		t.Errorf("empty ranking: %+v", s)
	}
	if s = scoreTurns([]string{"D3:1", "D3:9", "D1:1"}, []string{"D3:2", "D1:4"}); !s.SessAllAt5 || s.AnyAt10 {
		t.Errorf("session recall: %+v", s)
	}
}

func TestWithinBudget(t *testing.T) {
	items := []budgetItem{{Tokens: 400, IDs: []string{"a"}}, {Tokens: 500, IDs: []string{"b", "a"}},
		{Tokens: 200, IDs: []string{"c"}}, {Tokens: 50, IDs: []string{"d"}}}
	if got := withinBudget(items, 1000); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("1000: %v (stops at the first item that overflows)", got)
	}
	if got := withinBudget(items, 300); len(got) != 0 {
		t.Errorf("300: %v", got)
	}
	if got := withinBudget(items, 1150); !reflect.DeepEqual(got, []string{"a", "b", "c", "d"}) {
		t.Errorf("1150: %v", got)
	}
}

func TestScoreBudgetAndDate(t *testing.T) {
	d := answerDate{Year: 2023, Month: 5, Day: 7}
	r := ranking{Turns: []string{"D1:1"}, TopTexts: []string{"nothing", "on 7 May 2023 we met"}, TopTokens: 12,
		Budget: []budgetItem{{Tokens: 900, IDs: []string{"D1:1"}}, {Tokens: 900, IDs: []string{"D1:2"}}}}
	s := score(r, []string{"D1:1", "D1:2"}, &d)
	if s.AllBudget1k || !near(s.FracBudget1k, 0.5) || !s.AllBudget2k || s.TopTokens != 12 || !s.DateEligible || !s.DateHit {
		t.Errorf("%+v", s)
	}
	if s = score(r, []string{"D1:1"}, nil); s.DateEligible {
		t.Error("no date: not eligible")
	}
}

func TestAggregate(t *testing.T) {
	m := aggregate([]qScores{{AllAt10: true, RR: 1, TopTokens: 100, DateEligible: true, DateHit: true},
		{AllAt10: false, RR: 0.5, TopTokens: 300}, {DateEligible: true}})
	if m.N != 3 || !near(m.AllAt10, 0.3333) || !near(m.MRR, 0.5) || !near(m.TopTokens, 133.3333) || m.DateN != 2 || *m.DateHit != 0.5 {
		t.Errorf("%+v", m)
	}
	if m := aggregate(nil); m.N != 0 || m.DateHit != nil {
		t.Errorf("empty: %+v", m)
	}
}

func TestPairedSignTest(t *testing.T) {
	st := pairedSignTest([]bool{true, true, false, true}, []bool{false, true, true, false})
	if st.Wins != 2 || st.Losses != 1 || st.Ties != 1 || st.P != 1 {
		t.Errorf("%+v", st)
	}
	// 10 wins, 0 losses: p = 2 / 2^10.
	if p := binomTwoSided(10, 10); !near(p, round4(2.0/1024)) {
		t.Errorf("p = %v", p)
	}
	if p := binomTwoSided(0, 0); p != 1 {
		t.Errorf("no pairs: %v", p)
	}
}

func TestPercentiles(t *testing.T) {
	var ds []float64
	for i := 100; i >= 1; i-- {
		ds = append(ds, float64(i))
	}
	if got := percentiles(ds, 50, 95, 99, 100); !reflect.DeepEqual(got, []float64{50, 95, 99, 100}) {
		t.Errorf("%v", got)
	}
	if ds[0] != 100 {
		t.Error("input was reordered")
	}
	if got := percentiles(nil, 50); got[0] != 0 {
		t.Errorf("empty: %v", got)
	}
}
