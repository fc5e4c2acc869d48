//go:build integration

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/graphmem/graphmem/api"
	"github.com/graphmem/graphmem/graph/graphtest"
)

// hostile are the strings every string field of every write and search
// route receives. rawMark stands for a fragment spliced into the JSON text
// as is (not escaped by the encoder): a lone surrogate escape, and bytes
// that are not UTF-8.
var hostile = []string{
	`') MATCH (n) DETACH DELETE n //`,
	`" OR 1=1 WITH n MATCH (m) DETACH DELETE m RETURN "`,
	"`) CALL db.clearQueryCaches() //",
	`$tenant} MATCH (n) SET n.tenant = 'pwned' //`,
	`*:*`,
	`field:value~`,
	`content:"x" OR tenant:*`,
	`title:[a TO z] AND (unbalanced`,
	`/.*/`,
	`\`,
	`&& || ! ^2 ~0.5 ? - + "`,
	"a\x00b",
	rawMark + `\ud800` + rawMark,
	rawMark + "\xff\xfe bad \xc3\x28" + rawMark,
	strings.Repeat("a", 1<<20),
	strings.Repeat("word ", 1<<18),
}

const rawMark = "\x01RAW\x01"

// hostileName names a payload in test output.
func hostileName(s string) string {
	if len(s) > 40 {
		return fmt.Sprintf("%d bytes of %q…", len(s), s[:10])
	}
	return strconv.Quote(s)
}

// field is a string field of a route's JSON body, or its path or query.
type field struct {
	name string
	// text: any text is a legitimate value (a message, a query), so it
	// must be accepted (2xx), within the field's length limit.
	text bool
	max  int // the field's length limit, 0 for none
}

type secRoute struct {
	method, path string         // path with {p} for the path parameter under test
	body         map[string]any // a valid body; fields are set by dotted path
	fields       []field
	pathParam    bool // {p} takes each payload too
}

