//go:build integration

package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestE2ERetention: through REST, a tenant's policy is set, a sweep runs
// as a job visible in the jobs API, facts not seen for fact_days leave
// current reads, search and contexts but stay in history (status expired),
// a pinned fact and a critical one are exempt, a second sweep changes
// nothing, and another tenant is untouched.
func TestE2ERetention(t *testing.T) {
	t.Parallel()
	e, other := newE2E(t), newE2E(t)
	forgetMemory(t, e, "alice") // said in March and April 2024
	forgetMemory(t, other, "alice")
	type factList struct {
		Facts []struct{ ID, Fact, Status string } `json:"facts"`
	}
	facts := func(e *e2e, q string) factList {
		var out factList
		if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodGet, "/v1/users/alice/facts"+q, nil), &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	before := facts(e, "")
	if len(before.Facts) < 3 {
		t.Fatalf("facts %+v", before)
	}
	pinned, critical := before.Facts[0], before.Facts[1]
	e.must(t, http.StatusOK, http.MethodPatch, "/v1/facts/"+pinned.ID, map[string]any{"pinned": true})
	e.must(t, http.StatusOK, http.MethodPatch, "/v1/facts/"+critical.ID, map[string]any{"importance": "critical"})

	var r struct {
		Policy struct {
			FactDays int `json:"fact_days"`
		} `json:"policy"`
		Source string `json:"source"`
	}
	if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodGet, "/v1/retention", nil), &r); err != nil || r.Source != "none" {
		t.Fatalf("policy before: %+v %v", r, err)
	}
	if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodPut, "/v1/retention", map[string]any{"fact_days": 30, "raw_text_days": 3650}), &r); err != nil ||
		r.Source != "api" || r.Policy.FactDays != 30 {
		t.Fatalf("policy set: %+v %v", r, err)
	}
	var job struct {
		ID   string `json:"id"`
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(e.must(t, http.StatusAccepted, http.MethodPost, "/v1/retention/sweep", nil), &job); err != nil || job.Kind != "retention" {
		t.Fatalf("sweep: %+v %v", job, err)
	}
	res := waitJob(t, e, job.ID)
	t.Logf("sweep result: %v", res)
	if got, _ := res["facts_expired"].(float64); int(got) != len(before.Facts)-2 || res["policy_source"] != "api" {
		t.Fatalf("sweep result %v, want %d facts expired", res, len(before.Facts)-2)
	}
	if !strings.Contains(string(e.must(t, http.StatusOK, http.MethodGet, "/v1/jobs?kind=retention", nil)), job.ID) {
		t.Error("the sweep is not in the jobs list")
	}

	after := facts(e, "")
	if len(after.Facts) != 2 {
		t.Fatalf("current facts after the sweep: %+v (want the pinned and the critical one)", after.Facts)
	}
	hist := facts(e, "?include_history=true")
	expired := 0
	for _, f := range hist.Facts {
		if f.Status == "expired" {
			expired++
		}
	}
	if expired != len(before.Facts)-2 {
		t.Fatalf("%d expired facts in history, want %d", expired, len(before.Facts)-2)
	}
	res2 := e.search(t, map[string]any{"user_id": "alice", "query": "Where do I live? sushi ramen Ann Acme", "limit": 20, "tiers": []string{"fact"}})
	for _, x := range res2.Results {
		if x.ID != pinned.ID && x.ID != critical.ID && x.Status == "current" {
			t.Errorf("search returns the expired fact %s %q as current", x.ID, x.Text)
		}
	}
	// A second sweep finds nothing to do; the other tenant kept everything.
	if err := json.Unmarshal(e.must(t, http.StatusAccepted, http.MethodPost, "/v1/retention/sweep", nil), &job); err != nil {
		t.Fatal(err)
	}
	if res := waitJob(t, e, job.ID); res["facts_expired"].(float64) != 0 {
		t.Fatalf("a second sweep: %v", res)
	}
	if o := facts(other, ""); len(o.Facts) != len(before.Facts) {
		t.Fatalf("the other tenant lost facts: %d of %d", len(o.Facts), len(before.Facts))
	}
}
