package llm

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphmem/graphmem/extract"
)

// update rewrites the golden files in testdata (go test ./extract/llm/ -update).
var update = flag.Bool("update", false, "rewrite golden files in testdata")

// golden compares got with testdata/<name>, rewriting it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatalf("write golden: %v", err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden (run go test ./extract/llm/ -run %s -update to create it): %v", t.Name(), err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the rendered prompt (run with -update to accept):\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
}

// fakeStep is one scripted answer of the fake server.
type fakeStep struct {
	status int               // 0 means 200
	file   string            // body from testdata/<file>
	body   string            // inline body when file is empty
	header map[string]string // extra response headers
	hang   bool              // never answer; wait for the client to give up
}

// fakeRequest is what the fake server received.
type fakeRequest struct {
	Method   string
	Path     string
	RawQuery string
	Header   http.Header
	Body     []byte
}

// JSON decodes the request body.
func (r fakeRequest) JSON(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("request body is not JSON: %v\n%s", err, r.Body)
	}
	return m
}

// Messages renders the chat messages of a request for golden files.
func (r fakeRequest) Messages(t *testing.T) string {
	t.Helper()
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(r.Body, &req); err != nil {
		t.Fatalf("request body: %v", err)
	}
	var b strings.Builder
	for _, m := range req.Messages {
		b.WriteString("===== " + m.Role + " =====\n")
		b.WriteString(m.Content)
		b.WriteString("\n")
	}
	return b.String()
}

// fakeServer is a local OpenAI-compatible server that replays recorded
// responses from testdata. Each endpoint ("chat" for
// /chat/completions, "embeddings" for /embeddings) has a script of steps;
// the last step repeats once the script runs out, which is how "500 until
// the retries are spent" is written.
type fakeServer struct {
	t    *testing.T
	srv  *httptest.Server
	done chan struct{}

	mu       sync.Mutex
	scripts  map[string][]fakeStep
	requests []fakeRequest
}

func newFakeServer(t *testing.T) *fakeServer {
	t.Helper()
	f := &fakeServer{t: t, done: make(chan struct{}), scripts: map[string][]fakeStep{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	// Registered after Close, so it runs first and releases hanging handlers.
	t.Cleanup(func() { close(f.done) })
	return f
}

// URL is the base URL a client is configured with.
func (f *fakeServer) URL() string { return f.srv.URL + "/v1" }

// script sets the answers of one endpoint.
func (f *fakeServer) script(endpoint string, steps ...fakeStep) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.scripts[endpoint] = steps
}

// Requests returns what the server received so far.
func (f *fakeServer) Requests() []fakeRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]fakeRequest(nil), f.requests...)
}

func (f *fakeServer) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var endpoint string
	switch {
	case strings.HasSuffix(r.URL.Path, "/chat/completions"):
		endpoint = "chat"
	case strings.HasSuffix(r.URL.Path, "/embeddings"):
		endpoint = "embeddings"
	}
	f.mu.Lock()
	f.requests = append(f.requests, fakeRequest{
		Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery, Header: r.Header.Clone(), Body: body,
	})
	steps := f.scripts[endpoint]
	var step fakeStep
	switch {
	case len(steps) == 0:
		step = fakeStep{status: http.StatusNotFound, body: `{"error":{"message":"no script for ` + r.URL.Path + `","type":"invalid_request_error","param":null,"code":"unknown_url"}}`}
	case len(steps) == 1:
		step = steps[0]
	default:
		step, f.scripts[endpoint] = steps[0], steps[1:]
	}
	f.mu.Unlock()

	if step.hang {
		select {
		case <-r.Context().Done():
		case <-f.done:
		}
		return
	}
	payload := []byte(step.body)
	if step.file != "" {
		var err error
		payload, err = os.ReadFile(filepath.Join("testdata", step.file))
		if err != nil {
			f.t.Errorf("fake server: %v", err)
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
	}
	for k, v := range step.header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Request-Id", "req_fake")
	status := step.status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	_, _ = w.Write(payload)
}

// syncBuffer is a log sink that tests can read while the engine writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// newTestEngine builds an engine pointed at the fake server with fast retries.
func newTestEngine(t *testing.T, f *fakeServer, edit func(*Config)) (*Engine, *syncBuffer) {
	t.Helper()
	cfg := Config{
		BaseURL:             f.URL(),
		APIKey:              "sk-test-123",
		Model:               "gpt-4o-mini",
		EmbeddingModel:      "text-embedding-3-small",
		EmbeddingDimensions: 4,
		Timeout:             5 * time.Second,
		MaxRetries:          2,
		RetryBaseDelay:      time.Millisecond,
		RetryMaxDelay:       20 * time.Millisecond,
		UseJSONSchema:       true,
	}
	if edit != nil {
		edit(&cfg)
	}
	logs := &syncBuffer{}
	l, err := New(cfg, slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return l, logs
}

// testEvents is a short window in the style of LoCoMo: a user with a
// name, an assistant, a tool result, relative dates and a negation.
func testEvents() []extract.Event {
	at := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)
	return []extract.Event{
		{ID: "e1", Role: "user", Kind: "message", Name: "Caroline", OccurredAt: at,
			Content: "Hey! I finally moved to Lisbon last month. The new flat is in Alfama."},
		{ID: "e2", Role: "assistant", Kind: "message", OccurredAt: at.Add(time.Minute),
			Content: "Congratulations! How are you settling in?"},
		{ID: "e3", Role: "user", Kind: "message", Name: "Caroline", OccurredAt: at.Add(2 * time.Minute),
			Content: "Great. I don't eat sushi anymore though, so I'm learning to cook bacalhau. My sister Ana visits next Friday."},
		{ID: "e4", Role: "tool", Kind: "tool_result", OccurredAt: at.Add(3 * time.Minute),
			Content: "weather(Lisbon): 24°C, sunny"},
	}
}
