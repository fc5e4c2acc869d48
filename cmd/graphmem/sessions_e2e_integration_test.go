//go:build integration

package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

type viewResp struct {
	Events []struct {
		ID         string `json:"id"`
		Kind       string `json:"kind"`
		Role       string `json:"role"`
		Content    string `json:"content"`
		ToolCallID string `json:"tool_call_id"`
	} `json:"events"`
	Tokens           int `json:"tokens"`
	NewCondensations []struct {
		ID           string   `json:"id"`
		Strategy     string   `json:"strategy"`
		ForgottenIDs []string `json:"forgotten_ids"`
		DurationMS   int64    `json:"duration_ms"`
	} `json:"new_condensations"`
	Trimmed int `json:"trimmed"`
}

// agentSession builds n events of a realistic agent loop: a system prompt,
// the user's task, then rounds of assistant tool calls (some parallel, in
// batches) with their results, assistant replies and user follow-ups.
func agentSession(n int) []map[string]any {
	start := time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC)
	var out []map[string]any
	add := func(e map[string]any) {
		e["occurred_at"] = start.Add(time.Duration(len(out)) * time.Minute).Format(time.RFC3339)
		out = append(out, e)
	}
	add(ev("e1", "message", "system", "You are a travel assistant."))
	add(ev("e2", "message", "user", "Plan a trip to Lisbon for me. My budget for the trip is 2000 euros."))
	for round := 0; len(out) < n; round++ {
		id := func(s string) string { return fmt.Sprintf("r%d-%s", round, s) }
		switch round % 4 {
		case 0, 2: // one tool call and its result
			add(ev(id("call"), "tool_call", "assistant", `{"query": "hotels in Lisbon"}`, "tool_call_id", id("c"), "name", "search"))
			add(ev(id("res"), "tool_result", "tool", strings.Repeat("Hotel option with price and rating. ", 20), "tool_call_id", id("c"), "name", "search"))
		case 1: // two parallel calls from one LLM response, then both results
			add(ev(id("callA"), "tool_call", "assistant", `{"city": "Lisbon"}`, "tool_call_id", id("a"), "batch_id", id("b"), "name", "weather"))
			add(ev(id("callB"), "tool_call", "assistant", `{"city": "Porto"}`, "tool_call_id", id("b2"), "batch_id", id("b"), "name", "weather"))
			add(ev(id("resA"), "tool_result", "tool", "Sunny, 24C", "tool_call_id", id("a"), "name", "weather"))
			add(ev(id("resB"), "tool_result", "tool", "Cloudy, 19C", "tool_call_id", id("b2"), "name", "weather"))
		case 3:
			add(ev(id("say"), "message", "assistant", "I found a few options; do you prefer the old town?"))
			add(ev(id("ask"), "message", "user", fmt.Sprintf("Yes, the old town please. Question %d about the itinerary.", round)))
		}
	}
	return out[:n]
}

