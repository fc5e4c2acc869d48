package offline

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/graphmem/graphmem/extract"
	"github.com/graphmem/graphmem/nlp"
)

// SelectEvents is the offline LLMAttention: it keeps at most MaxKeep
// events, preferring the ones a later reader needs — user and speaker
// messages that state facts, events that carry dates, the most recent
// events — and keeps a tool call and its result together or drops both.
// The ids come back in their original order; the choice is deterministic.
func (o *Engine) SelectEvents(ctx context.Context, req extract.AttentionRequest) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("offline select events: %w", err)
	}
	if req.MaxKeep <= 0 || len(req.Events) == 0 {
		return []string{}, nil
	}
	res, err := o.Extract(ctx, extract.Input{Events: req.Events})
	if err != nil {
		return nil, fmt.Errorf("offline select events: %w", err)
	}
	facts := make(map[string]int)
	for _, f := range res.Facts {
		for _, id := range f.SourceEventIDs {
			facts[id]++
		}
	}
	// Units: a tool call with the result that follows it, or one event.
	type unit struct {
		idx   []int
		score float64
	}
	var units []unit
	n := len(req.Events)
	for i := 0; i < n; i++ {
		u := unit{idx: []int{i}}
		kind := strings.ToLower(req.Events[i].Kind)
		if kind == "tool_call" && i+1 < n && strings.ToLower(req.Events[i+1].Kind) == "tool_result" {
			u.idx = append(u.idx, i+1)
			i++
		}
		for _, k := range u.idx {
			u.score = max(u.score, attentionScore(req.Events[k], facts[req.Events[k].ID], k, n))
		}
		units = append(units, u)
	}
	order := make([]int, len(units))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		ua, ub := units[order[a]], units[order[b]]
		if ua.score != ub.score {
			return ua.score > ub.score
		}
		return order[a] > order[b] // newer first on ties
	})
	keep := make([]bool, n)
	left := req.MaxKeep
	for _, ui := range order {
		u := units[ui]
		if len(u.idx) > left {
			continue
		}
		for _, k := range u.idx {
			keep[k] = true
		}
		left -= len(u.idx)
		if left == 0 {
			break
		}
	}
	ids := make([]string, 0, req.MaxKeep)
	for i, ev := range req.Events {
		if keep[i] && ev.ID != "" {
			ids = append(ids, ev.ID)
		}
	}
	return ids, nil
}

// attentionScore rates one event: facts stated, who said it, dates and
// recency (the newest tenth of the window always scores high).
func attentionScore(ev extract.Event, facts, pos, n int) float64 {
	s := 0.0
	s += 3 * float64(min(facts, 3))
	role := strings.ToLower(ev.Role)
	kind := strings.ToLower(ev.Kind)
	switch {
	case kind == "tool_call" || kind == "tool_result":
		s += 1
	case role == "user" || ev.Name != "":
		s += 2
	case role == "system":
		s += 4 // instructions frame everything after them
	}
	if len(nlp.FindDates(ev.Content, zeroTime)) > 0 {
		s += 1
	}
	// Recency: 0..3 by position, and a floor for the last events.
	s += 3 * float64(pos+1) / float64(n)
	if pos >= n-max(1, n/10) {
		s += 3
	}
	return s
}