// TestHostileInputIsRefusedOrStoredVerbatim sends Cypher and Lucene syntax,
// NUL bytes, lone surrogates, invalid UTF-8 and 1 MB strings in every
// string field of every write and search route, through the real router
// and the real Neo4j: no answer is a 5xx, a refusal is a problem naming the
// field and leaves the tenant's graph exactly as it was, text fields accept
// any text (and give it back as sent), and another tenant's data is intact.
func TestHostileInputIsRefusedOrStoredVerbatim(t *testing.T) {
	sc := newScope()
	tenant, victim := sc.id("sec"), sc.id("victim")
	key, victimKey := "k-"+sc.token+"-0123456789", "v-"+sc.token+"-0123456789"
	getenv, environ := envOf([]string{"GRAPHMEM_NEO4J_URI", graphtest.URI(t),
		"GRAPHMEM_API_KEYS", tenant + ":" + key + "," + victim + ":" + victimKey,
		"GRAPHMEM_WORKERS", "0", "GRAPHMEM_SESSION_IDLE_CLOSE", "0", "GRAPHMEM_EMBEDDER", "off",
		"GRAPHMEM_MAX_BODY_BYTES", strconv.Itoa(4 << 20)}...)
	cfg, err := loadConfig(getenv, environ)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := api.ParseKeys(cfg.apiKeySource())
	if err != nil {
		t.Fatal(err)
	}
	a, err := buildApp(t.Context(), cfg, keys, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a.handler)
	t.Cleanup(func() { srv.Close(); a.close(context.Background()) })

	send := func(k, method, path string, body []byte) (int, string, string) {
		t.Helper()
		var rd io.Reader
		if body != nil {
			rd = bytes.NewReader(body)
		}
		req, err := http.NewRequestWithContext(t.Context(), method, srv.URL+path, rd)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+k)
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
	}
	mustSend := func(k, method, path string, body any, want int) string {
		t.Helper()
		b, _ := json.Marshal(body)
		code, _, out := send(k, method, path, b)
		if code != want {
			t.Fatalf("%s %s: %d %s, want %d", method, path, code, out, want)
		}
		return out
	}

	// The victim tenant's data, which no request of the other tenant may touch.
	victimEvents := map[string]any{"user_id": "vu", "events": []any{
		map[string]any{"kind": "message", "role": "user", "content": "I live in Ghent and I love waffles."}}}
	mustSend(victimKey, http.MethodPost, "/v1/sessions/vs/events", victimEvents, http.StatusCreated)
	mustSend(victimKey, http.MethodPost, "/v1/users/vu/facts", map[string]any{"predicate": "LIVES_IN", "object": "Ghent"}, http.StatusCreated)
	victimBefore := graphtest.Census(t, victim)

	// The attacked tenant's own state: a session and a fact to edit.
	mustSend(key, http.MethodPost, "/v1/sessions/s1/events", map[string]any{"user_id": "u1", "events": []any{
		map[string]any{"kind": "message", "role": "user", "content": "I work at Fjordline."}}}, http.StatusCreated)
	var fact struct {
		Fact struct {
			ID string `json:"id"`
		} `json:"fact"`
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(mustSend(key, http.MethodPost, "/v1/users/u1/facts",
		map[string]any{"predicate": "WORKS_AT", "object": "Fjordline"}, http.StatusCreated)), &fact); err != nil {
		t.Fatal(err)
	}
	factID := fact.Fact.ID
	if factID == "" {
		factID = fact.ID
	}
	if factID == "" {
		t.Fatal("no fact id in the answer of POST /facts")
	}

	event := func() map[string]any {
		return map[string]any{"kind": "message", "role": "user", "content": "hello", "name": "n", "tool_call_id": "c1",
			"batch_id": "b1", "occurred_at": "2026-01-02T03:04:05Z", "metadata": map[string]any{"k": "v"}}
	}
	routes := []secRoute{
		{method: http.MethodPost, path: "/v1/sessions/{p}/events", pathParam: true,
			body: map[string]any{"user_id": "u1", "agent_id": "a1", "events": []any{event()}},
			fields: []field{{name: "user_id"}, {name: "agent_id"}, {name: "events.0.id"}, {name: "events.0.kind"},
				{name: "events.0.role"}, {name: "events.0.name", max: 200}, {name: "events.0.content", text: true},
				{name: "events.0.tool_call_id", max: 200}, {name: "events.0.batch_id", max: 200}, {name: "events.0.url"},
				{name: "events.0.occurred_at"}, {name: "events.0.metadata.k", text: true}}},
		{method: http.MethodPost, path: "/v1/users/{p}/facts", pathParam: true,
			body: map[string]any{"subject": "u1", "predicate": "LIKES", "object": "tea", "sentence": "I like tea."},
			fields: []field{{name: "subject"}, {name: "subject_type"}, {name: "predicate"}, {name: "object"},
				{name: "object_type"}, {name: "qualifier"}, {name: "polarity"}, {name: "sentence"}, {name: "valid_from"},
				{name: "valid_to"}, {name: "actor"}, {name: "reason"}}},
		{method: http.MethodPatch, path: "/v1/facts/" + factID, body: map[string]any{"object": "Fjordline AS"},
			fields: []field{{name: "predicate"}, {name: "object"}, {name: "object_type"}, {name: "qualifier"},
				{name: "polarity"}, {name: "sentence"}, {name: "valid_from"}, {name: "importance"}, {name: "actor"}, {name: "reason"}}},
		{method: http.MethodPatch, path: "/v1/facts/{p}", pathParam: true, body: map[string]any{"object": "x"}},
		{method: http.MethodDelete, path: "/v1/facts/{p}", pathParam: true},
		{method: http.MethodPost, path: "/v1/search", body: map[string]any{"user_id": "u1", "query": "Fjordline", "session_id": "s1"},
			fields: []field{{name: "user_id"}, {name: "agent_id"}, {name: "session_id"}, {name: "query", text: true, max: 4000},
				{name: "tiers.0"}}},
		{method: http.MethodPost, path: "/v1/context", body: map[string]any{"user_id": "u1", "session_id": "s1", "query": "job"},
			fields: []field{{name: "user_id"}, {name: "session_id"}, {name: "query", text: true, max: 4000}}},
		{method: http.MethodPost, path: "/v1/sessions/{p}/context", pathParam: true, body: map[string]any{"profile": "default"},
			fields: []field{{name: "profile"}}},
		{method: http.MethodPost, path: "/v1/conflicts/{p}/resolve", pathParam: true, body: map[string]any{"winner": "new", "note": "n"},
			fields: []field{{name: "winner"}, {name: "note"}}},
		{method: http.MethodPatch, path: "/v1/insights/{p}", pathParam: true, body: map[string]any{"pinned": true},
			fields: []field{{name: "importance"}, {name: "actor"}}},
		{method: http.MethodDelete, path: "/v1/sessions/{p}", pathParam: true},
		{method: http.MethodDelete, path: "/v1/users/{p}", pathParam: true},
		{method: http.MethodPost, path: "/v1/sessions/{p}/condensations", pathParam: true, body: map[string]any{"profile": "default"},
			fields: []field{{name: "profile"}}},
		{method: http.MethodPost, path: "/v1/sessions/{p}/condensation-requests", pathParam: true},
		{method: http.MethodPost, path: "/v1/sessions/{p}/close", pathParam: true},
		{method: http.MethodPost, path: "/v1/users/{p}/insights", pathParam: true},
		{method: http.MethodPatch, path: "/v1/summaries/{p}", pathParam: true, body: map[string]any{"pinned": true},
			fields: []field{{name: "importance"}, {name: "actor"}}},
		{method: http.MethodPost, path: "/v1/jobs/{p}/retry", pathParam: true},
		{method: http.MethodGet, path: "/v1/entities/{p}", pathParam: true},
		{method: http.MethodGet, path: "/v1/jobs/{p}", pathParam: true},
		{method: http.MethodGet, path: "/v1/users/{p}/export", pathParam: true},
	}

	before := graphtest.Census(t, tenant)
	if len(before) == 0 {
		t.Fatal("the census of the tenant is empty after its first writes: it would prove nothing")
	}
	start := before
	var requests, refused, accepted int
	check := func(r secRoute, what, payload string, f field, code int, ctype, body string) {
		t.Helper()
		requests++
		where := fmt.Sprintf("%s %s %s=%s", r.method, r.path, what, hostileName(payload))
		if code >= 500 {
			t.Errorf("%s: %d %.300s", where, code, body)
			return
		}
		now := graphtest.Census(t, tenant)
		if code >= 400 {
			refused++
			if !strings.HasPrefix(ctype, "application/problem+json") {
				t.Errorf("%s: %d is not a problem (%s)", where, code, ctype)
			}
			if f.name != "" && code == http.StatusUnprocessableEntity && !strings.Contains(body, `"field":"`+apiField(f.name)) {
				t.Errorf("%s: the 422 does not name the field: %.300s", where, body)
			}
			if !maps.Equal(now, before) {
				t.Errorf("%s: refused (%d) but the graph changed:\nbefore %v\nafter  %v", where, code, before, now)
			}
		} else {
			accepted++
		}
		if f.text && (f.max == 0 || len(payload) <= f.max) && code >= 400 {
			t.Errorf("%s: text field refused: %d %.300s", where, code, body)
		}
		before = now
	}
	for _, r := range routes {
		for _, p := range hostile {
			if r.pathParam {
				pv := strings.ReplaceAll(p, rawMark, "")
				if len(pv) > 10000 {
					pv = pv[:10000] // a 1 MB URL is refused by any proxy; 10 kB still overflows every limit
				}
				path := strings.ReplaceAll(r.path, "{p}", url.PathEscape(pv))
				var body []byte
				if r.body != nil {
					body, _ = json.Marshal(r.body)
				}
				code, ctype, out := send(key, r.method, path, body)
				check(r, "path", p, field{}, code, ctype, out)
			}
			for _, f := range r.fields {
				doc := deepCopy(r.body)
				setPath(t, doc, f.name, p)
				body, err := json.Marshal(doc)
				if err != nil {
					t.Fatal(err)
				}
				body = spliceRaw(body)
				path := strings.ReplaceAll(r.path, "{p}", "s1")
				if strings.Contains(r.path, "/users/") {
					path = strings.ReplaceAll(r.path, "{p}", "u1")
				}
				code, ctype, out := send(key, r.method, path, body)
				check(r, f.name, p, f, code, ctype, out)
			}
		}
	}

	// Query strings of the read routes.
	for _, p := range hostile {
		pv := strings.ReplaceAll(p, rawMark, "")
		if len(pv) > 10000 {
			pv = pv[:10000]
		}
		for _, q := range []string{"/v1/users/u1/facts?predicate=", "/v1/users/u1/facts?subject=", "/v1/users/u1/preferences?as_of=",
			"/v1/jobs?kind=", "/v1/jobs?session_id=", "/v1/users/u1/conflicts?status=", "/v1/sessions/s1/events?after_seq="} {
			code, ctype, out := send(key, http.MethodGet, q+url.QueryEscape(pv), nil)
			check(secRoute{method: http.MethodGet, path: q}, "query", p, field{}, code, ctype, out)
		}
	}

	// Bodies hostile by shape rather than by string: each is refused with
	// a 4xx problem and stores nothing.
	nested := func(depth int, open, close string, inner string) string {
		return strings.Repeat(open, depth) + inner + strings.Repeat(close, depth)
	}
	eventsWith := func(meta string) string {
		return `{"user_id":"u1","events":[{"kind":"message","role":"user","content":"x","metadata":` + meta + `}]}`
	}
	manyEvents := func(n int) string {
		ev := make([]string, n)
		for i := range ev {
			ev[i] = fmt.Sprintf(`{"kind":"message","role":"user","content":"event %d"}`, i)
		}
		return `{"user_id":"u1","events":[` + strings.Join(ev, ",") + `]}`
	}
	shapes := []struct {
		name, path, body string
		want             int // 0: any 4xx
	}{
		{"10k events in one request", "/v1/sessions/many/events", manyEvents(10000), http.StatusUnprocessableEntity},
		{"metadata nested 100000 deep", "/v1/sessions/deep/events", eventsWith(nested(100000, `{"a":`, `}`, `1`)), 0},
		{"metadata nested 200 deep", "/v1/sessions/deep/events", eventsWith(nested(200, `{"a":`, `}`, `1`)), 0},
		{"metadata nested arrays 5000 deep", "/v1/sessions/deep/events", eventsWith(`{"a":` + nested(5000, `[`, `]`, `1`) + `}`), 0},
		{"a body of 100000 nested arrays", "/v1/sessions/deep/events", nested(100000, `[`, `]`, ``), 0},
		{"a raw NUL byte between tokens", "/v1/sessions/nul/events", "{\"user_id\":\"u1\",\x00\"events\":[]}", http.StatusBadRequest},
		{"events is an object", "/v1/sessions/shape/events", `{"user_id":"u1","events":{"kind":"message"}}`, http.StatusUnprocessableEntity},
		{"a string where an object belongs", "/v1/sessions/shape/events", `"') MATCH (n) DETACH DELETE n //"`, 0},
		{"duplicate keys with a hostile second value", "/v1/sessions/shape/events",
			`{"user_id":"u1","user_id":"x') DETACH DELETE n //","events":[{"kind":"message","content":"x"}]}`, http.StatusUnprocessableEntity},
		{"a search nested 100000 deep", "/v1/search", `{"user_id":"u1","query":` + nested(100000, `[`, `]`, ``) + `}`, 0},
	}
	for _, sh := range shapes {
		code, ctype, out := send(key, http.MethodPost, sh.path, []byte(sh.body))
		if (sh.want != 0 && code != sh.want) || code < 400 || code >= 500 {
			t.Errorf("%s: %d %.300s, want %d (a 4xx)", sh.name, code, out, sh.want)
		}
		check(secRoute{method: http.MethodPost, path: sh.path}, "body", sh.name, field{}, code, ctype, out)
	}

	// Text given back byte for byte (Cypher-looking text is just text).
	cypher := `') MATCH (n) DETACH DELETE n //`
	mustSend(key, http.MethodPost, "/v1/sessions/verbatim/events", map[string]any{"user_id": "u1", "events": []any{
		map[string]any{"kind": "message", "role": "user", "content": cypher},
		map[string]any{"kind": "message", "role": "user", "content": "nul\x00inside"}}}, http.StatusCreated)
	var listed struct {
		Events []struct {
			Content string `json:"content"`
		} `json:"events"`
	}
	if err := json.Unmarshal([]byte(mustSend(key, http.MethodGet, "/v1/sessions/verbatim/events", nil, http.StatusOK)), &listed); err != nil {
		t.Fatal(err)
	}
	if len(listed.Events) != 2 || listed.Events[0].Content != cypher || listed.Events[1].Content != "nul\x00inside" {
		t.Fatalf("stored text differs from the text sent: %+v", listed.Events)
	}

	if maps.Equal(start, graphtest.Census(t, tenant)) {
		t.Fatal("no accepted request changed the census: it would not see a change either")
	}
	if after := graphtest.Census(t, victim); !maps.Equal(after, victimBefore) {
		t.Fatalf("the other tenant's graph changed:\nbefore %v\nafter  %v", victimBefore, after)
	}
	mustSend(victimKey, http.MethodGet, "/v1/users/vu/facts", nil, http.StatusOK)
	t.Logf("%d hostile requests: %d refused with a 4xx problem (graph unchanged), %d accepted, 0 server errors; the other tenant unchanged",
		requests, refused, accepted)
}

