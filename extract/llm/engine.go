package llm

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"text/template"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"go.opentelemetry.io/otel/trace"

	"github.com/graphmem/graphmem/extract"
	"github.com/graphmem/graphmem/telemetry"
)

// promptFS holds the prompt templates. They live in files rather than Go
// strings so that a prompt change is a reviewable text diff and the golden
// files in testdata show exactly what a model receives.
//
//go:embed prompts/*.tmpl
var promptFS embed.FS

// Defaults applied by New to zero fields. They are sized for a hosted
// model; a slow local model on CPU may need a longer Timeout.
const (
	// defaultBaseURL is OpenAI's API, used when BaseURL is empty.
	defaultBaseURL = "https://api.openai.com/v1"
	// defaultAzureAPIVersion is the first GA Azure API version with
	// json_schema structured outputs.
	defaultAzureAPIVersion = "2024-10-21"
	// defaultTimeout bounds one HTTP attempt. Extraction of a large window
	// can take tens of seconds on a hosted model; longer than a minute means
	// the server is stuck and a retry is the better bet.
	defaultTimeout = 60 * time.Second
	// defaultMaxRetries gives four attempts in all, enough to ride out a
	// rate-limit window without holding a condensation worker for minutes.
	defaultMaxRetries = 3
	// defaultRetryBaseDelay is the first backoff step; it doubles per retry.
	defaultRetryBaseDelay = 500 * time.Millisecond
	// defaultRetryMaxDelay caps one backoff step. A server asking for a
	// longer Retry-After ends the retries at once: the durable job queue
	// retries later, which is cheaper than a worker sleeping.
	defaultRetryMaxDelay = 30 * time.Second
	// defaultEmbeddingBatch keeps embedding requests small enough for
	// local servers (llama.cpp, Ollama) whose batch limits are low.
	defaultEmbeddingBatch = 64
	// defaultMaxEventChars truncates each event in extraction, insight and
	// attention prompts; a pasted log or tool dump rarely carries facts past
	// its first few thousand characters.
	defaultMaxEventChars = 4000
)

// Config configures the OpenAI-compatible engine. It is this package's own
// small config; the service maps its settings onto it. Zero durations and
// sizes take the defaults above.
type Config struct {
	// BaseURL is the API root including its version path, so any
	// OpenAI-compatible server works: https://api.openai.com/v1,
	// http://localhost:11434/v1 (Ollama), http://localhost:8000/v1 (vLLM),
	// http://localhost:8080/v1 (llama.cpp), http://localhost:1234/v1 (LM
	// Studio). For Azure it is the resource endpoint
	// (https://NAME.openai.azure.com). Empty means OpenAI.
	BaseURL string
	// APIKey is sent as a bearer token (as the api-key header for Azure).
	// Local servers usually need none.
	APIKey string
	// APIType is "" or "openai" for any OpenAI-compatible server, "azure"
	// for Azure OpenAI with an API key, "azure_ad" for Azure with an Entra
	// token in APIKey. Azure maps Model to the deployment name.
	APIType string
	// APIVersion is Azure's api-version; empty means
	// defaultAzureAPIVersion. Ignored for other servers.
	APIVersion string
	// Organization is sent as OpenAI-Organization when set.
	Organization string

	// Model is the chat model (or Azure deployment) for every LLM step.
	Model string
	// EmbeddingModel is the embeddings model; empty disables Embed.
	EmbeddingModel string
	// EmbeddingDimensions is the vector size the graph's index expects.
	// Every returned vector is checked against it; 0 only checks that all
	// vectors of a call have the same size.
	EmbeddingDimensions int
	// RequestEmbeddingDimensions sends EmbeddingDimensions as the request's
	// `dimensions` so the server shortens vectors. Only OpenAI's
	// text-embedding-3 models accept it; other servers reject or ignore it.
	RequestEmbeddingDimensions bool
	// EmbeddingBatchSize is the number of texts per embeddings request.
	EmbeddingBatchSize int

	// Timeout bounds each HTTP attempt (not the whole call with its retries;
	// the caller's ctx bounds that).
	Timeout time.Duration
	// MaxRetries is the number of retries after the first attempt for
	// transient failures. 0 means the default (3); negative means none.
	MaxRetries int
	// RetryBaseDelay and RetryMaxDelay shape the exponential backoff.
	RetryBaseDelay time.Duration
	RetryMaxDelay  time.Duration

	// Temperature is sent when set; nil leaves the server's default, which
	// reasoning models require. 0 is sent as the smallest positive float
	// because the wire format omits a zero temperature.
	Temperature *float32
	// MaxTokens caps each completion (sent as max_tokens, which every
	// compatible server understands). 0 leaves the server's default; leave
	// it 0 for OpenAI reasoning models, which reject max_tokens.
	MaxTokens int
	// UseJSONSchema asks for response_format json_schema (strict), which
	// OpenAI, Azure, vLLM, llama.cpp, Ollama and LM Studio support. When
	// false the engine falls back to json_object and puts the schema in the
	// prompt, for servers that lack json_schema. Output is validated either
	// way. The service should default it to true.
	UseJSONSchema bool
	// MaxEventChars truncates each event in the extraction, insight and
	// attention prompts (summaries use extract.SummaryRequest.MaxEventLength).
	// Negative means no truncation.
	MaxEventChars int

	// HTTPClient replaces the default client (proxies, custom TLS). Leave
	// its Timeout zero: per-attempt deadlines come from Timeout.
	HTTPClient *http.Client

	// Tracer, when set, gets one client span per logical call (retries
	// inside it) with the model, tokens and latency; nil traces nothing.
	Tracer trace.TracerProvider
	// OnUsage, when set, is told each logical call's usage (tokens 0 when
	// it failed) with the call's context, whose telemetry.Scope says whose
	// it was; the service counts it in Prometheus. The engine itself adds
	// the usage to the context's telemetry.Tally.
	OnUsage func(ctx context.Context, op string, u telemetry.Usage)
}

