//go:build integration

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph/graphtest"
)

// runGraphmem runs the built binary with the test Neo4j and returns its
// stdout and stderr; the test fails when it exits non-zero.
func runGraphmem(t *testing.T, bin string, args ...string) (string, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = serveEnv(map[string]string{"GRAPHMEM_NEO4J_URI": graphtest.URI(t), "GRAPHMEM_LOG_LEVEL": "warn"})
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("graphmem %s: %v\n%s", strings.Join(args, " "), err, errOut.String())
	}
	return out.String(), errOut.String()
}

var importedRe = regexp.MustCompile(`(\d+) nodes and (\d+) relationships created`)

// importCreated reads the counts `graphmem import` reports.
func importCreated(t *testing.T, stderr string) (int, int) {
	t.Helper()
	m := importedRe.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("import reported no counts: %s", stderr)
	}
	n, _ := strconv.Atoi(m[1])
	r, _ := strconv.Atoi(m[2])
	return n, r
}

// userView is what a client reads of a user through the API, as JSON
// documents keyed by what was asked.
func userView(t *testing.T, e *e2e, user string, queries []string, asOf []string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, path := range []string{"facts?include_history=true", "facts", "preferences?include_history=true",
		"conflicts", "insights?include_superseded=true"} {
		out[path] = string(e.must(t, http.StatusOK, http.MethodGet, "/v1/users/"+user+"/"+path, nil))
	}
	for _, d := range asOf {
		out["facts as of "+d] = string(e.must(t, http.StatusOK, http.MethodGet, "/v1/users/"+user+"/facts?as_of="+d, nil))
	}
	for _, q := range queries {
		for _, hist := range []bool{false, true} {
			res := e.search(t, map[string]any{"user_id": user, "query": q, "limit": 10, "include_history": hist})
			// The ranking as returned (the import replays the order of
			// creation, so full-text ties break alike); the scores apart,
			// compared with a tolerance: BM25's statistics are the index's,
			// which parallel tests grow between two reads.
			var lines []string
			var scores []string
			for _, r := range res.Results {
				lines = append(lines, fmt.Sprintf("%s %s %s %q", r.Kind, r.ID, r.Status, r.Text))
				scores = append(scores, strconv.FormatFloat(r.Score, 'g', -1, 64))
			}
			out[fmt.Sprintf("~scores of %q history=%v", q, hist)] = strings.Join(scores, " ")
			out[fmt.Sprintf("search %q history=%v", q, hist)] = strings.Join(lines, "\n")
		}
	}
	return out
}

// sameView compares two views: everything exactly, scores within 2%.
func sameView(want, got string, scores bool) bool {
	if !scores {
		return want == got
	}
	a, b := strings.Fields(want), strings.Fields(got)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, _ := strconv.ParseFloat(a[i], 64)
		y, _ := strconv.ParseFloat(b[i], 64)
		if math.Abs(x-y) > 0.02*max(math.Abs(x), math.Abs(y))+1e-6 {
			return false
		}
	}
	return true
}