// apiField is how problems name a dotted path: events.0.id → events[0].id.
func apiField(name string) string {
	var b strings.Builder
	for i, p := range strings.Split(name, ".") {
		if _, err := strconv.Atoi(p); err == nil {
			b.WriteString("[" + p + "]")
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

// spliceRaw replaces the encoder's escaped form of a rawMark-delimited
// fragment with the fragment itself: `"\u0001RAW\u0001\\ud800\u0001RAW\u0001"`
// becomes `"\ud800"`, a lone surrogate the encoder would never write.
func spliceRaw(body []byte) []byte {
	mark := `\u0001RAW\u0001`
	s := string(body)
	for {
		i := strings.Index(s, mark)
		if i < 0 {
			return []byte(s)
		}
		j := strings.Index(s[i+len(mark):], mark)
		if j < 0 {
			return []byte(s)
		}
		inner := s[i+len(mark) : i+len(mark)+j]
		var raw string
		if err := json.Unmarshal([]byte(`"`+inner+`"`), &raw); err != nil {
			raw = inner
		}
		if strings.Contains(inner, `\\ud800`) {
			raw = `\ud800`
		} else {
			raw = strings.ReplaceAll(raw, "\ufffd", "\xff")
		}
		s = s[:i] + raw + s[i+len(mark)+j+len(mark):]
	}
}

func deepCopy(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	b, _ := json.Marshal(m)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}

// setPath sets a dotted path ("events.0.content") in a decoded JSON document.
func setPath(t *testing.T, doc map[string]any, path, v string) {
	t.Helper()
	parts := strings.Split(path, ".")
	var cur any = doc
	for i, p := range parts {
		last := i == len(parts)-1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				c[p] = v
				return
			}
			if _, ok := c[p]; !ok {
				if _, err := strconv.Atoi(parts[i+1]); err == nil {
					c[p] = []any{""}
				} else {
					c[p] = map[string]any{}
				}
			}
			cur = c[p]
		case []any:
			n, _ := strconv.Atoi(p)
			if last {
				c[n] = v
				return
			}
			cur = c[n]
		default:
			t.Fatalf("setPath %s: %T at %s", path, cur, p)
		}
	}
}
