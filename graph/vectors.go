package graph

import (
	"context"
	"fmt"
	"slices"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// Embedding is the vector of one tiered node. Raw events are keyed by
// session and client id, event-tier nodes and insights by id.
type Embedding struct {
	Kind      string // "raw", "event" or "insight"
	SessionID string // raw events only
	ID        string
	Vector    []float32
}

// SetEmbeddings stores node embeddings for the :Memory vector index. A
// vector of the wrong size is ErrInvalid: Neo4j would silently leave such a
// node out of the index.
func (s *Store) SetEmbeddings(ctx context.Context, tenant string, items []Embedding) error {
	if len(items) == 0 {
		return nil
	}
	if s.cfg.EmbeddingDimensions == 0 {
		return fmt.Errorf("set embeddings: %w: no embedder is configured", ErrInvalid)
	}
	var raws, others []map[string]any
	for _, it := range items {
		if len(it.Vector) != s.cfg.EmbeddingDimensions {
			return fmt.Errorf("set embeddings: %w: %s %q has %d dimensions, want %d", ErrInvalid, it.Kind, it.ID, len(it.Vector), s.cfg.EmbeddingDimensions)
		}
		vec := make([]float64, len(it.Vector))
		for i, v := range it.Vector {
			vec[i] = float64(v)
		}
		switch it.Kind {
		case "raw":
			raws = append(raws, map[string]any{"session": it.SessionID, "id": it.ID, "vec": vec})
		case "event", "insight":
			others = append(others, map[string]any{"id": it.ID, "vec": vec})
		default:
			return fmt.Errorf("set embeddings: %w: kind %q", ErrInvalid, it.Kind)
		}
	}
	if len(raws) > 0 {
		if _, err := s.write(ctx, "vector.set_raw", `
			UNWIND $rows AS row
			MATCH (n:Raw {tenant: $tenant, session_id: row.session, id: row.id})
			CALL db.create.setNodeVectorProperty(n, 'embedding', row.vec)`,
			map[string]any{"tenant": tenant, "rows": raws}); err != nil {
			return fmt.Errorf("set raw embeddings: %w", err)
		}
	}
	if len(others) > 0 {
		if _, err := s.write(ctx, "vector.set_node", `
			UNWIND $rows AS row
			MATCH (n:Memory {tenant: $tenant, id: row.id}) WHERE n:Event OR n:Insight
			CALL db.create.setNodeVectorProperty(n, 'embedding', row.vec)`,
			map[string]any{"tenant": tenant, "rows": others}); err != nil {
			return fmt.Errorf("set node embeddings: %w", err)
		}
	}
	return nil
}

// VectorHit is a tiered node found by vector similarity.
type VectorHit struct {
	Kind    string // raw, event or insight
	Raw     RawEvent
	Node    EventNode
	Insight Insight
	Score   float64 // cosine similarity mapped to [0,1] by Neo4j
}

// maxVectorK bounds how many neighbours one query asks the index for.
const maxVectorK = 2000

// VectorSearch returns the scope's nodes nearest to vec through the
// :Memory vector index (an approximate nearest-neighbour search, never a
// scan). Neo4j 5.26 cannot filter inside the index, so it asks for more
// neighbours than needed and keeps the scope's, widening the request while
// too few of the neighbours belong to this user.
func (s *Store) VectorSearch(ctx context.Context, sc SearchScope, vec []float32, limit int) ([]VectorHit, error) {
	if s.cfg.EmbeddingDimensions == 0 || len(vec) != s.cfg.EmbeddingDimensions || limit <= 0 {
		return nil, nil
	}
	query := make([]float64, len(vec))
	for i, v := range vec {
		query[i] = float64(v)
	}
	for k := min(limit*10, maxVectorK); ; k = min(k*4, maxVectorK) {
		params := scopeParams(sc)
		params["k"], params["vec"], params["limit"] = int64(k), query, int64(limit)
		res, err := s.read(ctx, "search.vector", `
			CALL db.index.vector.queryNodes('memory_embedding', $k, $vec) YIELD node, score
			WHERE `+memoryFilter+`
			RETURN labels(node) AS labels, node {.*, embedding: null} AS p, score
			ORDER BY score DESC LIMIT $limit`, params)
		if err != nil {
			return nil, fmt.Errorf("vector search: %w", err)
		}
		if len(res.Records) >= limit || k == maxVectorK {
			return decodeVectorHits(res.Records)
		}
	}
}

func decodeVectorHits(recs []*neo4j.Record) ([]VectorHit, error) {
	out := make([]VectorHit, 0, len(recs))
	for _, rec := range recs {
		labels, _ := get[[]any](rec, "labels")
		p, _ := get[map[string]any](rec, "p")
		score, _ := get[float64](rec, "score")
		h := VectorHit{Score: score}
		switch {
		case slices.Contains(labels, any("Raw")):
			ev, err := decodeRaw(p)
			if err != nil {
				return nil, err
			}
			h.Kind, h.Raw = "raw", ev
		case slices.Contains(labels, any("Event")):
			h.Kind, h.Node = "event", decodeEventNode(p)
		case slices.Contains(labels, any("Insight")):
			h.Kind, h.Insight = "insight", decodeInsight(p)
		default:
			continue
		}
		out = append(out, h)
	}
	return out, nil
}
