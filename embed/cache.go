package embed

import (
	"context"
	"fmt"
	"sync/atomic"

	lru "github.com/hashicorp/golang-lru/v2"
)

// QueryCache keeps the vectors of the questions a search embedded last, so
// a question asked again costs no model run. Agents ask the same things
// over and over (the context of every turn, "what does the user prefer",
// a tool's fixed recall queries), and embedding the question is most of a
// search's CPU in graphmem (docs/embedding.md). An exact text gives an
// exact vector: the embedder is deterministic for one text per call, so a
// hit returns what the model would have returned, and ranking never
// changes with the cache.
//
// Only calls of one text are cached. Several texts in one call may be
// computed together, and an embedder whose int8 kernels quantize per batch
// gives each text a vector that depends on its batch-mates; such calls
// pass through.
type QueryCache struct {
	inner        Embedder
	cache        *lru.Cache[string, []float32]
	hits, misses atomic.Int64
}

// NewQueryCache wraps inner with a cache of the given number of questions
// (about 1.6 KB each for a 384-dimension model).
func NewQueryCache(inner Embedder, entries int) (*QueryCache, error) {
	c, err := lru.New[string, []float32](entries)
	if err != nil {
		return nil, fmt.Errorf("query cache of %d entries: %w", entries, err)
	}
	return &QueryCache{inner: inner, cache: c}, nil
}

// Embed returns the cached vector of a single text, or embeds it with the
// inner embedder and keeps it. The caller gets its own copy.
func (q *QueryCache) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) != 1 {
		return q.inner.Embed(ctx, texts)
	}
	if v, ok := q.cache.Get(texts[0]); ok {
		q.hits.Add(1)
		return [][]float32{append([]float32(nil), v...)}, nil
	}
	q.misses.Add(1)
	vecs, err := q.inner.Embed(ctx, texts)
	if err != nil || len(vecs) != 1 {
		return vecs, err
	}
	q.cache.Add(texts[0], append([]float32(nil), vecs[0]...))
	return vecs, nil
}

// Dimensions is the inner embedder's.
func (q *QueryCache) Dimensions() int { return q.inner.Dimensions() }

// Model is the inner embedder's: a cached vector is the model's own.
func (q *QueryCache) Model() string { return q.inner.Model() }

// Stats returns the single-text calls answered from the cache and those
// that ran the model, since the start.
func (q *QueryCache) Stats() (hits, misses int64) { return q.hits.Load(), q.misses.Load() }
