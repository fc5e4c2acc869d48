package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/graphmem/graphmem/extract"
)

// Texts the condenser spec fixes: the previous summary placeholders of the
// summarizing and Mem1 condensers, and the truncation marker.
const (
	noPreviousSummary = "No events summarized"
	noPreviousMemory  = "No previous memory"
	truncationMarker  = "\n[... Observation truncated due to length ...]\n"
	stateSummaryTool  = "create_state_summary"
)

// promptEvent is one event as a prompt shows it: its id and a one-line
// header (time, role, speaker, kind) followed by the content.
type promptEvent struct {
	ID   string
	Text string
}

// summaryData is the data of the three summary templates.
type summaryData struct {
	PreviousSummary string
	Events          []promptEvent
}

// Summarize writes the summary of one condensation window in the requested
// style (empty means extract.StyleSections) with exactly one chat call. A window with no events makes no call:
// the previous summary stands (for Mem1, normalized to one <think> block).
func (l *Engine) Summarize(ctx context.Context, req extract.SummaryRequest) (extract.Summary, error) {
	switch req.Style {
	case extract.StyleSections, "":
		return l.summarizeText(ctx, req, "summarize.tmpl", noPreviousSummary, func(s string) string { return s })
	case extract.StyleMem1:
		req.PreviousSummary = stripThink(req.PreviousSummary)
		return l.summarizeText(ctx, req, "summarize_mem1.tmpl", noPreviousMemory, normalizeThink)
	case extract.StyleStructured:
		return l.summarizeStructured(ctx, req)
	default:
		return extract.Summary{}, fmt.Errorf("summarize: unknown style %q: %w", req.Style, extract.ErrInvalidOutput)
	}
}

// summaryPrompt renders a summary template. The previous summary and every
// event's content go through the same per-event truncation, as the spec
// requires.
func (l *Engine) summaryPrompt(tmpl, placeholder string, req extract.SummaryRequest) (string, error) {
	data := summaryData{PreviousSummary: placeholder}
	if strings.TrimSpace(req.PreviousSummary) != "" {
		data.PreviousSummary = truncate(req.PreviousSummary, req.MaxEventLength)
	}
	data.Events = promptEvents(req.Events, req.MaxEventLength)
	return l.render(tmpl, data)
}

// summarizeText handles the free-text styles (sections and Mem1).
func (l *Engine) summarizeText(ctx context.Context, req extract.SummaryRequest, tmpl, placeholder string, normalize func(string) string) (extract.Summary, error) {
	if len(req.Events) == 0 {
		if strings.TrimSpace(req.PreviousSummary) == "" {
			return extract.Summary{Model: l.cfg.Model}, nil
		}
		return extract.Summary{Text: normalize(req.PreviousSummary), Model: l.cfg.Model}, nil
	}
	prompt, err := l.summaryPrompt(tmpl, placeholder, req)
	if err != nil {
		return extract.Summary{}, fmt.Errorf("summarize: %w", err)
	}
	res, err := l.chat(ctx, "summarize", openai.ChatCompletionRequest{
		Messages: []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: prompt}},
	})
	if err != nil {
		return extract.Summary{}, err
	}
	text := normalize(strings.TrimSpace(res.message.Content))
	if text == "" || text == "<think></think>" {
		return extract.Summary{}, fmt.Errorf("summarize: %w: empty summary (finish_reason %q)", extract.ErrInvalidOutput, res.finishReason)
	}
	if res.finishReason == openai.FinishReasonLength {
		l.log.WarnContext(ctx, "llm summary was cut off by the token limit", "model", res.model, "style", string(req.Style))
	}
	return extract.Summary{Text: text, Model: res.model, PromptTokens: res.promptTokens, CompletionTokens: res.completionTokens}, nil
}

