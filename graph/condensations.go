package graph

import (
	"context"
	"fmt"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/dbtype"

	"github.com/graphmem/graphmem/errs"
)

// Event-tier node kinds.
const (
	// EventKindCondensation is a condensation: it takes a position (seq) in
	// the session log and changes the view.
	EventKindCondensation = "condensation"
	// EventKindSessionSummary summarizes what no condensation covered when
	// a session closes; it is outside the log and leaves the view alone.
	EventKindSessionSummary = "session_summary"
)

// EventNode is an event-tier node: the summary of a window of raw events.
type EventNode struct {
	ID        string
	SessionID string
	UserID    string
	Kind      string // EventKindCondensation or EventKindSessionSummary
	Seq       int64  // log position of a condensation; 0 for a session summary
	Summary   string
	// Record is the condensation as the condenser wrote it (JSON), enough
	// to rebuild the view without an LLM; empty for session summaries.
	Record         string
	Config         string // JSON snapshot of the condenser config used
	Strategy       string
	SummarizerName string
	ForgottenIDs   []string
	CoveredIDs     []string // raw events this node is the extraction window of
	TokensBefore   int
	TokensAfter    int
	EventsBefore   int
	EventsAfter    int
	LLMCalls       int
	DurationMS     int64
	OccurredFrom   time.Time
	OccurredTo     time.Time
	CreatedAt      time.Time
	ExtractedAt    time.Time
	// Stale is true when every summarized turn that facts were read from
	// has only superseded facts left (refreshStale keeps it).
	Stale bool
}

// NewEventNode is what the orchestration writes for a condensation or a
// session summary.
type NewEventNode struct {
	ID             string
	Kind           string
	Summary        string
	Record         string
	Config         string
	Strategy       string
	SummarizerName string
	ForgottenIDs   []string
	// BasedOnSeq is the newest log position the condensed view folded; a
	// condensation stored after another one based on a newer view is stale
	// and rejected with ErrConflict.
	BasedOnSeq   int64
	TokensBefore int
	TokensAfter  int
	EventsBefore int
	EventsAfter  int
	LLMCalls     int
	DurationMS   int64
	// Cover lists the raw event ids this node summarizes; those not yet
	// covered by another node become its extraction window.
	Cover []string
}

// SessionLog is everything BuildView needs: the raw events (requests
// included) and the stored condensations, each with its log position.
type SessionLog struct {
	Session       Session
	Raw           []RawEvent
	Condensations []EventNode
}

// SessionLog reads a whole session log in seq order.
func (s *Store) SessionLog(ctx context.Context, tenant, sessionID string) (SessionLog, error) {
	res, err := s.read(ctx, "session.log", `
		MATCH (s:Session {tenant: $tenant, id: $session})
		CALL (s) {
		  // seq IS NOT NULL (every raw event has one) lets the planner
		  // seek the (tenant, session_id, seq) index instead of scanning
		  // every :Raw node of the database.
		  MATCH (r:Raw {tenant: $tenant, session_id: $session}) WHERE r.seq IS NOT NULL
		  WITH r ORDER BY r.seq
		  RETURN collect(r) AS raw
		}
		CALL (s) {
		  MATCH (e:Event {tenant: $tenant, session_id: $session, kind: 'condensation'})
		  WITH e ORDER BY e.seq
		  RETURN collect(e) AS condensations
		}
		RETURN s, raw, condensations`,
		map[string]any{"tenant": tenant, "session": sessionID})
	if err != nil {
		return SessionLog{}, err
	}
	if len(res.Records) == 0 {
		return SessionLog{}, errs.NotFound("session %q", sessionID)
	}
	rec := res.Records[0]
	sess, err := decodeSession(rec)
	if err != nil {
		return SessionLog{}, err
	}
	out := SessionLog{Session: sess}
	raws, _ := get[[]any](rec, "raw")
	for _, n := range raws {
		if node, ok := n.(dbtype.Node); ok {
			ev, err := decodeRaw(node.Props)
			if err != nil {
				return out, fmt.Errorf("session log: %w", err)
			}
			out.Raw = append(out.Raw, ev)
		}
	}
	conds, _ := get[[]any](rec, "condensations")
	for _, n := range conds {
		if node, ok := n.(dbtype.Node); ok {
			out.Condensations = append(out.Condensations, decodeEventNode(node.Props))
		}
	}
	return out, nil
}

