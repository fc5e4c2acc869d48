package api

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/graphmem/graphmem/api/apitest"
	"github.com/graphmem/graphmem/errs"
	"github.com/graphmem/graphmem/memory"
)

// fakeLifecycle records the erasures asked for.
type fakeLifecycle struct {
	calls []string
	who   []memory.Who
}

func (f *fakeLifecycle) ForgetUser(_ context.Context, tenant, userID string, who memory.Who) (memory.Job, error) {
	f.calls, f.who = append(f.calls, "user "+tenant+" "+userID), append(f.who, who)
	return memory.Job{ID: "forget:abc:00000001", Kind: memory.JobForget, Status: "pending", MaxAttempts: 30,
		CreatedAt: fakeTime, UpdatedAt: fakeTime}, nil
}

func (f *fakeLifecycle) ForgetSession(_ context.Context, tenant, sessionID string, who memory.Who) (memory.Job, error) {
	f.calls, f.who = append(f.calls, "session "+tenant+" "+sessionID), append(f.who, who)
	return memory.Job{ID: "forget:def:00000001", Kind: memory.JobForget, Status: "pending", MaxAttempts: 30,
		CreatedAt: fakeTime, UpdatedAt: fakeTime}, nil
}

func (f *fakeLifecycle) Erasures(context.Context, string, int) ([]memory.Erasure, error) {
	return []memory.Erasure{{ID: "erasure_forget:abc:00000001", Scope: "user", SubjectHash: "0a1b", Who: DefaultTenant,
		At: fakeTime, Counts: map[string]int64{"Raw": 6, "facts": 4}}}, nil
}

func (f *fakeLifecycle) GetJob(_ context.Context, _, id string) (memory.Job, error) {
	if id != "forget:abc:00000001" {
		return memory.Job{}, errs.NotFound("job %q", id)
	}
	return memory.Job{ID: id, Kind: memory.JobForget, Status: "done", Attempts: 1, MaxAttempts: 30, CreatedAt: fakeTime,
		UpdatedAt: fakeTime, FinishedAt: fakeTime, Result: map[string]any{"done": true, "deleted": map[string]any{"Raw": 6}}}, nil
}

