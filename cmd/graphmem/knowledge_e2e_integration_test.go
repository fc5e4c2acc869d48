//go:build integration

package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/graphmem/graphmem/bench/dataset"
)

// The scenarios' format and loader are bench/dataset's.
type (
	kuScenario = dataset.Scenario
	kuCheck    = dataset.Check
)

const kuDataset = "../../../shared/datasets/knowledge-update/visible.jsonl"

func loadKU(t *testing.T) []kuScenario {
	t.Helper()
	out, err := dataset.LoadScenarios(kuDataset)
	if err != nil {
		t.Fatalf("the knowledge-update scenarios are read from ../shared beside the repository: %v", err)
	}
	return out
}

func ingestScenario(t *testing.T, e *e2e, s kuScenario) {
	t.Helper()
	for i, sess := range s.Sessions {
		id := fmt.Sprintf("%s-s%d", s.ID, i+1)
		var events []map[string]any
		for j, ev := range sess.Events {
			events = append(events, map[string]any{
				"id": fmt.Sprintf("%s-%d", id, j+1), "kind": "message", "role": ev.Role, "content": ev.Content,
				"occurred_at": sess.At.Add(time.Duration(j) * time.Second).Format(time.RFC3339),
			})
		}
		e.must(t, http.StatusCreated, http.MethodPost, "/v1/sessions/"+id+"/events", map[string]any{"user_id": s.UserID, "events": events})
		e.closeAndWait(t, id)
	}
}

type prefResp struct {
	Preferences []struct {
		Object   string `json:"object"`
		Polarity string `json:"polarity"`
		Status   string `json:"status"`
	} `json:"preferences"`
}

// preferenceCheck applies the dataset's rule: a current preference on the
// object has the polarity, and none on the same object has the other.
func preferenceCheck(prefs prefResp, c kuCheck) bool {
	found, contradicted := false, false
	for _, p := range prefs.Preferences {
		if p.Status != "current" || !strings.Contains(strings.ToLower(p.Object), strings.ToLower(c.Object)) {
			continue
		}
		if p.Polarity == c.Polarity {
			found = true
		} else {
			contradicted = true
		}
	}
	return found && !contradicted
}

// TestKnowledgeUpdateScenarios is the extraction issue's acceptance test:
// every scenario of the dataset through the public API with the offline
// engine; every preference check must pass.
func TestKnowledgeUpdateScenarios(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	scenarios := loadKU(t)
	passed, total := 0, 0
	for _, s := range scenarios {
		ingestScenario(t, e, s)
		for _, c := range s.Checks {
			if c.Type != "preference" {
				continue
			}
			total++
			var prefs prefResp
			if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodGet, "/v1/users/"+s.UserID+"/preferences", nil), &prefs); err != nil {
				t.Fatal(err)
			}
			if preferenceCheck(prefs, c) {
				passed++
			} else {
				t.Errorf("%s: preference %s %s not met; current preferences: %+v", s.ID, c.Object, c.Polarity, prefs.Preferences)
			}
		}
	}
	t.Logf("knowledge-update preference checks: %d/%d passed", passed, total)
	if total == 0 {
		t.Fatal("no preference checks found in the dataset")
	}
}

type factsResp struct {
	Facts []struct {
		ID        string  `json:"id"`
		SubjectID string  `json:"subject_id"`
		Subject   string  `json:"subject"`
		Predicate string  `json:"predicate"`
		Object    string  `json:"object"`
		Fact      string  `json:"fact"`
		Polarity  string  `json:"polarity"`
		Status    string  `json:"status"`
		ValidTo   *string `json:"valid_to"`
	} `json:"facts"`
}

func (e *e2e) facts(t *testing.T, user string, query url.Values) factsResp {
	t.Helper()
	var out factsResp
	path := "/v1/users/" + user + "/facts"
	if len(query) > 0 {
		path += "?" + query.Encode()
	}
	if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodGet, path, nil), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// hasFact reports an asserted (positive) fact; a current negative fact
