package knowledge

import (
	"slices"
	"testing"
)

// states renders every fact of the user, sorted, as describe does.
func states(st *State) []string {
	var out []string
	for _, f := range st.Facts["user"] {
		out = append(out, describe(f))
	}
	slices.Sort(out)
	return out
}

func ids(facts []*Fact) []string {
	out := make([]string, len(facts))
	for i, f := range facts {
		out[i] = f.ID
	}
	return out
}

func TestPlanRetract(t *testing.T) {
	now := day("2026-01-01")
	cases := []struct {
		name     string
		facts    func() []*Fact
		open     []*OpenConflict
		retract  string
		reopened []string
		settled  []string // "id/winner"
		states   []string
	}{
		{
			name:    "a lone fact is withdrawn with an empty interval",
			facts:   func() []*Fact { return []*Fact{stored("sushi", "LIKES", "sushi", "2025-01-01")} },
			retract: "sushi",
			states:  []string{"sushi retracted until 2025-01-01"},
		},
		{
			name: "retracting a move brings the old home back",
			facts: func() []*Fact {
				berlin := stored("berlin", "LIVES_IN", "Berlin", "2024-01-01")
				paris := stored("paris", "LIVES_IN", "Paris", "2025-06-01")
				Close(berlin, paris, day("2025-06-02"))
				return []*Fact{berlin, paris}
			},
			retract: "paris", reopened: []string{"berlin"},
			states: []string{"berlin current", "paris retracted until 2025-06-01"},
		},
		{
			name: "a predecessor a later fact contradicts stays closed",
			facts: func() []*Fact {
				berlin := stored("berlin", "LIVES_IN", "Berlin", "2024-01-01")
				paris := stored("paris", "LIVES_IN", "Paris", "2025-06-01")
				Close(berlin, paris, day("2025-06-02"))
				// A weak third home, left open for review beside paris.
				rome := stored("rome", "LIVES_IN", "Rome", "2025-09-01")
				return []*Fact{berlin, paris, rome}
			},
			open:    []*OpenConflict{{ID: "c1", Subject: "user", OldID: "paris", NewID: "rome"}},
			retract: "paris", settled: []string{"c1/new"},
			states: []string{"berlin superseded until 2025-06-01 by paris", "paris retracted until 2025-06-01", "rome current"},
		},
		{
			name: "retracting history reopens nothing",
			facts: func() []*Fact {
				berlin := stored("berlin", "LIVES_IN", "Berlin", "2024-01-01")
				paris := stored("paris", "LIVES_IN", "Paris", "2025-06-01")
				rome := stored("rome", "LIVES_IN", "Rome", "2025-09-01")
				Close(berlin, paris, day("2025-06-02"))
				Close(paris, rome, day("2025-09-02"))
				return []*Fact{berlin, paris, rome}
			},
			retract: "paris",
			states:  []string{"berlin superseded until 2025-06-01 by paris", "paris retracted until 2025-06-01", "rome current"},
		},
		{
			name: "the new side of an open conflict withdrawn: the old one wins",
			facts: func() []*Fact {
				return []*Fact{stored("tea", "LIKES", "tea", "2025-01-01"), stored("notea", "DISLIKES", "tea", "2025-02-01")}
			},
			open:    []*OpenConflict{{ID: "c1", Subject: "user", OldID: "tea", NewID: "notea"}, {ID: "c2", Subject: "user", OldID: "x", NewID: "y"}},
			retract: "notea", settled: []string{"c1/old"},
			states: []string{"notea retracted until 2025-02-01", "tea current"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := &State{Facts: map[string][]*Fact{"user": c.facts()}, Open: c.open}
			var f *Fact
			for _, m := range st.Facts["user"] {
				if m.ID == c.retract {
					f = m
				}
			}
			w := PlanRetract(st, f, now)
			if got := ids(w.Reopened); !slices.Equal(got, c.reopened) && len(got)+len(c.reopened) > 0 {
				t.Errorf("reopened %v, want %v", got, c.reopened)
			}
			var settled []string
			for _, s := range w.Settled {
				settled = append(settled, s.ID+"/"+string(s.Winner))
				if s.Note != NoteRetracted {
					t.Errorf("conflict %s note %q", s.ID, s.Note)
				}
			}
			if !slices.Equal(settled, c.settled) {
				t.Errorf("settled %v, want %v", settled, c.settled)
			}
			if got := states(st); !slices.Equal(got, c.states) {
				t.Errorf("states\n got %v\nwant %v", got, c.states)
			}
			if f.ExpiredAt == nil || !f.ExpiredAt.Equal(now) || !f.Changed {
				t.Errorf("retracted fact: expired_at %v changed %v, want %v and true", f.ExpiredAt, f.Changed, now)
			}
		})
	}
}

