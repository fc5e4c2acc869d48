//go:build integration

package main

import (
	"net/http"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/graphmem/graphmem/graph/graphtest"
	"github.com/graphmem/graphmem/telemetry"
)

// Traces, usage accounting and token budgets through the whole service,
// with the fake OpenAI-compatible server as the LLM and an in-memory span
// exporter in place of the OTLP one.

type usageView struct {
	Calls      int64 `json:"llm_calls"`
	EmbedCalls int64 `json:"embedding_calls"`
	Prompt     int64 `json:"prompt_tokens"`
	Completion int64 `json:"completion_tokens"`
}

type usedJob struct {
	jobView
	Usage          usageView `json:"usage"`
	DeferredReason string    `json:"deferred_reason"`
}

func usedJobs(t *testing.T, c apiClient, q string) []usedJob {
	t.Helper()
	return decodeInto[struct {
		Jobs []usedJob `json:"jobs"`
	}](t, mustCall(t, c, http.StatusOK, http.MethodGet, "/v1/jobs?"+q, nil)).Jobs
}

type usageReport struct {
	WindowStart time.Time `json:"window_start"`
	WindowEnd   time.Time `json:"window_end"`
	Budget      *int64    `json:"budget_tokens"`
	Total       usageView `json:"total"`
	Users       []struct {
		UserID string `json:"user_id"`
		Jobs   int64  `json:"jobs"`
		usageView
	} `json:"users"`
}

func attr(kvs []attribute.KeyValue, key string) (attribute.Value, bool) {
	for _, kv := range kvs {
		if string(kv.Key) == key {
			return kv.Value, true
		}
	}
	return attribute.Value{}, false
}

func attrString(kvs []attribute.KeyValue, key string) string {
	v, _ := attr(kvs, key)
	return v.AsString()
}

// tenantCounter reads a counter of /metrics for the tenant.
func tenantCounter(t *testing.T, e *e2e, name, tenant, labelName, labelValue string) float64 {
	t.Helper()
	fams, err := e.app.metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, f := range fams {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			if labelOf(m, "tenant") == tenant && (labelName == "" || labelOf(m, labelName) == labelValue) {
				sum += m.GetCounter().GetValue()
			}
		}
	}
	return sum
}

func labelOf(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}

