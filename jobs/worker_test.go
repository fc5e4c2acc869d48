package jobs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Statuses of the fake queue's jobs, as a real store keeps them.
const (
	statusPending = "pending"
	statusRunning = "running"
	statusDone    = "done"
	statusFailed  = "failed"
)

// errQueueDown is a store outage.
var errQueueDown = errors.New("queue unavailable")

// fakeJob is a job with the state a real store keeps beside it.
type fakeJob struct {
	Job
	Status     string
	RunAfter   time.Time
	LeaseOwner string
	LeaseUntil time.Time
	LastError  string
	Result     map[string]any
}

// fakeJobs is an in-memory Store with a real store's rules (claim
// pending-and-due or expired-lease jobs, owner checks, max attempts) and a
// record of what the worker asked.
type fakeJobs struct {
	mu        sync.Mutex
	jobs      []*fakeJob
	claims    int
	claimErrs int // fail this many claims first
	renewErr  error
	renews    int
	completed map[string]map[string]any
	failures  []fakeFailure
}

type fakeFailure struct {
	id        string
	cause     error
	retryAt   time.Time
	permanent bool
}

func newFakeJobs() *fakeJobs { return &fakeJobs{completed: map[string]map[string]any{}} }

func (f *fakeJobs) add(kind string, maxAttempts int) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	id := fmt.Sprint(kind, "-", len(f.jobs))
	f.jobs = append(f.jobs, &fakeJob{Job: Job{Tenant: "t1", ID: id, Kind: kind, MaxAttempts: maxAttempts},
		Status: statusPending, RunAfter: time.Now().Add(-time.Second)})
	return id
}

func (f *fakeJobs) job(id string) fakeJob {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, j := range f.jobs {
		if j.ID == id {
			return *j
		}
	}
	return fakeJob{}
}

func (f *fakeJobs) snapshot() (claims, renews int, completed map[string]map[string]any, failures []fakeFailure) {
	f.mu.Lock()
	defer f.mu.Unlock()
	completed = make(map[string]map[string]any, len(f.completed))
	for k, v := range f.completed {
		completed[k] = v
	}
	return f.claims, f.renews, completed, append([]fakeFailure(nil), f.failures...)
}

func (f *fakeJobs) ClaimJobs(_ context.Context, owner string, filter ClaimFilter, max int, lease time.Duration) ([]Job, error) {
	kinds := filter.Kinds
	f.mu.Lock()
	defer f.mu.Unlock()
	f.claims++
	if f.claimErrs > 0 {
		f.claimErrs--
		return nil, fmt.Errorf("claim: %w", errQueueDown)
	}
	now := time.Now()
	var out []Job
	for _, j := range f.jobs {
		if len(out) == max {
			break
		}
		due := j.Status == statusPending && !j.RunAfter.After(now) ||
			j.Status == statusRunning && j.LeaseUntil.Before(now)
		if !due || !slices.Contains(kinds, j.Kind) {
			continue
		}
		j.Status, j.LeaseOwner, j.LeaseUntil = statusRunning, owner, now.Add(lease)
		j.Attempts++
		out = append(out, j.Job)
	}
	return out, nil
}

// owned returns the job if owner holds it, or the error Store's contract
// asks for.
func (f *fakeJobs) owned(id, owner string) (*fakeJob, error) {
	for _, j := range f.jobs {
		if j.ID == id {
			if j.Status != statusRunning || j.LeaseOwner != owner {
				return nil, fmt.Errorf("job %s held by %s: %w", id, j.LeaseOwner, ErrLeaseLost)
			}
			return j, nil
		}
	}
	return nil, fmt.Errorf("job %s is gone: %w", id, ErrLeaseLost)
}

func (f *fakeJobs) RenewLease(_ context.Context, _, id, owner string, lease time.Duration) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.renews++
	if f.renewErr != nil {
		return f.renewErr
	}
	j, err := f.owned(id, owner)
	if err != nil {
		return err
	}
	j.LeaseUntil = time.Now().Add(lease)
	return nil
}

func (f *fakeJobs) CompleteJob(_ context.Context, _, id, owner string, result map[string]any) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	j, err := f.owned(id, owner)
	if err != nil {
		return err
	}
	j.Status, j.Result = statusDone, result
	f.completed[id] = result
	return nil
}

