package condenser

import (
	"context"
	"fmt"
	"slices"
)

// mem1 ports Mem1's constant-memory loop to a rolling condenser: at each
// condensation one cumulative memory block, <think>…</think>, is rewritten
// from the previous memory and all current information, and everything
// outside the head and the newest keepLast events is forgotten. System
// messages and other summaries are never forgotten; the previous memory
// is, since the new one absorbs it. A session that keeps adding system
// messages can therefore outgrow max_size: the EVENTS need is SOFT, so the
// condenser then defers rather than fails.
type mem1 struct {
	trig           triggers
	keepFirst      int
	keepLast       int
	maxEventLength int
	resetRetries   int
	resetScaling   float64
	summarizer     Summarizer
}

func (m *mem1) Condense(ctx context.Context, v View) (Result, error) {
	return runRolling(ctx, m, m.trig.counter, v)
}

func (m *mem1) Assess(ctx context.Context, v View) (Decision, error) {
	if err := ctx.Err(); err != nil {
		return Decision{}, err
	}
	return m.assess(v), nil
}

func (m *mem1) assess(v View) Decision { return m.trig.assess(v) }

func (m *mem1) suffix(d Decision, v View) int {
	keep := m.keepLast
	if slices.Contains(d.Reasons, ReasonTokens) {
		keep = min(keep, tokenSuffix(v.Events, m.keepFirst, d.Tokens-m.trig.tokenTarget(), m.trig.counter))
	}
	return keep
}

func (m *mem1) condensation(ctx context.Context, v View, d Decision, st *callStats) (*Condensation, error) {
	start, end, ok := cutRange(v, m.keepFirst, m.suffix(d, v))
	if !ok {
		return nil, noCondensation("mem1: no safe range between the head (%d) and the last %d events", m.keepFirst, m.keepLast)
	}
	memoryAt := -1
	if v.Events[start].Kind == KindSummary {
		memoryAt = start
	}
	var forget []int
	for i := start; i < end; i++ {
		e := v.Events[i]
		if i == memoryAt || !(e.IsSystemMessage() || e.Kind == KindSummary) {
			forget = append(forget, i)
		}
	}
	ids, rng := forgetting(v, forget, true)
	if rng == nil && len(ids) == 0 {
		return nil, noCondensation("mem1: nothing forgettable in [%d,%d)", start, end)
	}
	prev := ""
	if memoryAt >= 0 {
		prev = stripThink(v.Events[memoryAt].Content)
	}
	forgotten := map[int]bool{}
	for _, i := range forget {
		forgotten[i] = true
	}
	var info []int
	for i, e := range v.Events {
		if e.Kind != KindSummary && !e.IsSystemMessage() {
			info = append(info, i)
		}
	}
	events := summaryEvents(v.Events, info, m.maxEventLength)
	for k, i := range info {
		events[k].Retained = !forgotten[i]
	}
	req := SummaryRequest{
		Style:           StyleMem1,
		PreviousSummary: TruncateContent(prev, m.maxEventLength),
		Events:          events,
		MaxEventLength:  m.maxEventLength,
	}
	summary, err := summarize(ctx, m.summarizer, req, st)
	if err != nil {
		return nil, fmt.Errorf("%w: mem1: summarize: %w", ErrNoCondensation, err)
	}
	c := &Condensation{ForgottenIDs: ids, ForgottenRange: rng, Summary: &summary, SummaryOffset: &start}
	c.Metadata = m.metadata(d, len(forget), len(v.Events), summary)
	return c, nil
}

func (m *mem1) hardReset(ctx context.Context, v View, d Decision, st *callStats) (*Condensation, error) {
	user, memory := firstUserIndex(v.Events), m.firstSummary(v)
	keep := func(i int, e Event) bool {
		return i == user || e.IsSystemMessage() || (e.Kind == KindSummary && i != memory)
	}
	c, err := hardReset(ctx, v, keep, StyleMem1, "", m.resetRetries, m.resetScaling, m.summarizer, st)
	if c != nil {
		n := 0
		for i, e := range v.Events {
			if !keep(i, e) && e.ID != "" {
				n++
			}
		}
		c.Metadata = m.metadata(d, n, len(v.Events), *c.Summary)
	}
	return c, err
}

// firstSummary is the index of the memory a hard reset folds in: the first
// summary of the view, or -1.
func (m *mem1) firstSummary(v View) int {
	for i, e := range v.Events {
		if e.Kind == KindSummary {
			return i
		}
	}
	return -1
}

func (m *mem1) metadata(d Decision, forgotten, total int, summary string) map[string]any {
	trigger := "max_size"
	switch {
	case slices.Contains(d.Reasons, ReasonRequest):
		trigger = "condensation_request"
	case slices.Contains(d.Reasons, ReasonTokens):
		trigger = "tokens"
	}
	ratio := 0.0
	if total > 0 {
		ratio = float64(forgotten) / float64(total)
	}
	return map[string]any{
		"strategy":              string(TypeMem1),
		"trigger":               trigger,
		"discard_ratio":         ratio,
		"forgotten_event_count": forgotten,
		"summary_length":        len([]rune(summary)),
		"keep_first":            m.keepFirst,
		"keep_last":             m.keepLast,
	}
}