// AppendCondensation stores a condensation at the end of the session log.
// It is rejected with ErrConflict when another condensation was stored
// after the view it was computed from (two requests condensing the same
// view at once): the caller rebuilds the view and tries again.
func (s *Store) AppendCondensation(ctx context.Context, tenant, sessionID string, n NewEventNode) (EventNode, error) {
	if n.Kind != EventKindCondensation {
		return EventNode{}, fmt.Errorf("append condensation: %w: kind %q", ErrInvalid, n.Kind)
	}
	return writeTx(ctx, s, "condensation.append", func(tx neo4j.ManagedTransaction) (EventNode, error) {
		now := time.Now().UTC()
		recs, err := runTx(ctx, tx, planOnce+`
			MATCH (s:Session {tenant: $tenant, id: $session})
			SET s.updated_at = $now
			WITH s
			OPTIONAL MATCH (c:Event {tenant: $tenant, session_id: $session, kind: 'condensation'})
			RETURN s.user_id AS user_id, s.last_seq AS last_seq, max(c.seq) AS newest`,
			map[string]any{"tenant": tenant, "session": sessionID, "now": now})
		if err != nil {
			return EventNode{}, err
		}
		if len(recs) == 0 {
			return EventNode{}, errs.NotFound("session %q", sessionID)
		}
		userID, _ := get[string](recs[0], "user_id")
		lastSeq, _ := get[int64](recs[0], "last_seq")
		newest, _ := get[int64](recs[0], "newest")
		if newest > n.BasedOnSeq {
			return EventNode{}, fmt.Errorf("%w: condensation %d was stored after the view (seq %d) this one was computed from",
				ErrConflict, newest, n.BasedOnSeq)
		}
		seq := lastSeq + 1
		if _, err := runTx(ctx, tx, planOnce+`MATCH (s:Session {tenant: $tenant, id: $session}) SET s.last_seq = $seq`,
			map[string]any{"tenant": tenant, "session": sessionID, "seq": seq}); err != nil {
			return EventNode{}, err
		}
		return s.createEventNode(ctx, tx, tenant, sessionID, userID, seq, n, now)
	})
}

// CloseSession marks a session closed and returns it as closed, its
// LastSeq being the last event the close covers. Closing a closed session
// is a no-op; a later append reopens it. A non-zero idleBefore closes only
// a session untouched since, and returns ErrConflict for one that received
// events after it was found idle: a sweep never shuts a live conversation.
func (s *Store) CloseSession(ctx context.Context, tenant, sessionID string, idleBefore time.Time) (Session, error) {
	res, err := s.write(ctx, "session.close", planOnce+`
		MATCH (s:Session {tenant: $tenant, id: $session})
		WITH s, $before IS NULL OR s.updated_at < $before AS idle
		FOREACH (_ IN CASE WHEN idle THEN [1] ELSE [] END |
		  SET s.status = 'closed', s.closed_at = coalesce(s.closed_at, $now), s.updated_at = $now)
		RETURN s, idle`,
		map[string]any{"tenant": tenant, "session": sessionID, "now": time.Now().UTC(), "before": timeOrNil(&idleBefore)})
	if err != nil {
		return Session{}, err
	}
	if len(res.Records) == 0 {
		return Session{}, errs.NotFound("session %q", sessionID)
	}
	if idle, _ := get[bool](res.Records[0], "idle"); !idle {
		return Session{}, fmt.Errorf("session %q is no longer idle: %w", sessionID, ErrConflict)
	}
	return decodeSession(res.Records[0])
}

// WriteSessionSummary stores a session-summary node over the given raw
// events (those no other node covered when the session was closed). It
// writes only while the session is still closed: one that received events
// since was reopened by them, is left as it is with ErrConflict, and its
// next close summarizes the whole tail.
func (s *Store) WriteSessionSummary(ctx context.Context, tenant, sessionID string, summary NewEventNode) (EventNode, error) {
	if summary.Kind != EventKindSessionSummary {
		return EventNode{}, fmt.Errorf("session summary: %w: kind %q", ErrInvalid, summary.Kind)
	}
	return writeTx(ctx, s, "session.summary", func(tx neo4j.ManagedTransaction) (EventNode, error) {
		// The write locks the session: an append (which reopens it) waits
		// for this transaction or is seen by it, never half of each.
		now := time.Now().UTC()
		recs, err := runTx(ctx, tx, planOnce+`
			MATCH (s:Session {tenant: $tenant, id: $session})
			SET s.summarized_at = $now
			RETURN s.user_id AS user_id, s.status = 'closed' AS closed`,
			map[string]any{"tenant": tenant, "session": sessionID, "now": now})
		if err != nil {
			return EventNode{}, err
		}
		if len(recs) == 0 {
			return EventNode{}, errs.NotFound("session %q", sessionID)
		}
		if closed, _ := get[bool](recs[0], "closed"); !closed {
			return EventNode{}, fmt.Errorf("session %q was reopened: %w", sessionID, ErrConflict)
		}
		userID, _ := get[string](recs[0], "user_id")
		return s.createEventNode(ctx, tx, tenant, sessionID, userID, 0, summary, now)
	})
}

