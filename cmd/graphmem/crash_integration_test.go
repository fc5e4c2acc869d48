//go:build integration

package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph/graphtest"
)

// TestCrashDuringExtractionIsRecovered runs the real binary as a separate
// process, kills it with SIGKILL while its extraction call hangs in the
// LLM, and starts a second process with the same configuration: the same
// extract job is claimed again once its lease expires and finishes on its
// second attempt, the facts appear, no raw event is lost, and closing the
// session again duplicates neither the summary nor the facts.
func TestCrashDuringExtractionIsRecovered(t *testing.T) {
	started := time.Now()
	sc := newScope()
	fake := newFakeLLM(t, sc.token)
	bin := buildGraphmem(t)
	key := "key-" + sc.token + "-0123456789abcdef"
	env := serveEnv(map[string]string{
		"GRAPHMEM_NEO4J_URI":    graphtest.URI(t),
		"GRAPHMEM_LISTEN_ADDR":  freeLoopbackAddr(t),
		"GRAPHMEM_LLM_BASE_URL": fake.URL + "/v1",
		"GRAPHMEM_LLM_MODEL":    "test-model",
		// Short, so the second process claims the job soon after the
		// crash; not shorter, since under a loaded CI machine a 3 s lease
		// (renewed each second) expired mid-call twice and a second worker
		// re-ran the close job (run57, run65: "2 summary calls").
		"GRAPHMEM_JOB_LEASE":          "6s",
		"GRAPHMEM_API_KEYS":           sc.id("tenant") + ":" + key,
		"GRAPHMEM_WORKERS":            "2",
		"GRAPHMEM_WORKER_TENANTS":     sc.id("tenant"),
		"GRAPHMEM_SESSION_IDLE_CLOSE": "0",
		"GRAPHMEM_LOG_FORMAT":         "json",
	})
	session, user := sc.id("crash"), sc.id("crash", "user")
	match := sc.sessionMatch(session)
	fake.Script(llmExtract, match, answerHang())

	first := startServe(t, bin, env, key)
	events := messages(session, time.Now().UTC().Add(-time.Hour),
		"I work at Fjordline, the ferry company in Oslo.", "How long have you worked there?",
		"Three years, mostly on the Kiel route.")
	mustCall(t, first, http.StatusCreated, http.MethodPost, "/v1/sessions/"+session+"/events", batch(user, events...))
	if code, body := first.call(t, http.MethodPost, "/v1/sessions/"+session+"/close", nil); code != http.StatusAccepted && code != http.StatusOK {
		t.Fatalf("close: %d %s", code, body)
	}
	select {
	case kind := <-fake.Hung():
		if kind != llmExtract {
			t.Fatalf("the call hanging is a %s call, want the extraction", kind)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("the extraction call never reached the LLM; LLM calls %v\n%s", fake.Counts(), first.out.String())
	}
	running := listJobs(t, first, jobsQuery("session_id", session, "kind", "extract"))
	if len(running) != 1 || running[0].Status != "running" || running[0].Attempts != 1 {
		t.Fatalf("while the LLM hangs, want the extract job running on its first attempt: %+v", running)
	}
	// The close job (the summary) enqueued the extraction as its last step;
	// it is recorded done right after, possibly after the extraction started.
	waitJobs(t, first, jobsQuery("session_id", session, "kind", "session.close"), 10*time.Second,
		"the close job to be done", func(jobs []jobView) bool { return len(jobs) == 1 && jobs[0].Status == "done" })
	first.kill(t)
	fake.Release()

	second := startServe(t, bin, env, key)
	done := waitJobs(t, second, jobsQuery("session_id", session, "kind", "extract"), 45*time.Second,
		"the extract job to finish in the second process", allStatus("done"))
	if len(done) != 1 || done[0].ID != running[0].ID || done[0].Attempts != 2 {
		t.Fatalf("want the same extract job %s done on attempt 2, got %+v\n%s", running[0].ID, done, second.out.String())
	}
	recovered := time.Since(started)
	checkFakeFact(t, fake, userFacts(t, second, user, false), "WORKS_AT", "Fjordline", session+"-1")
	checkNoEventLost(t, second, session, events)
	nodes := eventNodes(t, second, session)
	if len(nodes) != 1 || nodes[0].Kind != "session_summary" || nodes[0].ExtractedAt == "" {
		t.Fatalf("want one extracted session summary, got %+v", nodes)
	}
	if s, x := fake.Count(llmSummary, match), fake.Count(llmExtract, match); s != 1 || x != 2 {
		t.Fatalf("LLM calls: %d summary and %d extraction, want 1 and 2 (the hung one and the retry)", s, x)
	}

	// Closing again after the restart redoes nothing.
	factsBefore := userFacts(t, second, user, true)
	mustCall(t, second, http.StatusOK, http.MethodPost, "/v1/sessions/"+session+"/close?wait=true", nil)
	after := eventNodes(t, second, session)
	if len(after) != 1 || after[0].ID != nodes[0].ID {
		t.Fatalf("the second close changed the session's summaries: before %+v, after %+v", nodes, after)
	}
	factsAfter := userFacts(t, second, user, true)
	ids := func(fs []factView) []string {
		out := make([]string, len(fs))
		for i, f := range fs {
			out[i] = f.ID
		}
		return out
	}
	if !sameSet(ids(factsBefore), ids(factsAfter)) {
		t.Fatalf("the second close changed the facts: before %+v, after %+v", factsBefore, factsAfter)
	}
	if s, x := fake.Count(llmSummary, match), fake.Count(llmExtract, match); s != 1 || x != 2 {
		t.Fatalf("the second close made LLM calls: %d summary and %d extraction in all", s, x)
	}
	checkNoEventLost(t, second, session, events)
	t.Logf("crash recovered in %s (extract job %s done on attempt 2); LLM calls %v", recovered.Round(time.Millisecond), done[0].ID, fake.Counts())
}

// buildGraphmem builds the binary from the working tree (the build cache
// makes it quick after `make build` or an earlier run).
func buildGraphmem(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the crash test builds the binary with the go tool: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "graphmem")
	cmd := exec.Command(goTool, "build", "-o", bin, "./cmd/graphmem")
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// serveEnv is this process's environment without GRAPHMEM_* variables,
// plus vars.
func serveEnv(vars map[string]string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, envPrefix) {
			env = append(env, kv)
		}
	}
	for k, v := range embedderVars() {
		if _, set := vars[k]; !set {
			env = append(env, k+"="+v)
		}
	}
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	return env
}

func freeLoopbackAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// serveProc is a `graphmem serve` process.
type serveProc struct {
	cmd    *exec.Cmd
	out    *syncBuffer
	exited chan struct{}
	base   string
	key    string
	client *http.Client
}

// startServe starts `graphmem serve` and waits until it is ready; the
// process is stopped (SIGTERM, then SIGKILL) when the test ends.
func startServe(t *testing.T, bin string, env []string, key string) *serveProc {
	t.Helper()
	addr := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GRAPHMEM_LISTEN_ADDR="); ok {
			addr = v
		}
	}
	p := &serveProc{cmd: exec.Command(bin, "serve"), out: &syncBuffer{}, exited: make(chan struct{}),
		base: "http://" + addr, key: key, client: &http.Client{Timeout: time.Minute}}
	p.cmd.Env = env
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() { p.stop(t) })

	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := p.client.Get(p.base + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return p
			}
		}
		select {
		case <-p.exited:
			t.Fatalf("graphmem serve exited before it was ready: %v\n%s", p.cmd.ProcessState, p.out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("graphmem serve not ready after 60s\n%s", p.out.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (p *serveProc) call(t *testing.T, method, path string, body any) (int, []byte) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, p.base+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+p.key)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := p.client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", method, path, err, p.out.String())
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

// kill ends the process with SIGKILL, as a crash would: no drain, no
// lease released, no job recorded.
func (p *serveProc) kill(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatalf("SIGKILL: %v", err)
	}
	select {
	case <-p.exited:
	case <-time.After(10 * time.Second):
		t.Fatal("the process survived SIGKILL for 10s")
	}
	ws, ok := p.cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the process did not die of SIGKILL: %v", p.cmd.ProcessState)
	}
}

// stop shuts the process down gracefully, or kills it after 30s.
func (p *serveProc) stop(t *testing.T) {
	select {
	case <-p.exited:
		return
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(30 * time.Second):
		t.Errorf("graphmem serve ignored SIGTERM for 30s; killing it\n%s", p.out.String())
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
}
