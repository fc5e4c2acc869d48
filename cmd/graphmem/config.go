package main

import (
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math"
	"net"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/caarlos0/env/v11"
	"github.com/joho/godotenv"
	"go.opentelemetry.io/otel/trace"

	"github.com/graphmem/graphmem/api"
	"github.com/graphmem/graphmem/embed"
	"github.com/graphmem/graphmem/localneo4j"
	"github.com/graphmem/graphmem/ontology"
	"github.com/graphmem/graphmem/retrieval"
)

// Config is every setting of the service, read from GRAPHMEM_* variables
// (and optionally a KEY=VALUE file named by GRAPHMEM_CONFIG_FILE, which the
// environment overrides). Each package receives only its own part.
//
// The `desc` tags feed `graphmem config`, which prints the table the README
// documents; `secret` fields are masked whenever the config is shown.
type Config struct {
	ConfigFile string `env:"CONFIG_FILE" desc:"optional KEY=VALUE file; environment variables override it"`

	ListenAddr     string        `env:"LISTEN_ADDR" envDefault:"127.0.0.1:8080" desc:"HTTP listen address"`
	LogLevel       string        `env:"LOG_LEVEL" envDefault:"info" desc:"debug, info, warn or error"`
	LogFormat      string        `env:"LOG_FORMAT" envDefault:"auto" desc:"json, text, or auto (text on a terminal, JSON otherwise)"`
	APIKeys        string        `env:"API_KEYS" secret:"true" desc:"comma-separated tenant:key pairs; empty disables auth (loopback only)"`
	APIKeysFile    string        `env:"API_KEYS_FILE,file" secret:"true" desc:"file with one tenant:key (or tenant:sha256:<hex>) per line, :ro at the end for a read-only key; reloaded on SIGHUP"`
	RateLimit      float64       `env:"RATE_LIMIT" envDefault:"0" desc:"requests per second each API key may make on /v1 and /mcp, per replica (token bucket; 429 above; 0: no limit)"`
	RateBurst      int           `env:"RATE_BURST" envDefault:"0" desc:"requests an API key may make at once before RATE_LIMIT applies (0: one second's worth)"`
	MaxBodyBytes   int64         `env:"MAX_BODY_BYTES" envDefault:"8388608" desc:"largest accepted request body (413 above)"`
	RequestTimeout time.Duration `env:"REQUEST_TIMEOUT" envDefault:"60s" desc:"deadline of one API request (at most 10m, the deadline of requests that wait for background work)"`
	TrustedProxies []string      `env:"TRUSTED_PROXIES" envSeparator:"," desc:"CIDRs of reverse proxies whose X-Forwarded-For is trusted"`
	PprofAddr      string        `env:"PPROF_ADDR" desc:"loopback address for Go's pprof profiler (empty: off)"`
	MetricsAddr    string        `env:"METRICS_ADDR" desc:"host:port of a separate listener for /metrics, which then leaves the API listener (empty: /metrics on LISTEN_ADDR)"`

	Neo4jURI       string        `env:"NEO4J_URI" desc:"Bolt URI of an existing Neo4j; empty starts the local one"`
	Neo4jUser      string        `env:"NEO4J_USERNAME" desc:"Neo4j user (empty: no auth, as the local server)"`
	Neo4jPassword  string        `env:"NEO4J_PASSWORD" secret:"true" desc:"Neo4j password"`
	Neo4jPassFile  string        `env:"NEO4J_PASSWORD_FILE,file" secret:"true" desc:"file holding the Neo4j password"`
	Neo4jDatabase  string        `env:"NEO4J_DATABASE" envDefault:"neo4j" desc:"database name"`
	Neo4jTimeout   time.Duration `env:"NEO4J_QUERY_TIMEOUT" envDefault:"30s" desc:"server-side timeout of one query"`
	Neo4jHome      string        `env:"NEO4J_HOME" envDefault:".neo4j/home" desc:"local server: conf, data and logs folder"`
	Neo4jLib       string        `env:"NEO4J_LIB" envDefault:".neo4j/lib" desc:"local server: jar folder (fetched from Maven Central)"`
	Neo4jVersion   string        `env:"NEO4J_VERSION" envDefault:"5.26.29" desc:"local server: Neo4j version"`
	Neo4jBoltPort  int           `env:"NEO4J_BOLT_PORT" envDefault:"7687" desc:"local server: Bolt port"`
	Neo4jHTTPPort  int           `env:"NEO4J_HTTP_PORT" envDefault:"7474" desc:"local server: HTTP and Browser port"`
	Neo4jHeap      string        `env:"NEO4J_HEAP" envDefault:"1g" desc:"local server: JVM heap"`
	Neo4jPageCache string        `env:"NEO4J_PAGECACHE" envDefault:"512m" desc:"local server: page cache"`

	LLMBaseURL    string        `env:"LLM_BASE_URL" desc:"OpenAI-compatible base URL (e.g. https://api.openai.com/v1, http://localhost:11434/v1); empty uses the offline engine"`
	LLMAPIKey     string        `env:"LLM_API_KEY" secret:"true" desc:"API key of the LLM server"`
	LLMAPIKeyFile string        `env:"LLM_API_KEY_FILE,file" secret:"true" desc:"file holding the LLM API key"`
	LLMModel      string        `env:"LLM_MODEL" envDefault:"gpt-4o-mini" desc:"chat model for summaries, extraction and insights"`
	LLMTimeout    time.Duration `env:"LLM_TIMEOUT" envDefault:"60s" desc:"timeout of one LLM call"`
	LLMJSONSchema bool          `env:"LLM_JSON_SCHEMA" envDefault:"true" desc:"use response_format json_schema (false: json_object, for servers without it)"`
	Embedder      string        `env:"EMBEDDER" desc:"sentence embedder for vector search: local (in-process, files from make model), openai (an OpenAI-compatible server, EMBEDDING_MODEL) or off; empty: openai when EMBEDDING_MODEL is set, else local"`
	ModelDir      string        `env:"MODEL_DIR" envDefault:".models" desc:"local embedder: folder make model fills (model, tokenizer, ONNX Runtime)"`
	ModelFile     string        `env:"EMBEDDING_MODEL_FILE" desc:"local embedder: another BERT-family ONNX sentence encoder (default: all-MiniLM-L6-v2 in MODEL_DIR)"`
	TokenizerFile string        `env:"EMBEDDING_TOKENIZER_FILE" desc:"local embedder: that model's tokenizer.json or vocab.txt"`
	ORTLibrary    string        `env:"ONNXRUNTIME_LIB" desc:"local embedder: ONNX Runtime shared library (default: the one in MODEL_DIR)"`
	EmbedPooling  string        `env:"EMBEDDING_POOLING" envDefault:"mean" desc:"local embedder: mean or cls pooling, as the model was trained"`
	EmbedThreads  int           `env:"EMBEDDING_THREADS" envDefault:"1" desc:"local embedder: ONNX Runtime threads per call"`
	QueryCompute  string        `env:"EMBEDDING_QUERY_COMPUTE" envDefault:"int8" desc:"local embedder: how a search's question is embedded: int8 (the products that do not read a LayerNorm on ONNX Runtime's int8 kernels, a fifth less CPU; stored memories stay fp32) or fp32"`
	QueryCache    int           `env:"EMBEDDING_QUERY_CACHE" envDefault:"4096" desc:"questions whose vectors search keeps, per tenant, for when they are asked again (about 1.6 KB each with MiniLM); 0: off"`
	RawCacheTurns int           `env:"RAW_CACHE_TURNS" envDefault:"50000" desc:"raw turns whose text search keeps in this replica's memory instead of reading it from Neo4j again (about 600 bytes each); 0: off"`
	EmbedWorkers  int           `env:"EMBEDDING_WORKERS" envDefault:"1" desc:"concurrent batches of the embedding lane (0, or WORKERS=0: no lane on this replica)"`
	EntityVectors bool          `env:"ENTITY_VECTORS" envDefault:"false" desc:"also embed entity names for entity resolution (off: measured to merge unrelated short names)"`
	EmbedModel    string        `env:"EMBEDDING_MODEL" desc:"openai embedder: model name"`
	EmbedDims     int           `env:"EMBEDDING_DIMENSIONS" envDefault:"1536" desc:"openai embedder: embedding size (the stored vectors' and the entity name index's dimension)"`
	EmbedBaseURL  string        `env:"EMBEDDING_BASE_URL" desc:"openai embedder: base URL when it differs from LLM_BASE_URL"`

	ExtraFactTypes   []string      `env:"EXTRA_FACT_TYPES" envSeparator:"," desc:"extra UPPER_SNAKE relationship types for facts"`
	CondenserProfile string        `env:"CONDENSER_PROFILE" envDefault:"default" desc:"condenser profile used when a request names none"`
	ProfilesFile     string        `env:"CONDENSER_PROFILES_FILE" desc:"JSON file of extra named condenser profiles"`
	Workers          int           `env:"WORKERS" envDefault:"2" desc:"background job workers per replica"`
	SearchFusion     string        `env:"SEARCH_FUSION" envDefault:"weighted" desc:"how search combines signals: weighted (sum of normalized signals) or rrf (reciprocal rank fusion)"`
	SearchWeights    string        `env:"SEARCH_WEIGHTS" envDefault:"text=1,vector=0.4,graph=0.7,recency=0.05" desc:"weights of the search signals (weighted fusion)"`
	SearchTiers      string        `env:"SEARCH_TIER_WEIGHTS" envDefault:"fact=1.05,raw=1,insight=0.8,event=0.55,entity=0.5" desc:"score multiplier per result kind"`
	SearchHalfLife   time.Duration `env:"SEARCH_HALF_LIFE" envDefault:"4320h" desc:"recency half-life of search (default 180 days)"`
	SearchHops       int           `env:"SEARCH_HOPS" envDefault:"2" desc:"graph traversal depth of search (1-3)"`
	SearchPool       int           `env:"SEARCH_POOL" envDefault:"30" desc:"least full-text candidates of raw turns in one search; more finds more, at more CPU"`
	VectorPool       int           `env:"SEARCH_VECTOR_POOL" envDefault:"100" desc:"least nearest neighbours the exact vector scan of the user's memories contributes to one search"`
	VectorFloor      float64       `env:"SEARCH_VECTOR_FLOOR" envDefault:"0.05" desc:"cosine similarity below which a vector hit counts for nothing (the embedding model's level for unrelated texts)"`
	VectorSpan       float64       `env:"SEARCH_VECTOR_SPAN" envDefault:"0.55" desc:"cosine above the floor at which a vector hit counts fully"`
	JobMaxAttempts   int           `env:"JOB_MAX_ATTEMPTS" envDefault:"5" desc:"attempts before a job is marked failed"`
	JobLease         time.Duration `env:"JOB_LEASE" envDefault:"30s" desc:"how long a claimed job (or embedding batch) waits before another replica retries it if its worker died"`
	JobBackoff       time.Duration `env:"JOB_BACKOFF" envDefault:"2s" desc:"delay before a failed job's first retry (doubles each attempt, at most 5m)"`
	WorkerTenants    []string      `env:"WORKER_TENANTS" envSeparator:"," desc:"dedicate this replica's workers to these tenants (empty: all)"`
	IdleClose        time.Duration `env:"SESSION_IDLE_CLOSE" envDefault:"30m" desc:"sessions idle this long are condensed and extracted (0 disables)"`
	RetentionFile    string        `env:"RETENTION_FILE" desc:"JSON file of retention policies by tenant (\"*\": every tenant), e.g. {\"*\": {\"raw_text_days\": 90}}; PUT /v1/retention overrides"`
	AccessFlushEvery time.Duration `env:"ACCESS_FLUSH_EVERY" envDefault:"30s" desc:"how often the access counts of search results are written (0 disables counting and decay)"`
	AccessDecay      float64       `env:"SEARCH_ACCESS_DECAY" envDefault:"0" desc:"decay of results by years since last returned, slower the more often (0 keeps rankings as they are; pinned and critical exempt)"`
	RetentionEvery   time.Duration `env:"RETENTION_EVERY" envDefault:"1h" desc:"how often tenants with a retention policy are swept (0 disables; POST /v1/retention/sweep still works)"`

	LLMTokenBudget  int64         `env:"LLM_BUDGET" envDefault:"0" desc:"LLM tokens (prompt + completion) each tenant may use per LLM_BUDGET_WINDOW; jobs over it wait for the next window (0: no budget)"`
	LLMBudgetWindow time.Duration `env:"LLM_BUDGET_WINDOW" envDefault:"24h" desc:"the token budget's window, aligned to UTC (24h: midnight to midnight)"`
	OTelEndpoint    string        `env:"OTEL_ENDPOINT" desc:"OTLP/HTTP endpoint traces are sent to (e.g. http://localhost:4318); empty: tracing off unless the standard OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set"`
	OTelSampleRatio float64       `env:"OTEL_SAMPLE_RATIO" envDefault:"1" desc:"share of new traces kept (0-1]; a caller's sampled traceparent is always followed"`

	// apiKeysPath is the path of API_KEYS_FILE, read again on SIGHUP.
	apiKeysPath string
	// otelStandard: the standard OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT is
	// set, which the exporter reads itself.
	otelStandard bool
	// tracer, when set (tests), replaces the provider the settings build.
	tracer trace.TracerProvider
}