// DefaultConfig returns a config with every default filled in and
// json_schema structured outputs on; callers set BaseURL, APIKey and Model.
func DefaultConfig() Config {
	return Config{
		BaseURL:            defaultBaseURL,
		EmbeddingBatchSize: defaultEmbeddingBatch,
		Timeout:            defaultTimeout,
		MaxRetries:         defaultMaxRetries,
		RetryBaseDelay:     defaultRetryBaseDelay,
		RetryMaxDelay:      defaultRetryMaxDelay,
		UseJSONSchema:      true,
		MaxEventChars:      defaultMaxEventChars,
	}
}

// LogValue masks the API key so a config dump never leaks it.
func (c Config) LogValue() slog.Value {
	key := ""
	if c.APIKey != "" {
		key = "***"
	}
	return slog.GroupValue(
		slog.String("base_url", c.BaseURL),
		slog.String("api_key", key),
		slog.String("api_type", c.APIType),
		slog.String("model", c.Model),
		slog.String("embedding_model", c.EmbeddingModel),
		slog.Int("embedding_dimensions", c.EmbeddingDimensions),
		slog.Duration("timeout", c.Timeout),
		slog.Int("max_retries", c.MaxRetries),
		slog.Bool("use_json_schema", c.UseJSONSchema),
	)
}

