//go:build integration

package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// The LLM path of the whole service, in-process on the test Neo4j, with
// the fake OpenAI-compatible server of fakellm_test.go as the LLM.
//
// Every test's app serves only its own tenant's jobs
// (GRAPHMEM_WORKER_TENANTS), so apps with different engines never take
// each other's jobs. These tests still run sequentially: they count LLM
// calls and time retries, which a loaded machine would blur.

// apiClient sends a request to the service and returns status and body:
// in-process (e2e) or over HTTP to a separate process (crash test).
type apiClient interface {
	call(t *testing.T, method, path string, body any) (int, []byte)
}

func (e *e2e) call(t *testing.T, method, path string, body any) (int, []byte) {
	t.Helper()
	rec := e.Do(method, path, body)
	return rec.Code, rec.Body.Bytes()
}

func mustCall(t *testing.T, c apiClient, want int, method, path string, body any) []byte {
	t.Helper()
	code, b := c.call(t, method, path, body)
	if code != want {
		t.Fatalf("%s %s: status %d, want %d: %s", method, path, code, want, b)
	}
	return b
}

func decodeInto[T any](t *testing.T, b []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("decode %T: %v: %s", v, err, b)
	}
	return v
}

type jobView struct {
	ID          string    `json:"id"`
	Kind        string    `json:"kind"`
	Status      string    `json:"status"`
	SessionID   string    `json:"session_id"`
	UserID      string    `json:"user_id"`
	Attempts    int       `json:"attempts"`
	MaxAttempts int       `json:"max_attempts"`
	LastError   string    `json:"last_error"`
	RunAfter    time.Time `json:"run_after"`
	UpdatedAt   time.Time `json:"updated_at"`
}

func listJobs(t *testing.T, c apiClient, q url.Values) []jobView {
	t.Helper()
	return decodeInto[struct {
		Jobs []jobView `json:"jobs"`
	}](t, mustCall(t, c, http.StatusOK, http.MethodGet, "/v1/jobs?"+q.Encode(), nil)).Jobs
}

// waitJobs polls the job list until done(jobs) holds, failing after timeout.
func waitJobs(t *testing.T, c apiClient, q url.Values, timeout time.Duration, what string, done func([]jobView) bool) []jobView {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		jobs := listJobs(t, c, q)
		if done(jobs) {
			return jobs
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %s, still waiting for %s; jobs %v: %+v", timeout, what, q, jobs)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func jobsQuery(kv ...string) url.Values {
	q := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		q.Set(kv[i], kv[i+1])
	}
	return q
}

func allStatus(status string) func([]jobView) bool {
	return func(jobs []jobView) bool {
		if len(jobs) == 0 {
			return false
		}
		for _, j := range jobs {
			if j.Status != status {
				return false
			}
		}
		return true
	}
}

// storedEvents lists every raw event of a session (forgotten ones too).
func storedEvents(t *testing.T, c apiClient, session string) map[string]string {
	t.Helper()
	resp := decodeInto[struct {
		Events []struct {
			ID      string `json:"id"`
			Content string `json:"content"`
		} `json:"events"`
	}](t, mustCall(t, c, http.StatusOK, http.MethodGet, "/v1/sessions/"+session+"/events?include_forgotten=true&limit=1000", nil))
	out := map[string]string{}
	for _, e := range resp.Events {
		out[e.ID] = e.Content
	}
	return out
}

// checkNoEventLost fails unless every sent event is stored, unchanged.
func checkNoEventLost(t *testing.T, c apiClient, session string, sent []map[string]any) {
	t.Helper()
	got := storedEvents(t, c, session)
	for _, e := range sent {
		id := e["id"].(string)
		if content, ok := got[id]; !ok || content != e["content"] {
			t.Fatalf("session %s: raw event %s lost or changed (stored %q)", session, id, content)
		}
	}
}

