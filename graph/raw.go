package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/dbtype"

	"github.com/graphmem/graphmem/errs"
)

// Session is one conversation of one user.
type Session struct {
	ID         string
	UserID     string
	AgentID    string
	Status     SessionStatus
	LastSeq    int64
	EventCount int64
	CreatedAt  time.Time
	UpdatedAt  time.Time
	ClosedAt   time.Time
}

// RawKind is what a raw event is; clients send these kinds, and graphmem
// stores them as sent.
type RawKind string

// Raw event kinds.
const (
	RawMessage     RawKind = "message"
	RawToolCall    RawKind = "tool_call"
	RawToolResult  RawKind = "tool_result"
	RawObservation RawKind = "observation"
	// RawCondensationRequest asks the next view to condense; it carries no
	// content and is neither searched nor extracted.
	RawCondensationRequest RawKind = "condensation_request"
)

// SessionStatus says whether a session is open to appends and views or
// closed (condensed and extracted; an append reopens it).
type SessionStatus string

// Session statuses.
const (
	SessionOpen   SessionStatus = "open"
	SessionClosed SessionStatus = "closed"
)

// NewRawEvent is an event to append to the raw tier.
type NewRawEvent struct {
	ID         string // required: the client's id or one the caller generated
	Kind       RawKind
	Role       string
	Name       string
	Content    string
	Text       string // the searchable text (speaker, content, captions); defaults to Content
	ToolCallID string
	BatchID    string
	URL        string
	Metadata   map[string]any
	Tokens     int
	OccurredAt time.Time
}

// RawEvent is a stored raw-tier event. Stored events are never rewritten.
type RawEvent struct {
	NewRawEvent
	Seq        int64
	SessionID  string
	UserID     string
	AgentID    string
	RecordedAt time.Time
	// Stale is set when every fact read from the event was superseded.
	Stale bool
	// StaleBy and StaleBySession name the turn the current fact that
	// superseded the event's was read from, when there is one.
	StaleBy, StaleBySession string
	// StalePredicates are the fact types read from the event whose facts
	// are all superseded, when others are still current
	// (CurrentPredicates): the event is stale for those types only.
	StalePredicates, CurrentPredicates []string
}

// Appended is the outcome for one event of a batch.
type Appended struct {
	ID        string
	Seq       int64
	Duplicate bool // an event with this id was already stored; nothing changed
}

// AppendResult is the outcome of one batch.
type AppendResult struct {
	Events   []Appended
	LastSeq  int64
	Created  bool // the session did not exist before
	Reopened bool // the session was closed and this append reopened it
}

