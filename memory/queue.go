package memory

import (
	"context"
	"errors"
	"fmt"
	"sync"
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
}

// JobQueue adapts the graph's job table to the worker's jobs.Store: it
// hands the worker the fields of a job it needs, and reports a lease that
// is no longer the worker's (the graph says conflict: another worker holds
// the job; or not found: it is gone) as jobs.ErrLeaseLost.
func JobQueue(store QueueStore) jobs.Store { return queue{store: store} }

// JobQueue is JobQueue(store) for this service's workers: every job end
// they record also wakes the service's close-with-wait requests at once,
// instead of at their next poll (up to 500 ms later, per session closed).
func (s *Service) JobQueue(store QueueStore) jobs.Store {
	return queue{store: store, done: s.finished.broadcast}
}

type queue struct {
	store QueueStore
	done  func() // called after a job's end is recorded; nil: nobody listens
}

// jobSignal is a broadcast: wait returns a channel closed by the next
// broadcast. The zero value is ready to use.
type jobSignal struct {
	mu sync.Mutex
	ch chan struct{}
}

func (j *jobSignal) wait() <-chan struct{} {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.ch == nil {
		j.ch = make(chan struct{})
	}
	return j.ch
}

func (j *jobSignal) broadcast() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.ch != nil {
		close(j.ch)
		j.ch = nil
	}
}

func (q queue) ended() {
	if q.done != nil {
		q.done()
	}
}

func (q queue) ClaimJobs(ctx context.Context, owner string, filter jobs.ClaimFilter, max int, lease time.Duration) ([]jobs.Job, error) {
	claimed, err := q.store.ClaimJobs(ctx, owner, graph.ClaimFilter{Kinds: filter.Kinds, Tenants: filter.Tenants}, max, lease)
	if err != nil {
		return nil, err
	}
	out := make([]jobs.Job, len(claimed))
	for i, j := range claimed {
		out[i] = jobs.Job{Tenant: j.Tenant, ID: j.ID, Kind: j.Kind, SessionID: j.SessionID, UserID: j.UserID,
			Payload: j.Payload, Attempts: j.Attempts, MaxAttempts: j.MaxAttempts}
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
	defer q.ended()
	return q.store.CompleteJob(ctx, tenant, jobID, owner, result)
}

func (q queue) FailJob(ctx context.Context, tenant, jobID, owner string, cause error, retryAt time.Time, permanent bool) error {
	defer q.ended()
	return q.store.FailJob(ctx, tenant, jobID, owner, cause, retryAt, permanent)
}
