package condenser

import (
	"context"
	"fmt"
	"unicode/utf8"
)

// summarizing is OpenHands' LLMSummarizingCondenser (style sections) and
// StructuredSummaryCondenser (style structured), with the SDK's reasons,
// requirement levels, manipulation-index cuts, minimum progress and hard
// context reset.
//
// Past a trigger it keeps the head, writes one summary of the forgotten
// middle at offset = start of the forgotten range (keep_first unless a
// pair, a batch or the first user message moves it), and keeps the tail.
// The previous summary, when it opens the forgotten range, is folded into
// the prompt as PREVIOUS SUMMARY rather than as an event, and is forgotten
// with the range, so summaries are cumulative and only one stands.
type summarizing struct {
	trig           triggers
	style          SummaryStyle
	keepFirst      int
	maxEventLength int // < 0: no truncation
	minProgress    float64
	resetRetries   int // 0: no hard context reset
	resetScaling   float64
	summarizer     Summarizer
}

func (s *summarizing) Condense(ctx context.Context, v View) (Result, error) {
	return runRolling(ctx, s, s.trig.counter, v)
}

func (s *summarizing) Assess(ctx context.Context, v View) (Decision, error) {
	if err := ctx.Err(); err != nil {
		return Decision{}, err
	}
	return s.assess(v), nil
}

func (s *summarizing) assess(v View) Decision { return s.trig.assess(v) }

func (s *summarizing) condensation(ctx context.Context, v View, d Decision, st *callStats) (*Condensation, error) {
	suffix := s.trig.suffix(d, v, s.keepFirst, 1)
	start, end, ok := cutRange(v, s.keepFirst, suffix)
	if !ok {
		return nil, noCondensation("%s: no safe range between the head (%d) and the kept tail (%d) of %d events", s.trig.strategy, s.keepFirst, suffix, len(v.Events))
	}
	idxs := span(start, end)
	if float64(len(idxs)) < float64(len(v.Events))*s.minProgress {
		return nil, noCondensation("%s: forgetting %d of %d events is below minimum progress %.2f", s.trig.strategy, len(idxs), len(v.Events), s.minProgress)
	}
	ids, rng := forgetting(v, idxs, true)
	if rng == nil && len(ids) == 0 {
		return nil, noCondensation("%s: nothing forgettable in [%d,%d)", s.trig.strategy, start, end)
	}
	prev, events := splitPrevious(v, idxs, NoPreviousSummary)
	req := SummaryRequest{
		Style:           s.style,
		PreviousSummary: TruncateContent(prev, s.maxEventLength),
		Events:          summaryEvents(v.Events, events, s.maxEventLength),
		MaxEventLength:  s.maxEventLength,
	}
	summary, err := summarize(ctx, s.summarizer, req, st)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: summarize: %w", ErrNoCondensation, s.trig.strategy, err)
	}
	return &Condensation{ForgottenIDs: ids, ForgottenRange: rng, Summary: &summary, SummaryOffset: &start}, nil
}

// hardReset summarizes the whole view at the first forgotten position
// (0 unless the first user message opens the view; it is never forgotten).
// Each failed attempt shrinks every event's text by resetScaling.
func (s *summarizing) hardReset(ctx context.Context, v View, _ Decision, st *callStats) (*Condensation, error) {
	keep := func(i int, _ Event) bool { return i == firstUserIndex(v.Events) }
	return hardReset(ctx, v, keep, s.style, NoPreviousSummary, s.resetRetries, s.resetScaling, s.summarizer, st)
}

// splitPrevious separates the summary opening the forgotten range (folded
// in as the previous summary) from the events to render.
func splitPrevious(v View, idxs []int, none string) (string, []int) {
	if len(idxs) > 0 && v.Events[idxs[0]].Kind == KindSummary {
		return v.Events[idxs[0]].Content, idxs[1:]
	}
	return none, idxs
}

// summarize makes one counted summarizer call and renders its answer in
// the request's style.
func summarize(ctx context.Context, sum Summarizer, req SummaryRequest, st *callStats) (string, error) {
	st.calls++
	resp, err := sum.Summarize(ctx, req)
	if err != nil {
		return "", err
	}
	st.model, st.responseID = resp.Model, resp.ResponseID
	st.inputTokens += resp.InputTokens
	st.outputTokens += resp.OutputTokens
	switch req.Style {
	case StyleStructured:
		return structuredSummary(resp), nil
	case StyleMem1:
		return normalizeThink(resp.Text), nil
	default:
		return resp.Text, nil
	}
}

// hardReset forgets every event keep does not protect and summarizes them
// all, retrying with event texts shrunk by scaling after each failure (the
// first attempt is untruncated). It returns nil, nil when resets are
// disabled or nothing can be forgotten.
func hardReset(ctx context.Context, v View, keep func(int, Event) bool, style SummaryStyle, none string,
	retries int, scaling float64, sum Summarizer, st *callStats,
) (*Condensation, error) {
	if retries <= 0 {
		return nil, nil
	}
	var idxs []int
	for i, e := range v.Events {
		if !keep(i, e) {
			idxs = append(idxs, i)
		}
	}
	ids, rng := forgetting(v, idxs, true)
	if rng == nil && len(ids) == 0 {
		return nil, nil
	}
	offset := idxs[0]
	prev, events := splitPrevious(v, idxs, none)
	if style == StyleMem1 {
		prev = stripThink(prev)
	}
	limit := -1
	var lastErr error
	for attempt := 1; attempt <= retries; attempt++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		req := SummaryRequest{
			Style:           style,
			PreviousSummary: TruncateContent(prev, limit),
			Events:          summaryEvents(v.Events, events, limit),
			MaxEventLength:  limit,
			HardReset:       true,
			Attempt:         attempt,
		}
		summary, err := summarize(ctx, sum, req, st)
		if err == nil {
			return &Condensation{ForgottenIDs: ids, ForgottenRange: rng, Summary: &summary, SummaryOffset: &offset}, nil
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, ctxErr
		}
		lastErr = err
		if limit < 0 {
			limit = utf8.RuneCountInString(prev)
			for _, e := range req.Events {
				limit = max(limit, utf8.RuneCountInString(e.Text))
			}
		}
		limit = int(float64(limit) * scaling)
	}
	return nil, fmt.Errorf("%w: %d attempts failed: %w", ErrNoCondensation, retries, lastErr)
}