// TestForgetRoutes: erasure routes answer 202 with the job in the spec's
// shape, pass the key's tenant and the actor, validate ids and the actor,
// list audit records and show a job's result; without a lifecycle service
// they are 404 problems.
func TestForgetRoutes(t *testing.T) {
	deps := fullDeps(t)
	life := &fakeLifecycle{}
	deps.Lifecycle = life
	c := newClient(t, deps, Options{})

	rec := c.do(http.MethodDelete, "/v1/users/alice?actor=dpo", nil)
	if rec.Code != http.StatusAccepted || apitest.Decode[jobOut](t, rec).Kind != "forget" {
		t.Fatalf("forget user: %d %s", rec.Code, rec.Body)
	}
	rec = c.do(http.MethodDelete, "/v1/sessions/s-1", nil)
	if rec.Code != http.StatusAccepted {
		t.Fatalf("forget session: %d %s", rec.Code, rec.Body)
	}
	if strings.Join(life.calls, ",") != "user default alice,session default s-1" || life.who[0].Actor != "dpo" ||
		life.who[0].Tenant != DefaultTenant {
		t.Fatalf("calls %v, who %+v", life.calls, life.who)
	}
	rec = c.do(http.MethodGet, "/v1/jobs/forget:abc:00000001", nil)
	if j := apitest.Decode[jobOut](t, rec); rec.Code != http.StatusOK || j.Result["done"] != true {
		t.Fatalf("get job: %d %s", rec.Code, rec.Body)
	}
	if rec := c.do(http.MethodGet, "/v1/jobs/nope", nil); rec.Code != http.StatusNotFound {
		t.Fatalf("get unknown job: %d", rec.Code)
	}
	rec = c.do(http.MethodGet, "/v1/erasures?limit=5", nil)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"subject_hash":"0a1b"`) {
		t.Fatalf("erasures: %d %s", rec.Code, rec.Body)
	}
	for _, bad := range []struct{ path, field string }{
		{"/v1/users/-bad", "user_id"},
		{"/v1/sessions/a%20b", "session_id"},
		{"/v1/users/alice?actor=" + strings.Repeat("x", 129), "actor"},
	} {
		rec := c.do(http.MethodDelete, bad.path, nil)
		p := apitest.Decode[Problem](t, rec)
		if rec.Code/100 != 4 || len(p.Errors) == 0 || p.Errors[0].Field != bad.field {
			t.Errorf("DELETE %s: %d %+v, want a 4xx naming %s", bad.path, rec.Code, p, bad.field)
		}
	}
	if n := len(life.calls); n != 2 {
		t.Fatalf("invalid requests reached the service: %v", life.calls)
	}

	without := newClient(t, fullDeps(t), Options{})
	if rec := without.do(http.MethodDelete, "/v1/users/alice", nil); rec.Code != http.StatusNotFound {
		t.Fatalf("without a lifecycle service: %d", rec.Code)
	}
}

func (f *fakeLifecycle) ExportUser(_ context.Context, tenant, userID string, w io.Writer) (memory.ExportStats, error) {
	if userID != "alice" {
		return memory.ExportStats{}, errs.NotFound("user %q", userID)
	}
	f.calls = append(f.calls, "export "+tenant+" "+userID)
	n, err := io.WriteString(w, `{"kind":"header","format":"graphmem.export","version":1}`+"\n"+`{"kind":"end","lines":2}`+"\n")
	return memory.ExportStats{Lines: 2, Bytes: int64(n)}, err
}

// TestExportRoute: the export streams NDJSON of the key's tenant; an
// unknown user is a 404 problem (nothing written before), a bad id a 4xx
// naming user_id.
func TestExportRoute(t *testing.T) {
	deps := fullDeps(t)
	life := &fakeLifecycle{}
	deps.Lifecycle = life
	c := newClient(t, deps, Options{})
	rec := c.do(http.MethodGet, "/v1/users/alice/export", nil)
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/x-ndjson" ||
		!strings.HasPrefix(rec.Body.String(), `{"kind":"header"`) || strings.Join(life.calls, ",") != "export default alice" {
		t.Fatalf("export: %d %q %s (calls %v)", rec.Code, rec.Header().Get("Content-Type"), rec.Body, life.calls)
	}
	rec = c.do(http.MethodGet, "/v1/users/bob/export", nil)
	if rec.Code != http.StatusNotFound || !strings.HasPrefix(rec.Header().Get("Content-Type"), problemContentType) {
		t.Fatalf("unknown user: %d %q %s", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
	}
	rec = c.do(http.MethodGet, "/v1/users/-bad/export", nil)
	if p := apitest.Decode[Problem](t, rec); rec.Code/100 != 4 || len(p.Errors) == 0 || p.Errors[0].Field != "user_id" {
		t.Fatalf("bad id: %d %+v", rec.Code, p)
	}
}

func (f *fakeLifecycle) Mark(_ context.Context, tenant, kind, id string, in memory.MarkInput) (memory.Marked, error) {
	if id == "nope" {
		return memory.Marked{}, errs.NotFound("%s %q", kind, id)
	}
	m := memory.Marked{Kind: kind, ID: id, UserID: "alice", Importance: "normal", MarkedAt: fakeTime, MarkedBy: in.Actor}
	if in.Pinned != nil {
		m.Pinned = *in.Pinned
	}
	if in.Importance != nil {
		m.Importance = *in.Importance
	}
	f.calls = append(f.calls, "mark "+tenant+" "+kind+" "+id)
	return m, nil
}

// TestMarkRoutes: PATCH of an insight or a summary marks it; PATCH of a
// fact with only marks marks it in place (no correction); a bad importance
// or an empty body is a 4xx naming the field; unknown ids are 404.
func TestMarkRoutes(t *testing.T) {
	deps := fullDeps(t)
	life := &fakeLifecycle{}
	deps.Lifecycle = life
	c := newClient(t, deps, Options{})
	for _, tc := range []struct{ path, kind string }{
		{"/v1/insights/ins-1", "insight"}, {"/v1/summaries/sum-1", "summary"}, {"/v1/facts/fact-1", "fact"},
	} {
		rec := c.do(http.MethodPatch, tc.path, map[string]any{"pinned": true, "importance": "critical", "actor": "ops"})
		m := apitest.Decode[markedOut](t, rec)
		if rec.Code != http.StatusOK || m.Kind != tc.kind || !m.Pinned || m.Importance != "critical" || m.MarkedBy != "ops" {
			t.Fatalf("PATCH %s: %d %s", tc.path, rec.Code, rec.Body)
		}
	}
	if strings.Join(life.calls, ",") != "mark default insight ins-1,mark default summary sum-1,mark default fact fact-1" {
		t.Fatalf("calls %v", life.calls)
	}
	for _, bad := range []struct {
		path  string
		body  map[string]any
		field string
	}{
		{"/v1/insights/ins-1", map[string]any{"importance": "urgent"}, "importance"},
		{"/v1/summaries/sum-1", map[string]any{}, "body"},
		{"/v1/facts/fact-1", map[string]any{"importance": "top"}, "importance"},
		{"/v1/insights/-x", map[string]any{"pinned": true}, "insight_id"},
	} {
		rec := c.do(http.MethodPatch, bad.path, bad.body)
		p := apitest.Decode[Problem](t, rec)
		if rec.Code/100 != 4 || len(p.Errors) == 0 || p.Errors[0].Field != bad.field {
			t.Errorf("PATCH %s %v: %d %+v, want a 4xx naming %s", bad.path, bad.body, rec.Code, p, bad.field)
		}
	}
	if rec := c.do(http.MethodPatch, "/v1/insights/nope", map[string]any{"pinned": true}); rec.Code != http.StatusNotFound {
		t.Fatalf("unknown insight: %d", rec.Code)
	}
}

func (f *fakeLifecycle) Retention(context.Context, string) (memory.Retention, error) {
	return memory.Retention{Source: memory.PolicyNone}, nil
}

func (f *fakeLifecycle) SetRetention(_ context.Context, tenant string, p memory.RetentionPolicy) (memory.Retention, error) {
	f.calls = append(f.calls, fmt.Sprintf("retention %s %d %d %d", tenant, p.RawTextDays, p.FactDays, p.InsightDays))
	return memory.Retention{Policy: p, Source: memory.PolicyFromAPI}, nil
}

func (f *fakeLifecycle) SweepRetention(_ context.Context, tenant string) (memory.Job, error) {
	f.calls = append(f.calls, "sweep "+tenant)
	return memory.Job{ID: "retention:sweep:00000001", Kind: memory.JobRetention, Status: "pending", MaxAttempts: 5,
		CreatedAt: fakeTime, UpdatedAt: fakeTime}, nil
}

// TestRetentionRoutes: the policy reads and writes in the spec's shape,
// out-of-range days are a 4xx naming the field, a sweep is a 202 job.
func TestRetentionRoutes(t *testing.T) {
	deps := fullDeps(t)
	life := &fakeLifecycle{}
	deps.Lifecycle = life
	c := newClient(t, deps, Options{})
	if rec := c.do(http.MethodGet, "/v1/retention", nil); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"source":"none"`) {
		t.Fatalf("get: %d %s", rec.Code, rec.Body)
	}
	rec := c.do(http.MethodPut, "/v1/retention", map[string]any{"raw_text_days": 30, "fact_days": 365})
	if r := apitest.Decode[retentionOut](t, rec); rec.Code != http.StatusOK || r.Policy.RawTextDays != 30 || r.Source != "api" {
		t.Fatalf("put: %d %s", rec.Code, rec.Body)
	}
	for field, v := range map[string]any{"raw_text_days": -1, "fact_days": 40000} {
		rec := c.do(http.MethodPut, "/v1/retention", map[string]any{field: v})
		if p := apitest.Decode[Problem](t, rec); rec.Code/100 != 4 || len(p.Errors) == 0 || p.Errors[0].Field != field {
			t.Errorf("%s=%v: %d %+v", field, v, rec.Code, p)
		}
	}
	if rec := c.do(http.MethodPost, "/v1/retention/sweep", nil); rec.Code != http.StatusAccepted || apitest.Decode[jobOut](t, rec).Kind != "retention" {
		t.Fatalf("sweep: %d %s", rec.Code, rec.Body)
	}
	if strings.Join(life.calls, ",") != "retention default 30 365 0,sweep default" {
		t.Fatalf("calls %v", life.calls)
	}
}
