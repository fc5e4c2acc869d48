package api

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/graphmem/graphmem/memory"
)

// ConsolidationService is what the consolidation and merge-review routes
// need: a dry run or a consolidation job for one user, and the merge
// records with their review (approve, reject) and reversal (split).
type ConsolidationService interface {
	Consolidate(ctx context.Context, tenant, userID string, dry bool, who memory.Who) (memory.ConsolidationReport, memory.Job, error)
	Merges(ctx context.Context, tenant, status, userID string, limit int) ([]memory.Merge, error)
	GetMerge(ctx context.Context, tenant, id string) (memory.Merge, error)
	DecideMerge(ctx context.Context, tenant, id string, approve bool, who memory.Who) (memory.Merge, error)
	SplitMerge(ctx context.Context, tenant, id string, who memory.Who) (memory.Merge, error)
}

// --- DTOs ---------------------------------------------------------------

type consolidateRequest struct {
	DryRun bool   `json:"dry_run"`
	Actor  string `json:"actor" binding:"max=128"`
}

type mergesQuery struct {
	Status string `form:"status" binding:"omitempty,oneof=pending applied rejected split"`
	UserID string `form:"user_id" binding:"omitempty,ident"`
	Limit  int    `form:"limit" binding:"omitempty,gte=1,lte=1000"`
}

type mergeCandidateOut struct {
	KeepID   string   `json:"keep_id"`
	KeepName string   `json:"keep_name"`
	DropID   string   `json:"drop_id"`
	DropName string   `json:"drop_name"`
	Type     string   `json:"type"`
	Score    float64  `json:"score"`
	Reasons  []string `json:"reasons"`
	Decision string   `json:"decision"`
}

type consolidationOut struct {
	DryRun         bool                `json:"dry_run"`
	Entities       int                 `json:"entities"`
	Candidates     []mergeCandidateOut `json:"candidates"`
	RedundantFacts int                 `json:"redundant_facts"`
}

type mergeOut struct {
	ID        string     `json:"id"`
	UserID    string     `json:"user_id"`
	Kind      string     `json:"kind"`
	Status    string     `json:"status"`
	Type      string     `json:"type,omitempty"`
	KeepID    string     `json:"keep_id,omitempty"`
	KeepName  string     `json:"keep_name,omitempty"`
	DropID    string     `json:"drop_id,omitempty"`
	DropName  string     `json:"drop_name,omitempty"`
	Score     float64    `json:"score"`
	Reasons   []string   `json:"reasons"`
	FactIDs   []string   `json:"fact_ids"`
	Moved     int64      `json:"moved"`
	Left      int64      `json:"left"`
	CreatedAt time.Time  `json:"created_at"`
	CreatedBy string     `json:"created_by,omitempty"`
	DecidedAt *time.Time `json:"decided_at,omitempty"`
	DecidedBy string     `json:"decided_by,omitempty"`
	SplitAt   *time.Time `json:"split_at,omitempty"`
	SplitBy   string     `json:"split_by,omitempty"`
}

func toMergeOut(m memory.Merge) mergeOut {
	out := mergeOut{ID: m.ID, UserID: m.UserID, Kind: m.Kind, Status: m.Status, Type: m.Type, KeepID: m.KeepID,
		KeepName: m.KeepName, DropID: m.DropID, DropName: m.DropName, Score: m.Score, Reasons: m.Reasons,
		FactIDs: m.FactIDs, Moved: m.Moved, Left: m.Left, CreatedAt: m.CreatedAt, CreatedBy: m.CreatedBy,
		DecidedAt: timePtr(m.DecidedAt), DecidedBy: m.DecidedBy, SplitAt: timePtr(m.SplitAt), SplitBy: m.SplitBy}
	if out.Reasons == nil {
		out.Reasons = []string{}
	}
	if out.FactIDs == nil {
		out.FactIDs = []string{}
	}
	return out
}

// --- handlers -----------------------------------------------------------

