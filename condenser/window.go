package condenser

import "context"

// window is OpenHands' ConversationWindowCondenser. It acts only on an
// explicit request (the controller's answer to a context-window error).
// It keeps the essentials (system message, first user message, the recall
// of that message and its result) and the newest half of the rest, minus
// leading observations that would dangle without their call.
type window struct{}

func (w window) Condense(ctx context.Context, v View) (Result, error) {
	return runRolling(ctx, w, nil, v)
}

func (w window) Assess(ctx context.Context, v View) (Decision, error) {
	if err := ctx.Err(); err != nil {
		return Decision{}, err
	}
	return w.assess(v), nil
}

func (w window) assess(v View) Decision {
	return triggers{strategy: TypeConversationWindow, handlesRequests: true}.assess(v)
}

func (w window) hardReset(context.Context, View, Decision, *callStats) (*Condensation, error) {
	return nil, nil
}

// condensation never fails: with nothing to forget it returns an empty
// list, which still answers (and clears) the request.
func (w window) condensation(_ context.Context, v View, _ Decision, _ *callStats) (*Condensation, error) {
	events := v.Events
	if len(events) == 0 {
		return &Condensation{ForgottenIDs: []string{}}, nil
	}
	user := firstUserIndex(events)
	if user < 0 {
		return &Condensation{
			ForgottenIDs: []string{},
			Warnings:     []string{"no user message in the view; nothing forgotten"},
		}, nil
	}
	essential := map[int]bool{user: true}
	for i, e := range events {
		if e.IsSystemMessage() {
			essential[i] = true
			break
		}
	}
	for i := user + 1; i < len(events); i++ {
		e := events[i]
		if e.Kind == KindToolCall && e.Name == RecallToolName && e.Content == events[user].Content {
			essential[i] = true
			for j := i + 1; j < len(events) && e.ToolCallID != ""; j++ {
				if events[j].IsObservation() && events[j].ToolCallID == e.ToolCallID {
					essential[j] = true
					break
				}
			}
			break
		}
	}

	keepRecent := max(1, (len(events)-len(essential))/2)
	sliceStart := max(0, len(events)-keepRecent)
	first := sliceStart
	for first < len(events) && events[first].IsObservation() {
		first++
	}
	var warnings []string
	if first == len(events) {
		warnings = append(warnings, "all recent events are dangling observations; only the essential events remain")
	}
	// Move to a safe cut so a batch of parallel calls is not split.
	if next, ok := newCuts(events).next(first); ok {
		first = next
	}

	var forget []int
	for i := range events {
		if !essential[i] && i < first {
			forget = append(forget, i)
		}
	}
	// Contiguous ids (more than one) use the range form, others a list:
	// forgetting only emits a range that reaches exactly these events.
	ids, rng := forgetting(v, forget, true)
	return &Condensation{ForgottenIDs: ids, ForgottenRange: rng, Warnings: warnings}, nil
}
