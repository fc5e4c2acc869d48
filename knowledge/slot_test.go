package knowledge

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graphmem/graphmem/ontology"
)

// qualified sets a fact's qualifier.
func qualified(q string) func(*Fact) { return func(f *Fact) { f.Qualifier = q } }

// inSession puts a fact in a session (a correction looks for its slip
// among the facts of its own session).
func inSession(s string) func(*Fact) { return func(f *Fact) { f.Sessions = []string{s} } }

// correcting marks a correction, naming the slip's object when given.
func correcting(slip string) func(*Fact) {
	return func(f *Fact) { f.Correction, f.Corrects = true, slip }
}

func TestSlot(t *testing.T) {
	fav := stored("a", "HAS_FAVORITE", "Wingspan", "2024-01-01").with(qualified("board game"))
	pet := stored("b", "HAS_PET", "Miso", "2024-01-01").with(qualified("cat"))
	if got := fav.Slot().String(); got != "user|HAS_FAVORITE|board game" {
		t.Errorf("favourite slot %q", got)
	}
	if got := pet.Slot().String(); got != "user|HAS_PET|" {
		t.Errorf("a pet's species is a note, not a slot: %q", got)
	}
}

// TestPlanSlots drives every rule of the slot policy, with facts shaped
// as each engine gives them: the offline engine states a loss as the same
// predicate with negative polarity and names a correction's slip; the LLM
// engine gives an ending as valid_to and may leave the slip unnamed or put
// a qualifier on a predicate that has none.
func TestPlanSlots(t *testing.T) {
	now := day("2026-01-01")
	cases := []struct {
		name     string
		existing []*Fact
		in       []*Fact
		outcomes []Outcome
		kinds    []string
		states   []string
	}{
		{
			name:     "one: a newer measure supersedes the older one of the same name",
			existing: []*Fact{stored("50k", "HAS_MEASURE", "50k", "2024-01-01").with(qualified("salary"))},
			in:       []*Fact{incoming("58k", "HAS_MEASURE", "58k", "2025-03-01").with(qualified("salary"))},
			outcomes: []Outcome{Created}, kinds: []string{"exclusive/resolved/new"},
			states: []string{"50k superseded until 2025-03-01 by 58k", "58k current"},
		},
		{
			name:     "one per qualifier: weight and salary are two slots",
			existing: []*Fact{stored("salary", "HAS_MEASURE", "50k", "2024-01-01").with(qualified("salary"))},
			in:       []*Fact{incoming("weight", "HAS_MEASURE", "72 kg", "2025-03-01").with(qualified("weight"))},
			outcomes: []Outcome{Created},
			states:   []string{"salary current", "weight current"},
		},
		{
			name: "one per qualifier: a new favourite film leaves the favourite board game",
			existing: []*Fact{stored("game", "HAS_FAVORITE", "Wingspan", "2024-01-01").with(qualified("board game")),
				stored("film", "HAS_FAVORITE", "Paddington 2", "2024-01-01").with(qualified("film"))},
			in:       []*Fact{incoming("film2", "HAS_FAVORITE", "Heat", "2025-03-01").with(qualified("film"))},
			outcomes: []Outcome{Created}, kinds: []string{"exclusive/resolved/new"},
			states: []string{"film superseded until 2025-03-01 by film2", "film2 current", "game current"},
		},
		{
			name:     "one, unqualified: a stray qualifier (LLM) does not open a second home",
			existing: []*Fact{stored("ghent", "LIVES_IN", "Ghent", "2024-01-01")},
			in:       []*Fact{incoming("tallinn", "LIVES_IN", "Tallinn", "2025-03-01").with(qualified("home city"))},
			outcomes: []Outcome{Created}, kinds: []string{"exclusive/resolved/new"},
			states: []string{"ghent superseded until 2025-03-01 by tallinn", "tallinn current"},
		},
		{
			name:     "many: a second allergy accumulates",
			existing: []*Fact{stored("nuts", "ALLERGIC_TO", "walnuts", "2024-01-01")},
			in:       []*Fact{incoming("kiwi", "ALLERGIC_TO", "kiwi", "2025-03-01")},
			outcomes: []Outcome{Created},
			states:   []string{"kiwi current", "nuts current"},
		},
		{
			name:     "many: a second pet accumulates whatever its species",
			existing: []*Fact{stored("dog", "HAS_PET", "Biscuit", "2024-01-01").with(qualified("dog"))},
			in:       []*Fact{incoming("cat", "HAS_PET", "Miso", "2025-03-01").with(qualified("cat"))},
			outcomes: []Outcome{Created},
			states:   []string{"cat current", "dog current"},
		},
		{
			name:     "ending (offline shape): a loss closes the pet, no other pet replaces it",
			existing: []*Fact{stored("dog", "HAS_PET", "Biscuit", "2024-01-01"), stored("cat", "HAS_PET", "Miso", "2024-02-01")},
			in: []*Fact{incoming("gone", "HAS_PET", "Biscuit", "2025-03-01").with(func(f *Fact) {
				f.Polarity = ontology.Negative
			})},
			outcomes: []Outcome{Created}, kinds: []string{"negation/resolved/new"},
			states: []string{"cat current", "dog superseded until 2025-03-01 by gone", "gone current"},
		},
		{
			name:     "ending (LLM shape): valid_to when said closes the slot with no successor",
			existing: []*Fact{stored("car", "DRIVES", "Corolla", "2024-01-01")},
			in: []*Fact{incoming("sold", "DRIVES", "Corolla", "2025-03-01").with(func(f *Fact) {
				vt := f.ObservedAt
				f.ValidTo = &vt
			})},
			outcomes: []Outcome{Ended},
			states:   []string{"car superseded until 2025-03-01"},
		},
		{
			name:     "ending of something never recorded is history: stored closed, nothing else moves",
			existing: []*Fact{stored("home", "LIVES_IN", "Bergen", "2024-01-01")},
			in: []*Fact{incoming("left", "LIVES_IN", "Bilbao", "2025-03-01").with(func(f *Fact) {
				vt := f.ObservedAt
				f.ValidTo = &vt
			})},
			outcomes: []Outcome{Created},
			states:   []string{"home current", "left superseded until 2025-03-01"},
		},
		{
			name:     "turnaround: liking what one disliked closes the dislike",
			existing: []*Fact{stored("hate", "DISLIKES", "olives", "2024-01-01")},
			in:       []*Fact{incoming("love", "LIKES", "olives", "2025-03-01")},
			outcomes: []Outcome{Created}, kinds: []string{"polarity/resolved/new"},
			states: []string{"hate superseded until 2025-03-01 by love", "love current"},
		},
		{
			name: "correction, one slot: the slip never held, history keeps both",
			in: []*Fact{incoming("tue", "SCHEDULED_ON", "Tuesday", "2025-03-01").with(func(f *Fact) { f.Subject = "dentist" }),
				incoming("wed", "SCHEDULED_ON", "Wednesday", "2025-03-01").with(func(f *Fact) { f.Subject = "dentist" }).with(correcting("Tuesday"))},
			outcomes: []Outcome{Created, Created}, kinds: []string{"correction/resolved/new"},
			states: []string{"tue superseded until 2025-03-01 by wed", "wed current"},
		},
		{
			name: "correction (LLM shape, slip unnamed) of a value stored in an earlier session",
			existing: []*Fact{stored("73", "HAS_MEASURE", "37", "2025-02-01").with(qualified("weekly hours")),
				stored("old", "HAS_MEASURE", "40", "2024-02-01").with(qualified("weekly hours")).with(func(f *Fact) { f.Status = Superseded })},
			in:       []*Fact{incoming("fix", "HAS_MEASURE", "35", "2025-03-01").with(qualified("weekly hours")).with(correcting(""))},
			outcomes: []Outcome{Created}, kinds: []string{"correction/resolved/new"},
			states: []string{"73 superseded until 2025-02-01 by fix", "fix current", "old superseded"},
		},
		{
			name: "correction, many slot: only the named slip is closed",
			existing: []*Fact{stored("pecan", "ALLERGIC_TO", "pecans", "2024-01-01"),
				stored("walnut", "ALLERGIC_TO", "walnuts", "2025-03-01").with(inSession("s1"))},
			in:       []*Fact{incoming("hazel", "ALLERGIC_TO", "hazelnuts", "2025-03-01").with(inSession("s1")).with(correcting("walnuts"))},
			outcomes: []Outcome{Created}, kinds: []string{"correction/resolved/new"},
			states: []string{"hazel current", "pecan current", "walnut superseded until 2025-03-01 by hazel"},
		},
		{
			name: "correction, many slot, slip unnamed: the latest value of the same session",
			existing: []*Fact{stored("pecan", "ALLERGIC_TO", "pecans", "2024-01-01"),
				stored("walnut", "ALLERGIC_TO", "walnuts", "2025-03-01").with(inSession("s1"))},
			in:       []*Fact{incoming("hazel", "ALLERGIC_TO", "hazelnuts", "2025-03-01").with(inSession("s1")).with(correcting(""))},
			outcomes: []Outcome{Created}, kinds: []string{"correction/resolved/new"},
			states: []string{"hazel current", "pecan current", "walnut superseded until 2025-03-01 by hazel"},
		},
		{
			name:     "correction with nothing to correct is a plain statement",
			existing: []*Fact{stored("pecan", "ALLERGIC_TO", "pecans", "2024-01-01")},
			in:       []*Fact{incoming("hazel", "ALLERGIC_TO", "hazelnuts", "2025-03-01").with(correcting(""))},
			outcomes: []Outcome{Created},
			states:   []string{"hazel current", "pecan current"},
		},
		{
			name:     "a correction said in the same window is never stale",
			existing: []*Fact{stored("fri", "SCHEDULED_ON", "Friday", "2025-03-01").with(func(f *Fact) { f.Subject = "flight" })},
			in: []*Fact{incoming("thu", "SCHEDULED_ON", "Thursday", "2025-03-01").with(func(f *Fact) {
				f.Subject, f.ValidFrom = "flight", day("2025-02-01")
			}).with(correcting("Friday"))},
			outcomes: []Outcome{Created}, kinds: []string{"correction/resolved/new"},
			states: []string{"fri superseded until 2025-03-01 by thu", "thu current"},
		},
		{
			name:     "a friend's salary never touches the user's",
			existing: []*Fact{stored("mine", "HAS_MEASURE", "50k", "2024-01-01").with(qualified("salary"))},
			in: []*Fact{incoming("theirs", "HAS_MEASURE", "90k", "2025-03-01").with(qualified("salary")).with(func(f *Fact) {
				f.Subject = "friend"
			})},
			outcomes: []Outcome{Created},
			states:   []string{"mine current", "theirs current"},
		},
		{
			name:     "a relative's correction never touches the user's slot",
			existing: []*Fact{stored("mine", "LIVES_IN", "Ghent", "2025-03-01").with(inSession("s1"))},
			in: []*Fact{incoming("sis", "LIVES_IN", "Lyon", "2025-03-01").with(inSession("s1")).with(correcting("")).with(func(f *Fact) {
				f.Subject = "sister"
			})},
			outcomes: []Outcome{Created},
			states:   []string{"mine current", "sis current"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			outcomes := checkPlan(t, tc.existing, tc.in, now, tc.kinds, tc.states)
			if !slices.Equal(outcomes, tc.outcomes) {
				t.Errorf("outcomes %v, want %v", outcomes, tc.outcomes)
			}
		})
	}
}

