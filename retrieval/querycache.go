package retrieval

import (
	"context"
	"sync/atomic"

	lru "github.com/hashicorp/golang-lru/v2"
)

// queryCache keeps the vectors of the questions searched last, so a
// question asked again costs no model run. Agents ask the same things over
// and over (the context of every turn, "what does the user prefer", a
// tool's fixed recall queries), and embedding the question is most of a
// search's CPU in graphmem (docs/embedding.md). An exact text gives an
// exact vector: the embedder is deterministic for one text per call (the
// query side's int8 kernels too), so a hit is what the model would have
// returned and ranking never changes with the cache.
//
// Entries are kept per tenant, though a text's vector is everyone's: a
// cache shared across tenants would let one time its searches to learn
// which questions another asked lately.
type queryCache struct {
	entries      *lru.Cache[string, []float32]
	hits, misses atomic.Int64
}

// newQueryCache returns a cache of size questions, or nil when size is not
// positive (no cache).
func newQueryCache(size int) *queryCache {
	if size <= 0 {
		return nil
	}
	c, err := lru.New[string, []float32](size)
	if err != nil {
		return nil // only for a non-positive size, excluded above
	}
	return &queryCache{entries: c}
}

// embedQuery returns the question's vector from the cache, or embeds it
// and keeps it. The caller gets its own copy.
func (s *Service) embedQuery(ctx context.Context, tenant, query string) ([][]float32, error) {
	c := s.qcache
	if c == nil {
		return s.embedder.Embed(ctx, []string{query})
	}
	key := tenant + "\x00" + query
	if v, ok := c.entries.Get(key); ok {
		c.hits.Add(1)
		return [][]float32{append([]float32(nil), v...)}, nil
	}
	c.misses.Add(1)
	vecs, err := s.embedder.Embed(ctx, []string{query})
	if err != nil || len(vecs) != 1 {
		return vecs, err
	}
	c.entries.Add(key, append([]float32(nil), vecs[0]...))
	return vecs, nil
}

// QueryCacheStats returns the searches whose question vector came from
// the cache and those that ran the embedder, since the start (zeros
// without a cache).
func (s *Service) QueryCacheStats() (hits, misses int64) {
	if s.qcache == nil {
		return 0, 0
	}
	return s.qcache.hits.Load(), s.qcache.misses.Load()
}
