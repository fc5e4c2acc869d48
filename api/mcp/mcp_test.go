package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graphmem/graphmem/client"
)

// fakeMemory answers the tools' calls from canned data and records them.
type fakeMemory struct {
	Memory // calls a test does not expect panic
	mu     sync.Mutex
	calls  []string
	fail   error
}

func (f *fakeMemory) note(call string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, call)
	return f.fail
}

func (f *fakeMemory) Search(_ context.Context, req client.SearchRequest) (client.SearchResponse, error) {
	if err := f.note("search " + req.UserID + " " + req.Query); err != nil {
		return client.SearchResponse{}, err
	}
	var out client.SearchResponse
	if req.UserID == "alice" {
		out.Results = []client.SearchResult{{ID: "fact_1", Kind: "fact", Status: "current", Score: 0.9, Text: "alice lives in Berlin"}}
	}
	return out, nil
}

func (f *fakeMemory) AddFact(_ context.Context, userID string, nf client.NewFact) (client.EditResult, error) {
	if err := f.note("add " + userID + " " + nf.Predicate + " " + nf.Object + " " + nf.Actor); err != nil {
		return client.EditResult{}, err
	}
	r := client.EditResult{Edit: client.Edit{ID: "edit_1", Kind: "add", Outcome: "created"}}
	r.Fact.ID, r.Fact.Subject, r.Fact.Predicate, r.Fact.Object, r.Fact.Text = "fact_9", userID, nf.Predicate, nf.Object, "alice lives in Berlin"
	return r, nil
}

func (f *fakeMemory) Append(_ context.Context, sessionID string, req client.AppendRequest) (client.AppendResponse, error) {
	if err := f.note("append " + sessionID + " " + req.Events[0].ID + " " + req.Events[0].Content); err != nil {
		return client.AppendResponse{}, err
	}
	return client.AppendResponse{SessionID: sessionID, Events: []client.Appended{{ID: req.Events[0].ID, Seq: 1}}}, nil
}

func (f *fakeMemory) Close(_ context.Context, sessionID string, wait bool) (client.CloseResponse, error) {
	if err := f.note("close " + sessionID); err != nil {
		return client.CloseResponse{}, err
	}
	return client.CloseResponse{SessionID: sessionID, Status: "closed", Done: wait}, nil
}

func (f *fakeMemory) Facts(_ context.Context, userID string, _ client.FactsQuery) ([]client.Fact, error) {
	if err := f.note("facts " + userID); err != nil {
		return nil, err
	}
	return []client.Fact{{ID: "fact_1", Subject: userID, Predicate: "LIVES_IN", Object: "Berlin", Text: "alice lives in Berlin", Status: "current"}}, nil
}

func (f *fakeMemory) Preferences(_ context.Context, userID string, _ client.HistoryQuery) ([]client.Preference, error) {
	if err := f.note("preferences " + userID); err != nil {
		return nil, err
	}
	return []client.Preference{{FactID: "fact_2", Predicate: "LIKES", Object: "sushi", Status: "current"}}, nil
}

func (f *fakeMemory) Mark(_ context.Context, kind, id string, m client.Marks) (client.Marked, error) {
	if err := f.note("mark " + kind + " " + id); err != nil {
		return client.Marked{}, err
	}
	out := client.Marked{Kind: kind, ID: id, UserID: "alice", Importance: "normal"}
	if m.Pinned != nil {
		out.Pinned = *m.Pinned
	}
	if m.Importance != nil {
		out.Importance = *m.Importance
	}
	return out, nil
}

// connect starts the server over in-memory transports and returns a
// client session of the official SDK.
func connect(t *testing.T, m Memory) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := NewServer(m, "test").Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (*mcp.CallToolResult, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return res, b.String()
}

var allTools = []string{"add_fact", "correct_fact", "get_context", "get_session_view", "list_conflicts", "list_facts",
	"list_preferences", "mark_memory", "recall", "remember", "request_condensation", "resolve_conflict", "retract_fact"}

