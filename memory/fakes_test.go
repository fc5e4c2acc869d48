package memory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphmem/graphmem/errs"
	"github.com/graphmem/graphmem/extract"
	"github.com/graphmem/graphmem/graph"
)

// fakeStore is an in-memory store with the graph's rules for what View and
// Close touch: one session log (raw events and condensations sharing the
// seq), windows claimed by the first node covering them, stale
// condensations refused, keyed jobs deduplicated while active. It records
// the jobs enqueued. The interfaces it embeds stay nil: a call to a method
// it does not implement panics, and the test that made it fails.
type fakeStore struct {
	KnowledgeStore
	InsightStore
	WindowStore // for EventWindow and MarkExtracted

	mu       sync.Mutex
	now      time.Time
	sessions map[string]*graph.Session
	raw      map[string][]graph.RawEvent  // by session, in seq order
	nodes    map[string][]graph.EventNode // by session, in creation order
	window   map[string]string            // session \x00 raw id → node covering it
	jobs     []graph.Job
	// staleCondensations makes this many AppendCondensation calls fail as
	// if another request had condensed the same view first.
	staleCondensations int
	// activeCounts are CountActiveJobs' answers, in order; then 0.
	activeCounts []int
	countCalls   int
}

func newFakeStore() *fakeStore {
	return &fakeStore{now: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC), sessions: map[string]*graph.Session{},
		raw: map[string][]graph.RawEvent{}, nodes: map[string][]graph.EventNode{}, window: map[string]string{}}
}

// addSession stores a session of user with n user/assistant messages.
func (f *fakeStore) addSession(t *testing.T, sessionID, user string, n int) {
	t.Helper()
	events := make([]graph.NewRawEvent, n)
	for i := range events {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		events[i] = graph.NewRawEvent{ID: fmt.Sprintf("m%d", i+1), Kind: graph.RawMessage, Role: role,
			Content:    fmt.Sprintf("message number %d about the garden and the weather", i+1),
			OccurredAt: f.now.Add(time.Duration(i) * time.Minute)}
	}
	if _, err := f.AppendEvents(t.Context(), "t1", sessionID, user, "", events); err != nil {
		t.Fatal(err)
	}
}

func (f *fakeStore) AppendEvents(_ context.Context, _, sessionID, userID, agentID string, events []graph.NewRawEvent) (graph.AppendResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	sess, ok := f.sessions[sessionID]
	out := graph.AppendResult{Created: !ok}
	if !ok {
		sess = &graph.Session{ID: sessionID, UserID: userID, AgentID: agentID, Status: graph.SessionOpen, CreatedAt: f.now}
		f.sessions[sessionID] = sess
	}
	if sess.UserID != userID {
		return graph.AppendResult{}, errs.Conflict("session %q belongs to another user", sessionID)
	}
	out.Reopened = sess.Status == graph.SessionClosed
	sess.Status, sess.ClosedAt = graph.SessionOpen, time.Time{}
	for _, e := range events {
		sess.LastSeq++
		sess.EventCount++
		f.raw[sessionID] = append(f.raw[sessionID], graph.RawEvent{NewRawEvent: e, Seq: sess.LastSeq, SessionID: sessionID,
			UserID: sess.UserID, RecordedAt: f.now})
		out.Events = append(out.Events, graph.Appended{ID: e.ID, Seq: sess.LastSeq})
	}
	out.LastSeq = sess.LastSeq
	return out, nil
}

func (f *fakeStore) session(sessionID string) (*graph.Session, error) {
	sess, ok := f.sessions[sessionID]
	if !ok {
		return nil, errs.NotFound("session %q", sessionID)
	}
	return sess, nil
}

func (f *fakeStore) GetSession(_ context.Context, _, sessionID string) (graph.Session, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	sess, err := f.session(sessionID)
	if err != nil {
		return graph.Session{}, err
	}
	return *sess, nil
}

func (f *fakeStore) ListEvents(_ context.Context, _, sessionID string, afterSeq int64, limit int) ([]graph.RawEvent, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, err := f.session(sessionID); err != nil {
		return nil, err
	}
	var out []graph.RawEvent
	for _, r := range f.raw[sessionID] {
		if r.Seq > afterSeq && len(out) < limit {
			out = append(out, r)
		}
	}
	return out, nil
}