// TestSessionPipelineEndToEnd is the condenser issue's acceptance test:
// 300 events with tool pairs through the API on real Neo4j; contexts under
// event and token budgets; summaries, intact tool pairs, the first user
// message, the audit trail, and every raw event still readable.
func TestSessionPipelineEndToEnd(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	events := agentSession(300)
	for i := 0; i < len(events); i += 100 {
		e.must(t, http.StatusCreated, http.MethodPost, "/v1/sessions/trip/events", batch("alice", events[i:i+100]...))
	}
	// Re-sending a batch is idempotent.
	var dup struct {
		Events []struct{ Duplicate bool } `json:"events"`
	}
	if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodPost, "/v1/sessions/trip/events", batch("alice", events[:50]...)), &dup); err != nil {
		t.Fatal(err)
	}
	for _, d := range dup.Events {
		if !d.Duplicate {
			t.Fatal("a re-sent event was stored again")
		}
	}

	// Each budget gets its own fresh copy of the session, so each one has
	// to condense 300 events by itself.
	var condensedAt []int64
	for i, budget := range []map[string]any{{"max_events": 60}, {"max_tokens": 2500}, {"max_events": 12}, {"max_events": 80, "max_tokens": 4000}} {
		session := "trip"
		if i > 0 {
			session = fmt.Sprintf("trip-%d", i)
			for j := 0; j < len(events); j += 100 {
				e.must(t, http.StatusCreated, http.MethodPost, "/v1/sessions/"+session+"/events", batch("alice", events[j:j+100]...))
			}
		}
		var v viewResp
		if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodPost, "/v1/sessions/"+session+"/context", budget), &v); err != nil {
			t.Fatal(err)
		}
		t.Logf("budget %v: %d events, %d tokens, %d new condensations, trimmed %d", budget, len(v.Events), v.Tokens, len(v.NewCondensations), v.Trimmed)
		if n, ok := budget["max_events"].(int); ok && len(v.Events) > n {
			t.Fatalf("budget %v: view has %d events", budget, len(v.Events))
		}
		if n, ok := budget["max_tokens"].(int); ok && v.Tokens > n {
			t.Fatalf("budget %v: view has %d tokens", budget, v.Tokens)
		}
		if len(v.NewCondensations) == 0 {
			t.Fatalf("budget %v: 300 events fit without condensing?", budget)
		}
		checkView(t, budget, v, true)
		for _, c := range v.NewCondensations {
			condensedAt = append(condensedAt, c.DurationMS)
		}
	}
	t.Logf("condensations: %d, offline latency per condensation (ms): %v", len(condensedAt), condensedAt)

	// An explicit condensation condenses now (HARD), even within budget.
	var forced viewResp
	if err := json.Unmarshal(e.must(t, http.StatusCreated, http.MethodPost, "/v1/sessions/trip/condensations", map[string]any{}), &forced); err != nil {
		t.Fatal(err)
	}
	// The default profile answers a request as OpenHands' web pipeline does:
	// ConversationWindow drops the older half, without a summary.
	if len(forced.NewCondensations) != 1 || forced.NewCondensations[0].Strategy != "conversation_window" ||
		len(forced.NewCondensations[0].ForgottenIDs) == 0 {
		t.Fatalf("explicit condensation: %+v", forced.NewCondensations)
	}
	checkView(t, "explicit", forced, false)

	// The audit trail lists every condensation with what it forgot.
	var audit struct {
		Condensations []struct {
			ID           string   `json:"id"`
			Kind         string   `json:"kind"`
			Strategy     string   `json:"strategy"`
			ForgottenIDs []string `json:"forgotten_ids"`
			Summary      string   `json:"summary"`
			Config       any      `json:"config"`
		} `json:"condensations"`
	}
	if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodGet, "/v1/sessions/trip/condensations", nil), &audit); err != nil {
		t.Fatal(err)
	}
	forgotten := map[string]bool{}
	for _, c := range audit.Condensations {
		if c.Kind == "condensation" {
			summarizes := c.Strategy != "conversation_window"
			if len(c.ForgottenIDs) == 0 || (summarizes && c.Summary == "") || c.Config == nil {
				t.Fatalf("condensation %s lacks forgotten ids, summary or config", c.ID)
			}
			for _, id := range c.ForgottenIDs {
				forgotten[id] = true
			}
		}
	}
	// Session "trip" had one budget condensation and the explicit one.
	if len(audit.Condensations) != 2 {
		t.Fatalf("audit of session trip lists %d condensations, want 2", len(audit.Condensations))
	}

	// All 300 raw events are still readable, whole, with forgotten flags.
	var list struct {
		Events []struct {
			ID        string `json:"id"`
			Kind      string `json:"kind"`
			Content   string `json:"content"`
			Forgotten *bool  `json:"forgotten"`
		} `json:"events"`
	}
	if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodGet, "/v1/sessions/trip/events?include_forgotten=true&limit=1000", nil), &list); err != nil {
		t.Fatal(err)
	}
	byID := map[string]string{}
	flagged := 0
	for _, r := range list.Events {
		byID[r.ID] = r.Content
		if r.Forgotten == nil {
			t.Fatal("include_forgotten listing lacks the forgotten flag")
		}
		if *r.Forgotten {
			flagged++
		}
	}
	for _, want := range events {
		if byID[want["id"].(string)] != want["content"] {
			t.Fatalf("raw event %s lost or changed", want["id"])
		}
	}
	if flagged == 0 {
		t.Fatal("no stored event is flagged forgotten after condensing")
	}
	// Without include_forgotten only the events still in the view are listed.
	var inView struct {
		Events []struct{ ID string } `json:"events"`
	}
	if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodGet, "/v1/sessions/trip/events?limit=1000", nil), &inView); err != nil {
		t.Fatal(err)
	}
	for _, r := range inView.Events {
		if forgotten[r.ID] {
			t.Fatalf("event %s is listed as in view but a condensation forgot it", r.ID)
		}
	}
	if len(inView.Events) >= len(list.Events) {
		t.Fatalf("view listing has %d events, full listing %d", len(inView.Events), len(list.Events))
	}
}

