package condenser

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
)

// Summarizer writes summaries for the summarizing condensers. The package
// declares it so it never depends on an LLM client: the orchestration
// adapts its LLM (rendering SummaryRequest.Prompt, or its own template).
type Summarizer interface {
	Summarize(ctx context.Context, req SummaryRequest) (SummaryResponse, error)
}

// Capabilities is what an LLM-backed dependency can do. A Summarizer or
// Attender may implement CapabilityReporter; New then refuses a structured
// condenser without function calling and an attention condenser without
// response schemas. A dependency that does not report is trusted.
type Capabilities struct {
	FunctionCalling bool `json:"function_calling"`
	ResponseSchema  bool `json:"response_schema"`
}

// CapabilityReporter is implemented by dependencies that know their
// model's capabilities.
type CapabilityReporter interface {
	Capabilities() Capabilities
}

// SummaryStyle selects the kind of summary asked for.
type SummaryStyle string

// Summary styles.
const (
	// StyleSections is OpenHands' free-text state summary with sections
	// USER_CONTEXT, TASK_TRACKING, COMPLETED, PENDING, CURRENT_STATE (plus
	// code sections for code tasks).
	StyleSections SummaryStyle = "sections"
	// StyleStructured forces a create_state_summary function call whose
	// string fields (StructuredSummaryTool) are rendered as Markdown.
	StyleStructured SummaryStyle = "structured"
	// StyleMem1 rewrites one cumulative <think> memory block.
	StyleMem1 SummaryStyle = "mem1"
)

// SummaryEvent is one event as a summarizer sees it. Text is Event.Text,
// already truncated to the request's MaxEventLength.
type SummaryEvent struct {
	ID   string `json:"id"`
	Seq  int64  `json:"seq"`
	Kind Kind   `json:"kind"`
	Role Role   `json:"role,omitempty"`
	Name string `json:"name,omitempty"`
	Text string `json:"text"`
	// Retained marks events that stay in the view after the condensation
	// (Mem1 shows kept events as information too); all others are forgotten.
	Retained bool `json:"retained,omitempty"`
}

// SummaryRequest is one summarization. PreviousSummary is the summary
// being folded in (NoPreviousSummary when there is none, empty for Mem1's
// first memory); Events are the forgotten events in view order.
type SummaryRequest struct {
	Style           SummaryStyle   `json:"style"`
	PreviousSummary string         `json:"previous_summary"`
	Events          []SummaryEvent `json:"events"`
	// MaxEventLength is the per-event truncation already applied (< 0: none).
	MaxEventLength int `json:"max_event_length"`
	// HardReset marks the fallback that summarizes the whole view; Attempt
	// counts its retries from 1.
	HardReset bool `json:"hard_reset,omitempty"`
	Attempt   int  `json:"attempt,omitempty"`
}

// SummaryResponse is the summarizer's answer. Text carries free text (or,
// for StyleStructured, the raw function arguments as JSON when Fields is
// nil). Fields carries the parsed create_state_summary arguments.
type SummaryResponse struct {
	Text         string            `json:"text"`
	Fields       map[string]string `json:"fields,omitempty"`
	Model        string            `json:"model,omitempty"`
	ResponseID   string            `json:"response_id,omitempty"`
	InputTokens  int               `json:"input_tokens,omitempty"`
	OutputTokens int               `json:"output_tokens,omitempty"`
}

// TruncationMarker separates the kept head and tail of truncated text.
const TruncationMarker = "\n[... Observation truncated due to length ...]\n"

// TruncateContent keeps the first and last maxChars/2 characters of s
// around TruncationMarker. A negative maxChars means no truncation, as
// OpenHands' None or negative limit. Characters are runes, never bytes, so
// UTF-8 is never split.
func TruncateContent(s string, maxChars int) string {
	if maxChars < 0 {
		return s
	}
	r := []rune(s)
	if len(r) <= maxChars {
		return s
	}
	half := maxChars / 2
	return string(r[:half]) + TruncationMarker + string(r[len(r)-half:])
}

func summaryEvents(events []Event, idxs []int, maxLen int) []SummaryEvent {
	out := make([]SummaryEvent, 0, len(idxs))
	for _, i := range idxs {
		e := events[i]
		out = append(out, SummaryEvent{
			ID: e.ID, Seq: e.Seq, Kind: e.Kind, Role: e.Role, Name: e.Name,
			Text: TruncateContent(e.Text(), maxLen),
		})
	}
	return out
}