// checkPlan plans the incoming facts against the existing ones and checks
// the conflicts found (kind/status/winner) and every fact's state after;
// it returns the outcomes for the caller to check.
func checkPlan(t *testing.T, existing, in []*Fact, now time.Time, wantKinds, wantStates []string) []Outcome {
	t.Helper()
	st := &State{Facts: map[string][]*Fact{}}
	for _, f := range existing {
		st.Facts[f.Subject] = append(st.Facts[f.Subject], f)
	}
	d := Plan(st, in, now, Policy{})
	var outcomes []Outcome
	for _, a := range d.Actions {
		outcomes = append(outcomes, a.Outcome)
	}
	var kinds []string
	for _, c := range d.Conflicts {
		kinds = append(kinds, fmt.Sprintf("%s/%s/%s", c.Kind, c.Status, c.Winner))
	}
	if !slices.Equal(kinds, wantKinds) {
		t.Errorf("conflicts %v, want %v", kinds, wantKinds)
	}
	var states []string
	for _, facts := range st.Facts {
		for _, f := range facts {
			states = append(states, describe(f))
		}
	}
	slices.Sort(states)
	if !slices.Equal(states, wantStates) {
		t.Errorf("facts:\n  %s\nwant:\n  %s", strings.Join(states, "\n  "), strings.Join(wantStates, "\n  "))
	}
	return outcomes
}