// waitIdle waits until the tenant has no pending or running job (the
// insight job runs some seconds after extraction and rewrites insights).
func waitIdle(t *testing.T, e *e2e) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		busy := false
		for _, st := range []string{"pending", "running"} {
			var out struct {
				Jobs []struct{ ID string } `json:"jobs"`
			}
			if err := json.Unmarshal(e.must(t, http.StatusOK, http.MethodGet, "/v1/jobs?status="+st, nil), &out); err != nil {
				t.Fatal(err)
			}
			busy = busy || len(out.Jobs) > 0
		}
		if !busy {
			backlog, err := graphtest.Store(t).EmbeddingBacklog(t.Context(), []string{e.Tenant})
			if err != nil {
				t.Fatal(err)
			}
			busy = backlog.Pending > 0 // the lane still embeds
		}
		if !busy {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("jobs or embeddings still running after 2 minutes")
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// exportBody drops the header line (tenant and time differ by design).
func exportBody(t *testing.T, data []byte) string {
	t.Helper()
	head, body, ok := bytes.Cut(data, []byte("\n"))
	if !ok || !bytes.Contains(head, []byte(`"kind":"header"`)) || !bytes.HasSuffix(bytes.TrimSpace(body), []byte("}")) {
		t.Fatalf("not an export: %.300s", data)
	}
	return string(body)
}

type roundTrip struct {
	bytes, lines int
	exportTook   time.Duration
	importTook   time.Duration
	nodes, rels  int
}

// exportImport exports user from a with the binary, imports the file into
// b's tenant twice and checks b reads exactly as a: facts with history,
// as-of answers, preferences, conflicts, insights, search top-10 and the
// API's own export; the second import creates nothing and leaves the
// census as it was.
func exportImport(t *testing.T, a, b *e2e, user string, queries, asOf []string) roundTrip {
	t.Helper()
	waitIdle(t, a) // nothing may write to the user while it is compared
	bin := buildGraphmem(t)
	file := filepath.Join(t.TempDir(), user+".ndjson")
	start := time.Now()
	_, msg := runGraphmem(t, bin, "export", "--user", user, "--tenant", a.Tenant, "-o", file)
	rt := roundTrip{exportTook: time.Since(start)}
	t.Logf("%s", strings.TrimSpace(msg))
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	rt.bytes, rt.lines = len(data), bytes.Count(data, []byte("\n"))

	start = time.Now()
	_, msg = runGraphmem(t, bin, "import", file, "--tenant", b.Tenant)
	rt.importTook = time.Since(start)
	t.Logf("%s", strings.TrimSpace(msg))
	if rt.nodes, rt.rels = importCreated(t, msg); rt.nodes == 0 || rt.rels == 0 {
		t.Fatalf("the import created nothing: %s", msg)
	}
	// Not a terminal: plain lines, no carriage returns of a progress bar.
	if strings.Contains(msg, "\r") {
		t.Errorf("import drew a progress bar on a pipe: %q", msg)
	}

	waitIdle(t, b) // the importing service embeds the imported memories
	want, got := userView(t, a, user, queries, asOf), userView(t, b, user, queries, asOf)
	for k := range want {
		if !sameView(want[k], got[k], strings.HasPrefix(k, "~")) {
			i := 0
			for i < len(want[k]) && i < len(got[k]) && want[k][i] == got[k][i] {
				i++
			}
			if d := os.Getenv("EXPORT_DIFF_DIR"); d != "" {
				_ = os.WriteFile(filepath.Join(d, "src.txt"), []byte(want[k]), 0o600)
				_ = os.WriteFile(filepath.Join(d, "dst.txt"), []byte(got[k]), 0o600)
			}
			from := max(i-300, 0)
			t.Errorf("%s differs after import, at byte %d:\n source   …%.600s\n imported …%.600s", k, i, want[k][from:], got[k][from:])
		}
	}
	for k, v := range want {
		if strings.HasPrefix(k, "search") && v == "" {
			t.Errorf("%s finds nothing in the source: nothing to compare", k)
		}
	}
	// The API's export of the imported user is the source's, line for line.
	ea := a.must(t, http.StatusOK, http.MethodGet, "/v1/users/"+user+"/export", nil)
	eb := b.must(t, http.StatusOK, http.MethodGet, "/v1/users/"+user+"/export", nil)
	if exportBody(t, ea) != exportBody(t, eb) {
		t.Errorf("the imported user exports differently (%d vs %d bytes)", len(ea), len(eb))
	}
	if exportBody(t, ea) != exportBody(t, data) {
		t.Errorf("GET /v1/users/%s/export and graphmem export differ", user)
	}

	census := graphtest.CensusOf(graphtest.Census(t, b.Tenant), b.Tenant, user)
	_, msg = runGraphmem(t, bin, "import", "--tenant", b.Tenant, file)
	if n, r := importCreated(t, msg); n != 0 || r != 0 {
		t.Fatalf("importing twice created %d nodes and %d relationships", n, r)
	}
	if c := graphtest.CensusOf(graphtest.Census(t, b.Tenant), b.Tenant, user); !maps.Equal(c, census) {
		t.Fatalf("importing twice changed the census:\n %v\n %v", census, c)
	}
	again := userView(t, b, user, queries, asOf)
	for k := range got {
		if !sameView(got[k], again[k], strings.HasPrefix(k, "~")) {
			t.Errorf("importing twice changed %s:\n before %.800s\n after  %.800s", k, got[k], again[k])
		}
	}
	return rt
}

// TestE2EExportImport: a user with two sessions, a move, a changed
// preference (a conflict), insights and a direct edit, exported with
// `graphmem export`, imported into another tenant with `graphmem import`,
// reads the same through the API; importing twice changes nothing; a cut
// file is refused; a tenant export holds every user of the tenant.
func TestE2EExportImport(t *testing.T) {
	t.Parallel()
	a, b := newE2E(t), newE2E(t)
	forgetMemory(t, a, "alice")
	forgetMemory(t, a, "bob")
	a.must(t, http.StatusOK, http.MethodPost, "/v1/users/alice/insights", nil)
	a.must(t, http.StatusCreated, http.MethodPost, "/v1/users/alice/facts",
		map[string]any{"subject": "user", "predicate": "WORKS_AT", "object": "Globex", "actor": "ops"})
	rt := exportImport(t, a, b, "alice", []string{"Where do I live?", "sushi", "Who is Ann?", "ramen", "Acme"},
		[]string{"2024-03-15", "2024-04-15"})
	if !strings.Contains(userView(t, a, "alice", nil, nil)["facts?include_history=true"], `"status":"superseded"`) {
		t.Error("alice has no superseded fact: the comparison misses history")
	}
	t.Logf("alice: %d bytes, export %s, import %s", rt.bytes, rt.exportTook.Round(time.Millisecond), rt.importTook.Round(time.Millisecond))
	if rec := b.Do(http.MethodGet, "/v1/users/bob/export", nil); rec.Code != http.StatusNotFound {
		t.Fatalf("bob was not exported, yet b knows him: %d", rec.Code)
	}

	// A file cut short (no end line) is refused, and says so.
	bin := buildGraphmem(t)
	dir := t.TempDir()
	full, _ := runGraphmem(t, bin, "export", "--tenant", a.Tenant)
	var users []string
	for line := range strings.Lines(full) {
		var l struct {
			Kind   string         `json:"kind"`
			Labels []string       `json:"labels"`
			Props  map[string]any `json:"props"`
		}
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		if l.Kind == "node" && slices.Contains(l.Labels, "Session") {
			users = append(users, l.Props["user_id"].(string))
		}
	}
	slices.Sort(users)
	if got := slices.Compact(users); !slices.Equal(got, []string{"alice", "bob"}) {
		t.Fatalf("the tenant export holds sessions of %v", got)
	}
	lines := strings.SplitAfter(full, "\n")
	cut := filepath.Join(dir, "cut.ndjson")
	if err := os.WriteFile(cut, []byte(strings.Join(lines[:len(lines)/2], "")), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "import", "--tenant", b.Tenant+"-cut", cut)
	cmd.Env = serveEnv(map[string]string{"GRAPHMEM_NEO4J_URI": graphtest.URI(t)})
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "end line") {
		t.Fatalf("a cut file was accepted: %v %s", err, out)
	}
}

