//go:build integration

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeLLM is an OpenAI-compatible server standing in for the LLM in the
// service's end-to-end tests: POST /v1/chat/completions, answered from
// scripts. It tells the engine's calls apart (session/condensation summary,
// extraction, insights, attention) by their response_format and prompt
// markers, builds valid answers from the events in the prompt (so
// source_event_ids are real ids), and can answer with invalid JSON,
// schema-violating or undeclared-entity output, HTTP errors, or hang until
// released or until the client gives up. It counts and records every call.
//
// The job queue is shared by every worker on the database, across tenants,
// so a worker of the service under test may claim a job some other test
// left behind and send its prompt here. A fake made with a token answers
// only prompts that contain it (every id of the test carries it); the
// others are recorded as llmForeign and refused with a 503 and a long
// Retry-After, which the engine turns into a retry-later without writing
// anything.
type fakeLLM struct {
	*httptest.Server
	token string
	model string // the model the engine must ask for

	mu       sync.Mutex
	calls    []fakeCall
	scripts  []scriptEntry
	defaults map[llmKind]fakeStep
	problems []string // request-format violations, reported at cleanup

	hung        chan llmKind // a hanging step started
	release     chan struct{}
	releaseOnce sync.Once

	envelope []byte
	rules    []fakeRule
}

// llmKind is what an engine call is for.
type llmKind string

const (
	llmSummary   llmKind = "summary"   // condensation or session summary (one per window)
	llmExtract   llmKind = "extract"   // extraction of a window (one per window)
	llmInsights  llmKind = "insights"  // insight derivation (per user, debounced)
	llmAttention llmKind = "attention" // LLMAttention condenser ranking
	llmOther     llmKind = "other"     // a path or shape the engine should never send
	llmForeign   llmKind = "foreign"   // another test's prompt (see fakeLLM)
)

// fakeModel is the model the fake claims answered; the service stores it
// as the facts' extracted_by, which proves they came through the LLM path.
const fakeModel = "fake-llm-2026-01"

// fakeMarker ends every sentence in extract_rules.json; the fake writes it
// as Tag(), with its token, into every sentence, summary and insight, so
// such text can only come from this test's fake, and prompts that quote it
// (insights list the user's facts) are recognized as this test's.
const fakeMarker = "[fake-llm]"

// Tag is the marker this fake writes.
func (f *fakeLLM) Tag() string { return "[fake-llm " + f.token + "]" }

// fakeCall is one request the fake received.
type fakeCall struct {
	Kind   llmKind
	Path   string
	Prompt string      // every message's content, joined
	Events []fakeEvent // <EVENT id=...> blocks of the prompt, in order
	Facts  []fakeEvent // <FACT id=...> lines (insights)
	Status int         // the HTTP status it answered (0 while hanging)
	Body   []byte
	At     time.Time // when it arrived
}

// EventIDs lists the ids of the events the prompt showed.
func (c fakeCall) EventIDs() []string {
	out := make([]string, len(c.Events))
	for i, e := range c.Events {
		out[i] = e.ID
	}
	return out
}

type fakeEvent struct{ ID, Text string }

// fakeStep is one scripted answer.
type fakeStep struct {
	status     int               // non-zero: answer this HTTP error
	header     map[string]string // extra response headers
	content    *string           // literal message content instead of a valid answer
	undeclared bool              // extraction: facts whose entities are not declared
	hang       bool              // wait for Release (then answer valid) or for the client to give up
}

func answerValid() fakeStep                  { return fakeStep{} }
func answerStatus(code int) fakeStep         { return fakeStep{status: code} }
func answerContent(s string) fakeStep        { return fakeStep{content: &s} }
func answerUndeclaredEntities() fakeStep     { return fakeStep{undeclared: true} }
func answerHang() fakeStep                   { return fakeStep{hang: true} }
func (s fakeStep) with(k, v string) fakeStep { s.header = map[string]string{k: v}; return s }

// fakeRule is one line of testdata/fakellm/extract_rules.json.
type fakeRule struct {
	When     string         `json:"when"`
	Entities []fakeEntity   `json:"entities"`
	Facts    []fakeFactRule `json:"facts"`
}

// fakeEntity and fakeFactRule marshal every property, as a strict
// json_schema answer does.
type fakeEntity struct {
	Name    string   `json:"name"`
	Type    string   `json:"type"`
	Aliases []string `json:"aliases"`
	IsUser  bool     `json:"is_user"`
	Owner   string   `json:"owner"`
}