const envPrefix = "GRAPHMEM_"

// loadConfig reads the configuration through getenv (os.Getenv in main, a
// map in tests) and validates it, reporting every problem at once.
func loadConfig(getenv func(string) string, environ []string) (Config, error) {
	vars := map[string]string{}
	if path := getenv(envPrefix + "CONFIG_FILE"); path != "" {
		fileVars, err := godotenv.Read(path)
		if err != nil {
			return Config{}, fmt.Errorf("read config file %s: %w", path, err)
		}
		for k, v := range fileVars {
			vars[k] = v
		}
	}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(k, envPrefix) {
			vars[k] = v
		}
	}
	var cfg Config
	if err := env.ParseWithOptions(&cfg, env.Options{Prefix: envPrefix, Environment: vars}); err != nil {
		return cfg, parseErrors(err)
	}
	cfg.apiKeysPath = vars[envPrefix+"API_KEYS_FILE"] // the field holds the file's content
	cfg.otelStandard = getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
	return cfg, cfg.validate()
}

// parseErrors rewrites the env library's errors, which name Go fields, to
// name the variables a user sets, and lists all of them.
func parseErrors(err error) error {
	var agg env.AggregateError
	if !errors.As(err, &agg) {
		return fmt.Errorf("configuration: %w", err)
	}
	t := reflect.TypeFor[Config]()
	var out []error
	for _, e := range agg.Errors {
		var pe env.ParseError
		if errors.As(e, &pe) {
			if f, ok := t.FieldByName(pe.Name); ok {
				name, _, _ := strings.Cut(f.Tag.Get("env"), ",")
				out = append(out, fmt.Errorf("%s%s: cannot parse as %s: %w", envPrefix, name, pe.Type, errors.Unwrap(pe.Err)))
				continue
			}
		}
		out = append(out, e)
	}
	return fmt.Errorf("invalid configuration (%d problems):\n  %w", len(out), joinLines(out))
}

