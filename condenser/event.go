package condenser

import (
	"strings"
	"time"
)

// Kind says what an Event is. Only the kinds below have meaning to the
// package; any other value is carried through views like a message.
type Kind string

// Event kinds.
const (
	KindMessage     Kind = "message"
	KindToolCall    Kind = "tool_call"
	KindToolResult  Kind = "tool_result"
	KindObservation Kind = "observation"
	// KindCondensation marks a stored Condensation; it is folded by
	// BuildView and never appears in a View.
	KindCondensation Kind = "condensation"
	// KindCondensationRequest asks the next condenser run to condense; it
	// never appears in a View.
	KindCondensationRequest Kind = "condensation_request"
	// KindSummary is a summary that BuildView inserted into a View. It is
	// produced by the fold, not stored in the log.
	KindSummary Kind = "summary"
)

// Role is who produced a message.
type Role string

// Message roles.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// RecallToolName is the tool name that marks a memory-recall tool call.
// ConversationWindow keeps the recall whose query (the call's Content)
// equals the first user message, together with its result, as OpenHands
// keeps its RecallAction and the matching observation.
const RecallToolName = "recall"

// Event is one entry of a session log, or of a View built from it.
//
// Tool calls and results pair by ToolCallID; tool calls sharing a BatchID
// came from one LLM response (parallel tool calls). Calls or results with
// an empty ToolCallID, and calls with an empty BatchID, are treated as
// plain events: nothing can be paired or batched without an id.
type Event struct {
	// ID is stable: the client's id or one generated at ingestion.
	ID string `json:"id"`
	// Seq is the position in the session log, strictly increasing.
	Seq  int64     `json:"seq"`
	Time time.Time `json:"time"`
	Kind Kind      `json:"kind"`
	Role Role      `json:"role,omitempty"`
	// Content is the text the LLM sees.
	Content string `json:"content,omitempty"`
	// Name is the speaker for messages and the tool name for tool calls and
	// results.
	Name       string `json:"name,omitempty"`
	ToolCallID string `json:"tool_call_id,omitempty"`
	// BatchID is the llm_response_id shared by parallel tool calls.
	BatchID string `json:"batch_id,omitempty"`
	// URL marks a browser output when set on an observation or tool result.
	URL string `json:"url,omitempty"`
	// Tokens is a precomputed or client-supplied token count; 0 means
	// unknown, and a TokenCounter is asked instead.
	Tokens   int            `json:"tokens,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"`
	// Condensation is the payload of a KindCondensation event.
	Condensation *Condensation `json:"condensation,omitempty"`
}

// IsObservation reports whether the event is an observation in OpenHands'
// sense: a tool result or another observation. Summaries are not, so
// masking never touches them.
func (e Event) IsObservation() bool {
	return e.Kind == KindToolResult || e.Kind == KindObservation
}

// IsBrowserOutput reports whether the event is a browser output: an
// observation carrying a URL.
func (e Event) IsBrowserOutput() bool { return e.IsObservation() && e.URL != "" }

// IsUserMessage reports whether the event is a message from the user.
func (e Event) IsUserMessage() bool { return e.Kind == KindMessage && e.Role == RoleUser }

// IsSystemMessage reports whether the event is a system message.
func (e Event) IsSystemMessage() bool { return e.Kind == KindMessage && e.Role == RoleSystem }

func (e Event) isCall() bool { return e.Kind == KindToolCall && e.ToolCallID != "" }

func (e Event) isResult() bool { return e.IsObservation() && e.ToolCallID != "" }

func (e Event) isBatched() bool { return e.Kind == KindToolCall && e.BatchID != "" }

// Text renders the event as one string for prompts: a short header saying
// what the event is, then its content. Truncation for prompts applies to
// this string, as OpenHands truncates str(event).
func (e Event) Text() string {
	var b strings.Builder
	switch e.Kind {
	case KindMessage:
		b.WriteString(string(e.Role))
		if b.Len() == 0 {
			b.WriteString("message")
		}
		if e.Name != "" {
			b.WriteString(" (" + e.Name + ")")
		}
	case KindToolCall, KindToolResult:
		b.WriteString(string(e.Kind))
		if e.Name != "" {
			b.WriteString(" " + e.Name)
		}
		if e.ToolCallID != "" {
			b.WriteString(" [" + e.ToolCallID + "]")
		}
	case KindObservation:
		b.WriteString("observation")
		if e.URL != "" {
			b.WriteString(" " + e.URL)
		}
	default:
		b.WriteString(string(e.Kind))
	}
	b.WriteString(": ")
	b.WriteString(e.Content)
	return b.String()
}

// withContent returns a copy whose content is replaced. The token count is
// reset because it described the old content.
func (e Event) withContent(content string) Event {
	e.Content = content
	e.Tokens = 0
	return e
}

// firstUserIndex returns the index of the first user message, or -1.
func firstUserIndex(events []Event) int {
	for i, e := range events {
		if e.IsUserMessage() {
			return i
		}
	}
	return -1
}
