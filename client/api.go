package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"time"
)

// The wire types of the routes this client covers, as openapi.yaml
// describes them. Optional request fields are omitted when zero.

// Event is one event to append.
type Event struct {
	ID         string         `json:"id,omitempty"`
	Kind       string         `json:"kind"` // message | tool_call | tool_result | observation | condensation_request
	Role       string         `json:"role,omitempty"`
	Name       string         `json:"name,omitempty"`
	Content    string         `json:"content"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
	BatchID    string         `json:"batch_id,omitempty"`
	URL        string         `json:"url,omitempty"`
	OccurredAt string         `json:"occurred_at,omitempty"`
	Metadata   map[string]any `json:"metadata,omitempty"`
	Tokens     int            `json:"tokens,omitempty"`
}

// AppendRequest appends events to a session.
type AppendRequest struct {
	UserID  string  `json:"user_id"`
	AgentID string  `json:"agent_id,omitempty"`
	Events  []Event `json:"events"`
}

// Appended is one appended event.
type Appended struct {
	ID        string `json:"id"`
	Seq       int64  `json:"seq"`
	Duplicate bool   `json:"duplicate"`
}

// AppendResponse says what was appended.
type AppendResponse struct {
	SessionID string     `json:"session_id"`
	Events    []Appended `json:"events"`
	LastSeq   int64      `json:"last_seq"`
	Created   bool       `json:"created"`
	Reopened  bool       `json:"reopened"`
}

// StoredEvent is an event as the service returns it.
type StoredEvent struct {
	ID         string         `json:"id"`
	Seq        int64          `json:"seq,omitempty"`
	Kind       string         `json:"kind"`
	Role       string         `json:"role,omitempty"`
	Name       string         `json:"name,omitempty"`
	Content    string         `json:"content"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
	URL        string         `json:"url,omitempty"`
	Metadata   map[string]any `json:"metadata,omitempty"`
	Tokens     int            `json:"tokens"`
	OccurredAt *time.Time     `json:"occurred_at,omitempty"`
}

// Job is a background job.
type Job struct {
	ID        string `json:"id"`
	Kind      string `json:"kind"`
	SessionID string `json:"session_id,omitempty"`
	Status    string `json:"status"`
	Attempts  int    `json:"attempts"`
	LastError string `json:"last_error,omitempty"`
}

// CloseResponse is the answer to closing a session.
type CloseResponse struct {
	SessionID string `json:"session_id"`
	Status    string `json:"status"`
	Done      bool   `json:"done"`
	Jobs      []Job  `json:"jobs"`
}

// ViewRequest asks for a session's condensed view.
type ViewRequest struct {
	MaxEvents int    `json:"max_events,omitempty"`
	MaxTokens int    `json:"max_tokens,omitempty"`
	Profile   string `json:"profile,omitempty"`
	DryRun    bool   `json:"dry_run,omitempty"`
}

// ViewResponse is a session's view: the events to send to the LLM.
type ViewResponse struct {
	SessionID              string          `json:"session_id"`
	Events                 []StoredEvent   `json:"events"`
	Tokens                 int             `json:"tokens"`
	HeadSeq                int64           `json:"head_seq"`
	UnhandledRequest       bool            `json:"unhandled_condensation_request"`
	AppliedCondensationIDs []string        `json:"applied_condensation_ids"`
	NewCondensations       json.RawMessage `json:"new_condensations"`
	Trimmed                int             `json:"trimmed"`
	Profile                string          `json:"profile"`
	Deferred               string          `json:"deferred,omitempty"`
}

// SearchRequest is a hybrid search.
type SearchRequest struct {
	UserID         string   `json:"user_id"`
	AgentID        string   `json:"agent_id,omitempty"`
	SessionID      string   `json:"session_id,omitempty"`
	Query          string   `json:"query"`
	Limit          int      `json:"limit,omitempty"`
	Tiers          []string `json:"tiers,omitempty"`
	AsOf           string   `json:"as_of,omitempty"`
	IncludeHistory bool     `json:"include_history,omitempty"`
	Explain        bool     `json:"explain,omitempty"`
}