// validate lists every problem, naming the variable, so one restart fixes all.
func (c Config) validate() error {
	var errs []error
	bad := func(name, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s%s: %s", envPrefix, name, fmt.Sprintf(format, args...)))
	}
	if _, _, err := net.SplitHostPort(c.ListenAddr); err != nil {
		bad("LISTEN_ADDR", "%q is not host:port", c.ListenAddr)
	}
	if c.MetricsAddr != "" {
		if _, _, err := net.SplitHostPort(c.MetricsAddr); err != nil {
			bad("METRICS_ADDR", "%q is not host:port", c.MetricsAddr)
		} else if c.MetricsAddr == c.ListenAddr {
			bad("METRICS_ADDR", "%q is LISTEN_ADDR; a separate listener needs its own address", c.MetricsAddr)
		}
	}
	if c.PprofAddr != "" && !isLoopback(c.PprofAddr) {
		bad("PPROF_ADDR", "%q must be a loopback host:port (profiles reveal internals)", c.PprofAddr)
	}
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		bad("LOG_LEVEL", "%q must be debug, info, warn or error", c.LogLevel)
	}
	switch c.LogFormat {
	case "auto", "json", "text":
	default:
		bad("LOG_FORMAT", "%q must be auto, json or text", c.LogFormat)
	}
	if c.MaxBodyBytes < 1024 {
		bad("MAX_BODY_BYTES", "%d is below 1024", c.MaxBodyBytes)
	}
	if c.RequestTimeout < time.Second {
		bad("REQUEST_TIMEOUT", "%s is below 1s", c.RequestTimeout)
	}
	if c.RequestTimeout > longRequest {
		// The HTTP server's write timeout follows the long-request deadline;
		// an ordinary request allowed longer would be cut off mid-response.
		bad("REQUEST_TIMEOUT", "%s exceeds %s, the deadline of requests that wait for background work", c.RequestTimeout, longRequest)
	}
	for _, cidr := range c.TrustedProxies {
		if _, _, err := net.ParseCIDR(strings.TrimSpace(cidr)); err != nil && net.ParseIP(strings.TrimSpace(cidr)) == nil {
			bad("TRUSTED_PROXIES", "%q is not an IP or CIDR", cidr)
		}
	}
	if c.APIKeys != "" && c.APIKeysFile != "" {
		bad("API_KEYS", "set API_KEYS or API_KEYS_FILE, not both")
	}
	if _, err := api.ParseKeys(c.apiKeySource()); err != nil {
		bad("API_KEYS", "%v", err)
	}
	if c.RateLimit < 0 || math.IsNaN(c.RateLimit) || math.IsInf(c.RateLimit, 0) {
		bad("RATE_LIMIT", "must be a finite number of requests per second, at least 0 (0: no limit)")
	}
	if c.RateBurst < 0 {
		bad("RATE_BURST", "must be at least 0 (0: one second's worth of RATE_LIMIT)")
	}
	if c.Neo4jURI != "" {
		if u, err := url.Parse(c.Neo4jURI); err != nil || !validBoltScheme(u.Scheme) {
			bad("NEO4J_URI", "%q must be a neo4j://, neo4j+s://, bolt:// or bolt+s:// URI", c.Neo4jURI)
		}
	}
	if c.Neo4jPassword != "" && c.Neo4jPassFile != "" {
		bad("NEO4J_PASSWORD", "set NEO4J_PASSWORD or NEO4J_PASSWORD_FILE, not both")
	}
	if c.Neo4jTimeout < time.Second {
		bad("NEO4J_QUERY_TIMEOUT", "%s is below 1s", c.Neo4jTimeout)
	}
	for name, port := range map[string]int{"NEO4J_BOLT_PORT": c.Neo4jBoltPort, "NEO4J_HTTP_PORT": c.Neo4jHTTPPort} {
		if port < 1 || port > 65535 {
			bad(name, "%d is outside 1-65535", port)
		}
	}
	for name, size := range map[string]string{"NEO4J_HEAP": c.Neo4jHeap, "NEO4J_PAGECACHE": c.Neo4jPageCache} {
		if !localneo4j.ValidSize(size) {
			bad(name, "%q must be a size like 512m or 1g", size)
		}
	}
	if c.LLMBaseURL != "" {
		if u, err := url.Parse(c.LLMBaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("LLM_BASE_URL", "%q must be an http(s) URL", c.LLMBaseURL)
		}
		if c.LLMModel == "" {
			bad("LLM_MODEL", "required when LLM_BASE_URL is set")
		}
	}
	if c.LLMAPIKey != "" && c.LLMAPIKeyFile != "" {
		bad("LLM_API_KEY", "set LLM_API_KEY or LLM_API_KEY_FILE, not both")
	}
	if c.LLMTimeout < time.Second {
		bad("LLM_TIMEOUT", "%s is below 1s", c.LLMTimeout)
	}
	switch c.embedder() {
	case embedderLocal:
		if c.EmbedPooling != "mean" && c.EmbedPooling != "cls" {
			bad("EMBEDDING_POOLING", "%q must be mean or cls", c.EmbedPooling)
		}
		if c.EmbedThreads < 1 || c.EmbedThreads > 64 {
			bad("EMBEDDING_THREADS", "%d must be within 1-64", c.EmbedThreads)
		}
		if c.QueryCompute != embed.ComputeInt8 && c.QueryCompute != embed.ComputeFP32 {
			bad("EMBEDDING_QUERY_COMPUTE", "%q must be int8 or fp32", c.QueryCompute)
		}
		if (c.ModelFile == "") != (c.TokenizerFile == "") {
			bad("EMBEDDING_MODEL_FILE", "set EMBEDDING_MODEL_FILE and EMBEDDING_TOKENIZER_FILE together")
		}
	case embedderOpenAI:
		if c.EmbedModel == "" {
			bad("EMBEDDING_MODEL", "required when EMBEDDER is openai")
		}
	case embedderOff:
	default:
		bad("EMBEDDER", "%q must be local, openai or off", c.Embedder)
	}
	if c.RawCacheTurns < 0 || c.RawCacheTurns > 10_000_000 {
		bad("RAW_CACHE_TURNS", "%d must be within 0-10000000", c.RawCacheTurns)
	}
	if c.QueryCache < 0 || c.QueryCache > 1_000_000 {
		bad("EMBEDDING_QUERY_CACHE", "%d must be within 0-1000000", c.QueryCache)
	}
	if c.EmbedWorkers < 0 || c.EmbedWorkers > 64 {
		bad("EMBEDDING_WORKERS", "%d must be within 0-64", c.EmbedWorkers)
	}
	if c.embedder() == embedderOpenAI {
		if c.EmbedDims < 1 || c.EmbedDims > 4096 {
			bad("EMBEDDING_DIMENSIONS", "%d must be within 1-4096 (Neo4j's vector index limit)", c.EmbedDims)
		}
		if c.LLMBaseURL == "" && c.EmbedBaseURL == "" {
			bad("EMBEDDING_MODEL", "needs EMBEDDING_BASE_URL or LLM_BASE_URL")
		}
	}
	if c.SearchPool < 1 || c.SearchPool > 1000 {
		bad("SEARCH_POOL", "%d must be within 1-1000", c.SearchPool)
	}
	if c.VectorPool < 1 || c.VectorPool > 1000 {
		bad("SEARCH_VECTOR_POOL", "%d must be within 1-1000", c.VectorPool)
	}
	if c.VectorFloor < -1 || c.VectorFloor >= 1 {
		bad("SEARCH_VECTOR_FLOOR", "%g must be within [-1, 1)", c.VectorFloor)
	}
	if c.VectorSpan <= 0 || c.VectorSpan > 2 {
		bad("SEARCH_VECTOR_SPAN", "%g must be within (0, 2]", c.VectorSpan)
	}
	if c.SearchFusion != "weighted" && c.SearchFusion != "rrf" {
		bad("SEARCH_FUSION", "%q must be weighted or rrf", c.SearchFusion)
	}
	if _, err := parseWeights(c.SearchWeights, signalNames()); err != nil {
		bad("SEARCH_WEIGHTS", "%v", err)
	}
	if _, err := parseWeights(c.SearchTiers, tierNames()); err != nil {
		bad("SEARCH_TIER_WEIGHTS", "%v", err)
	}
	if c.SearchHalfLife < time.Hour {
		bad("SEARCH_HALF_LIFE", "%s is below 1h", c.SearchHalfLife)
	}
	if c.SearchHops < 1 || c.SearchHops > 3 {
		bad("SEARCH_HOPS", "%d must be within 1-3", c.SearchHops)
	}
	for _, t := range c.ExtraFactTypes {
		if !ontology.ValidRelType(t) {
			bad("EXTRA_FACT_TYPES", "%q must be UPPER_SNAKE (a letter first, at most 64 characters)", t)
		}
	}
	if profiles, err := loadProfiles(c.ProfilesFile); err != nil {
		bad("CONDENSER_PROFILES_FILE", "%v", err)
	} else if _, ok := profiles[c.CondenserProfile]; !ok && c.CondenserProfile != "" {
		bad("CONDENSER_PROFILE", "%q is not a profile; choose one of %s", c.CondenserProfile,
			strings.Join(slices.Sorted(maps.Keys(profiles)), ", "))
	}
	for _, t := range c.WorkerTenants {
		if !api.ValidTenant(t) {
			bad("WORKER_TENANTS", "%q is not a tenant name: it must start with a letter or digit and contain only letters, digits and _.- (at most 64 characters)", t)
		}
	}
	if _, err := loadRetention(c.RetentionFile); err != nil {
		bad("RETENTION_FILE", "%v", err)
	}
	if c.AccessFlushEvery != 0 && c.AccessFlushEvery < time.Second {
		bad("ACCESS_FLUSH_EVERY", "%s is below 1s (0 disables)", c.AccessFlushEvery)
	}
	if c.AccessDecay < 0 || c.AccessDecay > 100 {
		bad("SEARCH_ACCESS_DECAY", "%g must be within [0, 100]", c.AccessDecay)
	}
	if c.RetentionEvery != 0 && c.RetentionEvery < time.Minute {
		bad("RETENTION_EVERY", "%s is below 1m (0 disables)", c.RetentionEvery)
	}
	if c.Workers < 0 || c.Workers > 64 {
		bad("WORKERS", "%d must be within 0-64", c.Workers)
	}
	if c.JobMaxAttempts < 1 {
		bad("JOB_MAX_ATTEMPTS", "%d must be at least 1", c.JobMaxAttempts)
	}
	if c.JobBackoff < 10*time.Millisecond || c.JobBackoff > 5*time.Minute {
		bad("JOB_BACKOFF", "%s must be within 10ms-5m", c.JobBackoff)
	}
	if c.JobLease < time.Second {
		bad("JOB_LEASE", "%s is below 1s", c.JobLease)
	}
	if c.IdleClose < 0 {
		bad("SESSION_IDLE_CLOSE", "%s must not be negative", c.IdleClose)
	}
	if c.LLMTokenBudget < 0 {
		bad("LLM_BUDGET", "%d must not be negative", c.LLMTokenBudget)
	}
	if c.LLMBudgetWindow < time.Second {
		bad("LLM_BUDGET_WINDOW", "%s is below 1s", c.LLMBudgetWindow)
	}
	if c.OTelEndpoint != "" {
		if u, err := url.Parse(c.OTelEndpoint); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("OTEL_ENDPOINT", "%q must be an http(s) URL", c.OTelEndpoint)
		}
	}
	if !(c.OTelSampleRatio > 0 && c.OTelSampleRatio <= 1) {
		bad("OTEL_SAMPLE_RATIO", "%g must be within (0, 1]", c.OTelSampleRatio)
	}
	if len(errs) > 0 {
		return fmt.Errorf("invalid configuration (%d problems):\n  %w", len(errs), joinLines(errs))
	}
	return nil
}

