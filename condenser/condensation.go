package condenser

import (
	"errors"
	"time"
)

// Reason is why a rolling condenser wants to condense.
type Reason string

// Condensation reasons (OpenHands SDK).
const (
	// ReasonRequest: an unhandled condensation request is in the view.
	ReasonRequest Reason = "request"
	// ReasonTokens: the view's tokens passed the token trigger.
	ReasonTokens Reason = "tokens"
	// ReasonEvents: the view has more than max_size events.
	ReasonEvents Reason = "events"
)

// Requirement says how urgently a condensation is needed.
type Requirement string

// Requirement levels. REQUEST and TOKENS make a condensation HARD (the
// caller cannot go on without one); EVENTS alone makes it SOFT (it may wait
// for a later run when no safe cut exists).
const (
	RequirementHard Requirement = "hard"
	RequirementSoft Requirement = "soft"
)

// SeqRange is an inclusive range of log positions.
type SeqRange struct {
	Start int64 `json:"start"`
	End   int64 `json:"end"`
}

// Contains reports whether seq lies in the range.
func (r SeqRange) Contains(seq int64) bool { return seq >= r.Start && seq <= r.End }

// NoPreviousSummary is what summarizing prompts carry when there is no
// earlier summary to fold in.
const NoPreviousSummary = "No events summarized"

// Condensation is the immutable record of one condensation. Stored in the
// log as a KindCondensation event, it is all BuildView needs to replay the
// condensed view without calling an LLM.
//
// Exactly one forgetting form is set: ForgottenIDs (non-nil, possibly
// empty) or ForgottenRange. Summary and SummaryOffset are set together or
// not at all. The remaining fields are audit data (spec §7) that the
// condenser knows; the orchestration adds what only it knows (config
// snapshot, prompt version, latency, status).
type Condensation struct {
	ID string `json:"id,omitempty"`
	// ForgottenIDs has no omitempty: JSON keeps null (unset) apart from []
	// (set, forgets nothing), which ConversationWindow emits.
	ForgottenIDs   []string  `json:"forgotten_ids"`
	ForgottenRange *SeqRange `json:"forgotten_range,omitempty"`
	Summary        *string   `json:"summary,omitempty"`
	SummaryOffset  *int      `json:"summary_offset,omitempty"`

	Strategy    string      `json:"strategy,omitempty"`
	Reasons     []Reason    `json:"reasons,omitempty"`
	Requirement Requirement `json:"requirement,omitempty"`
	// HardReset marks the fallback that summarized the whole view.
	HardReset bool `json:"hard_reset,omitempty"`
	// BasedOnSeq is the watermark: the newest log position the condensed
	// view had folded.
	BasedOnSeq   int64 `json:"based_on_seq"`
	EventsBefore int   `json:"events_before"`
	EventsAfter  int   `json:"events_after"`
	TokensBefore int   `json:"tokens_before"`
	TokensAfter  int   `json:"tokens_after"`

	SummarizerModel string `json:"summarizer_model,omitempty"`
	LLMResponseID   string `json:"llm_response_id,omitempty"`
	// LLMCalls counts every call made for this record, failed ones included.
	LLMCalls     int `json:"llm_calls"`
	InputTokens  int `json:"input_tokens,omitempty"`
	OutputTokens int `json:"output_tokens,omitempty"`

	Warnings []string       `json:"warnings,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

// Validate checks the record's shape: exactly one forgetting form, an
// ordered range, summary and offset together, a non-negative offset.
func (c Condensation) Validate() error {
	var errs []error
	switch {
	case c.ForgottenIDs != nil && c.ForgottenRange != nil:
		errs = append(errs, fieldErr(ErrInvalidCondensation, "forgotten_ids", "set together with forgotten_range; exactly one form is allowed"))
	case c.ForgottenIDs == nil && c.ForgottenRange == nil:
		errs = append(errs, fieldErr(ErrInvalidCondensation, "forgotten_ids", "neither forgotten_ids nor forgotten_range is set"))
	}
	if r := c.ForgottenRange; r != nil && r.Start > r.End {
		errs = append(errs, fieldErr(ErrInvalidCondensation, "forgotten_range", "start %d is after end %d", r.Start, r.End))
	}
	if (c.Summary == nil) != (c.SummaryOffset == nil) {
		errs = append(errs, fieldErr(ErrInvalidCondensation, "summary_offset", "summary and summary_offset must be set together"))
	}
	if c.SummaryOffset != nil && *c.SummaryOffset < 0 {
		errs = append(errs, fieldErr(ErrInvalidCondensation, "summary_offset", "must not be negative, got %d", *c.SummaryOffset))
	}
	return errors.Join(errs...)
}

// SummaryID is the id of the summary event this condensation inserts into
// SDK views: "<id>-summary". It is derived, so it is stable across rebuilds
// and a later condensation can forget it.
func (c Condensation) SummaryID() string { return SummaryEventID(c.ID) }

// SummaryEventID returns the id of the summary inserted by the condensation
// with the given id.
func SummaryEventID(condensationID string) string { return condensationID + "-summary" }

// ExpandForgotten returns the explicit ids this condensation forgets, given
// the session log. The list form is returned as is. The range form yields
// every log event whose Seq lies in the range, plus the summary id of every
// condensation in the range that carried a summary, which is exactly what
// BuildView removes.
func (c Condensation) ExpandForgotten(log []Event) []string {
	if c.ForgottenRange == nil {
		return append([]string{}, c.ForgottenIDs...)
	}
	ids := []string{}
	for _, e := range log {
		if !c.ForgottenRange.Contains(e.Seq) {
			continue
		}
		if e.ID != "" {
			ids = append(ids, e.ID)
		}
		if e.Kind == KindCondensation && e.Condensation != nil && e.Condensation.Summary != nil {
			ids = append(ids, SummaryEventID(condensationID(e)))
		}
	}
	return ids
}

// CondensationEvent wraps a condensation into the log event that stores
// it. The record's ID is set to id so that the summary id derives from the
// event's id.
func CondensationEvent(c Condensation, id string, seq int64, at time.Time) Event {
	c.ID = id
	return Event{ID: id, Seq: seq, Time: at, Kind: KindCondensation, Condensation: &c}
}

// condensationID is the id a stored condensation is known by: its own ID,
// or the id of the event that carries it.
func condensationID(e Event) string {
	if e.Condensation != nil && e.Condensation.ID != "" {
		return e.Condensation.ID
	}
	return e.ID
}

// forgets reports whether the condensation forgets the event.
func (c Condensation) forgets(e Event, ids map[string]bool) bool {
	if c.ForgottenRange != nil {
		return c.ForgottenRange.Contains(e.Seq)
	}
	return e.ID != "" && ids[e.ID]
}

func idSet(ids []string) map[string]bool {
	set := make(map[string]bool, len(ids))
	for _, id := range ids {
		set[id] = true
	}
	return set
}