func (f *fakeJobs) FailJob(_ context.Context, _, id, owner string, cause error, retryAt time.Time, permanent bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	j, err := f.owned(id, owner)
	if err != nil {
		return err
	}
	f.failures = append(f.failures, fakeFailure{id, cause, retryAt, permanent})
	j.LastError = cause.Error()
	if permanent || j.Attempts >= j.MaxAttempts {
		j.Status = statusFailed
	} else {
		j.Status, j.RunAfter = statusPending, retryAt
	}
	return nil
}

// deferringJobs is fakeJobs that can also defer (a Deferrer), as the
// service's queue can.
type deferringJobs struct {
	*fakeJobs
	deferred []string // reasons
}

func (f *deferringJobs) DeferJob(_ context.Context, _, id, owner string, until time.Time, reason string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	j, err := f.owned(id, owner)
	if err != nil {
		return err
	}
	f.deferred = append(f.deferred, reason)
	j.Status, j.RunAfter, j.Attempts, j.LastError = statusPending, until, j.Attempts-1, reason
	return nil
}

// workerLogBuffer is a log sink safe for concurrent handlers.
type workerLogBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *workerLogBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *workerLogBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// testWorker returns a fast-polling worker over store and its log.
func testWorker(store Store, cfg Config) (*Worker, *workerLogBuffer) {
	if cfg.PollInterval == 0 {
		cfg.PollInterval = 10 * time.Millisecond
	}
	if cfg.Owner == "" {
		cfg.Owner = "w1"
	}
	logs := &workerLogBuffer{}
	return NewWorker(store, cfg, slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))), logs
}

// runWorker starts w and returns a stop function that cancels it and waits.
func runWorker(t *testing.T, w *Worker) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Run: %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Errorf("Run did not return")
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

func workerEventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestRetryDelay(t *testing.T) {
	t.Parallel()
	base, maxDelay := 2*time.Second, time.Minute
	cases := []struct {
		attempt  int
		r        float64
		min, max time.Duration
	}{
		{attempt: 1, r: 0, min: time.Second, max: time.Second},
		{attempt: 1, r: 0.999, min: time.Second, max: 2 * time.Second},
		{attempt: 0, r: 0, min: time.Second, max: time.Second}, // treated as the first attempt
		{attempt: 2, r: 0.5, min: 3 * time.Second, max: 3 * time.Second},
		{attempt: 3, r: 0, min: 4 * time.Second, max: 4 * time.Second},
		{attempt: 5, r: 0.999, min: 16 * time.Second, max: 32 * time.Second},
		{attempt: 6, r: 0, min: 30 * time.Second, max: 30 * time.Second}, // 64s nominal, capped at 60s
		{attempt: 6, r: 0.999, min: 30 * time.Second, max: time.Minute},
		{attempt: 70, r: 0.5, min: 45 * time.Second, max: 45 * time.Second}, // no overflow
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.attempt, "/", c.r), func(t *testing.T) {
			got := retryDelay(c.attempt, base, maxDelay, c.r)
			if got < c.min || got > c.max {
				t.Fatalf("retryDelay(%d, r=%v) = %v, want within [%v, %v]", c.attempt, c.r, got, c.min, c.max)
			}
		})
	}
}

func TestIsPermanent(t *testing.T) {
	t.Parallel()
	base := errors.New("bad prompt")
	cases := []struct {
		name string
		err  error
		want bool
	}{
		{"marked", Permanent(base), true},
		{"marked and wrapped", fmt.Errorf("extract: %w", Permanent(base)), true},
		{"unavailable", fmt.Errorf("llm: %w", errQueueDown), false},
		{"plain", base, false},
		{"timeout", context.DeadlineExceeded, false},
		{"nil", nil, false},
	}
	for _, c := range cases {
		if got := IsPermanent(c.err); got != c.want {
			t.Errorf("%s: IsPermanent = %v, want %v", c.name, got, c.want)
		}
	}
	if Permanent(nil) != nil {
		t.Error("Permanent(nil) != nil")
	}
	if !errors.Is(Permanent(base), base) || Permanent(base).Error() != base.Error() {
		t.Error("Permanent hides its cause")
	}
}