// ("no longer works at Acme") is the denial of one.
func hasFact(f factsResp, predicate, object, status string) bool {
	for _, x := range f.Facts {
		if x.Predicate == predicate && strings.EqualFold(x.Object, object) && x.Polarity == "positive" &&
			(status == "" || x.Status == status) {
			return true
		}
	}
	return false
}

// TestMovesJobsAsOfAndConflictsThroughAPI covers what the graph must
// answer, through the API: what is true now, what was true then, what
// changed, facts of other people, and a reviewer overturning a decision.
func TestMovesJobsAsOfAndConflictsThroughAPI(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	user := "mover"
	sessions := []struct {
		at   string
		text string
	}{
		{"2023-02-01T10:00:00Z", "I live in Paris and I work at Acme Corp as a data analyst."},
		{"2023-06-01T10:00:00Z", "My sister Emma lives in Rome."},
		{"2024-03-10T10:00:00Z", "I moved to Berlin last month. I left Acme Corp and joined Globex."},
	}
	for i, s := range sessions {
		id := fmt.Sprintf("mv-%d", i)
		e.must(t, http.StatusCreated, http.MethodPost, "/v1/sessions/"+id+"/events", map[string]any{"user_id": user,
			"events": []map[string]any{{"id": id + "-1", "kind": "message", "role": "user", "content": s.text, "occurred_at": s.at}}})
		e.closeAndWait(t, id)
	}

	now := e.facts(t, user, nil)
	if !hasFact(now, "LIVES_IN", "Berlin", "current") || hasFact(now, "LIVES_IN", "Paris", "") {
		t.Fatalf("current facts should say Berlin and not Paris: %+v", now.Facts)
	}
	if !hasFact(now, "WORKS_AT", "Globex", "current") || hasFact(now, "WORKS_AT", "Acme Corp", "current") {
		t.Fatalf("current facts should say Globex, not Acme: %+v", now.Facts)
	}
	if !hasFact(now, "LIVES_IN", "Rome", "current") {
		t.Fatalf("Emma's home must stay current (another person's fact): %+v", now.Facts)
	}
	then := e.facts(t, user, url.Values{"as_of": {"2023-09-01"}})
	if !hasFact(then, "LIVES_IN", "Paris", "") || hasFact(then, "LIVES_IN", "Berlin", "") {
		t.Fatalf("as of 2023-09-01 the user lived in Paris: %+v", then.Facts)
	}
	history := e.facts(t, user, url.Values{"include_history": {"true"}})
	if !hasFact(history, "LIVES_IN", "Paris", "superseded") {
		t.Fatalf("history must keep Paris, superseded: %+v", history.Facts)
	}

	var conflicts struct {
		Conflicts []struct {
			ID      string `json:"id"`
			Status  string `json:"status"`
			OldFact string `json:"old_fact"`
			NewFact string `json:"new_fact"`
			Winner  string `json:"winner"`
		} `json:"conflicts"`
	}
	if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodGet, "/v1/users/"+user+"/conflicts", nil), &conflicts); err != nil {
		t.Fatal(err)
	}
	moveID := ""
	for _, c := range conflicts.Conflicts {
		if strings.Contains(c.OldFact, "Paris") && strings.Contains(c.NewFact, "Berlin") {
			moveID = c.ID
			if c.Status != "resolved" {
				t.Fatalf("the move was strong evidence and must be resolved automatically: %+v", c)
			}
		}
	}
	if moveID == "" {
		t.Fatalf("no conflict recorded for the move: %+v", conflicts.Conflicts)
	}
	// A reviewer decides the old fact was right after all.
	e.must(t, http.StatusOK, http.MethodPost, "/v1/conflicts/"+moveID+"/resolve", map[string]any{"winner": "old", "note": "moved back"})
	after := e.facts(t, user, nil)
	if !hasFact(after, "LIVES_IN", "Paris", "current") || hasFact(after, "LIVES_IN", "Berlin", "current") {
		t.Fatalf("after the reviewer chose the old fact, Paris is current and Berlin is not: %+v", after.Facts)
	}
	// The entity endpoint shows the user's neighbourhood with provenance.
	var userID string
	for _, f := range after.Facts {
		if f.Predicate == "LIVES_IN" && f.Object == "Paris" {
			userID = f.SubjectID
		}
	}
	var ent struct {
		IsUser bool     `json:"is_user"`
		Out    []any    `json:"facts_out"`
		Raw    []string `json:"mentioned_in_event_ids"`
	}
	if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodGet, "/v1/entities/"+userID, nil), &ent); err != nil {
		t.Fatal(err)
	}
	if !ent.IsUser || len(ent.Out) == 0 || len(ent.Raw) == 0 {
		t.Fatalf("user entity view lacks facts or provenance: %+v", ent)
	}
}

