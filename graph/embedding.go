package graph

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// The embedding lane's queue lives in the graph itself: every tiered node
// (raw turn, summary, insight) is created with the :Unembedded label and an
// embed_queued_at time, and loses both when its vector is stored. The queue
// is therefore as durable as the nodes, needs no job per item, and a node
// written while the embedder is off is embedded as soon as one is on.

// PendingEmbedding is one tiered node waiting for its vector.
type PendingEmbedding struct {
	ElementID string
	Tenant    string
	Kind      string // raw, event or insight
	Text      string
	// Facts are the sentences of the facts read from a raw turn (see
	// refreshStale); each is embedded beside the turn's text.
	Facts    []string
	QueuedAt time.Time
}

// EmbeddingResult is the outcome for one claimed node: its vector, or nil
// when it has no text worth embedding (it leaves the queue all the same).
type EmbeddingResult struct {
	ElementID string
	Vector    []float32
	// Facts are the vectors of the claimed Facts, in their order, and
	// FactSentences the sentences they embed: a turn whose facts changed
	// since the claim stays queued (CompleteEmbeddings).
	Facts         [][]float32
	FactSentences []string
}

// ClaimEmbeddings leases up to limit queued nodes, oldest first, for lease:
// another lane (of this or another replica) skips them until the lease
// ends, so a lane that dies mid-batch leaves its nodes to the next one.
// tenants, when not empty, restricts the claim (GRAPHMEM_WORKER_TENANTS).
// Two lanes racing for one node at worst embed it twice: the result is the
// same vector, so no lock beyond the lease is needed.
func (s *Store) ClaimEmbeddings(ctx context.Context, owner string, limit int, lease time.Duration, tenants []string) ([]PendingEmbedding, error) {
	now := time.Now().UTC()
	res, err := s.write(ctx, "embedding.claim", `
		MATCH (n:Unembedded) WHERE n.embed_queued_at IS NOT NULL
		  AND (n.embed_lease_until IS NULL OR n.embed_lease_until < $now)
		  AND (size($tenants) = 0 OR n.tenant IN $tenants)
		WITH n ORDER BY n.embed_queued_at LIMIT $limit
		SET n.embed_lease_until = $until, n.embed_owner = $owner
		RETURN elementId(n) AS id, n.tenant AS tenant, labels(n) AS labels, n.text AS text, n.fact_sentences AS facts,
		       n.embed_queued_at AS queued`,
		map[string]any{"now": now, "until": now.Add(lease), "owner": owner, "limit": int64(limit), "tenants": nonNilStrings(tenants)})
	if err != nil {
		return nil, fmt.Errorf("claim embeddings: %w", err)
	}
	out := make([]PendingEmbedding, 0, len(res.Records))
	for _, rec := range res.Records {
		id, _ := get[string](rec, "id")
		tenant, _ := get[string](rec, "tenant")
		labels, _ := get[[]any](rec, "labels")
		text, _ := get[string](rec, "text")
		queued, _ := get[time.Time](rec, "queued")
		out = append(out, PendingEmbedding{ElementID: id, Tenant: tenant, Kind: memoryKind(labels), Text: text,
			Facts: strs(rec.AsMap(), "facts"), QueuedAt: queued})
	}
	return out, nil
}

// memoryKind names a tiered node's tier from its labels.
func memoryKind(labels []any) string {
	switch {
	case slices.Contains(labels, any("Raw")):
		return "raw"
	case slices.Contains(labels, any("Event")):
		return "event"
	case slices.Contains(labels, any("Insight")):
		return "insight"
	}
	return ""
}

