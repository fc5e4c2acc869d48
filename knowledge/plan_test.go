package knowledge

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graphmem/graphmem/ontology"
)

func day(s string) time.Time {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return t
}

func pred(name string) ontology.Predicate {
	p, ok := ontology.Lookup(name)
	if !ok {
		panic("unknown predicate " + name)
	}
	return p
}

// stored is a current stored fact of the user, said (and valid from) on
// the given day.
func stored(id, predicate, object, said string) *Fact {
	t := day(said)
	return &Fact{ID: id, Subject: "user", Object: object, Predicate: pred(predicate), Polarity: pred(predicate).Polarity(),
		Status: Current, Confidence: 0.8, ValidFrom: t, ObservedAt: t, RecordedAt: t, LastSeen: t, Mentions: 1,
		Sources: []string{"ev-" + id}, Sessions: []string{"s-" + id}}
}

// incoming is a new statement of the user, said on the given day.
func incoming(id, predicate, object, said string) *Fact {
	f := stored(id, predicate, object, said)
	f.New = true
	return f
}

func (f *Fact) with(change func(*Fact)) *Fact {
	change(f)
	return f
}

// describe renders a fact's state for comparison.
func describe(f *Fact) string {
	out := fmt.Sprintf("%s %s", f.ID, f.Status)
	if f.ValidTo != nil {
		out += " until " + f.ValidTo.Format("2006-01-02")
	}
	if f.SupersededBy != "" {
		out += " by " + f.SupersededBy
	}
	return out
}

