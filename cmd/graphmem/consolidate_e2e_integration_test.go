//go:build integration

package main

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph"
)

type mergeResp struct {
	ID       string   `json:"id"`
	Status   string   `json:"status"`
	KeepName string   `json:"keep_name"`
	DropName string   `json:"drop_name"`
	FactIDs  []string `json:"fact_ids"`
}

// TestE2EConsolidateReviewSplit: through REST on the whole service, two
// direct edits leave "Bob Smith" and "Dr. Smith" working at Acme apart; a
// dry run proposes them and changes nothing; the job merges them (the
// redundant WORKS_AT becomes one); the entity's facts then list one
// employer; a split brings both back. Searches are counted, in batches.
func TestE2EConsolidateReviewSplit(t *testing.T) {
	t.Parallel()
	e := newE2E(t, "GRAPHMEM_ACCESS_FLUSH_EVERY", "1s")
	for _, who := range []string{"Bob Smith", "Dr. Smith"} {
		e.must(t, http.StatusCreated, http.MethodPost, "/v1/users/alice/facts", map[string]any{"subject": who, "subject_type": "Person",
			"predicate": "WORKS_AT", "object": "Acme", "object_type": "Organization", "sentence": who + " works at Acme"})
	}
	currentWorks := func() int {
		var facts struct {
			Facts []struct{ Predicate, Object string } `json:"facts"`
		}
		if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodGet, "/v1/users/alice/facts", nil), &facts); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, f := range facts.Facts {
			if f.Predicate == "WORKS_AT" && f.Object == "Acme" {
				n++
			}
		}
		return n
	}
	if n := currentWorks(); n != 2 {
		t.Fatalf("%d WORKS_AT Acme facts before, want 2", n)
	}

	var dry struct {
		Candidates []struct{ KeepName, DropName, Decision string } `json:"candidates"`
	}
	if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodPost, "/v1/users/alice/consolidate", map[string]any{"dry_run": true}), &dry); err != nil {
		t.Fatal(err)
	}
	if len(dry.Candidates) != 1 || dry.Candidates[0].Decision != "apply" {
		t.Fatalf("dry run %+v", dry)
	}
	if n := currentWorks(); n != 2 {
		t.Fatal("the dry run changed the facts")
	}

	var job struct{ ID, Kind string }
	if err := json.Unmarshal(e.must(t, http.StatusAccepted, http.MethodPost, "/v1/users/alice/consolidate", nil), &job); err != nil || job.Kind != "consolidate" {
		t.Fatalf("job %+v %v", job, err)
	}
	res := waitJob(t, e, job.ID)
	applied, _ := res["applied"].([]any)
	if len(applied) != 1 {
		t.Fatalf("job result %v", res)
	}
	if n := currentWorks(); n != 1 {
		t.Fatalf("%d WORKS_AT Acme facts after the merge, want 1", n)
	}
	var merges struct{ Merges []mergeResp }
	if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodGet, "/v1/merges?status=applied&user_id=alice", nil), &merges); err != nil ||
		len(merges.Merges) != 1 || merges.Merges[0].DropName != "Dr. Smith" || len(merges.Merges[0].FactIDs) != 1 {
		t.Fatalf("applied merges %+v %v", merges, err)
	}

	// Searches count what they return, written in batches.
	sr := e.search(t, map[string]any{"user_id": "alice", "query": "Who works at Acme?"})
	e.search(t, map[string]any{"user_id": "alice", "query": "Who works at Acme?"})
	if len(sr.Results) == 0 {
		t.Fatal("no search result")
	}
	ref := graph.AccessRef{Kind: sr.Results[0].Kind, ID: sr.Results[0].ID, SessionID: sr.Results[0].SessionID}
	deadline := time.Now().Add(20 * time.Second)
	for {
		stats, err := e.app.store.AccessStats(t.Context(), e.Tenant, []graph.AccessRef{ref})
		if err != nil {
			t.Fatal(err)
		}
		if st := stats[graph.AccessKey(ref)]; st.Count >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("access of %+v not recorded: %+v", ref, stats)
		}
		time.Sleep(200 * time.Millisecond)
	}

	var split mergeResp
	if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodPost, "/v1/merges/"+merges.Merges[0].ID+"/split?actor=ops", nil), &split); err != nil ||
		split.Status != "split" {
		t.Fatalf("split %+v %v", split, err)
	}
	if n := currentWorks(); n != 2 {
		t.Fatalf("%d WORKS_AT Acme facts after the split, want 2", n)
	}
	e.must(t, http.StatusConflict, http.MethodPost, "/v1/merges/"+merges.Merges[0].ID+"/split", nil)
}