// parseWeights reads "name=value,..." where every name is allowed and
// every value a non-negative number.
func parseWeights(spec string, allowed []string) (map[string]float64, error) {
	out := map[string]float64{}
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, val, ok := strings.Cut(part, "=")
		if !ok || !slices.Contains(allowed, strings.TrimSpace(name)) {
			return nil, fmt.Errorf("%q: want name=number with a name among %s", part, strings.Join(allowed, ", "))
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		if err != nil || f < 0 {
			return nil, fmt.Errorf("%q: the weight must be a non-negative number", part)
		}
		out[strings.TrimSpace(name)] = f
	}
	return out, nil
}

// searchConfig turns the SEARCH_* settings into the ranking configuration,
// starting from the defaults for anything not set.
// rawCacheTurns maps RAW_CACHE_TURNS to graph.Config.RawCacheTurns, where
// 0 means the default and a negative size turns the cache off.
func (c Config) rawCacheTurns() int {
	if c.RawCacheTurns == 0 {
		return -1
	}
	return c.RawCacheTurns
}

func (c Config) searchConfig() retrieval.Config {
	sc := retrieval.DefaultConfig()
	sc.Fusion = c.SearchFusion
	sc.HalfLife = c.SearchHalfLife
	sc.Hops = c.SearchHops
	sc.VectorFloor, sc.VectorSpan = c.VectorFloor, c.VectorSpan
	sc.AccessDecay = c.AccessDecay
	sc.Pool, sc.VectorPool = c.SearchPool, c.VectorPool
	sc.QueryCache = c.QueryCache
	if w, err := parseWeights(c.SearchWeights, signalNames()); err == nil {
		fields := signalWeights(&sc)
		for name, v := range w {
			*fields[name] = v
		}
	}
	if w, err := parseWeights(c.SearchTiers, tierNames()); err == nil {
		maps.Copy(sc.TierWeights, w)
	}
	return sc
}

