package condenser

import (
	"slices"
)

// ViewMode selects how BuildView folds condensations.
type ViewMode string

// View modes.
const (
	// ModeSDK (the default, also selected by "") applies each condensation
	// at its position in the log, as the OpenHands SDK does: several
	// summaries may coexist, each with the id "<cid>-summary", and a later
	// condensation may forget an earlier summary.
	ModeSDK ViewMode = "sdk"
	// ModeNewestSummary is OpenHands V0: forget the union of everything
	// forgotten, then insert only the newest summary, without an id, at its
	// offset in the final list.
	ModeNewestSummary ViewMode = "newest_summary"
)

// View is what the LLM gets to see: the log with condensations applied,
// condensation events hidden, and the tool-call invariants enforced.
type View struct {
	Events []Event `json:"events"`
	// UnhandledRequest is set when a condensation request came after the
	// last condensation.
	UnhandledRequest bool     `json:"unhandled_condensation_request"`
	Mode             ViewMode `json:"mode"`
	// HeadSeq is the Seq of the newest log event folded; condensers stamp it
	// on their records as BasedOnSeq.
	HeadSeq int64 `json:"head_seq"`
	// AppliedCondensationIDs lists the valid condensations folded, in order.
	AppliedCondensationIDs []string `json:"applied_condensation_ids,omitempty"`
	// InvalidCondensationIDs lists stored condensations that failed
	// Validate; they were hidden but not applied.
	InvalidCondensationIDs []string `json:"invalid_condensation_ids,omitempty"`

	// elided marks a view from which a view-only condenser dropped events
	// that are still live in the log; a Seq range could then reach events
	// the condenser never saw, so only id lists are emitted.
	elided bool
	// liveHidden holds the Seqs of log events dropped by property
	// enforcement: they may come back (a late tool result), so a range must
	// not swallow them.
	liveHidden []int64
}

// Len returns the number of events in the view.
func (v View) Len() int { return len(v.Events) }

// Tokens returns the view's token count: Event.Tokens where known, the
// counter otherwise (a nil counter counts unknown events as 0).
func (v View) Tokens(counter TokenCounter) int { return countTokens(v.Events, counter) }

// ManipulationIndices returns the positions where the view may be cut or
// a summary inserted without splitting a tool call from its result or a
// batch of parallel calls.
func (v View) ManipulationIndices() []int { return ManipulationIndices(v.Events) }

// BuildView folds a session log into a View. It is pure and deterministic:
// the same log always gives the same view, so a stored condensation
// replays without any LLM call. Events are folded in Seq order (a stable
// sort, so a log already in order is untouched).
func BuildView(events []Event, mode ViewMode) View {
	log := slices.Clone(events)
	slices.SortStableFunc(log, func(a, b Event) int {
		switch {
		case a.Seq < b.Seq:
			return -1
		case a.Seq > b.Seq:
			return 1
		}
		return 0
	})
	var v View
	if mode == ModeNewestSummary {
		v = foldNewestSummary(log)
	} else {
		v = foldSDK(log)
	}
	var dropped []Event
	v.Events, dropped = enforceProperties(v.Events, log)
	for _, e := range dropped {
		v.liveHidden = append(v.liveHidden, e.Seq)
	}
	if n := len(log); n > 0 {
		v.HeadSeq = log[n-1].Seq
	}
	return v
}

// foldSDK applies each condensation at its position in the log.
func foldSDK(log []Event) View {
	v := View{Mode: ModeSDK, Events: []Event{}}
	for _, e := range log {
		switch e.Kind {
		case KindCondensationRequest:
			v.UnhandledRequest = true
		case KindCondensation:
			v.UnhandledRequest = false
			if e.Condensation == nil || e.Condensation.Validate() != nil {
				v.InvalidCondensationIDs = append(v.InvalidCondensationIDs, e.ID)
				continue
			}
			c := *e.Condensation
			c.ID = condensationID(e)
			v.Events = applySDK(v.Events, c, e)
			v.AppliedCondensationIDs = append(v.AppliedCondensationIDs, c.ID)
		default:
			v.Events = append(v.Events, e)
		}
	}
	return v
}

// applySDK removes what c forgets from events and inserts its summary at
// the offset of the list as it stands then. at is the event storing c; its
// Seq and time are given to the summary.
func applySDK(events []Event, c Condensation, at Event) []Event {
	ids := idSet(c.ForgottenIDs)
	out := make([]Event, 0, len(events)+1)
	for _, e := range events {
		if !c.forgets(e, ids) {
			out = append(out, e)
		}
	}
	if c.Summary != nil && c.SummaryOffset != nil {
		s := Event{
			ID: c.SummaryID(), Seq: at.Seq, Time: at.Time,
			Kind: KindSummary, Role: RoleUser, Content: *c.Summary,
		}
		out = slices.Insert(out, clamp(*c.SummaryOffset, 0, len(out)), s)
	}
	return out
}