// CompleteEmbeddings stores the vectors of claimed nodes and takes them off
// the queue, recording which model the vectors belong to. A vector of the
// wrong size is ErrInvalid (Neo4j would silently leave it out of the index)
// and nothing is written.
func (s *Store) CompleteEmbeddings(ctx context.Context, model string, results []EmbeddingResult) error {
	if len(results) == 0 {
		return nil
	}
	withVec := make([]map[string]any, 0, len(results))
	done := make([]map[string]any, 0, len(results))
	for _, r := range results {
		done = append(done, map[string]any{"id": r.ElementID, "facts": nonNilStrings(r.FactSentences)})
		if r.Vector == nil {
			continue
		}
		if len(r.Vector) != s.cfg.EmbeddingDimensions {
			return fmt.Errorf("complete embeddings: %w: node %s has %d dimensions, want %d", ErrInvalid, r.ElementID, len(r.Vector), s.cfg.EmbeddingDimensions)
		}
		// A turn's fact vectors are one flat list (fact i at [i*d, (i+1)*d)):
		// only the Go scan reads them, so they need no vector index.
		facts := make([]float64, 0, len(r.Facts)*len(r.Vector))
		for _, f := range r.Facts {
			if len(f) != s.cfg.EmbeddingDimensions {
				return fmt.Errorf("complete embeddings: %w: a fact of node %s has %d dimensions, want %d", ErrInvalid, r.ElementID, len(f), s.cfg.EmbeddingDimensions)
			}
			facts = append(facts, float64s(f)...)
		}
		withVec = append(withVec, map[string]any{"id": r.ElementID, "vec": float64s(r.Vector), "facts": facts})
	}
	if len(withVec) > 0 {
		if _, err := s.write(ctx, "embedding.set", `
			UNWIND $rows AS row
			MATCH (n:Unembedded) WHERE elementId(n) = row.id
			CALL db.create.setNodeVectorProperty(n, 'embedding', row.vec)
			SET n.embed_facts = CASE WHEN size(row.facts) > 0 THEN row.facts END`,
			map[string]any{"rows": withVec}); err != nil {
			return fmt.Errorf("store embeddings: %w", err)
		}
	}
	// embedded_at (Neo4j's clock) lets other replicas' vector caches read
	// only what was embedded since their last look (vectorcache.go). A turn
	// whose fact sentences changed after the claim (an extraction wrote
	// while the batch was embedded) keeps its place in the queue, freed
	// from the lease, so the next batch embeds its new facts.
	res, err := s.write(ctx, "embedding.done", `
		UNWIND $rows AS row
		MATCH (n:Unembedded) WHERE elementId(n) = row.id
		SET n.embedding_model = $model, n.embedded_at = datetime()
		REMOVE n.embed_lease_until, n.embed_owner
		WITH n, row
		CALL (n, row) {
		  WITH n WHERE coalesce(n.fact_sentences, []) = row.facts
		  REMOVE n:Unembedded, n.embed_queued_at
		}
		RETURN row.id AS id, n.tenant AS tenant, n.user_id AS user, labels(n) AS labels, n.session_id AS session, n.id AS nid`,
		map[string]any{"rows": done, "model": model})
	if err != nil {
		return fmt.Errorf("dequeue embeddings: %w", err)
	}
	byID := make(map[string]EmbeddingResult, len(results))
	for _, r := range results {
		if r.Vector != nil {
			byID[r.ElementID] = r
		}
	}
	stored := map[userKey][]cachedVector{}
	for _, rec := range res.Records {
		id, _ := get[string](rec, "id")
		labels, _ := get[[]any](rec, "labels")
		tenant, _ := get[string](rec, "tenant")
		user, _ := get[string](rec, "user")
		session, _ := get[string](rec, "session")
		nid, _ := get[string](rec, "nid")
		r, ok := byID[id]
		if !ok || memoryKind(labels) == "" {
			continue
		}
		k := userKey{tenant, user}
		ref := vectorRef{elementID: id, kind: memoryKind(labels), sessionID: session, id: nid}
		stored[k] = append(stored[k], cachedVector{ref: ref, vec: r.Vector, facts: r.Facts})
	}
	s.cacheEmbedded(stored)
	return nil
}