// TestTenantsAreIsolatedThroughAPI: a second tenant with the same user and
// session ids sees nothing of the first.
func TestTenantsAreIsolatedThroughAPI(t *testing.T) {
	t.Parallel()
	a, b := newE2E(t), newE2E(t)
	a.must(t, http.StatusCreated, http.MethodPost, "/v1/sessions/shared/events", map[string]any{"user_id": "same",
		"events": []map[string]any{{"id": "x1", "kind": "message", "role": "user", "content": "I live in Oslo."}}})
	a.closeAndWait(t, "shared")
	if f := a.facts(t, "same", nil); !hasFact(f, "LIVES_IN", "Oslo", "current") {
		t.Fatalf("tenant a lacks its own fact: %+v", f.Facts)
	}
	if rec := b.Do(http.MethodGet, "/v1/sessions/shared/events", nil); rec.Code != http.StatusNotFound {
		t.Fatalf("tenant b reading tenant a's session: %d", rec.Code)
	}
	if f := b.facts(t, "same", nil); len(f.Facts) != 0 {
		t.Fatalf("tenant b sees tenant a's facts: %+v", f.Facts)
	}
	var jobs struct {
		Jobs []any `json:"jobs"`
	}
	if err := json.Unmarshal(b.must(t, http.StatusOK, http.MethodGet, "/v1/jobs", nil), &jobs); err != nil {
		t.Fatal(err)
	}
	if len(jobs.Jobs) != 0 {
		t.Fatalf("tenant b sees tenant a's jobs: %v", jobs.Jobs)
	}
}

// TestUnknownPredicateNamesTheParameter: a fact type outside the vocabulary
// is the predicate parameter's fault, and the answer says what is valid.
func TestUnknownPredicateNamesTheParameter(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	var p struct {
		Errors []struct {
			Field, Rule, Message string
		} `json:"errors"`
	}
	if err := json.Unmarshal(e.must(t, http.StatusUnprocessableEntity, http.MethodGet, "/v1/users/u1/facts?predicate=lives_in", nil), &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Errors) != 1 || p.Errors[0].Field != "predicate" || !strings.Contains(p.Errors[0].Message, "LIVES_IN") {
		t.Fatalf("want an issue naming predicate with an example, got %+v", p.Errors)
	}
}

// TestMoveSaidLaterWinsOverPresentTense: "I live in Berlin" said first,
// then (minutes later, no dates given by the client) "I moved to Paris last
// week. I now live in Paris.": the later statement is the news, so Paris is
// current although "last week" starts before the Berlin statement was made.
func TestMoveSaidLaterWinsOverPresentTense(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	for i, text := range []string{"I live in Berlin, I work at Acme, my sister Anna lives in Rome.", "I moved to Paris last week. I now live in Paris."} {
		session := fmt.Sprintf("mv-%d", i)
		e.must(t, http.StatusCreated, http.MethodPost, "/v1/sessions/"+session+"/events", map[string]any{"user_id": "u1",
			"events": []map[string]any{{"kind": "message", "role": "user", "content": text}}})
		e.closeAndWait(t, session)
	}
	f := e.facts(t, "u1", url.Values{"include_history": {"true"}})
	if !hasFact(f, "LIVES_IN", "Paris", "current") || !hasFact(f, "LIVES_IN", "Berlin", "superseded") {
		t.Fatalf("want Paris current and Berlin superseded, got %+v", f.Facts)
	}
}
