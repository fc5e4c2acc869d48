//go:build integration

package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graphmem/graphmem/api"
	"github.com/graphmem/graphmem/client"
	"github.com/graphmem/graphmem/graph/graphtest"
)

// liveService is the whole service, wired as `graphmem serve` wires it, on
// a real loopback listener, with two tenants: the clients of these tests
// (the Go client, the MCP SDK's client over Streamable HTTP and over
// stdio) speak HTTP to it as any user would.
type liveService struct {
	URL          string
	Key, Other   string // API keys of the test's tenant and of another one
	TenantOfKey  string
	clientOfKey  *client.Client
	clientOfElse *client.Client
}

func newLiveService(t *testing.T) *liveService {
	t.Helper()
	var b [6]byte
	_, _ = rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	tenant, other := "mcp-"+id, "mcp-other-"+id
	key, otherKey := "key-"+id+"-0123456789", "other-"+id+"-0123456789"
	getenv, environ := envOf(append([]string{"GRAPHMEM_NEO4J_URI", graphtest.URI(t),
		"GRAPHMEM_API_KEYS", tenant + ":" + key + "," + other + ":" + otherKey,
		"GRAPHMEM_WORKERS", "2", "GRAPHMEM_WORKER_TENANTS", tenant + "," + other, "GRAPHMEM_SESSION_IDLE_CLOSE", "0"},
		embedderKV()...)...)
	cfg, err := loadConfig(getenv, environ)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := api.ParseKeys(cfg.apiKeySource())
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	if os.Getenv("E2E_LOG") != "" {
		log = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	a, err := buildApp(t.Context(), cfg, keys, log)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a.handler)
	t.Cleanup(func() {
		srv.Close()
		a.close(context.Background())
	})
	c, err := client.New(srv.URL, client.WithAPIKey(key))
	if err != nil {
		t.Fatal(err)
	}
	o, _ := client.New(srv.URL, client.WithAPIKey(otherKey))
	return &liveService{URL: srv.URL, Key: key, Other: otherKey, TenantOfKey: tenant, clientOfKey: c, clientOfElse: o}
}

// mcpSession connects the MCP SDK's own client to /mcp with a key.
func (s *liveService) mcpSession(t *testing.T, key string) *mcp.ClientSession {
	t.Helper()
	hc := &http.Client{Transport: keyed{key, http.DefaultTransport}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "graphmem-e2e", Version: "1"}, nil).Connect(t.Context(),
		&mcp.StreamableClientTransport{Endpoint: s.URL + "/mcp", HTTPClient: hc}, nil)
	if err != nil {
		t.Fatalf("connect to /mcp: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

type keyed struct {
	key  string
	next http.RoundTripper
}

func (k keyed) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if k.key != "" {
		r.Header.Set("Authorization", "Bearer "+k.key)
	}
	return k.next.RoundTrip(r)
}

// callTool calls a tool and returns its text; a tool error fails the test
// unless wantError.
func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, wantError bool) string {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	if res.IsError != wantError {
		t.Fatalf("%s %v: error %v, want %v: %s", name, args, res.IsError, wantError, b.String())
	}
	return b.String()
}

func toolNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	list, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

var wantTools = []string{"add_fact", "correct_fact", "get_context", "get_session_view", "list_conflicts", "list_facts",
	"list_preferences", "mark_memory", "recall", "remember", "request_condensation", "resolve_conflict", "retract_fact"}

// TestMCPOverHTTP: the official Go SDK client lists the tools at /mcp,
// remembers a note and recalls it, reads the extracted preference, and
// another tenant's key sees none of it; no key is refused.
func TestMCPOverHTTP(t *testing.T) {
	t.Parallel()
	s := newLiveService(t)
	cs := s.mcpSession(t, s.Key)
	if got := toolNames(t, cs); !slices.Equal(got, wantTools) {
		t.Fatalf("tools %v, want %v", got, wantTools)
	}
	txt := callTool(t, cs, "remember", map[string]any{"user_id": "maria",
		"note": "I moved to Lisbon last month. I love grilled sardines.", "extract_now": true}, false)
	if !strings.Contains(txt, "Stored 1 new event") || !strings.Contains(txt, "Extracted") {
		t.Fatalf("remember: %s", txt)
	}
	if txt := callTool(t, cs, "recall", map[string]any{"user_id": "maria", "query": "Where does Maria live?"}, false); !strings.Contains(txt, "Lisbon") {
		t.Fatalf("recall does not give the memory back: %s", txt)
	}
	if txt := callTool(t, cs, "list_preferences", map[string]any{"user_id": "maria"}, false); !strings.Contains(txt, "sardines") {
		t.Fatalf("the note's preference was not extracted: %s", txt)
	}
	if txt := callTool(t, cs, "get_context", map[string]any{"user_id": "maria", "query": "suggest dinner", "max_tokens": 300}, false); !strings.Contains(txt, "Lisbon") {
		t.Fatalf("context: %s", txt)
	}
	// A problem of the API comes back as a tool error with its detail.
	if txt := callTool(t, cs, "list_facts", map[string]any{"user_id": "maria", "predicate": "LOVES_DEARLY"}, true); !strings.Contains(txt, "LOVES_DEARLY") {
		t.Fatalf("problem detail lost: %s", txt)
	}

	// Another tenant's key: the same user id names nobody it knows.
	other := s.mcpSession(t, s.Other)
	if txt := callTool(t, other, "recall", map[string]any{"user_id": "maria", "query": "Where does Maria live? Lisbon sardines"}, false); !strings.Contains(txt, "No memories matched") {
		t.Fatalf("another tenant recalls the memory: %s", txt)
	}
	if txt := callTool(t, other, "list_facts", map[string]any{"user_id": "maria", "include_history": true}, false); !strings.Contains(txt, "No facts") {
		t.Fatalf("another tenant lists the facts: %s", txt)
	}
	_, err := mcp.NewClient(&mcp.Implementation{Name: "anon", Version: "1"}, nil).Connect(t.Context(),
		&mcp.StreamableClientTransport{Endpoint: s.URL + "/mcp", MaxRetries: -1}, nil)
	if err == nil || !strings.Contains(err.Error(), "401") && !strings.Contains(strings.ToLower(err.Error()), "unauthorized") {
		t.Fatalf("connecting without a key: %v, want 401", err)
	}
}

