package memory

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/jobs"
)

// JobForget erases a user or a session (GDPR erasure) in the background:
// it can take a while for a large user, must survive a crash, and must not
// run while an extraction of the same memory is writing.
const JobForget = "forget"

// forgetMaxAttempts is generous: an erasure retries while other jobs of
// the same user are running, which is not a failure.
const forgetMaxAttempts = 30

// ForgetStore is what erasure needs of the graph.
type ForgetStore interface {
	EnqueueJob(ctx context.Context, tenant string, spec graph.JobSpec) (graph.Job, bool, error)
	GetJob(ctx context.Context, tenant, id string) (graph.Job, error)
	SetJobProgress(ctx context.Context, tenant, jobID string, progress map[string]any) error
	RunningJobs(ctx context.Context, tenant, userID, sessionID, except string) (int, error)
	ForgetUser(ctx context.Context, r graph.ForgetRequest) (graph.Erasure, error)
	ForgetSession(ctx context.Context, r graph.ForgetRequest) (graph.Erasure, error)
	ErasureByJob(ctx context.Context, tenant, jobID string) (graph.Erasure, error)
	Erasures(ctx context.Context, tenant string, limit int) ([]graph.Erasure, error)
}

// LifecycleStore is what the lifecycle service needs of the graph.
type LifecycleStore interface {
	ForgetStore
	PortStore
	MarkStore
	RetentionStore
	ConsolidateStore
}

// Lifecycle runs what happens to memories after they are written: erasure
// of a user or a session, export. It is separate from Service so its
// store interface stays small and the wiring optional.
type Lifecycle struct {
	store LifecycleStore
	log   *slog.Logger
	mu    sync.Mutex
	kick  func()
	// retention holds the config file's policies (SetRetentionDefaults).
	retention map[string]RetentionPolicy
}

// NewLifecycle returns the lifecycle service over store.
func NewLifecycle(store LifecycleStore, log *slog.Logger) *Lifecycle {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Lifecycle{store: store, log: log}
}

// RegisterJobs installs the erasure handler on a worker.
func (l *Lifecycle) RegisterJobs(w *jobs.Worker) {
	w.Handle(JobForget, failInvalidForGood(l.handleForget))
	w.Handle(JobRetention, failInvalidForGood(l.handleRetention))
	w.Handle(JobConsolidate, failInvalidForGood(l.handleConsolidate))
	l.mu.Lock()
	l.kick = w.Kick
	l.mu.Unlock()
}

// Who says who asked for an erasure: the API key's tenant, and an
// optional name the caller gives (a data-protection officer, a ticket).
type Who struct {
	Tenant string
	Actor  string
}

// Erasure is the audit record of an erasure, without personal content.
type Erasure struct {
	ID          string
	Scope       string
	SubjectHash string
	Who         string
	Actor       string
	JobID       string
	At          time.Time
	Counts      map[string]int64
}

// forgetPayload is the job's payload until the erasure is done; then the
// graph replaces it with the subject's hash (Redacted).
type forgetPayload struct {
	Scope     string `json:"scope"` // user | session
	UserID    string `json:"user_id,omitempty"`
	SessionID string `json:"session_id,omitempty"`
	Who       string `json:"who"`
	Actor     string `json:"actor,omitempty"`
	Redacted  bool   `json:"redacted,omitempty"`
}

// ForgetUser schedules the erasure of everything of one user and returns
// its job. While one is pending or running, asking again returns it; once
// done, asking again erases what was stored since (nothing, usually).
func (l *Lifecycle) ForgetUser(ctx context.Context, tenant, userID string, who Who) (Job, error) {
	return l.enqueue(ctx, tenant, forgetPayload{Scope: "user", UserID: userID, Who: who.Tenant, Actor: who.Actor},
		graph.SubjectHash(tenant, "user", userID))
}

// ForgetSession schedules the erasure of one session and of what rests
// only on it.
func (l *Lifecycle) ForgetSession(ctx context.Context, tenant, sessionID string, who Who) (Job, error) {
	return l.enqueue(ctx, tenant, forgetPayload{Scope: "session", SessionID: sessionID, Who: who.Tenant, Actor: who.Actor},
		graph.SubjectHash(tenant, "session", sessionID))
}

// enqueue adds the job. The job carries no user or session id of its own
// (those would make it part of the memory it erases); its key is the
// subject's hash.
func (l *Lifecycle) enqueue(ctx context.Context, tenant string, p forgetPayload, subject string) (Job, error) {
	return l.enqueueJob(ctx, tenant, graph.JobSpec{Kind: JobForget, Key: subject, Payload: p,
		MaxAttempts: forgetMaxAttempts}, "erasure")
}