func TestPlan(t *testing.T) {
	now := day("2026-01-01")
	cases := []struct {
		name     string
		existing []*Fact
		open     []*OpenConflict
		in       []*Fact
		outcomes []Outcome
		closed   []string // ids closed by the actions, in order
		kinds    []string // "kind/status/winner" of each conflict
		states   []string // describe() of every fact afterwards, sorted
	}{
		{
			name:     "a move supersedes the old home (one-value predicate)",
			existing: []*Fact{stored("berlin", "LIVES_IN", "Berlin", "2024-01-01")},
			in:       []*Fact{incoming("paris", "LIVES_IN", "Paris", "2025-06-01")},
			outcomes: []Outcome{Created}, closed: []string{"berlin"},
			kinds:  []string{"exclusive/resolved/new"},
			states: []string{"berlin superseded until 2025-06-01 by paris", "paris current"},
		},
		{
			name:     "two values of a one-value slot read from one turn both stay current",
			existing: []*Fact{stored("porto", "LIVES_IN", "Porto", "2024-01-01")},
			in: []*Fact{incoming("bonfim", "LIVES_IN", "Bonfim", "2024-01-01").with(func(f *Fact) {
				f.Sources, f.Sessions = []string{"ev-porto"}, []string{"s-porto"}
			})},
			outcomes: []Outcome{Created},
			states:   []string{"bonfim current", "porto current"},
		},
		{
			name:     "a second liked thing coexists (many-value predicate)",
			existing: []*Fact{stored("sushi", "LIKES", "sushi", "2024-01-01")},
			in:       []*Fact{incoming("ramen", "LIKES", "ramen", "2025-06-01")},
			outcomes: []Outcome{Created},
			states:   []string{"ramen current", "sushi current"},
		},
		{
			name:     "a taste turns: dislikes closes likes on the same object",
			existing: []*Fact{stored("likes", "LIKES", "sushi", "2024-01-01")},
			in:       []*Fact{incoming("dislikes", "DISLIKES", "sushi", "2025-06-01")},
			outcomes: []Outcome{Created}, closed: []string{"likes"},
			kinds:  []string{"polarity/resolved/new"},
			states: []string{"dislikes current", "likes superseded until 2025-06-01 by dislikes"},
		},
		{
			name:     "a denial closes the positive fact (negation)",
			existing: []*Fact{stored("acme", "WORKS_AT", "Acme", "2024-01-01")},
			in: []*Fact{incoming("left", "WORKS_AT", "Acme", "2025-06-01").with(func(f *Fact) {
				f.Polarity = ontology.Negative
			})},
			outcomes: []Outcome{Created}, closed: []string{"acme"},
			kinds:  []string{"negation/resolved/new"},
			states: []string{"acme superseded until 2025-06-01 by left", "left current"},
		},
		{
			name:     "a relative's move never touches the user's home",
			existing: []*Fact{stored("home", "LIVES_IN", "Berlin", "2024-01-01")},
			in: []*Fact{incoming("sis", "LIVES_IN", "Rome", "2025-06-01").with(func(f *Fact) {
				f.Subject = "sister"
			})},
			outcomes: []Outcome{Created},
			states:   []string{"home current", "sis current"},
		},
		{
			name:     "the same statement again reinforces the current fact",
			existing: []*Fact{stored("sushi", "LIKES", "sushi", "2024-01-01")},
			in: []*Fact{incoming("again", "LIKES", "sushi", "2025-06-01").with(func(f *Fact) {
				f.Sources = []string{"ev-again"}
			})},
			outcomes: []Outcome{Reinforced},
			states:   []string{"sushi current"},
		},
		{
			name:     "a replayed write changes nothing",
			existing: []*Fact{stored("sushi", "LIKES", "sushi", "2024-01-01")},
			in:       []*Fact{incoming("replay", "LIKES", "sushi", "2024-01-01").with(func(f *Fact) { f.Sources, f.Sessions = []string{"ev-sushi"}, []string{"s-sushi"} })},
			outcomes: []Outcome{Unchanged},
			states:   []string{"sushi current"},
		},
		{
			name:     "'I left Acme in May' ends the current job with no successor",
			existing: []*Fact{stored("acme", "WORKS_AT", "Acme", "2024-01-01")},
			in: []*Fact{incoming("end", "WORKS_AT", "Acme", "2025-06-01").with(func(f *Fact) {
				vt := day("2025-05-01")
				f.ValidTo = &vt
			})},
			outcomes: []Outcome{Ended}, closed: []string{"acme"},
			states: []string{"acme superseded until 2025-05-01"},
		},
		{
			name: "a fact that had ended when it was said is history from the start",
			in: []*Fact{incoming("old", "WORKS_AT", "Acme", "2025-06-01").with(func(f *Fact) {
				f.ValidFrom = day("2020-01-01")
				vt := day("2022-01-01")
				f.ValidTo = &vt
			})},
			outcomes: []Outcome{Created},
			states:   []string{"old superseded until 2022-01-01"},
		},
		{
			name:     "older news arriving late is stored superseded and closes nothing (stale)",
			existing: []*Fact{stored("paris", "LIVES_IN", "Paris", "2025-06-01")},
			in:       []*Fact{incoming("berlin", "LIVES_IN", "Berlin", "2024-01-01")},
			outcomes: []Outcome{Created}, closed: []string{"berlin"},
			kinds:  []string{"stale/resolved/old"},
			states: []string{"berlin superseded until 2025-06-01 by paris", "paris current"},
		},
		{
			name:     "later news about an earlier start still wins (not stale)",
			existing: []*Fact{stored("paris", "LIVES_IN", "Paris", "2025-06-01")},
			in: []*Fact{incoming("lyon", "LIVES_IN", "Lyon", "2025-07-01").with(func(f *Fact) {
				f.ValidFrom = day("2025-05-01")
			})},
			outcomes: []Outcome{Created}, closed: []string{"paris"},
			kinds:  []string{"exclusive/resolved/new"},
			states: []string{"lyon current", "paris superseded until 2025-06-01 by lyon"},
		},
		{
			name:     "weak evidence leaves the conflict open and closes nothing",
			existing: []*Fact{stored("berlin", "LIVES_IN", "Berlin", "2024-01-01")},
			in: []*Fact{incoming("maybe", "LIVES_IN", "Paris", "2025-06-01").with(func(f *Fact) {
				f.Confidence = 0.3
			})},
			outcomes: []Outcome{Created},
			kinds:    []string{"exclusive/open/"},
			states:   []string{"berlin current", "maybe current"},
		},
		{
			name: "strong repetition of the weak fact confirms its open conflict",
			existing: []*Fact{stored("berlin", "LIVES_IN", "Berlin", "2024-01-01"),
				stored("maybe", "LIVES_IN", "Paris", "2025-06-01")},
			open: []*OpenConflict{{ID: "c1", Subject: "user", OldID: "berlin", NewID: "maybe"}},
			in: []*Fact{incoming("sure", "LIVES_IN", "Paris", "2025-07-01").with(func(f *Fact) {
				f.Sources = []string{"ev-sure"}
			})},
			outcomes: []Outcome{Reinforced}, closed: []string{"berlin"},
			states: []string{"berlin superseded until 2025-06-01 by maybe", "maybe current"},
		},
		{
			name:     "a fact about itself is skipped",
			in:       []*Fact{incoming("self", "KNOWS", "user", "2025-06-01")},
			outcomes: []Outcome{Skipped},
		},
		{
			name: "facts of one write are judged in order: the later of two homes wins",
			in: []*Fact{incoming("a", "LIVES_IN", "Oslo", "2025-06-01"),
				incoming("b", "LIVES_IN", "Bergen", "2025-06-01").with(func(f *Fact) { f.ValidFrom = day("2025-06-02") })},
			outcomes: []Outcome{Created, Created}, closed: []string{"a"},
			kinds:  []string{"exclusive/resolved/new"},
			states: []string{"a superseded until 2025-06-02 by b", "b current"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st := &State{Facts: map[string][]*Fact{}, Open: tc.open}
			for _, f := range tc.existing {
				st.Facts[f.Subject] = append(st.Facts[f.Subject], f)
			}
			d := Plan(st, tc.in, now, Policy{})
			var outcomes []Outcome
			var closed []string
			for _, a := range d.Actions {
				outcomes = append(outcomes, a.Outcome)
				closed = append(closed, a.Closed...)
			}
			if !slices.Equal(outcomes, tc.outcomes) {
				t.Errorf("outcomes %v, want %v", outcomes, tc.outcomes)
			}
			if !slices.Equal(closed, tc.closed) {
				t.Errorf("closed %v, want %v", closed, tc.closed)
			}
			var kinds []string
			for _, c := range d.Conflicts {
				kinds = append(kinds, fmt.Sprintf("%s/%s/%s", c.Kind, c.Status, c.Winner))
			}
			if !slices.Equal(kinds, tc.kinds) {
				t.Errorf("conflicts %v, want %v", kinds, tc.kinds)
			}
			var states []string
			for _, facts := range st.Facts {
				for _, f := range facts {
					states = append(states, describe(f))
				}
			}
			slices.Sort(states)
			if !slices.Equal(states, tc.states) {
				t.Errorf("facts:\n  %s\nwant:\n  %s", strings.Join(states, "\n  "), strings.Join(tc.states, "\n  "))
			}
		})
	}
}

