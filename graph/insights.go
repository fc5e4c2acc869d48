package graph

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/dbtype"

	"github.com/graphmem/graphmem/knowledge"
	"github.com/graphmem/graphmem/ontology"
)

// Insight statuses.
const (
	InsightCurrent    = "current"
	InsightSuperseded = "superseded"
)

const maxInsightText = 4000

// InsightInput is a derived insight to store. Key names the slot the
// insight fills ("travel-pattern"); a new text under the key of a current
// insight supersedes it, the same text (up to white space) is a no-op. An empty key is derived
// from the normalized text, so re-deriving the same insight changes nothing.
type InsightInput struct {
	Key            string
	Text           string
	Confidence     float64
	SourceEventIDs []string // raw event ids it rests on (linked with DERIVED_FROM)
	FactIDs        []string
	EntityIDs      []string // entities it is about (linked with ABOUT)
	EntityNames    []string // or their names, resolved within the user's entities
	GeneratedBy    string
}

// Insight is a stored insight.
type Insight struct {
	ID             string
	Key            string
	Text           string
	Confidence     float64
	Status         string // current | superseded
	CreatedAt      time.Time
	SupersededAt   time.Time
	SupersededBy   string
	SourceEventIDs []string
	FactIDs        []string
	GeneratedBy    string
	Entities       []EntityRef
}

// InsightWriteResult says what WriteInsights did, one id per input in
// Created or Unchanged.
type InsightWriteResult struct {
	Created    []string
	Unchanged  []string
	Superseded []string
}

// InsightQuery selects insights.
type InsightQuery struct {
	IncludeSuperseded bool
	Limit             int // default 100, at most 1000
}

// InsightMaterial is what insight derivation reads: the user's current
// facts and recent raw events.
type InsightMaterial struct {
	Facts  []MaterialFact
	Events []RawEvent // oldest first
}

// MaterialFact is a current fact handed to insight derivation.
type MaterialFact struct {
	ID             string
	SubjectID      string
	Subject        string
	Predicate      string
	ObjectID       string
	Object         string
	Sentence       string
	SessionIDs     []string
	SourceEventIDs []string
	ValidFrom      time.Time
}