// signalWeights maps each name SEARCH_WEIGHTS accepts to the weight it
// sets, so validate and searchConfig share one list of names.
func signalWeights(sc *retrieval.Config) map[string]*float64 {
	return map[string]*float64{"text": &sc.WeightText, "vector": &sc.WeightVector, "graph": &sc.WeightGraph, "recency": &sc.WeightRecency}
}

func signalNames() []string { return slices.Sorted(maps.Keys(signalWeights(&retrieval.Config{}))) }

// tierNames are the result kinds SEARCH_TIER_WEIGHTS accepts: those
// retrieval weighs.
func tierNames() []string { return slices.Sorted(maps.Keys(retrieval.DefaultConfig().TierWeights)) }

func validBoltScheme(s string) bool {
	switch s {
	case "neo4j", "neo4j+s", "neo4j+ssc", "bolt", "bolt+s", "bolt+ssc":
		return true
	}
	return false
}

// joinLines joins errors one per line (errors.Join uses bare newlines; the
// indent keeps the list readable under its heading).
func joinLines(errs []error) error {
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	return errors.New(strings.Join(msgs, "\n  "))
}

func (c Config) apiKeySource() string {
	if c.APIKeysFile != "" {
		return c.APIKeysFile
	}
	return c.APIKeys
}