// withDefaults fills zero fields and checks the rest, reporting every
// problem at once so a misconfigured service fails at startup, not on the
// first condensation.
func (c Config) withDefaults() (Config, error) {
	var problems []string
	c.BaseURL = strings.TrimSpace(c.BaseURL)
	c.Model = strings.TrimSpace(c.Model)
	c.APIType = strings.ToLower(strings.TrimSpace(c.APIType))
	switch c.APIType {
	case "", "openai":
		if c.BaseURL == "" {
			c.BaseURL = defaultBaseURL
		}
	case "azure", "azure_ad":
		if c.BaseURL == "" {
			problems = append(problems, "BaseURL is required for Azure")
		}
		if c.APIVersion == "" {
			c.APIVersion = defaultAzureAPIVersion
		}
	default:
		problems = append(problems, fmt.Sprintf("APIType %q is not one of openai, azure, azure_ad", c.APIType))
	}
	if c.BaseURL != "" {
		u, err := url.Parse(c.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			problems = append(problems, fmt.Sprintf("BaseURL %q is not an http(s) URL", c.BaseURL))
		}
	}
	if c.Model == "" {
		problems = append(problems, "Model is required")
	}
	if c.EmbeddingDimensions < 0 {
		problems = append(problems, "EmbeddingDimensions must not be negative")
	}
	if c.RequestEmbeddingDimensions && c.EmbeddingDimensions == 0 {
		problems = append(problems, "RequestEmbeddingDimensions needs EmbeddingDimensions")
	}
	if c.Timeout < 0 || c.RetryBaseDelay < 0 || c.RetryMaxDelay < 0 {
		problems = append(problems, "Timeout and retry delays must not be negative")
	}
	if c.EmbeddingBatchSize < 0 || c.MaxTokens < 0 {
		problems = append(problems, "EmbeddingBatchSize and MaxTokens must not be negative")
	}
	if c.Temperature != nil && (*c.Temperature < 0 || *c.Temperature > 2) {
		problems = append(problems, "Temperature must be within [0,2]")
	}
	if len(problems) > 0 {
		return c, fmt.Errorf("llm config: %s", strings.Join(problems, "; "))
	}
	if c.Timeout == 0 {
		c.Timeout = defaultTimeout
	}
	switch {
	case c.MaxRetries == 0:
		c.MaxRetries = defaultMaxRetries
	case c.MaxRetries < 0:
		c.MaxRetries = 0
	}
	if c.RetryBaseDelay == 0 {
		c.RetryBaseDelay = defaultRetryBaseDelay
	}
	if c.RetryMaxDelay == 0 {
		c.RetryMaxDelay = defaultRetryMaxDelay
	}
	if c.RetryMaxDelay < c.RetryBaseDelay {
		c.RetryMaxDelay = c.RetryBaseDelay
	}
	if c.EmbeddingBatchSize == 0 {
		c.EmbeddingBatchSize = defaultEmbeddingBatch
	}
	if c.MaxEventChars == 0 {
		c.MaxEventChars = defaultMaxEventChars
	}
	return c, nil
}

// Engine is the OpenAI-compatible engine. It has the same method set as the
// offline engine, so the service picks one at startup. Every method makes at
// most one logical LLM call (Embed: one per batch), which is how a
// condensation window stays within two calls: Summarize plus Extract.
// An Engine is safe for concurrent use.
type Engine struct {
	cfg     Config
	client  *openai.Client
	log     *slog.Logger
	prompts *template.Template
	schemas schemas
	tracer  trace.Tracer

	// noJSONSchema is set once a server has refused response_format
	// json_schema; from then on every call uses json_object with the schema
	// in the prompt, as if UseJSONSchema were false.
	noJSONSchema atomic.Bool

	calls            atomic.Int64 // logical chat calls (retries not counted)
	requests         atomic.Int64 // HTTP requests, retries and embeddings included
	embedCalls       atomic.Int64 // logical embeddings calls (one per batch)
	promptTokens     atomic.Int64
	completionTokens atomic.Int64
}

// Stats are the engine's counters since it was built.
type Stats struct {
	// Calls counts logical chat completions: one per Summarize,
	// SelectEvents, Extract or Insights that reached the network, however
	// many HTTP attempts its retries took. This is the figure the
	// "at most two LLM calls per window" rule is checked against.
	Calls int64
	// Requests counts HTTP requests sent, retries and embeddings included.
	Requests int64
	// EmbedCalls counts logical embeddings requests (one per batch).
	EmbedCalls int64
	// PromptTokens and CompletionTokens add up the servers' reported usage.
	PromptTokens     int64
	CompletionTokens int64
}

// New builds the engine. It does no I/O: a server that is down shows up
// as extract.ErrUnavailable on the first call, not as a startup failure, so the
// service can start and keep accepting events while the LLM recovers.
func New(cfg Config, log *slog.Logger) (*Engine, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	prompts, err := template.New("prompts").Option("missingkey=error").ParseFS(promptFS, "prompts/*.tmpl")
	if err != nil {
		return nil, fmt.Errorf("parse prompts: %w", err)
	}
	schemas, err := newSchemas()
	if err != nil {
		return nil, fmt.Errorf("build schemas: %w", err)
	}

	var oc openai.ClientConfig
	switch cfg.APIType {
	case "azure", "azure_ad":
		oc = openai.DefaultAzureConfig(cfg.APIKey, cfg.BaseURL)
		oc.APIVersion = cfg.APIVersion
		if cfg.APIType == "azure_ad" {
			oc.APIType = openai.APITypeAzureAD
		}
	default:
		oc = openai.DefaultConfig(cfg.APIKey)
		oc.BaseURL = cfg.BaseURL
	}
	oc.OrgID = cfg.Organization
	var next openai.HTTPDoer = http.DefaultClient
	if cfg.HTTPClient != nil {
		next = cfg.HTTPClient
	}
	l := &Engine{cfg: cfg, log: log, prompts: prompts, schemas: schemas, tracer: telemetry.Tracer(cfg.Tracer, "extract/llm")}
	oc.HTTPClient = doer{next: next, requests: &l.requests}
	l.client = openai.NewClientWithConfig(oc)
	return l, nil
}