func TestPlanReinforcementEvidence(t *testing.T) {
	old := stored("sushi", "LIKES", "sushi", "2024-01-01")
	st := &State{Facts: map[string][]*Fact{"user": {old}}}
	n := incoming("again", "LIKES", "sushi", "2025-06-01").with(func(f *Fact) {
		f.Sources, f.Sessions, f.Strength = []string{"ev-2"}, []string{"s-2"}, 0.9
	})
	Plan(st, []*Fact{n}, day("2026-01-01"), Policy{})
	if !slices.Equal(old.Sources, []string{"ev-sushi", "ev-2"}) || !slices.Equal(old.Sessions, []string{"s-sushi", "s-2"}) {
		t.Errorf("provenance not appended: %v %v", old.Sources, old.Sessions)
	}
	if old.Mentions != 2 || old.Strength != 0.9 || !old.LastSeen.Equal(day("2025-06-01")) {
		t.Errorf("mentions %d strength %v last seen %v", old.Mentions, old.Strength, old.LastSeen)
	}
	if want := 0.8 + 0.2*0.2; old.Confidence < want-1e-9 || old.Confidence > want+1e-9 {
		t.Errorf("confidence %v, want %v", old.Confidence, want)
	}
	if !old.Changed || old.New {
		t.Errorf("a reinforced stored fact must be written back: %+v", old)
	}
	if w := st.Writes(); len(w) != 1 || w[0] != old {
		t.Errorf("writes %v", w)
	}
}

func TestPlanSettlesConflictWhenBothFactsAreReplaced(t *testing.T) {
	a := stored("a", "LIVES_IN", "Oslo", "2024-01-01")
	b := stored("b", "LIVES_IN", "Bergen", "2024-06-01")
	// Both were left open against each other, then a third home arrives;
	// the open conflict's two facts are both closed: nothing to review.
	a.Confidence, b.Confidence = 0.3, 0.3
	st := &State{Facts: map[string][]*Fact{"user": {a, b}},
		Open: []*OpenConflict{{ID: "c1", Subject: "user", OldID: "a", NewID: "b"}}}
	d := Plan(st, []*Fact{incoming("c", "LIVES_IN", "Tromsø", "2025-01-01")}, day("2026-01-01"), Policy{})
	if len(d.Settled) != 1 || d.Settled[0].Note != NoteBothSuperseded || d.Settled[0].Winner != WinnerNone {
		t.Fatalf("settled %+v", d.Settled)
	}
}

