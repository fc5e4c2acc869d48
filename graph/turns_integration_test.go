//go:build integration

package graph_test

import (
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/graph/graphtest"
)

func TestPrecedingTurnsStayInTheSessionUserAndTime(t *testing.T) {
	t.Parallel()
	s, tenant, ctx := graphtest.Store(t), graphtest.Tenant(t), t.Context()
	at := time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)
	conv := []graph.NewRawEvent{
		{ID: "u1", Kind: "message", Role: "user", Content: "I'm an air traffic controller.", OccurredAt: at},
		{ID: "a1", Kind: "message", Role: "assistant", Content: "A demanding job!", OccurredAt: at.Add(time.Minute)},
		{ID: "u2", Kind: "message", Role: "user", Content: "It is.", OccurredAt: at.Add(48 * time.Hour)},
		{ID: "a2", Kind: "message", Role: "assistant", Content: "Rest well.", OccurredAt: at.Add(49 * time.Hour)},
	}
	if _, err := s.AppendEvents(ctx, tenant, "s1", "alice", "", conv); err != nil {
		t.Fatal(err)
	}
	// The same ids for another user and in another tenant: never read.
	if _, err := s.AppendEvents(ctx, tenant, "s2", "bob", "", conv); err != nil {
		t.Fatal(err)
	}
	sc := graph.SearchScope{Tenant: tenant, UserID: "alice"}
	refs := []graph.TurnRef{{SessionID: "s1", ID: "a1"}, {SessionID: "s1", ID: "u1"}, {SessionID: "s2", ID: "a1"}, {SessionID: "s1", ID: "a2"}}
	got, err := s.PrecedingTurns(ctx, sc, refs)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[refs[0]].ID != "u1" || got[refs[0]].Content != conv[0].Content || got[refs[3]].ID != "u2" {
		t.Fatalf("preceding turns = %+v, want a1 → u1 and a2 → u2 only (the first turn has none; bob's session is not alice's)", got)
	}
	// At an as_of between u1 and u2, a2's predecessor did not exist yet.
	asOf := at.Add(time.Hour)
	sc.AsOf = &asOf
	got, err = s.PrecedingTurns(ctx, sc, refs)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := got[refs[3]]; ok || got[refs[0]].ID != "u1" {
		t.Fatalf("as of %s: %+v, want only a1 → u1", asOf, got)
	}
	other, err := s.PrecedingTurns(ctx, graph.SearchScope{Tenant: tenant + "-other", UserID: "alice"}, refs)
	if err != nil || len(other) != 0 {
		t.Fatalf("another tenant read %+v (err %v)", other, err)
	}
}
