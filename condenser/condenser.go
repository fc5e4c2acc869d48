package condenser

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// Condenser turns a View into either a (possibly transformed) View to act
// on, or a Condensation to store. Implementations are safe for concurrent
// use: all per-call state lives on the stack.
type Condenser interface {
	Condense(ctx context.Context, view View) (Result, error)
}

// Result is the outcome of Condense. When Condensation is nil, View is the
// view to hand to the LLM. When it is set, the caller stores it (see
// CondensationEvent), rebuilds the view with BuildView and acts on that;
// View is then the input view, unchanged.
type Result struct {
	View         View
	Condensation *Condensation
	// Deferred is set when a SOFT condensation was wanted but none was
	// available; it wraps ErrNoCondensation and says why. It is information,
	// not a failure.
	Deferred error
}

// Condensed reports whether the result carries a condensation.
func (r Result) Condensed() bool { return r.Condensation != nil }

// Decision says whether, and how urgently, a condenser wants to condense a
// view. Assess computes it without calling any LLM, for dry runs.
type Decision struct {
	Strategy    string      `json:"strategy,omitempty"`
	Reasons     []Reason    `json:"reasons,omitempty"`
	Requirement Requirement `json:"requirement,omitempty"` // empty: nothing to do
	Events      int         `json:"events"`
	Tokens      int         `json:"tokens"`
}

// Needed reports whether a condensation is wanted.
func (d Decision) Needed() bool { return d.Requirement != "" }

// Assessor is implemented by every condenser New builds. Assess runs no
// LLM: it reports whether Condense would try to condense, and why.
type Assessor interface {
	Assess(ctx context.Context, view View) (Decision, error)
}

// triggers holds the conditions under which a rolling condenser fires.
type triggers struct {
	strategy        Type
	handlesRequests bool
	maxSize         int // 0: no event trigger
	maxTokens       int // 0: no token trigger
	tokenRatio      float64
	counter         TokenCounter
}

// assess computes the reasons and the requirement: REQUEST or TOKENS make
// it HARD, EVENTS alone SOFT.
func (t triggers) assess(v View) Decision {
	d := Decision{Strategy: string(t.strategy), Events: len(v.Events), Tokens: v.Tokens(t.counter)}
	if t.handlesRequests && v.UnhandledRequest {
		d.Reasons = append(d.Reasons, ReasonRequest)
	}
	if t.maxTokens > 0 && t.tokensExceeded(d.Tokens) {
		d.Reasons = append(d.Reasons, ReasonTokens)
	}
	if t.maxSize > 0 && len(v.Events) > t.maxSize {
		d.Reasons = append(d.Reasons, ReasonEvents)
	}
	switch {
	case slices.Contains(d.Reasons, ReasonRequest), slices.Contains(d.Reasons, ReasonTokens):
		d.Requirement = RequirementHard
	case len(d.Reasons) > 0:
		d.Requirement = RequirementSoft
	}
	return d
}

// tokensExceeded is the SDK rule (tokens > max_tokens) without a ratio and
// the AgentScope rule (tokens >= max_tokens*ratio) with one.
func (t triggers) tokensExceeded(tokens int) bool {
	if t.tokenRatio <= 0 {
		return tokens > t.maxTokens
	}
	return float64(tokens) >= float64(t.maxTokens)*t.tokenRatio
}

// tokenTarget is what a TOKENS condensation aims for: half the budget, as
// the SDK aims for max_tokens//2. With a ratio the budget is the ratio's
// threshold, so the view lands well under the next trigger.
func (t triggers) tokenTarget() int {
	if t.tokenRatio <= 0 {
		return t.maxTokens / 2
	}
	return int(float64(t.maxTokens)*t.tokenRatio) / 2
}

// suffix returns how many events at the end of the view to keep: the
// minimum over the active reasons (the strictest wins). reserve is 1 when
// a summary will take a slot in the target size, 0 otherwise.
func (t triggers) suffix(d Decision, v View, keepFirst, reserve int) int {
	best := len(v.Events)
	for _, r := range d.Reasons {
		var s int
		switch r {
		case ReasonRequest:
			s = len(v.Events)/2 - keepFirst - reserve
		case ReasonEvents:
			s = t.maxSize/2 - keepFirst - reserve
		case ReasonTokens:
			s = tokenSuffix(v.Events, keepFirst, d.Tokens-t.tokenTarget(), t.counter)
		}
		best = min(best, s)
	}
	return best
}

// callStats accumulates what one Condense call spent on LLMs.
type callStats struct {
	calls        int
	model        string
	responseID   string
	inputTokens  int
	outputTokens int
}

