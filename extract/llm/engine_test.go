package llm

import (
	"context"
	"errors"
	"math"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/graphmem/graphmem/extract"
	"github.com/graphmem/graphmem/ontology"
)

// *Engine provides every method of extract.Engine, exactly as the offline
// engine does, and embeddings besides; the assertions fail to compile when a
// signature drifts.
var (
	_ extract.Summarizer    = (*Engine)(nil)
	_ extract.EventSelector = (*Engine)(nil)
	_ extract.Extractor     = (*Engine)(nil)
	_ extract.Insighter     = (*Engine)(nil)
	_ extract.Engine        = (*Engine)(nil)
	_ interface {
		Embed(ctx context.Context, texts []string) ([][]float32, error)
	} = (*Engine)(nil)
)

func TestNewValidatesConfig(t *testing.T) {
	neg := float32(-1)
	cases := []struct {
		name    string
		cfg     Config
		wantErr string
	}{
		{"defaults", Config{Model: "gpt-4o-mini"}, ""},
		{"local server", Config{BaseURL: "http://localhost:11434/v1", Model: "llama3.1:8b"}, ""},
		{"azure", Config{APIType: "azure", BaseURL: "https://acme.openai.azure.com", Model: "gpt-4o"}, ""},
		{"no model", Config{}, "Model is required"},
		{"bad url", Config{BaseURL: "localhost:11434", Model: "m"}, "not an http(s) URL"},
		{"bad api type", Config{APIType: "bedrock", Model: "m"}, "APIType"},
		{"azure without url", Config{APIType: "azure", Model: "m"}, "BaseURL is required for Azure"},
		{"negative timeout", Config{Model: "m", Timeout: -time.Second}, "must not be negative"},
		{"temperature", Config{Model: "m", Temperature: &neg}, "Temperature"},
		{"dimensions", Config{Model: "m", RequestEmbeddingDimensions: true}, "RequestEmbeddingDimensions"},
		{"every problem at once", Config{BaseURL: "ftp://x", Timeout: -1}, "Model is required"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l, err := New(tc.cfg, nil)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("New: %v", err)
				}
				if l.cfg.Timeout != defaultTimeout || l.cfg.MaxRetries != defaultMaxRetries {
					t.Errorf("defaults not applied: %+v", l.cfg)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("New error = %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
	if _, err := New(Config{BaseURL: "ftp://x", Timeout: -1}, nil); err == nil || !strings.Contains(err.Error(), "http(s)") {
		t.Errorf("want every problem reported, got %v", err)
	}
}

func TestConfigLogValueMasksKey(t *testing.T) {
	cfg := Config{APIKey: "sk-secret", Model: "m"}
	if got := cfg.LogValue().String(); strings.Contains(got, "sk-secret") || !strings.Contains(got, "***") {
		t.Errorf("LogValue = %s", got)
	}
}

func TestSummarizeSections(t *testing.T) {
	f := newFakeServer(t)
	f.script("chat", fakeStep{file: "chat_summary_sections.json"})
	l, _ := newTestEngine(t, f, nil)

	got, err := l.Summarize(t.Context(), extract.SummaryRequest{
		Style:           extract.StyleSections,
		PreviousSummary: "USER_CONTEXT: Caroline is planning a move abroad",
		Events:          testEvents(),
		MaxEventLength:  10000,
	})
	if err != nil {
		t.Fatalf("Summarize: %v", err)
	}
	if !strings.HasPrefix(got.Text, "USER_CONTEXT: Caroline moved to Lisbon") || got.Model != "gpt-4o-mini-2024-07-18" ||
		got.PromptTokens != 611 || got.CompletionTokens != 74 {
		t.Errorf("Summary = %+v", got)
	}

	reqs := f.Requests()
	if len(reqs) != 1 {
		t.Fatalf("requests = %d, want 1", len(reqs))
	}
	r := reqs[0]
	if r.Method != http.MethodPost || r.Path != "/v1/chat/completions" {
		t.Errorf("request %s %s", r.Method, r.Path)
	}
	if got := r.Header.Get("Authorization"); got != "Bearer sk-test-123" {
		t.Errorf("Authorization = %q", got)
	}
	body := r.JSON(t)
	if body["model"] != "gpt-4o-mini" {
		t.Errorf("model = %v", body["model"])
	}
	if _, ok := body["response_format"]; ok {
		t.Errorf("a text summary must not ask for a response_format")
	}
	prompt := r.Messages(t)
	for _, want := range []string{
		"<PREVIOUS SUMMARY>\nUSER_CONTEXT: Caroline is planning a move abroad\n</PREVIOUS SUMMARY>",
		"<EVENT id=e1>\nMon 2023-05-08 13:56 UTC | user Caroline: Hey! I finally moved to Lisbon",
		"<EVENT id=e4>\nMon 2023-05-08 13:59 UTC | tool [tool_result]: weather(Lisbon)",
		"USER_CONTEXT:", "TASK_TRACKING:", "COMPLETED:", "PENDING:", "CURRENT_STATE:",
		"CODE_STATE:", "VERSION_CONTROL_STATUS:", "PRIORITIZE:", "SKIP:",
		"Now summarize the events using the rules above.",
	} {
		if !strings.Contains(prompt, want) {
			t.Errorf("prompt lacks %q", want)
		}
	}
	golden(t, "prompt_summarize_sections.golden", prompt)
	if l.Calls() != 1 {
		t.Errorf("Calls = %d", l.Calls())
	}
}

func TestTruncate(t *testing.T) {
	long := strings.Repeat("a", 10) + strings.Repeat("é", 10)
	cases := []struct {
		in   string
		max  int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{long, 0, long},
		{long, -1, long},
		{long, 8, "aaaa" + truncationMarker + "éééé"},
		{long, 9, "aaaa" + truncationMarker + "éééé"},
	}
	// Truncating twice changes nothing: callers that pre-truncate are safe.
	once := truncate(long, 8)
	if twice := truncate(once, 8); twice != once {
		t.Errorf("truncation is not idempotent: %q then %q", once, twice)
	}
	for _, tc := range cases {
		if got := truncate(tc.in, tc.max); got != tc.want {
			t.Errorf("truncate(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
}

func TestSummarizeTruncatesEventsAndPreviousSummary(t *testing.T) {
	f := newFakeServer(t)
	f.script("chat", fakeStep{file: "chat_summary_sections.json"})
	l, _ := newTestEngine(t, f, nil)
	events := testEvents()[:1]
	events[0].Content = strings.Repeat("x", 200) + "TAIL"
	_, err := l.Summarize(t.Context(), extract.SummaryRequest{
		Style: extract.StyleSections, PreviousSummary: "HEAD" + strings.Repeat("p", 200), Events: events, MaxEventLength: 40,
	})
	if err != nil {
		t.Fatalf("Summarize: %v", err)
	}
	prompt := f.Requests()[0].Messages(t)
	wantPrev := "<PREVIOUS SUMMARY>\nHEAD" + strings.Repeat("p", 16) + truncationMarker + strings.Repeat("p", 20) + "\n</PREVIOUS SUMMARY>"
	wantEvent := "<EVENT id=e1>\nMon 2023-05-08 13:56 UTC | user Caroline: " + strings.Repeat("x", 20) + truncationMarker +
		strings.Repeat("x", 16) + "TAIL\n</EVENT>"
	for _, want := range []string{wantPrev, wantEvent} {
		if !strings.Contains(prompt, want) {
			t.Errorf("prompt lacks %q:\n%s", want, prompt)
		}
	}
}

func TestSummarizeWithoutPreviousSummary(t *testing.T) {
	f := newFakeServer(t)
	f.script("chat", fakeStep{file: "chat_summary_sections.json"})
	l, _ := newTestEngine(t, f, nil)
	if _, err := l.Summarize(t.Context(), extract.SummaryRequest{Events: testEvents()}); err != nil {
		t.Fatalf("Summarize: %v", err)
	}
	if p := f.Requests()[0].Messages(t); !strings.Contains(p, "<PREVIOUS SUMMARY>\nNo events summarized\n</PREVIOUS SUMMARY>") {
		t.Errorf("prompt lacks the placeholder:\n%s", p)
	}
}

func TestSummarizeStructured(t *testing.T) {
	f := newFakeServer(t)
	f.script("chat", fakeStep{file: "chat_summary_structured.json"})
	l, logs := newTestEngine(t, f, nil)
	got, err := l.Summarize(t.Context(), extract.SummaryRequest{Style: extract.StyleStructured, Events: testEvents(), MaxEventLength: 10000})
	if err != nil {
		t.Fatalf("Summarize: %v", err)
	}
	for _, want := range []string{
		"# State Summary\n\n## Core Information\n\n**User Context**: Caroline moved to Lisbon (Alfama) last month",
		"**Pending Tasks**: Suggest bacalhau recipes",
		"## Version Control", "**PR Status**: unknown",
		"**Other Relevant Context**: Ana is Caroline's sister.",
	} {
		if !strings.Contains(got.Text, want) {
			t.Errorf("summary lacks %q:\n%s", want, got.Text)
		}
	}
	if got.PromptTokens != 702 || got.CompletionTokens != 168 {
		t.Errorf("usage = %d/%d", got.PromptTokens, got.CompletionTokens)
	}
	if !strings.HasPrefix(got.Fields["user_context"], "Caroline moved to Lisbon") || got.Fields["pr_status"] != "unknown" {
		t.Errorf("structured fields not returned by name: %v", got.Fields)
	}
	if strings.Contains(logs.String(), "WARN") {
		t.Errorf("unexpected warning: %s", logs)
	}

	r := f.Requests()[0]
	body := r.JSON(t)
	choice, _ := body["tool_choice"].(map[string]any)
	fn, _ := choice["function"].(map[string]any)
	if choice["type"] != "function" || fn["name"] != "create_state_summary" {
		t.Errorf("tool_choice = %v, want the forced create_state_summary call", body["tool_choice"])
	}
	tools, _ := body["tools"].([]any)
	if len(tools) != 1 {
		t.Fatalf("tools = %v", body["tools"])
	}
	params := tools[0].(map[string]any)["function"].(map[string]any)["parameters"].(map[string]any)
	props := params["properties"].(map[string]any)
	if len(props) != 18 {
		t.Errorf("create_state_summary has %d fields, want 18", len(props))
	}
	for name, p := range props {
		if p.(map[string]any)["type"] != "string" {
			t.Errorf("field %s is not a string", name)
		}
	}
	if diff := cmp.Diff([]any{"user_context", "completed_tasks", "pending_tasks"}, params["required"]); diff != "" {
		t.Errorf("required (-want +got):\n%s", diff)
	}
	golden(t, "prompt_summarize_structured.golden", r.Messages(t))
}

func TestSummarizeStructuredParseFailure(t *testing.T) {
	cases := []struct {
		file, wantText, wantLog string
	}{
		{"chat_summary_structured_bad_args.json", "**User Context**: \n", "could not be parsed"},
		{"chat_summary_structured_list_args.json", "**Completed Tasks**: Checked the weather; Congratulated her", "coerced"},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			f := newFakeServer(t)
			f.script("chat", fakeStep{file: tc.file})
			l, logs := newTestEngine(t, f, nil)
			got, err := l.Summarize(t.Context(), extract.SummaryRequest{Style: extract.StyleStructured, Events: testEvents()})
			if err != nil {
				t.Fatalf("Summarize: %v (a parse failure must give an empty summary, not an error)", err)
			}
			if !strings.HasPrefix(got.Text, "# State Summary") || !strings.Contains(got.Text, tc.wantText) {
				t.Errorf("summary:\n%s\nwant it to contain %q", got.Text, tc.wantText)
			}
			if log := logs.String(); !strings.Contains(log, `"level":"WARN"`) || !strings.Contains(log, tc.wantLog) {
				t.Errorf("want a warning containing %q, logs:\n%s", tc.wantLog, log)
			}
		})
	}
	if got := (stateSummary{}).markdown(); !strings.Contains(got, "**User Context**: \n\n**Completed Tasks**: ") {
		t.Errorf("empty summary renders as:\n%s", got)
	}
}

func TestSummarizeMem1(t *testing.T) {
	f := newFakeServer(t)
	f.script("chat", fakeStep{file: "chat_summary_mem1.json"})
	l, _ := newTestEngine(t, f, nil)
	got, err := l.Summarize(t.Context(), extract.SummaryRequest{
		Style:           extract.StyleMem1,
		PreviousSummary: "<think>Caroline is planning a move abroad.</think>",
		Events:          testEvents(),
		MaxEventLength:  10000,
	})
	if err != nil {
		t.Fatalf("Summarize: %v", err)
	}
	want := "<think>Caroline (user) moved to Lisbon, Alfama, in April 2023. No longer eats sushi; learning to cook bacalhau. Sister Ana visits Fri 2023-05-12. Weather in Lisbon: 24°C, sunny.</think>"
	if got.Text != want {
		t.Errorf("Text = %q, want %q", got.Text, want)
	}
	prompt := f.Requests()[0].Messages(t)
	for _, want := range []string{
		"<PREVIOUS_THINK>\nCaroline is planning a move abroad.\n</PREVIOUS_THINK>",
		"<information>\n<EVENT id=e1>", "</EVENT>\n</information>",
	} {
		if !strings.Contains(prompt, want) {
			t.Errorf("prompt lacks %q", want)
		}
	}
	golden(t, "prompt_summarize_mem1.golden", prompt)
}

func TestNormalizeThink(t *testing.T) {
	cases := map[string]string{
		"<think>a</think>":                     "<think>a</think>",
		"pre <think>\n a \n</think> post":      "<think>a</think>",
		"<think>a</think><think>b</think>":     "<think>a</think>",
		"plain memory":                         "<think>plain memory</think>",
		"<think>cut off by the token limit":    "<think>cut off by the token limit</think>",
		"  stray </think> tag <think> ":        "<think>stray  tag</think>",
		"<think>multi\nline\nmemory</think>\n": "<think>multi\nline\nmemory</think>",
	}
	for in, want := range cases {
		if got := normalizeThink(in); got != want {
			t.Errorf("normalizeThink(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSummarizeWithoutEventsMakesNoCall(t *testing.T) {
	f := newFakeServer(t)
	l, _ := newTestEngine(t, f, nil)
	for _, style := range []extract.SummaryStyle{extract.StyleSections, extract.StyleStructured, extract.StyleMem1} {
		got, err := l.Summarize(t.Context(), extract.SummaryRequest{Style: style, PreviousSummary: "kept"})
		if err != nil || !strings.Contains(got.Text, "kept") {
			t.Errorf("%s: %+v, %v", style, got, err)
		}
	}
	if l.Calls() != 0 || len(f.Requests()) != 0 {
		t.Errorf("calls = %d, requests = %d, want none", l.Calls(), len(f.Requests()))
	}
	if _, err := l.Summarize(t.Context(), extract.SummaryRequest{Style: "haiku", Events: testEvents()}); !errors.Is(err, extract.ErrInvalidOutput) {
		t.Errorf("unknown style: %v", err)
	}
}

func TestSelectEvents(t *testing.T) {
	f := newFakeServer(t)
	f.script("chat", fakeStep{file: "chat_attention.json"})
	l, _ := newTestEngine(t, f, nil)
	// The model answers ["e3","e1","e3","e42",4,"e2"]: e42 and 4 are not
	// events, e3 repeats, and MaxKeep cuts the rest.
	got, err := l.SelectEvents(t.Context(), extract.AttentionRequest{Events: testEvents(), MaxKeep: 2})
	if err != nil {
		t.Fatalf("SelectEvents: %v", err)
	}
	if diff := cmp.Diff([]string{"e3", "e1"}, got); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	got, err = l.SelectEvents(t.Context(), extract.AttentionRequest{Events: testEvents()})
	if err != nil {
		t.Fatalf("SelectEvents: %v", err)
	}
	if diff := cmp.Diff([]string{"e3", "e1", "e2"}, got); diff != "" {
		t.Errorf("uncapped ids (-want +got):\n%s", diff)
	}

	r := f.Requests()[0]
	rf, _ := r.JSON(t)["response_format"].(map[string]any)
	schema, _ := rf["json_schema"].(map[string]any)
	if rf["type"] != "json_schema" || schema["name"] != "event_selection" || schema["strict"] != true {
		t.Errorf("response_format = %v", rf)
	}
	golden(t, "prompt_attention.golden", r.Messages(t))

	if ids, err := parseIDs(`{"ids": [1, "x"]}`); err != nil || !cmp.Equal(ids, []string{"1", "x"}) {
		t.Errorf("numeric ids: %v, %v", ids, err)
	}
	for _, bad := range []string{`{"keep": []}`, `{"ids": "e1"}`, `{"ids": [true]}`, `no json`} {
		if _, err := parseIDs(bad); err == nil {
			t.Errorf("parseIDs(%s) accepted", bad)
		}
	}
}

func date(y int, m time.Month, d int) *time.Time {
	t := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	return &t
}

func testInput() extract.Input {
	return extract.Input{
		UserID:    "u-42",
		UserName:  "Caroline",
		SessionID: "s-2023-05-08",
		Summary:   "USER_CONTEXT: Caroline moved to Lisbon; she no longer eats sushi",
		Events:    testEvents(),
	}
}

func TestExtract(t *testing.T) {
	f := newFakeServer(t)
	f.script("chat", fakeStep{file: "chat_extract.json"})
	l, logs := newTestEngine(t, f, nil)
	got, err := l.Extract(t.Context(), testInput())
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	want := extract.Result{
		Entities: []extract.Entity{
			{Key: "user", Name: "Caroline", Type: ontology.Person, IsUser: true},
			{Key: "e2", Name: "Lisbon", Type: ontology.Place, Aliases: []string{"Lisboa"}},
			{Key: "e3", Name: "Alfama", Type: ontology.Place},
			{Key: "e4", Name: "sushi", Type: ontology.Food},
			{Key: "e5", Name: "cooking bacalhau", Type: ontology.Activity},
			{Key: "e6", Name: "Ana", Type: ontology.Person, Aliases: []string{"sister"}},
		},
		Facts: []extract.Fact{
			{Subject: "user", Predicate: "LIVES_IN", Object: "e2", Sentence: "Caroline lives in Lisbon.",
				Polarity: ontology.Positive, Confidence: 0.95, ValidFrom: date(2023, 4, 1), SourceEventIDs: []string{"e1"}},
			{Subject: "e3", Predicate: "LOCATED_IN", Object: "e2", Sentence: "Alfama is a district of Lisbon.",
				Polarity: ontology.Positive, Confidence: 0.9, SourceEventIDs: []string{"e1"}},
			{Subject: "user", Predicate: "LIKES", Object: "e4", Sentence: "Caroline no longer eats sushi.",
				Polarity: ontology.Negative, Confidence: 0.9, Strength: 0.7, ValidFrom: date(2023, 5, 8), SourceEventIDs: []string{"e3"}},
			{Subject: "user", Predicate: "LEARNING", Object: "e5", Sentence: "Caroline is learning to cook bacalhau.",
				Polarity: ontology.Positive, Confidence: 0.85, ValidFrom: date(2023, 5, 8), SourceEventIDs: []string{"e3"}},
			{Subject: "e6", Predicate: "SIBLING_OF", Object: "user", Qualifier: "sister", Sentence: "Ana is Caroline's sister.",
				Polarity: ontology.Positive, Confidence: 0.95, SourceEventIDs: []string{"e3"}},
		},
		Mentions:     map[string][]string{"e1": {"e2", "e3"}, "e3": {"e4", "e6"}, "e4": {"e2"}},
		Model:        "gpt-4o-mini-2024-07-18",
		PromptTokens: 1893, CompletionTokens: 412,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Result (-want +got):\n%s", diff)
	}
	if strings.Contains(logs.String(), "WARN") {
		t.Errorf("unexpected warning: %s", logs)
	}

	r := f.Requests()[0]
	body := r.JSON(t)
	if body["model"] != "gpt-4o-mini" || r.Path != "/v1/chat/completions" {
		t.Errorf("model %v path %s", body["model"], r.Path)
	}
	rf := body["response_format"].(map[string]any)
	js := rf["json_schema"].(map[string]any)
	if rf["type"] != "json_schema" || js["name"] != "graphmem_extraction" || js["strict"] != true {
		t.Fatalf("response_format = %v", rf)
	}
	schema := js["schema"].(map[string]any)
	if schema["type"] != "object" || schema["additionalProperties"] != false {
		t.Errorf("schema root = %v", schema)
	}
	fact := schema["$defs"].(map[string]any)["fact"].(map[string]any)
	if req := fact["required"].([]any); len(req) != len(fact["properties"].(map[string]any)) {
		t.Errorf("strict mode needs every fact property required, got %v", req)
	}
	entity := schema["$defs"].(map[string]any)["entity"].(map[string]any)
	typeEnum := entity["properties"].(map[string]any)["type"].(map[string]any)["enum"].([]any)
	if len(typeEnum) != len(ontology.EntityTypes()) || typeEnum[0] != "Person" {
		t.Errorf("entity type enum = %v", typeEnum)
	}

	prompt := r.Messages(t)
	for _, want := range []string{
		"<EVENT id=e3>\nMon 2023-05-08 13:58 UTC | user Caroline: Great. I don't eat sushi anymore",
		"<SUMMARY>\nUSER_CONTEXT: Caroline moved to Lisbon",
		"- LIVES_IN: <subject> lives in <object> [one]",
		"- HAS_MEASURE: <subject> has the measure <object> [one] [qualified]",
		"- LIKES: <subject> likes <object> [many] [preference]",
		"corrects naming the wrong value",
		"Person, Place, Organization",
		`polarity "negative"`,
	} {
		if !strings.Contains(prompt, want) {
			t.Errorf("prompt lacks %q", want)
		}
	}
	if strings.Contains(prompt, `"$defs"`) {
		t.Errorf("json_schema mode must not repeat the schema in the prompt")
	}
	golden(t, "prompt_extract.golden", prompt)
}

func TestExtractJSONObjectFallback(t *testing.T) {
	f := newFakeServer(t)
	f.script("chat", fakeStep{file: "chat_extract_local_model.json"})
	l, _ := newTestEngine(t, f, func(c *Config) {
		c.BaseURL = strings.TrimSuffix(c.BaseURL, "/v1") + "/ollama/v1"
		c.Model = "llama3.1:8b"
		c.UseJSONSchema = false
	})
	in := testInput()
	in.UserName = ""
	got, err := l.Extract(t.Context(), in)
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	// The answer is fenced, uses null, "person"/"city" and "moved to", and
	// leaves out every optional field.
	want := extract.Result{
		Entities: []extract.Entity{
			{Key: "user", Name: "user", Type: ontology.Person, IsUser: true},
			{Key: "e2", Name: "Lisbon", Type: ontology.Place},
		},
		Facts: []extract.Fact{{
			Subject: "user", Predicate: "LIVES_IN", Object: "e2", Sentence: "The user lives in Lisbon",
			Polarity: ontology.Positive, Confidence: defaultConfidence, SourceEventIDs: []string{"e1"},
		}},
		Mentions:     map[string][]string{"e1": {"e2"}, "e4": {"e2"}},
		Model:        "llama3.1:8b",
		PromptTokens: 1720, CompletionTokens: 96,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Result (-want +got):\n%s", diff)
	}
	r := f.Requests()[0]
	if r.Path != "/ollama/v1/chat/completions" {
		t.Errorf("path = %s, want the configured base URL's", r.Path)
	}
	rf := r.JSON(t)["response_format"].(map[string]any)
	if rf["type"] != "json_object" || rf["json_schema"] != nil {
		t.Errorf("response_format = %v, want json_object", rf)
	}
	prompt := r.Messages(t)
	if !strings.Contains(prompt, "The JSON object must match this JSON schema:\n{") || !strings.Contains(prompt, `"source_event_ids"`) {
		t.Errorf("json_object mode must carry the schema in the prompt")
	}
	golden(t, "prompt_extract_json_object.golden", prompt)
}

func TestExtractInvalidOutput(t *testing.T) {
	cases := []struct {
		file, want string
	}{
		{"chat_extract_not_json.json", "no JSON object"},
		{"chat_extract_wrong_shape.json", "$.facts[0].confidence: want number, got string"},
		{"chat_extract_truncated.json", "cut off by the token limit"},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			f := newFakeServer(t)
			f.script("chat", fakeStep{file: tc.file})
			l, _ := newTestEngine(t, f, nil)
			_, err := l.Extract(t.Context(), testInput())
			if !errors.Is(err, extract.ErrInvalidOutput) || errors.Is(err, extract.ErrUnavailable) {
				t.Fatalf("err = %v, want ErrInvalidOutput", err)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "extract: ") {
				t.Errorf("err = %q, want it to say %q", err, tc.want)
			}
			if n := len(f.Requests()); n != 1 {
				t.Errorf("invalid output must not be retried, requests = %d", n)
			}
		})
	}
	var out extraction
	schemas, _ := newSchemas()
	for in, want := range map[string]string{
		`{"facts": []}`:                 "$.entities: required field missing",
		`{"entities": {}, "facts": []}`: "$.entities: want array, got object",
		`{"entities": [{"name": 3, "type": "Person"}], "facts": []}`: "$.entities[0].name: want string, got number",
		`[1,2]`: "no JSON object",
	} {
		if err := decode(in, schemas.extract, &out); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("decode(%s) = %v, want %q", in, err, want)
		}
	}
}

func TestExtractValidatesItems(t *testing.T) {
	f := newFakeServer(t)
	f.script("chat", fakeStep{file: "chat_extract_invalid_items.json"})
	l, logs := newTestEngine(t, f, nil)
	got, err := l.Extract(t.Context(), testInput())
	if err != nil {
		t.Fatalf("Extract: %v (bad items must be dropped, not fail the window)", err)
	}
	want := []extract.Entity{
		{Key: "user", Name: "Caroline", Type: ontology.Person, IsUser: true},
		{Key: "e2", Name: "Berlin", Type: ontology.Concept}, // "metropolis" is no type
		{Key: "e3", Name: "Lisbon", Type: ontology.Place},   // "city" is
		{Key: "e4", Name: "sushi", Type: ontology.Food},
	}
	if diff := cmp.Diff(want, got.Entities); diff != "" {
		t.Errorf("entities (-want +got):\n%s", diff)
	}
	wantFacts := []extract.Fact{
		// "lives-in; DROP" never becomes a relationship type.
		{Subject: "user", Predicate: ontology.Fallback, RawPredicate: "lives in drop", Object: "e2",
			Sentence: "Caroline lives in drop Berlin", Polarity: ontology.Positive, Confidence: 0.6, SourceEventIDs: []string{"e1"}},
		// Confidence 1.7 clamped, "next spring" dropped, e99 dropped, e1 once.
		{Subject: "user", Predicate: "LIVES_IN", Object: "e3", Sentence: "Caroline lives in Lisbon.",
			Polarity: ontology.Positive, Confidence: 1, SourceEventIDs: []string{"e1"}},
		// "I" is the user; scores clamped; valid_to before valid_from
		// dropped; the only source id is unknown, so the events naming sushi.
		{Subject: "user", Predicate: "LIKES", Object: "e4", Sentence: "Not true: Caroline likes sushi",
			Polarity: ontology.Negative, ValidFrom: date(2023, 5, 8), SourceEventIDs: []string{"e3"}},
	}
	if diff := cmp.Diff(wantFacts, got.Facts); diff != "" {
		t.Errorf("facts (-want +got):\n%s", diff)
	}
	for _, p := range got.Facts {
		if !ontology.ValidRelType(p.Predicate) {
			t.Errorf("invalid relationship type %q", p.Predicate)
		}
	}
	log := logs.String()
	for _, want := range []string{
		`object \"Bob\" is not a declared entity`, `subject \"Mallory\" is not a declared entity`,
		`unknown type \"metropolis\"`, `unknown source event id \"e99\"`, `confidence 1.7 clamped`,
		`valid_from \"next spring\" is not a date`, `predicate \"!!!\" has no words`, "same entity",
		"empty name",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("warning lacks %q:\n%s", want, log)
		}
	}
	if strings.Count(log, `"level":"WARN"`) != 1 {
		t.Errorf("want exactly one warning per call:\n%s", log)
	}
}

func TestMentionsName(t *testing.T) {
	cases := []struct {
		text, name string
		want       bool
	}{
		{"I moved to Lisbon.", "lisbon", true},
		{"Lisbon’s trams", "Lisbon", true},
		{"weather(Lisbon): sunny", "Lisbon", true},
		{"Lisboner", "Lisbon", false},
		{"Ana and Anastasia", "Anastasia", true},
		{"Anastasia", "Ana", false},
		{"São Paulo is big", "são paulo", true},
		{"x", "", false},
	}
	for _, tc := range cases {
		if got := mentionsName(tc.text, tc.name); got != tc.want {
			t.Errorf("mentionsName(%q, %q) = %v", tc.text, tc.name, got)
		}
	}
}

func TestFallbackSources(t *testing.T) {
	events := testEvents()
	set := &entitySet{in: extract.Input{UserName: "Caroline"}, byName: map[string]string{}, guessed: map[string]bool{}}
	user := set.user("")
	set.entities = append(set.entities,
		extract.Entity{Key: "e2", Name: "bacalhau", Type: ontology.Food},
		extract.Entity{Key: "e3", Name: "Porto", Type: ontology.Place})
	cases := []struct {
		fact extract.Fact
		want []string
	}{
		{extract.Fact{Subject: user, Object: "e2"}, []string{"e3"}},       // named in e3
		{extract.Fact{Subject: user, Object: "e3"}, []string{"e1", "e3"}}, // named nowhere: the user's events
	}
	for _, tc := range cases {
		if got := fallbackSources(events, set, tc.fact); !cmp.Equal(got, tc.want) {
			t.Errorf("sources for %s = %v, want %v", tc.fact.Object, got, tc.want)
		}
	}
	noUser := []extract.Event{{ID: "a", Role: "assistant"}, {ID: "b", Role: "tool"}}
	if got := fallbackSources(noUser, set, extract.Fact{Subject: user, Object: "e3"}); !cmp.Equal(got, []string{"a", "b"}) {
		t.Errorf("no user events: %v", got)
	}
}

func TestExtractEmptyWindowMakesNoCall(t *testing.T) {
	f := newFakeServer(t)
	l, _ := newTestEngine(t, f, nil)
	got, err := l.Extract(t.Context(), extract.Input{UserID: "u"})
	if err != nil || len(got.Facts) != 0 || got.Model != "gpt-4o-mini" || l.Calls() != 0 {
		t.Errorf("Extract(empty) = %+v, %v, calls %d", got, err, l.Calls())
	}
}

func TestInsights(t *testing.T) {
	f := newFakeServer(t)
	f.script("chat", fakeStep{file: "chat_insights.json"})
	l, logs := newTestEngine(t, f, nil)
	in := extract.InsightInput{
		UserID: "u-42",
		Events: testEvents(),
		Facts: []extract.InsightFact{
			{ID: "f1", Subject: "Ana", Predicate: "SIBLING_OF", Object: "Caroline", Sentence: "Ana is Caroline's sister.",
				SourceEventIDs: []string{"e0-old", "e3"}},
			{ID: "f2", Subject: "Caroline", Predicate: "LIKES", Object: "sushi", Sentence: "Caroline no longer eats sushi.",
				SourceEventIDs: []string{"e3"}, ValidFrom: date(2023, 5, 8)},
		},
	}
	got, err := l.Insights(t.Context(), in)
	if err != nil {
		t.Fatalf("Insights: %v", err)
	}
	want := []extract.Insight{
		{Text: "Caroline is rebuilding her food habits around Portuguese cooking since moving to Lisbon.", Confidence: 0.7,
			SourceEventIDs: []string{"e1", "e3"}, EntityNames: []string{"Caroline", "Lisbon", "bacalhau"}, FactIDs: []string{"f2"}},
		// e77 and f9 are unknown, Atlantis occurs nowhere, 1.4 is clamped;
		// the evidence left is f1 and its source events.
		{Text: "Caroline stays close to her family.", Confidence: 1,
			SourceEventIDs: []string{"e0-old", "e3"}, EntityNames: []string{"Ana"}, FactIDs: []string{"f1"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("insights (-want +got):\n%s", diff)
	}
	for _, w := range []string{"no evidence", `unknown fact id \"f9\"`, `entity \"Atlantis\"`, "empty text"} {
		if !strings.Contains(logs.String(), w) {
			t.Errorf("warning lacks %q", w)
		}
	}
	r := f.Requests()[0]
	rf := r.JSON(t)["response_format"].(map[string]any)
	if rf["json_schema"].(map[string]any)["name"] != "graphmem_insights" {
		t.Errorf("response_format = %v", rf)
	}
	golden(t, "prompt_insights.golden", r.Messages(t))
	if got, err := l.Insights(t.Context(), extract.InsightInput{UserID: "u"}); got != nil || err != nil || l.Calls() != 1 {
		t.Errorf("empty batch: %v, %v, calls %d", got, err, l.Calls())
	}
}

func TestEmbed(t *testing.T) {
	f := newFakeServer(t)
	f.script("embeddings", fakeStep{file: "embeddings_2.json"}, fakeStep{file: "embeddings_1.json"})
	l, _ := newTestEngine(t, f, func(c *Config) {
		c.EmbeddingBatchSize = 2
		c.RequestEmbeddingDimensions = true
	})
	got, err := l.Embed(t.Context(), []string{"Caroline lives in Lisbon", "Ana is her sister", "sushi"})
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	want := [][]float32{{0.0123, -0.0456, 0.0789, -0.0012}, {0.1, 0.2, 0.3, 0.4}, {-0.5, 0.25, 0.125, 0.0625}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("vectors (-want +got):\n%s", diff)
	}
	reqs := f.Requests()
	if len(reqs) != 2 {
		t.Fatalf("requests = %d, want one per batch", len(reqs))
	}
	body := reqs[0].JSON(t)
	if reqs[0].Path != "/v1/embeddings" || body["model"] != "text-embedding-3-small" || body["dimensions"] != float64(4) ||
		!cmp.Equal(body["input"], []any{"Caroline lives in Lisbon", "Ana is her sister"}) {
		t.Errorf("embeddings request %s %v", reqs[0].Path, body)
	}
	if s := l.Stats(); s.EmbedCalls != 2 || s.Calls != 0 || s.PromptTokens != 17 {
		t.Errorf("stats = %+v", s)
	}

	f.script("embeddings", fakeStep{file: "embeddings_wrong_dims.json"})
	if _, err := l.Embed(t.Context(), []string{"a", "b"}); !errors.Is(err, extract.ErrInvalidOutput) || !strings.Contains(err.Error(), "3 dimensions, want 4") {
		t.Errorf("wrong dimensions: %v", err)
	}
	if _, err := l.Embed(t.Context(), []string{"a", " "}); !errors.Is(err, extract.ErrInvalidOutput) {
		t.Errorf("empty text: %v", err)
	}
	if _, err := l.Embed(t.Context(), []string{"a"}); !errors.Is(err, extract.ErrInvalidOutput) || !strings.Contains(err.Error(), "2 vectors for 1 texts") {
		t.Errorf("vector count: %v", err)
	}
	noModel, _ := newTestEngine(t, f, func(c *Config) { c.EmbeddingModel = "" })
	if _, err := noModel.Embed(t.Context(), []string{"a"}); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("no embedding model: %v", err)
	}
}

func TestRetriesRateLimitThenSucceeds(t *testing.T) {
	f := newFakeServer(t)
	f.script("chat",
		fakeStep{status: http.StatusTooManyRequests, file: "error_429.json", header: map[string]string{"Retry-After-Ms": "60"}},
		fakeStep{file: "chat_summary_sections.json"})
	l, _ := newTestEngine(t, f, func(c *Config) { c.RetryMaxDelay = time.Second })
	start := time.Now()
	if _, err := l.Summarize(t.Context(), extract.SummaryRequest{Events: testEvents()}); err != nil {
		t.Fatalf("Summarize: %v", err)
	}
	if elapsed := time.Since(start); elapsed < 60*time.Millisecond {
		t.Errorf("retried after %s; Retry-After-Ms asked for 60ms", elapsed)
	}
	// One logical call, two HTTP requests: the per-window budget counts
	// logical calls, so a retry does not use up the extraction's call.
	s := l.Stats()
	if s.Calls != 1 || s.Requests != 2 || len(f.Requests()) != 2 {
		t.Errorf("stats = %+v, server saw %d requests", s, len(f.Requests()))
	}
	if s.PromptTokens != 611 || s.CompletionTokens != 74 {
		t.Errorf("usage = %+v", s)
	}
}

func TestRetryAfterBeyondLimitGivesUp(t *testing.T) {
	f := newFakeServer(t)
	f.script("chat", fakeStep{status: http.StatusTooManyRequests, file: "error_429.json", header: map[string]string{"Retry-After": "120"}})
	l, _ := newTestEngine(t, f, nil)
	_, err := l.Extract(t.Context(), testInput())
	if !errors.Is(err, extract.ErrUnavailable) || !strings.Contains(err.Error(), "retry after 2m0s") {
		t.Fatalf("err = %v", err)
	}
	if n := len(f.Requests()); n != 1 {
		t.Errorf("requests = %d, want 1: a worker must not sleep two minutes", n)
	}
}

func TestServerErrorsExhaustRetries(t *testing.T) {
	f := newFakeServer(t)
	f.script("chat", fakeStep{status: http.StatusInternalServerError, file: "error_500.json"})
	l, _ := newTestEngine(t, f, nil)
	_, err := l.Extract(t.Context(), testInput())
	if !errors.Is(err, extract.ErrUnavailable) || errors.Is(err, extract.ErrInvalidOutput) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
	if !strings.Contains(err.Error(), "after 3 attempts") || !strings.Contains(err.Error(), "status code: 500") {
		t.Errorf("err = %q", err)
	}
	if s := l.Stats(); s.Calls != 1 || s.Requests != 3 {
		t.Errorf("stats = %+v, want 1 call in 3 requests (MaxRetries 2)", s)
	}
}

func TestServerErrorWithoutJSONBodyIsRetried(t *testing.T) {
	f := newFakeServer(t)
	f.script("chat",
		fakeStep{status: http.StatusBadGateway, body: "<html>502 Bad Gateway</html>"},
		fakeStep{file: "chat_attention.json"})
	l, _ := newTestEngine(t, f, nil)
	if _, err := l.SelectEvents(t.Context(), extract.AttentionRequest{Events: testEvents()}); err != nil {
		t.Fatalf("SelectEvents: %v", err)
	}
	if n := len(f.Requests()); n != 2 {
		t.Errorf("requests = %d", n)
	}
}

func TestHangingServerTimesOut(t *testing.T) {
	f := newFakeServer(t)
	f.script("chat", fakeStep{hang: true})
	l, _ := newTestEngine(t, f, func(c *Config) {
		c.Timeout = 50 * time.Millisecond
		c.MaxRetries = 1
	})
	start := time.Now()
	_, err := l.Summarize(t.Context(), extract.SummaryRequest{Events: testEvents()})
	if !errors.Is(err, extract.ErrUnavailable) || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("err = %v, want ErrUnavailable after a timeout", err)
	}
	if elapsed := time.Since(start); elapsed > 3*time.Second {
		t.Errorf("took %s", elapsed)
	}
	if n := len(f.Requests()); n != 2 {
		t.Errorf("requests = %d, want 2 (each attempt gets its own timeout)", n)
	}
}

func TestBadRequestIsInvalidOutput(t *testing.T) {
	f := newFakeServer(t)
	f.script("chat", fakeStep{status: http.StatusBadRequest, file: "error_400.json"})
	l, _ := newTestEngine(t, f, nil)
	_, err := l.Extract(t.Context(), testInput())
	if !errors.Is(err, extract.ErrInvalidOutput) || errors.Is(err, extract.ErrUnavailable) {
		t.Fatalf("err = %v, want ErrInvalidOutput", err)
	}
	if !strings.Contains(err.Error(), "status code: 400") || !strings.Contains(err.Error(), "additionalProperties") {
		t.Errorf("err = %q, want the server's reason", err)
	}
	if n := len(f.Requests()); n != 1 {
		t.Errorf("a 400 must not be retried, requests = %d", n)
	}
}

func TestConnectionRefusedIsUnavailable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	l, err := New(Config{BaseURL: "http://" + addr + "/v1", Model: "m", EmbeddingModel: "e",
		MaxRetries: 1, RetryBaseDelay: time.Millisecond, Timeout: time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Insights(t.Context(), extract.InsightInput{Events: testEvents()}); !errors.Is(err, extract.ErrUnavailable) {
		t.Errorf("Insights: %v, want ErrUnavailable", err)
	}
	if _, err := l.Embed(t.Context(), []string{"a"}); !errors.Is(err, extract.ErrUnavailable) {
		t.Errorf("Embed: %v, want ErrUnavailable", err)
	}
	if s := l.Stats(); s.Requests != 4 || s.Calls != 1 || s.EmbedCalls != 1 {
		t.Errorf("stats = %+v", s)
	}
}

func TestCancelDuringBackoff(t *testing.T) {
	f := newFakeServer(t)
	f.script("chat", fakeStep{status: http.StatusServiceUnavailable, file: "error_500.json"})
	l, _ := newTestEngine(t, f, func(c *Config) {
		c.RetryBaseDelay = 10 * time.Second
		c.RetryMaxDelay = 10 * time.Second
	})
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err := l.Summarize(ctx, extract.SummaryRequest{Events: testEvents()})
	if !errors.Is(err, extract.ErrUnavailable) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want ErrUnavailable and context.Canceled", err)
	}
	if elapsed := time.Since(start); elapsed > 2*time.Second {
		t.Errorf("cancel took %s to take effect", elapsed)
	}

	// A deadline too close for the next backoff ends the call at once.
	ctx, cancel2 := context.WithTimeout(t.Context(), time.Second)
	defer cancel2()
	if _, err := l.Summarize(ctx, extract.SummaryRequest{Events: testEvents()}); !errors.Is(err, extract.ErrUnavailable) ||
		!strings.Contains(err.Error(), "deadline too close") {
		t.Errorf("err = %v", err)
	}
}

func TestAzure(t *testing.T) {
	f := newFakeServer(t)
	f.script("chat", fakeStep{file: "chat_summary_sections.json"})
	l, _ := newTestEngine(t, f, func(c *Config) {
		c.APIType = "azure"
		c.BaseURL = strings.TrimSuffix(c.BaseURL, "/v1")
		c.Model = "gpt-4o"
	})
	if _, err := l.Summarize(t.Context(), extract.SummaryRequest{Events: testEvents()}); err != nil {
		t.Fatalf("Summarize: %v", err)
	}
	r := f.Requests()[0]
	if r.Path != "/openai/deployments/gpt-4o/chat/completions" || r.RawQuery != "api-version="+defaultAzureAPIVersion {
		t.Errorf("azure request %s?%s", r.Path, r.RawQuery)
	}
	if r.Header.Get("api-key") != "sk-test-123" || r.Header.Get("Authorization") != "" {
		t.Errorf("azure auth headers: %v", r.Header)
	}
}

func TestTemperature(t *testing.T) {
	zero, warm := float32(0), float32(0.4)
	for _, tc := range []struct {
		temp *float32
		want float64 // -1: not sent
	}{{nil, -1}, {&zero, 1e-6}, {&warm, 0.4}} {
		f := newFakeServer(t)
		f.script("chat", fakeStep{file: "chat_summary_sections.json"})
		l, _ := newTestEngine(t, f, func(c *Config) { c.Temperature = tc.temp; c.MaxTokens = 900 })
		if _, err := l.Summarize(t.Context(), extract.SummaryRequest{Events: testEvents()}); err != nil {
			t.Fatal(err)
		}
		body := f.Requests()[0].JSON(t)
		got, sent := body["temperature"].(float64)
		if sent != (tc.want >= 0) || (sent && math.Abs(got-tc.want) > 1e-9) || body["max_tokens"] != float64(900) {
			t.Errorf("temperature %v: body temperature %v max_tokens %v", tc.temp, body["temperature"], body["max_tokens"])
		}
	}
}

// TestWindowStaysWithinTwoCalls runs what the condenser and extractor do
// for one window, summary then extraction, and checks the brief's budget.
func TestWindowStaysWithinTwoCalls(t *testing.T) {
	f := newFakeServer(t)
	f.script("chat", fakeStep{file: "chat_summary_sections.json"}, fakeStep{file: "chat_extract.json"})
	l, _ := newTestEngine(t, f, nil)
	sum, err := l.Summarize(t.Context(), extract.SummaryRequest{Events: testEvents()})
	if err != nil {
		t.Fatal(err)
	}
	in := testInput()
	in.Summary = sum.Text
	if _, err := l.Extract(t.Context(), in); err != nil {
		t.Fatal(err)
	}
	if l.Calls() > 2 {
		t.Errorf("one window took %d LLM calls, the budget is 2", l.Calls())
	}
	if s := l.Stats(); s.Calls != 2 || s.PromptTokens != 611+1893 || s.CompletionTokens != 74+412 {
		t.Errorf("stats = %+v", s)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2024, 6, 10, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		header map[string]string
		want   time.Duration
	}{
		{nil, 0},
		{map[string]string{"Retry-After": "2"}, 2 * time.Second},
		{map[string]string{"Retry-After": "0.5"}, 500 * time.Millisecond},
		{map[string]string{"Retry-After": "Mon, 10 Jun 2024 12:00:30 GMT"}, 30 * time.Second},
		{map[string]string{"Retry-After": "Mon, 10 Jun 2024 11:00:00 GMT"}, 0},
		{map[string]string{"Retry-After": "soon"}, 0},
		{map[string]string{"Retry-After": "-3"}, 0},
		{map[string]string{"Retry-After-Ms": "120", "Retry-After": "9"}, 120 * time.Millisecond},
	}
	for _, tc := range cases {
		h := http.Header{}
		for k, v := range tc.header {
			h.Set(k, v)
		}
		if got := parseRetryAfter(h, now); got != tc.want {
			t.Errorf("parseRetryAfter(%v) = %s, want %s", tc.header, got, tc.want)
		}
	}
}

func TestTransientClassification(t *testing.T) {
	l, err := New(Config{Model: "m", RetryBaseDelay: 100 * time.Millisecond, RetryMaxDelay: time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for n, want := range map[int]time.Duration{1: 100 * time.Millisecond, 2: 200 * time.Millisecond, 5: time.Second, 30: time.Second} {
		for range 20 {
			if d := l.backoff(n); d < want/2 || d > want {
				t.Errorf("backoff(%d) = %s, want within [%s, %s]", n, d, want/2, want)
			}
		}
	}
	if transient(errors.New("json: cannot unmarshal")) {
		t.Errorf("a decode error is not transient")
	}
	if !transient(context.DeadlineExceeded) {
		t.Errorf("a timeout is transient")
	}
}

// TestJSONSchemaRefusedFallsBackToJSONObject: llama-cpp-python's server
// refuses response_format json_schema with a validation error (a 500 from
// its error handler; a bare FastAPI answers 422). The engine resends the
// call as json_object with the schema in the prompt, without retrying the
// refusal, gets the same result as a server that accepts json_schema, and
// asks later calls in json_object at once.
func TestJSONSchemaRefusedFallsBackToJSONObject(t *testing.T) {
	ref := newFakeServer(t)
	ref.script("chat", fakeStep{file: "chat_extract.json"})
	refEngine, _ := newTestEngine(t, ref, nil)
	want, err := refEngine.Extract(t.Context(), testInput())
	if err != nil {
		t.Fatalf("reference Extract: %v", err)
	}
	for _, refusal := range []fakeStep{
		{status: http.StatusInternalServerError, file: "error_500_llama_cpp.json"},
		{status: http.StatusUnprocessableEntity, file: "error_422_llama_cpp.json"},
	} {
		t.Run(refusal.file, func(t *testing.T) {
			f := newFakeServer(t)
			f.script("chat", refusal, fakeStep{file: "chat_extract.json"}, fakeStep{file: "chat_extract.json"})
			l, logs := newTestEngine(t, f, nil)
			got, err := l.Extract(t.Context(), testInput())
			if err != nil {
				t.Fatalf("Extract after a refused json_schema: %v", err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Result (-json_schema server +fallback):\n%s", diff)
			}
			if _, err := l.Extract(t.Context(), testInput()); err != nil {
				t.Fatalf("second Extract: %v", err)
			}
			reqs := f.Requests()
			if len(reqs) != 3 {
				t.Fatalf("requests = %d, want 3 (refused once, resent, later call)", len(reqs))
			}
			formats := make([]any, len(reqs))
			for i, r := range reqs {
				formats[i] = r.JSON(t)["response_format"].(map[string]any)["type"]
			}
			if formats[0] != "json_schema" || formats[1] != "json_object" || formats[2] != "json_object" {
				t.Errorf("response_format types = %v, want json_schema then json_object twice", formats)
			}
			for i, r := range reqs[1:] {
				if p := r.Messages(t); !strings.Contains(p, "The JSON object must match this JSON schema:\n{") || !strings.Contains(p, `"source_event_ids"`) {
					t.Errorf("request %d: json_object mode must carry the schema in the prompt", i+2)
				}
			}
			if st := l.Stats(); st.Calls != 2 {
				t.Errorf("calls = %d, want 2: the resend is part of the refused call", st.Calls)
			}
			if !strings.Contains(logs.String(), "refused response_format json_schema") {
				t.Errorf("the switch to json_object must be logged; logs:\n%s", logs.String())
			}
		})
	}
}

// TestServerErrorNamingJSONSchemaOnlyFallsBackForJSONSchema: a 500 whose
// text mentions json_object is a refusal only for a json_schema request; in
// json_object mode it stays a transient failure, retried and then
// unavailable.
func TestServerErrorNamingJSONSchemaOnlyFallsBackForJSONSchema(t *testing.T) {
	f := newFakeServer(t)
	refusal := fakeStep{status: http.StatusInternalServerError, file: "error_500_llama_cpp.json"}
	f.script("chat", refusal, refusal)
	l, _ := newTestEngine(t, f, func(c *Config) { c.UseJSONSchema = false; c.MaxRetries = 1 })
	_, err := l.Extract(t.Context(), testInput())
	if !errors.Is(err, extract.ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
	if n := len(f.Requests()); n != 2 {
		t.Errorf("requests = %d, want 2 (a 500 is retried)", n)
	}
}
