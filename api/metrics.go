package api

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/graphmem/graphmem/telemetry"
)

// Metrics is graphmem's Prometheus registry. It is created once in main and
// passed to whoever reports: the router (HTTP timings), the graph store
// (Neo4j timings, through ObserveQuery) and the job workers.
type Metrics struct {
	Registry      *prometheus.Registry
	httpRequests  *prometheus.CounterVec
	httpDuration  *prometheus.HistogramVec
	queryDuration *prometheus.HistogramVec
	jobs          *prometheus.CounterVec
	jobDuration   *prometheus.HistogramVec
	embedded      *prometheus.CounterVec
	embedSeconds  prometheus.Counter
	embedBacklog  prometheus.Gauge
	embedLag      prometheus.Gauge
	llmCalls      *prometheus.CounterVec
	llmTokens     *prometheus.CounterVec
}

// NewMetrics builds a registry with Go runtime and process collectors.
func NewMetrics() *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		Registry: reg,
		httpRequests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "graphmem_http_requests_total", Help: "HTTP requests by route, method and status.",
		}, []string{"route", "method", "status"}),
		httpDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "graphmem_http_request_duration_seconds", Help: "HTTP request latency by route and method.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"route", "method"}),
		queryDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "graphmem_neo4j_query_duration_seconds", Help: "Neo4j query latency by operation and outcome.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 5},
		}, []string{"op", "outcome"}),
		jobs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "graphmem_jobs_total", Help: "Background jobs finished by kind and outcome.",
		}, []string{"kind", "outcome"}),
		jobDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "graphmem_job_duration_seconds", Help: "Background job run time by kind.",
			Buckets: prometheus.ExponentialBuckets(0.005, 2.5, 12),
		}, []string{"kind"}),
		embedded: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "graphmem_embeddings_total", Help: "Texts embedded by the embedding lane, by tier (raw, event, insight).",
		}, []string{"kind"}),
		embedSeconds: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "graphmem_embedding_seconds_total", Help: "Wall time the embedding lane spent in the embedder.",
		}),
		embedBacklog: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "graphmem_embedding_backlog", Help: "Memories waiting for their vector.",
		}),
		embedLag: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "graphmem_embedding_lag_seconds", Help: "Age of the oldest memory waiting for its vector (0 when none waits).",
		}),
		// Usage is labelled by tenant only: tenants are few (one per API
		// key), users are unbounded, so per-user usage is served by
		// GET /v1/usage and on each job instead of as a label.
		llmCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "graphmem_llm_calls_total", Help: "LLM and embedding calls (retries inside a call not counted) by tenant and op (summarize, extract, insights, attention, embed).",
		}, []string{"tenant", "op"}),
		llmTokens: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "graphmem_llm_tokens_total", Help: "Tokens LLM and embedding servers reported by tenant and type (prompt, completion).",
		}, []string{"tenant", "type"}),
	}
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.httpRequests, m.httpDuration, m.queryDuration, m.jobs, m.jobDuration,
		m.embedded, m.embedSeconds, m.embedBacklog, m.embedLag, m.llmCalls, m.llmTokens)
	return m
}

// WatchQueryCache exports the query embedding cache's counts
// (graphmem_query_embedding_cache_total{result="hit"|"miss"}), read from
// stats at each scrape.
func (m *Metrics) WatchQueryCache(stats func() (hits, misses int64)) {
	m.Registry.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "graphmem_query_embedding_cache_total", Help: "Search questions whose vector came from the query embedding cache (hit) or the model (miss).",
		ConstLabels: prometheus.Labels{"result": "hit"},
	}, func() float64 { h, _ := stats(); return float64(h) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "graphmem_query_embedding_cache_total", Help: "Search questions whose vector came from the query embedding cache (hit) or the model (miss).",
			ConstLabels: prometheus.Labels{"result": "miss"},
		}, func() float64 { _, mi := stats(); return float64(mi) }))
}

// WatchRawCache exports the raw turn cache's counts
// (graphmem_raw_cache_turns_total{result="hit"|"miss"}: the turns search
// rows named that came from the replica's cache or were read from Neo4j),
// read from stats at each scrape.
func (m *Metrics) WatchRawCache(stats func() (hits, misses int64)) {
	const help = "Raw turns search rows named, served from this replica's raw turn cache (hit) or read from Neo4j (miss)."
	m.Registry.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "graphmem_raw_cache_turns_total", Help: help, ConstLabels: prometheus.Labels{"result": "hit"},
	}, func() float64 { h, _ := stats(); return float64(h) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "graphmem_raw_cache_turns_total", Help: help, ConstLabels: prometheus.Labels{"result": "miss"},
		}, func() float64 { _, mi := stats(); return float64(mi) }))
}

// ObserveQuery records one Neo4j query; graph.Config.Observe points here.
func (m *Metrics) ObserveQuery(op string, d time.Duration, err error) {
	m.queryDuration.WithLabelValues(op, outcome(err)).Observe(d.Seconds())
}

// ObserveLLM records one LLM or embedding call for the tenant its context
// names (telemetry.Scope; "none" outside any tenant's work);
// llm.Config.OnUsage points here.
func (m *Metrics) ObserveLLM(ctx context.Context, op string, u telemetry.Usage) {
	tenant := telemetry.ScopeFrom(ctx).Tenant
	if tenant == "" {
		tenant = "none"
	}
	m.llmCalls.WithLabelValues(tenant, op).Inc()
	m.llmTokens.WithLabelValues(tenant, "prompt").Add(float64(u.PromptTokens))
	m.llmTokens.WithLabelValues(tenant, "completion").Add(float64(u.CompletionTokens))
}

// ObserveJob records one finished background job.
func (m *Metrics) ObserveJob(kind string, d time.Duration, err error) {
	m.jobs.WithLabelValues(kind, outcome(err)).Inc()
	m.jobDuration.WithLabelValues(kind).Observe(d.Seconds())
}

// ObserveEmbeddings records one batch of the embedding lane: how many texts
// of each tier, and the time the embedder took.
func (m *Metrics) ObserveEmbeddings(kinds map[string]int, d time.Duration) {
	for k, n := range kinds {
		m.embedded.WithLabelValues(k).Add(float64(n))
	}
	m.embedSeconds.Add(d.Seconds())
}

// SetEmbeddingBacklog records the lane's queue size and the age of its
// oldest item.
func (m *Metrics) SetEmbeddingBacklog(pending int64, lag time.Duration) {
	m.embedBacklog.Set(float64(pending))
	m.embedLag.Set(lag.Seconds())
}

func outcome(err error) string {
	if err != nil {
		return "error"
	}
	return "ok"
}

// middleware times every request by its route template (never the raw
// path, which would explode label cardinality with ids).
func (m *Metrics) middleware() gin.HandlerFunc {
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		route := c.FullPath()
		if route == "" {
			route = "unmatched"
		}
		m.httpRequests.WithLabelValues(route, c.Request.Method, strconv.Itoa(c.Writer.Status())).Inc()
		m.httpDuration.WithLabelValues(route, c.Request.Method).Observe(time.Since(start).Seconds())
	}
}

// Handler serves the registry in the Prometheus text format, on the API
// router or on a listener of its own (GRAPHMEM_METRICS_ADDR).
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{})
}
