package graph

import (
	"container/list"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"
	"time"
)

// Vector search scans one user's vectors exactly (see VectorSearch). Done
// in Cypher, that scan cost Neo4j ~12 ms of CPU per search on LoCoMo (every
// vector of the user read from the store and converted, then 100 whole
// nodes serialised); done in Go over vectors held in memory it costs tens of
// microseconds, and Neo4j only reads the nodes that made the cut.
//
// The cache holds, per (tenant, user), every embedded memory's element id,
// kind, session, client id and vector (float32, so scores are the ones the
// Cypher scan gave). It is a cache of the graph, never a source of truth:
//
//   - A user's vectors are loaded on their first vector search, whole.
//   - This process's embedding lane adds what it embeds as it stores it
//     (CompleteEmbeddings), so a search right after close?wait=true sees
//     every vector.
//   - Vectors stored by another replica's lane are picked up by a refresh
//     once a user's entry is older than refreshAfter: a read of the
//     memories embedded since the last one (embedded_at, Neo4j's clock),
//     cheap because it reads no vector that is already held. So a replica
//     sees another's new vectors at most refreshAfter late; meanwhile the
//     full-text index finds those memories. A TTL was chosen over a version
//     stamp bumped on every write because the stamp would be one more write
//     per embedded batch and one more read per search, for a delay that the
//     lexical index already covers.
//   - The whole entry is reloaded after reloadAfter, which drops vectors of
//     memories deleted by forget or retention elsewhere. Until then a
//     deleted memory can only waste a slot: nodes are read back by element
//     id with their client id checked (an element id can be reused by a new
//     node) and the scope filter applied, so a stale entry never returns a
//     wrong or foreign node.
//   - Memory is bounded: at most maxFloats float32s in all, least recently
//     searched users evicted first. A user whose vectors alone exceed the
//     bound is not cached; their search falls back to the Cypher scan.
type vectorCache struct {
	maxFloats    int
	refreshAfter time.Duration
	reloadAfter  time.Duration

	mu     sync.Mutex
	users  map[userKey]*userVectors
	lru    list.List // of *userVectors, most recently used first
	floats int       // float32s held by every entry
	// tooLarge remembers, until a reload is due, the users whose vectors
	// alone exceed the bound, so they are not loaded again on every search.
	tooLarge map[userKey]time.Time
}

type userKey struct{ tenant, user string }

// userVectors is one user's embedded memories. mu guards everything below
// it; searches hold it for reading while they scan.
type userVectors struct {
	key  userKey
	elem *list.Element // in vectorCache.lru; guarded by vectorCache.mu
	size int           // float32s counted in vectorCache.floats; guarded by vectorCache.mu

	mu       sync.RWMutex
	loaded   bool
	loadedAt time.Time // local clock: the last full load
	checked  time.Time // local clock: the last refresh
	since    time.Time // Neo4j's clock: refreshes read what was embedded after it
	dims     int
	refs     []vectorRef
	at       map[string]int    // element id → index in refs
	byRef    map[VectorRef]int // memoryRef(kind, session, id) → index in refs
	vecs     []float32         // refs[i]'s vector at [i*dims, (i+1)*dims), unit length
}

// vectorRef names one cached memory. superseded is an insight's status
// when the cache read it: a hint that the scope filter will drop it (see
// vectorNodes), never a reason to leave it out.
type vectorRef struct {
	elementID, kind, sessionID, id string
	superseded                     bool
	// fact marks the row of a fact read from the memory (a raw turn), not
	// the memory's own text.
	fact bool
}

// splitVectors cuts a flat list of fact vectors (embed_facts) into vectors
// of dims; a list of another size is ignored.
func splitVectors(flat []float32, dims int) [][]float32 {
	if dims == 0 || len(flat) == 0 || len(flat)%dims != 0 {
		return nil
	}
	out := make([][]float32, 0, len(flat)/dims)
	for i := 0; i < len(flat); i += dims {
		out = append(out, flat[i:i+dims:i+dims])
	}
	return out
}

// Defaults: 64 MiB of vectors (about 43,000 MiniLM vectors), refreshed
// after 5 s, reloaded after 10 minutes.
const (
	defaultVectorCacheBytes = 64 << 20
	defaultVectorRefresh    = 5 * time.Second
	vectorReloadAfter       = 10 * time.Minute
)

func newVectorCache(maxBytes int64, refresh time.Duration) *vectorCache {
	if maxBytes == 0 {
		maxBytes = defaultVectorCacheBytes
	}
	if refresh <= 0 {
		refresh = defaultVectorRefresh
	}
	return &vectorCache{maxFloats: int(maxBytes / 4), refreshAfter: refresh, reloadAfter: max(vectorReloadAfter, refresh),
		users: map[userKey]*userVectors{}, tooLarge: map[userKey]time.Time{}}
}

