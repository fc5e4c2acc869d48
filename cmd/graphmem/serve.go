package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/graphmem/graphmem"
	"github.com/graphmem/graphmem/api"
	"github.com/graphmem/graphmem/api/mcp"
	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/jobs"
	"github.com/graphmem/graphmem/knowledge"
	"github.com/graphmem/graphmem/localneo4j"
	"github.com/graphmem/graphmem/memory"
	"github.com/graphmem/graphmem/nlp"
	"github.com/graphmem/graphmem/retrieval"
	"github.com/graphmem/graphmem/telemetry"
)

// HTTP server timeouts. Bodies are small JSON documents, so headers and
// bodies must arrive quickly; responses may wait for background work
// (close?wait=true), so the write timeout follows the long request deadline.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 60 * time.Second
	idleTimeout       = 2 * time.Minute
	longRequest       = api.DefaultLongRequestTimeout
	shutdownGrace     = 20 * time.Second
)

func serve(ctx context.Context, cfg Config, stdout, stderr io.Writer) error {
	log := newLogger(stderr, cfg.LogLevel, cfg.LogFormat)
	log.Info("starting graphmem", "version", version, "config", cfg)

	keys, err := api.ParseKeys(cfg.apiKeySource())
	if err != nil {
		return fmt.Errorf("GRAPHMEM_API_KEYS: %w", err)
	}
	if keys == nil {
		if !isLoopback(cfg.ListenAddr) {
			return fmt.Errorf("refusing to serve without API keys on %s, which is reachable from other machines: set GRAPHMEM_API_KEYS (tenant:key pairs) or listen on 127.0.0.1", cfg.ListenAddr)
		}
		log.Warn("authentication is off: no API keys configured and the listen address is loopback; every request uses tenant \"default\"",
			"listen", cfg.ListenAddr)
	} else {
		log.Info("authentication is on", "keys", keys.Len(), "read_only", keys.ReadOnly())
	}
	go reloadKeysOnHUP(ctx, cfg.apiKeysPath, keys, log)

	// Bind first: a busy port should fail in a second, not after the local
	// Neo4j has started (and been stopped again).
	ln, err := net.Listen("tcp", cfg.ListenAddr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w (is another graphmem running? set GRAPHMEM_LISTEN_ADDR)", cfg.ListenAddr, err)
	}
	defer ln.Close() // Serve closes it too; this covers the returns before
	var metricsLn net.Listener
	if cfg.MetricsAddr != "" {
		if metricsLn, err = net.Listen("tcp", cfg.MetricsAddr); err != nil {
			return fmt.Errorf("listen on %s: %w (set GRAPHMEM_METRICS_ADDR)", cfg.MetricsAddr, err)
		}
		defer metricsLn.Close()
	}

	// Answer from the first second: "starting" problems until the app is
	// built, then the API. Clients and probes see why they wait.
	var step atomic.Pointer[string]
	setStep := func(s string) { step.Store(&s) }
	setStep("connecting to Neo4j")
	handler := &swapHandler{}
	handler.set(api.Starting(version, func() string { return *step.Load() }))
	httpSrv := &http.Server{
		Addr: cfg.ListenAddr, Handler: handler,
		// A body still arriving after the request's own deadline is cut then.
		ReadHeaderTimeout: readHeaderTimeout, ReadTimeout: min(readTimeout, max(cfg.RequestTimeout, readHeaderTimeout)),
		WriteTimeout: longRequest + 30*time.Second, IdleTimeout: idleTimeout,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	serveErr := make(chan error, 2)
	go func() { serveErr <- fmt.Errorf("http server: %w", httpSrv.Serve(ln)) }()
	defer httpSrv.Close() // a failed start; a normal stop shuts down gracefully below

	if cfg.embedded() {
		setStep("starting the local Neo4j")
		progress := io.Writer(stderr)
		if !textLogs(stderr, cfg.LogFormat) {
			progress = lineLog{log}
		}
		srv, err := localServer(cfg, progress, log)
		if err != nil {
			return err
		}
		if err := srv.Supported(); err != nil {
			return fmt.Errorf("cannot start the local Neo4j: %w; run Neo4j yourself and set GRAPHMEM_NEO4J_URI (and credentials)", err)
		}
		st := srv.Status(ctx)
		if st.Running {
			log.Info("reusing the local Neo4j already running", "pid", st.PID, "bolt", st.BoltURI)
		} else {
			if _, err := srv.Start(ctx); err != nil {
				return fmt.Errorf("start the local Neo4j: %w", err)
			}
			// Stop it on the way out, after the HTTP server and the driver.
			defer func() {
				stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), localneo4j.DefaultStopTimeout)
				defer cancel()
				if err := srv.Stop(stopCtx); err != nil && !errors.Is(err, localneo4j.ErrNotRunning) {
					log.Error("stop the local Neo4j", "error", err)
				}
			}()
		}
		cfg.Neo4jURI = srv.Options().BoltURI()
		log.Info("Neo4j Browser", "url", srv.Options().HTTPURL()+"/browser/", "connect_url", cfg.Neo4jURI)
		go superviseLocalNeo4j(ctx, srv, serveErr)
	}

	if cfg.PprofAddr != "" {
		go servePprof(cfg.PprofAddr, log)
	}
	setStep("applying the schema and planning the search queries")
	app, err := buildApp(ctx, cfg, keys, log)
	if err != nil {
		return err
	}
	defer app.close(context.WithoutCancel(ctx))

	handler.set(app.handler)
	fmt.Fprintf(stdout, "graphmem %s serving on http://%s  (docs: http://%s/docs, Ctrl-C to stop)\n", version, ln.Addr(), ln.Addr())
	if metricsLn != nil {
		metricsSrv := metricsServer(app.metrics, log)
		go func() {
			if err := metricsSrv.Serve(metricsLn); !errors.Is(err, http.ErrServerClosed) {
				serveErr <- fmt.Errorf("metrics listener: %w", err)
			}
		}()
		defer metricsSrv.Close() // scrapes are short; nothing to drain
		log.Info("metrics on their own listener, not on the API's", "url", "http://"+metricsLn.Addr().String()+"/metrics")
	}
	select {
	case err := <-serveErr:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down: HTTP, then background jobs, the driver and the local Neo4j")
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownGrace)
	defer cancel()
	if err := httpSrv.Shutdown(shutdownCtx); err != nil {
		log.Warn("http shutdown", "error", err)
	}
	return nil
}

