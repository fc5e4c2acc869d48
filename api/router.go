package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/go-playground/validator/v10"
	"go.opentelemetry.io/otel/trace"
)

// Defaults of Options; cmd/graphmem's settings default to the same values
// (a test there ties them).
const (
	// DefaultMaxBodyBytes bounds a request body: a batch of 2000 events
	// with long tool outputs fits.
	DefaultMaxBodyBytes = 8 << 20
	// DefaultRequestTimeout is the deadline of an ordinary request.
	DefaultRequestTimeout = 60 * time.Second
	// DefaultLongRequestTimeout is the deadline of a request that waits
	// for background work (close?wait=true, explicit condensation).
	DefaultLongRequestTimeout = 10 * time.Minute
)

// Options configure the HTTP layer.
type Options struct {
	// Keys maps API keys to tenants; nil turns auth off (every request is
	// tenant "default"), which main allows only on a loopback address.
	Keys           *KeyRing
	MaxBodyBytes   int64
	RequestTimeout time.Duration
	// LongRequestTimeout bounds requests that wait for background work
	// (close?wait=true, explicit condensation) instead of RequestTimeout;
	// it is never shorter than RequestTimeout.
	LongRequestTimeout time.Duration
	TrustedProxies     []string
	// RateLimit is each API key's sustained requests per second on /v1
	// and /mcp (a token bucket per key, per replica); 0 is no limit.
	// RateBurst is the bucket's size (0: one second's worth).
	RateLimit float64
	RateBurst int
	// Spec is openapi.yaml, served at /openapi.yaml and rendered at /docs.
	Spec    []byte
	Version string
	Log     *slog.Logger
	Metrics *Metrics
	// Tracer, when set, gets a server span per request (see traced); nil
	// traces nothing.
	Tracer trace.TracerProvider
	// MetricsElsewhere leaves /metrics off this router because main serves
	// Metrics.Handler on a listener of its own, one that is not published
	// where the API is (a container binds the API to every interface).
	MetricsElsewhere bool
	// MCP builds the handler of POST /mcp (Model Context Protocol over
	// Streamable HTTP) from this router itself, whose routes its tools call
	// (package api/mcp; main wires it). It sits behind the same API keys as
	// /v1. Nil answers /mcp with 404.
	MCP func(api http.Handler) http.Handler
	// BrowserGuide is docs/browser.md, served as a Neo4j Browser guide at
	// /browser/guide.html; BrowserStyle is docs/graphmem.grass, at
	// /browser/graphmem.grass. Nil answers 404.
	BrowserGuide, BrowserStyle []byte
}

// ReadinessChecker reports whether the service can serve traffic (Neo4j
// reachable, schema applied).
type ReadinessChecker interface {
	Ready(ctx context.Context) error
}

// Deps are the services the handlers call, each behind an interface this
// package declares with just the methods it uses.
type Deps struct {
	Ready     ReadinessChecker
	Sessions  SessionService
	Knowledge KnowledgeService
	Jobs      JobService
	Retrieval RetrievalService
	Edits     FactEditService
	// Lifecycle (erasure) is optional: without it its routes answer 404.
	Lifecycle LifecycleService
	// Consolidation (merges and their review) is optional like Lifecycle.
	Consolidation ConsolidationService
}

// server holds what every handler needs.
type server struct {
	deps     Deps
	opts     Options
	log      *slog.Logger
	validate *validator.Validate
}

