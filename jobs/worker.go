package jobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	mrand "math/rand/v2"
	"os"
	"runtime/debug"
	"sort"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/graphmem/graphmem/telemetry"
)

// Defaults of Config; cmd/graphmem's settings default to the same values
// (a test there ties them).
const (
	DefaultConcurrency  = 2
	DefaultPollInterval = 2 * time.Second
	DefaultLease        = 30 * time.Second
	DefaultJobTimeout   = 10 * time.Minute
	DefaultBaseBackoff  = 2 * time.Second
	DefaultMaxBackoff   = 5 * time.Minute
	DefaultDrainTimeout = 15 * time.Second
)

// Config tunes a Worker; zero values take the defaults shown.
type Config struct {
	// Owner names this worker in job leases; default hostname-pid-random,
	// unique per process so a restarted replica never mistakes its
	// predecessor's leases for its own.
	Owner string
	// Concurrency bounds the handlers running at once (default 2).
	Concurrency int
	// PollInterval is how often the queue is polled when idle (default 2s,
	// ±20% jitter so replicas do not poll in lockstep). Kick polls at once.
	PollInterval time.Duration
	// Lease is how long a claim holds a job without renewal (default 30s);
	// it is renewed every Lease/3, and it bounds how long a crashed
	// worker's job waits before another replica retries it.
	Lease time.Duration
	// JobTimeout bounds one handler run (default 10m); a timeout is a
	// transient failure.
	JobTimeout time.Duration
	// BaseBackoff is the delay before the first retry (default 2s); it
	// doubles with every attempt, with jitter, up to MaxBackoff (default 5m).
	BaseBackoff time.Duration
	MaxBackoff  time.Duration
	// DrainTimeout is the grace period in-flight handlers get after Run's
	// ctx is cancelled (default 15s); then they are cancelled and their
	// jobs are left to lease expiry.
	DrainTimeout time.Duration
	// Tenants, when set, dedicates the worker to these tenants' jobs.
	Tenants []string
	// Observe, when set, is called after every handler run with the kind,
	// duration and error (nil on success); the service feeds Prometheus.
	Observe func(kind string, d time.Duration, err error)
	// Tracer, when set, gets one trace per job attempt (a root span the
	// handler's Neo4j and LLM spans hang under); nil traces nothing.
	Tracer trace.TracerProvider
}

// Worker claims jobs from the shared queue and runs their handlers on a
// bounded pool. Replicas coordinate only through the store's leases.
type Worker struct {
	store  Store
	cfg    Config
	log    *slog.Logger
	tracer trace.Tracer

	kick  chan struct{} // Kick: poll now
	freed chan struct{} // a handler finished: a slot is free

	mu       sync.Mutex
	handlers map[string]Handler
	inflight map[string]bool // tenant \x00 id of jobs running here
	running  bool

	// Seams for tests.
	now    func() time.Time
	jitter func() float64 // in [0, 1)
}

// abandonWait bounds how long Run waits, after cancelling handlers at the
// end of the drain, for them to return.
const abandonWait = 5 * time.Second

// NewWorker returns a worker over store; register handlers with Handle,
// then call Run.
func NewWorker(store Store, cfg Config, log *slog.Logger) *Worker {
	if cfg.Owner == "" {
		cfg.Owner = defaultOwner()
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = DefaultConcurrency
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = DefaultPollInterval
	}
	if cfg.Lease <= 0 {
		cfg.Lease = DefaultLease
	}
	if cfg.JobTimeout <= 0 {
		cfg.JobTimeout = DefaultJobTimeout
	}
	if cfg.BaseBackoff <= 0 {
		cfg.BaseBackoff = DefaultBaseBackoff
	}
	if cfg.MaxBackoff <= 0 {
		cfg.MaxBackoff = DefaultMaxBackoff
	}
	cfg.MaxBackoff = max(cfg.MaxBackoff, cfg.BaseBackoff)
	if cfg.DrainTimeout <= 0 {
		cfg.DrainTimeout = DefaultDrainTimeout
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Worker{
		store: store, cfg: cfg, log: log.With("worker", cfg.Owner), tracer: telemetry.Tracer(cfg.Tracer, "jobs"),
		kick: make(chan struct{}, 1), freed: make(chan struct{}, 1),
		handlers: map[string]Handler{}, inflight: map[string]bool{},
		now: time.Now, jitter: mrand.Float64,
	}
}

func defaultOwner() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "worker"
	}
	var b [3]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s-%d-%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}

