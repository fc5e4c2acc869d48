package main

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// The embedding lane's figures come from graphmem's /metrics, when the
// server exposes them: a server without an embedding lane (or built before
// it) has none of these names, and its figures are reported as n/a rather
// than as zeros that would read like a measurement.
const (
	metricEmbedded     = "graphmem_embeddings_total"        // counter, by kind
	metricEmbedSeconds = "graphmem_embedding_seconds_total" // counter: time spent in the embedder
	metricBacklog      = "graphmem_embedding_backlog"       // gauge: memories waiting for a vector
	metricLag          = "graphmem_embedding_lag_seconds"   // gauge: age of the oldest waiting
)

// metricQueryCache counts the searches whose question vector came from
// graphmem's query embedding cache (result="hit") or the model ("miss").
const metricQueryCache = "graphmem_query_embedding_cache_total"

// cacheCounts is one scrape of the query embedding cache's counters.
type cacheCounts struct{ hits, misses float64 }

// shareSince is the share of hits among the questions embedded since
// before (0 when none was).
func (c cacheCounts) shareSince(before cacheCounts) float64 {
	h, m := c.hits-before.hits, c.misses-before.misses
	if h+m <= 0 {
		return 0
	}
	return round4(h / (h + m))
}

// queryCacheCounts reads the cache's counters; ok is false when the
// server has no cache (off, or built before it) or the scrape failed.
func queryCacheCounts(ctx context.Context, c *client) (cacheCounts, bool) {
	text, err := c.metricsText(ctx)
	if err != nil {
		return cacheCounts{}, false
	}
	by := parsePromText(text).byLabel(metricQueryCache, "result")
	h, okH := by["hit"]
	m, okM := by["miss"]
	return cacheCounts{h, m}, okH && okM
}

// embedReading is one scrape of the lane's metrics.
type embedReading struct {
	At                 time.Time
	Embedded, Seconds  float64
	Backlog, Lag       float64
	HasEmbedded        bool // the counter has a sample (the lane embedded something since start)
	HasBacklog, HasLag bool
	HasSeconds         bool
	ByKind             map[string]float64
}

func readEmbedding(ctx context.Context, c *client) (embedReading, error) {
	text, err := c.metricsText(ctx)
	if err != nil {
		return embedReading{}, err
	}
	return embedReadingOf(parsePromText(text), time.Now()), nil
}

func embedReadingOf(p promSamples, at time.Time) embedReading {
	r := embedReading{At: at}
	r.Embedded, r.HasEmbedded = p.sum(metricEmbedded)
	r.Seconds, r.HasSeconds = p.sum(metricEmbedSeconds)
	r.Backlog, r.HasBacklog = p.sum(metricBacklog)
	r.Lag, r.HasLag = p.sum(metricLag)
	if r.HasEmbedded {
		r.ByKind = p.byLabel(metricEmbedded, "kind")
	}
	return r
}

// embedStats is what the lane did over one measured window (an ingest and
// the wait until every stored memory had its vector).
type embedStats struct {
	// Available: the server exposes the lane's backlog metric.
	Available bool   `json:"available"`
	Note      string `json:"note,omitempty"`
	// Texts embedded in the window, all kinds, and by kind.
	Texts  *float64           `json:"texts_embedded,omitempty"`
	ByKind map[string]float64 `json:"texts_by_kind,omitempty"`
	// WindowSeconds runs from the window's start to the last scrape that
	// saw the counter grow: the time the lane needed to catch up.
	WindowSeconds *float64 `json:"window_seconds,omitempty"`
	// TextsPerSec is Texts / WindowSeconds: throughput as the user sees it
	// (the lane can embed only what the pipeline has stored).
	TextsPerSec *float64 `json:"texts_per_second,omitempty"`
	// TextsPerEmbedderSec divides by the time spent inside the embedder
	// only: the embedder's own speed, without queue and Neo4j writes.
	TextsPerEmbedderSec *float64 `json:"texts_per_embedder_second,omitempty"`
	MaxBacklog          *float64 `json:"max_backlog,omitempty"`
	MaxLagSeconds       *float64 `json:"max_lag_seconds,omitempty"`
	// TailSeconds is how long after the jobs were done (searchable by
	// text) the lane still embedded: the lag a user meets at the end.
	TailSeconds *float64 `json:"tail_after_jobs_seconds,omitempty"`
	// Drained: a stable zero backlog was seen before the wait's limit.
	Drained bool `json:"drained"`
}

// embedWatch samples the lane's metrics while a window runs.
type embedWatch struct {
	c    *client
	stop func()
	done chan struct{}
	// gap and poll pace the wait for a drained backlog (stableGap and 1 s;
	// tests shorten them).
	gap, poll time.Duration

	mu         sync.Mutex
	first      *embedReading
	last       embedReading
	maxBacklog float64
	maxLag     float64
	lastChange time.Time
	start      time.Time
	errs       int
}

