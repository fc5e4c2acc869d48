package api

import (
	"context"
	"io"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/graphmem/graphmem/memory"
)

// LifecycleService is what the memory-lifecycle routes need: erasure of a
// user or a session as a background job, its audit records, and one job.
type LifecycleService interface {
	ForgetUser(ctx context.Context, tenant, userID string, who memory.Who) (memory.Job, error)
	ForgetSession(ctx context.Context, tenant, sessionID string, who memory.Who) (memory.Job, error)
	Erasures(ctx context.Context, tenant string, limit int) ([]memory.Erasure, error)
	GetJob(ctx context.Context, tenant, id string) (memory.Job, error)
	ExportUser(ctx context.Context, tenant, userID string, w io.Writer) (memory.ExportStats, error)
	Mark(ctx context.Context, tenant, kind, id string, in memory.MarkInput) (memory.Marked, error)
	Retention(ctx context.Context, tenant string) (memory.Retention, error)
	SetRetention(ctx context.Context, tenant string, p memory.RetentionPolicy) (memory.Retention, error)
	SweepRetention(ctx context.Context, tenant string) (memory.Job, error)
}

// --- DTOs ---------------------------------------------------------------

type forgetQuery struct {
	Actor string `form:"actor" binding:"max=128"`
}

type erasuresQuery struct {
	Limit int `form:"limit" binding:"omitempty,gte=1,lte=1000"`
}

type erasureOut struct {
	ID          string           `json:"id"`
	Scope       string           `json:"scope"`
	SubjectHash string           `json:"subject_hash"`
	Who         string           `json:"who"`
	Actor       string           `json:"actor,omitempty"`
	JobID       string           `json:"job_id,omitempty"`
	At          time.Time        `json:"at"`
	Counts      map[string]int64 `json:"counts"`
}

// --- handlers -----------------------------------------------------------

// lifecycle returns the service, or fails the request when none is wired.
func (s *server) lifecycle(c *gin.Context) (LifecycleService, bool) {
	if s.deps.Lifecycle == nil {
		s.fail(c, errRouteNotFound)
		return nil, false
	}
	return s.deps.Lifecycle, true
}

func (s *server) forgetUser(c *gin.Context) {
	userID, q, ok := pathAndQuery[forgetQuery](s, c, "user_id")
	if !ok {
		return
	}
	svc, ok := s.lifecycle(c)
	if !ok {
		return
	}
	j, err := svc.ForgetUser(c.Request.Context(), tenantOf(c), userID, memory.Who{Tenant: tenantOf(c), Actor: q.Actor})
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusAccepted, toJobOut(j))
}

func (s *server) forgetSession(c *gin.Context) {
	sessionID, q, ok := pathAndQuery[forgetQuery](s, c, "session_id")
	if !ok {
		return
	}
	svc, ok := s.lifecycle(c)
	if !ok {
		return
	}
	j, err := svc.ForgetSession(c.Request.Context(), tenantOf(c), sessionID, memory.Who{Tenant: tenantOf(c), Actor: q.Actor})
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusAccepted, toJobOut(j))
}

func (s *server) listErasures(c *gin.Context) {
	var q erasuresQuery
	if err := s.bindQuery(c, &q); err != nil {
		s.fail(c, err)
		return
	}
	svc, ok := s.lifecycle(c)
	if !ok {
		return
	}
	es, err := svc.Erasures(c.Request.Context(), tenantOf(c), q.Limit)
	if err != nil {
		s.fail(c, err)
		return
	}
	out := make([]erasureOut, len(es))
	for i, e := range es {
		out[i] = erasureOut{ID: e.ID, Scope: e.Scope, SubjectHash: e.SubjectHash, Who: e.Who, Actor: e.Actor,
			JobID: e.JobID, At: e.At, Counts: e.Counts}
		if out[i].Counts == nil {
			out[i].Counts = map[string]int64{}
		}
	}
	c.JSON(http.StatusOK, gin.H{"erasures": out})
}

func (s *server) getJob(c *gin.Context) {
	id := c.Param("job_id")
	if id == "" || len(id) > 300 {
		s.fail(c, invalidField("job_id", "max", "must have 1 to 300 characters"))
		return
	}
	svc, ok := s.lifecycle(c)
	if !ok {
		return
	}
	j, err := svc.GetJob(c.Request.Context(), tenantOf(c), id)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, toJobOut(j))
}

// lazyNDJSON sends the status and content type with the first byte, so an
// export that fails before writing anything (an unknown user) can still
// answer with a problem.
type lazyNDJSON struct {
	c       *gin.Context
	started bool
}

func (w *lazyNDJSON) Write(p []byte) (int, error) {
	if !w.started {
		w.started = true
		w.c.Header("Content-Type", "application/x-ndjson")
		w.c.Header("Content-Disposition", `attachment; filename="graphmem-export.ndjson"`)
		w.c.Status(http.StatusOK)
	}
	n, err := w.c.Writer.Write(p)
	w.c.Writer.Flush()
	return n, err
}

