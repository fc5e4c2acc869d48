package graph

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j/dbtype"
)

// SearchScope bounds every retrieval query: one tenant, one user, and
// optionally one session; AsOf and IncludeHistory select facts as the
// Facts method does.
type SearchScope struct {
	Tenant         string
	UserID         string
	SessionID      string
	AsOf           *time.Time
	IncludeHistory bool
}

// TextLimits says how many full-text candidates to fetch per index; 0
// skips an index.
type TextLimits struct {
	Raw, Facts, Events, Insights, Entities int
}

// RawHit is a raw event found by full text.
type RawHit struct {
	Event RawEvent
	Score float64
}

// FactHit is a fact found by full text.
type FactHit struct {
	Fact  Fact
	Score float64
}

// EventHit is an event-tier node found by full text.
type EventHit struct {
	Node  EventNode
	Score float64
}

// InsightHit is an insight found by full text.
type InsightHit struct {
	Insight Insight
	Score   float64
}

// EntityHit is an entity found by name.
type EntityHit struct {
	ID           string
	Name         string
	Type         string
	IsUser       bool
	MentionCount int64
	Score        float64
}

// Candidates are the full-text hits of one query, per index, best first.
type Candidates struct {
	Raw      []RawHit
	Facts    []FactHit
	Events   []EventHit
	Insights []InsightHit
	Entities []EntityHit
}

// luceneQuery builds a Lucene query from plain terms: every term becomes a
// field-qualified clause and the scope token is required, so the index
// itself returns only this tenant's and user's documents. Terms are reduced
// to letters and digits: caller text never reaches Lucene's syntax.
func luceneQuery(scope string, fields []string, terms []string) string {
	var clauses []string
	for _, t := range terms {
		t = strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				return unicode.ToLower(r)
			}
			return -1
		}, t)
		if t == "" {
			continue
		}
		for _, f := range fields {
			clauses = append(clauses, f+":"+t)
		}
	}
	if len(clauses) == 0 {
		return ""
	}
	return "+scope:" + scope + " +(" + strings.Join(clauses, " ") + ")"
}

// SearchText runs the full-text indexes for terms in one round trip.
func (s *Store) SearchText(ctx context.Context, sc SearchScope, terms []string, lim TextLimits) (Candidates, error) {
	scope := scopeToken(sc.Tenant, sc.UserID)
	params := map[string]any{
		"tenant": sc.Tenant, "user": sc.UserID, "session": nilIfEmpty(sc.SessionID),
		"rawq": luceneQuery(scope, []string{"text"}, terms), "rawn": int64(lim.Raw),
		"factq": luceneQuery(scope, []string{"fact"}, terms), "factn": int64(lim.Facts * 3),
		"eventq": luceneQuery(scope, []string{"text"}, terms), "eventn": int64(lim.Events),
		"insightq": luceneQuery(scope, []string{"text"}, terms), "insightn": int64(lim.Insights * 2),
		"entityq": luceneQuery(scope, []string{"name", "aliases_text"}, terms), "entityn": int64(lim.Entities),
		"history": sc.IncludeHistory,
	}
	if params["rawq"] == "" {
		return Candidates{}, nil
	}
	factFilter := timeFilter(sc.AsOf, sc.IncludeHistory, params)
	rawTime := ""
	if sc.AsOf != nil {
		rawTime = " AND node.occurred_at <= $asof"
	}
	res, err := s.read(ctx, "search.text", `
		CALL () {
		  CALL db.index.fulltext.queryNodes('raw_text', $rawq, {limit: $rawn}) YIELD node, score
		  WHERE $rawn > 0 AND node.tenant = $tenant AND node.user_id = $user
		    AND ($session IS NULL OR node.session_id = $session)`+rawTime+`
		  RETURN collect({p: node {.*}, score: score}) AS raws
		}
		CALL () {
		  CALL db.index.fulltext.queryRelationships('fact_text', $factq, {limit: $factn}) YIELD relationship AS r, score
		  WHERE $factn > 0 AND r.tenant = $tenant AND r.user_id = $user`+factFilter+`
		  RETURN collect({p: r {.*}, type: type(r), sid: startNode(r).id, sname: startNode(r).name,
		                  oid: endNode(r).id, oname: endNode(r).name, score: score}) AS facts
		}
		CALL () {
		  CALL db.index.fulltext.queryNodes('event_text', $eventq, {limit: $eventn}) YIELD node, score
		  WHERE $eventn > 0 AND node.tenant = $tenant AND node.user_id = $user
		    AND ($session IS NULL OR node.session_id = $session)
		  RETURN collect({p: node {.*}, score: score}) AS events
		}
		CALL () {
		  CALL db.index.fulltext.queryNodes('insight_text', $insightq, {limit: $insightn}) YIELD node, score
		  WHERE $insightn > 0 AND node.tenant = $tenant AND node.user_id = $user
		    AND ($history OR node.status = 'current')
		  RETURN collect({p: node {.*}, score: score}) AS insights
		}
		CALL () {
		  CALL db.index.fulltext.queryNodes('entity_text', $entityq, {limit: $entityn}) YIELD node, score
		  WHERE $entityn > 0 AND node.tenant = $tenant AND node.user_id = $user
		  RETURN collect({id: node.id, name: node.name, type: node.type, is_user: coalesce(node.is_user, false),
		                  mentions: coalesce(node.mention_count, 0), score: score}) AS entities
		}
		RETURN raws, facts, events, insights, entities`, params)
	if err != nil {
		return Candidates{}, fmt.Errorf("search text: %w", err)
	}
	if len(res.Records) == 0 {
		return Candidates{}, nil
	}
	rec := res.Records[0]
	var out Candidates
	for _, row := range rows(rec, "raws") {
		ev, err := decodeRaw(mapOf(row, "p"))
		if err != nil {
			return out, err
		}
		out.Raw = append(out.Raw, RawHit{Event: ev, Score: f64(row, "score")})
	}
	for _, row := range rows(rec, "facts") {
		if len(out.Facts) == lim.Facts {
			break
		}
		f := decodeFact(mapOf(row, "p"))
		f.Predicate, f.SubjectID, f.Subject = str(row, "type"), str(row, "sid"), str(row, "sname")
		f.ObjectID, f.Object = str(row, "oid"), str(row, "oname")
		out.Facts = append(out.Facts, FactHit{Fact: f, Score: f64(row, "score")})
	}
	for _, row := range rows(rec, "events") {
		out.Events = append(out.Events, EventHit{Node: decodeEventNode(mapOf(row, "p")), Score: f64(row, "score")})
	}
	for _, row := range rows(rec, "insights") {
		if len(out.Insights) == lim.Insights {
			break
		}
		p := mapOf(row, "p")
		out.Insights = append(out.Insights, InsightHit{Score: f64(row, "score"), Insight: Insight{
			ID: str(p, "id"), Key: str(p, "key"), Text: str(p, "text"), Confidence: f64(p, "confidence"),
			Status: str(p, "status"), CreatedAt: tm(p, "created_at"), SupersededAt: tm(p, "superseded_at"),
			SupersededBy: str(p, "superseded_by"), SourceEventIDs: strs(p, "source_event_ids"),
			FactIDs: strs(p, "fact_ids"), GeneratedBy: str(p, "generated_by"),
		}})
	}
	for _, row := range rows(rec, "entities") {
		isUser, _ := row["is_user"].(bool)
		out.Entities = append(out.Entities, EntityHit{ID: str(row, "id"), Name: str(row, "name"), Type: str(row, "type"),
			IsUser: isUser, MentionCount: i64(row, "mentions"), Score: f64(row, "score")})
	}
	return out, nil
}

