package graph

import (
	"context"
	"fmt"
	"slices"
)

// VectorHit is a tiered node found by vector similarity.
type VectorHit struct {
	Kind    string // raw, event or insight
	Raw     RawEvent
	Node    EventNode
	Insight Insight
	Score   float64 // cosine similarity mapped to [0,1] by Neo4j
	// Held is set, and only Ref is filled, for a memory the caller said it
	// already holds (VectorQuery.Held): its node was not read.
	Held bool
	Ref  VectorRef
	// FactVec, when set, is the unit vector of a fact read from the
	// memory (a raw turn) that earned the score, being nearer the query
	// than the turn's own text.
	FactVec []float32
}

// VectorRef names a memory found by vector: its tier, its session (raw
// turns and summaries) and its id.
type VectorRef struct {
	Kind, SessionID, ID string
}

// VectorQuery is one vector search.
type VectorQuery struct {
	Vec   []float32
	Limit int
	// MinScore drops hits scoring below it (the caller would discard them).
	MinScore float64
	// Kinds are the tiers wanted (raw, event, insight); empty means all.
	Kinds []string
	// FactMinScore, when above 0, scores a raw turn by the best of its
	// text and those facts read from it (refreshStale) that score at least
	// FactMinScore: for questions worded unlike the turns they ask about.
	// At 0 only the texts count.
	FactMinScore float64
	// Held reports the memories the caller already holds, found by the
	// full-text search of the same scope (so they pass its filter): they
	// come back as Held hits, by ref and score, without reading their
	// nodes again. Nil holds none.
	Held func(VectorRef) bool
}

// wants reports whether a memory of that kind and score can be returned.
func (q VectorQuery) wants(kind string, score float64) bool {
	return score >= q.MinScore && (len(q.Kinds) == 0 || slices.Contains(q.Kinds, kind))
}

// VectorSearch returns the scope's nodes nearest to vec, by exact cosine
// over the user's embedded memories, not through the vector index. Neo4j
// 5.26 cannot filter inside a vector index: an approximate search over
// every tenant's vectors, cut to this user's afterwards, misses a user with
// few memories in a large database entirely (measured: a user's 5 turns
// among 20,000 others found none of them). The exact scan runs in Go over
// the user's vectors held in memory (vectorcache.go); Neo4j then reads only
// the nodes that made the cut, applying the scope filter. A user whose
// vectors do not fit in the cache is scanned in Cypher instead.
func (s *Store) VectorSearch(ctx context.Context, sc SearchScope, q VectorQuery) ([]VectorHit, error) {
	if s.cfg.EmbeddingDimensions == 0 || len(q.Vec) != s.cfg.EmbeddingDimensions || q.Limit <= 0 {
		return nil, nil
	}
	u, err := s.userVectors(ctx, userKey{sc.Tenant, sc.UserID})
	if err != nil {
		return nil, fmt.Errorf("vector search: %w", err)
	}
	if u == nil {
		return s.vectorScan(ctx, sc, q)
	}
	ranked := u.rank(q.Vec, sc.SessionID, q.MinScore, q.FactMinScore)
	// The hits found by a fact carry that fact's vector (the caller reads
	// its topic); copied while the entry is locked.
	for i := range ranked {
		if c := &ranked[i]; c.ref.fact {
			c.vec = slices.Clone(u.vecs[c.row*u.dims : (c.row+1)*u.dims])
		}
	}
	u.mu.RUnlock()
	return s.vectorNodes(ctx, sc, ranked, q)
}

// vectorHitFields projects a vector hit as full-text search reads the same
// tier: never the embedding, nor a summary's stored condensation record and
// config (which made the vector hits' payload several times the text
// search's). A raw turn, most of the hits, comes as a light row whose
// text the raw cache holds (rawLight), as in the full-text statement. vectorHitKind names its tier,
// so no label list is shipped.
var vectorHitFields = `CASE WHEN node:Raw THEN ` + rawLight("node") + `
		     WHEN node:Event THEN node {` + eventSearchFields + `}
		     ELSE node {` + insightSearchFields + `} END`

const vectorHitKind = `CASE WHEN node:Raw THEN 'raw' WHEN node:Event THEN 'event' WHEN node:Insight THEN 'insight' ELSE '' END`