type fakeFactRule struct {
	Subject        string   `json:"subject"`
	Predicate      string   `json:"predicate"`
	Object         string   `json:"object"`
	Qualifier      string   `json:"qualifier"`
	Sentence       string   `json:"sentence"`
	Polarity       string   `json:"polarity"`
	Confidence     float64  `json:"confidence"`
	Strength       float64  `json:"strength"`
	ValidFrom      string   `json:"valid_from"`
	ValidTo        string   `json:"valid_to"`
	SourceEventIDs []string `json:"source_event_ids"`
}

// newFakeLLM starts the fake; token scopes it to one test's prompts
// ("" answers everything). Every kind answers valid until scripted.
func newFakeLLM(t testing.TB, token string) *fakeLLM {
	t.Helper()
	f := &fakeLLM{
		token: token, model: "test-model",
		defaults: map[llmKind]fakeStep{},
		hung:     make(chan llmKind, 16), release: make(chan struct{}),
	}
	var err error
	if f.envelope, err = os.ReadFile(filepath.Join("testdata", "fakellm", "chat_completion.json")); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join("testdata", "fakellm", "extract_rules.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rules struct {
		Rules []fakeRule `json:"rules"`
	}
	if err := json.Unmarshal(raw, &rules); err != nil {
		t.Fatalf("extract_rules.json: %v", err)
	}
	f.rules = rules.Rules
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(func() {
		f.Release() // a hanging handler would block Close
		f.Close()
		f.mu.Lock()
		defer f.mu.Unlock()
		for _, p := range f.problems {
			t.Errorf("fake LLM: the engine sent a malformed request: %s", p)
		}
	})
	return f
}

// Script queues answers for calls of kind whose prompt contains match
// ("" matches any). Queued steps are used first, in order; then the
// kind's default.
func (f *fakeLLM) Script(kind llmKind, match string, steps ...fakeStep) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range steps {
		f.scripts = append(f.scripts, scriptEntry{kind: kind, match: match, step: s})
	}
}

// scriptEntry keeps the order and the match of scripted steps.
type scriptEntry struct {
	kind  llmKind
	match string
	step  fakeStep
	used  bool
}

// SetDefault sets the answer of kind once its script is used up ("every
// call fails" and "healthy again").
func (f *fakeLLM) SetDefault(kind llmKind, s fakeStep) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.defaults[kind] = s
}

// Release unblocks every hanging call (they answer valid if their client
// still waits) and makes later hang steps answer at once.
func (f *fakeLLM) Release() { f.releaseOnce.Do(func() { close(f.release) }) }

// Hung delivers the kind of each call that started hanging.
func (f *fakeLLM) Hung() <-chan llmKind { return f.hung }

// Calls returns the recorded calls of kind whose prompt contains match.
func (f *fakeLLM) Calls(kind llmKind, match string) []fakeCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []fakeCall
	for _, c := range f.calls {
		if c.Kind == kind && strings.Contains(c.Prompt, match) {
			out = append(out, c)
		}
	}
	return out
}

// Count is len(Calls(kind, match)).
func (f *fakeLLM) Count(kind llmKind, match string) int { return len(f.Calls(kind, match)) }

// Counts summarizes every call by kind, for logs.
func (f *fakeLLM) Counts() map[llmKind]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[llmKind]int{}
	for _, c := range f.calls {
		out[c.Kind]++
	}
	return out
}

// chatRequest is the part of a chat completion request the fake reads.
type chatRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
	ResponseFormat *struct {
		Type       string `json:"type"`
		JSONSchema *struct {
			Name   string          `json:"name"`
			Strict bool            `json:"strict"`
			Schema json.RawMessage `json:"schema"`
		} `json:"json_schema"`
	} `json:"response_format"`
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

var (
	fakeEventRE = regexp.MustCompile(`(?s)<EVENT id=([^>\s]+)>\n(.*?)\n</EVENT>`)
	fakeFactRE  = regexp.MustCompile(`<FACT id=([^>\s]+)>(.*?)</FACT>`)
)