// ScoreParts are the signals a result's score combines.
type ScoreParts struct {
	FullText float64 `json:"fulltext"`
	Vector   float64 `json:"vector"`
	Graph    float64 `json:"graph"`
	Recency  float64 `json:"recency"`
	Tier     float64 `json:"tier"`
}

// SearchResult is one memory found.
type SearchResult struct {
	ID             string     `json:"id"`
	Kind           string     `json:"kind"` // raw | event | insight | fact | entity
	Text           string     `json:"text"`
	Score          float64    `json:"score"`
	ScoreParts     ScoreParts `json:"score_parts"`
	Status         string     `json:"status"`
	ValidFrom      *time.Time `json:"valid_from"`
	ValidTo        *time.Time `json:"valid_to"`
	OccurredAt     *time.Time `json:"occurred_at"`
	SourceEventIDs []string   `json:"source_event_ids"`
	SessionID      string     `json:"session_id,omitempty"`
	Path           []string   `json:"path,omitempty"`
	Explanation    string     `json:"explanation,omitempty"`
}

// SearchResponse is the ranked results.
type SearchResponse struct {
	Results []SearchResult `json:"results"`
	TookMS  int64          `json:"took_ms"`
	Query   struct {
		Terms      []string `json:"terms"`
		Entities   []string `json:"entities"`
		Predicates []string `json:"predicates"`
	} `json:"query"`
}

// ContextRequest asks for a prompt-ready context.
type ContextRequest struct {
	UserID         string `json:"user_id"`
	SessionID      string `json:"session_id,omitempty"`
	Query          string `json:"query,omitempty"`
	MaxTokens      int    `json:"max_tokens,omitempty"`
	IncludeHistory bool   `json:"include_history,omitempty"`
}

// ContextResponse is the assembled context.
type ContextResponse struct {
	Text      string `json:"text"`
	Tokens    int    `json:"tokens"`
	MaxTokens int    `json:"max_tokens"`
	Parts     struct {
		ShortTerm       []StoredEvent  `json:"short_term"`
		ShortTermTokens int            `json:"short_term_tokens"`
		Insights        []SearchResult `json:"insights"`
		Facts           []SearchResult `json:"facts"`
		Preferences     []Preference   `json:"preferences"`
		Memories        []SearchResult `json:"memories"`
	} `json:"parts"`
	Omitted int `json:"omitted"`
}

// Fact is a stored fact.
type Fact struct {
	ID             string     `json:"id"`
	SubjectID      string     `json:"subject_id"`
	Subject        string     `json:"subject"`
	Predicate      string     `json:"predicate"`
	RawPredicate   string     `json:"raw_predicate,omitempty"`
	ObjectID       string     `json:"object_id"`
	Object         string     `json:"object"`
	Qualifier      string     `json:"qualifier,omitempty"`
	Text           string     `json:"fact"` // the readable sentence
	Polarity       string     `json:"polarity"`
	Confidence     float64    `json:"confidence"`
	Strength       float64    `json:"strength,omitempty"`
	Preference     bool       `json:"preference"`
	Status         string     `json:"status"` // current | superseded | retracted
	ValidFrom      *time.Time `json:"valid_from"`
	ValidTo        *time.Time `json:"valid_to"`
	RecordedAt     *time.Time `json:"recorded_at"`
	ExpiredAt      *time.Time `json:"expired_at"`
	MentionCount   int64      `json:"mention_count"`
	SourceEventIDs []string   `json:"source_event_ids"`
	SessionIDs     []string   `json:"session_ids"`
	SupersededBy   string     `json:"superseded_by,omitempty"`
	ExtractedBy    string     `json:"extracted_by,omitempty"`
	EditIDs        []string   `json:"edit_ids,omitempty"`
}

// FactsQuery selects a user's facts.
type FactsQuery struct {
	AsOf           string
	IncludeHistory bool
	Subject        string
	Predicate      string
	Limit          int
}