// Calls returns the number of logical chat calls made so far (see Stats).
func (l *Engine) Calls() int64 { return l.calls.Load() }

// Stats returns a snapshot of the engine's counters.
func (l *Engine) Stats() Stats {
	return Stats{
		Calls:            l.calls.Load(),
		Requests:         l.requests.Load(),
		EmbedCalls:       l.embedCalls.Load(),
		PromptTokens:     l.promptTokens.Load(),
		CompletionTokens: l.completionTokens.Load(),
	}
}

// Model names the configured chat model, recorded as provenance.
func (l *Engine) Model() string { return l.cfg.Model }

// chatResult is one chat completion with its usage and first choice, already
// checked for the failures every caller would otherwise re-check.
type chatResult struct {
	model            string
	message          openai.ChatCompletionMessage
	finishReason     openai.FinishReason
	promptTokens     int
	completionTokens int
}

// chat sends one logical chat completion, retrying transient failures. It
// counts the call once, before the first attempt, so a failed call still
// counts against the per-window budget.
func (l *Engine) chat(ctx context.Context, op string, req openai.ChatCompletionRequest) (res chatResult, err error) {
	l.calls.Add(1)
	ctx, done := l.observeCall(ctx, op, "chat")
	defer func() {
		done(telemetry.Usage{Calls: 1, PromptTokens: int64(res.promptTokens), CompletionTokens: int64(res.completionTokens)}, res.model, err)
	}()
	req.Model = l.cfg.Model
	if t := l.cfg.Temperature; t != nil {
		req.Temperature = max(*t, smallestTemperature)
	}
	req.MaxTokens = l.cfg.MaxTokens //nolint:staticcheck // SA1019: max_tokens is the field every compatible server knows; see Config.MaxTokens

	var resp openai.ChatCompletionResponse
	send := func(actx context.Context) error {
		r, err := l.client.CreateChatCompletion(actx, req)
		if err != nil {
			if refusedJSONSchema(req, err) {
				return schemaRefusal{err}
			}
			return err
		}
		resp = r
		return nil
	}
	err = l.retry(ctx, op, send)
	if refusal := (schemaRefusal{}); errors.As(err, &refusal) {
		// llama-cpp-python's server, for one, accepts only "text" and
		// "json_object" and answers json_schema with a validation error
		// (a 500, from its error handler). Failing every window over a
		// format the engine can do without would leave such a server
		// unusable, so the engine switches to json_object for good and
		// resends this call with the schema in the prompt.
		if !l.noJSONSchema.Swap(true) {
			l.log.WarnContext(ctx, "llm server refused response_format json_schema; using json_object with the schema in the prompt", "op", op, "err", refusal.err)
		}
		req = withSchemaInPrompt(req)
		err = l.retry(ctx, op, send)
	}
	if err != nil {
		return chatResult{}, err
	}
	l.promptTokens.Add(int64(resp.Usage.PromptTokens))
	l.completionTokens.Add(int64(resp.Usage.CompletionTokens))
	// Tokens the server billed count even when the answer is unusable.
	spent := chatResult{model: resp.Model, promptTokens: resp.Usage.PromptTokens, completionTokens: resp.Usage.CompletionTokens}
	if len(resp.Choices) == 0 {
		return spent, fmt.Errorf("%s: %w: response has no choices", op, extract.ErrInvalidOutput)
	}
	msg := resp.Choices[0].Message
	if msg.Refusal != "" {
		return spent, fmt.Errorf("%s: %w: model refused: %s", op, extract.ErrInvalidOutput, clip(msg.Refusal, 200))
	}
	model := resp.Model
	if model == "" {
		model = l.cfg.Model
	}
	return chatResult{
		model:            model,
		message:          msg,
		finishReason:     resp.Choices[0].FinishReason,
		promptTokens:     resp.Usage.PromptTokens,
		completionTokens: resp.Usage.CompletionTokens,
	}, nil
}