// createEventNode writes the node, its SUMMARIZES links to the raw events it
// covers, and claims the uncovered ones as its extraction window. MERGE on
// the id makes a retried transaction harmless.
func (s *Store) createEventNode(ctx context.Context, tx neo4j.ManagedTransaction, tenant, sessionID, userID string, seq int64, n NewEventNode, now time.Time) (EventNode, error) {
	var seqParam any
	if seq > 0 {
		seqParam = seq
	}
	recs, err := runTx(ctx, tx, planOnce+`
		MATCH (s:Session {tenant: $tenant, id: $session})
		MERGE (e:Memory:Event {tenant: $tenant, id: $id})
		ON CREATE SET e.session_id = $session, e.user_id = $user, e.scope = $scope, e.kind = $kind,
		  e.seq = $seq, e.text = $summary, e.record = $record, e.config = $config, e.strategy = $strategy,
		  e.summarizer = $summarizer, e.forgotten_ids = $forgotten, e.based_on_seq = $based_on,
		  e.tokens_before = $tokens_before, e.tokens_after = $tokens_after,
		  e.events_before = $events_before, e.events_after = $events_after,
		  e.llm_calls = $llm_calls, e.duration_ms = $duration_ms, e.created_at = $now,
		  e.embed_queued_at = $now, e:Unembedded
		MERGE (s)-[:HAS_SUMMARY {tenant: $tenant}]->(e)
		WITH e
		OPTIONAL MATCH (r:Raw {tenant: $tenant, session_id: $session}) WHERE r.id IN $cover
		WITH e, r ORDER BY r.seq
		FOREACH (x IN CASE WHEN r IS NULL THEN [] ELSE [r] END |
		  MERGE (e)-[:SUMMARIZES {tenant: $tenant}]->(x)
		  FOREACH (_ IN CASE WHEN x.window_id IS NULL THEN [1] ELSE [] END | SET x.window_id = e.id))
		WITH e, collect(r) AS raws
		WITH e, [x IN raws WHERE x.window_id = e.id] AS window
		SET e.covered_ids = [x IN window | x.id],
		    e.occurred_from = CASE WHEN size(window) > 0 THEN window[0].occurred_at ELSE e.occurred_from END,
		    e.occurred_to = CASE WHEN size(window) > 0 THEN window[-1].occurred_at ELSE e.occurred_to END
		RETURN e`,
		map[string]any{
			"tenant": tenant, "session": sessionID, "user": userID, "scope": scopeToken(tenant, userID),
			"id": n.ID, "kind": n.Kind, "seq": seqParam, "summary": n.Summary, "record": nilIfEmpty(n.Record),
			"config": nilIfEmpty(n.Config), "strategy": nilIfEmpty(n.Strategy), "summarizer": nilIfEmpty(n.SummarizerName),
			"forgotten": n.ForgottenIDs, "based_on": n.BasedOnSeq,
			"tokens_before": int64(n.TokensBefore), "tokens_after": int64(n.TokensAfter),
			"events_before": int64(n.EventsBefore), "events_after": int64(n.EventsAfter),
			"llm_calls": int64(n.LLMCalls), "duration_ms": n.DurationMS, "cover": n.Cover, "now": now,
		})
	if err != nil {
		return EventNode{}, err
	}
	if len(recs) == 0 {
		return EventNode{}, errs.NotFound("session %q", sessionID)
	}
	raw, _ := recs[0].Get("e")
	node, ok := raw.(dbtype.Node)
	if !ok {
		return EventNode{}, fmt.Errorf("event node: %w", errNoRecords)
	}
	return decodeEventNode(node.Props), nil
}

// UncoveredEvents returns the session's raw events that no event-tier node
// covers yet, in order; closing a session summarizes exactly these. Here
// and in EventWindow, "seq IS NOT NULL" (always true) is what lets Neo4j
// seek the (tenant, session_id, seq) index: with only tenant and session
// it scanned every :Raw node of the database, per window.
func (s *Store) UncoveredEvents(ctx context.Context, tenant, sessionID string) ([]RawEvent, error) {
	res, err := s.read(ctx, "session.uncovered", planOnce+`
		MATCH (r:Raw {tenant: $tenant, session_id: $session})
		WHERE r.seq IS NOT NULL AND r.window_id IS NULL AND r.kind <> 'condensation_request'
		RETURN r ORDER BY r.seq`,
		map[string]any{"tenant": tenant, "session": sessionID})
	if err != nil {
		return nil, err
	}
	return decodeRawRecords(res.Records, "r")
}

