package graph

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
)

// Search reads the same raw turns again and again: a user's turns that
// share the query's words or sit near it in meaning come back on most of
// their searches. A turn's text, speaker and times never change once
// stored (the raw tier is immutable), yet they were most of what Neo4j
// shipped for a search: the full-text statement's index lookups take
// under a millisecond, and serialising thirty to a hundred turns' text
// took the rest (docs/benchmarks.md). So search statements return each raw
// turn as a light row (rawLightKeys: its key, its record time and the
// mutable marks), and the immutable part comes from this replica's cache
// of turns, read from the graph in one statement for the turns it misses
// (completeRaws).
//
// A cached turn is served only for a row with the same record time and
// the same text-dropped state: a turn deleted and stored again under the
// same ids has another record time, and a turn whose text retention
// dropped is read again. Erasure of a user drops the user's turns from
// the cache (ForgetUser); a deleted turn's text otherwise stays in memory
// only until the cache evicts it, and no search returns it, since no
// statement returns its row.

// DefaultRawCacheTurns bounds the cached turns when Config.RawCacheTurns
// is 0: about 30 MB for chat turns of a few hundred characters.
const DefaultRawCacheTurns = 50_000

// rawLightKeys are what a search statement returns of a raw turn: its key
// (session_id, id), what tells the cached copy is still this turn
// (recorded_at, dropped), and the marks that change as facts do.
var rawLightKeys = []string{"session_id", "id", "recorded_at", "dropped", "stale", "stale_by", "stale_by_session",
	"stale_predicates", "current_predicates"}