// TestCorrectThenPlan: the corrected version is planned like any new
// fact after the old version is closed, so a correction of the start date
// alone (the same statement otherwise) creates a new version instead of
// reinforcing the old one.
func TestCorrectThenPlan(t *testing.T) {
	now := day("2026-01-01")
	old := stored("paris", "LIVES_IN", "Paris", "2025-06-01")
	next := incoming("paris2", "LIVES_IN", "Paris", "2026-01-01").with(func(f *Fact) {
		f.ValidFrom = day("2025-03-01")
		f.Sources, f.Sessions, f.Events = nil, nil, []string{"edit_1"}
	})
	st := &State{Facts: map[string][]*Fact{"user": {old}},
		Open: []*OpenConflict{{ID: "c1", Subject: "user", OldID: "lyon", NewID: "paris"}}}
	w := PlanCorrect(st, old, next, now)
	if len(w.Settled) != 1 || w.Settled[0].Winner != WinnerOld || w.Settled[0].Note != NoteCorrected {
		t.Fatalf("settled %+v, want c1 decided for the other fact", w.Settled)
	}
	d := Plan(st, []*Fact{next}, now, Policy{})
	if d.Actions[0].Outcome != Created {
		t.Fatalf("outcome %s, want created", d.Actions[0].Outcome)
	}
	want := []string{"paris superseded until 2025-06-01 by paris2", "paris2 current"}
	if got := states(st); !slices.Equal(got, want) {
		t.Errorf("states %v, want %v", got, want)
	}
}

// TestCorrectionChain: Berlin, a move to Munich, Munich corrected to
// Hamburg (keeping the move's date), then Hamburg retracted. The
// correction hands Berlin's closing to Hamburg, so the retraction brings
// Berlin back and never the corrected Munich.
func TestCorrectionChain(t *testing.T) {
	berlin := stored("berlin", "LIVES_IN", "Berlin", "2024-01-01")
	munich := stored("munich", "LIVES_IN", "Munich", "2025-03-01")
	Close(berlin, munich, day("2025-03-02"))
	st := &State{Facts: map[string][]*Fact{"user": {berlin, munich}}}
	hamburg := incoming("hamburg", "LIVES_IN", "Hamburg", "2025-04-01").with(func(f *Fact) { f.ValidFrom = day("2025-03-01") })
	PlanCorrect(st, munich, hamburg, day("2025-04-01"))
	Plan(st, []*Fact{hamburg}, day("2025-04-01"), Policy{})
	want := []string{"berlin superseded until 2025-03-01 by hamburg", "hamburg current", "munich superseded until 2025-03-01 by hamburg"}
	if got := states(st); !slices.Equal(got, want) {
		t.Fatalf("after the correction %v, want %v", got, want)
	}
	if !berlin.Changed {
		t.Error("berlin's new successor is not marked for writing")
	}
	w := PlanRetract(st, hamburg, day("2025-05-01"))
	if got := ids(w.Reopened); !slices.Equal(got, []string{"berlin"}) {
		t.Errorf("reopened %v, want [berlin]", got)
	}
	want = []string{"berlin current", "hamburg retracted until 2025-03-01", "munich superseded until 2025-03-01 by hamburg"}
	if got := states(st); !slices.Equal(got, want) {
		t.Errorf("after the retraction %v, want %v", got, want)
	}
}
