//go:build integration

package graph_test

import (
	"testing"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/ontology"
)

// TestKindsTurnAroundByHeadNoun: the write path hands object names to the
// policy, so kinds are compared by head noun in the real graph: "podcasts
// bore me" is taken back by "history podcasts grew on me" (the preference
// on "podcasts" is no longer negative), and "no longer a teacher" ends
// "works as a secondary school science teacher". A liked sub-kind beside a
// liked kind is left alone.
func TestKindsTurnAroundByHeadNoun(t *testing.T) {
	t.Parallel()
	k := newKn(t)
	k.write("s1", knDay("2024-01-10"), []graph.EntityInput{knUserEnt(), knEnt("pod", "podcasts", ontology.Concept),
		knEnt("sci", "secondary school science teacher", ontology.Concept), knEnt("jazz", "jazz", ontology.Concept)},
		knFact("user", "DISLIKES", "pod", knSay("The user finds podcasts boring")),
		knFact("user", "WORKS_AS", "sci", knSay("The user works as a secondary school science teacher")),
		knFact("user", "LIKES", "jazz", knSay("The user loves jazz")))
	r := k.write("s2", knDay("2024-09-10"), []graph.EntityInput{knUserEnt(), knEnt("hist", "history podcasts", ontology.Concept),
		knEnt("teacher", "teacher", ontology.Concept), knEnt("cool", "cool jazz", ontology.Concept)},
		knFact("user", "LIKES", "hist", knSay("History podcasts grew on the user")),
		knFact("user", "WORKS_AS", "teacher", knNeg, knSay("The user no longer works as a teacher")),
		knFact("user", "LIKES", "cool", knSay("The user loves cool jazz")))
	if len(r.FactsSuperseded) != 2 {
		t.Fatalf("second write superseded %v, want the podcasts aversion and the science teacher", r.FactsSuperseded)
	}
	all := k.facts(graph.FactQuery{IncludeHistory: true})
	knEqual(t, "history", knObjects(all, true), []string{
		"DISLIKES podcasts (neg) [superseded]", "LIKES cool jazz [current]", "LIKES history podcasts [current]", "LIKES jazz [current]",
		"WORKS_AS secondary school science teacher [superseded]", "WORKS_AS teacher (neg) [current]"})
	if old := knFind(t, all, "DISLIKES", "podcasts"); old.SupersededBy != knFind(t, all, "LIKES", "history podcasts").ID {
		t.Fatalf("the aversion is superseded by %q, want the new liking", old.SupersededBy)
	}
}