const locomoDataset = "../../../shared/datasets/locomo/locomo-visible.json"

// ingestLoCoMo appends one LoCoMo conversation as one user (one session
// per LoCoMo session, closed and extracted, as bench/ does) and returns
// the user id and a few of its questions.
func ingestLoCoMo(t *testing.T, e *e2e, index int) (string, []string) {
	t.Helper()
	raw, err := os.ReadFile(locomoDataset)
	if err != nil {
		t.Skipf("LoCoMo is read from ../shared beside the repository: %v", err)
	}
	var convs []struct {
		SampleID string                     `json:"sample_id"`
		Conv     map[string]json.RawMessage `json:"conversation"`
		QA       []struct {
			Question string `json:"question"`
		} `json:"qa"`
	}
	if err := json.Unmarshal(raw, &convs); err != nil {
		t.Fatal(err)
	}
	if index >= len(convs) {
		return "", nil
	}
	c := convs[index]
	var speakerA string
	_ = json.Unmarshal(c.Conv["speaker_a"], &speakerA)
	for n := 1; ; n++ {
		turnsRaw, ok := c.Conv[fmt.Sprintf("session_%d", n)]
		if !ok {
			break
		}
		var when string
		_ = json.Unmarshal(c.Conv[fmt.Sprintf("session_%d_date_time", n)], &when)
		start, err := time.Parse("3:04 pm on 2 January, 2006", when)
		if err != nil {
			t.Fatalf("session %d time %q: %v", n, when, err)
		}
		var turns []struct {
			Speaker string `json:"speaker"`
			DiaID   string `json:"dia_id"`
			Text    string `json:"text"`
		}
		if err := json.Unmarshal(turnsRaw, &turns); err != nil {
			t.Fatal(err)
		}
		var evs []map[string]any
		for i, tr := range turns {
			role := "assistant"
			if tr.Speaker == speakerA {
				role = "user"
			}
			evs = append(evs, ev(tr.DiaID, "message", role, tr.Text, "name", tr.Speaker,
				"occurred_at", start.Add(time.Duration(i)*time.Second).Format(time.RFC3339)))
		}
		session := fmt.Sprintf("%s-s%d", c.SampleID, n)
		e.must(t, http.StatusCreated, http.MethodPost, "/v1/sessions/"+session+"/events", batch(c.SampleID, evs...))
		e.closeAndWait(t, session)
	}
	var qs []string
	for i := 0; i < len(c.QA) && len(qs) < 8; i += len(c.QA) / 8 {
		qs = append(qs, c.QA[i].Question)
	}
	return c.SampleID, qs
}

