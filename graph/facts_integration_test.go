//go:build integration

package graph_test

import (
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/ontology"
)

// TestFactsMoveSupersedesPreviousHome: Paris, then a move to Berlin. Berlin
// is current, Paris is closed (not deleted) at the move date, one conflict
// was resolved automatically, and asking as of before the move gives Paris.
func TestFactsMoveSupersedesPreviousHome(t *testing.T) {
	t.Parallel()
	k := newKn(t)
	r1 := k.write("s1", knDay("2024-02-03"), []graph.EntityInput{knUserEnt(), knEnt("paris", "Paris", ontology.Place)},
		knFact("user", "LIVES_IN", "paris", knSay("The user lives in Paris")))
	moved := knDay("2024-08-14")
	r2 := k.write("s2", knDay("2024-09-14"), []graph.EntityInput{knUserEnt(), knEnt("berlin", "Berlin", ontology.Place)},
		knFact("user", "LIVES_IN", "berlin", knFrom(moved), knSay("The user moved to Berlin last month")))
	if len(r2.FactsCreated) != 1 || len(r2.FactsSuperseded) != 1 || r2.FactsSuperseded[0] != r1.FactsCreated[0] ||
		len(r2.ConflictsResolved) != 1 || len(r2.ConflictsOpened) != 0 {
		t.Fatalf("move result: %+v", r2)
	}
	knEqual(t, "current facts", knObjects(k.facts(graph.FactQuery{}), false), []string{"LIVES_IN Berlin"})
	all := k.facts(graph.FactQuery{IncludeHistory: true})
	knEqual(t, "history", knObjects(all, true), []string{"LIVES_IN Berlin [current]", "LIVES_IN Paris [superseded]"})
	paris, berlin := knFind(t, all, "LIVES_IN", "Paris"), knFind(t, all, "LIVES_IN", "Berlin")
	if !paris.ValidTo.Equal(moved) || paris.ExpiredAt.IsZero() || paris.SupersededBy != berlin.ID ||
		!paris.ValidFrom.Equal(knDay("2024-02-03")) {
		t.Fatalf("Paris not closed at the move: %+v", paris)
	}
	if !berlin.ValidFrom.Equal(moved) || !berlin.ValidTo.IsZero() || berlin.Fact != "The user moved to Berlin last month" {
		t.Fatalf("Berlin: %+v", berlin)
	}
	cs := k.conflicts("resolved")
	if len(cs) != 1 || cs[0].Kind != "exclusive" || cs[0].Resolution != "auto" || cs[0].Winner != "new" ||
		cs[0].OldFactID != paris.ID || cs[0].NewFactID != berlin.ID || cs[0].SubjectID != paris.SubjectID ||
		cs[0].OldFact != "The user lives in Paris" || cs[0].Predicate != "LIVES_IN" {
		t.Fatalf("conflicts: %+v", cs)
	}
	if open := k.conflicts("open"); len(open) != 0 {
		t.Fatalf("open conflicts: %+v", open)
	}
	for asOf, want := range map[string]string{"2024-03-01": "LIVES_IN Paris", "2024-08-20": "LIVES_IN Berlin", "2025-01-01": "LIVES_IN Berlin"} {
		at := knDay(asOf)
		knEqual(t, "as of "+asOf, knObjects(k.facts(graph.FactQuery{AsOf: &at}), false), []string{want})
	}
	early := knDay("2023-01-01")
	if got := k.facts(graph.FactQuery{AsOf: &early}); len(got) != 0 {
		t.Fatalf("as of before anything was said: %v", knObjects(got, true))
	}
}

