package memory

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/graphmem/graphmem/condenser"
	"github.com/graphmem/graphmem/errs"
	"github.com/graphmem/graphmem/graph"
)

// Event kinds a client may send. Summaries are produced by graphmem and
// condensation requests have their own endpoint, but a client may also
// send a condensation_request in a batch, as OpenHands' agent does.
var clientKinds = []graph.RawKind{graph.RawMessage, graph.RawToolCall, graph.RawToolResult, graph.RawObservation,
	graph.RawCondensationRequest}

// NewEvent is one event a client appends.
type NewEvent struct {
	ID         string
	Kind       string
	Role       string
	Name       string
	Content    string
	ToolCallID string
	BatchID    string
	URL        string
	Metadata   map[string]any
	Tokens     int
	OccurredAt time.Time // zero means now
}

// AppendInput is a batch for one session.
type AppendInput struct {
	UserID  string
	AgentID string
	Events  []NewEvent
}

// Appended reports one event of a batch.
type Appended struct {
	ID        string
	Seq       int64
	Duplicate bool
}

// AppendOutput reports a batch.
type AppendOutput struct {
	SessionID string
	Events    []Appended
	LastSeq   int64
	Created   bool
	Reopened  bool
}

// Event is a stored event as clients read it back.
type Event struct {
	ID         string
	SessionID  string
	Seq        int64
	Kind       string
	Role       string
	Name       string
	Content    string
	ToolCallID string
	BatchID    string
	URL        string
	Metadata   map[string]any
	Tokens     int
	OccurredAt time.Time
	RecordedAt time.Time
	// Forgotten is set when the event is no longer in the session's view
	// (a condensation summarized it); it is still stored, whole.
	Forgotten bool
}

// Session describes a session.
type Session struct {
	ID         string
	UserID     string
	AgentID    string
	Status     graph.SessionStatus
	LastSeq    int64
	EventCount int64
	CreatedAt  time.Time
	UpdatedAt  time.Time
	ClosedAt   time.Time
}

// maxBatch bounds one append; bigger imports go in several requests.
const maxBatch = 2000

// Append stores a batch of events at the end of a session. Events are
// validated as a whole first, so a bad event rejects the batch and nothing
// is written; ids the client gave make re-sends idempotent.
func (s *Service) Append(ctx context.Context, tenant, sessionID string, in AppendInput) (AppendOutput, error) {
	if err := validateAppend(in); err != nil {
		return AppendOutput{}, err
	}
	rows := make([]graph.NewRawEvent, len(in.Events))
	for i, e := range in.Events {
		id := e.ID
		if id == "" {
			id = newID("ev_")
		}
		tokens := e.Tokens
		if tokens <= 0 && e.Content != "" {
			tokens = s.counter.Count(e.Content)
		}
		rows[i] = graph.NewRawEvent{
			ID: id, Kind: graph.RawKind(e.Kind), Role: e.Role, Name: e.Name, Content: e.Content,
			Text: searchText(e.Name, e.Content, e.Metadata), ToolCallID: e.ToolCallID, BatchID: e.BatchID,
			URL: e.URL, Metadata: e.Metadata, Tokens: tokens, OccurredAt: utcOr(e.OccurredAt, s.now),
		}
	}
	res, err := s.sessions.AppendEvents(ctx, tenant, sessionID, in.UserID, in.AgentID, rows)
	if err != nil {
		return AppendOutput{}, fmt.Errorf("append to session %q: %w", sessionID, err)
	}
	out := AppendOutput{SessionID: sessionID, LastSeq: res.LastSeq, Created: res.Created, Reopened: res.Reopened}
	fresh := false
	for _, a := range res.Events {
		out.Events = append(out.Events, Appended{ID: a.ID, Seq: a.Seq, Duplicate: a.Duplicate})
		fresh = fresh || !a.Duplicate
	}
	if fresh {
		s.notifyStored()
	}
	return out, nil
}