// AppendEvents stores a batch of raw events at the end of a session, in
// order, creating the session on first use. It is idempotent per event id:
// an id already stored in the session with the same kind, role and content
// is reported as a duplicate and left untouched (raw events are immutable);
// the same id with other content is ErrConflict, and nothing of the batch
// is stored. A session belongs to one user; appending as another user is
// ErrConflict.
//
// The session node is write-locked for the transaction, so concurrent
// appends to one session serialize and sequence numbers never collide.
func (s *Store) AppendEvents(ctx context.Context, tenant, sessionID, userID, agentID string, events []NewRawEvent) (AppendResult, error) {
	if len(events) == 0 {
		return AppendResult{}, fmt.Errorf("append events: %w: empty batch", ErrInvalid)
	}
	return writeTx(ctx, s, "raw.append", func(tx neo4j.ManagedTransaction) (AppendResult, error) {
		var out AppendResult
		now := time.Now().UTC()
		recs, err := lockSession(ctx, tx, map[string]any{"tenant": tenant, "session": sessionID,
			"user": userID, "agent": nilIfEmpty(agentID), "now": now})
		if err != nil {
			return out, err
		}
		if len(recs) != 1 {
			return out, errNoRecords
		}
		owner, _ := get[string](recs[0], "user_id")
		if owner != userID {
			return out, errs.Conflict("session %q belongs to another user", sessionID)
		}
		lastSeq, _ := get[int64](recs[0], "last_seq")
		status, _ := get[string](recs[0], "status")
		out.Created, _ = get[bool](recs[0], "created")

		ids := make([]string, len(events))
		for i, e := range events {
			ids[i] = e.ID
		}
		recs, err = runTx(ctx, tx, planOnce+`
			MATCH (r:Raw {tenant: $tenant, session_id: $session}) WHERE r.id IN $ids
			RETURN r.id AS id, r.seq AS seq, r.kind AS kind, coalesce(r.role, '') AS role, r.content AS content`,
			map[string]any{"tenant": tenant, "session": sessionID, "ids": ids})
		if err != nil {
			return out, err
		}
		known := make(map[string]int64, len(recs))
		stored := make(map[string][3]string, len(recs)+len(events))
		for _, rec := range recs {
			id, _ := get[string](rec, "id")
			seq, _ := get[int64](rec, "seq")
			kind, _ := get[string](rec, "kind")
			role, _ := get[string](rec, "role")
			content, _ := get[string](rec, "content")
			known[id], stored[id] = seq, [3]string{kind, role, content}
		}

		scope := scopeToken(tenant, userID)
		rows := make([]map[string]any, 0, len(events))
		for _, e := range events {
			if seq, dup := known[e.ID]; dup {
				// A re-send is a duplicate; the same id with other content
				// is a client bug that first-write-wins would hide.
				if stored[e.ID] != [3]string{string(e.Kind), e.Role, e.Content} {
					return out, errs.Conflict("event %q is already stored in session %q with other content; raw events are immutable, so send new content under a new id",
						e.ID, sessionID)
				}
				out.Events = append(out.Events, Appended{ID: e.ID, Seq: seq, Duplicate: true})
				continue
			}
			lastSeq++
			known[e.ID], stored[e.ID] = lastSeq, [3]string{string(e.Kind), e.Role, e.Content}
			row, err := rawRow(e, lastSeq)
			if err != nil {
				return out, err
			}
			rows = append(rows, row)
			out.Events = append(out.Events, Appended{ID: e.ID, Seq: lastSeq})
		}
		out.LastSeq = lastSeq
		if len(rows) == 0 {
			return out, nil
		}
		_, err = runTx(ctx, tx, planOnce+`
			MATCH (s:Session {tenant: $tenant, id: $session})
			UNWIND $rows AS e
			CREATE (r:Memory:Raw:Unembedded {
			  tenant: $tenant, session_id: $session, user_id: $user, agent_id: $agent, scope: $scope,
			  id: e.id, seq: e.seq, kind: e.kind, role: e.role, name: e.name, content: e.content,
			  text: e.text, tool_call_id: e.tool_call_id, batch_id: e.batch_id, url: e.url,
			  metadata: e.metadata, tokens: e.tokens, occurred_at: e.occurred_at, recorded_at: $now, embed_queued_at: $now})
			CREATE (s)-[:CONTAINS {tenant: $tenant}]->(r)
			WITH s, count(r) AS n
			SET s.last_seq = $last_seq, s.event_count = s.event_count + n, s.status = 'open', s.closed_at = null`,
			map[string]any{"tenant": tenant, "session": sessionID, "user": userID, "agent": nilIfEmpty(agentID),
				"scope": scope, "rows": rows, "now": now, "last_seq": lastSeq})
		if err != nil {
			return out, err
		}
		out.Reopened = SessionStatus(status) == SessionClosed
		return out, nil
	})
}

