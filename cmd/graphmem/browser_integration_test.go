//go:build integration

package main

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/graphmem/graphmem/graph/graphtest"
)

// demoGraph is the demo user loaded into a test's own tenant through the
// REST API (the whole service in process, behind its own key), with a
// driver on the same database for the checks.
type demoGraph struct {
	e      *e2e
	url    string
	key    string
	driver neo4j.DriverWithContext
}

func loadDemoGraph(t *testing.T) *demoGraph {
	t.Helper()
	e := newE2E(t)
	srv := httptest.NewServer(e.app.handler)
	t.Cleanup(srv.Close)
	key := strings.TrimPrefix(e.Header.Get("Authorization"), "Bearer ")
	driver, err := graphtest.Driver(graphtest.URI(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = driver.Close(context.Background()) })
	d := &demoGraph{e: e, url: srv.URL, key: key, driver: driver}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	rep, err := loadDemo(ctx, d.opts(), time.Now(), io.Discard)
	if err != nil {
		t.Fatalf("load the demo: %v", err)
	}
	if rep.appended == 0 || rep.duplicates != 0 {
		t.Fatalf("first load appended %d events and found %d already there", rep.appended, rep.duplicates)
	}
	return d
}

func (d *demoGraph) opts() demoOptions {
	return demoOptions{url: d.url, apiKey: d.key, tenant: d.e.Tenant}
}

func (d *demoGraph) query(t *testing.T, cypher string, params map[string]any) *neo4j.EagerResult {
	t.Helper()
	res, err := neo4j.ExecuteQuery(t.Context(), d.driver, cypher, params, neo4j.EagerResultTransformer)
	if err != nil {
		t.Fatalf("%v\n%s", err, cypher)
	}
	return res
}

// inventory counts the tenant's nodes by label set and relationships by
// type: what a re-run must leave unchanged.
func (d *demoGraph) inventory(t *testing.T) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	p := map[string]any{"t": d.e.Tenant}
	// The embedding lane's queue label comes and goes as vectors arrive:
	// not part of the graph a user explores.
	for _, rec := range d.query(t, `MATCH (n) WHERE n.tenant = $t UNWIND [x IN labels(n) WHERE x <> 'Unembedded'] AS x WITH n, x ORDER BY x
		WITH n, collect(x) AS l RETURN l, count(*) AS n`, p).Records {
		l, _ := rec.Get("l")
		n, _ := rec.Get("n")
		out[fmt.Sprint(l)] = n.(int64)
	}
	for _, rec := range d.query(t, `MATCH ()-[r]->() WHERE r.tenant = $t RETURN type(r) AS l, count(*) AS n`, p).Records {
		l, _ := rec.Get("l")
		n, _ := rec.Get("n")
		out[l.(string)] = n.(int64)
	}
	return out
}

