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
	DeferJob(ctx context.Context, tenant, jobID, owner string, until time.Time, reason string) error
}

// JobQueue adapts the graph's job table to the worker's jobs.Store: it
// hands the worker the fields of a job it needs, and reports a lease that
// is no longer the worker's (the graph says conflict: another worker holds
// the job; or not found: it is gone) as jobs.ErrLeaseLost.
func JobQueue(store QueueStore) jobs.Store { return queue{store: store} }

// JobQueue is JobQueue(store) for this service's workers: every job end
// they record also wakes the service's close-with-wait requests for that
// job's session at once, instead of at their next poll (up to 500 ms
// later, per session closed).
func (s *Service) JobQueue(store QueueStore) jobs.Store {
	return queue{store: store, ends: &s.finished, stored: s.notifyStored}
}

type queue struct {
	store  QueueStore
	ends   *jobEnds // nil: nobody listens
	stored func()   // wakes the embedding lane: a finished job may have written memories
}

// jobEnds wakes the waiters of a session when a job of that session ends.
// Claims note each job's session (the end calls only name the job). The
// zero value is ready to use.
type jobEnds struct {
	mu      sync.Mutex
	session map[string]string        // tenant \x00 job id -> tenant \x00 session id, while claimed here
	waiters map[string]chan struct{} // tenant \x00 session id -> closed at the next end
}

func (j *jobEnds) claimed(tenant, jobID, sessionID string) {
	if sessionID == "" {
		return
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.session == nil {
		j.session = map[string]string{}
	}
	j.session[tenant+"\x00"+jobID] = tenant + "\x00" + sessionID
}

// wait returns a channel closed when a job of the session ends here.
func (j *jobEnds) wait(tenant, sessionID string) <-chan struct{} {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.waiters == nil {
		j.waiters = map[string]chan struct{}{}
	}
	k := tenant + "\x00" + sessionID
	ch := j.waiters[k]
	if ch == nil {
		ch = make(chan struct{})
		j.waiters[k] = ch
	}
	return ch
}

// forget drops the session's channel when its waiter is done, so sessions
// whose jobs ran on another replica leave nothing behind. A concurrent
// waiter of the same session then falls back to polling.
func (j *jobEnds) forget(tenant, sessionID string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	delete(j.waiters, tenant+"\x00"+sessionID)
}

func (j *jobEnds) ended(tenant, jobID string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	k := tenant + "\x00" + jobID
	sess, ok := j.session[k]
	if !ok {
		return
	}
	delete(j.session, k)
	if ch := j.waiters[sess]; ch != nil {
		close(ch)
		delete(j.waiters, sess)
	}
}

func (q queue) ended(tenant, jobID string) {
	if q.ends != nil {
		q.ends.ended(tenant, jobID)
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
			RequestID: j.RequestID, Payload: j.Payload, Attempts: j.Attempts, MaxAttempts: j.MaxAttempts}
		if q.ends != nil {
			q.ends.claimed(j.Tenant, j.ID, j.SessionID)
		}
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
	defer q.ended(tenant, jobID)
	if q.stored != nil {
		defer q.stored()
	}
	return q.store.CompleteJob(ctx, tenant, jobID, owner, result)
}

func (q queue) FailJob(ctx context.Context, tenant, jobID, owner string, cause error, retryAt time.Time, permanent bool) error {
	defer q.ended(tenant, jobID)
	return q.store.FailJob(ctx, tenant, jobID, owner, cause, retryAt, permanent)
}

// DeferJob makes the queue a jobs.Deferrer: a job over its tenant's token
// budget waits without using an attempt.
func (q queue) DeferJob(ctx context.Context, tenant, jobID, owner string, until time.Time, reason string) error {
	defer q.ended(tenant, jobID) // back to pending: this claim is over
	return q.store.DeferJob(ctx, tenant, jobID, owner, until, reason)
}