// Preference is a like, dislike or favourite of the user.
type Preference struct {
	FactID         string     `json:"fact_id"`
	Object         string     `json:"object"`
	ObjectID       string     `json:"object_id"`
	Predicate      string     `json:"predicate"`
	Qualifier      string     `json:"qualifier,omitempty"`
	Polarity       string     `json:"polarity"`
	Strength       float64    `json:"strength"`
	Confidence     float64    `json:"confidence"`
	Status         string     `json:"status"`
	ValidFrom      *time.Time `json:"valid_from"`
	ValidTo        *time.Time `json:"valid_to"`
	Fact           string     `json:"fact"`
	SourceEventIDs []string   `json:"source_event_ids"`
	SupersededBy   string     `json:"superseded_by,omitempty"`
}

// HistoryQuery selects current items, what held at AsOf, or all.
type HistoryQuery struct {
	AsOf           string
	IncludeHistory bool
	Limit          int
}

// Conflict is a clash between an older and a newer fact.
type Conflict struct {
	ID         string     `json:"id"`
	UserID     string     `json:"user_id"`
	Status     string     `json:"status"`
	Resolution string     `json:"resolution,omitempty"`
	Kind       string     `json:"kind"`
	Winner     string     `json:"winner,omitempty"`
	Predicate  string     `json:"predicate"`
	SubjectID  string     `json:"subject_id"`
	Subject    string     `json:"subject"`
	OldFactID  string     `json:"old_fact_id"`
	OldFact    string     `json:"old_fact"`
	NewFactID  string     `json:"new_fact_id"`
	NewFact    string     `json:"new_fact"`
	DetectedAt time.Time  `json:"detected_at"`
	ResolvedAt *time.Time `json:"resolved_at,omitempty"`
	Note       string     `json:"note,omitempty"`
}

// NewFact is a fact to add directly. An empty Subject is the user.
type NewFact struct {
	Subject     string   `json:"subject,omitempty"`
	SubjectType string   `json:"subject_type,omitempty"`
	Predicate   string   `json:"predicate"`
	Object      string   `json:"object"`
	ObjectType  string   `json:"object_type,omitempty"`
	Qualifier   string   `json:"qualifier,omitempty"`
	Polarity    string   `json:"polarity,omitempty"`
	Sentence    string   `json:"sentence,omitempty"`
	Confidence  *float64 `json:"confidence,omitempty"`
	Strength    *float64 `json:"strength,omitempty"`
	ValidFrom   string   `json:"valid_from,omitempty"`
	ValidTo     string   `json:"valid_to,omitempty"`
	Actor       string   `json:"actor,omitempty"`
	Reason      string   `json:"reason,omitempty"`
}

// FactChange is a correction: only the fields set change.
type FactChange struct {
	Predicate  *string  `json:"predicate,omitempty"`
	Object     *string  `json:"object,omitempty"`
	ObjectType *string  `json:"object_type,omitempty"`
	Qualifier  *string  `json:"qualifier,omitempty"`
	Polarity   *string  `json:"polarity,omitempty"`
	Sentence   *string  `json:"sentence,omitempty"`
	Confidence *float64 `json:"confidence,omitempty"`
	Strength   *float64 `json:"strength,omitempty"`
	ValidFrom  *string  `json:"valid_from,omitempty"`
	Actor      string   `json:"actor,omitempty"`
	Reason     string   `json:"reason,omitempty"`
}

// Retraction withdraws a fact; Purge deletes it.
type Retraction struct {
	Purge  bool
	Actor  string
	Reason string
}

// Edit is a recorded direct edit.
type Edit struct {
	ID        string    `json:"id"`
	Kind      string    `json:"kind"` // add | correct | retract | purge
	Tenant    string    `json:"tenant"`
	Actor     string    `json:"actor,omitempty"`
	Reason    string    `json:"reason,omitempty"`
	At        time.Time `json:"at"`
	FactID    string    `json:"fact_id"`
	NewFactID string    `json:"new_fact_id,omitempty"`
	Fact      string    `json:"fact,omitempty"`
	Outcome   string    `json:"outcome"`
}