// superviseLocalNeo4j restarts the local Neo4j when it exits under the
// service (killed, out of memory), with backoff and a bounded number of
// attempts (localneo4j.Supervise logs each); meanwhile requests get 503s
// and the service recovers by itself. Only when the restarts fail does it
// end the service: unready forever would leave a supervisor nothing to
// restart and a user nothing to read.
func superviseLocalNeo4j(ctx context.Context, srv *localneo4j.Server, fail chan<- error) {
	if err := srv.Supervise(ctx, localneo4j.Supervision{}); err != nil && ctx.Err() == nil {
		fail <- fmt.Errorf("%w; start graphmem again (make run) once the cause is fixed", err)
	}
}

// swapHandler serves whichever handler was set last: the starting handler,
// then the API.
type swapHandler struct{ h atomic.Pointer[http.Handler] }

func (s *swapHandler) set(h http.Handler) { s.h.Store(&h) }

func (s *swapHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	(*s.h.Load()).ServeHTTP(w, r)
}

// app is the wired service: the HTTP handler and what runs beside it.
type app struct {
	handler http.Handler
	metrics *api.Metrics
	svc     *memory.Service
	store   *graph.Store
	log     *slog.Logger
	stop    context.CancelFunc
	wg      sync.WaitGroup
	// closeEmbedder frees the local embedding model, after the workers.
	closeEmbedder func()
	// stopTracing flushes the spans still buffered, last.
	stopTracing func(context.Context) error
}

