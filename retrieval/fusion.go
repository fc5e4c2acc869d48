package retrieval

import (
	"math"
	"slices"
	"sort"

	"github.com/graphmem/graphmem/ontology"
)

// fuse is the fourth stage: every candidate's final score from its fused
// relevance, its tier weight, its recency and its status, best first.
// Superseded facts reached only through a path are dropped unless history
// (or a point in time) is asked for.
func (r *search) fuse() []SearchResult {
	cfg := r.cfg
	asOf := r.s.now()
	if r.in.AsOf != nil {
		asOf = *r.in.AsOf
	}
	list := make([]*candidate, 0, len(r.set))
	for _, c := range r.set {
		list = append(list, c)
	}
	history := r.history
	rrf := cfg.Fusion == FusionRRF
	var ranks map[*candidate]float64
	if rrf {
		ranks = rrfScores(list, cfg.RRFK)
	}
	out := make([]SearchResult, 0, len(list))
	for _, c := range list {
		c.Parts.Tier = cfg.TierWeights[c.Kind]
		if c.Parts.Tier == 0 {
			c.Parts.Tier = 1
		}
		when := c.OccurredAt
		if c.Kind == KindFact && !c.ValidFrom.IsZero() {
			when = c.ValidFrom
		}
		if !when.IsZero() {
			age := max(asOf.Sub(when), 0)
			c.Parts.Recency = math.Pow(0.5, float64(age)/float64(cfg.HalfLife))
		}
		rel := relevance(c, cfg)
		if rrf {
			rel = ranks[c]
		}
		if c.lift > 0 {
			rel *= c.lift
		}
		c.Score = c.Parts.Tier*rel + cfg.WeightRecency*c.Parts.Recency
		if c.factor > 0 {
			c.Score *= c.factor
		}
		c.SearchResult.reasons = c.reasons
		if c.Kind == KindFact && c.Polarity == string(ontology.Negative) {
			// A denial answers "does the user still...", not "what does the
			// user...": it ranks below the statements it sits beside.
			c.Score *= cfg.NegativeFactWeight
		}
		if (c.Kind == KindRaw || c.Kind == KindEvent) && c.stale {
			c.Status = StatusSuperseded
			// A question about the past asks for exactly this turn.
			if !r.in.IncludeHistory && !history {
				c.Score *= cfg.StalePenalty
			}
		}
		if c.Kind == KindFact && c.Status == StatusSuperseded && r.in.AsOf == nil {
			if !r.in.IncludeHistory {
				continue // only reached through a path; current-by-default
			}
			// History is asked for beside what holds now, not instead of
			// it: a closed fact ranks just below its successor.
			c.Score *= cfg.HistoryWeight
		}
		out = append(out, c.SearchResult)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// relevance is a candidate's weighted signals, before tier and recency.
func relevance(c *candidate, cfg Config) float64 {
	return cfg.WeightText*c.Parts.FullText + cfg.WeightVector*c.Parts.Vector + cfg.WeightGraph*c.Parts.Graph
}

// rrfScores ranks candidates per signal and sums 1/(k+rank), ranks from 1;
// a signal counts only where it is positive.
func rrfScores(list []*candidate, k float64) map[*candidate]float64 {
	out := make(map[*candidate]float64, len(list))
	signals := []func(*candidate) float64{
		func(c *candidate) float64 { return c.Parts.FullText },
		func(c *candidate) float64 { return c.Parts.Vector },
		func(c *candidate) float64 { return c.Parts.Graph },
	}
	for _, sig := range signals {
		sorted := slices.Clone(list)
		sort.SliceStable(sorted, func(i, j int) bool { return sig(sorted[i]) > sig(sorted[j]) })
		for rank, c := range sorted {
			if sig(c) > 0 {
				out[c] += 1 / (k + float64(rank+1))
			}
		}
	}
	return out
}
