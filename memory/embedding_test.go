package memory

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/knowledge"
)

// fakeEmbeddingQueue is an in-memory embedding queue with leases: a
// claimed item stays queued, hidden until its lease ends, and leaves only
// when completed.
type fakeEmbeddingQueue struct {
	mu       sync.Mutex
	pending  []graph.PendingEmbedding
	leased   map[string]time.Time
	done     map[string][]float32
	results  map[string]graph.EmbeddingResult
	requeued string
	// failWrites makes the first CompleteEmbeddings calls fail.
	failWrites int
}

func (q *fakeEmbeddingQueue) ClaimEmbeddings(_ context.Context, _ string, limit int, lease time.Duration, _ []string) ([]graph.PendingEmbedding, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	var out []graph.PendingEmbedding
	for _, p := range q.pending {
		if len(out) < limit && time.Now().After(q.leased[p.ElementID]) {
			q.leased[p.ElementID] = time.Now().Add(lease)
			out = append(out, p)
		}
	}
	return out, nil
}

func (q *fakeEmbeddingQueue) CompleteEmbeddings(_ context.Context, _ string, rs []graph.EmbeddingResult) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.failWrites > 0 {
		q.failWrites--
		return errors.New("neo4j unavailable")
	}
	for _, r := range rs {
		q.done[r.ElementID] = r.Vector
		if q.results != nil {
			q.results[r.ElementID] = r
		}
		for i, p := range q.pending {
			if p.ElementID == r.ElementID {
				q.pending = append(q.pending[:i], q.pending[i+1:]...)
				break
			}
		}
	}
	return nil
}

func (q *fakeEmbeddingQueue) EmbeddingBacklog(context.Context, []string) (graph.EmbeddingBacklog, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return graph.EmbeddingBacklog{Pending: int64(len(q.pending))}, nil
}

func (q *fakeEmbeddingQueue) RequeueEmbeddings(_ context.Context, model string, _ []string) (int64, error) {
	q.requeued = model
	return 0, nil
}

func (q *fakeEmbeddingQueue) finished() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.done)
}

// runLane runs the lane until the queue has finished n memories or the
// timeout passes, then stops it.
func runLane(t *testing.T, lane *EmbeddingLane, q *fakeEmbeddingQueue, n int, timeout time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), timeout)
	defer cancel()
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		_ = lane.Run(ctx)
	}()
	for q.finished() < n && ctx.Err() == nil {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	<-stopped
}

// lengthEmbedder embeds a text as [its length]; it fails its first fails
// calls and records every batch's size.
type lengthEmbedder struct {
	mu      sync.Mutex
	fails   int
	batches []int
}

func (e *lengthEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.fails > 0 {
		e.fails--
		return nil, errors.New("embedder down")
	}
	e.batches = append(e.batches, len(texts))
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = []float32{float32(len(t))}
	}
	return out, nil
}