// exportUser streams one user's memory as NDJSON (docs/export.md). Once
// lines are on the wire an error cannot become a problem: the stream stops
// without its end line, which importers reject as cut short.
func (s *server) exportUser(c *gin.Context) {
	userID, _, ok := pathAndQuery[struct{}](s, c, "user_id")
	if !ok {
		return
	}
	svc, ok := s.lifecycle(c)
	if !ok {
		return
	}
	w := &lazyNDJSON{c: c}
	st, err := svc.ExportUser(c.Request.Context(), tenantOf(c), userID, w)
	if err != nil {
		if !w.started {
			s.fail(c, err)
			return
		}
		s.log.ErrorContext(c.Request.Context(), "export stream broken", "error", err, "lines", st.Lines)
		c.Abort()
	}
}

// markFields pin a memory or give it an importance (PATCH of a fact, an
// insight or a summary).
type markFields struct {
	Pinned     *bool   `json:"pinned"`
	Importance *string `json:"importance" binding:"omitempty,oneof=low normal high critical"`
}

func (m markFields) given() bool { return m.Pinned != nil || m.Importance != nil }

func (m markFields) input(actor string) memory.MarkInput {
	return memory.MarkInput{Pinned: m.Pinned, Importance: m.Importance, Actor: actor}
}

type markRequest struct {
	markFields
	Actor string `json:"actor" binding:"max=128"`
}

type markedOut struct {
	Kind       string    `json:"kind"`
	ID         string    `json:"id"`
	UserID     string    `json:"user_id"`
	Pinned     bool      `json:"pinned"`
	Importance string    `json:"importance"`
	MarkedAt   time.Time `json:"marked_at"`
	MarkedBy   string    `json:"marked_by,omitempty"`
}

// markMemory sets the marks and answers with them.
func (s *server) markMemory(c *gin.Context, kind, id string, m markFields, actor string) {
	svc, ok := s.lifecycle(c)
	if !ok {
		return
	}
	out, err := svc.Mark(c.Request.Context(), tenantOf(c), kind, id, m.input(actor))
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, markedOut{Kind: out.Kind, ID: out.ID, UserID: out.UserID, Pinned: out.Pinned,
		Importance: out.Importance, MarkedAt: out.MarkedAt, MarkedBy: out.MarkedBy})
}

// markRoute serves PATCH /v1/insights/{insight_id} and
// /v1/summaries/{summary_id}.
func (s *server) markRoute(kind, param string) gin.HandlerFunc {
	return func(c *gin.Context) {
		id, req, ok := pathAndBody[markRequest](s, c, param)
		if !ok {
			return
		}
		if !req.given() {
			s.fail(c, invalidField("body", "required", "name pinned or importance"))
			return
		}
		s.markMemory(c, kind, id, req.markFields, req.Actor)
	}
}

func (s *server) markInsight(c *gin.Context) { s.markRoute(memory.MarkInsight, "insight_id")(c) }

func (s *server) markSummary(c *gin.Context) { s.markRoute(memory.MarkSummary, "summary_id")(c) }

// retentionPolicy is a tenant's retention policy; 0 keeps forever.
type retentionPolicy struct {
	RawTextDays int `json:"raw_text_days" binding:"gte=0,lte=36500"`
	FactDays    int `json:"fact_days" binding:"gte=0,lte=36500"`
	InsightDays int `json:"insight_days" binding:"gte=0,lte=36500"`
}

type retentionOut struct {
	Policy retentionPolicy `json:"policy"`
	Source string          `json:"source"`
}

func toRetentionOut(r memory.Retention) retentionOut {
	return retentionOut{Policy: retentionPolicy(r.Policy), Source: r.Source}
}

func (s *server) getRetention(c *gin.Context) {
	svc, ok := s.lifecycle(c)
	if !ok {
		return
	}
	r, err := svc.Retention(c.Request.Context(), tenantOf(c))
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, toRetentionOut(r))
}

func (s *server) putRetention(c *gin.Context) {
	// A PUT without a body would set every period to 0 (keep forever):
	// the policy must be stated, as openapi.yaml requires.
	if c.Request.Body == nil || c.Request.ContentLength == 0 {
		s.fail(c, invalidField("body", "required", "send the policy as a JSON object ({} keeps everything forever)"))
		return
	}
	var req retentionPolicy
	if err := s.bindJSON(c, &req); err != nil {
		s.fail(c, err)
		return
	}
	svc, ok := s.lifecycle(c)
	if !ok {
		return
	}
	r, err := svc.SetRetention(c.Request.Context(), tenantOf(c), memory.RetentionPolicy(req))
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, toRetentionOut(r))
}

func (s *server) sweepRetention(c *gin.Context) {
	svc, ok := s.lifecycle(c)
	if !ok {
		return
	}
	j, err := svc.SweepRetention(c.Request.Context(), tenantOf(c))
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusAccepted, toJobOut(j))
}