// foldNewestSummary is OpenHands V0's View.from_events.
func foldNewestSummary(log []Event) View {
	v := View{Mode: ModeNewestSummary, Events: []Event{}}
	forgotten := map[string]bool{}
	var ranges []SeqRange
	var newest *Event
	for i, e := range log {
		switch e.Kind {
		case KindCondensationRequest:
			v.UnhandledRequest = true
		case KindCondensation:
			v.UnhandledRequest = false
			c := e.Condensation
			if c == nil || c.Validate() != nil {
				v.InvalidCondensationIDs = append(v.InvalidCondensationIDs, e.ID)
				continue
			}
			for _, id := range c.ForgottenIDs {
				if id != "" {
					forgotten[id] = true
				}
			}
			if c.ForgottenRange != nil {
				ranges = append(ranges, *c.ForgottenRange)
			}
			if c.Summary != nil && c.SummaryOffset != nil {
				newest = &log[i]
			}
			v.AppliedCondensationIDs = append(v.AppliedCondensationIDs, condensationID(e))
		}
	}
	for _, e := range log {
		if e.Kind == KindCondensation || e.Kind == KindCondensationRequest {
			continue
		}
		if e.ID != "" && forgotten[e.ID] {
			continue
		}
		if slices.ContainsFunc(ranges, func(r SeqRange) bool { return r.Contains(e.Seq) }) {
			continue
		}
		v.Events = append(v.Events, e)
	}
	if newest != nil {
		c := newest.Condensation
		s := Event{Seq: newest.Seq, Time: newest.Time, Kind: KindSummary, Role: RoleUser, Content: *c.Summary}
		v.Events = slices.Insert(v.Events, clamp(*c.SummaryOffset, 0, len(v.Events)), s)
	}
	return v
}

// enforceProperties drops events until the view satisfies, at a fixpoint:
// one result per tool_call_id (the latest wins), every paired call has its
// result and every result its call, and every batch of parallel calls is
// complete relative to the log. It returns the kept and dropped events.
func enforceProperties(events []Event, log []Event) (kept, dropped []Event) {
	logBatches := map[string]int{}
	for _, e := range log {
		if e.isBatched() {
			logBatches[e.BatchID]++
		}
	}
	kept = events
	for {
		drop := propertyViolations(kept, logBatches)
		if len(drop) == 0 {
			return kept, dropped
		}
		next := make([]Event, 0, len(kept))
		for i, e := range kept {
			if drop[i] {
				dropped = append(dropped, e)
			} else {
				next = append(next, e)
			}
		}
		kept = next
	}
}

// propertyViolations returns the positions to drop in one enforcement pass.
func propertyViolations(events []Event, logBatches map[string]int) map[int]bool {
	drop := map[int]bool{}
	// One result per tool_call_id: keep the latest.
	lastResult := map[string]int{}
	for i, e := range events {
		if e.isResult() {
			if j, ok := lastResult[e.ToolCallID]; ok {
				drop[j] = true
			}
			lastResult[e.ToolCallID] = i
		}
	}
	if len(drop) > 0 {
		return drop
	}
	// Calls and results must pair.
	calls, results := map[string]bool{}, map[string]bool{}
	for _, e := range events {
		switch {
		case e.isCall():
			calls[e.ToolCallID] = true
		case e.isResult():
			results[e.ToolCallID] = true
		}
	}
	for i, e := range events {
		if (e.isCall() && !results[e.ToolCallID]) || (e.isResult() && !calls[e.ToolCallID]) {
			drop[i] = true
		}
	}
	if len(drop) > 0 {
		return drop
	}
	// Batches stay whole: a batch with fewer calls in the view than in the
	// log lost a member, so the rest goes too.
	inView := map[string]int{}
	for _, e := range events {
		if e.isBatched() {
			inView[e.BatchID]++
		}
	}
	for i, e := range events {
		if e.isBatched() && inView[e.BatchID] < logBatches[e.BatchID] {
			drop[i] = true
		}
	}
	return drop
}

// Preview returns the view as it will look once c is stored and the view
// rebuilt (without property enforcement): what a dry run shows.
func Preview(v View, c Condensation) View { return applyTo(v, c) }

// applyTo returns the view as it will look once c is stored and the view
// rebuilt, without property enforcement. It is used for the record's
// after-counts and by tests.
func applyTo(v View, c Condensation) View {
	out := v
	out.UnhandledRequest = false
	at := Event{Seq: v.HeadSeq + 1}
	if v.Mode != ModeNewestSummary {
		out.Events = applySDK(v.Events, c, at)
		return out
	}
	// V0: the id-less summary is never forgotten, only replaced by a newer
	// one (which V0 places at its offset in the final list).
	ids := idSet(c.ForgottenIDs)
	kept := make([]Event, 0, len(v.Events)+1)
	for _, e := range v.Events {
		summary := e.Kind == KindSummary && e.ID == ""
		if (summary && c.Summary == nil) || (!summary && !c.forgets(e, ids)) {
			kept = append(kept, e)
		}
	}
	if c.Summary != nil && c.SummaryOffset != nil {
		s := Event{Seq: at.Seq, Kind: KindSummary, Role: RoleUser, Content: *c.Summary}
		kept = slices.Insert(kept, clamp(*c.SummaryOffset, 0, len(kept)), s)
	}
	out.Events = kept
	return out
}

func clamp(x, lo, hi int) int {
	return max(lo, min(x, hi))
}