// FactDetail is one fact with its edits.
type FactDetail struct {
	Fact
	UserID string `json:"user_id"`
	Edits  []Edit `json:"edits"`
}

// EditResult is what an edit did.
type EditResult struct {
	Edit              Edit       `json:"edit"`
	Fact              FactDetail `json:"fact"`
	Superseded        []string   `json:"superseded"`
	Reopened          []string   `json:"reopened"`
	ConflictsOpened   []string   `json:"conflicts_opened"`
	ConflictsResolved []string   `json:"conflicts_resolved"`
}

// --- calls ------------------------------------------------------------------

// Append appends events to a session (created on first use). Give events
// ids to make a retried append idempotent.
func (c *Client) Append(ctx context.Context, sessionID string, req AppendRequest) (AppendResponse, error) {
	var out AppendResponse
	_, err := c.do(ctx, "POST", "/v1/sessions/"+pathEscape(sessionID)+"/events", nil, req, &out)
	return out, err
}

// Close closes a session: it is condensed and extracted into the graph;
// with wait the call returns when that is done.
func (c *Client) Close(ctx context.Context, sessionID string, wait bool) (CloseResponse, error) {
	var out CloseResponse
	q := url.Values{}
	if wait {
		q.Set("wait", "true")
	}
	_, err := c.do(ctx, "POST", "/v1/sessions/"+pathEscape(sessionID)+"/close", q, nil, &out)
	return out, err
}

// SessionView returns the session's condensed view for the next LLM call.
func (c *Client) SessionView(ctx context.Context, sessionID string, req ViewRequest) (ViewResponse, error) {
	var out ViewResponse
	_, err := c.do(ctx, "POST", "/v1/sessions/"+pathEscape(sessionID)+"/context", nil, req, &out)
	return out, err
}

// RequestCondensation asks for the session to be condensed at its next view.
func (c *Client) RequestCondensation(ctx context.Context, sessionID string) (Appended, error) {
	var out Appended
	_, err := c.do(ctx, "POST", "/v1/sessions/"+pathEscape(sessionID)+"/condensation-requests", nil, struct{}{}, &out)
	return out, err
}

// Search runs a hybrid search over the user's memory.
func (c *Client) Search(ctx context.Context, req SearchRequest) (SearchResponse, error) {
	var out SearchResponse
	_, err := c.do(ctx, "POST", "/v1/search", nil, req, &out)
	return out, err
}

// Context assembles a prompt-ready context within a token budget.
func (c *Client) Context(ctx context.Context, req ContextRequest) (ContextResponse, error) {
	var out ContextResponse
	_, err := c.do(ctx, "POST", "/v1/context", nil, req, &out)
	return out, err
}

func historyValues(asOf string, history bool, limit int) url.Values {
	q := url.Values{}
	if asOf != "" {
		q.Set("as_of", asOf)
	}
	if history {
		q.Set("include_history", "true")
	}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	return q
}

// Facts lists a user's facts.
func (c *Client) Facts(ctx context.Context, userID string, fq FactsQuery) ([]Fact, error) {
	q := historyValues(fq.AsOf, fq.IncludeHistory, fq.Limit)
	if fq.Subject != "" {
		q.Set("subject", fq.Subject)
	}
	if fq.Predicate != "" {
		q.Set("predicate", fq.Predicate)
	}
	var out struct {
		Facts []Fact `json:"facts"`
	}
	_, err := c.do(ctx, "GET", "/v1/users/"+pathEscape(userID)+"/facts", q, nil, &out)
	return out.Facts, err
}

// Preferences lists the user's likes, dislikes and favourites.
func (c *Client) Preferences(ctx context.Context, userID string, hq HistoryQuery) ([]Preference, error) {
	var out struct {
		Preferences []Preference `json:"preferences"`
	}
	_, err := c.do(ctx, "GET", "/v1/users/"+pathEscape(userID)+"/preferences", historyValues(hq.AsOf, hq.IncludeHistory, hq.Limit), nil, &out)
	return out.Preferences, err
}

