package graph

import (
	"errors"
	"log/slog"
	"net"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/graphmem/graphmem/ontology"
)

// TestUnreachableNeo4jFailsFast: once a statement could not reach Neo4j,
// the next ones check the connection first and fail at once with
// ErrUnavailable, instead of each waiting out the driver's retries.
func TestUnreachableNeo4jFailsFast(t *testing.T) {
	// A port nothing listens on.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	driver, err := neo4j.NewDriverWithContext("bolt://"+addr, neo4j.NoAuth())
	if err != nil {
		t.Fatal(err)
	}
	defer driver.Close(t.Context())
	s := &Store{driver: driver, cfg: Config{Database: "neo4j"}, log: slog.New(slog.DiscardHandler), factTypes: ontology.Vocabulary()}

	s.noteReach(&neo4j.ConnectivityError{Inner: errors.New("dial tcp: connection refused")})
	if !s.unreachable.Load() {
		t.Fatal("a connectivity error did not mark Neo4j unreachable")
	}
	_, err = s.read(t.Context(), "probe", "RETURN 1", nil)
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "Neo4j is unreachable") {
		t.Fatalf("want the fast unreachable error, got %v", err)
	}
	s.noteReach(errors.New("a statement that failed for its own reasons"))
	if !s.unreachable.Load() {
		t.Fatal("an ordinary error cleared the unreachable mark")
	}
}

// TestRawListDecodes: a raw turn's row of rawListKeys decodes to the map
// decodeRaw reads.
func TestRawListDecodes(t *testing.T) {
	if got := rawList("n"); !strings.HasPrefix(got, "[n.id, n.session_id, ") || !strings.HasSuffix(got, ", n.recorded_at]") {
		t.Errorf("rawList: %s", got)
	}
	m := rawListMap([]any{"e1", "s1", nil, int64(3), "message", "user", nil, "hi", nil, nil, "r"})
	if m["id"] != "e1" || m["seq"] != int64(3) || m["content"] != "hi" || m["recorded_at"] != "r" || len(m) != 7 {
		t.Errorf("rawListMap: %v", m)
	}
	if rawListMap(nil) != nil || rawListMap([]any{"short"}) != nil {
		t.Error("a missing or short row must decode to nil")
	}
}