// TestMCPOverStdio: `graphmem mcp --stdio` (this test binary, re-run as
// the command) speaks MCP on stdin/stdout to the official Go SDK client
// and calls the running service over HTTP with GRAPHMEM_URL and
// GRAPHMEM_API_KEY.
func TestMCPOverStdio(t *testing.T) {
	if os.Getenv("GRAPHMEM_TEST_MCP_STDIO") == "1" {
		err := run(context.Background(), []string{"mcp", "--stdio"}, os.Getenv, os.Environ(), os.Stdout, os.Stderr)
		if err != nil {
			_, _ = os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	t.Parallel()
	s := newLiveService(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestMCPOverStdio$")
	cmd.Env = append(os.Environ(), "GRAPHMEM_TEST_MCP_STDIO=1", "GRAPHMEM_URL="+s.URL, "GRAPHMEM_API_KEY="+s.Key)
	cmd.Stderr = os.Stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "graphmem-e2e-stdio", Version: "1"}, nil).Connect(t.Context(),
		&mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if got := toolNames(t, cs); !slices.Equal(got, wantTools) {
		t.Fatalf("tools %v, want %v", got, wantTools)
	}
	callTool(t, cs, "remember", map[string]any{"user_id": "tom", "session_id": "desk-1",
		"events": []map[string]any{{"id": "t1", "kind": "message", "role": "user", "content": "My sister Ada is a marine biologist in Oslo."}}}, false)
	if txt := callTool(t, cs, "recall", map[string]any{"user_id": "tom", "query": "marine biologist"}, false); !strings.Contains(txt, "Ada") {
		t.Fatalf("recall over stdio: %s", txt)
	}
	// The bridge wrote through the service, for the key's tenant only.
	out, err := s.clientOfElse.Search(t.Context(), client.SearchRequest{UserID: "tom", Query: "marine biologist Ada"})
	if err != nil || len(out.Results) != 0 {
		t.Fatalf("another tenant finds the stdio memory: %v %+v", err, out.Results)
	}
}

// TestFactEditsEndToEnd: through the Go client, an added fact is found by
// search and context; retracted, it is gone from both in the next request
// and kept in history with who retracted it and why; a correction
// supersedes a fact with a new version. The MCP tools do the same.
func TestFactEditsEndToEnd(t *testing.T) {
	t.Parallel()
	s := newLiveService(t)
	c, ctx := s.clientOfKey, t.Context()
	added, err := c.AddFact(ctx, "nina", client.NewFact{Predicate: "works at", Object: "Zephyr Robotics", ObjectType: "company",
		Actor: "support-bot", Reason: "the user said so on the phone"})
	if err != nil {
		t.Fatal(err)
	}
	if added.Edit.Tenant != s.TenantOfKey || added.Edit.Actor != "support-bot" || added.Fact.Predicate != "WORKS_AT" || added.Fact.Status != "current" {
		t.Fatalf("add: %+v", added)
	}
	factID := added.Fact.ID
	found := func(where string) bool {
		t.Helper()
		sr, err := c.Search(ctx, client.SearchRequest{UserID: "nina", Query: "Where does Nina work? Zephyr Robotics", Tiers: []string{"fact"}})
		if err != nil {
			t.Fatal(err)
		}
		cr, err := c.Context(ctx, client.ContextRequest{UserID: "nina", Query: "Where does Nina work?", MaxTokens: 500})
		if err != nil {
			t.Fatal(err)
		}
		inSearch := slices.ContainsFunc(sr.Results, func(r client.SearchResult) bool { return r.ID == factID || strings.Contains(r.Text, "Zephyr") })
		inContext := strings.Contains(cr.Text, "Zephyr")
		if inSearch != inContext {
			t.Fatalf("%s: in search %v, in context %v", where, inSearch, inContext)
		}
		return inSearch
	}
	if !found("after the add") {
		t.Fatal("the added fact is neither searchable nor in the context")
	}
	ret, err := c.RetractFact(ctx, factID, client.Retraction{Actor: "nina", Reason: "I never worked there"})
	if err != nil {
		t.Fatal(err)
	}
	if ret.Fact.Status != "retracted" || ret.Edit.Kind != "retract" {
		t.Fatalf("retract: %+v", ret)
	}
	if found("the request after the retraction") {
		t.Fatal("the retracted fact is still in search or context")
	}
	d, err := c.Fact(ctx, factID)
	if err != nil {
		t.Fatal(err)
	}
	if d.Status != "retracted" || len(d.Edits) != 2 || d.Edits[1].Actor != "nina" || d.Edits[1].Reason != "I never worked there" ||
		d.Edits[1].Tenant != s.TenantOfKey {
		t.Fatalf("history of the retracted fact: %+v", d)
	}
	if _, err := s.clientOfElse.Fact(ctx, factID); !client.IsStatus(err, http.StatusNotFound) {
		t.Fatalf("another tenant reads the fact: %v", err)
	}
	if _, err := c.RetractFact(ctx, factID, client.Retraction{}); !client.IsStatus(err, http.StatusConflict) {
		t.Fatalf("retracting twice: %v, want 409", err)
	}

	// Over MCP: add, correct, retract by tool.
	cs := s.mcpSession(t, s.Key)
	txt := callTool(t, cs, "add_fact", map[string]any{"user_id": "nina", "predicate": "LIVES_IN", "object": "Porto", "object_type": "Place"}, false)
	newID := between(txt, "Fact ", " created")
	if newID == "" {
		t.Fatalf("add_fact: %s", txt)
	}
	txt = callTool(t, cs, "correct_fact", map[string]any{"fact_id": newID, "object": "Braga", "reason": "misheard"}, false)
	if !strings.Contains(txt, "corrected") || !strings.Contains(txt, "Braga") {
		t.Fatalf("correct_fact: %s", txt)
	}
	facts, err := c.Facts(ctx, "nina", client.FactsQuery{IncludeHistory: true, Predicate: "LIVES_IN"})
	if err != nil {
		t.Fatal(err)
	}
	var braga string
	for _, f := range facts {
		switch f.Object {
		case "Porto":
			if f.Status != "superseded" || f.SupersededBy == "" {
				t.Fatalf("the corrected version: %+v", f)
			}
			braga = f.SupersededBy
		case "Braga":
			if f.Status != "current" {
				t.Fatalf("the new version: %+v", f)
			}
		}
	}
	callTool(t, cs, "retract_fact", map[string]any{"fact_id": braga, "purge": true, "reason": "erase my address"}, false)
	if txt := callTool(t, cs, "recall", map[string]any{"user_id": "nina", "query": "Where does Nina live? Braga"}, false); strings.Contains(txt, "Braga") {
		t.Fatalf("a purged fact is recalled: %s", txt)
	}
	callTool(t, cs, "retract_fact", map[string]any{"fact_id": braga}, true) // gone: a tool error, not a crash
}

func between(s, before, after string) string {
	_, rest, ok := strings.Cut(s, before)
	if !ok {
		return ""
	}
	mid, _, ok := strings.Cut(rest, after)
	if !ok {
		return ""
	}
	return mid
}

// TestMCPPythonClient: a client graphmem did not write, the official MCP
// Python SDK (scripts/mcp_python_client.py), lists the tools and calls
// remember then recall over Streamable HTTP with a key and over stdio by
// launching `graphmem mcp --stdio`; another tenant's key recalls nothing.
// make test sets GRAPHMEM_TEST_MCP_PYTHON (the SDK's venv python, from
// scripts/mcp-python.sh) and GRAPHMEM_TEST_BINARY (bin/graphmem, just
// built), so there it runs, never skips.
func TestMCPPythonClient(t *testing.T) {
	python, binary := os.Getenv("GRAPHMEM_TEST_MCP_PYTHON"), os.Getenv("GRAPHMEM_TEST_BINARY")
	if python == "" || binary == "" {
		t.Skip("GRAPHMEM_TEST_MCP_PYTHON and GRAPHMEM_TEST_BINARY are unset: make test sets them")
	}
	t.Parallel()
	s := newLiveService(t)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, "../../scripts/mcp_python_client.py", "--url", s.URL, "--key", s.Key,
		"--other-key", s.Other, "--graphmem", binary)
	out, err := cmd.CombinedOutput()
	t.Logf("python client:\n%s", out)
	if err != nil {
		t.Fatalf("the Python SDK client failed: %v", err)
	}
	for _, want := range []string{"ok: streamable-http: recall gives the memory back", "ok: stdio: recall gives the memory back",
		"ok: another tenant's key recalls nothing"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("no %q in the client's report", want)
		}
	}
}