// buildApp connects to Neo4j, applies the schema, builds the engine, the
// memory service and the HTTP handler, and starts the job worker and the
// idle-session sweeper. close stops them in order.
func buildApp(ctx context.Context, cfg Config, keys *api.KeyRing, log *slog.Logger) (*app, error) {
	metrics := api.NewMetrics()
	tracer, stopTracing := cfg.tracer, func(context.Context) error { return nil }
	if tracer == nil {
		var err error
		tracer, stopTracing, err = telemetry.NewTracerProvider(ctx, telemetry.Config{Endpoint: cfg.OTelEndpoint,
			Standard: cfg.otelStandard, SampleRatio: cfg.OTelSampleRatio, Service: "graphmem", Version: version})
		if err != nil {
			return nil, fmt.Errorf("tracing: %w", err)
		}
		if cfg.OTelEndpoint != "" || cfg.otelStandard {
			log.Info("tracing on: OTLP/HTTP", "endpoint", cfg.OTelEndpoint, "sample_ratio", cfg.OTelSampleRatio)
		}
	}
	obs := llmObservers{tracer: tracer, onUsage: metrics.ObserveLLM}
	engine, engineName, err := newEngine(cfg, obs, log)
	if err != nil {
		return nil, err
	}
	// The embedder comes before the store: its vectors' size is the
	// vector index's.
	embedders, closeEmbedder, err := newEmbedder(cfg, engine, obs, log)
	if err != nil {
		return nil, err
	}
	embedder := embedders.stored
	dims := 0
	if embedder != nil {
		dims = embedder.Dimensions()
	}
	store, err := graph.Open(ctx, graph.Config{
		URI: cfg.Neo4jURI, Username: cfg.Neo4jUser, Password: cfg.neo4jPassword(), Database: cfg.Neo4jDatabase,
		QueryTimeout: cfg.Neo4jTimeout, ExtraFactTypes: cfg.ExtraFactTypes,
		EmbeddingDimensions: dims, Observe: metrics.ObserveQuery, AppVersion: version, Tracer: tracer,
		RawCacheTurns: cfg.rawCacheTurns(),
	}, log)
	if err != nil {
		closeEmbedder()
		return nil, fmt.Errorf("connect to Neo4j: %w (check GRAPHMEM_NEO4J_URI and credentials)", err)
	}
	a := &app{store: store, metrics: metrics, log: log, closeEmbedder: closeEmbedder, stopTracing: stopTracing}
	fail := func(err error) (*app, error) {
		_ = store.Close(context.WithoutCancel(ctx))
		closeEmbedder()
		return nil, err
	}
	if _, err := store.ApplySchema(ctx); err != nil {
		return fail(fmt.Errorf("apply schema: %w", err))
	}
	warm := time.Now()
	if err := store.WarmUp(ctx); err != nil {
		log.Warn("planning the search queries failed; the first searches will be slower", "error", err)
	} else {
		log.Info("search queries planned", "took", time.Since(warm).Round(time.Millisecond))
	}
	counter, err := nlp.NewTokenCounter("cl100k_base")
	if err != nil {
		return fail(fmt.Errorf("token counter: %w", err))
	}
	profiles, err := loadProfiles(cfg.ProfilesFile) // validated with the config; read again here
	if err != nil {
		return fail(fmt.Errorf("GRAPHMEM_CONDENSER_PROFILES_FILE: %w", err))
	}
	mdeps := memory.Deps{Sessions: store, Windows: store, Jobs: store, Knowledge: store, Insights: store,
		Engine: engine, Counter: counter, Usage: store, Log: log}
	if embedder != nil && cfg.EntityVectors {
		mdeps.Embedder = embedder
	}
	if embedder != nil {
		mdeps.Embedded = store // some replica's lane embeds what this one stores
	}
	svc, err := memory.New(mdeps, memory.Config{
		Profiles: profiles, DefaultProfile: cfg.CondenserProfile, EngineName: engineName,
		EngineIsLLM: cfg.LLMBaseURL != "", JobMaxAttempts: cfg.JobMaxAttempts,
		Budget: memory.Budget{Tokens: cfg.LLMTokenBudget, Window: cfg.LLMBudgetWindow},
	})
	if err != nil {
		return fail(err)
	}
	rdeps := retrieval.Deps{Text: store, Graph: store, Context: store, Views: sessionViews{svc}, Counter: counter, Turns: store}
	var access *memory.AccessCounter // access counts of search results, flushed in batches
	if cfg.AccessFlushEvery > 0 {
		access = memory.NewAccessCounter(store, log)
		rdeps.Access = access
	}
	if embedder != nil {
		rdeps.Embedder, rdeps.Vectors = memory.ClassifiedEmbedder(embedders.query), store
		rdeps.Topics = knowledge.NewTopicReader(memory.ClassifiedEmbedder(embedders.query))
	}
	search, err := retrieval.New(rdeps, cfg.searchConfig())
	if err != nil {
		return fail(err)
	}
	if embedder != nil && cfg.QueryCache > 0 {
		metrics.WatchQueryCache(search.QueryCacheStats)
	}
	if cfg.RawCacheTurns > 0 {
		metrics.WatchRawCache(store.RawCacheStats)
	}
	a.svc = svc
	life := memory.NewLifecycle(store, log)            // erasure, export, pins, retention
	retention, err := loadRetention(cfg.RetentionFile) // validated with the config; read again here
	if err != nil {
		return fail(fmt.Errorf("GRAPHMEM_RETENTION_FILE: %w", err))
	}
	life.SetRetentionDefaults(retention)

	// Background work stops with close(), not with the request ctx; the
	// worker drains its in-flight jobs first.
	bgCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	a.stop = stop
	if cfg.Workers > 0 {
		worker := jobs.NewWorker(svc.JobQueue(store), jobs.Config{Concurrency: cfg.Workers, Lease: cfg.JobLease, BaseBackoff: cfg.JobBackoff,
			Tenants: cfg.WorkerTenants, Observe: metrics.ObserveJob, Tracer: tracer}, log)
		svc.RegisterJobs(worker)
		life.RegisterJobs(worker)
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			if err := worker.Run(bgCtx); err != nil {
				log.Error("job worker stopped", "error", err)
			}
		}()
		log.Info("job worker running", "owner", worker.Owner(), "concurrency", cfg.Workers)
	} else {
		log.Warn("GRAPHMEM_WORKERS=0: this replica runs no background jobs; another replica must")
	}
	// The lane is background work like the job workers: a replica with
	// GRAPHMEM_WORKERS=0 runs neither.
	if embedder != nil && cfg.EmbedWorkers > 0 && cfg.Workers > 0 {
		lane := memory.NewEmbeddingLane(store, memory.ClassifiedEmbedder(embedder), memory.LaneConfig{
			Model: embedder.Model(), Owner: laneOwner(), Workers: cfg.EmbedWorkers, Tenants: cfg.WorkerTenants,
			// A batch takes a second or so; after a crash its memories wait
			// for the lease to end, and close?wait=true with them.
			Lease:        cfg.JobLease,
			ObserveBatch: metrics.ObserveEmbeddings, ObserveBacklog: metrics.SetEmbeddingBacklog,
		}, log)
		svc.SetStoredNotifier(lane.Notify) // appends and finished jobs wake the lane; it polls slowly when idle
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			if err := lane.Run(bgCtx); err != nil {
				log.Error("embedding lane stopped", "error", err)
			}
		}()
		log.Info("embedding lane running", "model", embedder.Model(), "workers", cfg.EmbedWorkers)
	}
	if cfg.RetentionEvery > 0 {
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			life.RunRetention(bgCtx, cfg.RetentionEvery)
		}()
	}
	if access != nil {
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			access.Run(bgCtx, cfg.AccessFlushEvery)
		}()
	}
	if cfg.IdleClose > 0 {
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			svc.RunSweeper(bgCtx, cfg.IdleClose, min(cfg.IdleClose/4, time.Minute))
		}()
	}

	gin.SetMode(gin.ReleaseMode)
	handler, err := api.New(api.Deps{Ready: store, Sessions: svc, Knowledge: svc, Jobs: svc, Retrieval: search, Edits: svc, Lifecycle: life, Consolidation: life}, api.Options{
		Keys: keys, MaxBodyBytes: cfg.MaxBodyBytes, RequestTimeout: cfg.RequestTimeout,
		RateLimit: cfg.RateLimit, RateBurst: cfg.RateBurst,
		LongRequestTimeout: longRequest, TrustedProxies: cfg.TrustedProxies,
		Spec: graphmem.OpenAPI, BrowserGuide: graphmem.BrowserGuide, BrowserStyle: graphmem.BrowserStyle, Version: version, Log: log, Metrics: metrics, MetricsElsewhere: cfg.MetricsAddr != "",
		Tracer: tracer,
		MCP:    func(h http.Handler) http.Handler { return mcp.Handler(h, version, log) },
	})
	if err != nil {
		a.close(ctx)
		return nil, err
	}
	a.handler = handler
	return a, nil
}