// Hop is one fact reached from an entity during graph expansion.
type Hop struct {
	From string // the entity the hop started from
	Fact Fact
	// To is the entity at the other end (the object when the fact points
	// away from From, the subject otherwise).
	ToID   string
	ToName string
}

// Neighbors returns the facts touching the given entities (in either
// direction), at most perEntity per entity, most mentioned first; the
// scope's time selection applies.
func (s *Store) Neighbors(ctx context.Context, sc SearchScope, entityIDs []string, perEntity int) ([]Hop, error) {
	if len(entityIDs) == 0 {
		return nil, nil
	}
	params := map[string]any{"tenant": sc.Tenant, "user": sc.UserID, "ids": entityIDs, "per": int64(perEntity)}
	filter := timeFilter(sc.AsOf, sc.IncludeHistory, params)
	res, err := s.read(ctx, "search.neighbors", `
		UNWIND $ids AS eid
		MATCH (e:Entity {tenant: $tenant, id: eid})
		WHERE e.user_id = $user
		CALL (e) {
		  MATCH (e)-[r]-(o:Entity)
		  WHERE r.fact IS NOT NULL AND r.tenant = $tenant AND r.user_id = $user`+filter+`
		  RETURN r, o ORDER BY coalesce(r.mention_count, 1) DESC, r.recorded_at DESC LIMIT $per
		}
		RETURN e.id AS from, r {.*} AS p, type(r) AS type, startNode(r).id AS sid, startNode(r).name AS sname,
		       endNode(r).id AS oid, endNode(r).name AS oname, o.id AS to, o.name AS toname`, params)
	if err != nil {
		return nil, fmt.Errorf("search neighbors: %w", err)
	}
	out := make([]Hop, 0, len(res.Records))
	for _, rec := range res.Records {
		p, _ := get[map[string]any](rec, "p")
		f := decodeFact(p)
		f.Predicate, _ = get[string](rec, "type")
		f.SubjectID, _ = get[string](rec, "sid")
		f.Subject, _ = get[string](rec, "sname")
		f.ObjectID, _ = get[string](rec, "oid")
		f.Object, _ = get[string](rec, "oname")
		h := Hop{Fact: f}
		h.From, _ = get[string](rec, "from")
		h.ToID, _ = get[string](rec, "to")
		h.ToName, _ = get[string](rec, "toname")
		out = append(out, h)
	}
	return out, nil
}

