//go:build integration

package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

type searchResp struct {
	Results []struct {
		ID             string   `json:"id"`
		Kind           string   `json:"kind"`
		Text           string   `json:"text"`
		Score          float64  `json:"score"`
		Status         string   `json:"status"`
		SourceEventIDs []string `json:"source_event_ids"`
		Path           []string `json:"path"`
		Explanation    string   `json:"explanation"`
		ScoreParts     struct {
			FullText float64 `json:"fulltext"`
			Graph    float64 `json:"graph"`
		} `json:"score_parts"`
	} `json:"results"`
	Query struct {
		Entities   []string `json:"entities"`
		Predicates []string `json:"predicates"`
	} `json:"query"`
}

func (e *e2e) search(t *testing.T, body map[string]any) searchResp {
	t.Helper()
	var out searchResp
	if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodPost, "/v1/search", body), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func containsAny(text string, needles []string) bool {
	lower := strings.ToLower(text)
	for _, n := range needles {
		if strings.Contains(lower, strings.ToLower(n)) {
			return true
		}
	}
	return false
}

// searchCheck applies the dataset's search_top/history rules.
func searchCheck(res searchResp, c kuCheck) bool {
	for i, r := range res.Results {
		if i >= c.K && c.Type == "history" {
			return false
		}
		if containsAny(r.Text, c.Expect) {
			return i < c.K
		}
		if c.Type == "search_top" && r.Status != "superseded" && len(c.Reject) > 0 && containsAny(r.Text, c.Reject) {
			return false
		}
	}
	return false
}

// TestKnowledgeUpdateSearch runs the dataset's search_top and history
// checks through /v1/search with the offline engine.
func TestKnowledgeUpdateSearch(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	passed, total := map[string]int{}, map[string]int{}
	for _, s := range loadKU(t) {
		ingestScenario(t, e, s)
		for _, c := range s.Checks {
			if c.Type != "search_top" && c.Type != "history" {
				continue
			}
			total[c.Type]++
			res := e.search(t, map[string]any{"user_id": s.UserID, "query": c.Query, "limit": 10, "include_history": c.Type == "history", "explain": true})
			if searchCheck(res, c) {
				passed[c.Type]++
				continue
			}
			var top []string
			for i, r := range res.Results {
				if i == 4 {
					break
				}
				top = append(top, r.Kind+"/"+r.Status+": "+r.Text)
			}
			t.Logf("FAILED %s %s %q: expect %v reject %v; top: %q", s.ID, c.Type, c.Query, c.Expect, c.Reject, top)
		}
	}
	t.Logf("knowledge-update search checks: search_top %d/%d, history %d/%d", passed["search_top"], total["search_top"], passed["history"], total["history"])
	// The retrieval issue's target: at least 95% of these checks pass.
	if n, p := total["search_top"]+total["history"], passed["search_top"]+passed["history"]; n == 0 || float64(p) < 0.95*float64(n) {
		t.Fatalf("%d/%d search checks passed, want at least 95%%", p, n)
	}
}