// smallestTemperature stands in for a configured temperature of 0, which
// go-openai would omit from the request (omitempty) and so leave the
// server's default of 1 in place.
const smallestTemperature float32 = 1e-6

// responseFormat returns the structured-output request for a schema: strict
// json_schema when the server supports it, json_object otherwise (the
// prompt then carries the schema; see schemaHint).
func (l *Engine) responseFormat(name string, wire schema) *openai.ChatCompletionResponseFormat {
	if !l.jsonSchema() {
		return &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
	}
	return &openai.ChatCompletionResponseFormat{
		Type: openai.ChatCompletionResponseFormatTypeJSONSchema,
		JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{
			Name:   name,
			Schema: wire.wire,
			Strict: true,
		},
	}
}

// schemaHint is the schema text a json_object prompt includes, empty in
// json_schema mode where the server enforces the schema itself.
func (l *Engine) schemaHint(wire schema) string {
	if l.jsonSchema() {
		return ""
	}
	return wire.text
}

// jsonSchema reports whether requests ask for json_schema: configured so
// and not refused by the server.
func (l *Engine) jsonSchema() bool {
	return l.cfg.UseJSONSchema && !l.noJSONSchema.Load()
}

// schemaRefusal is an attempt the server failed because it refused
// json_schema. It hides the HTTP status from transient, so the retry loop
// stops at once instead of resending a request that fails the same way.
type schemaRefusal struct{ err error }

func (e schemaRefusal) Error() string { return e.err.Error() }

// refusedJSONSchema reports whether err is the server rejecting the
// json_schema type itself: a 400, 422 or 500 whose message names
// json_schema or offers json_object (llama-cpp-python 0.3 answers a 500
// "Input should be 'text' or 'json_object'"). Other errors, OpenAI's 400
// "Invalid schema for response_format" among them, fail as before.
func refusedJSONSchema(req openai.ChatCompletionRequest, err error) bool {
	rf := req.ResponseFormat
	if rf == nil || rf.Type != openai.ChatCompletionResponseFormatTypeJSONSchema || rf.JSONSchema == nil {
		return false
	}
	status := 0
	var reqErr *openai.RequestError
	var apiErr *openai.APIError
	switch {
	case errors.As(err, &reqErr):
		status = reqErr.HTTPStatusCode
	case errors.As(err, &apiErr):
		status = apiErr.HTTPStatusCode
	}
	if status != http.StatusBadRequest && status != http.StatusUnprocessableEntity && status != http.StatusInternalServerError {
		return false
	}
	msg := strings.ToLower(err.Error())
	return strings.Contains(msg, "json_schema") || strings.Contains(msg, "json_object")
}

// withSchemaInPrompt turns a json_schema request into a json_object one
// whose first message ends with the schema, worded as the templates word
// it, so the refused call can be resent without re-rendering its prompt.
func withSchemaInPrompt(req openai.ChatCompletionRequest) openai.ChatCompletionRequest {
	text := schemaText(req.ResponseFormat.JSONSchema.Schema)
	req.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
	msgs := slices.Clone(req.Messages)
	if len(msgs) > 0 && text != "" {
		msgs[0].Content += "\nThe JSON object must match this JSON schema:\n" + text
	}
	req.Messages = msgs
	return req
}

// render executes one named prompt template.
func (l *Engine) render(name string, data any) (string, error) {
	var b strings.Builder
	if err := l.prompts.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("render prompt %s: %w", name, err)
	}
	return b.String(), nil
}

