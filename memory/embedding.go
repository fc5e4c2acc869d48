package memory

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/knowledge"
)

// EmbeddingQueue is the graph's queue of memories waiting for a vector.
type EmbeddingQueue interface {
	ClaimEmbeddings(ctx context.Context, owner string, limit int, lease time.Duration, tenants []string) ([]graph.PendingEmbedding, error)
	CompleteEmbeddings(ctx context.Context, model string, results []graph.EmbeddingResult) error
	EmbeddingBacklog(ctx context.Context, tenants []string) (graph.EmbeddingBacklog, error)
	RequeueEmbeddings(ctx context.Context, model string, tenants []string) (int64, error)
}

// LaneConfig tunes the embedding lane.
type LaneConfig struct {
	Model   string        // the embedder's model name, stored beside each vector
	Owner   string        // this replica's lease owner id
	Batch   int           // texts per embedder call (0: 32)
	Workers int           // concurrent batches (0: 1); each uses one embedder thread
	Lease   time.Duration // how long a claimed batch is ours (0: 30s; main passes GRAPHMEM_JOB_LEASE)
	Idle    time.Duration // first poll interval once the queue is empty (0: 250ms)
	// MaxIdle bounds the idle polls, which double from Idle while the
	// queue stays empty (0: 5s): an idle service does not ask Neo4j four
	// times a second. Notify (after an append or a finished job) wakes the
	// lane at once, so new memories do not wait for the next poll; only
	// memories another replica stored wait up to MaxIdle.
	MaxIdle time.Duration
	Tenants []string // GRAPHMEM_WORKER_TENANTS
	// ObserveBatch and ObserveBacklog report to the metrics; both optional.
	ObserveBatch   func(kinds map[string]int, d time.Duration)
	ObserveBacklog func(pending int64, lag time.Duration)
}

// EmbeddingLane embeds memories after they are stored, in batches, apart
// from the job workers: appends never wait for the embedder, and a search
// uses the vectors that exist plus the lexical index for the rest. It is
// its own lane because its cost (a sentence encoder on the CPU) and its
// pace (every turn, not every closed window) differ from extraction's, and
// a slow embedder must not hold back condensation.
type EmbeddingLane struct {
	q    EmbeddingQueue
	emb  Embedder
	cfg  LaneConfig
	log  *slog.Logger
	wake chan struct{}
}

// NewEmbeddingLane builds the lane; Run starts it.
func NewEmbeddingLane(q EmbeddingQueue, emb Embedder, cfg LaneConfig, log *slog.Logger) *EmbeddingLane {
	if cfg.Batch <= 0 {
		cfg.Batch = 32
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 1
	}
	if cfg.Lease <= 0 {
		cfg.Lease = 30 * time.Second
	}
	if cfg.Idle <= 0 {
		cfg.Idle = 250 * time.Millisecond
	}
	if cfg.MaxIdle <= 0 {
		cfg.MaxIdle = 5 * time.Second
	}
	cfg.MaxIdle = max(cfg.MaxIdle, cfg.Idle)
	return &EmbeddingLane{q: q, emb: emb, cfg: cfg, log: log, wake: make(chan struct{}, 1)}
}

// Notify wakes an idle lane at once (after an append or a finished job),
// instead of at its next poll. It never blocks.
func (l *EmbeddingLane) Notify() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// Run requeues what an earlier model embedded (once per model change), then
// embeds until ctx ends. Embedder failures are logged and retried with
// backoff; the claimed nodes return to the queue when their lease ends.
func (l *EmbeddingLane) Run(ctx context.Context) error {
	if n, err := l.q.RequeueEmbeddings(ctx, l.storedModel(), l.cfg.Tenants); err != nil {
		return fmt.Errorf("embedding lane: %w", err)
	} else if n > 0 {
		l.log.Info("embedding lane: memories queued for the new model", "model", l.storedModel(), "queued", n)
	}
	var wg sync.WaitGroup
	for range l.cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.work(ctx)
		}()
	}
	if l.cfg.ObserveBacklog != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.watchBacklog(ctx)
		}()
	}
	wg.Wait()
	return nil
}

// storedModel is what each vector records it was made by: the model, and
// the rule that picks the part of a turn it stands for
// (knowledge.EmbeddingText), so that a change of either embeds the stored
// memories again when the lane starts.
func (l *EmbeddingLane) storedModel() string {
	return l.cfg.Model + "+" + knowledge.EmbeddingTextVersion
}