// summarizeStructured forces a create_state_summary tool call and renders
// its arguments as Markdown. As upstream, output that cannot be parsed
// yields the empty summary rather than an error, because the window is
// condensed either way; the failure is logged as a warning so it is seen.
func (l *Engine) summarizeStructured(ctx context.Context, req extract.SummaryRequest) (extract.Summary, error) {
	if len(req.Events) == 0 {
		return extract.Summary{Text: req.PreviousSummary, Model: l.cfg.Model}, nil
	}
	prompt, err := l.summaryPrompt("summarize_structured.tmpl", noPreviousSummary, req)
	if err != nil {
		return extract.Summary{}, fmt.Errorf("summarize: %w", err)
	}
	res, err := l.chat(ctx, "summarize", openai.ChatCompletionRequest{
		Messages: []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: prompt}},
		Tools: []openai.Tool{{
			Type: openai.ToolTypeFunction,
			Function: &openai.FunctionDefinition{
				Name: stateSummaryTool,
				Description: "Records the current state of the interaction so that context survives when old events are dropped. " +
					"user_context, completed_tasks and pending_tasks must not be empty.",
				Parameters: l.schemas.summary.wire,
			},
		}},
		ToolChoice: openai.ToolChoice{Type: openai.ToolTypeFunction, Function: openai.ToolFunction{Name: stateSummaryTool}},
	})
	if err != nil {
		return extract.Summary{}, err
	}
	state, problem := l.parseStateSummary(res.message)
	if problem != "" {
		l.log.WarnContext(ctx, "llm structured summary could not be parsed; using an empty summary",
			"model", res.model, "problem", problem, "finish_reason", string(res.finishReason))
	}
	return extract.Summary{Text: state.markdown(), Fields: state.fields(), Model: res.model,
		PromptTokens: res.promptTokens, CompletionTokens: res.completionTokens}, nil
}

// parseStateSummary reads the create_state_summary arguments. It looks in
// the tool call first, then the legacy function_call, then the content,
// because some local servers answer a forced tool call in plain content.
// Arguments that fail the schema but are still a JSON object are coerced
// field by field (a list where a string was asked is joined), and that
// counts as a problem too. problem is empty when the output was clean.
func (l *Engine) parseStateSummary(msg openai.ChatCompletionMessage) (stateSummary, string) {
	args := ""
	for _, tc := range msg.ToolCalls {
		if tc.Function.Name == stateSummaryTool {
			args = tc.Function.Arguments
			break
		}
	}
	if args == "" && msg.FunctionCall != nil && msg.FunctionCall.Name == stateSummaryTool {
		args = msg.FunctionCall.Arguments
	}
	if args == "" {
		args = msg.Content
	}
	if strings.TrimSpace(args) == "" {
		return stateSummary{}, "no " + stateSummaryTool + " call in the response"
	}
	var state stateSummary
	err := decode(args, l.schemas.summary, &state)
	if err == nil {
		return state, ""
	}
	var fields map[string]any
	if json.Unmarshal([]byte(jsonPayload(args)), &fields) != nil || fields == nil {
		return stateSummary{}, err.Error()
	}
	coerced := make(map[string]string, len(fields))
	for k, v := range fields {
		coerced[k] = coerceString(v)
	}
	b, _ := json.Marshal(coerced)
	if json.Unmarshal(b, &state) != nil {
		return stateSummary{}, err.Error()
	}
	return state, err.Error() + " (fields coerced to strings)"
}

// coerceString flattens a JSON value into summary text.
func coerceString(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	case bool:
		return strconv.FormatBool(t)
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	case []any:
		parts := make([]string, 0, len(t))
		for _, e := range t {
			if s := strings.TrimSpace(coerceString(e)); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, "; ")
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, 0, len(t))
		for _, k := range keys {
			parts = append(parts, k+": "+coerceString(t[k]))
		}
		return strings.Join(parts, "; ")
	default:
		return fmt.Sprint(t)
	}
}

// stateSummary is the create_state_summary argument set of the
// StructuredSummary condenser: every field a string, three required.
type stateSummary struct {
	UserContext    string `json:"user_context" description:"What the user needs: requirements, goals, constraints and clarifications, stated briefly."`
	CompletedTasks string `json:"completed_tasks" description:"Tasks completed so far, each with its result."`
	PendingTasks   string `json:"pending_tasks" description:"Tasks that still have to be done."`
	CurrentState   string `json:"current_state" required:"false" description:"The state that matters now: variables, data structures, decisions."`

	FilesModified   string `json:"files_modified" required:"false" description:"Files created or modified."`
	FunctionChanges string `json:"function_changes" required:"false" description:"Functions created or modified."`
	DataStructures  string `json:"data_structures" required:"false" description:"Key data structures in use or modified."`
	Dependencies    string `json:"dependencies" required:"false" description:"Dependencies or imports added or modified."`

	TestsWritten  string `json:"tests_written" required:"false" description:"Whether tests were written for the changes: true, false or unknown."`
	TestsPassing  string `json:"tests_passing" required:"false" description:"Whether all tests pass now: true, false or unknown."`
	FailingTests  string `json:"failing_tests" required:"false" description:"Names or descriptions of failing tests."`
	ErrorMessages string `json:"error_messages" required:"false" description:"Key error messages seen."`

	BranchCreated string `json:"branch_created" required:"false" description:"Whether a branch was created for this work: true, false or unknown."`
	BranchName    string `json:"branch_name" required:"false" description:"The current working branch, if known."`
	CommitsMade   string `json:"commits_made" required:"false" description:"Whether commits were made: true, false or unknown."`
	PRCreated     string `json:"pr_created" required:"false" description:"Whether a pull request was created: true, false or unknown."`
	PRStatus      string `json:"pr_status" required:"false" description:"Pull request status: draft, open, merged, closed or unknown."`

	OtherRelevantContext string `json:"other_relevant_context" required:"false" description:"Anything else important that fits no field above."`
}