// retry runs fn with a fresh per-attempt timeout until it succeeds, fails
// for good, or the retry budget is spent. Transient failures (429, 5xx,
// timeouts, connection errors) are retried with exponential backoff and
// full jitter, honoring Retry-After; they end as extract.ErrUnavailable so the
// durable job retries later. Anything else ends at once as extract.ErrInvalidOutput.
// Both wrap the underlying error for logs.
func (l *Engine) retry(ctx context.Context, op string, fn func(context.Context) error) error {
	attempts := l.cfg.MaxRetries + 1
	for attempt := 1; ; attempt++ {
		hint := &retryHint{}
		actx, cancel := context.WithTimeout(context.WithValue(ctx, retryHintKey{}, hint), l.cfg.Timeout)
		err := fn(actx)
		attemptTimedOut := actx.Err() != nil
		cancel()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%s: %w: %w", op, extract.ErrUnavailable, ctx.Err())
		}
		if !attemptTimedOut && !transient(err) {
			return fmt.Errorf("%s: %w: %w", op, extract.ErrInvalidOutput, err)
		}
		if attemptTimedOut {
			err = fmt.Errorf("attempt timed out after %s: %w", l.cfg.Timeout, err)
		}
		if attempt >= attempts {
			return fmt.Errorf("%s: %w after %d attempts: %w", op, extract.ErrUnavailable, attempt, err)
		}
		delay := l.backoff(attempt)
		if hint.after > 0 {
			if hint.after > l.cfg.RetryMaxDelay {
				return fmt.Errorf("%s: %w: server asked to retry after %s: %w", op, extract.ErrUnavailable, hint.after, err)
			}
			delay = max(delay, hint.after)
		}
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < delay {
			return fmt.Errorf("%s: %w: deadline too close for another attempt: %w", op, extract.ErrUnavailable, err)
		}
		l.log.DebugContext(ctx, "llm attempt failed; retrying", "op", op, "attempt", attempt, "delay", delay, "err", err)
		timer := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			timer.Stop()
			return fmt.Errorf("%s: %w: %w", op, extract.ErrUnavailable, ctx.Err())
		case <-timer.C:
		}
	}
}

// backoff returns the delay before retry n (1-based): a random duration in
// [d/2, d] where d doubles from RetryBaseDelay up to RetryMaxDelay. The
// jitter keeps many replicas that hit the same rate limit from retrying in
// lockstep.
func (l *Engine) backoff(n int) time.Duration {
	d := l.cfg.RetryBaseDelay
	for i := 1; i < n && d < l.cfg.RetryMaxDelay; i++ {
		d *= 2
	}
	d = min(d, l.cfg.RetryMaxDelay)
	half := d / 2
	return half + rand.N(half+1) //nolint:gosec // jitter, not security
}

// transient reports whether an error is worth retrying: rate limits,
// server errors, timeouts and transport failures. Other 4xx mean the request
// itself is wrong and would fail again.
func transient(err error) bool {
	var reqErr *openai.RequestError
	if errors.As(err, &reqErr) {
		return retryableStatus(reqErr.HTTPStatusCode)
	}
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) {
		return retryableStatus(apiErr.HTTPStatusCode)
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return true
	}
	// *url.Error (every failure of the HTTP transport: refused, reset, DNS,
	// TLS) and *net.OpError both implement net.Error.
	var netErr net.Error
	return errors.As(err, &netErr)
}

// retryableStatus: 408 and 429 say "try later", 5xx are the server's
// fault; any other status means the request itself is wrong.
func retryableStatus(code int) bool {
	return code == http.StatusRequestTimeout || code == http.StatusTooManyRequests || code >= 500
}

// retryHint carries a response's Retry-After from the HTTP layer to the
// retry loop. go-openai turns an error response into an APIError without its
// headers, so doer records them in the attempt's context instead. One
// hint per attempt, written and read on the same goroutine.
type retryHint struct{ after time.Duration }

type retryHintKey struct{}

// doer counts HTTP requests and captures Retry-After headers.
type doer struct {
	next     openai.HTTPDoer
	requests *atomic.Int64
}

// Do implements openai.HTTPDoer.
func (d doer) Do(req *http.Request) (*http.Response, error) {
	d.requests.Add(1)
	resp, err := d.next.Do(req)
	if err != nil || resp == nil {
		return resp, err
	}
	if hint, ok := req.Context().Value(retryHintKey{}).(*retryHint); ok {
		hint.after = parseRetryAfter(resp.Header, time.Now())
	}
	return resp, nil
}

// parseRetryAfter reads retry-after-ms (OpenAI, Azure) or Retry-After in
// seconds or as an HTTP date. It returns 0 when absent or unparsable.
func parseRetryAfter(h http.Header, now time.Time) time.Duration {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		return time.Duration(secs * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// clip shortens s to at most n runes for error messages and logs.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