// Owner is the name this worker's leases carry.
func (w *Worker) Owner() string { return w.cfg.Owner }

// Handle registers the handler of a job kind. Like http.ServeMux, it panics
// on an empty kind, a nil handler or a kind registered twice: those are
// wiring mistakes, found at start.
func (w *Worker) Handle(kind string, h Handler) {
	if kind == "" || h == nil {
		panic("jobs: Worker.Handle needs a kind and a handler")
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, dup := w.handlers[kind]; dup {
		panic("jobs: Worker.Handle: kind " + kind + " registered twice")
	}
	w.handlers[kind] = h
}

// Kick makes the worker poll now instead of at its next interval; call it
// after enqueueing so work starts at once. It never blocks. It wakes only
// this replica; the others find the job at their next poll.
func (w *Worker) Kick() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// Run claims and runs jobs until ctx is cancelled, then stops claiming,
// waits up to DrainTimeout for in-flight handlers, cancels the rest and
// returns. Jobs whose handlers were cancelled stay running until their
// lease expires, and are retried then by whichever replica claims them.
func (w *Worker) Run(ctx context.Context) error {
	w.mu.Lock()
	if w.running {
		w.mu.Unlock()
		return fmt.Errorf("worker %s: %w", w.cfg.Owner, ErrRunning)
	}
	if len(w.handlers) == 0 {
		w.mu.Unlock()
		return fmt.Errorf("worker %s: %w", w.cfg.Owner, ErrNoHandlers)
	}
	w.running = true
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		w.running = false
		w.mu.Unlock()
	}()

	// Handlers outlive ctx by the drain period: they get its values but
	// not its cancellation, and are cancelled by cancelHandlers.
	handlerCtx, cancelHandlers := context.WithCancelCause(context.WithoutCancel(ctx))
	defer cancelHandlers(errShutdown)
	var wg sync.WaitGroup

	claimFailures := 0
	for ctx.Err() == nil {
		delay := w.pollDelay()
		if free := w.freeSlots(); free > 0 {
			jobs, err := w.claim(ctx, free)
			switch {
			case err != nil:
				claimFailures++
				delay = min(w.cfg.PollInterval<<min(claimFailures, 5), 30*time.Second)
				w.log.Warn("claim jobs", "err", err, "consecutive_failures", claimFailures, "retry_in", delay)
			default:
				if claimFailures > 0 {
					w.log.Info("claim jobs recovered", "after_failures", claimFailures)
				}
				claimFailures = 0
			}
			for _, job := range jobs {
				w.start(handlerCtx, &wg, job)
			}
		}
		timer := time.NewTimer(delay)
		select {
		case <-ctx.Done():
		case <-w.kick:
		case <-w.freed:
		case <-timer.C:
		}
		timer.Stop()
	}

	n := w.inflightCount()
	if n > 0 {
		w.log.Info("worker draining", "in_flight", n, "grace", w.cfg.DrainTimeout)
	}
	if !waitTimeout(&wg, w.cfg.DrainTimeout) {
		w.log.Warn("drain period over: cancelling in-flight jobs; they are retried after their lease expires",
			"in_flight", w.inflightCount(), "lease", w.cfg.Lease)
		cancelHandlers(errShutdown)
		if !waitTimeout(&wg, abandonWait) {
			w.log.Error("handlers ignored cancellation; returning without them", "in_flight", w.inflightCount())
		}
	}
	return nil
}

// claim asks for up to free jobs. The call is shielded from Run's
// cancellation: a claim interrupted after its commit would leave jobs
// leased to nobody until expiry; jobs claimed as shutdown begins are
// simply drained with the rest.
func (w *Worker) claim(ctx context.Context, free int) ([]Job, error) {
	kinds := w.kinds()
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
	defer cancel()
	return w.store.ClaimJobs(cctx, w.cfg.Owner, ClaimFilter{Kinds: kinds, Tenants: w.cfg.Tenants}, free, w.cfg.Lease)
}

func (w *Worker) kinds() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]string, 0, len(w.handlers))
	for k := range w.handlers {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (w *Worker) freeSlots() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.cfg.Concurrency - len(w.inflight)
}