func (f *fakeLLM) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	call := fakeCall{Kind: llmOther, Path: r.URL.Path, Body: body, At: time.Now()}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		i := f.record(call, fmt.Sprintf("%s %s: not an endpoint the engine uses", r.Method, r.URL.Path))
		f.writeError(w, i, http.StatusNotFound, nil)
		return
	}
	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		i := f.record(call, "request body is not JSON: "+err.Error())
		f.writeError(w, i, http.StatusBadRequest, nil)
		return
	}
	var prompt strings.Builder
	for _, m := range req.Messages {
		prompt.WriteString(m.Content)
		prompt.WriteString("\n")
	}
	call.Prompt = prompt.String()
	for _, m := range fakeEventRE.FindAllStringSubmatch(call.Prompt, -1) {
		call.Events = append(call.Events, fakeEvent{ID: m[1], Text: m[2]})
	}
	for _, m := range fakeFactRE.FindAllStringSubmatch(call.Prompt, -1) {
		call.Facts = append(call.Facts, fakeEvent{ID: m[1], Text: m[2]})
	}
	call.Kind = classify(req, call.Prompt)
	if f.token != "" && !strings.Contains(call.Prompt, f.token) { // the tag contains the token
		call.Kind = llmForeign
		i := f.record(call, "")
		f.writeError(w, i, http.StatusServiceUnavailable, map[string]string{"Retry-After": "3600"})
		return
	}
	idx := f.record(call, f.checkRequest(req, call.Kind))
	step := f.next(call.Kind, call.Prompt)

	if step.hang {
		select {
		case f.hung <- call.Kind:
		default:
		}
		select {
		case <-f.release:
		case <-r.Context().Done():
			return // the client gave up (its timeout) or died
		}
	}
	if step.status != 0 {
		f.writeError(w, idx, step.status, step.header)
		return
	}
	var content string
	switch {
	case step.content != nil:
		content = *step.content
	default:
		content = f.answer(call, step.undeclared)
	}
	f.writeChat(w, idx, call.Prompt, content, step.header)
}

// classify names the engine call a request is.
func classify(req chatRequest, prompt string) llmKind {
	if rf := req.ResponseFormat; rf != nil {
		name := ""
		if rf.JSONSchema != nil {
			name = rf.JSONSchema.Name
		}
		switch {
		case name == "graphmem_extraction" || strings.Contains(prompt, "You extract long-term memory"):
			return llmExtract
		case name == "graphmem_insights" || strings.Contains(prompt, "You derive insights"):
			return llmInsights
		case name == "event_selection" || strings.Contains(prompt, "Rank the events"):
			return llmAttention
		}
		return llmOther
	}
	for _, tool := range req.Tools {
		if tool.Function.Name == "create_state_summary" {
			return llmSummary
		}
	}
	if strings.Contains(prompt, "<PREVIOUS SUMMARY>") || strings.Contains(prompt, "<PREVIOUS_THINK>") {
		return llmSummary
	}
	return llmOther
}

// checkRequest returns what is wrong with a request of its kind, or "".
func (f *fakeLLM) checkRequest(req chatRequest, kind llmKind) string {
	var bad []string
	if req.Model != f.model {
		bad = append(bad, fmt.Sprintf("model %q, want %q", req.Model, f.model))
	}
	if len(req.Messages) == 0 {
		bad = append(bad, "no messages")
	}
	switch kind {
	case llmExtract, llmInsights, llmAttention:
		rf := req.ResponseFormat
		if rf.Type != "json_schema" || rf.JSONSchema == nil || !rf.JSONSchema.Strict || len(rf.JSONSchema.Schema) == 0 {
			bad = append(bad, fmt.Sprintf("%s call without a strict json_schema response_format", kind))
		}
	case llmOther:
		bad = append(bad, "a chat request that is neither a summary, an extraction, insights nor attention")
	}
	if len(bad) == 0 {
		return ""
	}
	return string(kind) + ": " + strings.Join(bad, "; ")
}

// record stores a call and returns its index for setStatus.
func (f *fakeLLM) record(c fakeCall, problem string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, c)
	if problem != "" {
		f.problems = append(f.problems, problem)
	}
	return len(f.calls) - 1
}

// setStatus records the status answered to call i.
func (f *fakeLLM) setStatus(i, status int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls[i].Status = status
}

// next takes the first unused scripted step of kind whose match is in the
// prompt, else the kind's default.
func (f *fakeLLM) next(kind llmKind, prompt string) fakeStep {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := range f.scripts {
		e := &f.scripts[i]
		if !e.used && e.kind == kind && strings.Contains(prompt, e.match) {
			e.used = true
			return e.step
		}
	}
	return f.defaults[kind]
}

