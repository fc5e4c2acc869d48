package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Job is a claimed job as the worker and its handlers see it.
type Job struct {
	Tenant      string
	ID          string
	Kind        string
	SessionID   string
	UserID      string
	RequestID   string // the request that caused the job, if any (for traces)
	Payload     json.RawMessage
	Attempts    int // claims so far, including this one
	MaxAttempts int // 0: no limit besides Permanent errors
}

// Decode unmarshals the job's payload into v. A payload that does not
// decode will not decode on a retry either: handlers return the error
// marked Permanent.
func (j Job) Decode(v any) error {
	if len(j.Payload) == 0 {
		return fmt.Errorf("job %q: empty payload", j.ID)
	}
	if err := json.Unmarshal(j.Payload, v); err != nil {
		return fmt.Errorf("job %q: payload: %w", j.ID, err)
	}
	return nil
}

// ClaimFilter says which jobs a worker may claim.
type ClaimFilter struct {
	Kinds   []string // the kinds it has handlers for
	Tenants []string // empty: every tenant
}

// Store is the durable queue the worker claims from, shared by every
// replica; it is the only way replicas coordinate.
type Store interface {
	// ClaimJobs leases up to max runnable jobs (pending and due, or running
	// with an expired lease) to owner for lease, counting an attempt each.
	ClaimJobs(ctx context.Context, owner string, filter ClaimFilter, max int, lease time.Duration) ([]Job, error)
	// RenewLease extends owner's lease; an error matching ErrLeaseLost
	// means the job is no longer owner's (another worker claimed it after
	// the lease expired, or it is gone).
	RenewLease(ctx context.Context, tenant, jobID, owner string, lease time.Duration) error
	// CompleteJob records success and the handler's short result.
	CompleteJob(ctx context.Context, tenant, jobID, owner string, result map[string]any) error
	// FailJob records a failure: the job runs again at retryAt, or never
	// when permanent or out of attempts.
	FailJob(ctx context.Context, tenant, jobID, owner string, cause error, retryAt time.Time, permanent bool) error
}

// Deferrer is what a Store also implements when handlers may Defer jobs:
// the job goes back to pending until the given time, its attempt not
// counted, with reason for operators to read. A Store without it records a
// deferral as an ordinary failed attempt retried at that time.
type Deferrer interface {
	DeferJob(ctx context.Context, tenant, jobID, owner string, until time.Time, reason string) error
}

// Handler runs one job. Its result (a short summary) is stored with the
// job. It must honour ctx: ctx is cancelled when the job's lease is lost,
// when the job times out, and when shutdown's grace period ends.
type Handler func(ctx context.Context, job Job) (map[string]any, error)

var (
	// ErrLeaseLost is what a Store's RenewLease matches when the job is no
	// longer the caller's; the worker then cancels the handler and records
	// nothing, since the job's new holder decides its fate.
	ErrLeaseLost = errors.New("job lease lost")
	// ErrNoHandlers is Run's error when no handler was registered: a wiring
	// mistake.
	ErrNoHandlers = errors.New("no handlers registered")
	// ErrRunning is Run's error when the worker already runs.
	ErrRunning = errors.New("worker already running")

	errShutdown = errors.New("worker shutting down")
)

// DeferredError is a handler's "not now": the job should wait until Until
// (a budget window resets, say) without using an attempt. Nothing failed,
// so nothing is dropped.
type DeferredError struct {
	Until  time.Time
	Reason string
}

func (e *DeferredError) Error() string {
	return fmt.Sprintf("deferred until %s: %s", e.Until.UTC().Format(time.RFC3339), e.Reason)
}

// Defer returns the error a handler returns to put its job off until
// until, for reason.
func Defer(until time.Time, reason string) error { return &DeferredError{Until: until, Reason: reason} }

// permanentError marks a failure that retrying cannot fix.
type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// Permanent marks err as not worth retrying: the worker fails the job for
// good at once. Permanent(nil) is nil.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &permanentError{err: err}
}

// IsPermanent reports whether err, or an error it wraps, was marked with
// Permanent. Which other failures no retry can fix (invalid input, say) is
// for the handlers' owner to decide: it marks them.
func IsPermanent(err error) bool {
	_, ok := errors.AsType[*permanentError](err)
	return ok
}
