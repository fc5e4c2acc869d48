package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/graphmem/graphmem/memory"
)

// SessionService is what the session routes need.
type SessionService interface {
	Append(ctx context.Context, tenant, sessionID string, in memory.AppendInput) (memory.AppendOutput, error)
	GetSession(ctx context.Context, tenant, sessionID string) (memory.Session, error)
	ListEvents(ctx context.Context, tenant, sessionID string, afterSeq int64, limit int, includeForgotten bool) ([]memory.Event, error)
	View(ctx context.Context, tenant, sessionID string, in memory.ViewInput) (memory.ViewOutput, error)
	Condensations(ctx context.Context, tenant, sessionID string) ([]memory.Condensation, error)
	RequestCondensation(ctx context.Context, tenant, sessionID string) (memory.Appended, error)
	Condense(ctx context.Context, tenant, sessionID, profile string) (memory.ViewOutput, error)
	Close(ctx context.Context, tenant, sessionID string, wait bool) (memory.CloseOutput, error)
}

// --- DTOs ---------------------------------------------------------------

// eventIn is one event to append. OccurredAt is a string parsed by the
// handler (parseInstant), not a *time.Time: encoding/json would turn
// "yesterday" into a *time.ParseError that names no field (a 500).
type eventIn struct {
	ID         string         `json:"id" binding:"omitempty,ident"`
	Kind       string         `json:"kind" binding:"required,oneof=message tool_call tool_result observation condensation_request"`
	Role       string         `json:"role" binding:"omitempty,oneof=system user assistant tool"`
	Name       string         `json:"name" binding:"max=200"`
	Content    string         `json:"content"`
	ToolCallID string         `json:"tool_call_id" binding:"max=200"`
	BatchID    string         `json:"batch_id" binding:"max=200"`
	URL        string         `json:"url" binding:"omitempty,url,max=2000"`
	OccurredAt string         `json:"occurred_at"`
	Metadata   map[string]any `json:"metadata"`
	Tokens     int            `json:"tokens" binding:"gte=0,lte=100000000"`
}

// maxMetadataDepth bounds how deep an event's metadata nests. Go decodes
// far deeper, but the clients that read events back may not (Python's json
// gives up near 1000 levels), and no real metadata needs more.
const maxMetadataDepth = 32

// jsonDepth is how deep a decoded JSON value nests (a scalar is 0, {} 1).
func jsonDepth(v any) int {
	d := 0
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			d = max(d, jsonDepth(e))
		}
		return d + 1
	case []any:
		for _, e := range x {
			d = max(d, jsonDepth(e))
		}
		return d + 1
	}
	return 0
}

type appendRequest struct {
	UserID  string    `json:"user_id" binding:"required,ident"`
	AgentID string    `json:"agent_id" binding:"omitempty,ident"`
	Events  []eventIn `json:"events" binding:"required,min=1,max=2000,dive"`
}

type appendedOut struct {
	ID        string `json:"id"`
	Seq       int64  `json:"seq"`
	Duplicate bool   `json:"duplicate"`
}

type appendResponse struct {
	SessionID string        `json:"session_id"`
	Events    []appendedOut `json:"events"`
	LastSeq   int64         `json:"last_seq"`
	Created   bool          `json:"created"`
	Reopened  bool          `json:"reopened"`
}