// TestFactsJobChangeWithNegation: "I left Acme Corp and joined Globex as a
// data engineer" closes the Acme job by negation and the old title by
// exclusivity.
func TestFactsJobChangeWithNegation(t *testing.T) {
	t.Parallel()
	k := newKn(t)
	k.write("s1", knDay("2023-11-01"), []graph.EntityInput{knUserEnt(), knEnt("acme", "Acme Corp", ontology.Organization),
		knEnt("analyst", "data analyst", ontology.Concept)},
		knFact("user", "WORKS_AT", "acme"), knFact("user", "WORKS_AS", "analyst"))
	r := k.write("s2", knDay("2024-04-02"), []graph.EntityInput{knUserEnt(), knEnt("acme", "Acme Corp.", ontology.Organization),
		knEnt("globex", "Globex", ontology.Organization), knEnt("eng", "data engineer", ontology.Concept)},
		knFact("user", "WORKS_AT", "acme", knNeg, knSay("The user left Acme Corp")),
		knFact("user", "WORKS_AT", "globex"), knFact("user", "WORKS_AS", "eng"))
	if len(r.EntitiesCreated) != 2 || len(r.ConflictsResolved) != 2 {
		t.Fatalf("job change: %+v", r)
	}
	knEqual(t, "current", knObjects(k.facts(graph.FactQuery{}), false),
		[]string{"WORKS_AS data engineer", "WORKS_AT Acme Corp (neg)", "WORKS_AT Globex"})
	knEqual(t, "history", knObjects(k.facts(graph.FactQuery{IncludeHistory: true}), true), []string{
		"WORKS_AS data analyst [superseded]", "WORKS_AS data engineer [current]",
		"WORKS_AT Acme Corp (neg) [current]", "WORKS_AT Acme Corp [superseded]", "WORKS_AT Globex [current]"})
	kinds := map[string]string{}
	for _, c := range k.conflicts("") {
		kinds[c.Predicate] = string(c.Kind)
	}
	if kinds["WORKS_AT"] != "negation" || kinds["WORKS_AS"] != "exclusive" || len(kinds) != 2 {
		t.Fatalf("conflict kinds: %v", kinds)
	}
	// Being hired back later reverses the negation.
	k.write("s3", knDay("2025-01-10"), []graph.EntityInput{knUserEnt(), knEnt("acme", "ACME corp", ontology.Organization)},
		knFact("user", "WORKS_AT", "acme"))
	knEqual(t, "after rejoining", knObjects(k.facts(graph.FactQuery{Predicate: "WORKS_AT"}), false), []string{"WORKS_AT Acme Corp"})
}

// TestFactsPolarityFlipsAndPreferences: love sushi then "don't like sushi
// anymore"; hate running then love running. The preferences endpoint shows
// the current taste, the history on request, and the taste as of a date.
func TestFactsPolarityFlipsAndPreferences(t *testing.T) {
	t.Parallel()
	k := newKn(t)
	ctx := t.Context()
	food := func(f *graph.FactInput) { f.Strength = 0.9 }
	k.write("s1", knDay("2024-01-05"), []graph.EntityInput{knUserEnt(), knEnt("sushi", "sushi", ontology.Food),
		knEnt("running", "running", ontology.Activity)},
		knFact("user", "LIKES", "sushi", food, knSay("The user loves sushi")),
		knFact("user", "HAS_FAVORITE", "sushi", knQual("food")),
		knFact("user", "DISLIKES", "running", knSay("The user hates running")))
	r := k.write("s2", knDay("2024-06-20"), []graph.EntityInput{knUserEnt(), knEnt("sushi", "Sushi", ontology.Food),
		knEnt("running", "running", ontology.Activity)},
		knFact("user", "LIKES", "sushi", knNeg, knSay("The user doesn't like sushi anymore")),
		knFact("user", "LIKES", "running", knSay("The user loves running now")))
	if len(r.ConflictsResolved) != 3 {
		t.Fatalf("flips resolved %d conflicts, want 3 (LIKES sushi, favourite sushi, DISLIKES running): %+v", len(r.ConflictsResolved), r)
	}
	prefs := func(q graph.PreferenceQuery) []string {
		t.Helper()
		got, err := k.s.Preferences(ctx, k.tenant, k.user, q)
		if err != nil {
			t.Fatal(err)
		}
		out := make([]string, len(got))
		for i, p := range got {
			out[i] = p.Predicate + " " + p.Object + " " + p.Polarity + " " + p.Status
			if len(p.SourceEventIDs) != 0 || p.FactID == "" {
				t.Fatalf("preference row: %+v", p)
			}
		}
		return knSorted(out)
	}
	knEqual(t, "current preferences", prefs(graph.PreferenceQuery{}), []string{
		"DISLIKES sushi negative current", "LIKES running positive current"})
	knEqual(t, "preference history", prefs(graph.PreferenceQuery{IncludeHistory: true}), []string{
		"DISLIKES running negative superseded", "DISLIKES sushi negative current", "HAS_FAVORITE sushi positive superseded",
		"LIKES running positive current", "LIKES sushi positive superseded"})
	march := knDay("2024-03-01")
	knEqual(t, "preferences as of March", prefs(graph.PreferenceQuery{AsOf: &march}), []string{
		"DISLIKES running negative superseded", "HAS_FAVORITE sushi positive superseded", "LIKES sushi positive superseded"})
	for _, c := range k.conflicts("") {
		if c.Kind != "polarity" || c.Status != "resolved" {
			t.Fatalf("flip conflict: %+v", c)
		}
	}
	// Stored as DISLIKES, readable in Browser; the strength went with it.
	hist := k.facts(graph.FactQuery{IncludeHistory: true, Predicate: "LIKES"})
	if sushi := knFind(t, hist, "LIKES", "sushi"); sushi.Strength != 0.9 || sushi.Status != "superseded" {
		t.Fatalf("old sushi like: %+v", sushi)
	}
}