// validateAppend checks what struct tags cannot: kinds and roles that
// depend on each other, duplicate ids inside one batch.
func validateAppend(in AppendInput) error {
	var fields []errs.FieldError
	add := func(field, rule, format string, args ...any) {
		fields = append(fields, errs.FieldError{Field: field, Rule: rule, Message: fmt.Sprintf(format, args...)})
	}
	if len(in.Events) == 0 {
		add("events", "min", "must hold at least one event")
	}
	if len(in.Events) > maxBatch {
		add("events", "max", "holds %d events; send at most %d per request", len(in.Events), maxBatch)
	}
	seen := map[string]int{}
	for i, e := range in.Events {
		at := fmt.Sprintf("events[%d]", i)
		kind := graph.RawKind(e.Kind)
		if !slices.Contains(clientKinds, kind) {
			add(at+".kind", "oneof", "must be one of: message, tool_call, tool_result, observation, condensation_request")
		}
		if kind == graph.RawMessage && e.Role == "" {
			add(at+".role", "required", "is required for a message (system, user or assistant)")
		}
		if (kind == graph.RawToolCall || kind == graph.RawToolResult) && e.ToolCallID == "" {
			add(at+".tool_call_id", "required", "is required for a %s, so the call and its result pair up", e.Kind)
		}
		if kind != graph.RawCondensationRequest && e.Content == "" && kind != graph.RawToolCall {
			add(at+".content", "required", "is required for a %s", e.Kind)
		}
		if e.ID != "" {
			if j, dup := seen[e.ID]; dup {
				add(at+".id", "unique", "repeats the id of events[%d] in the same batch", j)
			}
			seen[e.ID] = i
		}
	}
	if len(fields) > 0 {
		return &errs.ValidationError{Fields: fields}
	}
	return nil
}

// GetSession returns a session.
func (s *Service) GetSession(ctx context.Context, tenant, sessionID string) (Session, error) {
	g, err := s.sessions.GetSession(ctx, tenant, sessionID)
	if err != nil {
		return Session{}, err
	}
	return fromGraphSession(g), nil
}

// ListEvents pages through a session's stored events in order. With
// includeForgotten, every event is listed with its Forgotten flag;
// otherwise only the events still in the view are.
func (s *Service) ListEvents(ctx context.Context, tenant, sessionID string, afterSeq int64, limit int, includeForgotten bool) ([]Event, error) {
	if !includeForgotten {
		log, err := s.sessions.SessionLog(ctx, tenant, sessionID)
		if err != nil {
			return nil, err
		}
		inView := s.viewIDs(log)
		var out []Event
		for _, r := range log.Raw {
			if r.Seq <= afterSeq || !inView[r.ID] {
				continue
			}
			out = append(out, fromRaw(r, false))
			if len(out) == limit {
				break
			}
		}
		return out, nil
	}
	raws, err := s.sessions.ListEvents(ctx, tenant, sessionID, afterSeq, limit)
	if err != nil {
		return nil, err
	}
	var inView map[string]bool
	if len(raws) > 0 {
		log, err := s.sessions.SessionLog(ctx, tenant, sessionID)
		if err != nil {
			return nil, err
		}
		inView = s.viewIDs(log)
	}
	out := make([]Event, len(raws))
	for i, r := range raws {
		out[i] = fromRaw(r, !inView[r.ID])
	}
	return out, nil
}

// viewIDs returns the ids of raw events present in the session's view.
func (s *Service) viewIDs(log graph.SessionLog) map[string]bool {
	view := condenser.BuildView(toCondenserLog(log), s.cfg.ViewMode)
	ids := make(map[string]bool, len(view.Events))
	for _, e := range view.Events {
		ids[e.ID] = true
	}
	return ids
}

func fromGraphSession(g graph.Session) Session {
	return Session{ID: g.ID, UserID: g.UserID, AgentID: g.AgentID, Status: g.Status, LastSeq: g.LastSeq,
		EventCount: g.EventCount, CreatedAt: g.CreatedAt, UpdatedAt: g.UpdatedAt, ClosedAt: g.ClosedAt}
}

func fromRaw(r graph.RawEvent, forgotten bool) Event {
	return Event{ID: r.ID, SessionID: r.SessionID, Seq: r.Seq, Kind: string(r.Kind), Role: r.Role, Name: r.Name,
		Content: r.Content, ToolCallID: r.ToolCallID, BatchID: r.BatchID, URL: r.URL, Metadata: r.Metadata,
		Tokens: r.Tokens, OccurredAt: r.OccurredAt, RecordedAt: r.RecordedAt, Forgotten: forgotten}
}
