//go:build integration

package graph_test

import (
	"testing"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/graph/graphtest"
)

// TestSchemaSecondApplyIsNoOp runs after the shared store applied the
// schema: applying it again must add nothing and recreate nothing.
func TestSchemaSecondApplyIsNoOp(t *testing.T) {
	graphtest.Store(t) // first application
	s := graphtest.Open(t, graph.Config{})
	rep, err := s.ApplySchema(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if rep.IndexesAdded != 0 || rep.ConstraintsAdded != 0 || len(rep.IndexesRecreated) != 0 {
		t.Fatalf("second apply changed the schema: %+v", rep)
	}
	if rep.Statements < 20 {
		t.Fatalf("only %d schema statements ran", rep.Statements)
	}
	if err := s.Ready(t.Context()); err != nil {
		t.Fatalf("ready after schema: %v", err)
	}
}

func TestReadyNeedsSchema(t *testing.T) {
	s := graphtest.Open(t, graph.Config{})
	if err := s.Ready(t.Context()); err == nil {
		t.Fatal("a store that has not applied the schema reported ready")
	}
}