// float64s converts a vector to the float64 list Neo4j stores.
func float64s(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// EmbeddingBacklog is the queue's size and the time its oldest node was
// queued (zero when it is empty): the lane's lag.
type EmbeddingBacklog struct {
	Pending int64
	Oldest  time.Time
}

// EmbeddingBacklog reads the queue's size and age; tenants, when not empty,
// restricts it to those tenants.
func (s *Store) EmbeddingBacklog(ctx context.Context, tenants []string) (EmbeddingBacklog, error) {
	res, err := s.read(ctx, "embedding.backlog", `
		MATCH (n:Unembedded) WHERE n.embed_queued_at IS NOT NULL AND (size($tenants) = 0 OR n.tenant IN $tenants)
		RETURN count(n) AS pending, min(n.embed_queued_at) AS oldest`,
		map[string]any{"tenants": nonNilStrings(tenants)})
	if err != nil {
		return EmbeddingBacklog{}, fmt.Errorf("embedding backlog: %w", err)
	}
	var b EmbeddingBacklog
	if len(res.Records) == 1 {
		b.Pending, _ = get[int64](res.Records[0], "pending")
		b.Oldest, _ = get[time.Time](res.Records[0], "oldest")
	}
	return b, nil
}

// SessionEmbedded reports whether every tiered node of a session has left
// the queue: what close?wait=true waits for after the session's jobs.
func (s *Store) SessionEmbedded(ctx context.Context, tenant, sessionID string) (bool, error) {
	res, err := s.read(ctx, "embedding.session", `
		RETURN COUNT { MATCH (r:Raw:Unembedded {tenant: $tenant, session_id: $session}) }
		     + COUNT { MATCH (e:Event:Unembedded {tenant: $tenant, session_id: $session}) } AS pending`,
		map[string]any{"tenant": tenant, "session": sessionID})
	if err != nil {
		return false, fmt.Errorf("session embeddings: %w", err)
	}
	pending, _ := get[int64](res.Records[0], "pending")
	return pending == 0, nil
}

// requeueBatch bounds one requeue transaction.
const requeueBatch = 5000

// RequeueEmbeddings puts back on the queue every tiered node (of tenants,
// when not empty: a replica dedicated to some tenants) whose vector is
// missing or belongs to another model than model, once per model change:
// a marker node per tenant set remembers the model it was last embedded
// with, so a normal start costs one read. It returns how many nodes were
// queued.
func (s *Store) RequeueEmbeddings(ctx context.Context, model string, tenants []string) (int64, error) {
	key := "memory"
	if len(tenants) > 0 {
		sorted := slices.Sorted(slices.Values(tenants))
		key = "memory:" + strings.Join(sorted, ",")
	}
	res, err := s.read(ctx, "embedding.marker", `
		OPTIONAL MATCH (m:EmbeddingState {key: $key}) RETURN m.model AS model`, map[string]any{"key": key})
	if err != nil {
		return 0, fmt.Errorf("read embedding marker: %w", err)
	}
	if len(res.Records) == 1 {
		if have, _ := get[string](res.Records[0], "model"); have == model {
			return 0, nil
		}
	}
	var total int64
	for {
		res, err := s.write(ctx, "embedding.requeue", `
			MATCH (n:Memory) WHERE NOT n:Unembedded AND (n.embedding_model IS NULL OR n.embedding_model <> $model)
			  AND (size($tenants) = 0 OR n.tenant IN $tenants)
			WITH n LIMIT $batch
			SET n:Unembedded, n.embed_queued_at = coalesce(n.recorded_at, n.created_at, $now)
			RETURN count(n) AS n`,
			map[string]any{"model": model, "batch": int64(requeueBatch), "now": time.Now().UTC(), "tenants": nonNilStrings(tenants)})
		if err != nil {
			return total, fmt.Errorf("requeue embeddings: %w", err)
		}
		n, _ := get[int64](res.Records[0], "n")
		total += n
		if n < requeueBatch {
			break
		}
	}
	if _, err := s.write(ctx, "embedding.mark", `
		MERGE (m:EmbeddingState {key: $key}) SET m.model = $model, m.updated_at = $now`,
		map[string]any{"key": key, "model": model, "now": time.Now().UTC()}); err != nil {
		return total, fmt.Errorf("write embedding marker: %w", err)
	}
	return total, nil
}