type eventOut struct {
	ID         string         `json:"id"`
	Seq        int64          `json:"seq,omitempty"`
	Kind       string         `json:"kind"`
	Role       string         `json:"role,omitempty"`
	Name       string         `json:"name,omitempty"`
	Content    string         `json:"content"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
	BatchID    string         `json:"batch_id,omitempty"`
	URL        string         `json:"url,omitempty"`
	Metadata   map[string]any `json:"metadata,omitempty"`
	Tokens     int            `json:"tokens"`
	OccurredAt *time.Time     `json:"occurred_at,omitempty"`
	RecordedAt *time.Time     `json:"recorded_at,omitempty"`
	Forgotten  *bool          `json:"forgotten,omitempty"`
}

type eventsResponse struct {
	Events       []eventOut `json:"events"`
	NextAfterSeq *int64     `json:"next_after_seq"`
}

type sessionOut struct {
	ID         string     `json:"id"`
	UserID     string     `json:"user_id"`
	AgentID    string     `json:"agent_id,omitempty"`
	Status     string     `json:"status"`
	LastSeq    int64      `json:"last_seq"`
	EventCount int64      `json:"event_count"`
	CreatedAt  time.Time  `json:"created_at"`
	UpdatedAt  time.Time  `json:"updated_at"`
	ClosedAt   *time.Time `json:"closed_at,omitempty"`
}

type listEventsQuery struct {
	AfterSeq         int64 `form:"after_seq" binding:"gte=0"`
	Limit            int   `form:"limit" binding:"omitempty,gte=1,lte=1000"`
	IncludeForgotten bool  `form:"include_forgotten"`
}

type viewRequest struct {
	MaxEvents int    `json:"max_events" binding:"gte=0,lte=100000"`
	MaxTokens int    `json:"max_tokens" binding:"gte=0,lte=10000000"`
	Profile   string `json:"profile" binding:"omitempty,ident"`
	DryRun    bool   `json:"dry_run"`
}

type condenseRequest struct {
	Profile string `json:"profile" binding:"omitempty,ident"`
}

type condensationOut struct {
	ID            string          `json:"id"`
	Kind          string          `json:"kind"`
	Seq           *int64          `json:"seq,omitempty"`
	Summary       string          `json:"summary"`
	SummaryOffset *int            `json:"summary_offset,omitempty"`
	ForgottenIDs  []string        `json:"forgotten_ids"`
	CoveredIDs    []string        `json:"covered_event_ids"`
	Strategy      string          `json:"strategy,omitempty"`
	Reasons       []string        `json:"reasons,omitempty"`
	Requirement   string          `json:"requirement,omitempty"`
	Summarizer    string          `json:"summarizer,omitempty"`
	Config        json.RawMessage `json:"config,omitempty"`
	TokensBefore  int             `json:"tokens_before"`
	TokensAfter   int             `json:"tokens_after"`
	EventsBefore  int             `json:"events_before"`
	EventsAfter   int             `json:"events_after"`
	LLMCalls      int             `json:"llm_calls"`
	DurationMS    int64           `json:"duration_ms"`
	CreatedAt     time.Time       `json:"created_at"`
	ExtractedAt   *time.Time      `json:"extracted_at,omitempty"`
}

type viewResponse struct {
	SessionID              string            `json:"session_id"`
	Events                 []eventOut        `json:"events"`
	Tokens                 int               `json:"tokens"`
	HeadSeq                int64             `json:"head_seq"`
	UnhandledRequest       bool              `json:"unhandled_condensation_request"`
	AppliedCondensationIDs []string          `json:"applied_condensation_ids"`
	NewCondensations       []condensationOut `json:"new_condensations"`
	Trimmed                int               `json:"trimmed"`
	Profile                string            `json:"profile"`
	Deferred               string            `json:"deferred,omitempty"`
}

type closeQuery struct {
	Wait bool `form:"wait"`
}

type closeResponse struct {
	SessionID string   `json:"session_id"`
	Status    string   `json:"status"`
	Done      bool     `json:"done"`
	Jobs      []jobOut `json:"jobs"`
}

// --- handlers -----------------------------------------------------------

func (s *server) appendEvents(c *gin.Context) {
	sessionID, req, ok := pathAndBody[appendRequest](s, c, "session_id")
	if !ok {
		return
	}
	in := memory.AppendInput{UserID: req.UserID, AgentID: req.AgentID, Events: make([]memory.NewEvent, len(req.Events))}
	for i, e := range req.Events {
		ne := memory.NewEvent{ID: e.ID, Kind: e.Kind, Role: e.Role, Name: e.Name, Content: e.Content,
			ToolCallID: e.ToolCallID, BatchID: e.BatchID, URL: e.URL, Metadata: e.Metadata, Tokens: e.Tokens}
		if jsonDepth(e.Metadata) > maxMetadataDepth {
			s.fail(c, invalidField(fmt.Sprintf("events[%d].metadata", i), "max_depth",
				fmt.Sprintf("may nest objects and arrays at most %d levels deep", maxMetadataDepth)))
			return
		}
		at, err := parseInstant(fmt.Sprintf("events[%d].occurred_at", i), e.OccurredAt)
		if err != nil {
			s.fail(c, err)
			return
		}
		if at != nil {
			ne.OccurredAt = *at
		}
		in.Events[i] = ne
	}
	out, err := s.deps.Sessions.Append(c.Request.Context(), tenantOf(c), sessionID, in)
	if err != nil {
		s.fail(c, err)
		return
	}
	resp := appendResponse{SessionID: out.SessionID, LastSeq: out.LastSeq, Created: out.Created, Reopened: out.Reopened,
		Events: make([]appendedOut, len(out.Events))}
	status := http.StatusOK
	for i, a := range out.Events {
		resp.Events[i] = appendedOut{ID: a.ID, Seq: a.Seq, Duplicate: a.Duplicate}
		if !a.Duplicate {
			status = http.StatusCreated
		}
	}
	c.JSON(status, resp)
}

func (s *server) getSession(c *gin.Context) {
	sessionID, err := pathIdent(c, "session_id")
	if err != nil {
		s.fail(c, err)
		return
	}
	sess, err := s.deps.Sessions.GetSession(c.Request.Context(), tenantOf(c), sessionID)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, toSessionOut(sess))
}

func (s *server) listEvents(c *gin.Context) {
	sessionID, q, ok := pathAndQuery[listEventsQuery](s, c, "session_id")
	if !ok {
		return
	}
	if q.Limit == 0 {
		q.Limit = 100
	}
	events, err := s.deps.Sessions.ListEvents(c.Request.Context(), tenantOf(c), sessionID, q.AfterSeq, q.Limit, q.IncludeForgotten)
	if err != nil {
		s.fail(c, err)
		return
	}
	resp := eventsResponse{Events: make([]eventOut, len(events))}
	for i, e := range events {
		resp.Events[i] = toEventOut(e, q.IncludeForgotten)
	}
	if len(events) == q.Limit {
		next := events[len(events)-1].Seq
		resp.NextAfterSeq = &next
	}
	c.JSON(http.StatusOK, resp)
}

func (s *server) sessionView(c *gin.Context) {
	sessionID, req, ok := pathAndBody[viewRequest](s, c, "session_id")
	if !ok {
		return
	}
	out, err := s.deps.Sessions.View(c.Request.Context(), tenantOf(c), sessionID, memory.ViewInput{
		MaxEvents: req.MaxEvents, MaxTokens: req.MaxTokens, Profile: req.Profile, DryRun: req.DryRun})
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, toViewResponse(sessionID, out))
}

func (s *server) condense(c *gin.Context) {
	sessionID, req, ok := pathAndBody[condenseRequest](s, c, "session_id")
	if !ok {
		return
	}
	out, err := s.deps.Sessions.Condense(c.Request.Context(), tenantOf(c), sessionID, req.Profile)
	if err != nil {
		s.fail(c, err)
		return
	}
	status := http.StatusOK
	if len(out.NewCondensations) > 0 {
		status = http.StatusCreated
	}
	c.JSON(status, toViewResponse(sessionID, out))
}

func (s *server) listCondensations(c *gin.Context) {
	sessionID, err := pathIdent(c, "session_id")
	if err != nil {
		s.fail(c, err)
		return
	}
	list, err := s.deps.Sessions.Condensations(c.Request.Context(), tenantOf(c), sessionID)
	if err != nil {
		s.fail(c, err)
		return
	}
	out := make([]condensationOut, len(list))
	for i, cd := range list {
		out[i] = toCondensationOut(cd)
	}
	c.JSON(http.StatusOK, gin.H{"session_id": sessionID, "condensations": out})
}

func (s *server) requestCondensation(c *gin.Context) {
	// No body is needed; one that is sent must be {} (a field here is a
	// client's mistake, as on every other endpoint).
	sessionID, _, ok := pathAndBody[struct{}](s, c, "session_id")
	if !ok {
		return
	}
	a, err := s.deps.Sessions.RequestCondensation(c.Request.Context(), tenantOf(c), sessionID)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusCreated, appendedOut{ID: a.ID, Seq: a.Seq})
}

func (s *server) closeSession(c *gin.Context) {
	sessionID, q, ok := pathAndQuery[closeQuery](s, c, "session_id")
	if !ok {
		return
	}
	out, err := s.deps.Sessions.Close(c.Request.Context(), tenantOf(c), sessionID, q.Wait)
	if err != nil {
		s.fail(c, err)
		return
	}
	resp := closeResponse{SessionID: sessionID, Status: string(out.Status), Done: out.Done, Jobs: make([]jobOut, len(out.Jobs))}
	for i, j := range out.Jobs {
		resp.Jobs[i] = toJobOut(j)
	}
	status := http.StatusAccepted
	if out.Done {
		status = http.StatusOK
	}
	c.JSON(status, resp)
}

// --- converters -----------------------------------------------------------

func toEventOut(e memory.Event, withForgotten bool) eventOut {
	out := eventOut{ID: e.ID, Seq: e.Seq, Kind: e.Kind, Role: e.Role, Name: e.Name, Content: e.Content,
		ToolCallID: e.ToolCallID, BatchID: e.BatchID, URL: e.URL, Metadata: e.Metadata, Tokens: e.Tokens,
		OccurredAt: timePtr(e.OccurredAt), RecordedAt: timePtr(e.RecordedAt)}
	if withForgotten {
		f := e.Forgotten
		out.Forgotten = &f
	}
	return out
}

func toSessionOut(s memory.Session) sessionOut {
	return sessionOut{ID: s.ID, UserID: s.UserID, AgentID: s.AgentID, Status: string(s.Status), LastSeq: s.LastSeq,
		EventCount: s.EventCount, CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt, ClosedAt: timePtr(s.ClosedAt)}
}

func toCondensationOut(c memory.Condensation) condensationOut {
	out := condensationOut{ID: c.ID, Kind: c.Kind, Summary: c.Summary, SummaryOffset: c.SummaryOffset,
		ForgottenIDs: nonNil(c.ForgottenIDs), CoveredIDs: nonNil(c.CoveredIDs), Strategy: c.Strategy, Reasons: c.Reasons,
		Requirement: c.Requirement, Summarizer: c.Summarizer, Config: c.Config, TokensBefore: c.TokensBefore,
		TokensAfter: c.TokensAfter, EventsBefore: c.EventsBefore, EventsAfter: c.EventsAfter, LLMCalls: c.LLMCalls,
		DurationMS: c.DurationMS, CreatedAt: c.CreatedAt, ExtractedAt: timePtr(c.ExtractedAt)}
	if c.Seq > 0 {
		seq := c.Seq
		out.Seq = &seq
	}
	return out
}

func toViewResponse(sessionID string, v memory.ViewOutput) viewResponse {
	out := viewResponse{SessionID: sessionID, Events: make([]eventOut, len(v.Events)), Tokens: v.Tokens, HeadSeq: v.HeadSeq,
		UnhandledRequest: v.UnhandledRequest, AppliedCondensationIDs: nonNil(v.AppliedCondensationIDs),
		NewCondensations: make([]condensationOut, len(v.NewCondensations)), Trimmed: v.Trimmed, Profile: v.Profile,
		Deferred: v.Deferred}
	for i, e := range v.Events {
		out.Events[i] = toEventOut(e, false)
	}
	for i, c := range v.NewCondensations {
		out.NewCondensations[i] = toCondensationOut(c)
	}
	return out
}

func timePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// pathIdent reads a path parameter that must be an identifier.
func pathIdent(c *gin.Context, name string) (string, error) {
	v := c.Param(name)
	if !identPattern.MatchString(v) {
		return "", invalidField(name, "ident", identMessage)
	}
	return v, nil
}
