//go:build integration

package memory_test

import (
	"log/slog"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/graph/graphtest"
	"github.com/graphmem/graphmem/jobs"
	"github.com/graphmem/graphmem/memory"
	"github.com/graphmem/graphmem/ontology"
)

// consWrite stores one user's duplicates: "Bob Smith" and "Dr. Smith" both
// work at Acme (a confident merge), "Ann Lee" and "Lee" share nothing (a
// merge for review), Acme is not a Person (never merged with them).
func consWrite(t *testing.T, s *graph.Store, tenant, user string) {
	t.Helper()
	ent := func(key, name string, typ ontology.EntityType) graph.EntityInput {
		return graph.EntityInput{Key: key, Name: name, Type: typ}
	}
	fact := func(subj, pred, obj string) graph.FactInput {
		return graph.FactInput{Subject: subj, Predicate: pred, Object: obj, Confidence: 0.9}
	}
	at := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	for i, w := range []struct {
		ents  []graph.EntityInput
		facts []graph.FactInput
	}{
		{[]graph.EntityInput{ent("bs", "Bob Smith", ontology.Person), ent("acme", "Acme", ontology.Organization),
			ent("ann", "Ann Lee", ontology.Person), ent("paris", "Paris", ontology.Place)},
			[]graph.FactInput{fact("bs", "WORKS_AT", "acme"), fact("ann", "LIVES_IN", "paris")}},
		{[]graph.EntityInput{ent("dr", "Dr. Smith", ontology.Person), ent("acme", "Acme", ontology.Organization),
			ent("lee", "Lee", ontology.Person), ent("rome", "Rome", ontology.Place)},
			[]graph.FactInput{fact("dr", "WORKS_AT", "acme"), fact("lee", "VISITED", "rome")}},
	} {
		if _, err := s.WriteKnowledge(t.Context(), graph.KnowledgeWrite{Tenant: tenant, UserID: user, ObservedAt: at.Add(time.Duration(i) * time.Hour),
			Extractor: "test", Entities: w.ents, Facts: w.facts}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestConsolidationDryRunJobAndReview: a dry run lists the two candidates
// and changes nothing; the job applies the confident one (the redundant
// WORKS_AT becomes one), queues the weak one, and touches no other user;
// a second run proposes neither again.
func TestConsolidationDryRunJobAndReview(t *testing.T) {
	t.Parallel()
	s, tenant, ctx := graphtest.Store(t), graphtest.Tenant(t), t.Context()
	consWrite(t, s, tenant, "alice")
	consWrite(t, s, tenant, "carol")
	life := memory.NewLifecycle(s, nil)
	who := memory.Who{Tenant: tenant, Actor: "ops"}

	before := graphtest.Census(t, tenant)
	dry, _, err := life.Consolidate(ctx, tenant, "alice", true, who)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(before, graphtest.Census(t, tenant)) {
		t.Fatal("a dry run changed the graph")
	}
	var got []string
	for _, c := range dry.Candidates {
		got = append(got, c.KeepName+"<"+c.DropName+":"+c.Decision)
	}
	if want := []string{"Bob Smith<Dr. Smith:apply", "Ann Lee<Lee:review"}; !slices.Equal(got, want) {
		t.Fatalf("candidates %v, want %v (%+v)", got, want, dry.Candidates)
	}

	w := jobs.NewWorker(memory.JobQueue(s), jobs.Config{Owner: "cons-" + tenant, Concurrency: 1, PollInterval: 100 * time.Millisecond,
		Lease: 30 * time.Second}, slog.New(slog.DiscardHandler))
	life.RegisterJobs(w)
	startWorker(t, w)
	_, job, err := life.Consolidate(ctx, tenant, "alice", false, who)
	if err != nil {
		t.Fatal(err)
	}
	var done memory.Job
	waitUntil(t, "the consolidation job", 60*time.Second, func() bool {
		done, err = life.GetJob(ctx, tenant, job.ID)
		return err == nil && (done.Status == "done" || done.Status == "failed")
	})
	if done.Status != "done" {
		t.Fatalf("job %+v", done)
	}
	applied, _ := life.Merges(ctx, tenant, graph.MergeApplied, "alice", 10)
	pending, _ := life.Merges(ctx, tenant, graph.MergePending, "", 10)
	if len(applied) != 1 || applied[0].DropName != "Dr. Smith" || len(applied[0].FactIDs) != 1 || applied[0].CreatedBy != "ops" {
		t.Fatalf("applied %+v", applied)
	}
	if len(pending) != 1 || pending[0].DropName != "Lee" || pending[0].UserID != "alice" {
		t.Fatalf("pending %+v", pending)
	}
	after := graphtest.Census(t, tenant)
	if !maps.Equal(graphtest.CensusOf(before, tenant, "carol"), graphtest.CensusOf(after, tenant, "carol")) {
		t.Fatal("consolidating alice changed carol")
	}
	a0, a1 := graphtest.CensusOf(before, tenant, "alice"), graphtest.CensusOf(after, tenant, "alice")
	if a1["node:Entity"] != a0["node:Entity"]-1 || a1["node:MergedEntity"] != 1 || a1["node:Merge"] != 2 {
		t.Fatalf("alice before %v\nafter %v", a0, a1)
	}
	again, _, err := life.Consolidate(ctx, tenant, "alice", true, who)
	if err != nil || len(again.Candidates) != 0 {
		t.Fatalf("a second run proposes %+v (%v)", again.Candidates, err)
	}
}
