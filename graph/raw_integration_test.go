//go:build integration

package graph_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/graph/graphtest"
)

func events(ids ...string) []graph.NewRawEvent {
	out := make([]graph.NewRawEvent, len(ids))
	for i, id := range ids {
		out[i] = graph.NewRawEvent{ID: id, Kind: "message", Role: "user", Content: "hello " + id,
			OccurredAt: time.Date(2024, 1, 1, 10, 0, i, 0, time.UTC), Metadata: map[string]any{"n": i}}
	}
	return out
}

func TestAppendIsOrderedAndIdempotent(t *testing.T) {
	t.Parallel()
	s, tenant, ctx := graphtest.Store(t), graphtest.Tenant(t), t.Context()

	res, err := s.AppendEvents(ctx, tenant, "s1", "alice", "", events("a", "b", "c"))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Created || res.LastSeq != 3 {
		t.Fatalf("first append = %+v", res)
	}
	// Re-sending b and c with a new d: b and c are duplicates, d gets seq 4.
	res, err = s.AppendEvents(ctx, tenant, "s1", "alice", "", events("b", "c", "d"))
	if err != nil {
		t.Fatal(err)
	}
	want := []graph.Appended{{ID: "b", Seq: 2, Duplicate: true}, {ID: "c", Seq: 3, Duplicate: true}, {ID: "d", Seq: 4}}
	if fmt.Sprint(res.Events) != fmt.Sprint(want) || res.Created {
		t.Fatalf("second append = %+v, want %+v", res.Events, want)
	}
	// The same id with other content is refused, and the batch with it.
	changed := events("e", "b")
	changed[1].Content = "hello b, edited"
	if _, err := s.AppendEvents(ctx, tenant, "s1", "alice", "", changed); !errors.Is(err, graph.ErrConflict) {
		t.Fatalf("re-sent id with other content: err = %v, want ErrConflict", err)
	}
	got, err := s.ListEvents(ctx, tenant, "s1", 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 {
		t.Fatalf("listed %d events, want 4", len(got))
	}
	for i, e := range got {
		if e.Seq != int64(i+1) || e.ID != []string{"a", "b", "c", "d"}[i] {
			t.Fatalf("event %d = %s seq %d", i, e.ID, e.Seq)
		}
	}
	if got[1].Content != "hello b" || got[1].Metadata["n"] != float64(1) || got[1].OccurredAt.Second() != 1 {
		t.Fatalf("event b not stored as sent: %+v", got[1])
	}
	page, err := s.ListEvents(ctx, tenant, "s1", 2, 1)
	if err != nil || len(page) != 1 || page[0].ID != "c" {
		t.Fatalf("page after seq 2 = %+v, %v", page, err)
	}
}

func TestSessionBelongsToOneUser(t *testing.T) {
	t.Parallel()
	s, tenant, ctx := graphtest.Store(t), graphtest.Tenant(t), t.Context()
	if _, err := s.AppendEvents(ctx, tenant, "s1", "alice", "", events("a")); err != nil {
		t.Fatal(err)
	}
	_, err := s.AppendEvents(ctx, tenant, "s1", "bob", "", events("b"))
	if !errors.Is(err, graph.ErrConflict) {
		t.Fatalf("append as another user: got %v, want ErrConflict", err)
	}
	got, _ := s.ListEvents(ctx, tenant, "s1", 0, 10)
	if len(got) != 1 {
		t.Fatalf("rejected append changed the session: %d events", len(got))
	}
}

func TestTenantsNeverSeeEachOther(t *testing.T) {
	t.Parallel()
	s, ctx := graphtest.Store(t), t.Context()
	a, b := graphtest.Tenant(t), graphtest.Tenant(t)
	if _, err := s.AppendEvents(ctx, a, "shared-id", "alice", "", events("x", "y")); err != nil {
		t.Fatal(err)
	}
	// Same session id and user id in tenant b: a separate session.
	if _, err := s.ListEvents(ctx, b, "shared-id", 0, 10); !errors.Is(err, graph.ErrNotFound) {
		t.Fatalf("tenant b listing tenant a's session: got %v, want ErrNotFound", err)
	}
	if _, err := s.GetSession(ctx, b, "shared-id"); !errors.Is(err, graph.ErrNotFound) {
		t.Fatalf("tenant b reading tenant a's session: got %v, want ErrNotFound", err)
	}
	res, err := s.AppendEvents(ctx, b, "shared-id", "alice", "", events("x"))
	if err != nil || !res.Created || res.Events[0].Duplicate {
		t.Fatalf("tenant b's first append must create its own session: %+v %v", res, err)
	}
	ga, _ := s.ListEvents(ctx, a, "shared-id", 0, 10)
	gb, _ := s.ListEvents(ctx, b, "shared-id", 0, 10)
	if len(ga) != 2 || len(gb) != 1 {
		t.Fatalf("tenant a has %d events (want 2), tenant b %d (want 1)", len(ga), len(gb))
	}
}

func TestConcurrentAppendsNeverCollide(t *testing.T) {
	t.Parallel()
	s, tenant, ctx := graphtest.Store(t), graphtest.Tenant(t), t.Context()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 5 {
				if _, err := s.AppendEvents(ctx, tenant, "busy", "alice", "", events(fmt.Sprintf("w%d-%d", w, i))); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	got, err := s.ListEvents(ctx, tenant, "busy", 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 40 {
		t.Fatalf("%d events stored, want 40", len(got))
	}
	for i, e := range got {
		if e.Seq != int64(i+1) {
			t.Fatalf("seq gap or collision at %d: %d", i, e.Seq)
		}
	}
}

// A close decided on an older state never shuts a live conversation: a
// sweep closes only a session still idle, and a session summary is written
// only while the session is still closed (an append reopens it).
func TestCloseGuards(t *testing.T) {
	t.Parallel()
	s, tenant, ctx := graphtest.Store(t), graphtest.Tenant(t), t.Context()
	if _, err := s.AppendEvents(ctx, tenant, "s1", "alice", "", events("a", "b")); err != nil {
		t.Fatal(err)
	}
	foundIdle := time.Now().Add(-time.Hour) // the sweep's "untouched since"
	if _, err := s.CloseSession(ctx, tenant, "s1", foundIdle); !errors.Is(err, graph.ErrConflict) {
		t.Fatalf("sweep-close of a session touched after it was found idle: %v, want ErrConflict", err)
	}
	if sess, _ := s.GetSession(ctx, tenant, "s1"); sess.Status != "open" {
		t.Fatalf("the sweep closed a live session: %+v", sess)
	}
	closed, err := s.CloseSession(ctx, tenant, "s1", time.Now().Add(time.Second))
	if err != nil || closed.Status != "closed" || closed.LastSeq != 2 || closed.UserID != "alice" {
		t.Fatalf("close of an idle session = %+v, %v", closed, err)
	}
	summary := graph.NewEventNode{ID: "sum-" + tenant, Kind: graph.EventKindSessionSummary, Summary: "a and b", Cover: []string{"a", "b"}}
	// New events reopen the session before its close job summarizes it.
	if _, err := s.AppendEvents(ctx, tenant, "s1", "alice", "", events("c")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.WriteSessionSummary(ctx, tenant, "s1", summary); !errors.Is(err, graph.ErrConflict) {
		t.Fatalf("summary of a reopened session: %v, want ErrConflict", err)
	}
	if left, _ := s.UncoveredEvents(ctx, tenant, "s1"); len(left) != 3 {
		t.Fatalf("a refused summary covered events: %d left uncovered, want 3", len(left))
	}
	if _, err := s.CloseSession(ctx, tenant, "s1", time.Time{}); err != nil {
		t.Fatal(err)
	}
	node, err := s.WriteSessionSummary(ctx, tenant, "s1", summary)
	if err != nil || len(node.CoveredIDs) != 2 {
		t.Fatalf("summary of a closed session = %+v, %v", node, err)
	}
	if _, err := s.CloseSession(ctx, tenant, "missing", time.Time{}); !errors.Is(err, graph.ErrNotFound) {
		t.Fatalf("close of an unknown session: %v, want ErrNotFound", err)
	}
}
