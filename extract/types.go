package extract

import (
	"errors"
	"time"

	"github.com/graphmem/graphmem/ontology"
)

// Sentinel errors. Callers branch on them with errors.Is; engines wrap them
// with the operation that failed.
var (
	// ErrUnavailable means the LLM could not be reached or refused for a
	// transient reason (timeout, 429, 5xx); the job should be retried later.
	ErrUnavailable = errors.New("llm unavailable")
	// ErrInvalidOutput means the LLM answered with output that failed
	// validation; retrying the same input is unlikely to help.
	ErrInvalidOutput = errors.New("invalid llm output")
)

// Event is one conversation event as the extractors see it.
type Event struct {
	ID         string    // the event's id (the client's id when it gave one)
	Role       string    // user | assistant | system | tool
	Kind       string    // message | tool_call | tool_result | observation | summary
	Name       string    // speaker name, if known ("Caroline")
	Content    string    // the text
	OccurredAt time.Time // when it happened; anchors relative dates
}

// Input is one window of conversation handed to an extractor: the summary
// the condenser wrote for it and the raw events it rests on.
type Input struct {
	UserID    string // the session's user; "I"/"my" in the user's messages refer to them
	UserName  string // the user's display name when known; empty otherwise
	SessionID string
	Summary   string
	Events    []Event
}

// Entity is an entity mentioned in a window. Key is local to one Result and
// is what facts refer to; the graph resolves entities to stored ones.
type Entity struct {
	Key     string
	Name    string
	Type    ontology.EntityType
	Aliases []string
	// IsUser marks the entity that stands for the session's user.
	IsUser bool
	// Owner is the Key of the entity this one belongs to when the name is
	// relational ("my sister" with no name: Owner = user, Name "sister").
	Owner string
}

// Fact is one statement about the world, in the ontology's vocabulary.
type Fact struct {
	Subject   string // Entity.Key
	Predicate string // canonical ontology predicate name (or ontology.Fallback)
	// RawPredicate keeps the original verb phrase when Predicate is the
	// fallback, so nothing the speaker said is lost.
	RawPredicate string
	Object       string // Entity.Key
	// Qualifier narrows exclusive predicates to a slot: the category of a
	// favourite ("programming language"), the thing a budget is for
	// ("trip"), the family role ("sister"). Exclusivity is per
	// (subject, predicate, qualifier).
	Qualifier string
	// Sentence is the readable fact ("The user lives in Berlin").
	Sentence string
	Polarity ontology.Polarity
	// Confidence in [0,1]: how sure the engine is that the speaker asserted
	// this. Conflicts backed by weak evidence stay open for review.
	Confidence float64
	// Strength in [0,1] for preferences ("love" is stronger than "like").
	Strength float64
	// ValidFrom/ValidTo are event time: when the fact held in the world,
	// with relative dates already resolved against the event time.
	ValidFrom *time.Time
	ValidTo   *time.Time
	// SourceEventIDs are the Event.IDs the fact was read from.
	SourceEventIDs []string
	// Correction marks a statement that corrects what the speaker just
	// said wrongly ("sorry, I meant Wednesday, not Tuesday"): the slip
	// never held, so it is closed with an empty validity. Corrects is the
	// Entity.Key of the wrong value when the speaker named it.
	Correction bool
	Corrects   string
}

// Result is what an extractor found in one window.
type Result struct {
	Entities []Entity
	Facts    []Fact
	// Mentions lists entity keys mentioned per event id (for MENTIONS
	// links from the raw and event tiers); facts imply their own mentions.
	Mentions map[string][]string
	// Model names the engine that produced the result ("offline/rules-v1",
	// or the LLM model), recorded as provenance.
	Model string
	// Token usage of the LLM call that produced the result (0 offline).
	PromptTokens     int
	CompletionTokens int
}

// SummaryStyle selects the summary a condenser asks for.
type SummaryStyle string

// Summary styles, one per summarizing condenser of the spec.
const (
	StyleSections   SummaryStyle = "sections"   // LLMSummarizing: USER_CONTEXT, COMPLETED, PENDING, ...
	StyleStructured SummaryStyle = "structured" // StructuredSummary: fixed fields rendered as Markdown
	StyleMem1       SummaryStyle = "mem1"       // Mem1: one cumulative <think> memory block
)

// SummaryRequest asks for the summary of a condensation window.
type SummaryRequest struct {
	Style           SummaryStyle
	PreviousSummary string  // folded in; empty when there is none
	Events          []Event // the events being summarized, in order
	MaxEventLength  int     // per-event truncation in characters; <=0 means none
	// MaxChars bounds the summary's length (<=0: the engine's own bound).
	// A condensation's summary must be shorter than what it replaces, or
	// condensing grows the view it was asked to shrink. The offline engine
	// enforces it; the LLM engine's prompts are the condenser spec's own and
	// ask for a concise summary already.
	MaxChars int
}

// Summary is a summarizer's answer with the figures the audit trail keeps.
type Summary struct {
	Text string
	// Fields holds the structured summary's fields (StyleStructured) by
	// their create_state_summary names, so a condenser can render them its
	// own way; nil for the other styles.
	Fields           map[string]string
	Model            string
	PromptTokens     int
	CompletionTokens int
}

// AttentionRequest asks which events are worth keeping (LLMAttention).
type AttentionRequest struct {
	Events  []Event
	MaxKeep int
}

// InsightFact is a current fact handed to insight derivation.
type InsightFact struct {
	ID             string
	Subject        string
	Predicate      string
	Object         string
	Sentence       string
	SessionIDs     []string
	SourceEventIDs []string
	ValidFrom      *time.Time
}

// InsightInput is the material insights are derived from: a user's recent
// events and current facts.
type InsightInput struct {
	UserID string
	Events []Event
	Facts  []InsightFact
}

// Insight is a higher-level observation resting on several events.
type Insight struct {
	// Key names what the insight is about ("pets", "diet", "travel"), so a
	// regenerated insight on the same subject supersedes the old one;
	// empty lets the caller derive one from the entities.
	Key            string
	Text           string
	Confidence     float64
	SourceEventIDs []string
	EntityNames    []string // entities the insight is about
	FactIDs        []string // facts it rests on, when derived from facts
}