// TestEmbeddingLane: every queued memory gets its own text's vector in
// batches of the configured size, blank texts leave the queue without a
// vector, a failing embedder is retried, and the batches are reported.
func TestEmbeddingLane(t *testing.T) {
	q := &fakeEmbeddingQueue{done: map[string][]float32{}, leased: map[string]time.Time{}}
	texts := []string{"a", "bb", "   ", "dddd", "eeeee"}
	for i, txt := range texts {
		q.pending = append(q.pending, graph.PendingEmbedding{ElementID: string(rune('A' + i)), Kind: "raw", Text: txt})
	}
	emb := &lengthEmbedder{fails: 1}
	var mu sync.Mutex
	observed := 0
	lane := NewEmbeddingLane(q, emb, LaneConfig{Model: "m", Batch: 2, Idle: time.Millisecond, Lease: 10 * time.Millisecond,
		ObserveBatch: func(kinds map[string]int, _ time.Duration) {
			mu.Lock()
			observed += kinds["raw"]
			mu.Unlock()
		}}, slog.New(slog.DiscardHandler))
	runLane(t, lane, q, len(texts), 10*time.Second)
	if want := "m+" + knowledge.EmbeddingTextVersion; q.requeued != want {
		t.Errorf("the lane did not requeue for its model and turn rule first (got %q, want %q)", q.requeued, want)
	}
	for i, txt := range texts {
		v, ok := q.done[string(rune('A'+i))]
		switch {
		case !ok:
			t.Errorf("%q never left the queue", txt)
		case strings.TrimSpace(txt) == "" && v != nil:
			t.Errorf("blank text got a vector %v", v)
		case strings.TrimSpace(txt) != "" && (len(v) != 1 || v[0] != float32(len(txt))):
			t.Errorf("%q got %v, want its own vector", txt, v)
		}
	}
	for _, b := range emb.batches {
		if b > 2 {
			t.Errorf("a batch of %d texts exceeds the batch size 2", b)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if observed != 4 {
		t.Errorf("observed %d embedded texts, want 4", observed)
	}
}

// countingQueue counts claims on an empty queue.
type countingQueue struct {
	fakeEmbeddingQueue
	claims atomic.Int64
}

func (q *countingQueue) ClaimEmbeddings(ctx context.Context, owner string, limit int, lease time.Duration, tenants []string) ([]graph.PendingEmbedding, error) {
	q.claims.Add(1)
	return q.fakeEmbeddingQueue.ClaimEmbeddings(ctx, owner, limit, lease, tenants)
}

// TestEmbeddingLaneIdleBackoff: an idle lane polls less and less often, up
// to MaxIdle, and Notify makes it claim at once: a memory queued while it
// sleeps is embedded long before the next poll would find it.
func TestEmbeddingLaneIdleBackoff(t *testing.T) {
	q := &countingQueue{fakeEmbeddingQueue: fakeEmbeddingQueue{done: map[string][]float32{}, leased: map[string]time.Time{}}}
	lane := NewEmbeddingLane(q, &lengthEmbedder{}, LaneConfig{Model: "m", Idle: 10 * time.Millisecond, MaxIdle: 10 * time.Second},
		slog.New(slog.DiscardHandler))
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	go func() { _ = lane.Run(ctx) }()
	time.Sleep(1500 * time.Millisecond)
	// Polling every 10 ms would claim about 150 times; doubling from 10 ms
	// reaches 1.28 s by the 8th poll.
	if n := q.claims.Load(); n < 3 || n > 12 {
		t.Fatalf("an idle lane claimed %d times in 1.5 s; want a few, backing off", n)
	}
	q.mu.Lock()
	q.pending = append(q.pending, graph.PendingEmbedding{ElementID: "A", Kind: "raw", Text: "new turn"})
	q.mu.Unlock()
	start := time.Now()
	lane.Notify()
	for q.finished() == 0 && ctx.Err() == nil {
		time.Sleep(2 * time.Millisecond)
	}
	if waited := time.Since(start); waited > time.Second {
		t.Fatalf("a notified lane took %s to embed a new memory; want at once", waited)
	}
}

// TestStoredMemoriesWakeTheLane: an append and a finished job wake the
// embedding lane (the notifier main wires to EmbeddingLane.Notify); a
// refused append does not.
func TestStoredMemoriesWakeTheLane(t *testing.T) {
	s, _, _ := newTestService(t)
	var woken atomic.Int64
	s.SetStoredNotifier(func() { woken.Add(1) })
	if _, err := s.Append(t.Context(), "t1", "s1", AppendInput{UserID: "alice", Events: []NewEvent{
		{Kind: "message", Role: "user", Content: "I moved to Oslo."}}}); err != nil {
		t.Fatal(err)
	}
	if n := woken.Load(); n != 1 {
		t.Fatalf("an append woke the lane %d times, want 1", n)
	}
	if _, err := s.Append(t.Context(), "t1", "s1", AppendInput{UserID: "bob", Events: []NewEvent{
		{Kind: "message", Role: "user", Content: "not my session"}}}); err == nil {
		t.Fatal("an append to another user's session was accepted")
	}
	if n := woken.Load(); n != 1 {
		t.Fatalf("a refused append woke the lane (%d wakes)", n)
	}
	if err := s.JobQueue(completingQueue{}).CompleteJob(t.Context(), "t1", "j1", "w", nil); err != nil {
		t.Fatal(err)
	}
	if n := woken.Load(); n != 2 {
		t.Fatalf("a finished job woke the lane %d times in all, want 2", n)
	}
}

// completingQueue is a job table that only completes jobs.
type completingQueue struct{ QueueStore }

func (completingQueue) CompleteJob(context.Context, string, string, string, map[string]any) error {
	return nil
}

// TestEmbeddingLaneEmbedsWhatATurnStates: a raw turn's vector stands for
// its statements, without the question asked beside them; a summary is
// embedded whole.
func TestEmbeddingLaneEmbedsWhatATurnStates(t *testing.T) {
	const turn = "We moved to Oslo in May. Any tips for the winter?"
	q := &fakeEmbeddingQueue{done: map[string][]float32{}, leased: map[string]time.Time{}, pending: []graph.PendingEmbedding{
		{ElementID: "raw", Kind: "raw", Text: turn}, {ElementID: "event", Kind: "event", Text: turn},
	}}
	lane := NewEmbeddingLane(q, &lengthEmbedder{}, LaneConfig{Model: "m", Idle: time.Millisecond}, slog.New(slog.DiscardHandler))
	runLane(t, lane, q, 2, 10*time.Second)
	q.mu.Lock()
	defer q.mu.Unlock()
	if got, want := q.done["raw"], float32(len("We moved to Oslo in May.")); len(got) != 1 || got[0] != want {
		t.Errorf("raw turn embedded as %v, want the length of its statement %v", got, want)
	}
	if got := q.done["event"]; len(got) != 1 || got[0] != float32(len(turn)) {
		t.Errorf("summary embedded as %v, want its whole text's length %d", got, len(turn))
	}
}

// TestEmbeddingLaneEmbedsFactSentences: a raw turn's fact sentences are
// embedded beside its text, each its own vector in their order, and the
// result names the sentences it embedded (the store keeps a turn queued
// whose sentences changed meanwhile).
func TestEmbeddingLaneEmbedsFactSentences(t *testing.T) {
	facts := []string{"The user has a son named Arjun", "The user is a parent"}
	q := &fakeEmbeddingQueue{done: map[string][]float32{}, leased: map[string]time.Time{}, results: map[string]graph.EmbeddingResult{},
		pending: []graph.PendingEmbedding{
			{ElementID: "raw", Kind: "raw", Text: "Our son Arjun arrived on Sunday!", Facts: facts},
			{ElementID: "plain", Kind: "raw", Text: "Hello there"},
		}}
	lane := NewEmbeddingLane(q, &lengthEmbedder{}, LaneConfig{Model: "m", Idle: time.Millisecond}, slog.New(slog.DiscardHandler))
	runLane(t, lane, q, 2, 10*time.Second)
	q.mu.Lock()
	defer q.mu.Unlock()
	r := q.results["raw"]
	if len(r.Vector) != 1 || r.Vector[0] != float32(len("Our son Arjun arrived on Sunday!")) {
		t.Errorf("turn text embedded as %v", r.Vector)
	}
	if len(r.Facts) != 2 || r.Facts[0][0] != float32(len(facts[0])) || r.Facts[1][0] != float32(len(facts[1])) {
		t.Errorf("fact vectors = %v, want the lengths of %q in order", r.Facts, facts)
	}
	if strings.Join(r.FactSentences, "|") != strings.Join(facts, "|") {
		t.Errorf("result names sentences %q, want %q", r.FactSentences, facts)
	}
	if p := q.results["plain"]; len(p.Facts) != 0 || len(p.FactSentences) != 0 {
		t.Errorf("a turn without facts got fact vectors %v (%q)", p.Facts, p.FactSentences)
	}
}

// TestEmbeddingLaneRetriesAFailedWrite: the vectors of a batch are written
// while the next batch is embedded; a write that fails leaves its memories
// to be claimed again when their lease ends, and every memory gets its
// vector in the end.
func TestEmbeddingLaneRetriesAFailedWrite(t *testing.T) {
	q := &fakeEmbeddingQueue{done: map[string][]float32{}, leased: map[string]time.Time{}, failWrites: 2}
	for i := range 7 {
		q.pending = append(q.pending, graph.PendingEmbedding{ElementID: string(rune('A' + i)), Kind: "raw", Text: strings.Repeat("x", i+1)})
	}
	lane := NewEmbeddingLane(q, &lengthEmbedder{}, LaneConfig{Model: "m", Batch: 2, Idle: time.Millisecond, Lease: 10 * time.Millisecond},
		slog.New(slog.DiscardHandler))
	runLane(t, lane, q, 7, 20*time.Second)
	q.mu.Lock()
	defer q.mu.Unlock()
	for i := range 7 {
		id := string(rune('A' + i))
		if v := q.done[id]; len(v) != 1 || v[0] != float32(i+1) {
			t.Errorf("memory %s has vector %v, want [%d]", id, v, i+1)
		}
	}
}
