package memory

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/graphmem/graphmem/errs"
	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/jobs"
	"github.com/graphmem/graphmem/telemetry"
)

// Job kinds the service runs in the background. Every handler is
// idempotent: a job may run more than once (a worker crashed after doing
// the work but before recording it), and running it again changes nothing.
const (
	// JobCloseSession summarizes what no condensation covered and schedules
	// extraction of every window of the session not yet extracted.
	JobCloseSession = "session.close"
	// JobExtract turns one event-tier window into entities and facts.
	JobExtract = "extract"
	// JobInsights derives insights over a user's recent memory.
	JobInsights = "insights"
)

// RegisterJobs installs the service's job handlers on a worker and lets
// the service wake it after each enqueue.
func (s *Service) RegisterJobs(w *jobs.Worker) {
	w.Handle(JobCloseSession, s.metered(failInvalidForGood(s.handleCloseSession)))
	w.Handle(JobExtract, s.metered(failInvalidForGood(s.handleExtract)))
	w.Handle(JobInsights, s.metered(failInvalidForGood(s.handleInsights)))
	s.SetKicker(w.Kick)
}

// failInvalidForGood marks a handler's invalid-input errors (errs.ErrInvalid,
// validation errors included) Permanent: the same input fails the same way
// on every retry, so the job fails at once instead of after its attempts.
func failInvalidForGood(h jobs.Handler) jobs.Handler {
	return func(ctx context.Context, job jobs.Job) (map[string]any, error) {
		res, err := h(ctx, job)
		if errors.Is(err, errs.ErrInvalid) && !jobs.IsPermanent(err) {
			err = jobs.Permanent(err)
		}
		return res, err
	}
}

// Job is a background job as clients see it.
type Job struct {
	ID          string
	Kind        string
	Status      graph.JobStatus
	SessionID   string
	UserID      string
	Attempts    int
	MaxAttempts int
	LastError   string
	RunAfter    time.Time
	CreatedAt   time.Time
	UpdatedAt   time.Time
	FinishedAt  time.Time
	Result      map[string]any
	// Usage is the LLM usage of the job's attempts.
	Usage telemetry.Usage
	// DeferredReason says why a pending job waits without having failed.
	DeferredReason string
}

// JobQuery filters ListJobs.
type JobQuery struct {
	Status    string // a graph.JobStatus; empty for all
	Kind      string
	SessionID string
	Limit     int
}

// ListJobs lists the tenant's jobs, newest first.
func (s *Service) ListJobs(ctx context.Context, tenant string, q JobQuery) ([]Job, error) {
	jobs, err := s.jobs.ListJobs(ctx, tenant, graph.JobFilter{Status: graph.JobStatus(q.Status), Kind: q.Kind, SessionID: q.SessionID, Limit: q.Limit})
	if err != nil {
		return nil, err
	}
	out := make([]Job, len(jobs))
	for i, j := range jobs {
		out[i] = fromGraphJob(j)
	}
	return out, nil
}

// RetryJob puts a failed job back in the queue.
func (s *Service) RetryJob(ctx context.Context, tenant, id string) (Job, error) {
	j, err := s.jobs.RetryJob(ctx, tenant, id)
	if err != nil {
		return Job{}, err
	}
	s.kick()
	return fromGraphJob(j), nil
}

// enqueue adds a deduplicated job and wakes the workers.
func (s *Service) enqueue(ctx context.Context, tenant string, spec graph.JobSpec) (graph.Job, error) {
	if spec.MaxAttempts == 0 {
		spec.MaxAttempts = s.cfg.JobMaxAttempts
	}
	if spec.RequestID == "" {
		spec.RequestID = telemetry.ScopeFrom(ctx).RequestID // a job's follow-ups keep its request
	}
	j, _, err := s.jobs.EnqueueJob(ctx, tenant, spec)
	if err != nil {
		return graph.Job{}, fmt.Errorf("enqueue %s job: %w", spec.Kind, err)
	}
	s.kick()
	return j, nil
}

// kick wakes the local workers so queued work starts without waiting for
// the next poll; other replicas pick it up on their own poll.
func (s *Service) kick() {
	if s.kicker != nil {
		s.kicker()
	}
}

// jobKey turns the parts that identify a unit of work into a dedupe key
// the job table accepts whatever characters client ids contain.
func jobKey(parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:16])
}

func fromGraphJob(j graph.Job) Job {
	return Job{ID: j.ID, Kind: j.Kind, Status: j.Status, SessionID: j.SessionID, UserID: j.UserID,
		Attempts: j.Attempts, MaxAttempts: j.MaxAttempts, LastError: j.LastError, RunAfter: j.RunAfter,
		CreatedAt: j.CreatedAt, UpdatedAt: j.UpdatedAt, FinishedAt: j.FinishedAt, Result: j.Result,
		Usage: fromGraphUsage(j.Usage), DeferredReason: j.DeferredReason}
}
