package knowledge

import (
	"fmt"
	"testing"

	"github.com/graphmem/graphmem/ontology"
)

// objectNamed sets the object's name (stored facts and new ones alike).
func objectNamed(name string) func(*Fact) { return func(f *Fact) { f.ObjectName = name } }

func TestKindOf(t *testing.T) {
	cases := []struct {
		spec, gen string
		want      bool
	}{
		{"true crime podcasts", "podcasts", true},
		{"Psychological Thrillers", "thriller", true},
		{"dark chocolate", "chocolate", true},
		{"podcasts", "podcasts", false},            // the same kind, not a sub-kind
		{"podcasts", "true crime podcasts", false}, // the other way round
		{"cosy mysteries", "thrillers", false},
		{"crime", "true crime podcasts", false},
		{"chocolate cake", "chocolate", false}, // the head is cake
		{"", "podcasts", false},
	}
	for _, c := range cases {
		if got := KindOf(c.spec, c.gen); got != c.want {
			t.Errorf("KindOf(%q, %q) = %v, want %v", c.spec, c.gen, got, c.want)
		}
	}
}

// TestActivityOf: an activity done with a thing is the thing's words and
// one -ing word after them.
func TestActivityOf(t *testing.T) {
	for _, c := range []struct {
		act, thing string
		want       bool
	}{
		{"sourdough baking", "sourdough", true},
		{"wine tasting", "wine", true},
		{"bird watching", "birds", true},
		{"sourdough bread", "sourdough", false}, // a sort of bread, not an activity
		{"baking", "sourdough", false},
		{"sourdough baking", "sourdough bread", false},
		{"sourdough baking classes", "sourdough", false},
		{"king", "", false},
	} {
		if got := ActivityOf(c.act, c.thing); got != c.want {
			t.Errorf("ActivityOf(%q, %q) = %v, want %v", c.act, c.thing, got, c.want)
		}
	}
}