// vectorNodes reads the nodes of the best ranked memories until limit of
// them pass the scope filter (or none is left): most searches take one
// round trip, since the cache already kept only the scope's session; the
// filter drops superseded insights, memories after as_of or of another
// agent, and memories deleted since the cache read them.
//
// The nodes come back as one record holding a list: a row per node cost
// Neo4j and the driver about twice as much CPU as the same maps in one
// list (measured with 85 turns: 1.6 against 0.9 ms in Neo4j, 0.9 against
// 0.4 ms in graphmem).
func (s *Store) vectorNodes(ctx context.Context, sc SearchScope, ranked []scored, q VectorQuery) ([]VectorHit, error) {
	limit := q.Limit
	out := make([]VectorHit, 0, limit)
	next := 0
	// Insights the cache saw superseded are dropped by the filter unless
	// history or a point in time is asked for; they are still sent (the
	// filter decides, should one be current again) but not counted, so
	// they do not cost a second round trip.
	likelyDropped := func(c scored) bool {
		return c.ref.superseded && !sc.IncludeHistory && sc.AsOf == nil
	}
	for round := 0; next < len(ranked) && len(out) < limit; round++ {
		// The first read asks for exactly what is missing (the filter
		// rarely drops any); a later one, after the filter dropped some,
		// for twice that, so scoped searches converge in a few trips.
		want, start := (limit-len(out))<<min(round, 1), len(out)
		var keys []map[string]any
		counted := 0
		score := make(map[string]float64, want)
		viaFact := map[string][]float32{} // element id → the fact vector that found it
		for ; next < len(ranked) && counted+len(out)-start < want; next++ {
			c := ranked[next]
			if c.score < q.MinScore {
				next = len(ranked) // ranked best first: nothing after scores more
				break
			}
			if !q.wants(c.ref.kind, c.score) {
				continue
			}
			ref := VectorRef{Kind: c.ref.kind, SessionID: c.ref.sessionID, ID: c.ref.id}
			if q.Held != nil && q.Held(ref) {
				out = append(out, VectorHit{Kind: ref.Kind, Score: c.score, Held: true, Ref: ref, FactVec: c.vec})
				continue
			}
			keys = append(keys, map[string]any{"eid": c.ref.elementID, "id": c.ref.id})
			score[c.ref.elementID] = c.score
			if c.ref.fact {
				viaFact[c.ref.elementID] = c.vec
			}
			if !likelyDropped(c) {
				counted++
			}
		}
		if len(keys) == 0 {
			continue
		}
		params := scopeParams(sc)
		params["keys"] = keys
		res, err := s.read(ctx, "search.vector_nodes", `
			UNWIND $keys AS k
			MATCH (node:Memory) WHERE elementId(node) = k.eid
			WITH node, k WHERE node.id = k.id AND node.embedding IS NOT NULL AND `+memoryFilter+`
			RETURN collect({eid: k.eid, kind: `+vectorHitKind+`, p: `+vectorHitFields+`}) AS hits`, params)
		if err != nil {
			return nil, fmt.Errorf("vector search: %w", err)
		}
		var hits []VectorHit
		if len(res.Records) > 0 {
			if hits, err = s.decodeVectorHits(ctx, sc, rows(res.Records[0], "hits"), func(row map[string]any) (float64, []float32) {
				return score[str(row, "eid")], viaFact[str(row, "eid")]
			}); err != nil {
				return nil, err
			}
		}
		out = append(out, hits...)
	}
	slices.SortStableFunc(out, func(a, b VectorHit) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	return out[:min(len(out), limit)], nil
}

// vectorScan is the exact scan in Cypher, for a user too large to cache.
func (s *Store) vectorScan(ctx context.Context, sc SearchScope, q VectorQuery) ([]VectorHit, error) {
	query := make([]float64, len(q.Vec))
	for i, v := range q.Vec {
		query[i] = float64(v)
	}
	params := scopeParams(sc)
	params["vec"], params["limit"] = query, int64(q.Limit)
	res, err := s.read(ctx, "search.vector", `
		MATCH (node:Memory {tenant: $tenant, user_id: $user}) WHERE node.embedding IS NOT NULL AND `+memoryFilter+`
		WITH node, vector.similarity.cosine(node.embedding, $vec) AS score
		ORDER BY score DESC LIMIT $limit
		RETURN collect({kind: `+vectorHitKind+`, p: `+vectorHitFields+`, score: score}) AS hits`, params)
	if err != nil {
		return nil, fmt.Errorf("vector search: %w", err)
	}
	if len(res.Records) == 0 {
		return nil, nil
	}
	hits, err := s.decodeVectorHits(ctx, sc, rows(res.Records[0], "hits"), func(row map[string]any) (float64, []float32) { return f64(row, "score"), nil })
	return slices.DeleteFunc(hits, func(h VectorHit) bool { return !q.wants(h.Kind, h.Score) }), err
}

// decodeVectorHits reads the hits of one collected list, in its order;
// score gives a row's score and the vector of the fact that earned it, if
// one did. Raw turns come as light rows, completed from the raw cache.
func (s *Store) decodeVectorHits(ctx context.Context, sc SearchScope, list []map[string]any,
	score func(map[string]any) (float64, []float32)) ([]VectorHit, error) {
	out := make([]VectorHit, 0, len(list))
	var lights []lightRaw
	var rawAt []int // index in out of each light row's hit
	for _, row := range list {
		p := mapOf(row, "p")
		h := VectorHit{Kind: str(row, "kind")}
		h.Score, h.FactVec = score(row)
		switch h.Kind {
		case "raw":
			l, ok := decodeLight(sc.Tenant, sc.UserID, row["p"])
			if !ok {
				continue
			}
			lights = append(lights, l)
			rawAt = append(rawAt, len(out))
		case "event":
			h.Node = decodeEventNode(p)
		case "insight":
			h.Insight = decodeInsight(p)
		default:
			continue
		}
		out = append(out, h)
	}
	if len(lights) == 0 {
		return out, nil
	}
	evs, found, err := s.completeRaws(ctx, sc, lights)
	if err != nil {
		return nil, err
	}
	gone := map[int]bool{}
	for i, at := range rawAt {
		if found[i] {
			out[at].Raw = evs[i]
		} else {
			gone[at] = true // deleted between the statements
		}
	}
	if len(gone) > 0 {
		kept := out[:0]
		for i, h := range out {
			if !gone[i] {
				kept = append(kept, h)
			}
		}
		out = kept
	}
	return out, nil
}

// TurnRef names a raw turn: its session and its client id.
type TurnRef struct {
	SessionID string
	ID        string
}

// rawVectors reads the stored vectors of the given turns of the scope's
// user from the graph; turns not embedded yet are absent from the map.
// Vectors calls it for the turns its cache does not hold.
func (s *Store) rawVectors(ctx context.Context, sc SearchScope, turns []TurnRef) (map[TurnRef][]float32, error) {
	if len(turns) == 0 {
		return nil, nil
	}
	keys := make([]map[string]any, len(turns))
	for i, t := range turns {
		keys[i] = map[string]any{"session": t.SessionID, "id": t.ID}
	}
	res, err := s.read(ctx, "search.raw_vectors", `
		UNWIND $keys AS k
		MATCH (r:Raw {tenant: $tenant, session_id: k.session, id: k.id}) WHERE r.user_id = $user AND r.embedding IS NOT NULL
		RETURN r.session_id AS session, r.id AS id, r.embedding AS vec`,
		map[string]any{"tenant": sc.Tenant, "user": sc.UserID, "keys": keys})
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

// memoryRef is how the vector cache names a memory for Vectors: a raw
// turn by its session and id (ids are unique within a session only), a
// summary or an insight by its id.
func memoryRef(kind, sessionID, id string) VectorRef {
	if kind != "raw" {
		sessionID = ""
	}
	return VectorRef{Kind: kind, SessionID: sessionID, ID: id}
}

// Vectors returns the stored unit vectors of the user's memories named by
// refs (raw turns, summaries, insights), so a search can weigh by meaning
// every candidate it holds, not only the nearest neighbours it fetched. They
// come from the vector cache, which the search's VectorSearch has just
// loaded, so the usual call costs Neo4j nothing; raw turns the cache does
// not hold (a user too large to cache, a turn embedded a moment ago) are
// read from the graph. A memory with no vector yet is absent from the map.
func (s *Store) Vectors(ctx context.Context, sc SearchScope, refs []VectorRef) (map[VectorRef][]float32, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	out := make(map[VectorRef][]float32, len(refs))
	var missing []TurnRef
	u, err := s.userVectors(ctx, userKey{sc.Tenant, sc.UserID})
	if err != nil {
		return nil, fmt.Errorf("vectors: %w", err)
	}
	for _, ref := range refs {
		if u != nil {
			if i, ok := u.byRef[memoryRef(ref.Kind, ref.SessionID, ref.ID)]; ok {
				out[ref] = slices.Clone(u.vecs[i*u.dims : (i+1)*u.dims])
				continue
			}
		}
		if ref.Kind == "raw" {
			missing = append(missing, TurnRef{SessionID: ref.SessionID, ID: ref.ID})
		}
	}
	if u != nil {
		u.mu.RUnlock()
	}
	if len(missing) == 0 {
		return out, nil
	}
	raw, err := s.rawVectors(ctx, sc, missing)
	if err != nil {
		return nil, err
	}
	for t, v := range raw {
		out[VectorRef{Kind: "raw", SessionID: t.SessionID, ID: t.ID}] = unitCopy(v)
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
