package api

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/graphmem/graphmem/api/apitest"
	"github.com/graphmem/graphmem/errs"
	"github.com/graphmem/graphmem/memory"
)

// fakeConsolidation records what the routes ask and keeps one merge whose
// status follows the calls, refusing transitions the graph refuses.
type fakeConsolidation struct {
	calls []string
	merge memory.Merge
}

func (f *fakeConsolidation) Consolidate(_ context.Context, tenant, userID string, dry bool, who memory.Who) (memory.ConsolidationReport, memory.Job, error) {
	f.calls = append(f.calls, "consolidate "+tenant+" "+userID+" "+map[bool]string{true: "dry", false: "run"}[dry]+" "+who.Actor)
	if dry {
		return memory.ConsolidationReport{DryRun: true, Entities: 3, RedundantFacts: 1, Candidates: []memory.MergeCandidate{{
			KeepID: "ent_1", KeepName: "Bob Smith", DropID: "ent_2", DropName: "Dr. Smith", Type: "Person", Score: 0.8,
			Reasons: []string{"name contained in the other", "1 shared fact(s)"}, Decision: "apply"}}}, memory.Job{}, nil
	}
	return memory.ConsolidationReport{}, memory.Job{ID: "consolidate:alice:00000001", Kind: memory.JobConsolidate, Status: "pending",
		UserID: userID, MaxAttempts: 5, CreatedAt: fakeTime, UpdatedAt: fakeTime}, nil
}

func (f *fakeConsolidation) Merges(_ context.Context, tenant, status, userID string, limit int) ([]memory.Merge, error) {
	f.calls = append(f.calls, "list "+tenant+" "+status+" "+userID)
	if status != "" && status != f.merge.Status {
		return nil, nil
	}
	return []memory.Merge{f.merge}, nil
}

func (f *fakeConsolidation) GetMerge(_ context.Context, _, id string) (memory.Merge, error) {
	if id != f.merge.ID {
		return memory.Merge{}, errs.NotFound("merge %q", id)
	}
	return f.merge, nil
}

func (f *fakeConsolidation) DecideMerge(ctx context.Context, tenant, id string, approve bool, who memory.Who) (memory.Merge, error) {
	m, err := f.GetMerge(ctx, tenant, id)
	if err != nil {
		return m, err
	}
	if m.Status != "pending" {
		return m, errs.Conflict("merge %q is %s, not pending", id, m.Status)
	}
	f.merge.Status, f.merge.DecidedAt, f.merge.DecidedBy = "rejected", fakeTime, who.Actor
	if approve {
		f.merge.Status = "applied"
	}
	return f.merge, nil
}

func (f *fakeConsolidation) SplitMerge(ctx context.Context, tenant, id string, who memory.Who) (memory.Merge, error) {
	m, err := f.GetMerge(ctx, tenant, id)
	if err != nil {
		return m, err
	}
	if m.Status != "applied" {
		return m, errs.Conflict("merge %q is %s", id, m.Status)
	}
	f.merge.Status, f.merge.SplitAt, f.merge.SplitBy = "split", fakeTime, who.Actor
	return f.merge, nil
}

// TestConsolidationRoutes: a dry run answers 200 with the candidates, a
// run 202 with the job; the review queue lists pending merges; approve,
// split and a second split walk the statuses (the last a 409 problem);
// bad input is a 4xx naming the field; every answer is checked against
// openapi.yaml by the client; without the service the routes are 404.
func TestConsolidationRoutes(t *testing.T) {
	deps := fullDeps(t)
	f := &fakeConsolidation{merge: memory.Merge{ID: "mrg_1", UserID: "alice", Kind: "entities", Status: "pending", Type: "Person",
		KeepID: "ent_1", KeepName: "Bob Smith", DropID: "ent_2", DropName: "Smith", Score: 0.5, Reasons: []string{"name contained in the other"},
		CreatedAt: fakeTime, CreatedBy: DefaultTenant}}
	deps.Consolidation = f
	c := newClient(t, deps, Options{})

	rec := c.do(http.MethodPost, "/v1/users/alice/consolidate", map[string]any{"dry_run": true, "actor": "ops"})
	preview := apitest.Decode[consolidationOut](t, rec)
	if rec.Code != http.StatusOK || len(preview.Candidates) != 1 || preview.Candidates[0].Decision != "apply" {
		t.Fatalf("dry run: %d %s", rec.Code, rec.Body)
	}
	rec = c.do(http.MethodPost, "/v1/users/alice/consolidate", nil)
	if rec.Code != http.StatusAccepted || apitest.Decode[jobOut](t, rec).Kind != memory.JobConsolidate {
		t.Fatalf("run: %d %s", rec.Code, rec.Body)
	}
	rec = c.do(http.MethodGet, "/v1/merges?status=pending", nil)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"id":"mrg_1"`) {
		t.Fatalf("pending: %d %s", rec.Code, rec.Body)
	}
	steps := []struct {
		path   string
		status int
		want   string
	}{
		{"/v1/merges/mrg_1/approve?actor=rev", http.StatusOK, "applied"},
		{"/v1/merges/mrg_1/approve", http.StatusConflict, ""},
		{"/v1/merges/mrg_1/split?actor=rev", http.StatusOK, "split"},
		{"/v1/merges/mrg_1/split", http.StatusConflict, ""},
		{"/v1/merges/mrg_9/reject", http.StatusNotFound, ""},
	}
	for _, st := range steps {
		rec := c.do(http.MethodPost, st.path, nil)
		if rec.Code != st.status {
			t.Fatalf("%s: %d %s", st.path, rec.Code, rec.Body)
		}
		if st.want != "" && apitest.Decode[mergeOut](t, rec).Status != st.want {
			t.Fatalf("%s: %s", st.path, rec.Body)
		}
	}
	if f.merge.DecidedBy != "rev" || f.merge.SplitBy != "rev" {
		t.Fatalf("actor not passed: %+v", f.merge)
	}
	before := len(f.calls)
	for _, bad := range []struct{ method, path, field string }{
		{http.MethodGet, "/v1/merges?status=done", "status"},
		{http.MethodGet, "/v1/merges?limit=5000", "limit"},
		{http.MethodGet, "/v1/merges?user_id=", "user_id"},
		{http.MethodPost, "/v1/merges/a%20b/split", "merge_id"},
		{http.MethodPost, "/v1/users/-x/consolidate", "user_id"},
	} {
		rec := c.do(bad.method, bad.path, nil)
		p := apitest.Decode[Problem](t, rec)
		if rec.Code/100 != 4 || len(p.Errors) == 0 || p.Errors[0].Field != bad.field {
			t.Errorf("%s %s: %d %+v, want a 4xx naming %s", bad.method, bad.path, rec.Code, p, bad.field)
		}
	}
	rec = c.do(http.MethodPost, "/v1/users/alice/consolidate", map[string]any{"dry_run": "yes"})
	if p := apitest.Decode[Problem](t, rec); rec.Code/100 != 4 || len(p.Errors) == 0 || p.Errors[0].Field != "dry_run" {
		t.Errorf("dry_run as a string: %d %s", rec.Code, rec.Body)
	}
	if len(f.calls) != before {
		t.Fatalf("invalid requests reached the service: %v", f.calls[before:])
	}
	without := newClient(t, fullDeps(t), Options{})
	if rec := without.do(http.MethodGet, "/v1/merges", nil); rec.Code != http.StatusNotFound {
		t.Fatalf("without the service: %d", rec.Code)
	}
}
