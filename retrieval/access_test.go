package retrieval

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph"
)

// fakeTracker holds access stats by key and records what it is told.
type fakeTracker struct {
	stats    map[string]graph.AccessStat
	recorded []graph.AccessRef
	reads    int
}

func (f *fakeTracker) Record(_ string, refs []graph.AccessRef) {
	f.recorded = append(f.recorded, refs...)
}

func (f *fakeTracker) AccessStats(context.Context, string, []graph.AccessRef) (map[string]graph.AccessStat, error) {
	f.reads++
	return f.stats, nil
}

// TestAccessDecay: with the default weight 0 the ranking is the one
// without a tracker and no stats are read, but what was returned is
// recorded; with a weight, a memory idle for two years falls below one
// returned last week, unless it is pinned or critical.
func TestAccessDecay(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	said := now.AddDate(-2, 0, 0)
	g := &fakeGraph{facts: []graph.Fact{
		{ID: "f-a", SubjectID: "u", Subject: "Alice", Predicate: "LIKES", ObjectID: "t", Object: "tea", Fact: "The user likes tea",
			Status: StatusCurrent, ValidFrom: said, SourceEventIDs: []string{"e1"}},
		{ID: "f-b", SubjectID: "u", Subject: "Alice", Predicate: "LIKES", ObjectID: "c", Object: "coffee", Fact: "The user likes coffee",
			Status: StatusCurrent, ValidFrom: said, SourceEventIDs: []string{"e2"}},
	}}
	tracker := &fakeTracker{stats: map[string]graph.AccessStat{
		"fact|f-b": {Count: 3, LastAccessed: now.AddDate(0, 0, -7)},
	}}
	rank := func(weight float64, tr AccessTracker) []string {
		t.Helper()
		cfg := DefaultConfig()
		cfg.AccessDecay = weight
		s, err := New(Deps{Text: g, Graph: g, Context: unusedContextStore{}, Views: unusedViews{}, Counter: zeroCounter{},
			Access: tr, Now: func() time.Time { return now }}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		out, err := s.Search(t.Context(), "t1", SearchInput{UserID: "alice", Query: "What does the user like to drink?"})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, r := range out.Results {
			ids = append(ids, r.ID)
		}
		return ids
	}
	base := rank(0, nil)
	if len(base) != 2 || base[0] != "f-a" {
		t.Fatalf("baseline %v, want f-a first (equal scores, by id)", base)
	}
	if got := rank(0, tracker); !slices.Equal(got, base) || tracker.reads != 0 {
		t.Fatalf("weight 0: %v (baseline %v), %d stats reads", got, base, tracker.reads)
	}
	if len(tracker.recorded) != 2 || tracker.recorded[0].Kind != graph.AccessFact {
		t.Fatalf("recorded %v", tracker.recorded)
	}
	if got := rank(1, tracker); got[0] != "f-b" {
		t.Fatalf("decayed ranking %v, want the recently used f-b first", got)
	}
	for _, mark := range []graph.AccessStat{{Pinned: true}, {Importance: "critical"}} {
		tracker.stats["fact|f-a"] = mark
		if got := rank(1, tracker); got[0] != "f-a" {
			t.Fatalf("%+v: ranking %v, want the exempt f-a first", mark, got)
		}
	}
}