// rolling is the OpenHands RollingCondenser: assess the view; when a
// condensation is needed, compute it; when none is available, a SOFT need
// returns the view and a HARD one falls back to a hard context reset.
type rolling interface {
	assess(v View) Decision
	// condensation returns an error wrapping ErrNoCondensation when no
	// condensation is available (including a failed LLM call).
	condensation(ctx context.Context, v View, d Decision, st *callStats) (*Condensation, error)
	// hardReset returns nil, nil when the condenser has no reset.
	hardReset(ctx context.Context, v View, d Decision, st *callStats) (*Condensation, error)
}

func runRolling(ctx context.Context, r rolling, counter TokenCounter, v View) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	d := r.assess(v)
	if !d.Needed() {
		return Result{View: v}, nil
	}
	var st callStats
	c, err := r.condensation(ctx, v, d, &st)
	if err == nil {
		finish(c, v, d, &st, counter)
		return Result{View: v, Condensation: c}, nil
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return Result{}, fmt.Errorf("condense: %w", ctxErr)
	}
	if !errors.Is(err, ErrNoCondensation) {
		return Result{}, err
	}
	if d.Requirement == RequirementSoft {
		return Result{View: v, Deferred: err}, nil
	}
	reset, rerr := r.hardReset(ctx, v, d, &st)
	if rerr != nil {
		return Result{}, fmt.Errorf("hard context reset after %w: %w", err, rerr)
	}
	if reset == nil {
		return Result{}, err
	}
	reset.HardReset = true
	finish(reset, v, d, &st, counter)
	return Result{View: v, Condensation: reset}, nil
}

// finish stamps the audit fields the package knows on a new record.
func finish(c *Condensation, v View, d Decision, st *callStats, counter TokenCounter) {
	c.Strategy = d.Strategy
	c.Reasons = slices.Clone(d.Reasons)
	c.Requirement = d.Requirement
	c.BasedOnSeq = v.HeadSeq
	c.EventsBefore = len(v.Events)
	c.TokensBefore = v.Tokens(counter)
	after := applyTo(v, *c)
	c.EventsAfter = len(after.Events)
	c.TokensAfter = after.Tokens(counter)
	c.LLMCalls = st.calls
	c.SummarizerModel = st.model
	c.LLMResponseID = st.responseID
	c.InputTokens = st.inputTokens
	c.OutputTokens = st.outputTokens
}

// cutRange returns the positions [start, end) to forget: start is the
// first allowed cut at or after keepFirst, end the first allowed cut at or
// after len-suffix. When the first user message would fall inside, start
// moves past it: the head grows rather than the task being forgotten.
func cutRange(v View, keepFirst, suffix int) (start, end int, ok bool) {
	n := len(v.Events)
	cs := newCuts(v.Events)
	if start, ok = cs.next(keepFirst); !ok {
		return 0, 0, false
	}
	if end, ok = cs.next(n - suffix); !ok || n-suffix > n {
		return 0, 0, false
	}
	if u := firstUserIndex(v.Events); u >= start && u < end {
		if start, ok = cs.next(u + 1); !ok {
			return 0, 0, false
		}
	}
	if start >= end {
		return 0, 0, false
	}
	return start, end, true
}

func span(start, end int) []int {
	out := make([]int, 0, max(end-start, 0))
	for i := start; i < end; i++ {
		out = append(out, i)
	}
	return out
}

// forgetting turns view positions into a record's forgetting form. Events
// without an id (V0 summaries) cannot be forgotten and are skipped. The
// range form is used when allowed, when at least two events go, and when
// the Seq range reaches exactly those events: no other event in the view,
// no event hidden by property enforcement, and no event a view-only
// condenser dropped.
func forgetting(v View, idxs []int, allowRange bool) ([]string, *SeqRange) {
	ids := []string{}
	chosen := map[int]bool{}
	var lo, hi int64
	for _, i := range idxs {
		e := v.Events[i]
		if e.ID == "" {
			continue
		}
		if len(ids) == 0 || e.Seq < lo {
			lo = e.Seq
		}
		if len(ids) == 0 || e.Seq > hi {
			hi = e.Seq
		}
		ids = append(ids, e.ID)
		chosen[i] = true
	}
	if !allowRange || len(ids) < 2 || v.elided {
		return ids, nil
	}
	r := SeqRange{Start: lo, End: hi}
	for i, e := range v.Events {
		if e.ID != "" && r.Contains(e.Seq) && !chosen[i] {
			return ids, nil
		}
	}
	if slices.ContainsFunc(v.liveHidden, r.Contains) {
		return ids, nil
	}
	return nil, &r
}

func noCondensation(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrNoCondensation, fmt.Sprintf(format, args...))
}