// enqueueJob adds a lifecycle job and wakes the local workers.
func (l *Lifecycle) enqueueJob(ctx context.Context, tenant string, spec graph.JobSpec, what string) (Job, error) {
	j, _, err := l.store.EnqueueJob(ctx, tenant, spec)
	if err != nil {
		return Job{}, fmt.Errorf("enqueue %s: %w", what, err)
	}
	l.mu.Lock()
	kick := l.kick
	l.mu.Unlock()
	if kick != nil {
		kick()
	}
	return fromGraphJob(j), nil
}

// GetJob returns one job of the tenant.
func (l *Lifecycle) GetJob(ctx context.Context, tenant, id string) (Job, error) {
	j, err := l.store.GetJob(ctx, tenant, id)
	if err != nil {
		return Job{}, err
	}
	return fromGraphJob(j), nil
}

// ExportUser writes one user's memory as NDJSON to w (ErrNotFound, before
// anything is written, when the tenant does not know the user).
func (l *Lifecycle) ExportUser(ctx context.Context, tenant, userID string, w io.Writer) (ExportStats, error) {
	return ExportUser(ctx, l.store, tenant, userID, w)
}

// Erasures lists the tenant's erasure records, newest first.
func (l *Lifecycle) Erasures(ctx context.Context, tenant string, limit int) ([]Erasure, error) {
	es, err := l.store.Erasures(ctx, tenant, limit)
	if err != nil {
		return nil, err
	}
	out := make([]Erasure, len(es))
	for i, e := range es {
		out[i] = fromGraphErasure(e)
	}
	return out, nil
}

func fromGraphErasure(e graph.Erasure) Erasure {
	return Erasure{ID: e.ID, Scope: e.Scope, SubjectHash: e.SubjectHash, Who: e.Who, Actor: e.Actor, JobID: e.JobID,
		At: e.At, Counts: e.Counts}
}

// progressEvery throttles progress writes of a large erasure.
const progressEvery = 2 * time.Second

func (l *Lifecycle) handleForget(ctx context.Context, job jobs.Job) (map[string]any, error) {
	var p forgetPayload
	if err := job.Decode(&p); err != nil {
		return nil, jobs.Permanent(err)
	}
	if p.Redacted {
		// A retry after the erasure was recorded: report what it did.
		e, err := l.store.ErasureByJob(ctx, job.Tenant, job.ID)
		if err != nil {
			return nil, err
		}
		return erasureResult(e), nil
	}
	switch {
	case p.Scope == "user" && p.UserID != "":
	case p.Scope == "session" && p.SessionID != "":
	default:
		return nil, jobs.Permanent(fmt.Errorf("erasure job %q: payload names no user or session", job.ID))
	}
	// A running extraction or insight job would write back what is being
	// erased: wait for it (the retry comes after the worker's backoff).
	// Pending ones are deleted with the rest and never run.
	n, err := l.store.RunningJobs(ctx, job.Tenant, p.UserID, p.SessionID, job.ID)
	if err != nil {
		return nil, err
	}
	if n > 0 {
		return nil, fmt.Errorf("erasure waits for %d running job(s) of the same %s", n, p.Scope)
	}
	last := time.Now()
	req := graph.ForgetRequest{Tenant: job.Tenant, UserID: p.UserID, SessionID: p.SessionID, JobID: job.ID,
		Who: p.Who, Actor: p.Actor, Progress: func(c graph.ForgetCounts) {
			if time.Since(last) < progressEvery {
				return
			}
			last = time.Now()
			prog := map[string]any{"done": false, "deleted": map[string]int64(c)}
			if err := l.store.SetJobProgress(ctx, job.Tenant, job.ID, prog); err != nil {
				l.log.Warn("erasure progress not recorded", "job", job.ID, "error", err)
			}
		}}
	var e graph.Erasure
	if p.Scope == "user" {
		e, err = l.store.ForgetUser(ctx, req)
	} else {
		e, err = l.store.ForgetSession(ctx, req)
	}
	if err != nil {
		return nil, fmt.Errorf("erase %s: %w", p.Scope, err)
	}
	l.log.Info("erasure done", "tenant", job.Tenant, "job", job.ID, "scope", p.Scope, "subject", e.SubjectHash)
	return erasureResult(e), nil
}

func erasureResult(e graph.Erasure) map[string]any {
	return map[string]any{"done": true, "scope": e.Scope, "erasure_id": e.ID, "subject_hash": e.SubjectHash,
		"deleted": map[string]int64(e.Counts)}
}