// checkView asserts the invariants of any view: the first user message is
// kept, summaries are present once condensed, and no tool call is
// separated from its result.
func checkView(t *testing.T, budget any, v viewResp, wantSummary bool) {
	t.Helper()
	ids := map[string]bool{}
	calls, results := map[string]bool{}, map[string]bool{}
	summaries := 0
	for _, ev := range v.Events {
		ids[ev.ID] = true
		switch ev.Kind {
		case "summary":
			summaries++
			if !strings.HasSuffix(ev.ID, "-summary") || ev.Content == "" {
				t.Fatalf("budget %v: malformed summary event %+v", budget, ev)
			}
		case "tool_call":
			calls[ev.ToolCallID] = true
		case "tool_result":
			results[ev.ToolCallID] = true
		}
	}
	if !ids["e2"] {
		t.Fatalf("budget %v: the first user message was dropped", budget)
	}
	if wantSummary && summaries == 0 {
		t.Fatalf("budget %v: no summary in a condensed view", budget)
	}
	for id := range calls {
		if !results[id] {
			t.Fatalf("budget %v: tool call %s is in the view without its result", budget, id)
		}
	}
	for id := range results {
		if !calls[id] {
			t.Fatalf("budget %v: tool result %s is in the view without its call", budget, id)
		}
	}
}

// TestLargeOutputsAreOffloadedAndReloadable: a huge tool result appears in
// the view as a preview with a reference, and the whole event is still
// readable from the raw tier.
func TestLargeOutputsAreOffloadedAndReloadable(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	big := strings.Repeat("log line with details\n", 600) // ~13k characters
	e.must(t, http.StatusCreated, http.MethodPost, "/v1/sessions/tool/events", batch("alice",
		ev("t1", "message", "user", "Run the build and show me the log."),
		ev("t2", "tool_call", "assistant", `{"cmd": "make"}`, "tool_call_id", "c1", "name", "shell"),
		ev("t3", "tool_result", "tool", big, "tool_call_id", "c1", "name", "shell"),
	))
	var v viewResp
	if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodPost, "/v1/sessions/tool/context", map[string]any{}), &v); err != nil {
		t.Fatal(err)
	}
	var shown string
	for _, x := range v.Events {
		if x.ID == "t3" {
			shown = x.Content
		}
	}
	if len(shown) >= len(big) || !strings.Contains(shown, "CONTEXT_OFFLOAD") {
		t.Fatalf("the large output was not offloaded in the view (%d chars)", len(shown))
	}
	var list struct {
		Events []struct {
			ID      string `json:"id"`
			Content string `json:"content"`
		} `json:"events"`
	}
	if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodGet, "/v1/sessions/tool/events?include_forgotten=true", nil), &list); err != nil {
		t.Fatal(err)
	}
	for _, x := range list.Events {
		if x.ID == "t3" && x.Content != big {
			t.Fatal("the stored event is not the whole output")
		}
	}
}

// TestCondenserProfilesThroughAPI: the SDK and Mem1 profiles condense a
// long session; Mem1 keeps one cumulative <think> memory; an unknown
// profile is a 422 naming the field.
func TestCondenserProfilesThroughAPI(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	events := agentSession(120)
	for _, session := range []string{"p-sdk", "p-mem1"} {
		e.must(t, http.StatusCreated, http.MethodPost, "/v1/sessions/"+session+"/events", batch("alice", events...))
	}
	var sdk viewResp
	if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodPost, "/v1/sessions/p-sdk/context", map[string]any{"profile": "sdk", "max_events": 50}), &sdk); err != nil {
		t.Fatal(err)
	}
	if len(sdk.Events) > 50 || len(sdk.NewCondensations) == 0 {
		t.Fatalf("sdk profile: %d events, %d condensations", len(sdk.Events), len(sdk.NewCondensations))
	}
	checkView(t, "sdk", sdk, true)
	var mem1 viewResp
	if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodPost, "/v1/sessions/p-mem1/context", map[string]any{"profile": "mem1"}), &mem1); err != nil {
		t.Fatal(err)
	}
	summaries := 0
	for _, x := range mem1.Events {
		if x.Kind == "summary" {
			summaries++
			if !strings.HasPrefix(x.Content, "<think>") || !strings.HasSuffix(strings.TrimSpace(x.Content), "</think>") {
				t.Fatalf("mem1 memory is not one <think> block: %.80q", x.Content)
			}
		}
	}
	if summaries != 1 || len(mem1.Events) > 20 {
		t.Fatalf("mem1 view: %d summaries, %d events", summaries, len(mem1.Events))
	}
	rec := e.Do(http.MethodPost, "/v1/sessions/p-sdk/context", map[string]any{"profile": "nope"})
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `"field":"profile"`) {
		t.Fatalf("unknown profile: %d %s", rec.Code, rec.Body)
	}
}