// TestDemoAndBrowserGuide loads the demo user, checks a second load writes
// nothing, then runs every query of docs/browser.md as a Browser user
// would: the :param lines the guide gives (evaluated by Neo4j, as Browser
// does; the tenant is this test's), then each Cypher block. A block fails
// on an error, on no rows, on a Neo4j notification about an unknown
// label, relationship type or property (unless the block's comment says
// the property may be absent), and when it names a property, label or
// type the demo tenant's graph does not hold (the notifications alone
// would miss that on a database other tests have filled).
func TestDemoAndBrowserGuide(t *testing.T) {
	t.Parallel()
	d := loadDemoGraph(t)

	before := d.inventory(t)
	rep, err := loadDemo(t.Context(), d.opts(), time.Now(), io.Discard)
	if err != nil {
		t.Fatalf("second load: %v", err)
	}
	if rep.appended != 0 || rep.duplicates == 0 {
		t.Errorf("second load appended %d events (found %d): want none appended", rep.appended, rep.duplicates)
	}
	after := d.inventory(t)
	if fmt.Sprint(before) != fmt.Sprint(after) {
		t.Errorf("a second demo run changed the graph:\nbefore %v\nafter  %v", before, after)
	}
	if before["[Conflict]"] == 0 || before["[Insight Memory]"] == 0 || before["[Event Memory]"] == 0 || before["[Entity Person User]"] != 1 {
		t.Errorf("the demo graph lacks conflicts, insights, event-tier nodes or its user: %v", before)
	}
	if rep.closedFacts == 0 || rep.openCfl == 0 || rep.resolvedConflicts == 0 || rep.relativeFacts == 0 || rep.pastPrefs == 0 {
		t.Errorf("the demo report lacks a part of the story: %+v", rep)
	}

	// What the demo tenant's graph holds.
	have := map[string]bool{}
	p := map[string]any{"t": d.e.Tenant}
	for _, q := range []string{
		`MATCH (n) WHERE n.tenant = $t UNWIND labels(n) AS x RETURN DISTINCT 'label:' + x AS x`,
		`MATCH (n) WHERE n.tenant = $t UNWIND keys(n) AS x RETURN DISTINCT 'prop:' + x AS x`,
		`MATCH ()-[r]->() WHERE r.tenant = $t RETURN DISTINCT 'type:' + type(r) AS x`,
		`MATCH ()-[r]->() WHERE r.tenant = $t UNWIND keys(r) AS x RETURN DISTINCT 'prop:' + x AS x`,
	} {
		for _, rec := range d.query(t, q, p).Records {
			x, _ := rec.Get("x")
			have[x.(string)] = true
		}
	}

	params := map[string]any{}
	ran := 0
	for _, b := range guideBlocks(readGuide(t)) {
		switch b.lang {
		case "browser":
			for _, kv := range guideParams(b.text) {
				if kv[0] == "tenant" {
					params["tenant"] = d.e.Tenant
					continue
				}
				res := d.query(t, "RETURN "+kv[1]+" AS v", params)
				params[kv[0]], _ = res.Records[0].Get("v")
			}
		case "cypher":
			ran++
			t.Run(fmt.Sprintf("line%d", b.line), func(t *testing.T) {
				checkGuideQuery(t, d, b, params, have)
			})
		}
	}
	for _, want := range []string{"tenant", "user", "session", "asOf"} {
		if _, ok := params[want]; !ok {
			t.Errorf("the guide never sets $%s", want)
		}
	}
	if params["session"] != demoGuideSession() || params["user"] != demoUser {
		t.Errorf("the guide explores user %v, session %v; the demo's are %s, %s", params["user"], params["session"], demoUser, demoGuideSession())
	}
	t.Logf("ran %d queries of docs/browser.md with %v", ran, params)
}

func checkGuideQuery(t *testing.T, d *demoGraph, b guideBlock, params map[string]any, have map[string]bool) {
	res, err := neo4j.ExecuteQuery(t.Context(), d.driver, b.text, params, neo4j.EagerResultTransformer)
	if err != nil {
		t.Fatalf("docs/browser.md line %d: %v\n%s", b.line, err, b.text)
	}
	if len(res.Records) == 0 {
		t.Errorf("docs/browser.md line %d returns no rows on the demo graph:\n%s", b.line, b.text)
	}
	absent := absentOK(b.text)
	for _, n := range res.Summary.Notifications() {
		code := n.Code()
		if !strings.Contains(code, "Unknown") {
			continue
		}
		allowed := false
		for prop := range absent {
			if strings.Contains(code, "UnknownPropertyKey") && strings.Contains(n.Description(), prop) {
				allowed = true
			}
		}
		if !allowed {
			t.Errorf("docs/browser.md line %d: Neo4j notification %s: %s", b.line, code, n.Description())
		}
	}
	props, labels, types := guideNames(b.text)
	var missing []string
	for name := range props {
		if !have["prop:"+name] && !absent[name] {
			missing = append(missing, "property "+name)
		}
	}
	for name := range labels {
		if !have["label:"+name] {
			missing = append(missing, "label "+name)
		}
	}
	for name := range types {
		if !have["type:"+name] {
			missing = append(missing, "relationship type "+name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("docs/browser.md line %d names what the demo graph lacks (%s); mark a property that may be absent with `// may be absent: name` and say why",
			b.line, strings.Join(missing, ", "))
	}
}
