package api

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/graphmem/graphmem/memory"
	"github.com/graphmem/graphmem/telemetry"
)

// JobService is what the background-job routes need: operators list jobs
// and retry the failed ones.
type JobService interface {
	ListJobs(ctx context.Context, tenant string, q memory.JobQuery) ([]memory.Job, error)
	RetryJob(ctx context.Context, tenant, id string) (memory.Job, error)
	Usage(ctx context.Context, tenant string) (memory.TenantUsage, error)
}

// --- DTOs ---------------------------------------------------------------

type jobsQuery struct {
	Status    string `form:"status" binding:"omitempty,oneof=pending running done failed"`
	Kind      string `form:"kind" binding:"omitempty,max=100"`
	SessionID string `form:"session_id" binding:"omitempty,ident"`
	Limit     int    `form:"limit" binding:"omitempty,gte=1,lte=1000"`
}

type jobOut struct {
	ID          string     `json:"id"`
	Kind        string     `json:"kind"`
	Status      string     `json:"status"`
	SessionID   string     `json:"session_id,omitempty"`
	UserID      string     `json:"user_id,omitempty"`
	Attempts    int        `json:"attempts"`
	MaxAttempts int        `json:"max_attempts"`
	LastError   string     `json:"last_error,omitempty"`
	RunAfter    *time.Time `json:"run_after,omitempty"`
	CreatedAt   time.Time  `json:"created_at"`
	UpdatedAt   time.Time  `json:"updated_at"`
	FinishedAt  *time.Time `json:"finished_at,omitempty"`
	// Result is a done job's short summary (a running erasure's progress).
	Result map[string]any `json:"result,omitempty"`
	// Usage is the LLM usage of all the job's attempts.
	Usage usageOut `json:"usage"`
	// DeferredReason says why a pending job waits (a token budget).
	DeferredReason string `json:"deferred_reason,omitempty"`
}

type usageOut struct {
	Calls            int64 `json:"llm_calls"`
	EmbedCalls       int64 `json:"embedding_calls"`
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
}

type userUsageOut struct {
	UserID string `json:"user_id"`
	Jobs   int64  `json:"jobs"`
	usageOut
}

type usageResponse struct {
	WindowStart  time.Time      `json:"window_start"`
	WindowEnd    time.Time      `json:"window_end"`
	BudgetTokens *int64         `json:"budget_tokens,omitempty"`
	Total        usageOut       `json:"total"`
	Users        []userUsageOut `json:"users"`
}

// --- handlers -----------------------------------------------------------

func (s *server) listJobs(c *gin.Context) {
	var q jobsQuery
	if err := s.bindQuery(c, &q); err != nil {
		s.fail(c, err)
		return
	}
	jobs, err := s.deps.Jobs.ListJobs(c.Request.Context(), tenantOf(c), memory.JobQuery{Status: q.Status, Kind: q.Kind, SessionID: q.SessionID, Limit: q.Limit})
	if err != nil {
		s.fail(c, err)
		return
	}
	out := make([]jobOut, len(jobs))
	for i, j := range jobs {
		out[i] = toJobOut(j)
	}
	c.JSON(http.StatusOK, gin.H{"jobs": out})
}

func (s *server) retryJob(c *gin.Context) {
	id := c.Param("job_id")
	switch {
	case id == "":
		s.fail(c, invalidField("job_id", "required", "is required"))
		return
	case len(id) > 300:
		s.fail(c, invalidField("job_id", "max", "must have at most 300 characters"))
		return
	}
	j, err := s.deps.Jobs.RetryJob(c.Request.Context(), tenantOf(c), id)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, toJobOut(j))
}

func (s *server) getUsage(c *gin.Context) {
	u, err := s.deps.Jobs.Usage(c.Request.Context(), tenantOf(c))
	if err != nil {
		s.fail(c, err)
		return
	}
	out := usageResponse{WindowStart: u.WindowStart, WindowEnd: u.WindowEnd, Total: toUsageOut(u.Window), Users: make([]userUsageOut, len(u.Users))}
	if u.BudgetTokens > 0 {
		out.BudgetTokens = &u.BudgetTokens
	}
	for i, uu := range u.Users {
		out.Users[i] = userUsageOut{UserID: uu.UserID, Jobs: uu.Jobs, usageOut: toUsageOut(uu.Usage)}
	}
	c.JSON(http.StatusOK, out)
}

// --- converters -----------------------------------------------------------

func toJobOut(j memory.Job) jobOut {
	return jobOut{ID: j.ID, Kind: j.Kind, Status: string(j.Status), SessionID: j.SessionID, UserID: j.UserID,
		Attempts: j.Attempts, MaxAttempts: j.MaxAttempts, LastError: j.LastError, RunAfter: timePtr(j.RunAfter),
		CreatedAt: j.CreatedAt, UpdatedAt: j.UpdatedAt, FinishedAt: timePtr(j.FinishedAt), Result: j.Result,
		Usage: toUsageOut(j.Usage), DeferredReason: j.DeferredReason}
}

func toUsageOut(u telemetry.Usage) usageOut {
	return usageOut{Calls: u.Calls, EmbedCalls: u.EmbedCalls, PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens}
}