func (c Config) neo4jPassword() string {
	if c.Neo4jPassFile != "" {
		return strings.TrimSpace(c.Neo4jPassFile)
	}
	return c.Neo4jPassword
}

func (c Config) llmAPIKey() string {
	if c.LLMAPIKeyFile != "" {
		return strings.TrimSpace(c.LLMAPIKeyFile)
	}
	return c.LLMAPIKey
}

// The embedders GRAPHMEM_EMBEDDER names.
const (
	embedderLocal  = "local"
	embedderOpenAI = "openai"
	embedderOff    = "off"
)

// embedder resolves GRAPHMEM_EMBEDDER: unset means openai when an embedding
// model is named (the setting that enabled vectors before the local
// embedder existed), else the local one.
func (c Config) embedder() string {
	if c.Embedder != "" {
		return c.Embedder
	}
	if c.EmbedModel != "" {
		return embedderOpenAI
	}
	return embedderLocal
}

// embedded reports whether graphmem starts the local Neo4j itself.
func (c Config) embedded() bool { return c.Neo4jURI == "" }

// LogValue masks secrets whenever the config is logged.
func (c Config) LogValue() slog.Value {
	var attrs []slog.Attr
	for _, f := range configFields(c) {
		attrs = append(attrs, slog.String(f.Name, f.Shown))
	}
	return slog.GroupValue(attrs...)
}

// configField is one documented setting with its current value, masked if
// secret.
type configField struct {
	Name, Default, Desc, Shown string
	Secret                     bool
}

func configFields(c Config) []configField {
	v := reflect.ValueOf(c)
	t := v.Type()
	out := make([]configField, 0, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("env"), ",")
		if name == "" {
			continue
		}
		secret := f.Tag.Get("secret") == "true"
		shown := fmt.Sprint(v.Field(i).Interface())
		if secret && shown != "" {
			shown = "********"
		}
		out = append(out, configField{Name: envPrefix + name, Default: f.Tag.Get("envDefault"),
			Desc: f.Tag.Get("desc"), Shown: shown, Secret: secret})
	}
	return out
}
