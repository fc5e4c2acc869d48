package retrieval

import (
	"context"
	"math"
	"sort"
	"time"

	"github.com/graphmem/graphmem/graph"
)

// AccessTracker is optional: with it, Search reports the memories it
// returns (Record must not block: it counts in memory, the tracker writes
// in batches), and, when Config.AccessDecay > 0, reads their counts and
// marks to decay the ranking.
type AccessTracker interface {
	Record(tenant string, refs []graph.AccessRef)
	AccessStats(ctx context.Context, tenant string, refs []graph.AccessRef) (map[string]graph.AccessStat, error)
}

// decayWindow bounds how many of the best fused results decay reads: the
// ones that can reach the answer.
const decayWindow = 100

// accessRef names a result for the tracker (entities are not counted).
func accessRef(r SearchResult) (graph.AccessRef, bool) {
	switch r.Kind {
	case KindRaw, KindEvent, KindInsight, KindFact:
		return graph.AccessRef{Kind: r.Kind, ID: r.ID, SessionID: r.SessionID}, true
	}
	return graph.AccessRef{}, false
}

// record reports the returned results to the tracker.
func (s *Service) record(tenant string, results []SearchResult) {
	if s.access == nil || len(results) == 0 {
		return
	}
	refs := make([]graph.AccessRef, 0, len(results))
	for _, r := range results {
		if ref, ok := accessRef(r); ok {
			refs = append(refs, ref)
		}
	}
	s.access.Record(tenant, refs)
}

// decay scales the best fused results by exp(-AccessDecay × years idle /
// (1 + ln(1 + accesses))): idle is the time since the memory was last
// returned, or since it happened when never; use slows the decay. Pinned
// and critical memories are exempt. With AccessDecay 0 (the default) it
// reads nothing and changes nothing.
func (r *search) decay(ctx context.Context, list []SearchResult) error {
	w := r.cfg.AccessDecay
	if w <= 0 || r.s.access == nil || len(list) == 0 {
		return nil
	}
	n := min(len(list), decayWindow)
	refs := make([]graph.AccessRef, 0, n)
	for _, res := range list[:n] {
		if ref, ok := accessRef(res); ok {
			refs = append(refs, ref)
		}
	}
	stats, err := r.s.access.AccessStats(ctx, r.scope.Tenant, refs)
	if err != nil {
		return err
	}
	now := r.s.now()
	for i := range list[:n] {
		ref, ok := accessRef(list[i])
		if !ok {
			continue
		}
		st := stats[graph.AccessKey(ref)]
		if graph.Exempt(st.Pinned, st.Importance) {
			continue
		}
		since := list[i].OccurredAt
		if list[i].Kind == KindFact && !list[i].ValidFrom.IsZero() {
			since = list[i].ValidFrom
		}
		if st.LastAccessed.After(since) {
			since = st.LastAccessed
		}
		if since.IsZero() {
			continue
		}
		years := max(now.Sub(since), 0).Hours() / (24 * 365)
		f := math.Exp(-w * years / (1 + math.Log1p(float64(st.Count))))
		list[i].Score *= f
		if f < 0.99 {
			list[i].reasons = append(list[i].reasons, "decayed: idle "+since.Format(time.DateOnly))
		}
	}
	sort.SliceStable(list[:n], func(i, j int) bool {
		if list[i].Score != list[j].Score {
			return list[i].Score > list[j].Score
		}
		return list[i].ID < list[j].ID
	})
	return nil
}