// skip reports whether the user is known not to fit.
func (c *vectorCache) skip(k userKey) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	at, ok := c.tooLarge[k]
	if ok && time.Since(at) >= c.reloadAfter {
		delete(c.tooLarge, k)
		return false
	}
	return ok
}

// entry returns the user's entry, creating it, and marks it used.
func (c *vectorCache) entry(k userKey) *userVectors {
	c.mu.Lock()
	defer c.mu.Unlock()
	u := c.users[k]
	if u == nil {
		u = &userVectors{key: k}
		u.elem = c.lru.PushFront(u)
		c.users[k] = u
		return u
	}
	c.lru.MoveToFront(u.elem)
	return u
}

// cached returns the user's entry when it exists, without creating one.
func (c *vectorCache) cached(k userKey) *userVectors {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.users[k]
}

// resize records an entry's new size and evicts the least recently used
// entries (never keep) until the cache fits. It reports false when keep
// alone is too large, and drops it.
func (c *vectorCache) resize(keep *userVectors, size int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.users[keep.key] != keep {
		return true // dropped meanwhile: not counted any more
	}
	c.floats += size - keep.size
	keep.size = size
	if size > c.maxFloats {
		c.dropLocked(keep)
		c.tooLarge[keep.key] = time.Now()
		return false
	}
	for c.floats > c.maxFloats {
		last := c.lru.Back()
		if last == nil || last.Value.(*userVectors) == keep {
			break
		}
		c.dropLocked(last.Value.(*userVectors))
	}
	return true
}

func (c *vectorCache) dropLocked(u *userVectors) {
	c.lru.Remove(u.elem)
	delete(c.users, u.key)
	c.floats -= u.size
}

// drop forgets a user's entry (erasure of the user); a nil cache has none.
func (c *vectorCache) drop(k userKey) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if u := c.users[k]; u != nil {
		c.dropLocked(u)
	}
}

// cachedVector is one memory read from the graph for the cache: its
// text's vector and, for a raw turn, the vectors of the facts read from it.
type cachedVector struct {
	ref   vectorRef
	vec   []float32
	facts [][]float32
}

// put adds or replaces vectors; the caller holds u.mu for writing.
func (u *userVectors) put(vs []cachedVector) {
	if u.at == nil {
		u.at, u.byRef = map[string]int{}, map[VectorRef]int{}
	}
	for _, v := range vs {
		if u.dims == 0 {
			u.dims = len(v.vec)
		}
		if len(v.vec) != u.dims {
			continue // another model's size: the requeue will replace it
		}
		i := u.putOne(v.ref.elementID, v.ref, v.vec)
		u.byRef[memoryRef(v.ref.kind, v.ref.sessionID, v.ref.id)] = i
		// A turn's fact vectors are rows of their own under the turn's
		// ref (rank keeps a memory's best row). A fact that no longer
		// comes from the turn keeps its row until the next full reload,
		// where it can only lend the turn a score it once earned.
		for j, f := range v.facts {
			if len(f) == u.dims {
				ref := v.ref
				ref.fact = true
				u.putOne(v.ref.elementID+"#"+strconv.Itoa(j), ref, f)
			}
		}
	}
}

// putOne adds or replaces one row under key; it returns the row's index.
func (u *userVectors) putOne(key string, ref vectorRef, vec []float32) int {
	unit := unitCopy(vec)
	if i, ok := u.at[key]; ok {
		u.refs[i] = ref
		copy(u.vecs[i*u.dims:(i+1)*u.dims], unit)
		return i
	}
	i := len(u.refs)
	u.at[key] = i
	u.refs = append(u.refs, ref)
	u.vecs = append(u.vecs, unit...)
	return i
}

func unitCopy(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	out := make([]float32, len(v))
	if n == 0 {
		return out
	}
	inv := 1 / math.Sqrt(n)
	for i, x := range v {
		out[i] = float32(float64(x) * inv)
	}
	return out
}

// scored is one cached memory with its score, (1 + cosine) / 2 as Neo4j's
// vector.similarity.cosine gives it, by its text or (ref.fact) by the best
// of the facts read from it.
type scored struct {
	ref   vectorRef
	score float64
	row   int       // the row's index in the entry
	vec   []float32 // a fact row's vector, copied for the hit (VectorSearch)
}