// EventWindow returns an event-tier node and the raw events it is the
// extraction window of, in order.
func (s *Store) EventWindow(ctx context.Context, tenant, eventID string) (EventNode, []RawEvent, error) {
	res, err := s.read(ctx, "event.window", planOnce+`
		MATCH (e:Event {tenant: $tenant, id: $id})
		OPTIONAL MATCH (r:Raw {tenant: $tenant, session_id: e.session_id})
		WHERE r.seq IS NOT NULL AND r.window_id = e.id
		WITH e, r ORDER BY r.seq
		RETURN e, collect(r) AS raws`,
		map[string]any{"tenant": tenant, "id": eventID})
	if err != nil {
		return EventNode{}, nil, err
	}
	if len(res.Records) == 0 {
		return EventNode{}, nil, errs.NotFound("event %q", eventID)
	}
	rec := res.Records[0]
	raw, _ := rec.Get("e")
	node, _ := raw.(dbtype.Node)
	ev := decodeEventNode(node.Props)
	nodes, _ := get[[]any](rec, "raws")
	var out []RawEvent
	for _, n := range nodes {
		if rn, ok := n.(dbtype.Node); ok {
			r, err := decodeRaw(rn.Props)
			if err != nil {
				return ev, nil, err
			}
			out = append(out, r)
		}
	}
	return ev, out, nil
}

// MarkExtracted records that an event-tier node's window went through
// extraction, so a retried job can tell.
func (s *Store) MarkExtracted(ctx context.Context, tenant, eventID, extractor string) error {
	res, err := s.write(ctx, "event.extracted", planOnce+`
		MATCH (e:Event {tenant: $tenant, id: $id})
		SET e.extracted_at = $now, e.extracted_by = $by
		RETURN e.id AS id`,
		map[string]any{"tenant": tenant, "id": eventID, "now": time.Now().UTC(), "by": extractor})
	if err != nil {
		return err
	}
	if len(res.Records) == 0 {
		return errs.NotFound("event %q", eventID)
	}
	return nil
}

// ListEventNodes returns a session's event-tier nodes, condensations in log
// order then session summaries by time.
func (s *Store) ListEventNodes(ctx context.Context, tenant, sessionID string) ([]EventNode, error) {
	res, err := s.read(ctx, "event.list", planOnce+`
		MATCH (s:Session {tenant: $tenant, id: $session})
		OPTIONAL MATCH (e:Event {tenant: $tenant, session_id: $session})
		WITH s, e ORDER BY coalesce(e.seq, 9223372036854775807), e.created_at
		RETURN s.id AS session, collect(e) AS events`,
		map[string]any{"tenant": tenant, "session": sessionID})
	if err != nil {
		return nil, err
	}
	if len(res.Records) == 0 {
		return nil, errs.NotFound("session %q", sessionID)
	}
	nodes, _ := get[[]any](res.Records[0], "events")
	out := make([]EventNode, 0, len(nodes))
	for _, n := range nodes {
		if node, ok := n.(dbtype.Node); ok {
			out = append(out, decodeEventNode(node.Props))
		}
	}
	return out, nil
}

func decodeRawRecords(recs []*neo4j.Record, key string) ([]RawEvent, error) {
	out := make([]RawEvent, 0, len(recs))
	for _, rec := range recs {
		raw, _ := rec.Get(key)
		var props map[string]any
		switch v := raw.(type) {
		case dbtype.Node:
			props = v.Props
		case map[string]any: // a projection of the properties a caller needs
			props = v
		default:
			continue
		}
		ev, err := decodeRaw(props)
		if err != nil {
			return nil, err
		}
		out = append(out, ev)
	}
	return out, nil
}

func decodeEventNode(p map[string]any) EventNode {
	return EventNode{
		ID: str(p, "id"), SessionID: str(p, "session_id"), UserID: str(p, "user_id"), Kind: str(p, "kind"),
		Seq: i64(p, "seq"), Summary: str(p, "text"), Record: str(p, "record"), Config: str(p, "config"),
		Strategy: str(p, "strategy"), SummarizerName: str(p, "summarizer"),
		ForgottenIDs: strs(p, "forgotten_ids"), CoveredIDs: strs(p, "covered_ids"),
		TokensBefore: int(i64(p, "tokens_before")), TokensAfter: int(i64(p, "tokens_after")),
		EventsBefore: int(i64(p, "events_before")), EventsAfter: int(i64(p, "events_after")),
		LLMCalls: int(i64(p, "llm_calls")), DurationMS: i64(p, "duration_ms"),
		OccurredFrom: tm(p, "occurred_from"), OccurredTo: tm(p, "occurred_to"),
		CreatedAt: tm(p, "created_at"), ExtractedAt: tm(p, "extracted_at"), Stale: p["stale"] == true,
	}
}
