package graph

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/graphmem/graphmem/errs"
)

// Pins and importance (docs/lifecycle.md): a fact, an insight or a summary
// can be pinned or given an importance. Pinned and critical memories open
// the user section of every context, and retention never drops or expires
// them. The marks are plain properties (pinned, importance, marked_at,
// marked_by) on the fact relationship or the node, so exports carry them.

// Importance levels, lowest first; "normal" is what an unmarked memory has.
var Importances = []string{"low", "normal", "high", "critical"}

// Memory kinds that can be marked.
const (
	MarkFact    = "fact"
	MarkInsight = "insight"
	MarkSummary = "summary"
)

// Marks changes a memory's marks; nil leaves a mark as it is.
type Marks struct {
	Pinned     *bool
	Importance *string
	Actor      string
}

// Marked is a memory's marks after a change.
type Marked struct {
	Kind       string
	ID         string
	UserID     string
	Pinned     bool
	Importance string
	MarkedAt   time.Time
	MarkedBy   string
}

// Exempt says whether retention must leave a memory with these marks alone.
func Exempt(pinned bool, importance string) bool { return pinned || importance == "critical" }

// MarkMemory sets the marks of one fact, insight or summary of the tenant.
func (s *Store) MarkMemory(ctx context.Context, tenant, kind, id string, m Marks) (Marked, error) {
	if m.Importance != nil && !slices.Contains(Importances, *m.Importance) {
		return Marked{}, fmt.Errorf("mark: %w: importance %q (one of %s)", ErrInvalid, *m.Importance, strings.Join(Importances, ", "))
	}
	var match string
	switch kind {
	case MarkFact:
		parts := make([]string, len(s.factTypes))
		for i, p := range s.factTypes {
			parts[i] = `MATCH (:Entity)-[r:` + p.Name + `]->(:Entity) WHERE r.tenant = $tenant AND r.id = $id RETURN r AS n`
		}
		match = "CALL () {\n" + strings.Join(parts, "\nUNION ALL\n") + "\n}"
	case MarkInsight:
		match = `MATCH (n:Insight {tenant: $tenant, id: $id})`
	case MarkSummary:
		match = `MATCH (n:Event {tenant: $tenant, id: $id})`
	default:
		return Marked{}, fmt.Errorf("mark: %w: kind %q", ErrInvalid, kind)
	}
	p := map[string]any{"tenant": tenant, "id": id, "now": time.Now().UTC(), "by": m.Actor}
	if m.Pinned != nil {
		p["pinned"] = *m.Pinned
	}
	if m.Importance != nil {
		p["importance"] = *m.Importance
	}
	res, err := s.write(ctx, "marks.set", match+`
		WITH n LIMIT 1
		SET n.pinned = coalesce($pinned, n.pinned, false), n.importance = coalesce($importance, n.importance, 'normal'),
		    n.marked_at = $now, n.marked_by = $by
		RETURN n.user_id AS user, n.pinned AS pinned, n.importance AS importance`, withNil(p, "pinned", "importance"))
	if err != nil {
		return Marked{}, fmt.Errorf("mark %s: %w", kind, err)
	}
	if len(res.Records) == 0 {
		return Marked{}, errs.NotFound("%s %q", kind, id)
	}
	rec := res.Records[0]
	out := Marked{Kind: kind, ID: id, MarkedAt: p["now"].(time.Time), MarkedBy: m.Actor}
	out.UserID, _ = get[string](rec, "user")
	out.Pinned, _ = get[bool](rec, "pinned")
	out.Importance, _ = get[string](rec, "importance")
	return out, nil
}

// withNil sets the missing keys to nil, so Cypher's coalesce sees them.
func withNil(p map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		if _, ok := p[k]; !ok {
			p[k] = nil
		}
	}
	return p
}

// PinnedMemory is a pinned or critical memory of a user, as a context
// shows it.
type PinnedMemory struct {
	Kind           string // fact | insight | summary
	ID             string
	Text           string
	Pinned         bool
	Importance     string
	At             time.Time // valid from (facts), created (insights), last covered turn (summaries)
	SessionID      string
	SourceEventIDs []string
}

// PinnedMemories returns the user's current pinned or critical facts,
// insights and summaries: critical before high, pinned before not, newest
// first within each.
func (s *Store) PinnedMemories(ctx context.Context, tenant, userID string, limit int) ([]PinnedMemory, error) {
	types, err := s.allFactTypes()
	if err != nil {
		return nil, err
	}
	res, err := s.read(ctx, "marks.pinned", `
		CALL () {
		  MATCH (s:Entity {tenant: $tenant, user_id: $user})-[r:`+types+`]->(:Entity)
		  WHERE s.norm_name IS NOT NULL AND r.tenant = $tenant AND r.user_id = $user AND r.status = 'current'
		    AND (r.pinned = true OR r.importance = 'critical')
		  RETURN 'fact' AS kind, r.id AS id, r.fact AS text, r.pinned AS pinned, r.importance AS importance,
		         coalesce(r.valid_from, r.observed_at, r.recorded_at) AS at, null AS session, r.source_event_ids AS sources
		  UNION ALL
		  MATCH (i:Insight {tenant: $tenant, user_id: $user})
		  WHERE i.key IS NOT NULL AND i.status = 'current' AND (i.pinned = true OR i.importance = 'critical')
		  RETURN 'insight' AS kind, i.id AS id, i.text AS text, i.pinned AS pinned, i.importance AS importance,
		         i.created_at AS at, null AS session, i.source_event_ids AS sources
		  UNION ALL
		  MATCH (e:Event {tenant: $tenant, user_id: $user})
		  WHERE e.pinned = true OR e.importance = 'critical'
		  RETURN 'summary' AS kind, e.id AS id, e.text AS text, e.pinned AS pinned, e.importance AS importance,
		         coalesce(e.occurred_to, e.created_at) AS at, e.session_id AS session, e.covered_ids AS sources
		}
		RETURN kind, id, text, coalesce(pinned, false) AS pinned, coalesce(importance, 'normal') AS importance, at, session, sources
		ORDER BY importance = 'critical' DESC, pinned DESC, at DESC, id LIMIT $limit`,
		map[string]any{"tenant": tenant, "user": userID, "limit": int64(clampLimit(limit, 20, 200))})
	if err != nil {
		return nil, fmt.Errorf("pinned memories: %w", err)
	}
	out := make([]PinnedMemory, 0, len(res.Records))
	for _, rec := range res.Records {
		var m PinnedMemory
		m.Kind, _ = get[string](rec, "kind")
		m.ID, _ = get[string](rec, "id")
		m.Text, _ = get[string](rec, "text")
		m.Pinned, _ = get[bool](rec, "pinned")
		m.Importance, _ = get[string](rec, "importance")
		m.At, _ = get[time.Time](rec, "at")
		m.SessionID, _ = get[string](rec, "session")
		if src, err := get[[]any](rec, "sources"); err == nil {
			for _, x := range src {
				if v, ok := x.(string); ok {
					m.SourceEventIDs = append(m.SourceEventIDs, v)
				}
			}
		}
		out = append(out, m)
	}
	return out, nil
}
