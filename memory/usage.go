package memory

import (
	"context"
	"fmt"
	"time"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/jobs"
	"github.com/graphmem/graphmem/telemetry"
)

// DefaultBudgetWindow is the token budget's window when none is set: a UTC
// day.
const DefaultBudgetWindow = 24 * time.Hour

// UsageStore keeps LLM usage per job and per tenant window; *graph.Store
// implements it. Without one the service counts usage in metrics only.
type UsageStore interface {
	RecordJobUsage(ctx context.Context, tenant, jobID string, window time.Time, u graph.Usage) error
	WindowUsage(ctx context.Context, tenant string, window time.Time) (graph.Usage, error)
	UsageByUser(ctx context.Context, tenant string, since time.Time) ([]graph.UserUsage, error)
}

// Budget caps each tenant's LLM tokens (prompt + completion, embeddings
// included) per window. A job of a tenant over its budget is deferred to
// the window's end, never dropped; work already running finishes, so a
// window can end a little over budget.
type Budget struct {
	Tokens int64         // 0: no budget
	Window time.Duration // windows start at multiples of it since the Unix epoch, in UTC
}

// windowOf returns the start and end of the budget window holding t.
func (b Budget) windowOf(t time.Time) (start, end time.Time) {
	w := b.Window
	if w <= 0 {
		w = DefaultBudgetWindow
	}
	start = t.UTC().Truncate(w)
	return start, start.Add(w)
}

// TenantUsage is a tenant's usage now: its current budget window, and per
// user over that window's jobs.
type TenantUsage struct {
	WindowStart, WindowEnd time.Time
	BudgetTokens           int64 // 0: no budget
	Window                 telemetry.Usage
	Users                  []UserUsage
}

// UserUsage is one user's usage over their jobs.
type UserUsage struct {
	UserID string
	Jobs   int64
	Usage  telemetry.Usage
}

func fromGraphUsage(u graph.Usage) telemetry.Usage {
	return telemetry.Usage{Calls: u.Calls, EmbedCalls: u.EmbedCalls, PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens}
}

// Usage reports the tenant's usage in the current budget window.
func (s *Service) Usage(ctx context.Context, tenant string) (TenantUsage, error) {
	start, end := s.cfg.Budget.windowOf(s.now())
	out := TenantUsage{WindowStart: start, WindowEnd: end, BudgetTokens: s.cfg.Budget.Tokens}
	if s.usage == nil {
		return out, nil
	}
	w, err := s.usage.WindowUsage(ctx, tenant, start)
	if err != nil {
		return out, fmt.Errorf("usage window: %w", err)
	}
	out.Window = fromGraphUsage(w)
	users, err := s.usage.UsageByUser(ctx, tenant, start)
	if err != nil {
		return out, fmt.Errorf("usage by user: %w", err)
	}
	out.Users = make([]UserUsage, len(users))
	for i, u := range users {
		out.Users[i] = UserUsage{UserID: u.UserID, Jobs: u.Jobs, Usage: fromGraphUsage(u.Usage)}
	}
	return out, nil
}

// metered wraps a handler of a job that may call the LLM: it defers the job
// while its tenant is over budget, scopes the context to the job (whose
// usage the LLM engine reports), and stores each call's usage on the job
// and in the tenant's window as the call ends, failed attempts included:
// their tokens were spent too. Storing per call, not per job, is what lets
// the job this one enqueues (an extraction after a summary) see the
// summary's tokens when it checks the budget.
func (s *Service) metered(h jobs.Handler) jobs.Handler {
	return func(ctx context.Context, job jobs.Job) (map[string]any, error) {
		start, end := s.cfg.Budget.windowOf(s.now())
		if s.usage != nil && s.cfg.Budget.Tokens > 0 && s.cfg.EngineIsLLM {
			used, err := s.usage.WindowUsage(ctx, job.Tenant, start)
			if err != nil {
				return nil, fmt.Errorf("check token budget: %w", err)
			}
			if tokens := used.PromptTokens + used.CompletionTokens; tokens >= s.cfg.Budget.Tokens {
				return nil, jobs.Defer(end, fmt.Sprintf("token budget exhausted: tenant used %d of %d LLM tokens in the window that started %s; resumes when it ends",
					tokens, s.cfg.Budget.Tokens, start.Format(time.RFC3339)))
			}
		}
		ctx = telemetry.WithScope(ctx, telemetry.Scope{Tenant: job.Tenant, User: job.UserID, Job: job.ID, RequestID: job.RequestID})
		var record func(telemetry.Usage)
		if s.usage != nil {
			record = func(u telemetry.Usage) {
				// Recorded even when the job's ctx ended with the call.
				rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
				defer cancel()
				if err := s.usage.RecordJobUsage(rctx, job.Tenant, job.ID, start,
					graph.Usage{Calls: u.Calls, EmbedCalls: u.EmbedCalls, PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens}); err != nil {
					s.log.Warn("record job usage", "job", job.ID, "tenant", job.Tenant, "error", err)
				}
			}
		}
		ctx, _ = telemetry.WithTally(ctx, record)
		return h(ctx, job)
	}
}