type nodeView struct {
	ID          string   `json:"id"`
	Kind        string   `json:"kind"`
	Summary     string   `json:"summary"`
	Covered     []string `json:"covered_event_ids"`
	LLMCalls    int      `json:"llm_calls"`
	Summarizer  string   `json:"summarizer"`
	ExtractedAt string   `json:"extracted_at"`
}

// eventNodes lists a session's condensations and session summaries.
func eventNodes(t *testing.T, c apiClient, session string) []nodeView {
	t.Helper()
	return decodeInto[struct {
		Condensations []nodeView `json:"condensations"`
	}](t, mustCall(t, c, http.StatusOK, http.MethodGet, "/v1/sessions/"+session+"/condensations", nil)).Condensations
}

type factView struct {
	ID          string   `json:"id"`
	Subject     string   `json:"subject"`
	Predicate   string   `json:"predicate"`
	Object      string   `json:"object"`
	Qualifier   string   `json:"qualifier"`
	Fact        string   `json:"fact"`
	Polarity    string   `json:"polarity"`
	Status      string   `json:"status"`
	Sources     []string `json:"source_event_ids"`
	Sessions    []string `json:"session_ids"`
	ExtractedBy string   `json:"extracted_by"`
}

func userFacts(t *testing.T, c apiClient, user string, history bool) []factView {
	t.Helper()
	path := "/v1/users/" + user + "/facts?limit=500"
	if history {
		path += "&include_history=true"
	}
	return decodeInto[struct {
		Facts []factView `json:"facts"`
	}](t, mustCall(t, c, http.StatusOK, http.MethodGet, path, nil)).Facts
}

func findFact(facts []factView, predicate, object string) (factView, bool) {
	for _, f := range facts {
		if f.Predicate == predicate && strings.EqualFold(f.Object, object) {
			return f, true
		}
	}
	return factView{}, false
}

// checkFakeFact fails unless the fact exists, current, and came from the
// fake LLM: its sentence carries the fake's marker, extracted_by is the
// model the fake answered as, and its sources are the given event ids.
func checkFakeFact(t *testing.T, fake *fakeLLM, facts []factView, predicate, object string, sources ...string) factView {
	t.Helper()
	f, ok := findFact(facts, predicate, object)
	if !ok {
		t.Fatalf("no %s %s fact; facts: %+v", predicate, object, facts)
	}
	if f.Status != "current" || !strings.Contains(f.Fact, fake.Tag()) || f.ExtractedBy != fakeModel {
		t.Fatalf("%s %s is not the fake LLM's current fact (want sentence with %s, extracted_by %s): %+v",
			predicate, object, fake.Tag(), fakeModel, f)
	}
	if len(sources) > 0 && !sameSet(f.Sources, sources) {
		t.Fatalf("%s %s: source_event_ids %v, want %v", predicate, object, f.Sources, sources)
	}
	return f
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	sort.Strings(a)
	sort.Strings(b)
	return slices.Equal(a, b)
}

// llmScope is one test's identity: a random token that every user,
// session and event id carries, so the fake answers only this test's
// prompts and calls can be attributed to a session by its id prefix.
type llmScope struct{ token string }

func newScope() llmScope {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return llmScope{token: "llm" + hex.EncodeToString(b[:])}
}

func (s llmScope) id(parts ...string) string { return s.token + "-" + strings.Join(parts, "-") }

// sessionMatch is a substring of every prompt line of a session's events.
func (s llmScope) sessionMatch(session string) string { return "<EVENT id=" + session + "-" }

// messages builds user/assistant messages of a session, one minute apart
// from at; ids are <session>-1, <session>-2, ...
func messages(session string, at time.Time, texts ...string) []map[string]any {
	out := make([]map[string]any, len(texts))
	for i, text := range texts {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		e := ev(fmt.Sprintf("%s-%d", session, i+1), "message", role, text)
		e["occurred_at"] = at.Add(time.Duration(i) * time.Minute).Format(time.RFC3339)
		out[i] = e
	}
	return out
}

