package graphtest

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

var (
	censusOnce   sync.Once
	censusDriver neo4j.DriverWithContext
	censusErr    error
)

// Census counts every node (per label) and relationship (per type) of the
// tenants, keyed "tenant|user|node:Label" and "tenant|user|rel:TYPE". A
// node's user is its own user_id, else its session's user, else the user of
// a neighbour that has one ("" when none); a relationship's is its own,
// else its start node's (or that node's session's), else its end node's.
// Erasure tests compare censuses taken before and after.
func Census(t testing.TB, tenants ...string) map[string]int64 {
	t.Helper()
	censusOnce.Do(func() { censusDriver, censusErr = Driver(URI(t)) })
	if censusErr != nil {
		t.Fatalf("census driver: %v", censusErr)
	}
	res, err := neo4j.ExecuteQuery(context.Background(), censusDriver, `
		MATCH (n) WHERE n.tenant IN $tenants
		OPTIONAL MATCH (sess:Session {tenant: n.tenant, id: n.session_id})
		WITH n, coalesce(n.user_id, sess.user_id, head([(n)--(x) WHERE x.user_id IS NOT NULL | x.user_id]), '') AS u
		UNWIND [l IN labels(n) WHERE l <> 'Unembedded'] AS l // the embedding queue's mark comes and goes
		RETURN n.tenant + '|' + u + '|node:' + l AS k, count(*) AS c
		UNION ALL
		MATCH (a)-[r]->(b) WHERE a.tenant IN $tenants OR b.tenant IN $tenants OR r.tenant IN $tenants
		OPTIONAL MATCH (sa:Session {tenant: a.tenant, id: a.session_id})
		RETURN coalesce(r.tenant, a.tenant) + '|' + coalesce(r.user_id, a.user_id, sa.user_id, b.user_id, '') + '|rel:' + type(r) AS k,
		       count(*) AS c`, map[string]any{"tenants": tenants}, neo4j.EagerResultTransformer)
	if err != nil {
		t.Fatalf("census: %v", err)
	}
	out := map[string]int64{}
	for _, rec := range res.Records {
		k, _ := rec.Get("k")
		c, _ := rec.Get("c")
		ks, _ := k.(string)
		ci, _ := c.(int64)
		out[ks] = ci
	}
	return out
}

// CensusOf keeps the entries of one tenant and user, without the prefix.
func CensusOf(c map[string]int64, tenant, user string) map[string]int64 {
	out := map[string]int64{}
	for k, v := range c {
		if rest, ok := strings.CutPrefix(k, tenant+"|"+user+"|"); ok {
			out[rest] = v
		}
	}
	return out
}

// Driver opens a driver of its own for assertions on the stored graph and
// makes its first connection before any test shares it: the Go driver sets
// up its connector lazily on the first connect, unguarded, so two parallel
// tests connecting first at once are a data race (neo4j-go-driver v5.28.4,
// connector.go).
func Driver(uri string) (neo4j.DriverWithContext, error) {
	d, err := neo4j.NewDriverWithContext(uri, neo4j.NoAuth())
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := d.VerifyConnectivity(ctx); err != nil {
		_ = d.Close(ctx)
		return nil, err
	}
	return d, nil
}