func (f *fakeStore) SessionLog(_ context.Context, _, sessionID string) (graph.SessionLog, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	sess, err := f.session(sessionID)
	if err != nil {
		return graph.SessionLog{}, err
	}
	log := graph.SessionLog{Session: *sess, Raw: slices.Clone(f.raw[sessionID])}
	for _, n := range f.nodes[sessionID] {
		if n.Kind == graph.EventKindCondensation {
			log.Condensations = append(log.Condensations, n)
		}
	}
	return log, nil
}

func (f *fakeStore) CloseSession(_ context.Context, _, sessionID string, idleBefore time.Time) (graph.Session, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	sess, err := f.session(sessionID)
	if err != nil {
		return graph.Session{}, err
	}
	if !idleBefore.IsZero() {
		return graph.Session{}, errors.New("fakeStore: idle sweeps are not modelled")
	}
	sess.Status = graph.SessionClosed
	if sess.ClosedAt.IsZero() {
		sess.ClosedAt = f.now
	}
	return *sess, nil
}

func (f *fakeStore) IdleSessions(context.Context, time.Time, int) ([]graph.SessionRef, error) {
	return nil, nil
}

// claim makes the raw events of cover that no node covers yet n's window.
func (f *fakeStore) claim(sessionID string, n *graph.EventNode, cover []string) {
	for _, id := range cover {
		if k := sessionID + "\x00" + id; f.window[k] == "" {
			f.window[k] = n.ID
			n.CoveredIDs = append(n.CoveredIDs, id)
		}
	}
}

func (f *fakeStore) AppendCondensation(_ context.Context, _, sessionID string, in graph.NewEventNode) (graph.EventNode, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	sess, err := f.session(sessionID)
	if err != nil {
		return graph.EventNode{}, err
	}
	if f.staleCondensations > 0 {
		f.staleCondensations--
		return graph.EventNode{}, fmt.Errorf("append condensation: %w: another condensation was stored after the view", errs.ErrConflict)
	}
	for _, n := range f.nodes[sessionID] {
		if n.Kind == graph.EventKindCondensation && n.Seq > in.BasedOnSeq {
			return graph.EventNode{}, fmt.Errorf("%w: condensation %d is newer than the view (seq %d)", errs.ErrConflict, n.Seq, in.BasedOnSeq)
		}
	}
	sess.LastSeq++
	n := graph.EventNode{ID: in.ID, SessionID: sessionID, UserID: sess.UserID, Kind: in.Kind, Seq: sess.LastSeq,
		Summary: in.Summary, Record: in.Record, Config: in.Config, Strategy: in.Strategy, SummarizerName: in.SummarizerName,
		ForgottenIDs: in.ForgottenIDs, EventsBefore: in.EventsBefore, EventsAfter: in.EventsAfter, CreatedAt: f.now}
	f.claim(sessionID, &n, in.Cover)
	f.nodes[sessionID] = append(f.nodes[sessionID], n)
	return n, nil
}

func (f *fakeStore) WriteSessionSummary(_ context.Context, _, sessionID string, in graph.NewEventNode) (graph.EventNode, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	sess, err := f.session(sessionID)
	if err != nil {
		return graph.EventNode{}, err
	}
	if sess.Status != graph.SessionClosed {
		return graph.EventNode{}, fmt.Errorf("session %q was reopened: %w", sessionID, errs.ErrConflict)
	}
	n := graph.EventNode{ID: in.ID, SessionID: sessionID, UserID: sess.UserID, Kind: in.Kind, Summary: in.Summary,
		SummarizerName: in.SummarizerName, EventsBefore: in.EventsBefore, CreatedAt: f.now}
	f.claim(sessionID, &n, in.Cover)
	f.nodes[sessionID] = append(f.nodes[sessionID], n)
	return n, nil
}

func (f *fakeStore) UncoveredEvents(_ context.Context, _, sessionID string) ([]graph.RawEvent, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []graph.RawEvent
	for _, r := range f.raw[sessionID] {
		if f.window[sessionID+"\x00"+r.ID] == "" && r.Kind != graph.RawCondensationRequest {
			out = append(out, r)
		}
	}
	return out, nil
}