// TestTracesAndUsage: a request continues its caller's trace (traceparent)
// and names its request id; its Neo4j statements are child spans. Each job
// attempt is a trace of its own with its LLM calls (model, tokens, latency)
// and statements. The usage on each job equals what its LLM spans recorded
// and what the fake server reported; GET /v1/usage and /metrics add up to
// the same totals.
func TestTracesAndUsage(t *testing.T) {
	sc := newScope()
	fake := newFakeLLM(t, sc.token)
	exp := tracetest.NewInMemoryExporter()
	tp := telemetry.NewTestProvider(sdktrace.NewSimpleSpanProcessor(exp), telemetry.Config{})
	e := newE2EWith(t, func(c *Config) { c.tracer = tp }, "GRAPHMEM_LLM_BASE_URL", fake.URL+"/v1", "GRAPHMEM_LLM_MODEL", "test-model")
	session, user := sc.id("traced"), sc.id("traced", "user")
	events := messages(session, time.Now().UTC().Add(-time.Hour),
		"I work at Fjordline, the ferry company in Oslo.", "Nice, how long have you been there?")

	const callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
	requestID := "req-" + sc.token
	e.Header.Set("traceparent", "00-"+callerTrace+"-00f067aa0ba902b7-01")
	e.Header.Set("X-Request-ID", requestID)
	mustCall(t, e, http.StatusCreated, http.MethodPost, "/v1/sessions/"+session+"/events", batch(user, events...))
	e.Header.Del("traceparent")
	e.Header.Del("X-Request-ID")
	started := time.Now()
	e.closeAndWait(t, session)
	closed := time.Since(started)
	waitJobs(t, e, jobsQuery(), 60*time.Second, "every job of the tenant (insights too)", allStatus("done"))
	t.Logf("close took %s, all jobs %s", closed, time.Since(started))

	spans := exp.GetSpans()
	byTrace := map[trace.TraceID][]tracetest.SpanStub{}
	for _, s := range spans {
		byTrace[s.SpanContext.TraceID()] = append(byTrace[s.SpanContext.TraceID()], s)
	}

	// The request: the caller's trace, its request id, statements beneath.
	var server *tracetest.SpanStub
	for i, s := range spans {
		if attrString(s.Attributes, "graphmem.request_id") == requestID {
			server = &spans[i]
		}
	}
	if server == nil {
		t.Fatalf("no server span carries request id %s among %d spans", requestID, len(spans))
	}
	if server.SpanContext.TraceID().String() != callerTrace || server.Name != "POST /v1/sessions/:session_id/events" ||
		server.SpanKind != trace.SpanKindServer || attrString(server.Attributes, "graphmem.tenant") != e.Tenant {
		t.Fatalf("server span: trace %s name %q kind %v attrs %v", server.SpanContext.TraceID(), server.Name, server.SpanKind, server.Attributes)
	}
	if v, _ := attr(server.Attributes, "http.response.status_code"); v.AsInt64() != http.StatusCreated {
		t.Fatalf("server span status attribute %v, want 201", v)
	}
	reqSpans := byTrace[server.SpanContext.TraceID()]
	ids := map[trace.SpanID]bool{}
	for _, s := range reqSpans {
		ids[s.SpanContext.SpanID()] = true
	}
	statements := 0
	for _, s := range reqSpans {
		if s.SpanContext.SpanID() == server.SpanContext.SpanID() {
			continue
		}
		if !ids[s.Parent.SpanID()] {
			t.Fatalf("span %q of the request's trace hangs under no span of it", s.Name)
		}
		if strings.HasPrefix(s.Name, "neo4j ") {
			if attrString(s.Attributes, "db.system.name") != "neo4j" || attrString(s.Attributes, "db.operation.name") == "" || s.SpanKind != trace.SpanKindClient {
				t.Fatalf("statement span %q lacks its attributes: %v", s.Name, s.Attributes)
			}
			statements++
		}
	}
	if statements == 0 {
		t.Fatalf("the append request has no Neo4j statement spans: %d spans in its trace", len(reqSpans))
	}

	// Each job: its own trace, LLM spans whose tokens are the job's usage.
	jobs := usedJobs(t, e, "")
	var total usageView
	closeRequest := ""
	perUser := map[string]usageView{}
	llmSpans := 0
	for _, j := range jobs {
		var root *tracetest.SpanStub
		for i, s := range spans {
			if s.Name == "job "+j.Kind && attrString(s.Attributes, "graphmem.job.id") == j.ID {
				root = &spans[i]
			}
		}
		if root == nil || root.Parent.IsValid() {
			t.Fatalf("job %s (%s): no root span of its own", j.ID, j.Kind)
		}
		// The request that caused the job: close enqueued the close job,
		// which enqueued the extraction (and the insights) under its id.
		if j.Kind == "session.close" || j.Kind == "extract" {
			rid := attrString(root.Attributes, "graphmem.request_id")
			if closeRequest == "" {
				closeRequest = rid
			}
			if rid == "" || rid != closeRequest {
				t.Fatalf("job %s carries request id %q, want the close request's (%q)", j.Kind, rid, closeRequest)
			}
		}
		var fromSpans usageView
		jobStatements := 0
		for _, s := range byTrace[root.SpanContext.TraceID()] {
			switch {
			case strings.HasPrefix(s.Name, "llm "):
				in, _ := attr(s.Attributes, "gen_ai.usage.input_tokens")
				out, _ := attr(s.Attributes, "gen_ai.usage.output_tokens")
				lat, ok := attr(s.Attributes, "graphmem.llm.latency_ms")
				if attrString(s.Attributes, "gen_ai.request.model") != "test-model" || attrString(s.Attributes, "gen_ai.response.model") != fakeModel ||
					in.AsInt64() <= 0 || !ok || lat.AsFloat64() <= 0 {
					t.Fatalf("LLM span %q of job %s lacks model, tokens or latency: %v", s.Name, j.Kind, s.Attributes)
				}
				fromSpans.Calls++
				fromSpans.Prompt += in.AsInt64()
				fromSpans.Completion += out.AsInt64()
				llmSpans++
			case strings.HasPrefix(s.Name, "neo4j "):
				jobStatements++
			}
		}
		if jobStatements == 0 {
			t.Fatalf("job %s has no statement spans in its trace", j.Kind)
		}
		if fromSpans != j.Usage {
			t.Fatalf("job %s (%s): usage %+v, but its LLM spans add up to %+v", j.ID, j.Kind, j.Usage, fromSpans)
		}
		total.Calls += j.Usage.Calls
		total.Prompt += j.Usage.Prompt
		total.Completion += j.Usage.Completion
		u := perUser[j.UserID]
		u.Calls, u.Prompt, u.Completion = u.Calls+j.Usage.Calls, u.Prompt+j.Usage.Prompt, u.Completion+j.Usage.Completion
		perUser[j.UserID] = u
	}
	closeSpan := false
	for _, s := range spans {
		closeSpan = closeSpan || (s.Name == "POST /v1/sessions/:session_id/close" && attrString(s.Attributes, "graphmem.request_id") == closeRequest)
	}
	if !closeSpan {
		t.Fatalf("no close request span has the jobs' request id %q", closeRequest)
	}
	// The fake's own count: it reports len(prompt)/4 prompt tokens.
	var faked int64
	for _, kind := range []llmKind{llmSummary, llmExtract, llmInsights} {
		for _, c := range fake.Calls(kind, "") {
			faked += int64(len(c.Prompt) / 4)
		}
	}
	if total.Calls == 0 || total.Prompt != faked {
		t.Fatalf("jobs' usage %+v; the fake reported %d prompt tokens", total, faked)
	}

	rep := decodeInto[usageReport](t, mustCall(t, e, http.StatusOK, http.MethodGet, "/v1/usage", nil))
	if rep.Total != total || rep.Budget != nil || !rep.WindowEnd.After(rep.WindowStart) {
		t.Fatalf("GET /v1/usage total %+v (budget %v, window %s-%s), jobs add up to %+v", rep.Total, rep.Budget, rep.WindowStart, rep.WindowEnd, total)
	}
	for _, u := range rep.Users {
		if want := perUser[u.UserID]; u.usageView != want {
			t.Fatalf("GET /v1/usage user %q: %+v, jobs add up to %+v", u.UserID, u.usageView, want)
		}
	}
	if got := tenantCounter(t, e, "graphmem_llm_tokens_total", e.Tenant, "type", "prompt"); int64(got) != total.Prompt {
		t.Fatalf("/metrics prompt tokens for the tenant: %v, want %d", got, total.Prompt)
	}
	if got := tenantCounter(t, e, "graphmem_llm_calls_total", e.Tenant, "", ""); int64(got) != total.Calls {
		t.Fatalf("/metrics LLM calls for the tenant: %v, want %d", got, total.Calls)
	}
	t.Logf("traces: request %s with %d statement spans; %d jobs, %d LLM spans; usage %d calls, %d prompt + %d completion tokens (= fake, = /v1/usage, = /metrics)",
		callerTrace[:8], statements, len(jobs), llmSpans, total.Calls, total.Prompt, total.Completion)
}