// lockSession write-locks the session node for the rest of the transaction
// and returns its owner and last seq. An existing session is locked with
// MATCH ... SET, which takes the exclusive lock at once; MERGE would first
// take a shared lock and upgrade it, and concurrent appends would deadlock
// and back off. MERGE runs only for a session's first append.
func lockSession(ctx context.Context, tx neo4j.ManagedTransaction, params map[string]any) ([]*neo4j.Record, error) {
	recs, err := runTx(ctx, tx, planOnce+`
		MATCH (s:Session {tenant: $tenant, id: $session})
		SET s.updated_at = $now
		RETURN s.user_id AS user_id, s.last_seq AS last_seq, s.status AS status, false AS created`, params)
	if err != nil || len(recs) > 0 {
		return recs, err
	}
	return runTx(ctx, tx, planOnce+`
		MERGE (s:Session {tenant: $tenant, id: $session})
		ON CREATE SET s.user_id = $user, s.agent_id = $agent, s.created_at = $now,
		              s.last_seq = 0, s.event_count = 0, s.status = 'open', s.created = true
		SET s.updated_at = $now
		WITH s, coalesce(s.created, false) AS created
		REMOVE s.created
		RETURN s.user_id AS user_id, s.last_seq AS last_seq, s.status AS status, created`, params)
}

func rawRow(e NewRawEvent, seq int64) (map[string]any, error) {
	var meta any
	if len(e.Metadata) > 0 {
		b, err := json.Marshal(e.Metadata)
		if err != nil {
			return nil, errs.Invalid("body", "invalid", "metadata of event %q: %v", e.ID, err)
		}
		meta = string(b)
	}
	text := e.Text
	if text == "" {
		text = e.Content
	}
	return map[string]any{
		"id": e.ID, "seq": seq, "kind": string(e.Kind), "role": nilIfEmpty(e.Role), "name": nilIfEmpty(e.Name),
		"content": e.Content, "text": text, "tool_call_id": nilIfEmpty(e.ToolCallID),
		"batch_id": nilIfEmpty(e.BatchID), "url": nilIfEmpty(e.URL), "metadata": meta,
		"tokens": int64(e.Tokens), "occurred_at": e.OccurredAt.UTC(),
	}, nil
}

// GetSession returns a session of the tenant, or ErrNotFound.
func (s *Store) GetSession(ctx context.Context, tenant, sessionID string) (Session, error) {
	res, err := s.read(ctx, "session.get",
		`MATCH (s:Session {tenant: $tenant, id: $session}) RETURN s`,
		map[string]any{"tenant": tenant, "session": sessionID})
	if err != nil {
		return Session{}, err
	}
	if len(res.Records) == 0 {
		return Session{}, errs.NotFound("session %q", sessionID)
	}
	return decodeSession(res.Records[0])
}

// ListEvents returns up to limit raw events of a session with seq > afterSeq,
// in session order. An unknown session yields ErrNotFound.
func (s *Store) ListEvents(ctx context.Context, tenant, sessionID string, afterSeq int64, limit int) ([]RawEvent, error) {
	res, err := s.read(ctx, "raw.list", `
		MATCH (s:Session {tenant: $tenant, id: $session})
		OPTIONAL MATCH (r:Raw {tenant: $tenant, session_id: $session}) WHERE r.seq > $after
		WITH s, r ORDER BY r.seq LIMIT $limit
		RETURN s.id AS session, collect(r) AS events`,
		map[string]any{"tenant": tenant, "session": sessionID, "after": afterSeq, "limit": int64(limit)})
	if err != nil {
		return nil, err
	}
	if len(res.Records) == 0 {
		return nil, errs.NotFound("session %q", sessionID)
	}
	nodes, _ := get[[]any](res.Records[0], "events")
	out := make([]RawEvent, 0, len(nodes))
	for _, n := range nodes {
		node, ok := n.(dbtype.Node)
		if !ok {
			continue
		}
		ev, err := decodeRaw(node.Props)
		if err != nil {
			return nil, fmt.Errorf("list events: %w", err)
		}
		out = append(out, ev)
	}
	return out, nil
}