func (f *fakeStore) ListEventNodes(_ context.Context, _, sessionID string) ([]graph.EventNode, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.nodes[sessionID]), nil
}

func (f *fakeStore) EnqueueJob(_ context.Context, tenant string, spec graph.JobSpec) (graph.Job, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, j := range f.jobs {
		if spec.Key != "" && j.Kind == spec.Kind && j.Key == spec.Key && j.Active() {
			return j, false, nil
		}
	}
	j := graph.Job{Tenant: tenant, ID: fmt.Sprintf("%s:%d", spec.Kind, len(f.jobs)+1), Kind: spec.Kind, Key: spec.Key,
		SessionID: spec.SessionID, UserID: spec.UserID, Status: graph.JobPending, MaxAttempts: spec.MaxAttempts,
		RunAfter: spec.RunAfter, CreatedAt: f.now, Payload: mustJSON(spec.Payload)}
	f.jobs = append(f.jobs, j)
	return j, true, nil
}

func (f *fakeStore) ListJobs(_ context.Context, _ string, filter graph.JobFilter) ([]graph.Job, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []graph.Job
	for _, j := range f.jobs {
		if filter.SessionID == "" || j.SessionID == filter.SessionID {
			out = append(out, j)
		}
	}
	return out, nil
}

func (f *fakeStore) CountActiveJobs(context.Context, string, string) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.countCalls++
	if len(f.activeCounts) == 0 {
		return 0, nil
	}
	n := f.activeCounts[0]
	f.activeCounts = f.activeCounts[1:]
	return n, nil
}

func (f *fakeStore) RetryJob(context.Context, string, string) (graph.Job, error) {
	return graph.Job{}, errors.New("fakeStore: RetryJob is not modelled")
}

// jobsOf returns the enqueued jobs of a kind.
func (f *fakeStore) jobsOf(kind string) []graph.Job {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []graph.Job
	for _, j := range f.jobs {
		if j.Kind == kind {
			out = append(out, j)
		}
	}
	return out
}

// fakeEngine summarizes by counting: the summary names how many events it
// replaced, so a test can tell which summary it reads.
type fakeEngine struct {
	mu        sync.Mutex
	summaries []extract.SummaryRequest
}

func (e *fakeEngine) Summarize(_ context.Context, req extract.SummaryRequest) (extract.Summary, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.summaries = append(e.summaries, req)
	ids := make([]string, len(req.Events))
	for i, ev := range req.Events {
		ids[i] = ev.ID
	}
	return extract.Summary{Text: "summary of " + strings.Join(ids, ","), Model: "fake"}, nil
}

func (e *fakeEngine) SelectEvents(_ context.Context, req extract.AttentionRequest) ([]string, error) {
	var ids []string
	for _, ev := range req.Events[:req.MaxKeep] {
		ids = append(ids, ev.ID)
	}
	return ids, nil
}

func (e *fakeEngine) Extract(context.Context, extract.Input) (extract.Result, error) {
	return extract.Result{}, errors.New("fakeEngine: Extract is not modelled")
}

func (e *fakeEngine) Insights(context.Context, extract.InsightInput) ([]extract.Insight, error) {
	return nil, errors.New("fakeEngine: Insights is not modelled")
}

// wordCounter counts words as tokens.
type wordCounter struct{}

func (wordCounter) Count(s string) int { return len(strings.Fields(s)) }

// newTestService returns a service over a fake store and engine.
func newTestService(t *testing.T) (*Service, *fakeStore, *fakeEngine) {
	t.Helper()
	store, engine := newFakeStore(), &fakeEngine{}
	s, err := New(Deps{Sessions: store, Windows: store, Jobs: store, Knowledge: store, Insights: store, Engine: engine,
		Counter: wordCounter{}, Now: func() time.Time { return store.now }}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	return s, store, engine
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// mustDecode unmarshals a job payload into v and returns it.
func mustDecode[T any](t *testing.T, payload json.RawMessage, v *T) *T {
	t.Helper()
	if err := json.Unmarshal(payload, v); err != nil {
		t.Fatalf("payload %s: %v", payload, err)
	}
	return v
}
