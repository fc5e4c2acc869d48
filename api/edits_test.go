package api

import (
	"context"
	"net/http"
	"testing"

	"github.com/graphmem/graphmem/api/apitest"
	"github.com/graphmem/graphmem/errs"
	"github.com/graphmem/graphmem/memory"
)

func (f *fakeMemory) editResult(id string) memory.EditResult {
	fact := memory.Fact{ID: id, SubjectID: "ent_u", Subject: "alice", Predicate: "LIVES_IN", ObjectID: "ent_b", Object: "Berlin",
		Fact: "alice lives in Berlin", Polarity: "positive", Confidence: 1, Status: "current", ValidFrom: fakeTime,
		RecordedAt: fakeTime, EditIDs: []string{"edit_1"}}
	e := memory.Edit{ID: "edit_1", Kind: "add", Actor: "agent-7", Reason: "said so", At: fakeTime, FactID: id, Outcome: "created"}
	return memory.EditResult{Edit: e, Fact: memory.FactDetail{Fact: fact, UserID: "alice", Edits: []memory.Edit{e}}}
}

func (f *fakeMemory) AddFact(_ context.Context, tenant string, in memory.NewFact) (memory.EditResult, error) {
	if f.failWith != nil {
		return memory.EditResult{}, f.failWith
	}
	f.edits = append(f.edits, in)
	f.tenants = append(f.tenants, tenant)
	return f.editResult("fact_1"), nil
}

func (f *fakeMemory) CorrectFact(_ context.Context, tenant, factID string, ch memory.FactChange) (memory.EditResult, error) {
	if f.failWith != nil {
		return memory.EditResult{}, f.failWith
	}
	f.edits = append(f.edits, ch)
	r := f.editResult("fact_2")
	r.Edit.Kind, r.Edit.FactID, r.Edit.NewFactID, r.Superseded = "correct", factID, "fact_2", []string{factID}
	return r, nil
}

func (f *fakeMemory) RetractFact(_ context.Context, tenant, factID string, r memory.Retraction) (memory.EditResult, error) {
	if f.failWith != nil {
		return memory.EditResult{}, f.failWith
	}
	f.edits = append(f.edits, r)
	res := f.editResult(factID)
	res.Edit.Kind, res.Fact.Status = "retract", "retracted"
	return res, nil
}

func (f *fakeMemory) FactByID(_ context.Context, tenant, factID string) (memory.FactDetail, error) {
	if factID == "missing" {
		return memory.FactDetail{}, errs.NotFound("fact %q", factID)
	}
	return f.editResult(factID).Fact, nil
}

// TestFactEditRoutes: the edit routes bind and validate their input as
// the spec says, pass who and why to the service, and answer in the
// spec's shapes (the client checks each exchange against openapi.yaml).
func TestFactEditRoutes(t *testing.T) {
	deps := fullDeps(t)
	fake := deps.Edits.(*fakeMemory)
	c := newClient(t, deps, Options{})

	rec := c.do(http.MethodPost, "/v1/users/alice/facts", map[string]any{"predicate": "lives in", "object": "Berlin",
		"object_type": "Place", "valid_from": "2025-03-01", "confidence": 0.9, "actor": "agent-7", "reason": "said so"})
	if rec.Code != http.StatusCreated {
		t.Fatalf("add: %d %s", rec.Code, rec.Body)
	}
	in := fake.edits[0].(memory.NewFact)
	if in.UserID != "alice" || in.Predicate != "lives in" || in.ValidFrom == nil || in.ValidFrom.Format("2006-01-02") != "2025-03-01" ||
		in.Confidence != 0.9 || in.Actor != "agent-7" || in.Reason != "said so" || fake.tenants[0] != DefaultTenant {
		t.Fatalf("add input: %+v (tenant %v)", in, fake.tenants)
	}
	out := apitest.Decode[editResponse](t, rec)
	if out.Edit.Tenant != DefaultTenant || out.Fact.ID != "fact_1" || len(out.Fact.Edits) != 1 || out.Fact.EditIDs[0] != "edit_1" {
		t.Fatalf("add response: %+v", out)
	}

	rec = c.do(http.MethodPatch, "/v1/facts/fact_1", map[string]any{"object": "Hamburg", "reason": "misheard"})
	if rec.Code != http.StatusOK {
		t.Fatalf("correct: %d %s", rec.Code, rec.Body)
	}
	ch := fake.edits[1].(memory.FactChange)
	if ch.Object == nil || *ch.Object != "Hamburg" || ch.Predicate != nil || ch.Reason != "misheard" {
		t.Fatalf("correct input: %+v", ch)
	}

	rec = c.do(http.MethodDelete, "/v1/facts/fact_2?purge=true&actor=alice&reason=privacy", nil)
	if rec.Code != http.StatusOK {
		t.Fatalf("retract: %d %s", rec.Code, rec.Body)
	}
	if r := fake.edits[2].(memory.Retraction); !r.Purge || r.Actor != "alice" || r.Reason != "privacy" {
		t.Fatalf("retract input: %+v", r)
	}

	if rec := c.do(http.MethodGet, "/v1/facts/fact_9", nil); rec.Code != http.StatusOK {
		t.Fatalf("get: %d %s", rec.Code, rec.Body)
	}
	if rec := c.do(http.MethodGet, "/v1/facts/missing", nil); rec.Code != http.StatusNotFound {
		t.Fatalf("get missing: %d %s", rec.Code, rec.Body)
	}

	for _, bad := range []struct {
		method, path string
		body         any
		field        string
	}{
		{http.MethodPost, "/v1/users/alice/facts", map[string]any{"object": "Berlin"}, "predicate"},
		{http.MethodPost, "/v1/users/alice/facts", map[string]any{"predicate": "LIKES", "object": "tea", "polarity": "maybe"}, "polarity"},
		{http.MethodPost, "/v1/users/alice/facts", map[string]any{"predicate": "LIKES", "object": "tea", "confidence": 2}, "confidence"},
		{http.MethodPost, "/v1/users/alice/facts", map[string]any{"predicate": "LIKES", "object": "tea", "valid_from": "soon"}, "valid_from"},
		{http.MethodPatch, "/v1/facts/fact_1", map[string]any{"reason": "nothing else"}, "body"},
		{http.MethodPatch, "/v1/facts/fact_1", map[string]any{"object": ""}, "object"},
		{http.MethodDelete, "/v1/facts/fact_1?purge=maybe", nil, "purge"},
	} {
		rec := c.do(bad.method, bad.path, bad.body)
		p := apitest.Decode[Problem](t, rec)
		if rec.Code != http.StatusUnprocessableEntity || len(p.Errors) == 0 || p.Errors[0].Field != bad.field {
			t.Errorf("%s %s %v: %d %+v, want 422 on %s", bad.method, bad.path, bad.body, rec.Code, p, bad.field)
		}
	}
	if len(fake.edits) != 3 {
		t.Errorf("invalid requests reached the service: %d calls", len(fake.edits))
	}
}