func (f *fakeLLM) writeError(w http.ResponseWriter, idx, status int, header map[string]string) {
	name := "error_500.json"
	switch {
	case status == http.StatusTooManyRequests:
		name = "error_429.json"
	case status == http.StatusServiceUnavailable:
		name = "error_503.json"
	}
	body, err := os.ReadFile(filepath.Join("testdata", "fakellm", name))
	if err != nil {
		body = []byte(`{"error":{"message":"fake error","type":"server_error"}}`)
	}
	for k, v := range header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
	f.setStatus(idx, status)
}

// writeChat answers a chat completion with content, in the recorded
// envelope of an OpenAI response.
func (f *fakeLLM) writeChat(w http.ResponseWriter, idx int, prompt, content string, header map[string]string) {
	var env map[string]any
	if err := json.Unmarshal(f.envelope, &env); err != nil {
		panic(err)
	}
	env["model"] = fakeModel
	choice := env["choices"].([]any)[0].(map[string]any)
	choice["message"].(map[string]any)["content"] = content
	env["usage"] = map[string]any{"prompt_tokens": len(prompt) / 4, "completion_tokens": len(content) / 4,
		"total_tokens": (len(prompt) + len(content)) / 4}
	for k, v := range header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(env)
	f.setStatus(idx, http.StatusOK)
}

// answer builds a valid answer of the call's kind from its prompt.
func (f *fakeLLM) answer(c fakeCall, undeclared bool) string {
	switch c.Kind {
	case llmSummary:
		var b strings.Builder
		fmt.Fprintf(&b, "USER_CONTEXT: %s summary of %d events", f.Tag(), len(c.Events))
		for _, e := range c.Events {
			fmt.Fprintf(&b, "\n- %s: %s", e.ID, clip(e.Text, 120))
		}
		if strings.Contains(c.Prompt, "<PREVIOUS_THINK>") {
			return "<think>" + b.String() + "</think>"
		}
		return b.String()
	case llmExtract:
		return f.extraction(c, undeclared)
	case llmInsights:
		type insight struct {
			Text           string   `json:"text"`
			Confidence     float64  `json:"confidence"`
			SourceEventIDs []string `json:"source_event_ids"`
			EntityNames    []string `json:"entity_names"`
			FactIDs        []string `json:"fact_ids"`
		}
		var out struct {
			Insights []insight `json:"insights"`
		}
		ins := insight{Text: "The user keeps returning to the same interests " + f.Tag(), Confidence: 0.8,
			EntityNames: []string{}, FactIDs: []string{}, SourceEventIDs: []string{}}
		for i, e := range c.Events {
			if i < 3 {
				ins.SourceEventIDs = append(ins.SourceEventIDs, e.ID)
			}
		}
		if len(c.Facts) > 0 {
			ins.FactIDs = append(ins.FactIDs, c.Facts[0].ID)
		}
		out.Insights = append(out.Insights, ins)
		b, _ := json.Marshal(out)
		return string(b)
	case llmAttention:
		b, _ := json.Marshal(map[string]any{"ids": c.EventIDs()})
		return string(b)
	}
	return "{}"
}

// extraction applies the rules to the prompt's events. undeclared keeps
// the facts but declares only an entity none of them names.
func (f *fakeLLM) extraction(c fakeCall, undeclared bool) string {
	out := struct {
		Entities []fakeEntity   `json:"entities"`
		Facts    []fakeFactRule `json:"facts"`
	}{Entities: []fakeEntity{}, Facts: []fakeFactRule{}}
	declared := map[string]bool{}
	declare := func(e fakeEntity) {
		if declared[strings.ToLower(e.Name)] {
			return
		}
		declared[strings.ToLower(e.Name)] = true
		if e.Aliases == nil {
			e.Aliases = []string{}
		}
		out.Entities = append(out.Entities, e)
	}
	for _, ev := range c.Events {
		for _, r := range f.rules {
			if !strings.Contains(strings.ToLower(ev.Text), strings.ToLower(r.When)) {
				continue
			}
			for _, e := range r.Entities {
				declare(e)
			}
			for _, fact := range r.Facts {
				if fact.Polarity == "" {
					fact.Polarity = "positive"
				}
				fact.SourceEventIDs = []string{ev.ID}
				fact.Sentence = strings.ReplaceAll(fact.Sentence, fakeMarker, f.Tag())
				if fact.Subject == "user" || fact.Object == "user" {
					declare(fakeEntity{Name: "user", Type: "Person", IsUser: true})
				}
				out.Facts = append(out.Facts, fact)
			}
		}
	}
	if undeclared {
		out.Entities = []fakeEntity{{Name: "Atlantis", Type: "Place", Aliases: []string{}}}
	}
	b, _ := json.Marshal(out)
	return string(b)
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