func TestNewWorkerDefaults(t *testing.T) {
	t.Parallel()
	w := NewWorker(newFakeJobs(), Config{}, nil)
	c := w.cfg
	if !strings.Contains(c.Owner, fmt.Sprint("-", os.Getpid(), "-")) || c.Concurrency != 2 || c.PollInterval != 2*time.Second ||
		c.Lease != 30*time.Second || c.BaseBackoff != 2*time.Second || c.MaxBackoff != 5*time.Minute ||
		c.DrainTimeout != 15*time.Second || c.JobTimeout != 10*time.Minute {
		t.Fatalf("defaults = %+v", c)
	}
	if other := NewWorker(newFakeJobs(), Config{}, nil); other.Owner() == w.Owner() {
		t.Fatalf("two workers share owner %s", w.Owner())
	}
	for range 100 {
		if d := w.pollDelay(); d < 1600*time.Millisecond || d > 2400*time.Millisecond {
			t.Fatalf("poll delay %v outside 2s ±20%%", d)
		}
	}
}

func TestWorkerRunNeedsHandlers(t *testing.T) {
	t.Parallel()
	w, _ := testWorker(newFakeJobs(), Config{})
	if err := w.Run(t.Context()); !errors.Is(err, ErrNoHandlers) {
		t.Fatalf("Run without handlers: %v, want ErrNoHandlers", err)
	}
}

func TestWorkerCompletesJobs(t *testing.T) {
	t.Parallel()
	store := newFakeJobs()
	var observed atomic.Int32
	w, _ := testWorker(store, Config{Observe: func(kind string, d time.Duration, err error) {
		if kind != "ok" || err != nil || d < 0 {
			t.Errorf("observe(%s, %v, %v)", kind, d, err)
		}
		observed.Add(1)
	}})
	w.Handle("ok", func(_ context.Context, j Job) (map[string]any, error) {
		return map[string]any{"id": j.ID}, nil
	})
	ids := []string{store.add("ok", 3), store.add("ok", 3), store.add("ok", 3)}
	other := store.add("unhandled", 3)
	runWorker(t, w)
	workerEventually(t, "three completions", func() bool { _, _, done, _ := store.snapshot(); return len(done) == 3 })
	_, _, done, failures := store.snapshot()
	for _, id := range ids {
		if done[id]["id"] != id {
			t.Errorf("job %s result = %v", id, done[id])
		}
	}
	if len(failures) != 0 || store.job(other).Status != statusPending {
		t.Errorf("failures %v; unhandled kind status %s", failures, store.job(other).Status)
	}
	workerEventually(t, "observations", func() bool { return observed.Load() == 3 })
}

func TestWorkerTransientFailureBacksOff(t *testing.T) {
	t.Parallel()
	store := newFakeJobs()
	fixed := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	w, logs := testWorker(store, Config{BaseBackoff: 2 * time.Second, MaxBackoff: time.Minute})
	w.now = func() time.Time { return fixed }
	w.jitter = func() float64 { return 0.5 }
	w.Handle("flaky", func(context.Context, Job) (map[string]any, error) {
		return nil, fmt.Errorf("summarize: %w", errQueueDown)
	})
	id := store.add("flaky", 3)
	runWorker(t, w)
	workerEventually(t, "a failure", func() bool { _, _, _, f := store.snapshot(); return len(f) == 1 })
	_, _, _, failures := store.snapshot()
	f := failures[0]
	// Attempt 1: nominal 2s, equal jitter at 0.5 → 1.5s.
	if f.id != id || f.permanent || !f.retryAt.Equal(fixed.Add(1500*time.Millisecond)) || !errors.Is(f.cause, errQueueDown) {
		t.Fatalf("failure = %+v", f)
	}
	if j := store.job(id); j.Status != statusPending || j.LastError == "" {
		t.Fatalf("job after transient failure = %+v", j)
	}
	out := logs.String()
	if strings.Count(out, "job failed") != 1 || !strings.Contains(out, "will retry") ||
		!strings.Contains(out, "job="+id) || !strings.Contains(out, "attempt=1") || !strings.Contains(out, "tenant=t1") {
		t.Fatalf("log:\n%s", out)
	}
}

func TestWorkerGivesUpAfterMaxAttempts(t *testing.T) {
	t.Parallel()
	store := newFakeJobs()
	w, logs := testWorker(store, Config{BaseBackoff: time.Millisecond, MaxBackoff: time.Millisecond})
	var calls atomic.Int32
	w.Handle("flaky", func(context.Context, Job) (map[string]any, error) {
		calls.Add(1)
		return nil, errors.New("still broken")
	})
	id := store.add("flaky", 3)
	runWorker(t, w)
	workerEventually(t, "the job to fail for good", func() bool { return store.job(id).Status == statusFailed })
	if j := store.job(id); j.Attempts != 3 || calls.Load() != 3 || j.LastError != "still broken" {
		t.Fatalf("job = %+v after %d calls", j, calls.Load())
	}
	out := logs.String()
	if strings.Count(out, "will retry") != 2 || strings.Count(out, "job failed for good") != 1 {
		t.Fatalf("log:\n%s", out)
	}
}