func newLLME2E(t *testing.T, fake *fakeLLM, env ...string) *e2e {
	t.Helper()
	return newE2E(t, append([]string{"GRAPHMEM_LLM_BASE_URL", fake.URL + "/v1", "GRAPHMEM_LLM_MODEL", "test-model"}, env...)...)
}

// TestLLMValidWindowsCostTwoCallsEach drives the LLM engine through the
// service: the facts and preferences come from the fake's extraction output
// (marked sentences, extracted_by, real source ids), a move supersedes the
// old home, and every condensation window — a session closed, and a
// condensation stored during POST .../context — costs exactly one summary
// call and one extraction call, with insight calls separate.
func TestLLMValidWindowsCostTwoCallsEach(t *testing.T) {
	sc := newScope()
	fake := newFakeLLM(t, sc.token)
	e := newLLME2E(t, fake)
	user := sc.id("user")
	started := time.Now()

	s1, s2, s3 := sc.id("paris"), sc.id("berlin"), sc.id("long")
	ev1 := messages(s1, time.Date(2023, 2, 1, 10, 0, 0, 0, time.UTC),
		"I live in Paris and I walk along the Seine every morning.", "That sounds lovely.")
	ev2 := messages(s2, time.Date(2024, 3, 10, 10, 0, 0, 0, time.UTC),
		"I moved to Berlin last month.", "How are you finding Berlin?",
		"Good. Honestly, nothing beats a warm pastel de nata with my coffee.", "Noted!")
	for _, s := range []struct {
		id     string
		events []map[string]any
	}{{s1, ev1}, {s2, ev2}} {
		mustCall(t, e, http.StatusCreated, http.MethodPost, "/v1/sessions/"+s.id+"/events", batch(user, s.events...))
		e.closeAndWait(t, s.id)
	}

	// One window per closed session, each with exactly one summary and one
	// extraction call, over exactly the window's events.
	for _, s := range []string{s1, s2} {
		nodes := eventNodes(t, e, s)
		if len(nodes) != 1 || nodes[0].Kind != "session_summary" || nodes[0].ExtractedAt == "" {
			t.Fatalf("session %s: want one extracted session summary, got %+v", s, nodes)
		}
		checkWindowCalls(t, fake, sc, s, nodes)
	}

	facts := userFacts(t, e, user, false)
	checkFakeFact(t, fake, facts, "LIVES_IN", "Berlin", s2+"-1")
	like := checkFakeFact(t, fake, facts, "LIKES", "pastel de nata", s2+"-3")
	if _, ok := findFact(facts, "LIVES_IN", "Paris"); ok {
		t.Fatalf("Paris is still a current home after the move: %+v", facts)
	}
	history := userFacts(t, e, user, true)
	if paris, ok := findFact(history, "LIVES_IN", "Paris"); !ok || paris.Status != "superseded" || paris.ExtractedBy != fakeModel {
		t.Fatalf("history must keep the fake's Paris fact, superseded: %+v", history)
	}
	prefs := decodeInto[struct {
		Preferences []struct {
			FactID string  `json:"fact_id"`
			Object string  `json:"object"`
			Status string  `json:"status"`
			Str    float64 `json:"strength"`
		} `json:"preferences"`
	}](t, mustCall(t, e, http.StatusOK, http.MethodGet, "/v1/users/"+user+"/preferences", nil))
	if len(prefs.Preferences) != 1 || prefs.Preferences[0].FactID != like.ID || prefs.Preferences[0].Str != 0.9 {
		t.Fatalf("preferences should be exactly the fake's LIKES pastel de nata (strength 0.9): %+v", prefs.Preferences)
	}

	// A condensation during POST .../context: one summary call, then its
	// extraction job one extraction call.
	var texts []string
	for i := 1; i <= 20; i++ {
		switch i {
		case 6:
			texts = append(texts, "By the way, my favourite tea is genmaicha.")
		case 19:
			texts = append(texts, "I started learning the bandoneon this spring.")
		default:
			texts = append(texts, fmt.Sprintf("Message %d about planning the week.", i))
		}
	}
	ev3 := messages(s3, time.Date(2024, 4, 2, 9, 0, 0, 0, time.UTC), texts...)
	mustCall(t, e, http.StatusCreated, http.MethodPost, "/v1/sessions/"+s3+"/events", batch(user, ev3...))
	sumBefore, extBefore := fake.Count(llmSummary, ""), fake.Count(llmExtract, "")
	view := decodeInto[viewResp](t, mustCall(t, e, http.StatusOK, http.MethodPost, "/v1/sessions/"+s3+"/context",
		map[string]any{"profile": "v1", "max_events": 12}))
	if len(view.NewCondensations) != 1 || len(view.Events) > 12 {
		t.Fatalf("context: want one condensation and at most 12 events, got %d condensations, %d events",
			len(view.NewCondensations), len(view.Events))
	}
	if got := fake.Count(llmSummary, "") - sumBefore; got != 1 {
		t.Fatalf("the context condensation made %d summary calls, want 1", got)
	}
	waitJobs(t, e, jobsQuery("kind", "extract", "session_id", s3), 30*time.Second, "the condensation's extraction", allStatus("done"))
	if got := fake.Count(llmExtract, "") - extBefore; got != 1 {
		t.Fatalf("the condensation's extraction made %d extraction calls, want 1", got)
	}
	checkFakeFact(t, fake, userFacts(t, e, user, false), "HAS_FAVORITE", "genmaicha", s3+"-6")

	// Closing covers the rest of the session: a second window, two more calls.
	e.closeAndWait(t, s3)
	nodes := eventNodes(t, e, s3)
	if len(nodes) != 2 || nodes[0].Kind != "condensation" || nodes[1].Kind != "session_summary" {
		t.Fatalf("session %s: want a condensation and a session summary, got %+v", s3, nodes)
	}
	checkWindowCalls(t, fake, sc, s3, nodes)
	checkFakeFact(t, fake, userFacts(t, e, user, false), "LEARNING", "bandoneon", s3+"-19")
	covered := map[string]bool{}
	for _, n := range nodes {
		for _, id := range n.Covered {
			if covered[id] {
				t.Fatalf("event %s is in two windows", id)
			}
			covered[id] = true
		}
	}
	if len(covered) != len(ev3) {
		t.Fatalf("the two windows cover %d of %d events", len(covered), len(ev3))
	}
	for _, s := range []struct {
		id     string
		events []map[string]any
	}{{s1, ev1}, {s2, ev2}, {s3, ev3}} {
		checkNoEventLost(t, e, s.id, s.events)
	}

	// Insights: their own calls (debounced per user), none per window.
	insightJobs := waitJobs(t, e, jobsQuery("kind", "insights"), 45*time.Second, "the insight jobs",
		func(jobs []jobView) bool { return len(jobs) > 0 && allStatus("done")(jobs) })
	attempts := 0
	for _, j := range insightJobs {
		attempts += j.Attempts
	}
	if got := fake.Count(llmInsights, ""); got != attempts {
		t.Fatalf("%d insight calls for %d insight job attempts", got, attempts)
	}
	ins := decodeInto[struct {
		Insights []struct {
			Text string `json:"text"`
		} `json:"insights"`
	}](t, mustCall(t, e, http.StatusOK, http.MethodGet, "/v1/users/"+user+"/insights", nil))
	if len(ins.Insights) == 0 || !strings.Contains(ins.Insights[0].Text, fake.Tag()) {
		t.Fatalf("insights should be the fake's: %+v", ins.Insights)
	}

	windows := 4
	if s, x := fake.Count(llmSummary, ""), fake.Count(llmExtract, ""); s != windows || x != windows {
		t.Fatalf("%d windows made %d summary and %d extraction calls, want %d each", windows, s, x, windows)
	}
	if n := fake.Count(llmOther, "") + fake.Count(llmAttention, ""); n != 0 {
		t.Fatalf("%d unexpected LLM calls", n)
	}
	t.Logf("LLM calls: %d windows, %d summary + %d extraction (2 per window), %d insights (%d jobs), %d foreign refused; %s",
		windows, fake.Count(llmSummary, ""), fake.Count(llmExtract, ""), fake.Count(llmInsights, ""), len(insightJobs),
		fake.Count(llmForeign, ""), time.Since(started).Round(time.Millisecond))
}