// structuredField is one argument of create_state_summary.
type structuredField struct {
	Name, Label, Section, Description string
}

// structuredFields lists create_state_summary's arguments in render order.
// The upstream StateSummary has these 18 string fields.
func structuredFields() []structuredField {
	return []structuredField{
		{"user_context", "User Context", "Core Information", "What the user asked for: requirements, goals and clarifications, in brief."},
		{"completed_tasks", "Completed Tasks", "Core Information", "Tasks finished so far, each with its outcome."},
		{"pending_tasks", "Pending Tasks", "Core Information", "Tasks still to do."},
		{"current_state", "Current State", "Core Information", "Variables, data structures or other state that matters now."},
		{"files_modified", "Files Modified", "Code Changes", "Files created or changed."},
		{"function_changes", "Function Changes", "Code Changes", "Functions created or changed."},
		{"data_structures", "Data Structures", "Code Changes", "Key data structures used or changed."},
		{"dependencies", "Dependencies", "Code Changes", "Dependencies or imports added or changed."},
		{"tests_written", "Tests Written", "Testing Status", "Whether tests were written: true, false or unknown."},
		{"tests_passing", "Tests Passing", "Testing Status", "Whether all tests pass: true, false or unknown."},
		{"failing_tests", "Failing Tests", "Testing Status", "Names or descriptions of failing tests."},
		{"error_messages", "Error Messages", "Testing Status", "Key error messages seen."},
		{"branch_created", "Branch Created", "Version Control", "Whether a branch was created: true, false or unknown."},
		{"branch_name", "Branch Name", "Version Control", "The working branch, if known."},
		{"commits_made", "Commits Made", "Version Control", "Whether commits were made: true, false or unknown."},
		{"pr_created", "PR Created", "Version Control", "Whether a pull request exists: true, false or unknown."},
		{"pr_status", "PR Status", "Version Control", "Pull request status: draft, open, merged, closed or unknown."},
		{"other_relevant_context", "Other Relevant Context", "Additional Context", "Anything important that fits no field above."},
	}
}

// ToolSpec describes a function an LLM is forced to call.
type ToolSpec struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Parameters  map[string]any `json:"parameters"`
}

// StructuredSummaryTool returns the create_state_summary function that a
// StyleStructured summarizer must force the LLM to call.
func StructuredSummaryTool() ToolSpec {
	props := map[string]any{}
	for _, f := range structuredFields() {
		props[f.Name] = map[string]any{"type": "string", "description": f.Description}
	}
	return ToolSpec{
		Name: "create_state_summary",
		Description: "Record the state of the interaction so that work can continue after older history is dropped. " +
			"user_context, completed_tasks and pending_tasks must not be empty.",
		Parameters: map[string]any{
			"type":       "object",
			"properties": props,
			"required":   []string{"user_context", "completed_tasks", "pending_tasks"},
		},
	}
}

// structuredSummary renders the response as Markdown. Unparseable output
// gives the empty summary (every heading, no values), as upstream does.
func structuredSummary(resp SummaryResponse) string {
	fields := resp.Fields
	if fields == nil && resp.Text != "" {
		if err := json.Unmarshal([]byte(resp.Text), &fields); err != nil {
			fields = nil
		}
	}
	var b strings.Builder
	b.WriteString("# State Summary")
	section := ""
	for _, f := range structuredFields() {
		if f.Section != section {
			section = f.Section
			b.WriteString("\n\n## " + section)
		}
		b.WriteString("\n\n**" + f.Label + "**: " + fields[f.Name])
	}
	return b.String()
}

// thinkBlock matches a complete <think>…</think> block.
func thinkBlock() *regexp.Regexp { return regexp.MustCompile(`(?s)<think>(.*?)</think>`) }

// stripThink removes <think> tags, leaving the memory text.
func stripThink(s string) string {
	s = strings.ReplaceAll(s, "<think>", "")
	s = strings.ReplaceAll(s, "</think>", "")
	return strings.TrimSpace(s)
}

// normalizeThink turns a Mem1 answer into exactly one <think> block: the
// first complete block when there is one, otherwise the whole answer with
// stray tags removed.
func normalizeThink(s string) string {
	body := s
	if m := thinkBlock().FindStringSubmatch(s); m != nil {
		body = m[1]
	}
	return "<think>\n" + stripThink(body) + "\n</think>"
}
