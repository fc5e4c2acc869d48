package condenser

import (
	"context"
	"fmt"
	"strings"
)

// Attender ranks events by importance for the agent's next step. The
// package declares it so it never depends on an LLM client.
type Attender interface {
	// SelectEvents returns event ids, most important first. Unknown and
	// duplicate ids are tolerated and ignored.
	SelectEvents(ctx context.Context, req AttentionRequest) ([]string, error)
}

// AttentionRequest lists the view's events for ranking; Keep is how many
// non-head events the condenser will keep.
type AttentionRequest struct {
	Events []SummaryEvent `json:"events"`
	Keep   int            `json:"keep"`
}

// Prompt renders the request as OpenHands' attention prompt: one
// instruction, then one <ID>/<CONTENT> entry per event. The answer is the
// JSON object {"ids": [...]}.
func (r AttentionRequest) Prompt() string {
	var b strings.Builder
	b.WriteString("Below are the actions, observations and thoughts of an agent, each with an identifier. " +
		"Sort the identifiers by how much the agent needs each item for its next step, most important first. " +
		`Answer with JSON: {"ids": [...]}.` + "\n")
	for _, e := range r.Events {
		fmt.Fprintf(&b, "<ID>%s</ID>\n<CONTENT>%s</CONTENT>\n", e.ID, e.Text)
	}
	return b.String()
}

// attention is OpenHands' LLMAttentionCondenser. The LLM ranks the events;
// outside the head, the best-ranked ones are kept up to the tail size and
// topped up from the newest; the rest is forgotten as an id list. Events
// are kept or forgotten by atomic unit, so a chosen tool result keeps its
// call, and the first user message is always kept.
type attention struct {
	trig      triggers
	keepFirst int
	attender  Attender
}

func (a *attention) Condense(ctx context.Context, v View) (Result, error) {
	return runRolling(ctx, a, a.trig.counter, v)
}

func (a *attention) Assess(ctx context.Context, v View) (Decision, error) {
	if err := ctx.Err(); err != nil {
		return Decision{}, err
	}
	return a.assess(v), nil
}

func (a *attention) assess(v View) Decision { return a.trig.assess(v) }

func (a *attention) condensation(ctx context.Context, v View, d Decision, st *callStats) (*Condensation, error) {
	keep := a.trig.suffix(d, v, a.keepFirst, 0)
	if keep < 0 {
		return nil, noCondensation("llm_attention: the view (%d events) is too short for a head of %d", len(v.Events), a.keepFirst)
	}
	cs := newCuts(v.Events)
	units := cs.units(a.keepFirst)
	unitOf := map[string]int{}
	for u, span := range units {
		for i := span[0]; i < span[1]; i++ {
			if id := v.Events[i].ID; id != "" {
				if _, seen := unitOf[id]; !seen {
					unitOf[id] = u
				}
			}
		}
	}
	kept := make([]bool, len(units))
	if fu := firstUserIndex(v.Events); fu >= 0 {
		for u, span := range units {
			if fu >= span[0] && fu < span[1] {
				kept[u] = true
			}
		}
	}
	count := 0
	take := func(u int) {
		if !kept[u] && count < keep {
			kept[u] = true
			count += units[u][1] - units[u][0]
		}
	}

	all := make([]int, len(v.Events))
	for i := range all {
		all[i] = i
	}
	st.calls++
	ranked, err := a.attender.SelectEvents(ctx, AttentionRequest{Events: summaryEvents(v.Events, all, -1), Keep: keep})
	if err != nil {
		return nil, fmt.Errorf("%w: llm_attention: select events: %w", ErrNoCondensation, err)
	}
	for _, id := range ranked {
		if u, ok := unitOf[id]; ok {
			take(u)
		}
	}
	for u := len(units) - 1; u >= 0 && count < keep; u-- {
		take(u)
	}

	var forget []int
	for u, span := range units {
		if !kept[u] {
			for i := span[0]; i < span[1]; i++ {
				forget = append(forget, i)
			}
		}
	}
	ids, _ := forgetting(v, forget, false)
	if len(ids) == 0 {
		return nil, noCondensation("llm_attention: every event outside the head is kept")
	}
	return &Condensation{ForgottenIDs: ids}, nil
}

func (a *attention) hardReset(context.Context, View, Decision, *callStats) (*Condensation, error) {
	return nil, nil
}
