package graph

import (
	"context"
	"fmt"
	"slices"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

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

// TurnRef names a raw turn: its session and its client id.
type TurnRef struct {
	SessionID string
	ID        string
}

// RawVectors returns the stored vectors of the given turns of a tenant;
// turns not embedded yet are absent from the map. Search reads them for
// the few turns whose topic it compares, never for a whole pool.
func (s *Store) RawVectors(ctx context.Context, tenant string, turns []TurnRef) (map[TurnRef][]float32, error) {
	if len(turns) == 0 {
		return nil, nil
	}
	keys := make([]map[string]any, len(turns))
	for i, t := range turns {
		keys[i] = map[string]any{"session": t.SessionID, "id": t.ID}
	}
	res, err := s.read(ctx, "search.raw_vectors", `
		UNWIND $keys AS k
		MATCH (r:Raw {tenant: $tenant, session_id: k.session, id: k.id}) WHERE r.embedding IS NOT NULL
		RETURN r.session_id AS session, r.id AS id, r.embedding AS vec`,
		map[string]any{"tenant": tenant, "keys": keys})
	if err != nil {
		return nil, fmt.Errorf("raw vectors: %w", err)
	}
	out := make(map[TurnRef][]float32, len(res.Records))
	for _, rec := range res.Records {
		session, _ := get[string](rec, "session")
		id, _ := get[string](rec, "id")
		raw, _ := rec.Get("vec")
		if vec := toFloat32s(raw); vec != nil {
			out[TurnRef{session, id}] = vec
		}
	}
	return out, nil
}

// toFloat32s converts a stored vector (a float32 or float64 array, as the
// driver returns it) to []float32.
func toFloat32s(v any) []float32 {
	switch x := v.(type) {
	case []float32:
		return x
	case []float64:
		out := make([]float32, len(x))
		for i, f := range x {
			out[i] = float32(f)
		}
		return out
	case []any:
		out := make([]float32, 0, len(x))
		for _, e := range x {
			switch f := e.(type) {
			case float64:
				out = append(out, float32(f))
			case float32:
				out = append(out, f)
			default:
				return nil
			}
		}
		return out
	}
	return nil
}