// checkWindowCalls asserts that each window (event-tier node) of a session
// cost exactly one summary call and one extraction call, both over exactly
// the window's events, and that the session made no other calls.
func checkWindowCalls(t *testing.T, fake *fakeLLM, sc llmScope, session string, nodes []nodeView) {
	t.Helper()
	match := sc.sessionMatch(session)
	sums, exts := fake.Calls(llmSummary, match), fake.Calls(llmExtract, match)
	if len(sums) != len(nodes) || len(exts) != len(nodes) {
		t.Fatalf("session %s: %d windows made %d summary and %d extraction calls, want one each per window",
			session, len(nodes), len(sums), len(exts))
	}
	for _, n := range nodes {
		if n.LLMCalls != 1 || !strings.Contains(n.Summary, fake.Tag()) {
			t.Fatalf("window %s: llm_calls %d and summary %q, want 1 and the fake's summary", n.ID, n.LLMCalls, n.Summary)
		}
		found := 0
		for _, calls := range [][]fakeCall{sums, exts} {
			for _, c := range calls {
				if sameSet(c.EventIDs(), n.Covered) {
					found++
					break
				}
			}
		}
		if found != 2 {
			t.Fatalf("window %s (%v): no summary or no extraction call over exactly its events", n.ID, n.Covered)
		}
	}
}