// WriteInsights stores insights of one user in one transaction. Each is
// linked to the entities it is about and the raw events it was derived
// from; an insight under the key of a current one with another text
// supersedes it ((new)-[:SUPERSEDES]->(old), old status superseded).
func (s *Store) WriteInsights(ctx context.Context, tenant, userID string, in []InsightInput) (InsightWriteResult, error) {
	if tenant == "" || userID == "" {
		return InsightWriteResult{}, fmt.Errorf("write insights: %w: tenant and user id are required", ErrInvalid)
	}
	type row struct {
		InsightInput
		key string
	}
	rows := make([]row, 0, len(in))
	for i, ins := range in {
		text := strings.TrimSpace(ins.Text)
		switch {
		case text == "":
			return InsightWriteResult{}, fmt.Errorf("write insights: %w: insight %d has no text", ErrInvalid, i)
		case len(text) > maxInsightText:
			return InsightWriteResult{}, fmt.Errorf("write insights: %w: insight %d longer than %d bytes", ErrInvalid, i, maxInsightText)
		case math.IsNaN(ins.Confidence) || ins.Confidence < 0 || ins.Confidence > 1:
			return InsightWriteResult{}, fmt.Errorf("write insights: %w: insight %d confidence %v outside [0,1]", ErrInvalid, i, ins.Confidence)
		}
		ins.Text = text
		key := strings.TrimSpace(ins.Key)
		if key == "" {
			key = knHashID("text:", strings.Join(knowledge.NameTerms(strings.ToLower(text)), " "))
		}
		rows = append(rows, row{InsightInput: ins, key: key})
	}
	return writeTx(ctx, s, "insights.write", func(tx neo4j.ManagedTransaction) (InsightWriteResult, error) {
		var out InsightWriteResult
		now := time.Now().UTC()
		scope := scopeToken(tenant, userID)
		for _, r := range rows {
			params := map[string]any{"tenant": tenant, "user": userID, "key": r.key, "now": now}
			recs, err := runTx(ctx, tx, planOnce+`
				MATCH (i:Insight {tenant: $tenant, user_id: $user, key: $key}) WHERE i.status = 'current'
				SET i.checked_at = $now
				RETURN i.id AS id, i.text AS text ORDER BY i.created_at DESC`, params)
			if err != nil {
				return out, err
			}
			var olds []string
			unchanged := ""
			for _, rec := range recs {
				id, _ := get[string](rec, "id")
				text, _ := get[string](rec, "text")
				if slices.Equal(strings.Fields(text), strings.Fields(r.Text)) && unchanged == "" {
					unchanged = id
					continue
				}
				olds = append(olds, id)
			}
			if unchanged != "" {
				out.Unchanged = append(out.Unchanged, unchanged)
				continue
			}
			id := knID("insight_")
			names := make([]string, 0, len(r.EntityNames))
			for _, n := range r.EntityNames {
				if k := normalizeEntityName(n); k != "" {
					names = append(names, k)
				}
			}
			// The insight's own values travel in one map: Neo4j caches a plan
			// per statement and parameter types, and an empty list, a list
			// of strings and a null are three types, so separate parameters
			// made up to a dozen plans of this statement (each planned anew,
			// about a second on a fresh server).
			params["scope"], params["pronouns"] = scope, ontology.UserWords()
			params["row"] = map[string]any{
				"id": id, "key": r.key, "text": r.Text, "confidence": r.Confidence, "sources": knUnique(r.SourceEventIDs),
				"facts": knUnique(r.FactIDs), "by": nilIfEmpty(r.GeneratedBy), "olds": nilSafe(olds),
				"entity_ids": knUnique(r.EntityIDs), "entity_names": knUnique(names),
			}
			if _, err := runTx(ctx, tx, planOnce+`
				WITH $row AS row
				CREATE (i:Memory:Insight:Unembedded {tenant: $tenant, user_id: $user, scope: $scope, id: row.id, key: row.key,
				  text: row.text, confidence: row.confidence, status: 'current', created_at: $now,
				  source_event_ids: row.sources, fact_ids: row.facts, generated_by: row.by, embed_queued_at: $now})
				WITH i, row
				OPTIONAL MATCH (old:Insight {tenant: $tenant, user_id: $user}) WHERE old.id IN row.olds
				FOREACH (o IN CASE WHEN old IS NULL THEN [] ELSE [old] END |
				  SET o.status = 'superseded', o.superseded_at = $now, o.superseded_by = row.id
				  MERGE (i)-[:SUPERSEDES {tenant: $tenant}]->(o))
				WITH DISTINCT i, row
				CALL (i, row) {
				  MATCH (e:Entity {tenant: $tenant, user_id: $user})
				  WHERE e.norm_name IS NOT NULL
				    AND (e.id IN row.entity_ids OR e.norm_name IN row.entity_names
				         OR (e.is_user = true AND any(n IN row.entity_names WHERE n IN $pronouns)))
				  MERGE (i)-[:ABOUT {tenant: $tenant}]->(e)
				}
				CALL (i, row) {
				  UNWIND row.sources AS rid
				  MATCH (r:Raw {tenant: $tenant, user_id: $user, id: rid})
				  MERGE (i)-[:DERIVED_FROM {tenant: $tenant}]->(r)
				}`, params); err != nil {
				return out, err
			}
			out.Created = append(out.Created, id)
			out.Superseded = append(out.Superseded, olds...)
		}
		return out, nil
	})
}