// New builds the HTTP handler: gin with explicit middleware (request id,
// access log, metrics, recovery, body limit, deadline, auth) and every route
// of openapi.yaml. Errors anywhere become problem+json through one mapper.
func New(deps Deps, opts Options) (*gin.Engine, error) {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Metrics == nil {
		opts.Metrics = NewMetrics()
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.RequestTimeout <= 0 {
		opts.RequestTimeout = DefaultRequestTimeout
	}
	if opts.LongRequestTimeout <= 0 {
		opts.LongRequestTimeout = DefaultLongRequestTimeout
	}
	// A long request may never get less time than an ordinary one.
	opts.LongRequestTimeout = max(opts.LongRequestTimeout, opts.RequestTimeout)
	if deps.Ready == nil || deps.Sessions == nil || deps.Knowledge == nil || deps.Jobs == nil || deps.Retrieval == nil || deps.Edits == nil {
		return nil, errors.New("api: every dependency is required")
	}
	validate, err := newValidator()
	if err != nil {
		return nil, fmt.Errorf("api: %w", err)
	}
	s := &server{deps: deps, opts: opts, log: opts.Log, validate: validate}
	fail := s.fail

	r := gin.New()
	r.HandleMethodNotAllowed = true
	r.ContextWithFallback = true
	if err := r.SetTrustedProxies(opts.TrustedProxies); err != nil {
		return nil, fmt.Errorf("api: trusted proxies: %w", err)
	}
	// Recovery sits inside the access log and metrics, so a panicking
	// request is logged and counted with the 500 it answered.
	r.Use(requestID(), traced(opts.Tracer), accessLog(s.log), opts.Metrics.middleware(), recovery(s.log), limitBody(opts.MaxBodyBytes, fail))
	r.NoRoute(func(c *gin.Context) { fail(c, errRouteNotFound) })
	r.NoMethod(func(c *gin.Context) { fail(c, errMethod) })

	// Operational routes: unauthenticated, so probes and scrapers need no key.
	r.GET("/healthz", s.healthz)
	r.GET("/readyz", s.readyz)
	if !opts.MetricsElsewhere {
		r.GET("/metrics", gin.WrapH(opts.Metrics.Handler()))
	}
	r.GET("/openapi.yaml", s.openapi)
	docs, err := renderDocs(opts.Spec)
	if err != nil {
		return nil, fmt.Errorf("api: %w", err)
	}
	r.GET("/docs", func(c *gin.Context) { c.Data(http.StatusOK, "text/html; charset=utf-8", docs) })
	r.GET("/docs/assets/:file", s.docsAsset)
	r.GET("/browser/:file", s.browserFile)
	r.OPTIONS("/browser/:file", s.browserPreflight)

	limiter := newRateLimiter(opts.RateLimit, opts.RateBurst)
	v1 := r.Group("/v1", authenticate(opts.Keys, fail), admit(limiter, fail), scoped())
	s.register(v1)
	mcpHandler := gin.HandlerFunc(func(c *gin.Context) { fail(c, errRouteNotFound) })
	if opts.MCP != nil {
		mcpHandler = gin.WrapH(opts.MCP(r))
	}
	r.POST("/mcp", authenticate(opts.Keys, fail), admit(limiter, fail), scoped(), s.long(), mcpHandler)
	return r, nil
}

// register lists every /v1 route; openapi.yaml must list the same ones (a
// test enforces it).
func (s *server) register(v1 *gin.RouterGroup) {
	sess := v1.Group("/sessions/:session_id")
	sess.POST("/events", s.timed(), s.appendEvents)
	sess.GET("/events", s.timed(), s.listEvents)
	sess.GET("", s.timed(), s.getSession)
	sess.POST("/context", s.long(), s.sessionView) // the session's view; /v1/context assembles prompts
	sess.POST("/condensations", s.long(), s.condense)
	sess.GET("/condensations", s.timed(), s.listCondensations)
	sess.POST("/condensation-requests", s.timed(), s.requestCondensation)
	sess.POST("/close", s.long(), s.closeSession)

	users := v1.Group("/users/:user_id")
	users.GET("/facts", s.timed(), s.listFacts)
	users.GET("/preferences", s.timed(), s.listPreferences)
	users.GET("/conflicts", s.timed(), s.listConflicts)
	users.GET("/insights", s.timed(), s.listInsights)
	users.POST("/insights", s.long(), s.generateInsights)
	users.POST("/facts", s.timed(), s.addFact)
	v1.GET("/facts/:fact_id", s.timed(), s.getFact)
	v1.PATCH("/facts/:fact_id", s.timed(), s.correctFact)
	v1.DELETE("/facts/:fact_id", s.timed(), s.retractFact)
	v1.POST("/conflicts/:conflict_id/resolve", s.timed(), s.resolveConflict)
	v1.GET("/entities/:entity_id", s.timed(), s.getEntity)
	v1.POST("/search", s.timed(), s.search)
	v1.POST("/context", s.long(), s.context) // may condense the session with the LLM first
	v1.GET("/jobs", s.timed(), s.listJobs)
	v1.GET("/usage", s.timed(), s.getUsage)
	v1.POST("/jobs/:job_id/retry", s.timed(), s.retryJob)
	// memory lifecycle (lifecycle.go)
	v1.DELETE("/users/:user_id", s.timed(), s.forgetUser)
	v1.DELETE("/sessions/:session_id", s.timed(), s.forgetSession)
	v1.GET("/erasures", s.timed(), s.listErasures)
	v1.GET("/jobs/:job_id", s.timed(), s.getJob)
	users.GET("/export", s.long(), s.exportUser) // streamed NDJSON
	v1.PATCH("/insights/:insight_id", s.timed(), s.markInsight)
	v1.PATCH("/summaries/:summary_id", s.timed(), s.markSummary)
	v1.GET("/retention", s.timed(), s.getRetention)
	v1.PUT("/retention", s.timed(), s.putRetention)
	v1.POST("/retention/sweep", s.timed(), s.sweepRetention)
	// consolidation and merge review (merges.go)
	users.POST("/consolidate", s.long(), s.consolidate) // a dry run reads the whole user
	v1.GET("/merges", s.timed(), s.listMerges)
	v1.GET("/merges/:merge_id", s.timed(), s.getMerge)
	v1.POST("/merges/:merge_id/approve", s.timed(), s.approveMerge)
	v1.POST("/merges/:merge_id/reject", s.timed(), s.rejectMerge)
	v1.POST("/merges/:merge_id/split", s.timed(), s.splitMerge)
}

// fail maps an error to a problem response; the one exit for errors.
func (s *server) fail(c *gin.Context, err error) { abortWithProblem(c, s.log, err) }

// timed applies the normal request deadline.
func (s *server) timed() gin.HandlerFunc { return deadline(s.opts.RequestTimeout) }

// long applies the deadline of requests that wait for background work.
func (s *server) long() gin.HandlerFunc { return deadline(s.opts.LongRequestTimeout) }