// TestLLMInvalidOutputFailsTheJobAndKeepsEvents: extraction output that
// cannot be used fails its job for good on the first attempt (retrying the
// same input would not help), with a last_error that says why; nothing
// reaches the graph, every raw event stays, and the window can still be
// extracted once the LLM behaves (an operator retries the job).
func TestLLMInvalidOutputFailsTheJobAndKeepsEvents(t *testing.T) {
	sc := newScope()
	fake := newFakeLLM(t, sc.token)
	e := newLLME2E(t, fake)
	for _, tc := range []struct {
		name   string
		step   fakeStep
		reason string // in last_error
	}{
		{"not_json", answerContent("Sure! {entities: Fjordline, Oslo}"), "not valid JSON"},
		{"no_json", answerContent("I could not find any facts in this conversation."), "no JSON object"},
		{"schema_violation", answerContent(`{"entities":[{"name":"Fjordline","type":"Organization"}],` +
			`"facts":[{"subject":"user","predicate":"WORKS_AT","object":"Fjordline","confidence":"very high"}]}`), "does not match the schema"},
		{"undeclared_entities", answerUndeclaredEntities(), "not a declared entity"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			session, user := sc.id(tc.name), sc.id(tc.name, "user")
			events := messages(session, time.Now().UTC().Add(-time.Hour),
				"I work at Fjordline, the ferry company in Oslo.", "Nice, how long have you been there?", "Three years now.")
			fake.Script(llmExtract, sc.sessionMatch(session), tc.step)
			mustCall(t, e, http.StatusCreated, http.MethodPost, "/v1/sessions/"+session+"/events", batch(user, events...))
			e.closeAndWait(t, session)

			jobs := listJobs(t, e, jobsQuery("session_id", session, "kind", "extract"))
			if len(jobs) != 1 {
				t.Fatalf("want one extract job, got %+v", jobs)
			}
			job := jobs[0]
			checkNoEventLost(t, e, session, events)
			if n := fake.Count(llmExtract, sc.sessionMatch(session)); n != 1 || job.Attempts != 1 {
				t.Fatalf("invalid output was retried: %d extraction calls, %d attempts", n, job.Attempts)
			}
			if facts := userFacts(t, e, user, true); len(facts) != 0 {
				t.Fatalf("facts from output that failed validation reached the graph: %+v", facts)
			}
			nodes := eventNodes(t, e, session)
			if len(nodes) != 1 || nodes[0].Kind != "session_summary" || !strings.Contains(nodes[0].Summary, fake.Tag()) {
				t.Fatalf("the session summary (a valid call) must be stored: %+v", nodes)
			}

			if job.Status != "failed" || !strings.Contains(job.LastError, "invalid llm output") || !strings.Contains(job.LastError, tc.reason) {
				t.Fatalf("want the extract job failed with last_error naming %q, got %+v", tc.reason, job)
			}
			failed := listJobs(t, e, jobsQuery("status", "failed"))
			if !slices.ContainsFunc(failed, func(j jobView) bool { return j.ID == job.ID }) {
				t.Fatalf("GET /v1/jobs?status=failed does not list job %s: %+v", job.ID, failed)
			}
			if nodes[0].ExtractedAt != "" {
				t.Fatalf("a failed extraction marked its window extracted: %+v", nodes[0])
			}

			// Nothing was lost: once the LLM answers well, the same window
			// extracts.
			retried := decodeInto[jobView](t, mustCall(t, e, http.StatusOK, http.MethodPost, "/v1/jobs/"+url.PathEscape(job.ID)+"/retry", nil))
			if retried.ID != job.ID || (retried.Status != "pending" && retried.Status != "running" && retried.Status != "done") {
				t.Fatalf("retry: %+v", retried)
			}
			waitJobs(t, e, jobsQuery("session_id", session, "kind", "extract"), 30*time.Second, "the retried extraction", allStatus("done"))
			checkFakeFact(t, fake, userFacts(t, e, user, false), "WORKS_AT", "Fjordline", session+"-1")
			if n := fake.Count(llmExtract, sc.sessionMatch(session)); n != 2 {
				t.Fatalf("%d extraction calls after one failure and one retry, want 2", n)
			}
		})
	}
}