// TestActivityWith: an activity is one -ing word; a liking of it in one
// form ("cooking elaborate meals") is the activity with more words after it.
func TestSameKind(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"horror movies", "horror films", true},
		{"Spicy dishes", "spicy food", true},
		{"sci-fi novels", "sci-fi books", true},
		{"horror movies", "horror movies", false}, // the same words: not other words
		{"horror movies", "war films", false},     // another kind
		{"spicy food", "food", false},             // a sort of, KindOf's case
		{"crime podcasts", "crime films", false},  // heads of different kinds
	} {
		if got := SameKind(c.a, c.b); got != c.want {
			t.Errorf("SameKind(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestGenreOf: a genre said with its medium is the genre.
func TestGenreOf(t *testing.T) {
	for _, c := range []struct {
		medium, genre string
		want          bool
	}{
		{"horror films", "horror", true},
		{"Jazz music", "jazz", true},
		{"true crime podcasts", "true crime", true},
		{"sci-fi novels", "sci-fi", true},
		{"chocolate cake", "chocolate", false}, // a food made of it, not a medium
		{"spicy food", "spicy", false},         // food is no medium
		{"horror", "horror films", false},      // the other way round
		{"war films", "horror", false},
		{"horror films", "", false},
	} {
		if got := GenreOf(c.medium, c.genre); got != c.want {
			t.Errorf("GenreOf(%q, %q) = %v, want %v", c.medium, c.genre, got, c.want)
		}
	}
}

func TestActivityWith(t *testing.T) {
	for _, c := range []struct {
		spec, gen string
		want      bool
	}{
		{"cooking elaborate meals on weekends", "cooking", true},
		{"Running on a treadmill", "running", true},
		{"cooking", "cooking", false},                       // the same thing
		{"cooking shows", "cook", false},                    // not an activity word
		{"king prawns", "king", false},                      // "king" is no -ing activity
		{"baking bread", "cooking", false},                  // another activity
		{"cooking elaborate meals", "cooking meals", false}, // a sort of, not the bare activity
	} {
		if got := ActivityWith(c.spec, c.gen); got != c.want {
			t.Errorf("ActivityWith(%q, %q) = %v, want %v", c.spec, c.gen, got, c.want)
		}
	}
}

// TestPlanKindTurns: a taste turned on a kind of thing, across a kind and
// its sub-kind (facts as the graph loads them: LIKES positive, DISLIKES
// negative, the object's name known).
func TestPlanKindTurns(t *testing.T) {
	now := day("2026-01-01")
	cases := []struct {
		name     string
		existing []*Fact
		in       []*Fact
		kinds    []string
		states   []string
	}{
		{
			name:     "a newer aversion to the kind closes the liked sub-kind",
			existing: []*Fact{stored("tc", "LIKES", "o-tc", "2024-01-01").with(objectNamed("true crime podcasts"))},
			in:       []*Fact{incoming("off", "DISLIKES", "o-pod", "2025-03-01").with(objectNamed("podcasts"))},
			kinds:    []string{"polarity/resolved/new"},
			states:   []string{"off current", "tc superseded until 2025-03-01 by off"},
		},
		{
			name:     "a newer liking of a sub-kind takes back the aversion to the kind",
			existing: []*Fact{stored("bore", "DISLIKES", "o-pod", "2024-01-01").with(objectNamed("podcasts"))},
			in:       []*Fact{incoming("hist", "LIKES", "o-hist", "2025-03-01").with(objectNamed("history podcasts"))},
			kinds:    []string{"polarity/resolved/new"},
			states:   []string{"bore superseded until 2025-03-01 by hist", "hist current"},
		},
		{
			name:     "a newer aversion to a thing closes the liked activity done with it",
			existing: []*Fact{stored("bake", "LIKES", "o-sb", "2024-01-01").with(objectNamed("sourdough baking"))},
			in:       []*Fact{incoming("done", "DISLIKES", "o-sd", "2025-03-01").with(objectNamed("sourdough"))},
			kinds:    []string{"polarity/resolved/new"},
			states:   []string{"bake superseded until 2025-03-01 by done", "done current"},
		},
		{
			name:     "a newer aversion to an activity closes the liking of it in one form",
			existing: []*Fact{stored("elab", "LIKES", "o-ce", "2024-01-01").with(objectNamed("cooking elaborate meals on weekends"))},
			in:       []*Fact{incoming("chore", "DISLIKES", "o-c", "2025-03-01").with(objectNamed("cooking"))},
			kinds:    []string{"polarity/resolved/new"},
			states:   []string{"chore current", "elab superseded until 2025-03-01 by chore"},
		},
		{
			name:     "a newer liking of an activity leaves the aversion to one form of it",
			existing: []*Fact{stored("tread", "DISLIKES", "o-rt", "2024-01-01").with(objectNamed("running on a treadmill"))},
			in:       []*Fact{incoming("run", "LIKES", "o-r", "2025-03-01").with(objectNamed("running"))},
			states:   []string{"run current", "tread current"},
		},
		{
			name:     "a newer aversion to a genre closes the liking of it in a medium",
			existing: []*Fact{stored("films", "LIKES", "o-hf", "2024-01-01").with(objectNamed("horror films"))},
			in:       []*Fact{incoming("cant", "DISLIKES", "o-h", "2025-03-01").with(objectNamed("horror"))},
			kinds:    []string{"polarity/resolved/new"},
			states:   []string{"cant current", "films superseded until 2025-03-01 by cant"},
		},
		{
			name:     "a newer aversion to a genre closes the favourite of it in a medium",
			existing: []*Fact{stored("fav", "HAS_FAVORITE", "o-hf", "2024-01-01").with(objectNamed("horror films"))},
			in:       []*Fact{incoming("cant", "DISLIKES", "o-h", "2025-03-01").with(objectNamed("horror"))},
			kinds:    []string{"polarity/resolved/new"},
			states:   []string{"cant current", "fav superseded until 2025-03-01 by cant"},
		},
		{
			name:     "a newer liking of another genre leaves the favourite",
			existing: []*Fact{stored("fav", "HAS_FAVORITE", "o-hf", "2024-01-01").with(objectNamed("horror films"))},
			in:       []*Fact{incoming("war", "LIKES", "o-w", "2025-03-01").with(objectNamed("war films"))},
			states:   []string{"fav current", "war current"},
		},
		{
			name:     "liking the kind and hating one sub-kind coexist",
			existing: []*Fact{stored("pod", "LIKES", "o-pod", "2024-01-01").with(objectNamed("podcasts"))},
			in:       []*Fact{incoming("horror", "DISLIKES", "o-hp", "2025-03-01").with(objectNamed("horror podcasts"))},
			states:   []string{"horror current", "pod current"},
		},
		{
			name:     "a newer liking of the kind leaves a disliked sub-kind",
			existing: []*Fact{stored("horror", "DISLIKES", "o-hp", "2024-01-01").with(objectNamed("horror podcasts"))},
			in:       []*Fact{incoming("pod", "LIKES", "o-pod", "2025-03-01").with(objectNamed("podcasts"))},
			states:   []string{"horror current", "pod current"},
		},
		{
			name:     "a newer aversion in other words closes the liking of the same kind",
			existing: []*Fact{stored("mov", "LIKES", "o-hm", "2024-01-01").with(objectNamed("horror movies"))},
			in:       []*Fact{incoming("off", "DISLIKES", "o-hf", "2025-03-01").with(objectNamed("horror films"))},
			kinds:    []string{"polarity/resolved/new"},
			states:   []string{"mov superseded until 2025-03-01 by off", "off current"},
		},
		{
			name:     "another kind with the same head coexists",
			existing: []*Fact{stored("hm", "LIKES", "o-hm", "2024-01-01").with(objectNamed("horror movies"))},
			in:       []*Fact{incoming("war", "DISLIKES", "o-wf", "2025-03-01").with(objectNamed("war films"))},
			states:   []string{"hm current", "war current"},
		},
		{
			name:     "two unrelated kinds coexist (a second liked thing)",
			existing: []*Fact{stored("thr", "DISLIKES", "o-thr", "2024-01-01").with(objectNamed("thrillers"))},
			in:       []*Fact{incoming("cosy", "LIKES", "o-cosy", "2025-03-01").with(objectNamed("cosy mysteries"))},
			states:   []string{"cosy current", "thr current"},
		},
		{
			name:     "a denial of the general role closes the specific one",
			existing: []*Fact{stored("sci", "WORKS_AS", "o-sci", "2024-01-01").with(objectNamed("secondary school science teacher"))},
			in: []*Fact{incoming("left", "WORKS_AS", "o-t", "2025-03-01").with(objectNamed("teacher")).with(func(f *Fact) {
				f.Polarity = ontology.Negative
			})},
			kinds:  []string{"negation/resolved/new"},
			states: []string{"left current", "sci superseded until 2025-03-01 by left"},
		},
		{
			name:     "a denial of a specific role leaves the general one",
			existing: []*Fact{stored("t", "WORKS_AS", "o-t", "2024-01-01").with(objectNamed("teacher"))},
			in: []*Fact{incoming("nosci", "WORKS_AS", "o-sci", "2025-03-01").with(objectNamed("science teacher")).with(func(f *Fact) {
				f.Polarity = ontology.Negative
			})},
			states: []string{"nosci current", "t current"},
		},
		{
			name:     "names unknown: no kind rule",
			existing: []*Fact{stored("tc", "LIKES", "o-tc", "2024-01-01")},
			in:       []*Fact{incoming("off", "DISLIKES", "o-pod", "2025-03-01")},
			states:   []string{"off current", "tc current"},
		},
		{
			name:     "an older aversion arriving late is stale, and closes nothing",
			existing: []*Fact{stored("hist", "LIKES", "o-hist", "2025-03-01").with(objectNamed("history podcasts"))},
			in:       []*Fact{incoming("bore", "DISLIKES", "o-pod", "2024-01-01").with(objectNamed("podcasts"))},
			kinds:    []string{"stale/resolved/old"},
			states:   []string{"bore superseded until 2025-03-01 by hist", "hist current"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { checkPlan(t, tc.existing, tc.in, now, tc.kinds, tc.states) })
	}
}

// TestPlanEndingWithoutQualifier: an ending that names no qualifier ends
// the current fact whatever its note ("Tom and I went our separate ways"
// after "my boyfriend Tom"); a qualified ending of another qualifier does
// not.
func TestPlanEndingWithoutQualifier(t *testing.T) {
	now := day("2026-01-01")
	ending := func(id, q string) *Fact {
		f := incoming(id, "PARTNER_OF", "tom", "2025-03-01").with(qualified(q))
		end := day("2025-03-01")
		f.ValidTo = &end
		return f
	}
	for _, tc := range []struct {
		name    string
		in      *Fact
		outcome Outcome
		tom     string
	}{
		{"unqualified ending ends the qualified fact", ending("split", ""), Ended, "tom superseded until 2025-03-01"},
		{"an ending of another qualifier leaves it", ending("split", "husband"), Created, "tom current"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tom := stored("tom", "PARTNER_OF", "tom", "2024-01-01").with(qualified("boyfriend"))
			st := &State{Facts: map[string][]*Fact{"user": {tom}}}
			d := Plan(st, []*Fact{tc.in}, now, Policy{})
			if d.Actions[0].Outcome != tc.outcome {
				t.Errorf("outcome %s, want %s", d.Actions[0].Outcome, tc.outcome)
			}
			if got := describe(tom); got != tc.tom {
				t.Errorf("tom: %s, want %s", got, tc.tom)
			}
		})
	}
}

// TestPlanEndingByShortName: an ending that names its object by part of
// the name ("The Trek was nicked") ends the one current fact whose object
// begins or ends with those words; two such objects are ambiguous, and a
// name that is not a whole word of it ("Tre") matches nothing.
func TestPlanEndingByShortName(t *testing.T) {
	now := day("2026-01-01")
	named := func(f *Fact, name string) *Fact { f.ObjectName = name; return f }
	for _, tc := range []struct {
		name    string
		short   string
		others  []string // names of further current OWNS objects
		outcome Outcome
		bike    string
	}{
		{"the first word", "Trek", nil, Ended, "bike superseded until 2025-08-01"},
		{"the last word", "Domane", nil, Ended, "bike superseded until 2025-08-01"},
		{"not a whole word", "Tre", nil, Created, "bike current"},
		{"ambiguous", "Trek", []string{"Trek Marlin"}, Created, "bike current"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bike := named(stored("bike", "OWNS", "trek-domane", "2024-01-01"), "Trek Domane")
			facts := []*Fact{bike}
			for i, o := range tc.others {
				facts = append(facts, named(stored(fmt.Sprint("other", i), "OWNS", fmt.Sprint("o", i), "2024-02-01"), o))
			}
			in := named(incoming("lost", "OWNS", "short", "2025-08-01"), tc.short)
			end := day("2025-08-01")
			in.ValidTo = &end
			st := &State{Facts: map[string][]*Fact{"user": facts}}
			d := Plan(st, []*Fact{in}, now, Policy{})
			if d.Actions[0].Outcome != tc.outcome {
				t.Errorf("outcome %s, want %s", d.Actions[0].Outcome, tc.outcome)
			}
			if got := describe(bike); got != tc.bike {
				t.Errorf("bike: %s, want %s", got, tc.bike)
			}
			// A retried window says it again: nothing changes.
			again := named(incoming("lost", "OWNS", "short", "2025-08-01"), tc.short) // the same turn and session
			again.ValidTo = &end
			before := len(st.Facts["user"])
			d = Plan(st, []*Fact{again}, now, Policy{})
			if tc.outcome == Ended && (d.Actions[0].Outcome != Unchanged || len(st.Facts["user"]) != before) {
				t.Errorf("replay: outcome %s, %d facts (was %d); want unchanged", d.Actions[0].Outcome, len(st.Facts["user"]), before)
			}
		})
	}
}

// TestEndedBySpecies: an ending that names only a kind of animal ("we
// lost our little bird") ends the one current pet of that species or of a
// breed of it ("a budgie named Pip"); two such pets are ambiguous, another
// species is untouched, and a retried window changes nothing.
func TestEndedBySpecies(t *testing.T) {
	now := day("2025-09-01")
	named := func(f *Fact, name string) *Fact { f.ObjectName = name; return f }
	pet := func(id, name, species string) *Fact {
		f := named(stored(id, "HAS_PET", id, "2024-01-01"), name)
		f.Qualifier = species
		return f
	}
	for _, tc := range []struct {
		name    string
		ended   string // the kind the ending names
		others  []*Fact
		outcome Outcome
		pip     string
	}{
		{"a breed of the kind", "bird", nil, Ended, "pip superseded until 2025-08-01"},
		{"the same species", "budgie", nil, Ended, "pip superseded until 2025-08-01"},
		{"another species", "dog", nil, Created, "pip current"},
		{"ambiguous", "bird", []*Fact{pet("kiwi", "Kiwi", "canary")}, Created, "pip current"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pip := pet("pip", "Pip", "budgie")
			st := &State{Facts: map[string][]*Fact{"user": append([]*Fact{pip}, tc.others...)}}
			mk := func() *Fact {
				in := named(incoming("lost", "HAS_PET", "user/"+tc.ended, "2025-08-01"), tc.ended)
				in.Qualifier = tc.ended
				end := day("2025-08-01")
				in.ValidTo = &end
				return in
			}
			d := Plan(st, []*Fact{mk()}, now, Policy{})
			if d.Actions[0].Outcome != tc.outcome {
				t.Errorf("outcome %s, want %s", d.Actions[0].Outcome, tc.outcome)
			}
			if got := describe(pip); got != tc.pip {
				t.Errorf("pip: %s, want %s", got, tc.pip)
			}
			for _, o := range tc.others {
				if !o.IsCurrent() {
					t.Errorf("%s ended too", o.ID)
				}
			}
			before := len(st.Facts["user"])
			d = Plan(st, []*Fact{mk()}, now, Policy{})
			if tc.outcome == Ended && (d.Actions[0].Outcome != Unchanged || len(st.Facts["user"]) != before) {
				t.Errorf("replay: outcome %s, %d facts (was %d); want unchanged", d.Actions[0].Outcome, len(st.Facts["user"]), before)
			}
		})
	}
}

// TestEndedBySpeciesOnlyPets: the rule is of animals; an ending on another
// predicate whose note names its object ends no differently named fact.
func TestEndedBySpeciesOnlyPets(t *testing.T) {
	named := func(f *Fact, name string) *Fact { f.ObjectName = name; return f }
	club := named(stored("club", "MEMBER_OF", "rovers", "2024-01-01"), "Rovers")
	club.Qualifier = "club"
	st := &State{Facts: map[string][]*Fact{"user": {club}}}
	in := named(incoming("left", "MEMBER_OF", "user/club", "2025-08-01"), "club")
	in.Qualifier = "club"
	end := day("2025-08-01")
	in.ValidTo = &end
	Plan(st, []*Fact{in}, day("2025-09-01"), Policy{})
	if !club.IsCurrent() {
		t.Fatalf("a club membership was ended by a species rule: %s", describe(club))
	}
}