func TestWorkerPermanentErrorsFailAtOnce(t *testing.T) {
	t.Parallel()
	cases := map[string]error{
		"marked":         Permanent(errors.New("schema mismatch")),
		"marked wrapped": fmt.Errorf("write facts: %w", Permanent(errors.New("bad payload"))),
	}
	for name, herr := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			store := newFakeJobs()
			w, logs := testWorker(store, Config{})
			w.Handle("bad", func(context.Context, Job) (map[string]any, error) { return nil, herr })
			id := store.add("bad", 5)
			runWorker(t, w)
			workerEventually(t, "the failure", func() bool { return store.job(id).Status == statusFailed })
			_, _, _, failures := store.snapshot()
			if len(failures) != 1 || !failures[0].permanent || store.job(id).Attempts != 1 {
				t.Fatalf("failures = %+v", failures)
			}
			if !strings.Contains(logs.String(), "job failed for good") {
				t.Fatalf("log:\n%s", logs)
			}
		})
	}
}

func TestWorkerRecoversPanics(t *testing.T) {
	t.Parallel()
	store := newFakeJobs()
	var observedErr atomic.Value
	w, logs := testWorker(store, Config{Concurrency: 1, Observe: func(_ string, _ time.Duration, err error) {
		if err != nil {
			observedErr.Store(err.Error())
		}
	}})
	w.Handle("boom", func(_ context.Context, j Job) (map[string]any, error) {
		if strings.HasSuffix(j.ID, "-0") {
			panic("kaboom")
		}
		return nil, nil
	})
	bad, good := store.add("boom", 3), store.add("boom", 3)
	runWorker(t, w)
	workerEventually(t, "the next job after the panic", func() bool { _, _, done, _ := store.snapshot(); return len(done) == 1 })
	_, _, done, failures := store.snapshot()
	if _, ok := done[good]; !ok || len(failures) != 1 || failures[0].id != bad || failures[0].permanent {
		t.Fatalf("done %v, failures %+v", done, failures)
	}
	if j := store.job(bad); j.LastError != "handler panic: kaboom" {
		t.Fatalf("last error %q", j.LastError)
	}
	if !strings.Contains(logs.String(), "worker_test.go") || observedErr.Load() != "handler panic: kaboom" {
		t.Fatalf("the stack should be logged; observed %v; log:\n%s", observedErr.Load(), logs)
	}
}