// TestIdleSessionsAreClosedAndExtracted: a session the agent never closes
// is closed by the sweeper, so its events still reach the graph.
func TestIdleSessionsAreClosedAndExtracted(t *testing.T) {
	t.Parallel()
	e := newE2E(t, "GRAPHMEM_SESSION_IDLE_CLOSE", "1s")
	e.must(t, http.StatusCreated, http.MethodPost, "/v1/sessions/idle/events", map[string]any{"user_id": "dee",
		"events": []map[string]any{{"id": "i1", "kind": "message", "role": "user", "content": "I live in Oslo."}}})
	deadline := time.Now().Add(45 * time.Second)
	for {
		var sess struct {
			Status string `json:"status"`
		}
		if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodGet, "/v1/sessions/idle", nil), &sess); err != nil {
			t.Fatal(err)
		}
		if f := e.facts(t, "dee", nil); sess.Status == "closed" && hasFact(f, "LIVES_IN", "Oslo", "current") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the idle session was not closed and extracted within 45s (status %s)", sess.Status)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// TestTightBudgetViewShrinksAndStaysBounded: a token budget smaller than a
// chatty session's log makes a view with a summary in it, within budget;
// asking again (as an agent does before every LLM call) condenses nothing
// more, and the short-term part of /v1/context stays within max_tokens.
func TestTightBudgetViewShrinksAndStaysBounded(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	var events []map[string]any
	for i := range 40 {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		events = append(events, map[string]any{"kind": "message", "role": role,
			"content": fmt.Sprintf("Message %d: we talked about hiking boots, trail %d and the weather in the Alps.", i, i)})
	}
	e.must(t, http.StatusCreated, http.MethodPost, "/v1/sessions/trim-1/events", map[string]any{"user_id": "gina", "events": events})

	type view struct {
		Events []struct {
			Kind   string `json:"kind"`
			Tokens int    `json:"tokens"`
		} `json:"events"`
		Tokens int `json:"tokens"`
	}
	hasSummary := func(v view) bool {
		sum, summary := 0, false
		for _, ev := range v.Events {
			sum += ev.Tokens
			if ev.Kind == "summary" {
				summary = summary || ev.Tokens > 0
			}
		}
		if sum != v.Tokens {
			t.Errorf("the view's events add up to %d tokens, the view says %d", sum, v.Tokens)
		}
		return summary
	}
	condensations := func() int {
		var out struct {
			Condensations []any `json:"condensations"`
		}
		if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodGet, "/v1/sessions/trim-1/condensations", nil), &out); err != nil {
			t.Fatal(err)
		}
		return len(out.Condensations)
	}
	// A dry run previews the condensed view and stores nothing.
	var preview view
	if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodPost, "/v1/sessions/trim-1/context", map[string]any{"max_tokens": 600, "dry_run": true}), &preview); err != nil {
		t.Fatal(err)
	}
	if !hasSummary(preview) || condensations() != 0 {
		t.Fatalf("dry run: want a summary in the preview and nothing stored, got %+v and %d condensations", preview, condensations())
	}
	var first view
	if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodPost, "/v1/sessions/trim-1/context", map[string]any{"max_tokens": 600}), &first); err != nil {
		t.Fatal(err)
	}
	if first.Tokens > 600 || !hasSummary(first) {
		t.Fatalf("the view should fit 600 tokens and carry a summary of what it left out: %+v", first)
	}
	stored := condensations()
	if stored == 0 {
		t.Fatal("no condensation was stored")
	}
	for range 2 {
		e.must(t, http.StatusOK, http.MethodPost, "/v1/sessions/trim-1/context", map[string]any{"max_tokens": 600})
	}
	if n := condensations(); n != stored {
		t.Fatalf("asking for the same view again stored %d more condensations", n-stored)
	}

	// A budget below what a view keeps says so instead of passing in silence.
	var tiny struct {
		Events   []any  `json:"events"`
		Deferred string `json:"deferred"`
	}
	if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodPost, "/v1/sessions/trim-1/context", map[string]any{"max_events": 1}), &tiny); err != nil {
		t.Fatal(err)
	}
	if len(tiny.Events) > 1 && tiny.Deferred == "" {
		t.Fatalf("max_events 1 gave %d events without saying why", len(tiny.Events))
	}

	var ctx struct {
		Tokens          int `json:"tokens"`
		ShortTermTokens int `json:"short_term_tokens"`
	}
	for _, budget := range []int{60, 300} {
		if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodPost, "/v1/context", map[string]any{
			"user_id": "gina", "session_id": "trim-1", "query": "hiking boots", "max_tokens": budget}), &ctx); err != nil {
			t.Fatal(err)
		}
		if ctx.Tokens > budget {
			t.Fatalf("max_tokens %d: the context has %d tokens", budget, ctx.Tokens)
		}
	}
	// Another user's session is not part of anyone else's context.
	e.must(t, http.StatusConflict, http.MethodPost, "/v1/context", map[string]any{
		"user_id": "carol", "session_id": "trim-1", "query": "hiking"})
}