// TestToolsAnswerAndFail: the tools are listed with descriptions, answer
// with text and the API's JSON, say what an empty result means, refuse
// input their schema rejects before calling the API, and turn an API
// problem into a tool error carrying its detail.
func TestToolsAnswerAndFail(t *testing.T) {
	fake := &fakeMemory{}
	cs := connect(t, fake)
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		if len(tool.Description) < 120 {
			t.Errorf("%s: description too thin for a model: %q", tool.Name, tool.Description)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, allTools) {
		t.Fatalf("tools %v, want %v", names, allTools)
	}

	res, txt := call(t, cs, "recall", map[string]any{"user_id": "alice", "query": "where does she live"})
	if res.IsError || !strings.Contains(txt, "alice lives in Berlin") || !strings.Contains(txt, "fact_1") {
		t.Fatalf("recall: %v %q", res.IsError, txt)
	}
	var structured client.SearchResponse
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &structured); err != nil || len(structured.Results) != 1 {
		t.Fatalf("structured content %s: %v", raw, err)
	}
	if res, txt := call(t, cs, "recall", map[string]any{"user_id": "bob", "query": "anything"}); res.IsError || !strings.Contains(txt, "No memories matched") {
		t.Fatalf("empty recall: %q", txt)
	}

	// Input the schema rejects never reaches the API.
	before := len(fake.calls)
	for _, bad := range []map[string]any{
		{"user_id": "alice"}, // no query
		{"user_id": "alice", "query": strings.Repeat("x", 4001)},
		{"user_id": "not an id", "query": "q"},
		{"user_id": "alice", "query": "q", "limit": 101},
		{"user_id": "alice", "query": "q", "tiers": []string{"everything"}},
		{"user_id": "alice", "query": "q", "colour": "blue"},
	} {
		if res, txt := call(t, cs, "recall", bad); !res.IsError {
			t.Errorf("recall %v accepted: %q", bad, txt)
		}
	}
	if len(fake.calls) != before {
		t.Errorf("rejected input reached the API: %v", fake.calls[before:])
	}

	// mark_memory pins through the route of its kind; without a mark it
	// calls nothing.
	if res, txt := call(t, cs, "mark_memory", map[string]any{"kind": "insight", "id": "ins_1", "pinned": true, "importance": "critical"}); res.IsError ||
		!strings.Contains(txt, "insight ins_1 is pinned, importance critical") || fake.calls[len(fake.calls)-1] != "mark insight ins_1" {
		t.Fatalf("mark_memory: %v %q", res.IsError, txt)
	}
	before = len(fake.calls)
	for _, bad := range []map[string]any{{"kind": "fact", "id": "f1"}, {"kind": "entity", "id": "e1", "pinned": true},
		{"kind": "fact", "id": "f1", "importance": "urgent"}} {
		if res, txt := call(t, cs, "mark_memory", bad); !res.IsError {
			t.Errorf("mark_memory %v accepted: %q", bad, txt)
		}
	}
	if len(fake.calls) != before {
		t.Errorf("rejected marks reached the API: %v", fake.calls[before:])
	}

	// A note is stored as a user turn with a stable id, then extracted.
	_, txt = call(t, cs, "remember", map[string]any{"user_id": "alice", "note": "I moved to Berlin", "extract_now": true})
	if !strings.Contains(txt, "Extracted") || !strings.HasPrefix(fake.calls[len(fake.calls)-2], "append notes-alice note-") ||
		fake.calls[len(fake.calls)-1] != "close notes-alice" {
		t.Fatalf("remember: %q, calls %v", txt, fake.calls)
	}

	fake.fail = &client.Problem{Type: "/docs#problem-validation", Title: "Validation failed", Status: 422,
		Detail: "predicate: \"LOVES\" is not a fact type", Errors: []client.FieldIssue{{Field: "predicate", Rule: "oneof", Message: "is not a fact type"}}}
	res, txt = call(t, cs, "add_fact", map[string]any{"user_id": "alice", "predicate": "LOVES", "object": "tea", "actor": "agent-7"})
	if !res.IsError || !strings.Contains(txt, "Validation failed (422)") || !strings.Contains(txt, "- predicate: is not a fact type") {
		t.Fatalf("problem as tool error: %v %q", res.IsError, txt)
	}
	if last := fake.calls[len(fake.calls)-1]; last != "add alice LOVES tea agent-7" {
		t.Errorf("add_fact called %q", last)
	}
}

// TestResources: a user's profile reads as a document of facts and
// preferences.
func TestResources(t *testing.T) {
	cs := connect(t, &fakeMemory{})
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "graphmem://users/alice/profile"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Contents) != 1 || !strings.Contains(res.Contents[0].Text, "alice lives in Berlin") || !strings.Contains(res.Contents[0].Text, "likes sushi") {
		t.Fatalf("profile: %+v", res.Contents)
	}
	if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "graphmem://users/a/b/profile"}); err == nil {
		t.Error("a malformed profile URI was read")
	}
}

// TestHandlerActsWithTheCallersCredentials: over Streamable HTTP each MCP
// request reaches the API with its own key, so two keys never share a
// client, and the API's answer (here a 401 problem) comes back as a tool
// error.
func TestHandlerActsWithTheCallersCredentials(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]string{} // query -> Authorization the API saw
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req client.SearchRequest
		_ = json.NewDecoder(r.Body).Decode(&req)
		mu.Lock()
		seen[req.Query] = r.Header.Get("Authorization")
		mu.Unlock()
		if r.Header.Get("Authorization") != "Bearer key-a" {
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"type":"/docs#problem-unauthorized","title":"Unauthorized","status":401,"detail":"send a valid API key"}`))
			return
		}
		_, _ = w.Write([]byte(`{"results":[{"id":"r1","kind":"raw","text":"hello","status":"current","score":1}],"took_ms":1,"query":{}}`))
	})
	srv := httptest.NewServer(Handler(api, "test", nil))
	defer srv.Close()
	for _, c := range []struct{ key, query, want string }{{"key-a", "qa", "hello"}, {"key-b", "qb", "Unauthorized (401)"}} {
		hc := &http.Client{Transport: bearer{c.key, http.DefaultTransport}}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(),
			&mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: hc, DisableStandaloneSSE: true}, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, txt := call(t, cs, "recall", map[string]any{"user_id": "alice", "query": c.query})
		_ = cs.Close()
		if !strings.Contains(txt, c.want) {
			t.Errorf("key %s: %q, want %q", c.key, txt, c.want)
		}
		if seen[c.query] != "Bearer "+c.key {
			t.Errorf("key %s: the API saw %q", c.key, seen[c.query])
		}
	}
}

// bearer adds an API key to every request.
type bearer struct {
	key  string
	next http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return b.next.RoundTrip(r)
}
