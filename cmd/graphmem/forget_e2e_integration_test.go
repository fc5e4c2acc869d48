//go:build integration

package main

import (
	"encoding/json"
	"maps"
	"net/http"
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph/graphtest"
)

// forgetMemory gives a user two sessions of conversation, closed and
// extracted (raw events, summaries, entities, facts, a conflict,
// preferences, jobs).
func forgetMemory(t *testing.T, e *e2e, user string) {
	t.Helper()
	for i, turns := range [][]string{
		{"Hi, I'm " + user + ". I live in Paris and I love sushi.", "My sister Ann works at Acme."},
		{"I moved to Berlin last month.", "Actually I don't eat sushi anymore, I prefer ramen."},
	} {
		session := user + "-s" + string(rune('1'+i))
		var evs []map[string]any
		for j, text := range turns {
			evs = append(evs, ev(session+"-m"+string(rune('1'+j)), "message", "user", text,
				"occurred_at", time.Date(2024, 3, 1+i*30, 10, j, 0, 0, time.UTC).Format(time.RFC3339)))
		}
		e.must(t, http.StatusCreated, http.MethodPost, "/v1/sessions/"+session+"/events", batch(user, evs...))
		e.closeAndWait(t, session)
	}
}

// waitJob polls a job until it is done and returns its result.
func waitJob(t *testing.T, e *e2e, id string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var j struct {
			Status    string         `json:"status"`
			LastError string         `json:"last_error"`
			Result    map[string]any `json:"result"`
		}
		if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodGet, "/v1/jobs/"+id, nil), &j); err != nil {
			t.Fatal(err)
		}
		switch {
		case j.Status == "done":
			return j.Result
		case j.Status == "failed" || time.Now().After(deadline):
			t.Fatalf("job %s: %s (%s)", id, j.Status, j.LastError)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func forgetJob(t *testing.T, e *e2e, path string) string {
	t.Helper()
	var j struct {
		ID   string `json:"id"`
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(e.must(t, http.StatusAccepted, http.MethodDelete, path, nil), &j); err != nil {
		t.Fatal(err)
	}
	if j.Kind != "forget" || j.ID == "" {
		t.Fatalf("DELETE %s answered job %+v", path, j)
	}
	return j.ID
}

// TestE2EForgetUser: through the REST API, erasing a user leaves nothing
// of it in Neo4j (a census of every node and relationship by tenant and
// user before and after), changes nothing of another user of the tenant
// nor of the same user id in another tenant, reports the counts the census
// saw, leaves an audit record, and can be asked again harmlessly.
func TestE2EForgetUser(t *testing.T) {
	t.Parallel()
	a, b := newE2E(t), newE2E(t)
	forgetMemory(t, a, "alice")
	forgetMemory(t, a, "bob")
	forgetMemory(t, b, "alice")
	before := graphtest.Census(t, a.Tenant, b.Tenant)
	alice := graphtest.CensusOf(before, a.Tenant, "alice")
	for _, k := range []string{"node:Raw", "node:Event", "node:Session", "node:Entity", "rel:LIVES_IN", "rel:MENTIONS"} {
		if alice[k] == 0 {
			t.Fatalf("alice has no %s before the erasure: %v", k, alice)
		}
	}
	t.Logf("alice before: %v", alice)

	id := forgetJob(t, a, "/v1/users/alice?actor=dpo")
	res := waitJob(t, a, id)
	deleted, _ := res["deleted"].(map[string]any)
	t.Logf("erasure result: %v", res)
	for _, l := range []string{"Raw", "Event", "Session", "Entity", "Job"} {
		if got, _ := deleted[l].(float64); int64(got) != alice["node:"+l] {
			t.Errorf("%s: the job reports %v, the census saw %d", l, deleted[l], alice["node:"+l])
		}
	}
	after := graphtest.Census(t, a.Tenant, b.Tenant)
	if left := graphtest.CensusOf(after, a.Tenant, "alice"); len(left) > 0 {
		t.Fatalf("left of alice: %v", left)
	}
	if !maps.Equal(graphtest.CensusOf(before, a.Tenant, "bob"), graphtest.CensusOf(after, a.Tenant, "bob")) {
		t.Fatal("bob changed")
	}
	if !maps.Equal(graphtest.CensusOf(before, b.Tenant, "alice"), graphtest.CensusOf(after, b.Tenant, "alice")) {
		t.Fatal("alice of the other tenant changed")
	}
	tenantLevel := graphtest.CensusOf(after, a.Tenant, "")
	if tenantLevel["node:Erasure"] != 1 || tenantLevel["node:Job"] != 1 || len(tenantLevel) != 2 {
		t.Fatalf("tenant-level nodes after: %v (want the erasure record and its job)", tenantLevel)
	}
	// The API agrees: nothing to read, search or assemble.
	var facts struct {
		Facts []any `json:"facts"`
	}
	if err := json.Unmarshal(a.must(t, http.StatusOK, http.MethodGet, "/v1/users/alice/facts?include_history=true", nil), &facts); err != nil || len(facts.Facts) != 0 {
		t.Fatalf("facts after erasure: %+v %v", facts, err)
	}
	var hits struct {
		Results []any `json:"results"`
	}
	if err := json.Unmarshal(a.must(t, http.StatusOK, http.MethodPost, "/v1/search", map[string]any{"user_id": "alice", "query": "Where does alice live?"}), &hits); err != nil || len(hits.Results) != 0 {
		t.Fatalf("search after erasure: %+v %v", hits, err)
	}
	a.must(t, http.StatusNotFound, http.MethodGet, "/v1/sessions/alice-s1", nil)
	var audit struct {
		Erasures []struct {
			Scope, Who, Actor, JobID string
			Counts                   map[string]int64
		} `json:"erasures"`
	}
	if err := json.Unmarshal(a.must(t, http.StatusOK, http.MethodGet, "/v1/erasures", nil), &audit); err != nil || len(audit.Erasures) != 1 ||
		audit.Erasures[0].Who != a.Tenant || audit.Erasures[0].Counts["Raw"] != alice["node:Raw"] {
		t.Fatalf("audit: %+v %v", audit, err)
	}
	// Again: a new job, nothing more to delete.
	res = waitJob(t, a, forgetJob(t, a, "/v1/users/alice"))
	for k, v := range res["deleted"].(map[string]any) {
		if v.(float64) != 0 {
			t.Fatalf("the second erasure deleted %v %s", v, k)
		}
	}
	if !maps.Equal(graphtest.CensusOf(graphtest.Census(t, a.Tenant), a.Tenant, "bob"), graphtest.CensusOf(before, a.Tenant, "bob")) {
		t.Fatal("the second erasure changed bob")
	}
}

// TestE2EForgetSession: erasing one session removes it and its events;
// the user's other session and its facts stay.
func TestE2EForgetSession(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	forgetMemory(t, e, "carol")
	res := waitJob(t, e, forgetJob(t, e, "/v1/sessions/carol-s1"))
	deleted, _ := res["deleted"].(map[string]any)
	if deleted["Raw"] != float64(2) || deleted["Session"] != float64(1) {
		t.Fatalf("deleted %v", deleted)
	}
	e.must(t, http.StatusNotFound, http.MethodGet, "/v1/sessions/carol-s1", nil)
	e.must(t, http.StatusOK, http.MethodGet, "/v1/sessions/carol-s2", nil)
	var facts struct {
		Facts []struct {
			SessionIDs []string `json:"session_ids"`
		} `json:"facts"`
	}
	if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodGet, "/v1/users/carol/facts?include_history=true", nil), &facts); err != nil {
		t.Fatal(err)
	}
	if len(facts.Facts) == 0 {
		t.Fatal("the other session's facts are gone")
	}
	for _, f := range facts.Facts {
		for _, s := range f.SessionIDs {
			if s == "carol-s1" {
				t.Fatalf("a fact still cites the erased session: %+v", f)
			}
		}
	}
	c := graphtest.CensusOf(graphtest.Census(t, e.Tenant), e.Tenant, "carol")
	if c["node:Session"] != 1 || c["node:Raw"] != 2 {
		t.Fatalf("carol after: %v", c)
	}
}
