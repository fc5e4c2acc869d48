package graph

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"time"
	"unicode/utf8"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/dbtype"

	"github.com/graphmem/graphmem/errs"
)

// Durable background jobs, stored as (:Job) nodes so every replica sees the
// same queue and a crash loses nothing: a job a dead worker held comes back
// when its lease expires.
//
// Lifecycle: pending → running (claimed, leased) → done | pending (retry
// after a failure, with run_after) | failed (permanent, or out of attempts).
// An operator can RetryJob a failed job.
//
// Concurrency rules, used by every conditional transition below: a
// transaction first takes the job's write lock (SET then REMOVE a scratch
// property, which Neo4j locks until commit) and only then reads status and
// lease. Reads before the lock are hints; the checks after it are the truth,
// because no other transaction can change the node until we commit.
//
// Index hints pin the queue queries to job_status (status, run_after) and
// job_key (tenant, id): done jobs accumulate, and a planner working from
// the statistics of a young database would otherwise pick label scans.
//
// Times that decide runnability (leases, "now") come from the database
// clock, so replicas with skewed clocks still agree about whose lease
// expired. run_after values given by callers are stored as given.

// JobStatus is where a job is in its lifecycle.
type JobStatus string

// Job statuses.
const (
	JobPending JobStatus = "pending"
	JobRunning JobStatus = "running"
	JobDone    JobStatus = "done"
	JobFailed  JobStatus = "failed"
)

// DefaultJobMaxAttempts applies when a JobSpec leaves MaxAttempts at zero.
const DefaultJobMaxAttempts = 5

const (
	maxJobPayload   = 64 << 10 // jobs carry ids, not documents
	maxJobResult    = 8 << 10  // a short summary; larger results are replaced by a marker
	maxJobError     = 1000     // bytes of last_error kept
	maxJobKey       = 512
	maxJobAttempts  = 100
	maxJobListLimit = 1000
	maxClaimWindow  = 1000
)