// TestLLMUnavailableIsRetriedThenRecovers: an LLM that times out or
// answers 429/500/503 fails the attempt, not the work. The job is retried
// after a backoff and completes once the LLM answers; an outage longer than
// the job's attempts leaves it failed with every event intact, and an
// operator retry extracts it once the LLM is healthy.
//
// The worker's retry backoff (memory.WorkerConfig.BaseBackoff, 2s doubling)
// has no GRAPHMEM_* setting; two attempts keep this test short.
func TestLLMUnavailableIsRetriedThenRecovers(t *testing.T) {
	sc := newScope()
	fake := newFakeLLM(t, sc.token)
	e := newLLME2E(t, fake, "GRAPHMEM_JOB_MAX_ATTEMPTS", "2", "GRAPHMEM_LLM_TIMEOUT", "1s")

	t.Run("transient", func(t *testing.T) {
		session, user := sc.id("transient"), sc.id("transient", "user")
		match := sc.sessionMatch(session)
		events := messages(session, time.Now().UTC().Add(-time.Hour),
			"My beagle Biscuit chewed my shoes again.", "Oh no! Was it the new pair?")
		// One job attempt makes 1 + 3 HTTP attempts (the engine's own retries).
		fake.Script(llmSummary, match, answerStatus(500), answerStatus(500), answerStatus(502), answerStatus(500))
		fake.Script(llmExtract, match, answerHang(), answerStatus(429).with("Retry-After-Ms", "20"), answerStatus(500), answerStatus(503))
		mustCall(t, e, http.StatusCreated, http.MethodPost, "/v1/sessions/"+session+"/events", batch(user, events...))
		mustCall(t, e, http.StatusAccepted, http.MethodPost, "/v1/sessions/"+session+"/close", nil)

		backedOff := map[string]jobView{} // kind -> the job seen waiting for its retry
		jobs := waitJobs(t, e, jobsQuery("session_id", session), 45*time.Second, "the session's jobs to finish after retries",
			func(jobs []jobView) bool {
				extractDone := false
				for _, j := range jobs {
					if j.Status == "pending" && j.Attempts == 1 && j.LastError != "" {
						backedOff[j.Kind] = j
					}
					extractDone = extractDone || (j.Kind == "extract" && j.Status == "done")
				}
				return extractDone && allStatus("done")(jobs)
			})
		for _, kind := range []string{"session.close", "extract"} {
			b, ok := backedOff[kind]
			if !ok {
				t.Fatalf("never saw the %s job waiting for a retry after its failed attempt", kind)
			}
			if !strings.Contains(b.LastError, "llm unavailable") || !b.RunAfter.After(b.UpdatedAt) {
				t.Fatalf("%s job between attempts: want last_error naming the LLM outage and run_after in the future: %+v", kind, b)
			}
			t.Logf("%s between attempts: retry %s after the failure; last_error: %.160s", kind, b.RunAfter.Sub(b.UpdatedAt).Round(time.Millisecond), b.LastError)
		}
		for _, j := range jobs {
			if (j.Kind == "session.close" || j.Kind == "extract") && j.Attempts != 2 {
				t.Fatalf("%s job: want done on its second attempt: %+v", j.Kind, j)
			}
		}
		checkNoEventLost(t, e, session, events)
		checkFakeFact(t, fake, userFacts(t, e, user, false), "HAS_PET", "Biscuit", session+"-1")
		if s, x := fake.Count(llmSummary, match), fake.Count(llmExtract, match); s != 5 || x != 5 {
			t.Fatalf("HTTP requests: %d summary and %d extraction, want 5 each (4 failed in the first job attempt, 1 in the second)", s, x)
		}
	})

	t.Run("outage", func(t *testing.T) {
		session, user := sc.id("outage"), sc.id("outage", "user")
		match := sc.sessionMatch(session)
		events := messages(session, time.Now().UTC().Add(-time.Hour),
			"I work at Fjordline, the ferry company in Oslo.", "Great, what do you do there?")
		fake.SetDefault(llmExtract, answerStatus(500))
		mustCall(t, e, http.StatusCreated, http.MethodPost, "/v1/sessions/"+session+"/events", batch(user, events...))
		e.closeAndWait(t, session) // returns once the extract job has failed for good
		jobs := listJobs(t, e, jobsQuery("session_id", session, "kind", "extract"))
		if len(jobs) != 1 || jobs[0].Status != "failed" || jobs[0].Attempts != 2 || jobs[0].MaxAttempts != 2 ||
			!strings.Contains(jobs[0].LastError, "llm unavailable") || !strings.Contains(jobs[0].LastError, "500") {
			t.Fatalf("want the extract job failed after 2 attempts with the outage as last_error: %+v", jobs)
		}
		outageRequests := fake.Count(llmExtract, match)
		if outageRequests < 2 {
			t.Fatalf("%d extraction requests for 2 job attempts", outageRequests)
		}
		checkNoEventLost(t, e, session, events)
		if facts := userFacts(t, e, user, true); len(facts) != 0 {
			t.Fatalf("facts without a successful extraction: %+v", facts)
		}

		fake.SetDefault(llmExtract, answerValid())
		mustCall(t, e, http.StatusOK, http.MethodPost, "/v1/jobs/"+url.PathEscape(jobs[0].ID)+"/retry", nil)
		done := waitJobs(t, e, jobsQuery("session_id", session, "kind", "extract"), 30*time.Second, "the retried extraction", allStatus("done"))
		if done[0].ID != jobs[0].ID {
			t.Fatalf("the retry ran another job: %+v", done)
		}
		checkFakeFact(t, fake, userFacts(t, e, user, false), "WORKS_AT", "Fjordline", session+"-1")
		checkNoEventLost(t, e, session, events)
		t.Logf("outage: %d extraction requests over 2 job attempts, then 1 after the operator retry", outageRequests)
	})
}