// consolidation returns the service, or fails the request when none is wired.
func (s *server) consolidation(c *gin.Context) (ConsolidationService, bool) {
	if s.deps.Consolidation == nil {
		s.fail(c, errRouteNotFound)
		return nil, false
	}
	return s.deps.Consolidation, true
}

// consolidate answers a dry run with the candidates (200), and otherwise
// schedules the consolidation job (202).
func (s *server) consolidate(c *gin.Context) {
	userID, req, ok := pathAndBody[consolidateRequest](s, c, "user_id")
	if !ok {
		return
	}
	svc, ok := s.consolidation(c)
	if !ok {
		return
	}
	r, j, err := svc.Consolidate(c.Request.Context(), tenantOf(c), userID, req.DryRun, memory.Who{Tenant: tenantOf(c), Actor: req.Actor})
	if err != nil {
		s.fail(c, err)
		return
	}
	if !req.DryRun {
		c.JSON(http.StatusAccepted, toJobOut(j))
		return
	}
	out := consolidationOut{DryRun: true, Entities: r.Entities, RedundantFacts: r.RedundantFacts,
		Candidates: make([]mergeCandidateOut, len(r.Candidates))}
	for i, m := range r.Candidates {
		out.Candidates[i] = mergeCandidateOut{KeepID: m.KeepID, KeepName: m.KeepName, DropID: m.DropID, DropName: m.DropName,
			Type: m.Type, Score: m.Score, Reasons: m.Reasons, Decision: m.Decision}
	}
	c.JSON(http.StatusOK, out)
}

func (s *server) listMerges(c *gin.Context) {
	var q mergesQuery
	if err := s.bindQuery(c, &q); err != nil {
		s.fail(c, err)
		return
	}
	if v, present := c.GetQuery("user_id"); present && v == "" {
		// omitempty lets "" through; the spec's pattern does not.
		s.fail(c, invalidField("user_id", "ident", "must be a user id (letters, digits and _.:@-), not empty"))
		return
	}
	svc, ok := s.consolidation(c)
	if !ok {
		return
	}
	ms, err := svc.Merges(c.Request.Context(), tenantOf(c), q.Status, q.UserID, q.Limit)
	if err != nil {
		s.fail(c, err)
		return
	}
	out := make([]mergeOut, len(ms))
	for i, m := range ms {
		out[i] = toMergeOut(m)
	}
	c.JSON(http.StatusOK, gin.H{"merges": out})
}

func (s *server) getMerge(c *gin.Context) {
	s.mergeAction(c, func(ctx context.Context, svc ConsolidationService, tenant, id string, _ memory.Who) (memory.Merge, error) {
		return svc.GetMerge(ctx, tenant, id)
	})
}

func (s *server) approveMerge(c *gin.Context) {
	s.mergeAction(c, func(ctx context.Context, svc ConsolidationService, tenant, id string, who memory.Who) (memory.Merge, error) {
		return svc.DecideMerge(ctx, tenant, id, true, who)
	})
}

func (s *server) rejectMerge(c *gin.Context) {
	s.mergeAction(c, func(ctx context.Context, svc ConsolidationService, tenant, id string, who memory.Who) (memory.Merge, error) {
		return svc.DecideMerge(ctx, tenant, id, false, who)
	})
}

func (s *server) splitMerge(c *gin.Context) {
	s.mergeAction(c, func(ctx context.Context, svc ConsolidationService, tenant, id string, who memory.Who) (memory.Merge, error) {
		return svc.SplitMerge(ctx, tenant, id, who)
	})
}

// mergeAction validates the merge id and the actor query parameter, calls
// do and answers with the merge.
func (s *server) mergeAction(c *gin.Context, do func(context.Context, ConsolidationService, string, string, memory.Who) (memory.Merge, error)) {
	id, q, ok := pathAndQuery[forgetQuery](s, c, "merge_id")
	if !ok {
		return
	}
	svc, ok := s.consolidation(c)
	if !ok {
		return
	}
	m, err := do(c.Request.Context(), svc, tenantOf(c), id, memory.Who{Tenant: tenantOf(c), Actor: q.Actor})
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, toMergeOut(m))
}
