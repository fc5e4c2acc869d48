//go:build integration

package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

type ctxParts struct {
	Text    string `json:"text"`
	Omitted int    `json:"omitted"`
	Parts   struct {
		Pinned   []struct{ ID, Kind, Text, Explanation string } `json:"pinned"`
		Insights []struct{ ID string }                          `json:"insights"`
		Facts    []struct{ ID string }                          `json:"facts"`
		Memories []struct{ ID string }                          `json:"memories"`
	} `json:"parts"`
}

func (e *e2e) context(t *testing.T, user, query string, maxTokens int) ctxParts {
	t.Helper()
	var out ctxParts
	if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodPost, "/v1/context",
		map[string]any{"user_id": user, "query": query, "max_tokens": maxTokens}), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestE2EPinnedComeFirst: through REST, a pinned fact, a critical fact
// and a pinned summary open /v1/context's long-term section whatever the
// query, before everything else, and stay when the budget is so tight
// that the rest is omitted; they are not repeated in the other parts; a
// high importance alone is not enough; unpinning takes a memory out.
func TestE2EPinnedComeFirst(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	forgetMemory(t, e, "alice")
	var facts struct {
		Facts []struct{ ID, Fact, Predicate string } `json:"facts"`
	}
	if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodGet, "/v1/users/alice/facts", nil), &facts); err != nil || len(facts.Facts) < 3 {
		t.Fatalf("facts %+v %v", facts, err)
	}
	// A summary id: an event-tier search result.
	var sum searchResp
	sum = e.search(t, map[string]any{"user_id": "alice", "query": "Berlin ramen", "tiers": []string{"event"}, "limit": 1})
	if len(sum.Results) == 0 {
		t.Fatal("no summary to pin")
	}
	// The small conversation gives no insight (graph/marks_integration_test
	// marks one); a critical fact stands for "critical, not pinned" here.
	pinFact, highFact, critical, summary := facts.Facts[0], facts.Facts[1], facts.Facts[2], sum.Results[0]

	query := "What is the weather like on Mars?" // about none of them
	before := e.context(t, "alice", query, 2000)
	if len(before.Parts.Pinned) != 0 || strings.Contains(before.Text, "### Pinned") {
		t.Fatalf("pinned section before any pin: %+v", before.Parts.Pinned)
	}

	var m struct {
		Kind       string `json:"kind"`
		Pinned     bool   `json:"pinned"`
		Importance string `json:"importance"`
	}
	if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodPatch, "/v1/facts/"+pinFact.ID,
		map[string]any{"pinned": true, "actor": "alice"}), &m); err != nil || m.Kind != "fact" || !m.Pinned {
		t.Fatalf("pin fact: %+v %v", m, err)
	}
	e.must(t, http.StatusOK, http.MethodPatch, "/v1/facts/"+highFact.ID, map[string]any{"importance": "high"})
	e.must(t, http.StatusOK, http.MethodPatch, "/v1/facts/"+critical.ID, map[string]any{"importance": "critical"})
	e.must(t, http.StatusOK, http.MethodPatch, "/v1/summaries/"+summary.ID, map[string]any{"pinned": true})
	// The fact reads back pinned, and was not restated.
	var got struct {
		ID     string `json:"id"`
		Pinned bool   `json:"pinned"`
		Status string `json:"status"`
	}
	if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodGet, "/v1/facts/"+pinFact.ID, nil), &got); err != nil || !got.Pinned || got.Status != "current" {
		t.Fatalf("pinned fact reads %+v %v", got, err)
	}

	after := e.context(t, "alice", query, 2000)
	ids := map[string]string{}
	for _, p := range after.Parts.Pinned {
		ids[p.ID] = p.Kind
	}
	if len(after.Parts.Pinned) != 3 || after.Parts.Pinned[0].ID != critical.ID || after.Parts.Pinned[0].Explanation != "critical" ||
		ids[pinFact.ID] != "fact" || ids[summary.ID] != "event" || ids[highFact.ID] != "" {
		t.Fatalf("pinned part %+v, want the critical fact first, then the pinned fact and summary", after.Parts.Pinned)
	}
	if !strings.HasPrefix(after.Text, "## Long-term memory\n### Pinned\n- ") || !strings.Contains(after.Text, critical.Fact) {
		t.Fatalf("the context does not open with the pinned memories:\n%s", after.Text)
	}
	for _, part := range [][]struct{ ID string }{after.Parts.Insights, after.Parts.Facts, after.Parts.Memories} {
		for _, r := range part {
			if _, dup := ids[r.ID]; dup {
				t.Errorf("%s is both pinned and repeated", r.ID)
			}
		}
	}
	// A tight budget: the pinned ones still come, the rest is omitted.
	tight := e.context(t, "alice", "Where do I live and what do I eat?", 90)
	if len(tight.Parts.Pinned) == 0 || tight.Parts.Pinned[0].ID != critical.ID || tight.Omitted == 0 {
		t.Fatalf("tight budget: pinned %+v, omitted %d\n%s", tight.Parts.Pinned, tight.Omitted, tight.Text)
	}

	e.must(t, http.StatusOK, http.MethodPatch, "/v1/facts/"+pinFact.ID, map[string]any{"pinned": false})
	if again := e.context(t, "alice", query, 2000); len(again.Parts.Pinned) != 2 {
		t.Fatalf("after unpinning: %+v", again.Parts.Pinned)
	}
	// Marks of another tenant's memory: 404.
	other := newE2E(t)
	if rec := other.Do(http.MethodPatch, "/v1/summaries/"+summary.ID, map[string]any{"pinned": true}); rec.Code != http.StatusNotFound {
		t.Fatalf("another tenant marked the summary: %d", rec.Code)
	}
}
