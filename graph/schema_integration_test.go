//go:build integration

package graph_test

import (
	"context"
	"slices"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

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

// TestSchemaKeepsNoMemoryVectorIndex: memories' vectors are scanned in Go,
// so the schema drops the vector index over :Memory that earlier versions
// created (it cost Neo4j CPU on every embedded batch and nothing read it)
// and keeps the entity name index that entity resolution queries.
func TestSchemaKeepsNoMemoryVectorIndex(t *testing.T) {
	graphtest.Store(t)
	d, err := graphtest.Driver(graphtest.URI(t))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close(context.Background())
	ctx := t.Context()
	// As an earlier version left it.
	if _, err := neo4j.ExecuteQuery(ctx, d, "CREATE VECTOR INDEX memory_embedding IF NOT EXISTS FOR (n:Memory) ON n.embedding "+
		"OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}", nil, neo4j.EagerResultTransformer); err != nil {
		t.Fatal(err)
	}
	s := graphtest.Open(t, graph.Config{EmbeddingDimensions: 384})
	if _, err := s.ApplySchema(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := neo4j.ExecuteQuery(ctx, d, "SHOW INDEXES YIELD name, type WHERE type = 'VECTOR' RETURN collect(name) AS names", nil, neo4j.EagerResultTransformer)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := res.Records[0].Get("names")
	var names []string
	for _, n := range raw.([]any) {
		names = append(names, n.(string))
	}
	if slices.Contains(names, "memory_embedding") || !slices.Contains(names, "entity_embedding") {
		t.Fatalf("vector indexes after the schema: %v, want entity_embedding only", names)
	}
}
