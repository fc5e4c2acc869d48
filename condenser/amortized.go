package condenser

import "context"

// amortized is OpenHands' AmortizedForgettingCondenser: past max_size it
// keeps the first keepFirst events and the newest max_size/2-keepFirst, and
// forgets the middle as one Seq range. No LLM is involved.
type amortized struct {
	trig      triggers
	keepFirst int
}

func (a *amortized) Condense(ctx context.Context, v View) (Result, error) {
	return runRolling(ctx, a, a.trig.counter, v)
}

func (a *amortized) Assess(ctx context.Context, v View) (Decision, error) {
	if err := ctx.Err(); err != nil {
		return Decision{}, err
	}
	return a.assess(v), nil
}

func (a *amortized) assess(v View) Decision { return a.trig.assess(v) }

func (a *amortized) condensation(_ context.Context, v View, d Decision, _ *callStats) (*Condensation, error) {
	suffix := a.trig.suffix(d, v, a.keepFirst, 0)
	start, end, ok := cutRange(v, a.keepFirst, suffix)
	if !ok {
		return nil, noCondensation("amortized: no events between the head (%d) and the kept tail (%d)", a.keepFirst, suffix)
	}
	ids, rng := forgetting(v, span(start, end), true)
	if rng == nil && len(ids) == 0 {
		return nil, noCondensation("amortized: nothing forgettable in [%d,%d)", start, end)
	}
	return &Condensation{ForgottenIDs: ids, ForgottenRange: rng}, nil
}

func (a *amortized) hardReset(context.Context, View, Decision, *callStats) (*Condensation, error) {
	return nil, nil
}