// watchEmbedding starts sampling every interval until finish.
func watchEmbedding(ctx context.Context, c *client, every time.Duration) *embedWatch {
	w := &embedWatch{c: c, start: time.Now(), done: make(chan struct{}), gap: stableGap, poll: time.Second}
	wctx, cancel := context.WithCancel(ctx)
	w.stop = cancel
	w.sample(wctx)
	go func() {
		defer close(w.done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-wctx.Done():
				return
			case <-t.C:
				w.sample(wctx)
			}
		}
	}()
	return w
}

func (w *embedWatch) sample(ctx context.Context) {
	r, err := readEmbedding(ctx, w.c)
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil {
		w.errs++
		return
	}
	w.observe(r)
}

// observe folds one reading into the window (callers hold mu).
func (w *embedWatch) observe(r embedReading) {
	if w.first == nil {
		first := r
		w.first = &first
		w.lastChange = w.start
	} else if r.Embedded > w.last.Embedded {
		w.lastChange = r.At
	}
	w.maxBacklog = max(w.maxBacklog, r.Backlog)
	w.maxLag = max(w.maxLag, r.Lag)
	w.last = r
}

// drainedPair says whether two readings, at least gap apart, prove the
// lane has caught up: both see an empty backlog and nothing was embedded
// between them. One zero is not enough because the backlog gauge is
// refreshed only every few seconds and may be stale.
func drainedPair(prev, cur embedReading, gap time.Duration) bool {
	return prev.HasBacklog && cur.HasBacklog && prev.Backlog == 0 && cur.Backlog == 0 &&
		cur.Embedded == prev.Embedded && cur.At.Sub(prev.At) >= gap
}

// stableGap is longer than the backlog gauge's refresh period (5 s in
// graphmem's lane), so two zero readings this far apart are not one stale
// value read twice.
const stableGap = 6 * time.Second

// finish waits (up to maxWait) until the lane has embedded everything,
// stops sampling and returns the window's figures. jobsDone is when the
// job queue emptied (zero time: unknown).
func (w *embedWatch) finish(ctx context.Context, jobsDone time.Time, maxWait time.Duration) *embedStats {
	w.stop()
	<-w.done
	st := &embedStats{}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.first == nil || !w.last.HasBacklog {
		st.Note = "the server exposes no " + metricBacklog + " metric (no embedding lane)"
		if w.first == nil {
			st.Note = fmt.Sprintf("/metrics could not be read (%d failed scrapes)", w.errs)
		}
		return st
	}
	st.Available = true
	if !w.last.HasEmbedded && w.last.Backlog == 0 && w.maxBacklog == 0 {
		// The gauge exists but the lane never embedded: vectors are off.
		st.Note = "the lane embedded nothing (vectors off on this server)"
		st.Drained = true
		return st
	}
	deadline := time.Now().Add(maxWait)
	prev := w.last
	for ctx.Err() == nil && time.Now().Before(deadline) {
		if !sleepCtx(ctx, w.poll) {
			break
		}
		r, err := readEmbedding(ctx, w.c)
		if err != nil {
			w.errs++
			continue
		}
		w.observe(r)
		if drainedPair(prev, r, w.gap) {
			st.Drained = true
			break
		}
		// The pair starts again at any change: a new embedding, or the
		// gauge moving (to 0 from a stale non-zero reading, say).
		if r.Backlog != prev.Backlog || r.Embedded != prev.Embedded {
			prev = r
		}
	}
	if !st.Drained {
		st.Note = fmt.Sprintf("the backlog did not settle at 0 within %s (last reading %.0f)", maxWait, w.last.Backlog)
	}
	texts := w.last.Embedded - w.first.Embedded
	st.Texts = ptr(texts)
	st.ByKind = map[string]float64{}
	for k, v := range w.last.ByKind {
		if d := v - w.first.ByKind[k]; d > 0 {
			st.ByKind[k] = d
		}
	}
	secs := w.lastChange.Sub(w.start).Seconds()
	st.WindowSeconds = ptr(round4(secs))
	if secs > 0 && texts > 0 {
		st.TextsPerSec = ptr(round4(texts / secs))
	}
	if d := w.last.Seconds - w.first.Seconds; w.last.HasSeconds && d > 0 && texts > 0 {
		st.TextsPerEmbedderSec = ptr(round4(texts / d))
	}
	st.MaxBacklog = ptr(w.maxBacklog)
	if w.last.HasLag {
		st.MaxLagSeconds = ptr(round4(w.maxLag))
	}
	if !jobsDone.IsZero() {
		st.TailSeconds = ptr(round4(max(0, w.lastChange.Sub(jobsDone).Seconds())))
	}
	return st
}

// sleepCtx waits d; false if ctx ended first.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