// TestE2EExportImportLoCoMo measures exporting and importing LoCoMo's
// users (each conversation of the visible file, ~200-700 turns over ~19-30
// sessions, closed and extracted, insights derived) and checks each round
// trip as TestE2EExportImport does. It takes a minute or two on two cores,
// so it runs only when GRAPHMEM_TEST_LOCOMO_EXPORT is set.
func TestE2EExportImportLoCoMo(t *testing.T) {
	if os.Getenv("GRAPHMEM_TEST_LOCOMO_EXPORT") == "" {
		t.Skip("set GRAPHMEM_TEST_LOCOMO_EXPORT=1 to measure LoCoMo-sized exports and imports")
	}
	a, b := newE2E(t), newE2E(t)
	for i := 0; ; i++ {
		start := time.Now()
		user, queries := ingestLoCoMo(t, a, i)
		if user == "" {
			break
		}
		a.must(t, http.StatusOK, http.MethodPost, "/v1/users/"+user+"/insights", nil)
		ingest := time.Since(start)
		census := graphtest.CensusOf(graphtest.Census(t, a.Tenant), a.Tenant, user)
		rt := exportImport(t, a, b, user, queries, []string{"2023-06-01", "2023-09-01"})
		t.Logf("LoCoMo %s: %d raw events, %d entities, %d mentions; ingested in %s; export file %s (%d lines), export %s, import %s (%d nodes, %d relationships)",
			user, census["node:Raw"], census["node:Entity"], census["rel:MENTIONS"], ingest.Round(time.Second), byteSize(int64(rt.bytes)), rt.lines,
			rt.exportTook.Round(time.Millisecond), rt.importTook.Round(time.Millisecond), rt.nodes, rt.rels)
	}
}