func TestCloseNeverEndsBeforeItBegan(t *testing.T) {
	loser := stored("late", "LIVES_IN", "Paris", "2025-06-01")
	winner := stored("early", "LIVES_IN", "Lyon", "2024-01-01")
	now := day("2026-01-01")
	Close(loser, winner, now)
	if !loser.ValidTo.Equal(day("2025-06-01")) || loser.Status != Superseded || loser.SupersededBy != "early" || !loser.ExpiredAt.Equal(now) {
		t.Fatalf("closed: %s expired %v", describe(loser), loser.ExpiredAt)
	}
	f := stored("job", "WORKS_AT", "Acme", "2025-06-01")
	End(f, day("2020-01-01"), now)
	if !f.ValidTo.Equal(day("2025-06-01")) || f.SupersededBy != "" {
		t.Fatalf("ended: %s", describe(f))
	}
}

func TestDecide(t *testing.T) {
	now := day("2026-01-01")
	cases := []struct {
		name     string
		conflict ReviewedConflict
		setup    func(oldF, newF *Fact)
		winner   Winner
		changes  bool
		states   []string
	}{
		{
			name: "open conflict, the new fact wins: the old one is closed by it", conflict: ReviewedConflict{Status: Open},
			winner: WinnerNew, changes: true,
			states: []string{"new current", "old superseded until 2025-06-01 by new"},
		},
		{
			name: "open conflict, the old fact wins: the rejected newer one never held", conflict: ReviewedConflict{Status: Open},
			winner: WinnerOld, changes: true,
			states: []string{"new superseded until 2025-06-01 by old", "old current"},
		},
		{
			name:     "auto-resolved for the new fact, reviewer picks the old: reopened, and the new one closed",
			conflict: ReviewedConflict{Status: Resolved, Winner: WinnerNew},
			setup: func(oldF, newF *Fact) {
				Close(oldF, newF, day("2025-06-02"))
				oldF.Changed = false
			},
			winner: WinnerOld, changes: true,
			states: []string{"new superseded until 2025-06-01 by old", "old current"},
		},
		{
			name:     "the same winner again changes no fact",
			conflict: ReviewedConflict{Status: Resolved, Winner: WinnerNew},
			setup: func(oldF, newF *Fact) {
				Close(oldF, newF, day("2025-06-02"))
				oldF.Changed = false
			},
			winner: WinnerNew, changes: false,
			states: []string{"new current", "old superseded until 2025-06-01 by new"},
		},
		{
			name:     "a fact closed by a third one is not reopened",
			conflict: ReviewedConflict{Status: Resolved, Winner: WinnerNew},
			setup: func(oldF, newF *Fact) {
				third := stored("third", "LIVES_IN", "Rome", "2025-09-01")
				Close(oldF, third, day("2025-09-02"))
			},
			winner: WinnerOld, changes: true,
			states: []string{"new superseded until 2025-06-01 by old", "old superseded until 2025-09-01 by third"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			oldF := stored("old", "LIVES_IN", "Berlin", "2024-01-01")
			newF := stored("new", "LIVES_IN", "Paris", "2025-06-01")
			if tc.setup != nil {
				tc.setup(oldF, newF)
			}
			changes, err := Decide(tc.conflict, oldF, newF, tc.winner, now)
			if err != nil {
				t.Fatal(err)
			}
			if changes != tc.changes {
				t.Errorf("changes %v, want %v", changes, tc.changes)
			}
			states := []string{describe(newF), describe(oldF)}
			if !slices.Equal(states, tc.states) {
				t.Errorf("facts %v, want %v", states, tc.states)
			}
		})
	}
	if _, err := Decide(ReviewedConflict{Status: Open}, stored("a", "LIKES", "x", "2024-01-01"),
		stored("b", "DISLIKES", "x", "2024-02-01"), "both", now); err == nil {
		t.Error("a winner other than new or old must be refused")
	}
}