var (
	jobKindPattern   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$`)
	jobRawKeyPattern = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)
)

// JobSpec describes a job to enqueue.
type JobSpec struct {
	Kind string // handler name: letters, digits, "_", ".", "-"
	// Key deduplicates: while a job of this tenant, kind and key is pending
	// or running, enqueueing again returns it instead of adding another.
	// Empty means no deduplication.
	Key         string
	Payload     any // marshalled to JSON; a json.RawMessage is stored as is
	SessionID   string
	UserID      string
	MaxAttempts int       // 0 means DefaultJobMaxAttempts
	RunAfter    time.Time // zero means now
	// RequestID names the request that caused the job (kept for traces).
	RequestID string
	// RequeueWhileRunning makes only a pending job absorb an enqueue of
	// its key: while it runs, a new generation is added to run after it.
	// For jobs that recompute from current state (insights), where the
	// running one may have read the state before the change this enqueue
	// reports.
	RequeueWhileRunning bool
	// Debounce makes an enqueue that finds its key's job pending move the
	// job's run_after to this enqueue's RunAfter, but never past
	// MaxDelay after the job was created: the job runs once a burst of
	// enqueues has been quiet for RunAfter - now, and a burst that never
	// ends still gets a run every MaxDelay. Without it, the first enqueue's
	// RunAfter holds.
	Debounce bool
	MaxDelay time.Duration
}

// Job is a stored job.
type Job struct {
	Tenant      string
	ID          string
	Kind        string
	Key         string
	Generation  int64 // 1, 2, ... for successive jobs with the same key; 0 without a key
	Payload     json.RawMessage
	SessionID   string
	UserID      string
	Status      JobStatus
	Attempts    int // claims so far, including the current one while running
	MaxAttempts int
	LastError   string
	RunAfter    time.Time
	LeaseOwner  string // the worker holding (or that last held) the job
	LeaseUntil  time.Time
	CreatedAt   time.Time
	UpdatedAt   time.Time
	StartedAt   time.Time // start of the latest attempt
	FinishedAt  time.Time
	RequestID   string // the request that caused it, when one did
	Result      map[string]any
	// Usage is the LLM usage of all the job's attempts (RecordJobUsage).
	Usage Usage
	// DeferredReason says why a pending job waits for its run_after
	// without having failed (a token budget); empty otherwise.
	DeferredReason string
}

// Decode unmarshals the job's payload into v.
func (j Job) Decode(v any) error {
	if len(j.Payload) == 0 {
		return fmt.Errorf("job %q: %w: empty payload", j.ID, ErrInvalid)
	}
	if err := json.Unmarshal(j.Payload, v); err != nil {
		return fmt.Errorf("job %q: %w: payload: %w", j.ID, ErrInvalid, err)
	}
	return nil
}

// Active reports whether the job is pending or running.
func (j Job) Active() bool { return j.Status == JobPending || j.Status == JobRunning }

// JobFilter narrows ListJobs; empty fields match everything.
type JobFilter struct {
	Status    JobStatus
	Kind      string
	SessionID string
	Limit     int // default 50, at most 1000
}

// EnqueueJob adds a job, or returns the pending or running job that already
// has the spec's key (created=false; the stored payload is kept, first
// enqueue wins). A done or failed job does not block a new one.
//
// Deduplication without an extra constraint: a keyed job's id is derived
// from kind, key and a generation number ("kind:key:00000003"), so the
// (tenant, id) uniqueness constraint makes concurrent creations of the same
// generation collapse into one node. To move to the next generation, the
// transaction write-locks the latest generation and re-reads it: enqueuers
// (and RetryJob) of one key serialize on that lock, so at most one job per
// key is ever pending or running, across any number of replicas.
func (s *Store) EnqueueJob(ctx context.Context, tenant string, spec JobSpec) (Job, bool, error) {
	params, err := jobCreateParams(tenant, spec)
	if err != nil {
		return Job{}, false, fmt.Errorf("enqueue job: %w", err)
	}
	type enqueued struct {
		job     Job
		created bool
	}
	out, err := writeTx(ctx, s, "job.enqueue", func(tx neo4j.ManagedTransaction) (enqueued, error) {
		if spec.Key == "" {
			j, _, err := mergeJob(ctx, tx, params, spec.Kind+":"+jobToken(), 0)
			return enqueued{j, true}, err
		}
		prefix := jobKeyPrefix(spec.Kind, spec.Key)
		// Each round either returns or observes a newer generation that
		// another transaction committed meanwhile; a handful is plenty.
		for range 8 {
			latest, gen, err := latestJobID(ctx, tx, tenant, prefix)
			if err != nil {
				return enqueued{}, err
			}
			if latest != "" {
				cur, err := lockJob(ctx, tx, tenant, latest)
				if err != nil {
					return enqueued{}, err
				}
				again, _, err := latestJobID(ctx, tx, tenant, prefix)
				if err != nil {
					return enqueued{}, err
				}
				if again != latest {
					continue
				}
				if cur.Status == JobPending && spec.Debounce && !spec.RunAfter.IsZero() {
					cur, err = debounceJob(ctx, tx, tenant, cur.ID, spec)
					if err != nil {
						return enqueued{}, err
					}
				}
				if cur.Status == JobPending || (cur.Status == JobRunning && !spec.RequeueWhileRunning) {
					return enqueued{cur, false}, nil
				}
			}
			j, created, err := mergeJob(ctx, tx, params, fmt.Sprintf("%s%08d", prefix, gen+1), gen+1)
			if err != nil {
				return enqueued{}, err
			}
			if created || j.Active() {
				return enqueued{j, created}, nil
			}
		}
		return enqueued{}, fmt.Errorf("%w: key %q of kind %q kept changing", ErrConflict, spec.Key, spec.Kind)
	})
	return out.job, out.created, err
}

func jobCreateParams(tenant string, spec JobSpec) (map[string]any, error) {
	if tenant == "" {
		return nil, fmt.Errorf("%w: empty tenant", ErrInvalid)
	}
	if !jobKindPattern.MatchString(spec.Kind) {
		return nil, fmt.Errorf("%w: job kind %q must match %s", ErrInvalid, spec.Kind, jobKindPattern)
	}
	if len(spec.Key) > maxJobKey {
		return nil, fmt.Errorf("%w: job key longer than %d bytes", ErrInvalid, maxJobKey)
	}
	maxAttempts := spec.MaxAttempts
	if maxAttempts == 0 {
		maxAttempts = DefaultJobMaxAttempts
	}
	if maxAttempts < 1 || maxAttempts > maxJobAttempts {
		return nil, fmt.Errorf("%w: max attempts %d must be within 1-%d", ErrInvalid, spec.MaxAttempts, maxJobAttempts)
	}
	var payload any
	if spec.Payload != nil {
		b, err := json.Marshal(spec.Payload)
		if err != nil {
			return nil, fmt.Errorf("%w: job payload: %w", ErrInvalid, err)
		}
		if len(b) > maxJobPayload {
			return nil, fmt.Errorf("%w: job payload is %d bytes, at most %d", ErrInvalid, len(b), maxJobPayload)
		}
		payload = string(b)
	}
	var runAfter any
	if !spec.RunAfter.IsZero() {
		runAfter = spec.RunAfter.UTC()
	}
	return map[string]any{
		"tenant": tenant, "kind": spec.Kind, "key": nilIfEmpty(spec.Key), "payload": payload,
		"session": nilIfEmpty(spec.SessionID), "user": nilIfEmpty(spec.UserID),
		"max_attempts": int64(maxAttempts), "run_after": runAfter, "request_id": nilIfEmpty(truncateUTF8(spec.RequestID, 64)),
	}, nil
}

// jobKeyPrefix is the id prefix shared by every generation of a key. Short
// keys of safe characters stay readable in Neo4j Browser; others are hashed.
// "~" cannot occur in a readable key, so the two forms never collide, and
// neither contains ":", so one key's prefix never matches another key's ids.
func jobKeyPrefix(kind, key string) string {
	if jobRawKeyPattern.MatchString(key) {
		return kind + ":" + key + ":"
	}
	sum := sha256.Sum256([]byte(key))
	return kind + ":~" + hex.EncodeToString(sum[:16]) + ":"
}

func jobToken() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// latestJobID returns the newest generation of a key (ids sort by their
// zero-padded generation), using the (tenant, id) constraint's index.
func latestJobID(ctx context.Context, tx neo4j.ManagedTransaction, tenant, prefix string) (string, int64, error) {
	recs, err := runTx(ctx, tx, planOnce+`
		MATCH (j:Job) WHERE j.tenant = $tenant AND j.id STARTS WITH $prefix
		RETURN j.id AS id, j.generation AS generation ORDER BY j.id DESC LIMIT 1`,
		map[string]any{"tenant": tenant, "prefix": prefix})
	if err != nil || len(recs) == 0 {
		return "", 0, err
	}
	id, _ := get[string](recs[0], "id")
	gen, _ := get[int64](recs[0], "generation")
	return id, gen, nil
}

// lockJob write-locks a job for the rest of the transaction and returns it
// as it is once the lock is held.
func lockJob(ctx context.Context, tx neo4j.ManagedTransaction, tenant, id string) (Job, error) {
	recs, err := runTx(ctx, tx, planOnce+`
		MATCH (j:Job {tenant: $tenant, id: $id})
		SET j._lock = true REMOVE j._lock
		RETURN j`, map[string]any{"tenant": tenant, "id": id})
	if err != nil {
		return Job{}, err
	}
	if len(recs) == 0 {
		return Job{}, errs.NotFound("job %q", id)
	}
	return decodeJobRecord(recs[0])
}

// debounceJob moves a pending job's run_after to the spec's RunAfter,
// capped at its creation plus the spec's MaxDelay (never earlier than it
// was: a later enqueue only postpones). The caller holds the job's lock.
func debounceJob(ctx context.Context, tx neo4j.ManagedTransaction, tenant, id string, spec JobSpec) (Job, error) {
	recs, err := runTx(ctx, tx, planOnce+`
		MATCH (j:Job {tenant: $tenant, id: $id}) WHERE j.status = 'pending'
		WITH j, CASE WHEN $max_delay > 0 THEN j.created_at + duration({milliseconds: $max_delay}) ELSE $run_after END AS cap
		WITH j, CASE WHEN $run_after < cap THEN $run_after ELSE cap END AS target
		SET j.run_after = CASE WHEN target > j.run_after THEN target ELSE j.run_after END, j.updated_at = datetime()
		RETURN j`,
		map[string]any{"tenant": tenant, "id": id, "run_after": spec.RunAfter.UTC(), "max_delay": spec.MaxDelay.Milliseconds()})
	if err != nil {
		return Job{}, err
	}
	if len(recs) == 0 {
		return Job{}, errs.NotFound("job %q", id)
	}
	return decodeJobRecord(recs[0])
}

// mergeJob creates the job with this id, or returns the one that exists.
// created is true only for the transaction that created it: the others
// wait on the constraint's index lock, then match the committed node.
func mergeJob(ctx context.Context, tx neo4j.ManagedTransaction, base map[string]any, id string, gen int64) (Job, bool, error) {
	params := make(map[string]any, len(base)+3)
	for k, v := range base {
		params[k] = v
	}
	params["id"], params["generation"], params["token"] = id, gen, jobToken()
	recs, err := runTx(ctx, tx, planOnce+`
		MERGE (j:Job {tenant: $tenant, id: $id})
		ON CREATE SET j.kind = $kind, j.key = $key, j.generation = $generation, j.payload = $payload,
		              j.session_id = $session, j.user_id = $user, j.status = 'pending', j.request_id = $request_id,
		              j.attempts = 0, j.max_attempts = $max_attempts,
		              j.run_after = coalesce($run_after, datetime()),
		              j.created_at = datetime(), j.updated_at = datetime(), j._created = $token
		WITH j, j._created = $token AS created
		REMOVE j._created
		RETURN j, created`, params)
	if err != nil {
		return Job{}, false, err
	}
	if len(recs) != 1 {
		return Job{}, false, errNoRecords
	}
	j, err := decodeJobRecord(recs[0])
	created, _ := get[bool](recs[0], "created")
	return j, created, err
}

// ClaimFilter narrows which jobs a worker claims; empty fields match all.
type ClaimFilter struct {
	Kinds []string
	// Tenants dedicates a worker to some tenants (e.g. one whose jobs use
	// another LLM); empty means every tenant.
	Tenants []string
}

// ClaimJobs claims up to max runnable jobs matching the filter for owner,
// leasing them for lease: pending
// jobs whose run_after has come, and running jobs whose lease expired
// (their worker died). Each claim sets status running, the owner, the
// lease, started_at and attempts+1.
//
// Exclusivity: candidates are read without locks (oldest first, taken
// round-robin across tenants so one busy tenant cannot starve the others),
// then each is write-locked and re-checked inside the same transaction. A
// concurrent claimer that picked the same candidate blocks on the lock
// until the first commits, then sees it running with a live lease and
// skips it, so no job is ever claimed twice.
func (s *Store) ClaimJobs(ctx context.Context, owner string, filter ClaimFilter, max int, lease time.Duration) ([]Job, error) {
	if owner == "" || max <= 0 || lease < time.Millisecond {
		return nil, fmt.Errorf("claim jobs: %w: need an owner, max > 0 and a lease of at least 1ms", ErrInvalid)
	}
	window := min(max*4+16, maxClaimWindow)
	var kindParam, tenantParam any
	if len(filter.Kinds) > 0 {
		kindParam = filter.Kinds
	}
	if len(filter.Tenants) > 0 {
		tenantParam = filter.Tenants
	}
	return writeTx(ctx, s, "job.claim", func(tx neo4j.ManagedTransaction) ([]Job, error) {
		recs, err := runTx(ctx, tx, planOnce+`
			CALL () {
			  MATCH (j:Job) USING INDEX j:Job(status, run_after)
			  WHERE j.status = 'pending' AND j.run_after <= datetime()
			    AND ($kinds IS NULL OR j.kind IN $kinds) AND ($tenants IS NULL OR j.tenant IN $tenants)
			  RETURN j.tenant AS tenant, j.id AS id, j.run_after AS due ORDER BY due LIMIT $window
			  UNION ALL
			  MATCH (j:Job) USING INDEX j:Job(status, run_after)
			  WHERE j.status = 'running' AND j.run_after IS NOT NULL AND j.lease_until < datetime()
			    AND ($kinds IS NULL OR j.kind IN $kinds) AND ($tenants IS NULL OR j.tenant IN $tenants)
			  RETURN j.tenant AS tenant, j.id AS id, j.lease_until AS due ORDER BY due LIMIT $window
			}
			RETURN tenant, id ORDER BY due, tenant, id LIMIT $window`,
			map[string]any{"kinds": kindParam, "tenants": tenantParam, "window": int64(window)})
		if err != nil {
			return nil, err
		}
		cands := make([]jobRef, 0, len(recs))
		for _, rec := range recs {
			t, _ := get[string](rec, "tenant")
			id, _ := get[string](rec, "id")
			cands = append(cands, jobRef{t, id})
		}
		claimed := make([]Job, 0, max)
		for _, c := range fairOrder(cands) {
			if len(claimed) == max {
				break
			}
			// A lease that expired on the last allowed attempt means every
			// worker that took the job died with it (a crash, an OOM kill):
			// running it again would take the next one down too, so it fails.
			recs, err := runTx(ctx, tx, planOnce+`
				MATCH (j:Job {tenant: $tenant, id: $id})
				SET j._lock = true REMOVE j._lock
				WITH j WHERE (j.status = 'pending' AND j.run_after <= datetime())
				          OR (j.status = 'running' AND j.lease_until < datetime())
				WITH j, j.status = 'running' AND j.attempts >= j.max_attempts AS exhausted
				FOREACH (_ IN CASE WHEN exhausted THEN [1] ELSE [] END |
				  SET j.status = 'failed', j.finished_at = datetime(), j.lease_until = null, j.updated_at = datetime(),
				      j.last_error = 'the worker running attempt ' + toString(j.attempts) + ' of ' + toString(j.max_attempts) +
				        ' stopped before finishing (crash, kill or restart); retry the job once the cause is fixed' +
				        coalesce('; earlier error: ' + j.last_error, ''))
				FOREACH (_ IN CASE WHEN exhausted THEN [] ELSE [1] END |
				  SET j.status = 'running', j.lease_owner = $owner,
				      j.lease_until = datetime() + duration({milliseconds: $lease_ms}),
				      j.attempts = j.attempts + 1, j.started_at = datetime(), j.updated_at = datetime())
				RETURN j, exhausted`,
				map[string]any{"tenant": c.tenant, "id": c.id, "owner": owner, "lease_ms": lease.Milliseconds()})
			if err != nil {
				return nil, err
			}
			if len(recs) != 1 {
				continue // claimed or finished by someone else meanwhile
			}
			if exhausted, _ := get[bool](recs[0], "exhausted"); exhausted {
				s.log.Warn("job failed: its lease expired on the last attempt", "tenant", c.tenant, "job", c.id)
				continue
			}
			j, err := decodeJobRecord(recs[0])
			if err != nil {
				return nil, err
			}
			claimed = append(claimed, j)
		}
		return claimed, nil
	})
}

type jobRef struct{ tenant, id string }

// fairOrder interleaves candidates round-robin by tenant, tenants in order
// of their oldest candidate, each tenant's jobs oldest first.
func fairOrder(cands []jobRef) []jobRef {
	var tenants []string
	byTenant := map[string][]jobRef{}
	for _, c := range cands {
		if _, ok := byTenant[c.tenant]; !ok {
			tenants = append(tenants, c.tenant)
		}
		byTenant[c.tenant] = append(byTenant[c.tenant], c)
	}
	out := make([]jobRef, 0, len(cands))
	for round := 0; len(out) < len(cands); round++ {
		for _, t := range tenants {
			if round < len(byTenant[t]) {
				out = append(out, byTenant[t][round])
			}
		}
	}
	return out
}

// RenewLease extends the lease of a running job owner holds. ErrConflict
// means the job is no longer the owner's (finished, or re-claimed after the
// lease expired): the worker should stop and record nothing.
//
// The tenant is a parameter (the lead's sketch had none) because jobs are
// unique per (tenant, id) and that index needs the tenant to be used.
func (s *Store) RenewLease(ctx context.Context, tenant, jobID, owner string, lease time.Duration) error {
	if lease < time.Millisecond {
		return fmt.Errorf("renew lease: %w: lease must be at least 1ms", ErrInvalid)
	}
	_, err := s.ownedTransition(ctx, "job.renew", tenant, jobID, owner, `
		SET j.lease_until = datetime() + duration({milliseconds: $lease_ms}), j.updated_at = datetime()`,
		map[string]any{"lease_ms": lease.Milliseconds()})
	return err
}

// CompleteJob marks a running job owner holds as done with a short result.
// ErrConflict means it is no longer the owner's.
func (s *Store) CompleteJob(ctx context.Context, tenant, jobID, owner string, result map[string]any) error {
	var res any
	if len(result) > 0 {
		b, err := json.Marshal(result)
		if err != nil {
			return fmt.Errorf("complete job %q: %w: result: %w", jobID, ErrInvalid, err)
		}
		if len(b) > maxJobResult {
			b = fmt.Appendf(nil, `{"truncated":true,"bytes":%d}`, len(b))
		}
		res = string(b)
	}
	_, err := s.ownedTransition(ctx, "job.complete", tenant, jobID, owner, `
		SET j.status = 'done', j.result = $result, j.lease_until = null, j.deferred_reason = null,
		    j.finished_at = datetime(), j.updated_at = datetime()`,
		map[string]any{"result": res})
	return err
}

// FailJob records a failed attempt of a running job owner holds. The job
// goes back to pending with run_after = retryAt, or to failed for good when
// permanent is set or it has used max_attempts. last_error keeps a short
// message. ErrConflict means it is no longer the owner's.
func (s *Store) FailJob(ctx context.Context, tenant, jobID, owner string, cause error, retryAt time.Time, permanent bool) error {
	msg := "unknown error"
	if cause != nil {
		msg = truncateUTF8(cause.Error(), maxJobError)
	}
	if retryAt.IsZero() {
		retryAt = time.Now()
	}
	_, err := s.ownedTransition(ctx, "job.fail", tenant, jobID, owner, `
		WITH j, ($permanent OR j.attempts >= j.max_attempts) AS final
		SET j.status = CASE WHEN final THEN 'failed' ELSE 'pending' END,
		    j.run_after = CASE WHEN final THEN j.run_after ELSE $retry_at END,
		    j.finished_at = CASE WHEN final THEN datetime() ELSE null END,
		    j.last_error = $error, j.lease_until = null, j.deferred_reason = null, j.updated_at = datetime()`,
		map[string]any{"permanent": permanent, "retry_at": retryAt.UTC(), "error": msg})
	return err
}

// ownedTransition locks a job, checks that owner holds it (running, our
// lease_owner), and only then applies update, in one transaction.
func (s *Store) ownedTransition(ctx context.Context, op, tenant, jobID, owner, update string, extra map[string]any) (Job, error) {
	if tenant == "" || jobID == "" || owner == "" {
		return Job{}, fmt.Errorf("%s: %w: tenant, job id and owner are required", op, ErrInvalid)
	}
	params := map[string]any{"tenant": tenant, "id": jobID, "owner": owner}
	for k, v := range extra {
		params[k] = v
	}
	return writeTx(ctx, s, op, func(tx neo4j.ManagedTransaction) (Job, error) {
		cur, err := lockJob(ctx, tx, tenant, jobID)
		if err != nil {
			return Job{}, err
		}
		if cur.Status != JobRunning || cur.LeaseOwner != owner {
			return cur, fmt.Errorf("job %q: %w: %s, held by %q, not %q", jobID, ErrConflict, cur.Status, cur.LeaseOwner, owner)
		}
		recs, err := runTx(ctx, tx, planOnce+`
			MATCH (j:Job {tenant: $tenant, id: $id})
			`+update+`
			RETURN j`, params)
		if err != nil {
			return Job{}, err
		}
		if len(recs) != 1 {
			return Job{}, errNoRecords
		}
		return decodeJobRecord(recs[0])
	})
}

// GetJob returns one job of the tenant, or ErrNotFound.
func (s *Store) GetJob(ctx context.Context, tenant, id string) (Job, error) {
	res, err := s.read(ctx, "job.get", planOnce+`MATCH (j:Job {tenant: $tenant, id: $id}) RETURN j`,
		map[string]any{"tenant": tenant, "id": id})
	if err != nil {
		return Job{}, err
	}
	if len(res.Records) == 0 {
		return Job{}, errs.NotFound("job %q", id)
	}
	return decodeJobRecord(res.Records[0])
}

// ListJobs returns the tenant's jobs matching filter, newest first.
func (s *Store) ListJobs(ctx context.Context, tenant string, filter JobFilter) ([]Job, error) {
	switch filter.Status {
	case "", JobPending, JobRunning, JobDone, JobFailed:
	default:
		return nil, fmt.Errorf("list jobs: %w: status %q", ErrInvalid, filter.Status)
	}
	limit := filter.Limit
	if limit <= 0 {
		limit = 50
	}
	limit = min(limit, maxJobListLimit)
	res, err := s.read(ctx, "job.list", planOnce+`
		MATCH (j:Job) USING INDEX j:Job(tenant, id)
		WHERE j.tenant = $tenant AND j.id IS NOT NULL AND ($status IS NULL OR j.status = $status) AND ($kind IS NULL OR j.kind = $kind)
		  AND ($session IS NULL OR j.session_id = $session)
		RETURN j ORDER BY j.created_at DESC, j.id DESC LIMIT $limit`,
		map[string]any{"tenant": tenant, "status": nilIfEmpty(string(filter.Status)), "kind": nilIfEmpty(filter.Kind),
			"session": nilIfEmpty(filter.SessionID), "limit": int64(limit)})
	if err != nil {
		return nil, err
	}
	out := make([]Job, 0, len(res.Records))
	for _, rec := range res.Records {
		j, err := decodeJobRecord(rec)
		if err != nil {
			return nil, fmt.Errorf("list jobs: %w", err)
		}
		out = append(out, j)
	}
	return out, nil
}

// CountActiveJobs counts the tenant's pending and running jobs, of one
// session when sessionID is set; close?wait=true polls it.
func (s *Store) CountActiveJobs(ctx context.Context, tenant, sessionID string) (int, error) {
	// A session's count seeks the (tenant, session_id, status) index: it
	// reads that session's jobs only, however many other jobs are queued
	// (a scale run closes hundreds of sessions at once, and every close
	// with wait polls this).
	cypher := `
		MATCH (j:Job) USING INDEX j:Job(status, run_after)
		WHERE j.status IN ['pending', 'running'] AND j.run_after IS NOT NULL AND j.tenant = $tenant
		RETURN count(j) AS n`
	if sessionID != "" {
		cypher = `
		MATCH (j:Job) USING INDEX j:Job(tenant, session_id, status)
		WHERE j.tenant = $tenant AND j.session_id = $session AND j.status IN ['pending', 'running']
		RETURN count(j) AS n`
	}
	res, err := s.read(ctx, "job.count_active", planOnce+cypher,
		map[string]any{"tenant": tenant, "session": sessionID})
	if err != nil {
		return 0, err
	}
	if len(res.Records) == 0 {
		return 0, nil
	}
	n, err := get[int64](res.Records[0], "n")
	return int(n), err
}

// RetryJob puts a failed job back to pending with its attempts reset, for
// operators. Only failed jobs can be retried (ErrConflict otherwise), and a
// keyed job only while it is its key's newest generation: a newer job with
// the same key already redid (or is redoing) the work, and reviving the old
// one would give the key two active jobs.
func (s *Store) RetryJob(ctx context.Context, tenant, id string) (Job, error) {
	return writeTx(ctx, s, "job.retry", func(tx neo4j.ManagedTransaction) (Job, error) {
		cur, err := lockJob(ctx, tx, tenant, id)
		if err != nil {
			return Job{}, err
		}
		if cur.Status != JobFailed {
			return Job{}, errs.Conflict("job %q: only failed jobs can be retried, it is %s", id, cur.Status)
		}
		if cur.Key != "" {
			latest, _, err := latestJobID(ctx, tx, tenant, jobKeyPrefix(cur.Kind, cur.Key))
			if err != nil {
				return Job{}, err
			}
			if latest != id {
				return Job{}, errs.Conflict("job %q: superseded by job %q with the same key", id, latest)
			}
		}
		recs, err := runTx(ctx, tx, planOnce+`
			MATCH (j:Job {tenant: $tenant, id: $id})
			SET j.status = 'pending', j.attempts = 0, j.run_after = datetime(), j.finished_at = null,
			    j.lease_until = null, j.updated_at = datetime()
			RETURN j`, map[string]any{"tenant": tenant, "id": id})
		if err != nil {
			return Job{}, err
		}
		if len(recs) != 1 {
			return Job{}, errNoRecords
		}
		return decodeJobRecord(recs[0])
	})
}

func decodeJobRecord(rec *neo4j.Record) (Job, error) {
	node, err := get[dbtype.Node](rec, "j")
	if err != nil {
		return Job{}, fmt.Errorf("decode job: %w", err)
	}
	if node.Props == nil {
		return Job{}, fmt.Errorf("decode job: %w", errNoRecords)
	}
	p := node.Props
	j := Job{
		Tenant: str(p, "tenant"), ID: str(p, "id"), Kind: str(p, "kind"), Key: str(p, "key"),
		Generation: i64(p, "generation"), SessionID: str(p, "session_id"), UserID: str(p, "user_id"),
		Status: JobStatus(str(p, "status")), Attempts: int(i64(p, "attempts")), MaxAttempts: int(i64(p, "max_attempts")),
		LastError: str(p, "last_error"), RunAfter: tm(p, "run_after"), LeaseOwner: str(p, "lease_owner"),
		LeaseUntil: tm(p, "lease_until"), CreatedAt: tm(p, "created_at"), UpdatedAt: tm(p, "updated_at"),
		StartedAt: tm(p, "started_at"), FinishedAt: tm(p, "finished_at"), RequestID: str(p, "request_id"),
		Usage:          decodeUsage(p, "usage_calls", "usage_embed_calls", "usage_prompt_tokens", "usage_completion_tokens"),
		DeferredReason: str(p, "deferred_reason"),
	}
	if v := str(p, "payload"); v != "" {
		j.Payload = json.RawMessage(v)
	}
	if v := str(p, "result"); v != "" {
		if err := json.Unmarshal([]byte(v), &j.Result); err != nil {
			return j, fmt.Errorf("decode job %q result: %w", j.ID, err)
		}
	}
	return j, nil
}

// truncateUTF8 cuts s to at most n bytes without splitting a rune.
func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