// work claims and embeds batches until ctx ends. A batch's vectors are
// written while the next batch is claimed and embedded: the write is Neo4j's
// work and the embedding this process's, so on two cores the lane no longer
// waits for one before starting the other (draining a backlog, the embedder
// was busy 62% of the wall time when the write came between batches).
func (l *EmbeddingLane) work(ctx context.Context) {
	backoff, idle := time.Duration(0), l.cfg.Idle
	var writing chan error // the previous batch's write, when one is under way
	written := func() error {
		if writing == nil {
			return nil
		}
		err := <-writing
		writing = nil
		return err
	}
	defer func() { _ = written() }()
	for ctx.Err() == nil {
		n, results, err := l.embedBatch(ctx)
		if werr := written(); werr != nil && err == nil {
			err = werr // its nodes return to the queue when their lease ends
		}
		if err == nil && n > 0 {
			writing = make(chan error, 1)
			go func(done chan<- error) {
				done <- l.q.CompleteEmbeddings(ctx, l.storedModel(), results)
			}(writing)
		}
		switch {
		case err != nil && ctx.Err() == nil:
			backoff = min(max(2*backoff, time.Second), time.Minute)
			l.log.Warn("embedding lane: batch failed; retrying", "error", err, "retry_in", backoff)
			sleep(ctx, backoff, nil)
		case err == nil && n == 0:
			backoff = 0
			if sleep(ctx, idle, l.wake) {
				idle = l.cfg.Idle // woken: work is likely to follow
			} else {
				idle = min(2*idle, l.cfg.MaxIdle)
			}
		default:
			backoff, idle = 0, l.cfg.Idle
		}
	}
}

// embedBatch claims one batch and embeds it; it returns the batch's size
// and its results, for CompleteEmbeddings.
func (l *EmbeddingLane) embedBatch(ctx context.Context) (int, []graph.EmbeddingResult, error) {
	items, err := l.q.ClaimEmbeddings(ctx, l.cfg.Owner, l.cfg.Batch, l.cfg.Lease, l.cfg.Tenants)
	if err != nil || len(items) == 0 {
		return 0, nil, err
	}
	results := make([]graph.EmbeddingResult, len(items))
	// texts holds each item's text, then the fact sentences read from it
	// (a raw turn's): at[j] is the item text j belongs to, fact[j] its
	// place among the item's facts (-1 for the item's own text).
	var texts []string
	var at, fact []int
	kinds := map[string]int{}
	for i, it := range items {
		results[i].ElementID = it.ElementID
		t := strings.TrimSpace(it.Text)
		if t == "" {
			continue
		}
		if it.Kind == "raw" {
			t = knowledge.EmbeddingText(t)
		}
		texts, at, fact = append(texts, t), append(at, i), append(fact, -1)
		kinds[it.Kind]++
		results[i].FactSentences = it.Facts
		for k, f := range it.Facts {
			texts, at, fact = append(texts, f), append(at, i), append(fact, k)
		}
		if len(it.Facts) > 0 {
			results[i].Facts = make([][]float32, len(it.Facts))
			kinds["fact"] += len(it.Facts)
		}
	}
	if len(texts) > 0 {
		start := time.Now()
		vecs, err := l.emb.Embed(ctx, texts)
		if err != nil {
			return 0, nil, fmt.Errorf("embed %d texts: %w", len(texts), err)
		}
		if len(vecs) != len(texts) {
			return 0, nil, errors.New("embedder returned a different number of vectors than texts")
		}
		for j, i := range at {
			if fact[j] < 0 {
				results[i].Vector = vecs[j]
			} else {
				results[i].Facts[fact[j]] = vecs[j]
			}
		}
		if l.cfg.ObserveBatch != nil {
			l.cfg.ObserveBatch(kinds, time.Since(start))
		}
	}
	return len(items), results, nil
}

// watchBacklog reports the queue's size and lag every few seconds.
func (l *EmbeddingLane) watchBacklog(ctx context.Context) {
	for ctx.Err() == nil {
		b, err := l.q.EmbeddingBacklog(ctx, l.cfg.Tenants)
		if err == nil {
			lag := time.Duration(0)
			if b.Pending > 0 && !b.Oldest.IsZero() {
				lag = max(time.Since(b.Oldest), 0)
			}
			l.cfg.ObserveBacklog(b.Pending, lag)
		}
		sleep(ctx, 5*time.Second, nil)
	}
}

// sleep waits d, or until wake fires or ctx ends; it reports whether wake
// fired.
func sleep(ctx context.Context, d time.Duration, wake <-chan struct{}) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	case <-wake:
		return true
	}
	return false
}