// close stops background work (the worker drains), then the driver.
func (a *app) close(ctx context.Context) {
	a.stop()
	a.wg.Wait()
	if err := a.store.Close(ctx); err != nil {
		a.log.Warn("close Neo4j driver", "error", err)
	}
	a.closeEmbedder()
	if err := a.stopTracing(ctx); err != nil {
		a.log.Warn("flush traces", "error", err)
	}
}

// metricsServer serves only /metrics, for GRAPHMEM_METRICS_ADDR: scrapers
// reach it on an address that is not published where the API is.
func metricsServer(m *api.Metrics, log *slog.Logger) *http.Server {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	return &http.Server{Handler: mux, ReadHeaderTimeout: readHeaderTimeout, ReadTimeout: readTimeout,
		WriteTimeout: readTimeout, IdleTimeout: idleTimeout, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
}

// servePprof exposes Go's profiler on a loopback address for operators
// chasing CPU or memory; it is off unless GRAPHMEM_PPROF_ADDR is set.
func servePprof(addr string, log *slog.Logger) {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: readHeaderTimeout}
	log.Info("pprof listening", "addr", addr)
	if err := srv.ListenAndServe(); err != nil {
		log.Warn("pprof stopped", "error", err)
	}
}

// laneOwner names this replica's embedding lane in the leases it takes.
func laneOwner() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s-%d-embed", host, os.Getpid())
}