// Conflicts lists the user's conflicts; status "" means open and resolved.
func (c *Client) Conflicts(ctx context.Context, userID, status string, limit int) ([]Conflict, error) {
	q := historyValues("", false, limit)
	if status != "" {
		q.Set("status", status)
	}
	var out struct {
		Conflicts []Conflict `json:"conflicts"`
	}
	_, err := c.do(ctx, "GET", "/v1/users/"+pathEscape(userID)+"/conflicts", q, nil, &out)
	return out.Conflicts, err
}

// ResolveConflict keeps the "new" or the "old" fact of a conflict.
func (c *Client) ResolveConflict(ctx context.Context, conflictID, winner, note string) (Conflict, error) {
	var out Conflict
	body := map[string]string{"winner": winner}
	if note != "" {
		body["note"] = note
	}
	_, err := c.do(ctx, "POST", "/v1/conflicts/"+pathEscape(conflictID)+"/resolve", nil, body, &out)
	return out, err
}

// AddFact adds a fact directly, judged by the same rules as extracted ones.
func (c *Client) AddFact(ctx context.Context, userID string, f NewFact) (EditResult, error) {
	var out EditResult
	_, err := c.do(ctx, "POST", "/v1/users/"+pathEscape(userID)+"/facts", nil, f, &out)
	return out, err
}

// Fact returns one fact, whatever its status, with its edits.
func (c *Client) Fact(ctx context.Context, factID string) (FactDetail, error) {
	var out FactDetail
	_, err := c.do(ctx, "GET", "/v1/facts/"+pathEscape(factID), nil, nil, &out)
	return out, err
}

// CorrectFact supersedes a current fact with a corrected version.
func (c *Client) CorrectFact(ctx context.Context, factID string, ch FactChange) (EditResult, error) {
	var out EditResult
	_, err := c.do(ctx, "PATCH", "/v1/facts/"+pathEscape(factID), nil, ch, &out)
	return out, err
}

// Marks pin a memory or give it an importance (low, normal, high,
// critical); nil leaves a mark as it is.
type Marks struct {
	Pinned     *bool   `json:"pinned,omitempty"`
	Importance *string `json:"importance,omitempty"`
	Actor      string  `json:"actor,omitempty"`
}

// Marked is a memory's marks after a change.
type Marked struct {
	Kind       string    `json:"kind"`
	ID         string    `json:"id"`
	UserID     string    `json:"user_id"`
	Pinned     bool      `json:"pinned"`
	Importance string    `json:"importance"`
	MarkedAt   time.Time `json:"marked_at"`
	MarkedBy   string    `json:"marked_by,omitempty"`
}

// Mark pins (or unpins) a fact, an insight or a summary, or sets its
// importance (kind "fact", "insight" or "summary"): PATCH of the memory.
func (c *Client) Mark(ctx context.Context, kind, id string, m Marks) (Marked, error) {
	path := map[string]string{"fact": "/v1/facts/", "insight": "/v1/insights/", "summary": "/v1/summaries/"}[kind]
	if path == "" {
		return Marked{}, fmt.Errorf("graphmem: mark: kind %q (fact, insight or summary)", kind)
	}
	var out Marked
	_, err := c.do(ctx, "PATCH", path+pathEscape(id), nil, m, &out)
	return out, err
}

// RetractFact withdraws a fact (kept in history as retracted, or purged).
func (c *Client) RetractFact(ctx context.Context, factID string, r Retraction) (EditResult, error) {
	q := url.Values{}
	if r.Purge {
		q.Set("purge", "true")
	}
	if r.Actor != "" {
		q.Set("actor", r.Actor)
	}
	if r.Reason != "" {
		q.Set("reason", r.Reason)
	}
	var out EditResult
	_, err := c.do(ctx, "DELETE", "/v1/facts/"+pathEscape(factID), q, nil, &out)
	return out, err
}

// Ready reports whether the service is ready (nil) or why not (a Problem).
func (c *Client) Ready(ctx context.Context) error {
	_, err := c.do(ctx, "GET", "/readyz", nil, nil, nil)
	return err
}
