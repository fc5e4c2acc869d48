package memory

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/graphmem/graphmem/graph"
)

// AccessStore is what access counting needs of the graph.
type AccessStore interface {
	RecordAccess(ctx context.Context, tenant string, counts []graph.AccessCount) error
	AccessStats(ctx context.Context, tenant string, refs []graph.AccessRef) (map[string]graph.AccessStat, error)
}

// maxPendingAccess bounds the memories counted between flushes; past it,
// new ones are dropped (counts are a ranking hint, not a ledger) and the
// drop is logged at the next flush.
const maxPendingAccess = 100_000

// AccessCounter counts in memory how often search and context return each
// memory and writes the counts in one batch per tenant and kind every
// flush interval: a search costs no write, and a busy memory one write per
// interval whatever its traffic. Counts not yet flushed are lost if the
// process dies; Run flushes what it holds when it stops.
type AccessCounter struct {
	store   AccessStore
	log     *slog.Logger
	now     func() time.Time
	mu      sync.Mutex
	pending map[string]map[graph.AccessRef]*graph.AccessCount // tenant → memory → count
	size    int
	dropped int
}

// NewAccessCounter returns a counter over store.
func NewAccessCounter(store AccessStore, log *slog.Logger) *AccessCounter {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &AccessCounter{store: store, log: log, now: time.Now, pending: map[string]map[graph.AccessRef]*graph.AccessCount{}}
}

// Record counts one return of each memory; it never blocks on I/O.
func (a *AccessCounter) Record(tenant string, refs []graph.AccessRef) {
	now := a.now()
	a.mu.Lock()
	defer a.mu.Unlock()
	m := a.pending[tenant]
	if m == nil {
		m = map[graph.AccessRef]*graph.AccessCount{}
		a.pending[tenant] = m
	}
	for _, r := range refs {
		c := m[r]
		if c == nil {
			if a.size >= maxPendingAccess {
				a.dropped++
				continue
			}
			c = &graph.AccessCount{AccessRef: r}
			m[r] = c
			a.size++
		}
		c.N++
		c.Last = now
	}
}

// AccessStats reads counts and marks for ranking's decay.
func (a *AccessCounter) AccessStats(ctx context.Context, tenant string, refs []graph.AccessRef) (map[string]graph.AccessStat, error) {
	return a.store.AccessStats(ctx, tenant, refs)
}

// Flush writes the pending counts. A tenant whose write fails keeps its
// counts for the next flush.
func (a *AccessCounter) Flush(ctx context.Context) error {
	a.mu.Lock()
	batch, dropped := a.pending, a.dropped
	a.pending, a.size, a.dropped = map[string]map[graph.AccessRef]*graph.AccessCount{}, 0, 0
	a.mu.Unlock()
	if dropped > 0 {
		a.log.Warn("access counts dropped: too many memories between flushes", "dropped", dropped)
	}
	var firstErr error
	for tenant, m := range batch {
		counts := make([]graph.AccessCount, 0, len(m))
		for _, c := range m {
			counts = append(counts, *c)
		}
		if err := a.store.RecordAccess(ctx, tenant, counts); err != nil {
			if firstErr == nil {
				firstErr = err
			}
			a.mu.Lock()
			m := a.pending[tenant]
			if m == nil {
				m = map[graph.AccessRef]*graph.AccessCount{}
				a.pending[tenant] = m
			}
			for _, c := range counts {
				if cur := m[c.AccessRef]; cur != nil {
					cur.N += c.N
					continue
				}
				cc := c
				m[c.AccessRef] = &cc
				a.size++
			}
			a.mu.Unlock()
		}
	}
	return firstErr
}

// Run flushes every interval until ctx ends, then once more.
func (a *AccessCounter) Run(ctx context.Context, every time.Duration) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			if err := a.Flush(fctx); err != nil {
				a.log.Warn("access counts not flushed at shutdown", "error", err)
			}
			cancel()
			return
		case <-tick.C:
			if err := a.Flush(ctx); err != nil && ctx.Err() == nil {
				a.log.Warn("access counts not flushed; kept for the next flush", "error", err)
			}
		}
	}
}