// rawLight is the Cypher list of a raw node's rawLightKeys, the node bound
// as v (a fixed variable name of the statement, never caller input).
func rawLight(v string) string {
	parts := make([]string, len(rawLightKeys))
	for i, k := range rawLightKeys {
		parts[i] = v + "." + k
		if k == "dropped" {
			parts[i] = v + ".text_dropped_at IS NOT NULL"
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// lightRaw is one decoded rawLight row.
type lightRaw struct {
	key        rawTurnKey
	recordedAt time.Time
	dropped    bool
	marks      map[string]any // the mutable properties, as decodeRaw reads them
}

// decodeLight reads a rawLight row (nil, false for a missing node).
func decodeLight(tenant, user string, v any) (lightRaw, bool) {
	vals, ok := v.([]any)
	if !ok || len(vals) != len(rawLightKeys) {
		return lightRaw{}, false
	}
	p := make(map[string]any, len(vals))
	for i, x := range vals {
		if x != nil {
			p[rawLightKeys[i]] = x
		}
	}
	dropped, _ := p["dropped"].(bool)
	return lightRaw{key: rawTurnKey{tenant: tenant, user: user, session: str(p, "session_id"), id: str(p, "id")},
		recordedAt: tm(p, "recorded_at"), dropped: dropped, marks: p}, true
}

// rawTurnKey names a cached turn: ids are unique within a session, and a
// session within a tenant; the user is kept to drop a user's turns.
type rawTurnKey struct{ tenant, user, session, id string }

// cachedRaw is the immutable part of a turn, with what tells it apart
// from a turn stored again under the same ids.
type cachedRaw struct {
	ev      RawEvent // without the mutable marks
	dropped bool
}

// rawCache is the replica's cache of raw turns; nil caches nothing.
// hits and misses count the turns search rows asked for, for /metrics.
type rawCache struct {
	lru          *lru.Cache[rawTurnKey, cachedRaw]
	hits, misses atomic.Int64
}

func newRawCache(turns int) *rawCache {
	if turns < 0 {
		return nil
	}
	if turns == 0 {
		turns = DefaultRawCacheTurns
	}
	c, _ := lru.New[rawTurnKey, cachedRaw](turns) // only a size below 1 fails
	return &rawCache{lru: c}
}

// get returns the cached turn for a light row, when it is still that turn.
func (c *rawCache) get(l lightRaw) (RawEvent, bool) {
	if c == nil {
		return RawEvent{}, false
	}
	e, ok := c.lru.Get(l.key)
	if !ok || e.dropped != l.dropped || !e.ev.RecordedAt.Equal(l.recordedAt) {
		c.misses.Add(1)
		return RawEvent{}, false
	}
	c.hits.Add(1)
	return e.ev, true
}

// RawCacheStats returns how many turns search found in this replica's raw
// turn cache (hits) and read from the graph (misses) since it started; zero
// when the cache is off.
func (s *Store) RawCacheStats() (hits, misses int64) {
	if s.rcache == nil {
		return 0, 0
	}
	return s.rcache.hits.Load(), s.rcache.misses.Load()
}

func (c *rawCache) put(k rawTurnKey, ev RawEvent, dropped bool) {
	if c == nil {
		return
	}
	ev.Stale, ev.StaleBy, ev.StaleBySession, ev.StalePredicates, ev.CurrentPredicates = false, "", "", nil, nil
	c.lru.Add(k, cachedRaw{ev: ev, dropped: dropped})
}

// dropUser forgets a user's turns (erasure of the user).
func (c *rawCache) dropUser(k userKey) {
	if c == nil {
		return
	}
	for _, key := range c.lru.Keys() {
		if key.tenant == k.tenant && key.user == k.user {
			c.lru.Remove(key)
		}
	}
}

// withMarks returns the cached turn with a row's mutable marks.
func withMarks(ev RawEvent, l lightRaw) RawEvent {
	p := l.marks
	ev.Stale, _ = p["stale"].(bool)
	ev.StaleBy, ev.StaleBySession = str(p, "stale_by"), str(p, "stale_by_session")
	ev.StalePredicates, ev.CurrentPredicates = strs(p, "stale_predicates"), strs(p, "current_predicates")
	return ev
}

// completeRaws returns the turns of light rows, in their order: from the
// cache, and the turns it misses from the graph in one statement. A turn
// deleted between the two statements is left out (ok false at its index).
func (s *Store) completeRaws(ctx context.Context, sc SearchScope, rows []lightRaw) ([]RawEvent, []bool, error) {
	out, ok := make([]RawEvent, len(rows)), make([]bool, len(rows))
	var keys []map[string]any
	missing := map[rawTurnKey][]int{}
	for i, l := range rows {
		if ev, hit := s.rcache.get(l); hit {
			out[i], ok[i] = withMarks(ev, l), true
			continue
		}
		if _, asked := missing[l.key]; !asked {
			keys = append(keys, map[string]any{"session": l.key.session, "id": l.key.id})
		}
		missing[l.key] = append(missing[l.key], i)
	}
	if len(keys) == 0 {
		return out, ok, nil
	}
	res, err := s.read(ctx, "search.raw_turns", `
		UNWIND $keys AS k
		MATCH (r:Raw {tenant: $tenant, session_id: k.session, id: k.id}) WHERE r.user_id = $user
		RETURN `+rawList("r")+` AS r, r.text_dropped_at IS NOT NULL AS dropped`,
		map[string]any{"tenant": sc.Tenant, "user": sc.UserID, "keys": keys})
	if err != nil {
		return nil, nil, fmt.Errorf("raw turns: %w", err)
	}
	for _, rec := range res.Records {
		v, _ := rec.Get("r")
		ev, err := decodeRaw(rawListMap(v))
		if err != nil {
			return nil, nil, err
		}
		dropped, _ := get[bool](rec, "dropped")
		k := rawTurnKey{tenant: sc.Tenant, user: sc.UserID, session: ev.SessionID, id: ev.ID}
		s.rcache.put(k, ev, dropped)
		for _, i := range missing[k] {
			out[i], ok[i] = withMarks(ev, rows[i]), true
		}
	}
	return out, ok, nil
}