// fields returns the state keyed by the create_state_summary field names.
func (s stateSummary) fields() map[string]string {
	b, _ := json.Marshal(s)
	out := map[string]string{}
	_ = json.Unmarshal(b, &out)
	return out
}

// markdown renders the state as the summary text. All headings are always
// present, so a reader (or a diff between two condensations) finds each
// field in the same place.
func (s stateSummary) markdown() string {
	var b strings.Builder
	section := func(title string) { fmt.Fprintf(&b, "\n\n## %s", title) }
	field := func(name, value string) { fmt.Fprintf(&b, "\n\n**%s**: %s", name, strings.TrimSpace(value)) }
	b.WriteString("# State Summary")
	section("Core Information")
	field("User Context", s.UserContext)
	field("Completed Tasks", s.CompletedTasks)
	field("Pending Tasks", s.PendingTasks)
	field("Current State", s.CurrentState)
	section("Code Changes")
	field("Files Modified", s.FilesModified)
	field("Function Changes", s.FunctionChanges)
	field("Data Structures", s.DataStructures)
	field("Dependencies", s.Dependencies)
	section("Testing Status")
	field("Tests Written", s.TestsWritten)
	field("Tests Passing", s.TestsPassing)
	field("Failing Tests", s.FailingTests)
	field("Error Messages", s.ErrorMessages)
	section("Version Control")
	field("Branch Created", s.BranchCreated)
	field("Branch Name", s.BranchName)
	field("Commits Made", s.CommitsMade)
	field("PR Created", s.PRCreated)
	field("PR Status", s.PRStatus)
	section("Additional Context")
	field("Other Relevant Context", s.OtherRelevantContext)
	return b.String()
}

// truncate keeps the first and last max/2 characters of s around the
// spec's truncation marker; max <= 0 means no truncation. Characters are
// runes, as the upstream condenser counts them.
func truncate(s string, max int) string {
	if max <= 0 {
		return s
	}
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	half := max / 2
	return string(r[:half]) + truncationMarker + string(r[len(r)-half:])
}

// eventText is an event's text in every prompt: a header with the time
// (with weekday, so "last Friday" can be resolved), the role, the speaker
// and a non-message kind, then the content truncated to maxChars. Only the
// content is truncated: the header is what ties the text to a speaker and a
// date, and truncating the same content twice gives the same text, so a
// caller that already truncated (the condenser does) loses nothing more.
func eventText(e extract.Event, maxChars int) string {
	var b strings.Builder
	if !e.OccurredAt.IsZero() {
		b.WriteString(e.OccurredAt.UTC().Format("Mon 2006-01-02 15:04 MST"))
		b.WriteString(" | ")
	}
	role := strings.TrimSpace(e.Role)
	if role == "" {
		role = "unknown"
	}
	b.WriteString(role)
	if name := strings.TrimSpace(e.Name); name != "" {
		b.WriteString(" " + name)
	}
	if kind := strings.TrimSpace(e.Kind); kind != "" && kind != "message" {
		b.WriteString(" [" + kind + "]")
	}
	b.WriteString(": ")
	b.WriteString(truncate(e.Content, maxChars))
	return b.String()
}

// promptEvents renders events for a prompt.
func promptEvents(events []extract.Event, maxChars int) []promptEvent {
	out := make([]promptEvent, 0, len(events))
	for _, e := range events {
		out = append(out, promptEvent{ID: e.ID, Text: eventText(e, maxChars)})
	}
	return out
}

// normalizeThink turns a Mem1 answer into exactly one <think>…</think>
// block: the first block when there is one (text around it is dropped),
// otherwise the whole answer with stray tags removed.
func normalizeThink(s string) string {
	return "<think>" + stripThink(s) + "</think>"
}

// stripThink returns the memory inside the first <think> block, or the
// text itself without stray tags when there is no complete block. It is
// also how the previous memory enters <PREVIOUS_THINK>.
func stripThink(s string) string {
	if m := thinkBlock.FindStringSubmatch(s); m != nil {
		return strings.TrimSpace(m[1])
	}
	s = strings.ReplaceAll(s, "<think>", "")
	s = strings.ReplaceAll(s, "</think>", "")
	return strings.TrimSpace(s)
}
