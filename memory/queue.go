package memory

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/graphmem/graphmem/errs"
	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/jobs"
)

// QueueStore is the graph's durable job table as the workers use it;
// *graph.Store implements it.
type QueueStore interface {
	ClaimJobs(ctx context.Context, owner string, filter graph.ClaimFilter, max int, lease time.Duration) ([]graph.Job, error)
	RenewLease(ctx context.Context, tenant, jobID, owner string, lease time.Duration) error
	CompleteJob(ctx context.Context, tenant, jobID, owner string, result map[string]any) error
	FailJob(ctx context.Context, tenant, jobID, owner string, cause error, retryAt time.Time, permanent bool) error
	DeferJob(ctx context.Context, tenant, jobID, owner string, until time.Time, reason string) error
}

// JobQueue adapts the graph's job table to the worker's jobs.Store: it
// hands the worker the fields of a job it needs, and reports a lease that
// is no longer the worker's (the graph says conflict: another worker holds
// the job; or not found: it is gone) as jobs.ErrLeaseLost.
func JobQueue(store QueueStore) jobs.Store { return queue{store: store} }

type queue struct{ store QueueStore }

func (q queue) ClaimJobs(ctx context.Context, owner string, filter jobs.ClaimFilter, max int, lease time.Duration) ([]jobs.Job, error) {
	claimed, err := q.store.ClaimJobs(ctx, owner, graph.ClaimFilter{Kinds: filter.Kinds, Tenants: filter.Tenants}, max, lease)
	if err != nil {
		return nil, err
	}
	out := make([]jobs.Job, len(claimed))
	for i, j := range claimed {
		out[i] = jobs.Job{Tenant: j.Tenant, ID: j.ID, Kind: j.Kind, SessionID: j.SessionID, UserID: j.UserID,
			RequestID: j.RequestID, Payload: j.Payload, Attempts: j.Attempts, MaxAttempts: j.MaxAttempts}
	}
	return out, nil
}

func (q queue) RenewLease(ctx context.Context, tenant, jobID, owner string, lease time.Duration) error {
	err := q.store.RenewLease(ctx, tenant, jobID, owner, lease)
	if errors.Is(err, errs.ErrConflict) || errors.Is(err, errs.ErrNotFound) {
		return fmt.Errorf("%w: %w", jobs.ErrLeaseLost, err)
	}
	return err
}

func (q queue) CompleteJob(ctx context.Context, tenant, jobID, owner string, result map[string]any) error {
	return q.store.CompleteJob(ctx, tenant, jobID, owner, result)
}

func (q queue) FailJob(ctx context.Context, tenant, jobID, owner string, cause error, retryAt time.Time, permanent bool) error {
	return q.store.FailJob(ctx, tenant, jobID, owner, cause, retryAt, permanent)
}

// DeferJob makes the queue a jobs.Deferrer: a job over its tenant's token
// budget waits without using an attempt.
func (q queue) DeferJob(ctx context.Context, tenant, jobID, owner string, until time.Time, reason string) error {
	return q.store.DeferJob(ctx, tenant, jobID, owner, until, reason)
}
