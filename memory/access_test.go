package memory

import (
	"context"
	"errors"
	"testing"

	"github.com/graphmem/graphmem/graph"
)

type fakeAccessStore struct {
	writes [][]graph.AccessCount
	fail   error
}

func (f *fakeAccessStore) RecordAccess(_ context.Context, _ string, counts []graph.AccessCount) error {
	if f.fail != nil {
		return f.fail
	}
	f.writes = append(f.writes, counts)
	return nil
}

func (f *fakeAccessStore) AccessStats(context.Context, string, []graph.AccessRef) (map[string]graph.AccessStat, error) {
	return nil, nil
}

// TestAccessCounterBatches: many searches returning the same memories make
// one write per tenant per flush, with the summed counts; a failed write
// keeps the counts for the next flush; an empty flush writes nothing.
func TestAccessCounterBatches(t *testing.T) {
	store := &fakeAccessStore{}
	a := NewAccessCounter(store, nil)
	fact := graph.AccessRef{Kind: graph.AccessFact, ID: "f1"}
	raw := graph.AccessRef{Kind: graph.AccessRaw, ID: "e1", SessionID: "s1"}
	for range 50 {
		a.Record("t1", []graph.AccessRef{fact, raw})
	}
	a.Record("t1", []graph.AccessRef{fact})

	store.fail = errors.New("down")
	if err := a.Flush(t.Context()); err == nil || len(store.writes) != 0 {
		t.Fatalf("a failed flush: %v %v", err, store.writes)
	}
	a.Record("t1", []graph.AccessRef{raw})
	store.fail = nil
	if err := a.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	if len(store.writes) != 1 || len(store.writes[0]) != 2 {
		t.Fatalf("writes %v, want one write of two memories", store.writes)
	}
	got := map[graph.AccessRef]int64{}
	for _, c := range store.writes[0] {
		got[c.AccessRef] = c.N
		if c.Last.IsZero() {
			t.Errorf("%v has no access time", c.AccessRef)
		}
	}
	if got[fact] != 51 || got[raw] != 51 {
		t.Fatalf("counts %v, want 51 each", got)
	}
	if err := a.Flush(t.Context()); err != nil || len(store.writes) != 1 {
		t.Fatalf("an empty flush wrote: %v", store.writes)
	}
}

// BenchmarkAccessRecord is the cost search pays per request: one Record
// of ten results.
func BenchmarkAccessRecord(b *testing.B) {
	a := NewAccessCounter(&fakeAccessStore{}, nil)
	refs := make([]graph.AccessRef, 10)
	for i := range refs {
		refs[i] = graph.AccessRef{Kind: graph.AccessFact, ID: string(rune('a' + i))}
	}
	for b.Loop() {
		a.Record("t1", refs)
	}
}