func decodeSession(rec *neo4j.Record) (Session, error) {
	raw, ok := rec.Get("s")
	node, isNode := raw.(dbtype.Node)
	if !ok || !isNode {
		return Session{}, fmt.Errorf("decode session: %w", errNoRecords)
	}
	p := node.Props
	return Session{
		ID: str(p, "id"), UserID: str(p, "user_id"), AgentID: str(p, "agent_id"), Status: SessionStatus(str(p, "status")),
		LastSeq: i64(p, "last_seq"), EventCount: i64(p, "event_count"),
		CreatedAt: tm(p, "created_at"), UpdatedAt: tm(p, "updated_at"), ClosedAt: tm(p, "closed_at"),
	}, nil
}

func decodeRaw(p map[string]any) (RawEvent, error) {
	ev := RawEvent{
		NewRawEvent: NewRawEvent{
			ID: str(p, "id"), Kind: RawKind(str(p, "kind")), Role: str(p, "role"), Name: str(p, "name"),
			Content: str(p, "content"), Text: str(p, "text"), ToolCallID: str(p, "tool_call_id"),
			BatchID: str(p, "batch_id"), URL: str(p, "url"), Tokens: int(i64(p, "tokens")),
			OccurredAt: tm(p, "occurred_at"),
		},
		Seq: i64(p, "seq"), SessionID: str(p, "session_id"), UserID: str(p, "user_id"),
		AgentID: str(p, "agent_id"), RecordedAt: tm(p, "recorded_at"),
	}
	ev.Stale, _ = p["stale"].(bool)
	ev.StaleBy, ev.StaleBySession = str(p, "stale_by"), str(p, "stale_by_session")
	ev.StalePredicates, ev.CurrentPredicates = strs(p, "stale_predicates"), strs(p, "current_predicates")
	if m := str(p, "metadata"); m != "" {
		if err := json.Unmarshal([]byte(m), &ev.Metadata); err != nil {
			return ev, fmt.Errorf("metadata of event %q: %w", ev.ID, err)
		}
	}
	return ev, nil
}

// Property readers: a missing property (Neo4j stores no nulls) is the zero value.
func str(p map[string]any, k string) string { v, _ := p[k].(string); return v }
func i64(p map[string]any, k string) int64  { v, _ := p[k].(int64); return v }
func f64(p map[string]any, k string) float64 {
	switch v := p[k].(type) {
	case float64:
		return v
	case int64:
		return float64(v)
	}
	return 0
}

func tm(p map[string]any, k string) time.Time {
	switch v := p[k].(type) {
	case time.Time:
		return v.UTC()
	case dbtype.LocalDateTime:
		return v.Time().UTC()
	}
	return time.Time{}
}

func strs(p map[string]any, k string) []string {
	raw, _ := p[k].([]any)
	out := make([]string, 0, len(raw))
	for _, v := range raw {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// SessionRef identifies a session across tenants, for background sweeps.
type SessionRef struct {
	Tenant  string
	ID      string
	UserID  string
	LastSeq int64
}

// IdleSessions lists open sessions of every tenant not touched since
// before, oldest first: sessions an agent abandoned without closing, which
// the sweeper closes so their events still reach extraction.
func (s *Store) IdleSessions(ctx context.Context, before time.Time, limit int) ([]SessionRef, error) {
	res, err := s.read(ctx, "session.idle", `
		MATCH (s:Session) WHERE s.status = 'open' AND s.updated_at < $before
		RETURN s.tenant AS tenant, s.id AS id, s.user_id AS user_id, s.last_seq AS last_seq
		ORDER BY s.updated_at LIMIT $limit`,
		map[string]any{"before": before.UTC(), "limit": int64(limit)})
	if err != nil {
		return nil, err
	}
	out := make([]SessionRef, 0, len(res.Records))
	for _, rec := range res.Records {
		var r SessionRef
		r.Tenant, _ = get[string](rec, "tenant")
		r.ID, _ = get[string](rec, "id")
		r.UserID, _ = get[string](rec, "user_id")
		r.LastSeq, _ = get[int64](rec, "last_seq")
		out = append(out, r)
	}
	return out, nil
}