func (w *Worker) inflightCount() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.inflight)
}

func (w *Worker) pollDelay() time.Duration {
	return time.Duration(float64(w.cfg.PollInterval) * (0.8 + 0.4*w.jitter()))
}

// start runs job on its own goroutine. A job already running here (this
// worker's own lease expired, say after a long stall, and it claimed the job
// again) is not started twice: the running handler keeps going under the
// fresh lease.
func (w *Worker) start(ctx context.Context, wg *sync.WaitGroup, job Job) {
	key := job.Tenant + "\x00" + job.ID
	w.mu.Lock()
	h := w.handlers[job.Kind]
	if w.inflight[key] {
		w.mu.Unlock()
		w.log.Debug("re-claimed a job already running here", "job", job.ID, "tenant", job.Tenant)
		return
	}
	w.inflight[key] = true
	w.mu.Unlock()

	wg.Go(func() {
		defer func() {
			w.mu.Lock()
			delete(w.inflight, key)
			w.mu.Unlock()
			select {
			case w.freed <- struct{}{}:
			default:
			}
		}()
		w.process(ctx, job, h)
	})
}

// process runs one claimed job and records its outcome.
func (w *Worker) process(base context.Context, job Job, h Handler) {
	log := w.log.With("job", job.ID, "kind", job.Kind, "tenant", job.Tenant,
		"attempt", job.Attempts, "max_attempts", job.MaxAttempts)
	started := w.now()

	// A job attempt is its own trace: the request that enqueued it ended
	// long ago, and its trace would otherwise grow by every retry.
	base, span := w.tracer.Start(base, "job "+job.Kind, trace.WithNewRoot(), trace.WithSpanKind(trace.SpanKindConsumer),
		trace.WithAttributes(attribute.String("graphmem.job.id", job.ID), attribute.String("graphmem.job.kind", job.Kind),
			attribute.String("graphmem.tenant", job.Tenant), attribute.Int("graphmem.job.attempt", job.Attempts),
			attribute.String("graphmem.request_id", job.RequestID)))
	var err error
	defer func() {
		if err != nil {
			span.RecordError(err)
			span.SetStatus(codes.Error, "job attempt failed")
		}
		span.End()
	}()
	leaseCtx, loseLease := context.WithCancelCause(base)
	defer loseLease(nil)
	ctx, cancel := context.WithTimeout(leaseCtx, w.cfg.JobTimeout)
	defer cancel()

	var result map[string]any
	if h == nil {
		err = Permanent(fmt.Errorf("no handler for job kind %q", job.Kind))
	} else {
		stopRenewing := w.keepLease(leaseCtx, loseLease, job)
		result, err = callHandler(ctx, h, job)
		stopRenewing()
	}
	elapsed := w.now().Sub(started)
	cause := context.Cause(leaseCtx)

	// Writes after the handler must land even during shutdown.
	sctx, scancel := context.WithTimeout(context.WithoutCancel(base), 15*time.Second)
	defer scancel()

	switch {
	case errors.Is(cause, ErrLeaseLost):
		// Someone else holds the job now (or may, once the expired lease is
		// noticed): record nothing, the holder decides its fate.
		err = fmt.Errorf("%w: %w", ErrLeaseLost, cause)
		log.Warn("job lease lost; outcome discarded", "err", cause)

	case err == nil:
		if cerr := w.store.CompleteJob(sctx, job.Tenant, job.ID, w.cfg.Owner, result); cerr != nil {
			log.Error("record job completion", "err", cerr)
		} else if job.Attempts > 1 {
			// A retry that succeeded closes an incident an operator may
			// have seen start (a failure, a crashed replica's lease).
			log.Info("job done after a retry", "attempts", job.Attempts, "duration", elapsed)
		} else {
			log.Debug("job done", "duration", elapsed)
		}

	case errors.Is(cause, errShutdown):
		log.Warn("job cancelled at shutdown; it is retried after its lease expires", "err", err)

	case w.deferJob(sctx, log, job, err):
		// Not a failure, and no run to time: the job waits, its attempt
		// given back, and is neither counted nor observed.
		err = nil
		span.SetAttributes(attribute.Bool("graphmem.job.deferred", true))
		return

	default:
		permanent := IsPermanent(err)
		final := permanent || (job.MaxAttempts > 0 && job.Attempts >= job.MaxAttempts)
		delay := retryDelay(job.Attempts, w.cfg.BaseBackoff, w.cfg.MaxBackoff, w.jitter())
		attrs := []any{"err", err, "duration", elapsed}
		if p, ok := errors.AsType[*panicError](err); ok {
			attrs = append(attrs, "stack", string(p.stack))
		}
		if final {
			log.Error("job failed for good", append(attrs, "permanent", permanent)...)
		} else {
			log.Warn("job failed; will retry", append(attrs, "retry_in", delay)...)
		}
		if ferr := w.store.FailJob(sctx, job.Tenant, job.ID, w.cfg.Owner, err, w.now().Add(delay), permanent); ferr != nil {
			log.Error("record job failure", "err", ferr)
		}
	}
	if w.cfg.Observe != nil {
		w.cfg.Observe(job.Kind, elapsed, err)
	}
}