// RawByIDs returns the user's raw events with these ids (client ids), in
// no particular order; unknown ids are skipped.
func (s *Store) RawByIDs(ctx context.Context, sc SearchScope, ids []string) ([]RawEvent, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	res, err := s.read(ctx, "search.raw_by_id", `
		MATCH (r:Raw {tenant: $tenant, user_id: $user}) WHERE r.id IN $ids
		RETURN r`, map[string]any{"tenant": sc.Tenant, "user": sc.UserID, "ids": ids})
	if err != nil {
		return nil, fmt.Errorf("raw by id: %w", err)
	}
	return decodeRawRecords(res.Records, "r")
}

// RawMention is a raw event that mentions some of the given entities.
type RawMention struct {
	Event    RawEvent
	Entities []string
}

// RawMentioning returns raw events that mention the given entities, those
// mentioning the most of them first, at most limit.
func (s *Store) RawMentioning(ctx context.Context, sc SearchScope, entityIDs []string, limit int) ([]RawMention, error) {
	if len(entityIDs) == 0 || limit <= 0 {
		return nil, nil
	}
	res, err := s.read(ctx, "search.raw_mentioning", `
		MATCH (e:Entity {tenant: $tenant}) WHERE e.id IN $ids AND e.user_id = $user
		MATCH (r:Raw {tenant: $tenant})-[:MENTIONS]->(e)
		WHERE r.user_id = $user AND ($session IS NULL OR r.session_id = $session)
		WITH r, collect(DISTINCT e.id) AS ents
		RETURN r, ents ORDER BY size(ents) DESC, r.occurred_at DESC LIMIT $limit`,
		map[string]any{"tenant": sc.Tenant, "user": sc.UserID, "ids": entityIDs, "limit": int64(limit),
			"session": nilIfEmpty(sc.SessionID)})
	if err != nil {
		return nil, fmt.Errorf("raw mentioning: %w", err)
	}
	out := make([]RawMention, 0, len(res.Records))
	for _, rec := range res.Records {
		raw, _ := rec.Get("r")
		node, ok := raw.(dbtype.Node)
		if !ok {
			continue
		}
		ev, err := decodeRaw(node.Props)
		if err != nil {
			return nil, err
		}
		ents, _ := get[[]any](rec, "ents")
		m := RawMention{Event: ev}
		for _, e := range ents {
			if id, ok := e.(string); ok {
				m.Entities = append(m.Entities, id)
			}
		}
		out = append(out, m)
	}
	return out, nil
}

// StaleRaw returns, among the given raw events, those whose every extracted
// fact is superseded: what they say is out of date. Search marks them so
// an agent does not take "I live in Paris" as current after a move.
func (s *Store) StaleRaw(ctx context.Context, sc SearchScope, ids []string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(ids) == 0 {
		return out, nil
	}
	res, err := s.read(ctx, "search.stale_raw", `
		MATCH (r:Raw {tenant: $tenant, user_id: $user}) WHERE r.id IN $ids
		MATCH (r)-[:MENTIONS]->(:Entity)-[f]-(:Entity)
		WHERE f.tenant = $tenant AND f.fact IS NOT NULL AND r.id IN f.source_event_ids
		WITH r.id AS id, collect(DISTINCT f.status) AS statuses
		WHERE NOT 'current' IN statuses
		RETURN id`, map[string]any{"tenant": sc.Tenant, "user": sc.UserID, "ids": ids})
	if err != nil {
		return nil, fmt.Errorf("stale raw: %w", err)
	}
	for _, rec := range res.Records {
		id, _ := get[string](rec, "id")
		out[id] = true
	}
	return out, nil
}

// rows reads a list of maps from a record field.
func rows(rec interface{ Get(string) (any, bool) }, key string) []map[string]any {
	raw, _ := rec.Get(key)
	list, _ := raw.([]any)
	out := make([]map[string]any, 0, len(list))
	for _, v := range list {
		if m, ok := v.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func mapOf(m map[string]any, k string) map[string]any {
	v, _ := m[k].(map[string]any)
	return v
}

// TurnRef names a raw event by its place in a session.
type TurnRef struct {
	SessionID string
	Seq       int64
}

// RawFollowing returns the raw event right after each referenced one in
// its session (when there is one): the reply to a question, in the
// conversation's own order.
func (s *Store) RawFollowing(ctx context.Context, sc SearchScope, refs []TurnRef) ([]RawEvent, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	rows := make([]map[string]any, len(refs))
	for i, r := range refs {
		rows[i] = map[string]any{"session": r.SessionID, "seq": r.Seq + 1}
	}
	res, err := s.read(ctx, "search.raw_following", `
		UNWIND $refs AS ref
		MATCH (r:Raw {tenant: $tenant, session_id: ref.session, seq: ref.seq})
		WHERE r.user_id = $user AND r.kind <> 'condensation_request'
		RETURN r`, map[string]any{"tenant": sc.Tenant, "user": sc.UserID, "refs": rows})
	if err != nil {
		return nil, fmt.Errorf("raw following: %w", err)
	}
	return decodeRawRecords(res.Records, "r")
}