func TestWorkerRenewsLeaseWhileRunning(t *testing.T) {
	t.Parallel()
	store := newFakeJobs()
	w, _ := testWorker(store, Config{Lease: 300 * time.Millisecond})
	w.Handle("slow", func(ctx context.Context, _ Job) (map[string]any, error) {
		select {
		case <-time.After(time.Second):
			return map[string]any{"ok": true}, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	id := store.add("slow", 3)
	runWorker(t, w)
	workerEventually(t, "completion", func() bool { return store.job(id).Status == statusDone })
	// Without renewals (every 100ms) the 300ms lease would have expired and
	// the job been re-claimed (attempts 2) during the 1s run.
	if _, renews, _, _ := store.snapshot(); renews < 3 || store.job(id).Attempts != 1 {
		t.Fatalf("%d renewals, attempts %d", renews, store.job(id).Attempts)
	}
}

func TestWorkerLeaseLostCancelsHandler(t *testing.T) {
	t.Parallel()
	store := newFakeJobs()
	errTaken := errors.New("held by another worker")
	store.renewErr = fmt.Errorf("renew: %w: %w", ErrLeaseLost, errTaken)
	w, logs := testWorker(store, Config{Lease: 60 * time.Millisecond, JobTimeout: time.Minute})
	cancelled := make(chan error, 1)
	w.Handle("long", func(ctx context.Context, _ Job) (map[string]any, error) {
		<-ctx.Done()
		cancelled <- context.Cause(ctx)
		return nil, ctx.Err()
	})
	id := store.add("long", 3)
	runWorker(t, w)
	select {
	case cause := <-cancelled:
		if !errors.Is(cause, ErrLeaseLost) || !errors.Is(cause, errTaken) {
			t.Fatalf("handler cancelled by %v", cause)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("handler not cancelled after the lease was lost")
	}
	workerEventually(t, "the log line", func() bool { return strings.Contains(logs.String(), "lease lost") })
	// The worker records nothing: the job is someone else's now.
	if _, _, done, failures := store.snapshot(); len(done) != 0 || len(failures) != 0 || store.job(id).Status != statusRunning {
		t.Fatalf("done %v, failures %v, status %s", done, failures, store.job(id).Status)
	}
}

func TestWorkerBoundsConcurrency(t *testing.T) {
	t.Parallel()
	store := newFakeJobs()
	w, _ := testWorker(store, Config{Concurrency: 3})
	var running, peak atomic.Int32
	release := make(chan struct{})
	w.Handle("busy", func(context.Context, Job) (map[string]any, error) {
		n := running.Add(1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		<-release
		running.Add(-1)
		return nil, nil
	})
	for range 10 {
		store.add("busy", 3)
	}
	runWorker(t, w)
	workerEventually(t, "three running", func() bool { return running.Load() == 3 })
	time.Sleep(50 * time.Millisecond) // polls happen meanwhile; none may exceed the bound
	close(release)
	workerEventually(t, "all done", func() bool { _, _, done, _ := store.snapshot(); return len(done) == 10 })
	if peak.Load() != 3 {
		t.Fatalf("peak concurrency %d, want 3", peak.Load())
	}
}

func TestWorkerKickPollsAtOnce(t *testing.T) {
	t.Parallel()
	store := newFakeJobs()
	w, _ := testWorker(store, Config{PollInterval: time.Hour})
	w.Handle("k", func(context.Context, Job) (map[string]any, error) { return nil, nil })
	runWorker(t, w)
	workerEventually(t, "the first poll", func() bool { c, _, _, _ := store.snapshot(); return c >= 1 })
	id := store.add("k", 3)
	w.Kick()
	workerEventually(t, "the kicked job", func() bool { return store.job(id).Status == statusDone })
}

func TestWorkerRetriesClaimErrors(t *testing.T) {
	t.Parallel()
	store := newFakeJobs()
	store.claimErrs = 2
	w, logs := testWorker(store, Config{PollInterval: time.Millisecond})
	w.Handle("k", func(context.Context, Job) (map[string]any, error) { return nil, nil })
	id := store.add("k", 3)
	runWorker(t, w)
	workerEventually(t, "the job despite claim errors", func() bool { return store.job(id).Status == statusDone })
	if out := logs.String(); strings.Count(out, `msg="claim jobs"`) != 2 || !strings.Contains(out, "recovered") {
		t.Fatalf("log:\n%s", out)
	}
}

func TestWorkerDrainLetsInFlightJobsFinish(t *testing.T) {
	t.Parallel()
	store := newFakeJobs()
	w, _ := testWorker(store, Config{DrainTimeout: 5 * time.Second})
	started := make(chan struct{})
	w.Handle("d", func(ctx context.Context, _ Job) (map[string]any, error) {
		close(started)
		select {
		case <-time.After(150 * time.Millisecond):
			return map[string]any{"finished": true}, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	id := store.add("d", 3)
	stop := runWorker(t, w)
	<-started
	claimsAtStop, _, _, _ := store.snapshot()
	stop() // returns once the handler finished
	if j := store.job(id); j.Status != statusDone {
		t.Fatalf("in-flight job after drain = %+v", j)
	}
	// Stopped workers claim nothing more.
	late := store.add("d", 3)
	time.Sleep(50 * time.Millisecond)
	if claims, _, _, _ := store.snapshot(); claims > claimsAtStop+1 || store.job(late).Status != statusPending {
		t.Fatalf("claims went from %d to %d after stop; late job %s", claimsAtStop, claims, store.job(late).Status)
	}
}

func TestWorkerDrainTimeoutCancelsAndLeavesJobLeased(t *testing.T) {
	t.Parallel()
	store := newFakeJobs()
	w, logs := testWorker(store, Config{DrainTimeout: 100 * time.Millisecond})
	started := make(chan struct{})
	causes := make(chan error, 1)
	w.Handle("stuck", func(ctx context.Context, _ Job) (map[string]any, error) {
		close(started)
		<-ctx.Done()
		causes <- context.Cause(ctx)
		return nil, ctx.Err()
	})
	id := store.add("stuck", 3)
	stop := runWorker(t, w)
	<-started
	begin := time.Now()
	stop()
	if d := time.Since(begin); d < 100*time.Millisecond || d > 3*time.Second {
		t.Fatalf("Run returned %v after cancel; want just after the 100ms drain", d)
	}
	if cause := <-causes; !errors.Is(cause, errShutdown) {
		t.Fatalf("handler cancelled by %v", cause)
	}
	// Neither completed nor failed: running under a lease that will expire.
	_, _, done, failures := store.snapshot()
	if j := store.job(id); len(done) != 0 || len(failures) != 0 || j.Status != statusRunning {
		t.Fatalf("job after abandoned drain = %+v (done %v, failures %v)", j, done, failures)
	}
	if !strings.Contains(logs.String(), "retried after its lease expires") {
		t.Fatalf("log:\n%s", logs)
	}
}

func TestWorkerRejectsSecondRun(t *testing.T) {
	t.Parallel()
	w, _ := testWorker(newFakeJobs(), Config{})
	w.Handle("k", func(context.Context, Job) (map[string]any, error) { return nil, nil })
	runWorker(t, w)
	workerEventually(t, "the worker to start", func() bool { w.mu.Lock(); defer w.mu.Unlock(); return w.running })
	if err := w.Run(t.Context()); !errors.Is(err, ErrRunning) {
		t.Fatalf("second Run: %v, want ErrRunning", err)
	}
}

func TestWorkerHandlePanicsOnWiringMistakes(t *testing.T) {
	t.Parallel()
	w, _ := testWorker(newFakeJobs(), Config{})
	h := func(context.Context, Job) (map[string]any, error) { return nil, nil }
	w.Handle("k", h)
	for name, f := range map[string]func(){
		"duplicate": func() { w.Handle("k", h) },
		"empty":     func() { w.Handle("", h) },
		"nil":       func() { w.Handle("x", nil) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// TestWorkerDefersWithoutUsingAttempts: a handler's Defer puts the job back
// until the given time with its attempt given back, as often as it asks
// (a job of one attempt deferred three times still runs), and is neither
// a failure nor a completion; without a Deferrer the store records it as
// an ordinary failure retried at the next backoff.
func TestWorkerDefersWithoutUsingAttempts(t *testing.T) {
	t.Parallel()
	store := &deferringJobs{fakeJobs: newFakeJobs()}
	w, _ := testWorker(store, Config{})
	var runs atomic.Int32
	w.Handle("budgeted", func(context.Context, Job) (map[string]any, error) {
		if runs.Add(1) <= 3 {
			// Due again soon, but not before this run has returned: a job
			// claimed while its last run still winds down here is left to
			// its lease (Worker.start), which a test would wait out.
			return nil, Defer(time.Now().Add(50*time.Millisecond), "token budget exhausted")
		}
		return map[string]any{"ok": true}, nil
	})
	id := store.add("budgeted", 1)
	runWorker(t, w)
	w.Kick()
	workerEventually(t, "the job done after three deferrals", func() bool { _, _, c, _ := store.snapshot(); return c[id] != nil })
	_, _, _, failures := store.snapshot()
	store.mu.Lock()
	deferred := len(store.deferred)
	store.mu.Unlock()
	if j := store.job(id); len(failures) != 0 || deferred != 3 || j.Attempts != 1 || j.Status != statusDone {
		t.Fatalf("want 3 deferrals, no failure, done in its one attempt: deferred %d, failures %+v, job %+v", deferred, failures, j)
	}

	plain := newFakeJobs()
	w2, _ := testWorker(plain, Config{})
	w2.Handle("budgeted", func(context.Context, Job) (map[string]any, error) {
		return nil, Defer(time.Now().Add(time.Hour), "token budget exhausted")
	})
	id2 := plain.add("budgeted", 5)
	runWorker(t, w2)
	workerEventually(t, "a failure recorded", func() bool { _, _, _, f := plain.snapshot(); return len(f) == 1 })
	_, _, _, f := plain.snapshot()
	if _, ok := errors.AsType[*DeferredError](f[0].cause); !ok || f[0].id != id2 || f[0].permanent {
		t.Fatalf("without a Deferrer, want a transient failure carrying the deferral: %+v", f[0])
	}
}