func knSorted(in []string) []string {
	out := append([]string(nil), in...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// TestFactsNonExclusiveCoexist: likes pizza and burgers, allergic to
// peanuts and shellfish: nothing is closed, no conflict.
func TestFactsNonExclusiveCoexist(t *testing.T) {
	t.Parallel()
	k := newKn(t)
	k.write("s1", knDay("2024-03-10"), []graph.EntityInput{knUserEnt(), knEnt("pizza", "pizza", ontology.Food),
		knEnt("peanuts", "peanuts", ontology.Food)},
		knFact("user", "LIKES", "pizza"), knFact("user", "ALLERGIC_TO", "peanuts"))
	k.write("s2", knDay("2024-03-12"), []graph.EntityInput{knUserEnt(), knEnt("burgers", "burgers", ontology.Food),
		knEnt("shellfish", "shellfish", ontology.Food)},
		knFact("user", "LIKES", "burgers"), knFact("user", "ALLERGIC_TO", "shellfish"))
	knEqual(t, "current", knObjects(k.facts(graph.FactQuery{IncludeHistory: true}), true), []string{
		"ALLERGIC_TO peanuts [current]", "ALLERGIC_TO shellfish [current]", "LIKES burgers [current]", "LIKES pizza [current]"})
	if cs := k.conflicts(""); len(cs) != 0 {
		t.Fatalf("conflicts: %+v", cs)
	}
}

// TestFactsAboutOtherPeopleStayApart: the sister's home is not the user's;
// conflicts only ever involve the same subject.
func TestFactsAboutOtherPeopleStayApart(t *testing.T) {
	t.Parallel()
	k := newKn(t)
	k.write("s1", knDay("2024-05-01"), []graph.EntityInput{knUserEnt(), knEnt("emma", "Emma", ontology.Person),
		knEnt("rome", "Rome", ontology.Place)},
		knFact("user", "SIBLING_OF", "emma", knQual("sister")), knFact("emma", "LIVES_IN", "rome"))
	r := k.write("s2", knDay("2024-05-03"), []graph.EntityInput{knUserEnt(), knEnt("lisbon", "Lisbon", ontology.Place)},
		knFact("user", "LIVES_IN", "lisbon"))
	if len(r.ConflictsResolved)+len(r.ConflictsOpened)+len(r.FactsSuperseded) != 0 {
		t.Fatalf("the user's home touched the sister's: %+v", r)
	}
	k.write("s3", knDay("2024-07-01"), []graph.EntityInput{knUserEnt(), knEnt("emma", "Emma", ontology.Person),
		knEnt("milan", "Milan", ontology.Place)}, knFact("emma", "LIVES_IN", "milan"))
	current := k.facts(graph.FactQuery{Predicate: "LIVES_IN"})
	byPerson := map[string]string{}
	for _, f := range current {
		byPerson[f.Subject] = f.Object
	}
	if len(current) != 2 || byPerson["Emma"] != "Milan" || byPerson[k.user] != "Lisbon" {
		t.Fatalf("current homes: %v", byPerson)
	}
	lisbon := knFind(t, current, "LIVES_IN", "Lisbon")
	if lisbon.Status != "current" || lisbon.Subject == "Emma" {
		t.Fatalf("user's Lisbon: %+v", lisbon)
	}
	cs := k.conflicts("")
	if len(cs) != 1 || cs[0].Subject != "Emma" {
		t.Fatalf("conflicts: %+v", cs)
	}
	// Facts filtered by subject.
	emmaFacts := k.facts(graph.FactQuery{Subject: cs[0].SubjectID, IncludeHistory: true})
	knEqual(t, "Emma's facts", knObjects(emmaFacts, true), []string{"LIVES_IN Milan [current]", "LIVES_IN Rome [superseded]"})
}

// TestFactsQualifierScopedExclusivity: an exclusive predicate is exclusive
// per qualifier (favourite language vs colour; budget for a trip vs
// groceries), and a meeting can be the subject of its own schedule.
func TestFactsQualifierScopedExclusivity(t *testing.T) {
	t.Parallel()
	k := newKn(t)
	k.write("s1", knDay("2024-01-01"), []graph.EntityInput{knUserEnt(), knEnt("py", "Python", ontology.Language),
		knEnt("blue", "blue", ontology.Concept), knEnt("b2000", "2000 euros", ontology.Value), knEnt("b500", "500 euros", ontology.Value),
		knEnt("meeting", "team meeting", ontology.Occasion), knEnt("mon", "Mondays", ontology.Value)},
		knFact("user", "HAS_FAVORITE", "py", knQual("programming language")),
		knFact("user", "HAS_FAVORITE", "blue", knQual("colour")),
		knFact("user", "HAS_BUDGET", "b2000", knQual("trip")),
		knFact("user", "HAS_BUDGET", "b500", knQual("groceries")),
		knFact("meeting", "SCHEDULED_ON", "mon"))
	r := k.write("s2", knDay("2024-02-01"), []graph.EntityInput{knUserEnt(), knEnt("go", "Go", ontology.Language),
		knEnt("b3000", "3000 euros", ontology.Value), knEnt("meeting", "the team meeting", ontology.Occasion),
		knEnt("thu", "Thursdays", ontology.Value)},
		knFact("user", "HAS_FAVORITE", "go", knQual("Programming Languages")),
		knFact("user", "HAS_BUDGET", "b3000", knQual("Trip")),
		knFact("meeting", "SCHEDULED_ON", "thu"))
	if len(r.ConflictsResolved) != 3 || len(r.FactsSuperseded) != 3 {
		t.Fatalf("qualified changes: %+v", r)
	}
	knEqual(t, "current", knObjects(k.facts(graph.FactQuery{}), false), []string{
		"HAS_BUDGET 3000 euros", "HAS_BUDGET 500 euros", "HAS_FAVORITE Go", "HAS_FAVORITE blue", "SCHEDULED_ON Thursdays"})
	meetingID := r.EntityIDs["meeting"]
	sched := k.facts(graph.FactQuery{Subject: meetingID, IncludeHistory: true})
	knEqual(t, "meeting schedule", knObjects(sched, true), []string{"SCHEDULED_ON Mondays [superseded]", "SCHEDULED_ON Thursdays [current]"})
	if sched[0].Subject != "team meeting" {
		t.Fatalf("meeting subject: %+v", sched[0])
	}
	fav := knFind(t, k.facts(graph.FactQuery{}), "HAS_FAVORITE", "Go")
	if fav.Qualifier != "programming language" {
		t.Fatalf("qualifier stored as %q", fav.Qualifier)
	}
}

// TestFactsOutOfOrderIngestion: the newer session is ingested first; the
// older statement arriving later is stored already superseded and the
// current fact stays.
func TestFactsOutOfOrderIngestion(t *testing.T) {
	t.Parallel()
	k := newKn(t)
	moved := knDay("2024-08-14")
	rb := k.write("s2", knDay("2024-09-14"), []graph.EntityInput{knUserEnt(), knEnt("berlin", "Berlin", ontology.Place)},
		knFact("user", "LIVES_IN", "berlin", knFrom(moved)))
	rp := k.write("s1", knDay("2024-02-03"), []graph.EntityInput{knUserEnt(), knEnt("paris", "Paris", ontology.Place)},
		knFact("user", "LIVES_IN", "paris"))
	if len(rp.FactsCreated) != 1 || len(rp.FactsSuperseded) != 1 || rp.FactsSuperseded[0] != rp.FactsCreated[0] {
		t.Fatalf("stale write: %+v", rp)
	}
	knEqual(t, "current", knObjects(k.facts(graph.FactQuery{}), false), []string{"LIVES_IN Berlin"})
	paris := knFind(t, k.facts(graph.FactQuery{IncludeHistory: true}), "LIVES_IN", "Paris")
	if paris.Status != "superseded" || !paris.ValidTo.Equal(moved) || paris.SupersededBy != rb.FactsCreated[0] {
		t.Fatalf("stale Paris: %+v", paris)
	}
	cs := k.conflicts("")
	if len(cs) != 1 || cs[0].Kind != "stale" || cs[0].Winner != "old" || cs[0].Status != "resolved" ||
		cs[0].OldFactID != rb.FactsCreated[0] || cs[0].NewFactID != paris.ID {
		t.Fatalf("stale conflict: %+v", cs)
	}
	march := knDay("2024-03-01")
	knEqual(t, "as of March", knObjects(k.facts(graph.FactQuery{AsOf: &march}), false), []string{"LIVES_IN Paris"})

	// Later news about an earlier start is not stale: said in October,
	// "I moved to Munich in July" beats a Berlin that was only ever dated
	// by when it was said.
	k2 := newKn(t)
	k2.write("s1", knDay("2024-09-01"), []graph.EntityInput{knUserEnt(), knEnt("berlin", "Berlin", ontology.Place)},
		knFact("user", "LIVES_IN", "berlin"))
	k2.write("s2", knDay("2024-10-01"), []graph.EntityInput{knUserEnt(), knEnt("munich", "Munich", ontology.Place)},
		knFact("user", "LIVES_IN", "munich", knFrom(knDay("2024-07-01"))))
	knEqual(t, "later news", knObjects(k2.facts(graph.FactQuery{}), false), []string{"LIVES_IN Munich"})
	berlin := knFind(t, k2.facts(graph.FactQuery{IncludeHistory: true}), "LIVES_IN", "Berlin")
	if !berlin.ValidTo.Equal(berlin.ValidFrom) {
		t.Fatalf("Berlin closed at %s, want its own start %s (never valid after it was said)", berlin.ValidTo, berlin.ValidFrom)
	}

	// The same two statements extracted in the other order (the later
	// session's window first): the earlier "I live in Berlin", dated only
	// by when it was said, arrives late and yields.
	k3 := newKn(t)
	k3.write("s2", knDay("2024-10-01"), []graph.EntityInput{knUserEnt(), knEnt("munich", "Munich", ontology.Place)},
		knFact("user", "LIVES_IN", "munich", knFrom(knDay("2024-07-01"))))
	late := k3.write("s1", knDay("2024-09-01"), []graph.EntityInput{knUserEnt(), knEnt("berlin", "Berlin", ontology.Place)},
		knFact("user", "LIVES_IN", "berlin"))
	knEqual(t, "late present tense", knObjects(k3.facts(graph.FactQuery{}), false), []string{"LIVES_IN Munich"})
	if len(late.FactsSuperseded) != 1 || late.FactsSuperseded[0] != late.FactsCreated[0] {
		t.Fatalf("the late Berlin should be stored superseded: %+v", late)
	}
}

// TestFactsEndedWhenSaid: "I lived in Oslo until 2020" is history from the
// start and closes nothing.
func TestFactsEndedWhenSaid(t *testing.T) {
	t.Parallel()
	k := newKn(t)
	k.write("s1", knDay("2024-01-01"), []graph.EntityInput{knUserEnt(), knEnt("lisbon", "Lisbon", ontology.Place)},
		knFact("user", "LIVES_IN", "lisbon"))
	until := knDay("2020-06-01")
	from := knDay("2015-01-01")
	r := k.write("s2", knDay("2024-02-01"), []graph.EntityInput{knUserEnt(), knEnt("oslo", "Oslo", ontology.Place)},
		knFact("user", "LIVES_IN", "oslo", func(f *graph.FactInput) { f.ValidFrom, f.ValidTo = &from, &until }))
	if len(r.ConflictsResolved)+len(r.ConflictsOpened) != 0 {
		t.Fatalf("a past fact made a conflict: %+v", r)
	}
	knEqual(t, "current", knObjects(k.facts(graph.FactQuery{}), false), []string{"LIVES_IN Lisbon"})
	at := knDay("2018-01-01")
	knEqual(t, "as of 2018", knObjects(k.facts(graph.FactQuery{AsOf: &at}), false), []string{"LIVES_IN Oslo"})
}

// TestFactsKnownAtIsRecordTime: known_at answers what graphmem believed at
// an instant of record time: before the move was recorded, Paris (although
// the move happened, in valid time, before that instant); after, Berlin;
// before anything was recorded, nothing. With as_of too, validity is read
// among what was believed then.
func TestFactsKnownAtIsRecordTime(t *testing.T) {
	t.Parallel()
	k := newKn(t)
	before := time.Now().UTC()
	time.Sleep(5 * time.Millisecond)
	k.write("s1", knDay("2024-02-03"), []graph.EntityInput{knUserEnt(), knEnt("paris", "Paris", ontology.Place)},
		knFact("user", "LIVES_IN", "paris", knSay("The user lives in Paris")))
	time.Sleep(5 * time.Millisecond)
	between := time.Now().UTC()
	time.Sleep(5 * time.Millisecond)
	k.write("s2", knDay("2024-09-14"), []graph.EntityInput{knUserEnt(), knEnt("berlin", "Berlin", ontology.Place)},
		knFact("user", "LIVES_IN", "berlin", knFrom(knDay("2024-08-14")), knSay("The user moved to Berlin last month")))
	after := time.Now().UTC().Add(time.Millisecond)

	if got := k.facts(graph.FactQuery{KnownAt: &before}); len(got) != 0 {
		t.Fatalf("known before anything was recorded: %v", knObjects(got, true))
	}
	knEqual(t, "known between the two writes", knObjects(k.facts(graph.FactQuery{KnownAt: &between}), false), []string{"LIVES_IN Paris"})
	knEqual(t, "known after the move was recorded", knObjects(k.facts(graph.FactQuery{KnownAt: &after}), false), []string{"LIVES_IN Berlin"})
	sept := knDay("2024-09-01")
	knEqual(t, "valid in September as believed between the writes",
		knObjects(k.facts(graph.FactQuery{KnownAt: &between, AsOf: &sept}), false), []string{"LIVES_IN Paris"})
	knEqual(t, "valid in September as believed now",
		knObjects(k.facts(graph.FactQuery{AsOf: &sept}), false), []string{"LIVES_IN Berlin"})
}