// deferJob records a handler's Defer and reports whether err was one.
func (w *Worker) deferJob(ctx context.Context, log *slog.Logger, job Job, err error) bool {
	d, ok := errors.AsType[*DeferredError](err)
	if !ok {
		return false
	}
	deferrer, ok := w.store.(Deferrer)
	if !ok {
		return false // recorded as a failure, retried at the next backoff
	}
	if derr := deferrer.DeferJob(ctx, job.Tenant, job.ID, w.cfg.Owner, d.Until, d.Reason); derr != nil {
		log.Error("record job deferral", "err", derr)
	} else {
		log.Info("job deferred", "until", d.Until, "reason", d.Reason)
	}
	return true
}

// keepLease renews the job's lease every Lease/3 until stopped. When the
// store says the job is no longer ours, or renewals have failed for a whole
// lease (so another replica may have claimed it), it cancels ctx with
// ErrLeaseLost.
func (w *Worker) keepLease(ctx context.Context, lose context.CancelCauseFunc, job Job) (stop func()) {
	every := max(w.cfg.Lease/3, time.Millisecond)
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		expires := time.Now().Add(w.cfg.Lease)
		ticker := time.NewTicker(every)
		defer ticker.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-ticker.C:
			}
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), every)
			renewedAt := time.Now()
			err := w.store.RenewLease(rctx, job.Tenant, job.ID, w.cfg.Owner, w.cfg.Lease)
			cancel()
			switch {
			case err == nil:
				expires = renewedAt.Add(w.cfg.Lease)
			case errors.Is(err, ErrLeaseLost):
				lose(err)
				return
			case !time.Now().Before(expires):
				lose(fmt.Errorf("%w: renewals failing for a whole lease: %w", ErrLeaseLost, err))
				return
			default:
				w.log.Debug("renew job lease", "job", job.ID, "tenant", job.Tenant, "err", err)
			}
		}
	}()
	return func() {
		close(done)
		<-stopped
	}
}

// panicError is a recovered handler panic; the stack goes to the log, the
// message to the job's last_error.
type panicError struct {
	value any
	stack []byte
}

func (e *panicError) Error() string { return fmt.Sprintf("handler panic: %v", e.value) }

func callHandler(ctx context.Context, h Handler, job Job) (result map[string]any, err error) {
	defer func() {
		if r := recover(); r != nil {
			result, err = nil, &panicError{value: r, stack: debug.Stack()}
		}
	}()
	return h(ctx, job)
}

// retryDelay is the wait before retrying after failed attempt n (1-based):
// base·2^(n-1), capped at maxDelay, with "equal jitter" (half fixed, half
// random from r in [0,1)) so jobs that failed together — an LLM outage —
// do not all come back at once, yet none retries sooner than half the
// nominal delay.
func retryDelay(attempt int, base, maxDelay time.Duration, r float64) time.Duration {
	d := maxDelay
	if attempt < 1 {
		attempt = 1
	}
	if shift := attempt - 1; shift < 40 && base<<shift > 0 && base<<shift < maxDelay {
		d = base << shift
	}
	return d/2 + time.Duration(r*float64(d/2))
}

// waitTimeout waits for wg up to d and reports whether it finished.
func waitTimeout(wg *sync.WaitGroup, d time.Duration) bool {
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}