// rank scores every cached memory that can be in scope (sessionID, when
// set, keeps that session's turns and summaries and every insight) and
// scores at least minScore, best first, by its text or, with factMin above
// 0, by the best of its text and the facts read from it that score at
// least factMin; the caller holds u.mu for reading.
// Memories below the floor are never read, so they are not sorted either
// (with MiniLM about half of a user's memories sit below the default floor).
func (u *userVectors) rank(query []float32, sessionID string, minScore, factMin float64) []scored {
	if u.dims == 0 || len(query) != u.dims {
		return nil
	}
	q := unitCopy(query)
	out := make([]scored, 0, len(u.refs))
	for i, ref := range u.refs {
		if sessionID != "" && ref.kind != "insight" && ref.sessionID != sessionID || ref.fact && factMin <= 0 {
			continue
		}
		dot := dot32(q, u.vecs[i*u.dims:(i+1)*u.dims:(i+1)*u.dims])
		if score := (1 + float64(dot)) / 2; score >= minScore && (!ref.fact || score >= factMin) {
			out = append(out, scored{ref: ref, score: score, row: i})
		}
	}
	slices.SortFunc(out, func(a, b scored) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	// A memory's best row stands for it: a turn and its facts are one hit.
	seen := make(map[string]bool, len(out))
	return slices.DeleteFunc(out, func(c scored) bool {
		dup := seen[c.ref.elementID]
		seen[c.ref.elementID] = true
		return dup
	})
}

// dot32 is the dot product of two vectors of one size, with four
// independent sums (about twice as fast as one: the additions no longer
// wait for each other).
func dot32(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// userVectors returns the user's entry, loaded and refreshed as needed,
// locked for reading (the caller unlocks it), or nil when the user's
// vectors do not fit in the cache.
func (s *Store) userVectors(ctx context.Context, k userKey) (*userVectors, error) {
	c := s.vcache
	if c == nil || c.skip(k) {
		return nil, nil
	}
	u := c.entry(k)
	u.mu.RLock()
	if u.loaded && time.Since(u.checked) < c.refreshAfter {
		return u, nil
	}
	u.mu.RUnlock()

	u.mu.Lock()
	switch {
	case !u.loaded || time.Since(u.loadedAt) >= c.reloadAfter:
		if err := s.loadUserVectors(ctx, u, true); err != nil {
			u.mu.Unlock()
			return nil, err
		}
	case time.Since(u.checked) >= c.refreshAfter:
		if err := s.loadUserVectors(ctx, u, false); err != nil {
			u.mu.Unlock()
			return nil, err
		}
	}
	size := len(u.vecs)
	u.mu.Unlock()
	if !c.resize(u, size) {
		return nil, nil
	}
	u.mu.RLock()
	return u, nil
}

// loadUserVectors reads the user's vectors: all of them (full), or those
// embedded since the last read. The caller holds u.mu for writing.
// Refreshes overlap the previous read by a few seconds: a transaction that
// stamped embedded_at before the last read started may have committed after
// it; put dedupes by element id. A refresh tests embedded_at first, so it
// does not read the embedding of every memory it skips.
func (s *Store) loadUserVectors(ctx context.Context, u *userVectors, full bool) error {
	since := u.since.Add(-10 * time.Second)
	if full {
		since = time.Time{}
	}
	res, err := s.read(ctx, "search.vector_cache", `
		CALL () {
		  MATCH (n:Memory {tenant: $tenant, user_id: $user})
		  WHERE ($full OR n.embedded_at >= $since) AND n.embedding IS NOT NULL
		  RETURN collect({eid: elementId(n), labels: labels(n), session: n.session_id, id: n.id, status: n.status, vec: n.embedding,
		                  facts: n.embed_facts}) AS rows
		}
		RETURN datetime() AS now, rows`,
		map[string]any{"tenant": u.key.tenant, "user": u.key.user, "full": full, "since": since.UTC()})
	if err != nil {
		return fmt.Errorf("load vectors: %w", err)
	}
	if len(res.Records) == 0 {
		return nil
	}
	rec := res.Records[0]
	now, _ := get[time.Time](rec, "now")
	var vs []cachedVector
	for _, row := range rows(rec, "rows") {
		labels, _ := row["labels"].([]any)
		kind := memoryKind(labels)
		vec := toFloat32s(row["vec"])
		if kind == "" || vec == nil {
			continue
		}
		vs = append(vs, cachedVector{ref: vectorRef{elementID: str(row, "eid"), kind: kind, sessionID: str(row, "session"), id: str(row, "id"),
			superseded: kind == "insight" && str(row, "status") == InsightSuperseded}, vec: vec, facts: splitVectors(toFloat32s(row["facts"]), len(vec))})
	}
	if full {
		u.dims, u.refs, u.at, u.byRef, u.vecs = 0, nil, nil, nil, nil
		u.loadedAt = time.Now()
	}
	u.put(vs)
	u.loaded, u.checked, u.since = true, time.Now(), now
	return nil
}

// cacheEmbedded adds vectors this process stored to the entries of users
// already cached (others load them when first searched).
func (s *Store) cacheEmbedded(stored map[userKey][]cachedVector) {
	if s.vcache == nil {
		return
	}
	for k, vs := range stored {
		u := s.vcache.cached(k)
		if u == nil {
			continue
		}
		u.mu.Lock()
		if !u.loaded {
			u.mu.Unlock()
			continue
		}
		u.put(vs)
		size := len(u.vecs)
		u.mu.Unlock()
		s.vcache.resize(u, size)
	}
}