// Insights lists the user's insights, newest first; current ones only
// unless IncludeSuperseded.
func (s *Store) Insights(ctx context.Context, tenant, userID string, q InsightQuery) ([]Insight, error) {
	res, err := s.read(ctx, "insights.list", `
		MATCH (i:Insight {tenant: $tenant, user_id: $user})
		WHERE i.key IS NOT NULL AND ($all OR i.status = 'current')
		WITH i ORDER BY i.created_at DESC, i.id LIMIT $limit
		OPTIONAL MATCH (i)-[:ABOUT]->(e:Entity {tenant: $tenant})
		WITH i, collect(e {.id, .name, .type}) AS entities
		RETURN i, entities
		ORDER BY i.created_at DESC, i.id`,
		map[string]any{"tenant": tenant, "user": userID, "all": q.IncludeSuperseded,
			"limit": int64(clampLimit(q.Limit, 100, 1000))})
	if err != nil {
		return nil, err
	}
	out := make([]Insight, 0, len(res.Records))
	for _, rec := range res.Records {
		raw, _ := rec.Get("i")
		node, ok := raw.(dbtype.Node)
		if !ok {
			return nil, fmt.Errorf("insights: %w", errNoRecords)
		}
		ins := decodeInsight(node.Props)
		ents, _ := get[[]any](rec, "entities")
		for _, e := range ents {
			if m, ok := e.(map[string]any); ok {
				ins.Entities = append(ins.Entities, EntityRef{ID: str(m, "id"), Name: str(m, "name"), Type: str(m, "type")})
			}
		}
		// By name, then id: two entities may share a name ("painting" the
		// activity and the artwork), and the order must not depend on the
		// store's (an exported and imported memory reads the same).
		slices.SortFunc(ins.Entities, func(a, b EntityRef) int {
			return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.ID, b.ID))
		})
		out = append(out, ins)
	}
	return out, nil
}

// decodeInsight reads an insight node's properties.
func decodeInsight(p map[string]any) Insight {
	return Insight{ID: str(p, "id"), Key: str(p, "key"), Text: str(p, "text"), Confidence: f64(p, "confidence"),
		Status: str(p, "status"), CreatedAt: tm(p, "created_at"), SupersededAt: tm(p, "superseded_at"),
		SupersededBy: str(p, "superseded_by"), SourceEventIDs: strs(p, "source_event_ids"),
		FactIDs: strs(p, "fact_ids"), GeneratedBy: str(p, "generated_by")}
}

// InsightMaterial returns the user's current facts (most recently seen
// first, at most limit) and the raw events that occurred at or after since
// (the latest limit of them, oldest first), the material insights are
// derived from.
func (s *Store) InsightMaterial(ctx context.Context, tenant, userID string, since time.Time, limit int) (InsightMaterial, error) {
	limit = clampLimit(limit, 200, 2000)
	types, err := s.allFactTypes()
	if err != nil {
		return InsightMaterial{}, err
	}
	params := map[string]any{"tenant": tenant, "user": userID, "since": since.UTC(), "limit": int64(limit)}
	facts, err := s.readFacts(ctx, "insights.material.facts", `
		MATCH (s:Entity {tenant: $tenant, user_id: $user})-[r:`+types+`]->(o:Entity)
		WHERE s.norm_name IS NOT NULL AND r.tenant = $tenant AND r.user_id = $user AND r.status = 'current'
		`+factReturn+`
		ORDER BY r.last_seen_at DESC, r.id LIMIT $limit`, params)
	if err != nil {
		return InsightMaterial{}, err
	}
	var out InsightMaterial
	for _, f := range facts {
		out.Facts = append(out.Facts, MaterialFact{ID: f.ID, SubjectID: f.SubjectID, Subject: f.Subject,
			Predicate: f.Predicate, ObjectID: f.ObjectID, Object: f.Object, Sentence: f.Fact,
			SessionIDs: f.SessionIDs, SourceEventIDs: f.SourceEventIDs, ValidFrom: f.ValidFrom})
	}
	res, err := s.read(ctx, "insights.material.events", `
		MATCH (r:Raw {tenant: $tenant, user_id: $user})
		WHERE r.occurred_at >= $since AND coalesce(r.kind, '') <> 'condensation_request'
		RETURN r ORDER BY r.occurred_at DESC, r.seq DESC LIMIT $limit`, params)
	if err != nil {
		return InsightMaterial{}, err
	}
	for i := len(res.Records) - 1; i >= 0; i-- {
		raw, _ := res.Records[i].Get("r")
		node, ok := raw.(dbtype.Node)
		if !ok {
			continue
		}
		ev, err := decodeRaw(node.Props)
		if err != nil {
			return InsightMaterial{}, fmt.Errorf("insight material: %w", err)
		}
		out.Events = append(out.Events, ev)
	}
	return out, nil
}
