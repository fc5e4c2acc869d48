package condenser

import (
	"context"
	"fmt"
	"slices"
)

// MaskedContent replaces observations outside ObservationMasking's window.
const MaskedContent = "<MASKED>"

// viewOnly adapts a pure view transformation to Condenser and Assessor.
// These condensers never produce a Condensation: their output is for the
// LLM only and is not persisted.
type viewOnly struct {
	kind      Type
	transform func(View) View
}

func (c viewOnly) Condense(ctx context.Context, v View) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	return Result{View: c.transform(v)}, nil
}

func (c viewOnly) Assess(ctx context.Context, v View) (Decision, error) {
	if err := ctx.Err(); err != nil {
		return Decision{}, err
	}
	return Decision{Strategy: string(c.kind), Events: len(v.Events)}, nil
}

func newNoOp() viewOnly {
	return viewOnly{kind: TypeNoOp, transform: func(v View) View { return v }}
}

// newObservationMasking replaces the content of observations older than
// the last window events with "<MASKED>". The events themselves stay (with
// their ids and tool_call_ids), so pairs remain intact.
func newObservationMasking(window int) viewOnly {
	return viewOnly{kind: TypeObservationMasking, transform: func(v View) View {
		out := v
		out.Events = slices.Clone(v.Events)
		for i, e := range out.Events {
			if e.IsObservation() && i < len(out.Events)-window {
				out.Events[i] = e.withContent(MaskedContent)
			}
		}
		return out
	}}
}

// newBrowserOutputMasking keeps the newest window browser outputs and
// replaces older ones with a line naming the URL.
func newBrowserOutputMasking(window int) viewOnly {
	return viewOnly{kind: TypeBrowserOutput, transform: func(v View) View {
		out := v
		out.Events = slices.Clone(v.Events)
		seen := 0
		for i := len(out.Events) - 1; i >= 0; i-- {
			e := out.Events[i]
			if !e.IsBrowserOutput() {
				continue
			}
			seen++
			if seen > window {
				out.Events[i] = e.withContent(fmt.Sprintf("Visited URL %s\nContent omitted", e.URL))
			}
		}
		return out
	}}
}

// newRecentEvents keeps the first keepFirst events and the newest ones up
// to maxEvents in all. Cuts fall on manipulation indices, so the view may
// come out slightly shorter rather than split a pair. The first user
// message is kept even when it lies in the dropped middle.
func newRecentEvents(keepFirst, maxEvents int) viewOnly {
	return viewOnly{kind: TypeRecent, transform: func(v View) View {
		n := len(v.Events)
		if n <= maxEvents {
			return v
		}
		cs := newCuts(v.Events)
		headEnd, ok := cs.next(keepFirst)
		if !ok {
			headEnd = n
		}
		tailStart, ok := cs.next(max(headEnd, n-(maxEvents-keepFirst)))
		if !ok {
			tailStart = n
		}
		out := v
		out.Events = slices.Clone(v.Events[:headEnd])
		if u := firstUserIndex(v.Events); u >= headEnd && u < tailStart {
			out.Events = append(out.Events, v.Events[u])
		}
		out.Events = append(out.Events, v.Events[tailStart:]...)
		out.elided = out.elided || len(out.Events) < n
		return out
	}}
}