// isLoopback reports whether a listen address is reachable only from this
// machine.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// textLogs says whether logs to w are for people (a terminal, or forced).
func textLogs(w io.Writer, format string) bool {
	return format == "text" || (format == "auto" && isTerminal(w))
}

// lineLog turns the local Neo4j's progress lines into log records, so a
// JSON log stays JSON.
type lineLog struct{ log *slog.Logger }

func (l lineLog) Write(p []byte) (int, error) {
	for line := range strings.Lines(string(p)) {
		if line = strings.TrimSpace(line); line != "" {
			l.log.Info(line)
		}
	}
	return len(p), nil
}

// newLogger writes JSON unless the output is a terminal (or the format is
// forced), and masks any attribute whose key names a secret.
func newLogger(w io.Writer, level, format string) *slog.Logger {
	var lv slog.Level
	_ = lv.UnmarshalText([]byte(level))
	opts := &slog.HandlerOptions{Level: lv, ReplaceAttr: redact}
	if textLogs(w, format) {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	// JSON would write durations as integer nanoseconds; machines and people
	// read milliseconds ("duration_ms": 21.3).
	opts.ReplaceAttr = func(groups []string, a slog.Attr) slog.Attr {
		a = redact(groups, a)
		if a.Value.Kind() == slog.KindDuration {
			return slog.Float64(a.Key+"_ms", math.Round(float64(a.Value.Duration())/1e4)/100)
		}
		return a
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}

func redact(_ []string, a slog.Attr) slog.Attr {
	k := strings.ToLower(a.Key)
	for _, secret := range []string{"password", "api_key", "apikey", "secret", "token", "authorization"} {
		if strings.Contains(k, secret) && a.Value.Kind() == slog.KindString && a.Value.String() != "" {
			return slog.String(a.Key, "********")
		}
	}
	return a
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