// TestTokenBudgetDefersJobs: with a budget of 1 token per window, the
// session's summary uses it up; its extraction is deferred to the window's
// end, pending with a reason and no attempt used, nothing written; then it
// runs in the next window, and the facts arrive.
func TestTokenBudgetDefersJobs(t *testing.T) {
	const window = 20 * time.Second
	sc := newScope()
	fake := newFakeLLM(t, sc.token)
	e := newLLME2E(t, fake, "GRAPHMEM_LLM_BUDGET", "1", "GRAPHMEM_LLM_BUDGET_WINDOW", window.String())
	// Start early in a window, so the summary and the extraction share it.
	if left := time.Until(time.Now().Truncate(window).Add(window)); left < 14*time.Second {
		time.Sleep(left + 200*time.Millisecond)
	}
	session, user := sc.id("budget"), sc.id("budget", "user")
	events := messages(session, time.Now().UTC().Add(-time.Hour),
		"I work at Fjordline, the ferry company in Oslo.", "Great, what do you do there?")
	mustCall(t, e, http.StatusCreated, http.MethodPost, "/v1/sessions/"+session+"/events", batch(user, events...))
	mustCall(t, e, http.StatusAccepted, http.MethodPost, "/v1/sessions/"+session+"/close", nil)

	var deferred usedJob
	var deferredFor time.Duration
	deadline := time.Now().Add(window)
	for deferred.ID == "" {
		for _, j := range usedJobs(t, e, "kind=extract&session_id="+session) {
			if j.Status == "pending" && j.DeferredReason != "" {
				deferred, deferredFor = j, time.Until(j.RunAfter)
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the extraction was never deferred: %+v", usedJobs(t, e, "session_id="+session))
		}
		time.Sleep(50 * time.Millisecond)
	}
	rep := decodeInto[usageReport](t, mustCall(t, e, http.StatusOK, http.MethodGet, "/v1/usage", nil))
	if !strings.Contains(deferred.DeferredReason, "token budget") || deferred.Attempts != 0 || !deferred.RunAfter.Equal(rep.WindowEnd) {
		t.Fatalf("deferred job: want reason naming the budget, 0 attempts, run_after = window end %s: %+v", rep.WindowEnd, deferred)
	}
	if rep.Budget == nil || *rep.Budget != 1 || rep.Total.Prompt+rep.Total.Completion < 1 {
		t.Fatalf("usage report: %+v", rep)
	}
	if n := fake.Count(llmExtract, sc.sessionMatch(session)); n != 0 {
		t.Fatalf("a deferred extraction called the LLM %d times", n)
	}
	census := graphtest.CensusOf(graphtest.Census(t, e.Tenant), e.Tenant, user)
	if census["node:Entity"] != 0 || len(userFacts(t, e, user, true)) != 0 {
		t.Fatalf("entities or facts before the deferred extraction ran: %v", census)
	}
	checkNoEventLost(t, e, session, events)

	done := waitJobs(t, e, jobsQuery("kind", "extract", "session_id", session), window+20*time.Second, "the deferred extraction after the window", allStatus("done"))
	if done[0].Attempts != 1 {
		t.Fatalf("the deferred extraction ran in %d attempts, want 1 (a deferral uses none)", done[0].Attempts)
	}
	if again := usedJobs(t, e, "kind=extract&session_id="+session); again[0].DeferredReason != "" {
		t.Fatalf("a done job still shows its deferral: %+v", again[0])
	}
	checkFakeFact(t, fake, userFacts(t, e, user, false), "WORKS_AT", "Fjordline", session+"-1")
	t.Logf("budget: extraction deferred %s (to the window's end), then done in 1 attempt; reason: %s",
		deferredFor.Round(time.Second), deferred.DeferredReason)
}
