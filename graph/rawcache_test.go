package graph

import (
	"testing"
	"time"
)

// TestRawCacheServesOnlyTheSameTurn: a cached turn is served for a row of
// the same record time and text state only, without the marks it was
// read with (they come from each row); erasure of a user drops the
// user's turns and no other's; a negative size caches nothing.
func TestRawCacheServesOnlyTheSameTurn(t *testing.T) {
	at := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	c := newRawCache(10)
	k := rawTurnKey{"t1", "alice", "s1", "e1"}
	ev := RawEvent{NewRawEvent: NewRawEvent{ID: "e1", Content: "I adopted Pip"}, SessionID: "s1", RecordedAt: at, Stale: true, StaleBy: "e9"}
	c.put(k, ev, false)
	row := lightRaw{key: k, recordedAt: at, marks: map[string]any{"stale_by": "e7"}}
	got, ok := c.get(row)
	if !ok || got.Content != "I adopted Pip" || got.Stale || got.StaleBy != "" {
		t.Fatalf("get = %+v, %v; want the text without the marks it was read with", got, ok)
	}
	if got = withMarks(got, row); got.StaleBy != "e7" || got.Stale {
		t.Errorf("withMarks = %+v; want the row's marks", got)
	}
	if _, ok := c.get(lightRaw{key: k, recordedAt: at.Add(time.Second)}); ok {
		t.Error("a turn stored again (another record time) was served from the cache")
	}
	if _, ok := c.get(lightRaw{key: k, recordedAt: at, dropped: true}); ok {
		t.Error("a turn whose text was dropped since was served from the cache")
	}
	bob := rawTurnKey{"t1", "bob", "s2", "e1"}
	c.put(bob, ev, false)
	c.dropUser(userKey{"t1", "alice"})
	if _, ok := c.get(row); ok {
		t.Error("an erased user's turn is still cached")
	}
	if _, ok := c.get(lightRaw{key: bob, recordedAt: at}); !ok {
		t.Error("erasing alice dropped bob's turn")
	}
	if h, m := c.hits.Load(), c.misses.Load(); h != 2 || m != 3 {
		t.Errorf("counted %d hits and %d misses, want 2 and 3 (a stale copy is a miss)", h, m)
	}
	var off *rawCache = newRawCache(-1)
	off.put(k, ev, false)
	if _, ok := off.get(row); ok {
		t.Error("a cache turned off served a turn")
	}
}

// TestRawLightKeys: the light row names the turn, tells its cached copy
// apart, and carries every mark that changes after the turn is stored.
func TestRawLightKeys(t *testing.T) {
	for _, k := range []string{"session_id", "id", "recorded_at", "dropped", "stale", "stale_by", "stale_by_session",
		"stale_predicates", "current_predicates"} {
		found := false
		for _, l := range rawLightKeys {
			found = found || l == k
		}
		if !found {
			t.Errorf("rawLightKeys lacks %q", k)
		}
	}
	if l, ok := decodeLight("t1", "alice", []any{"s1", "e1"}); ok {
		t.Errorf("a short row decoded as %+v", l)
	}
}
