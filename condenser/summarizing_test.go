package condenser

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func newSummarizing(t *testing.T, cfg Config, sum Summarizer) *summarizing {
	t.Helper()
	cfg.Type = TypeLLMSummarizing
	return mustNew(t, cfg, Deps{Summarizer: sum, Counter: wordCounter{}}).(*summarizing)
}

func tenWords(seq int) Event {
	e := msg(seq)
	e.Content = "a b c d e f g h i j"
	return e
}

func forgottenCount(c *Condensation, log []Event) int { return len(c.ExpandForgotten(log)) }

// TestLLMSummarizingSDK is spec case 40: reasons, requirement levels,
// suffix arithmetic, minimum progress and the hard context reset.
func TestLLMSummarizingSDK(t *testing.T) {
	ctx := context.Background()

	t.Run("case40_max100_trigger", func(t *testing.T) {
		s := newSummarizing(t, Config{MaxSize: Ptr(100)}, &fakeSummarizer{})
		if d := s.assess(BuildView(msgs(0, 99), ModeSDK)); d.Needed() {
			t.Errorf("100 events: %+v, want no condensation", d)
		}
		d := s.assess(BuildView(msgs(0, 100), ModeSDK))
		if d.Requirement != RequirementSoft || !slices.Equal(d.Reasons, []Reason{ReasonEvents}) {
			t.Errorf("101 events: %+v, want SOFT for events", d)
		}
	})

	t.Run("case40_eleven_events_offset_3_one_call", func(t *testing.T) {
		sum := &fakeSummarizer{}
		s := newSummarizing(t, Config{MaxSize: Ptr(10), KeepFirst: Ptr(3)}, sum)
		r, err := s.Condense(ctx, BuildView(msgs(0, 10), ModeSDK))
		if err != nil || !r.Condensed() {
			t.Fatalf("%+v, %v", r, err)
		}
		if *r.Condensation.SummaryOffset != 3 || sum.calls() != 1 || r.Condensation.LLMCalls != 1 {
			t.Errorf("offset %d, calls %d/%d; want 3 and 1", *r.Condensation.SummaryOffset, sum.calls(), r.Condensation.LLMCalls)
		}
	})

	t.Run("case40_request_and_events_25", func(t *testing.T) {
		log := append(msgs(0, 24), request(25))
		s := newSummarizing(t, Config{MaxSize: Ptr(20), KeepFirst: Ptr(2)}, &fakeSummarizer{})
		r, err := s.Condense(ctx, BuildView(log, ModeSDK))
		if err != nil {
			t.Fatal(err)
		}
		c := r.Condensation
		if n := forgottenCount(c, log); n != 16 {
			t.Errorf("forgot %d, want 16 (suffix min(9,7)=7, range [2,18))", n)
		}
		if c.Requirement != RequirementHard || !slices.Equal(c.Reasons, []Reason{ReasonRequest, ReasonEvents}) {
			t.Errorf("reasons %v requirement %q", c.Reasons, c.Requirement)
		}
	})

	t.Run("case40_request_and_events_40", func(t *testing.T) {
		log := append(msgs(0, 39), request(40))
		s := newSummarizing(t, Config{MaxSize: Ptr(30), KeepFirst: Ptr(2)}, &fakeSummarizer{})
		r, err := s.Condense(ctx, BuildView(log, ModeSDK))
		if err != nil {
			t.Fatal(err)
		}
		if n := forgottenCount(r.Condensation, log); n != 26 {
			t.Errorf("forgot %d, want 26 (suffix min(17,12)=12, range [2,28))", n)
		}
	})

	t.Run("case40_tokens_only_forgets_11", func(t *testing.T) {
		var log []Event
		for i := range 15 {
			log = append(log, tenWords(i))
		}
		s := newSummarizing(t, Config{MaxSize: Ptr(1000), KeepFirst: Ptr(2), MaxTokens: 100}, &fakeSummarizer{})
		v := BuildView(log, ModeSDK)
		d := s.assess(v)
		if !slices.Equal(d.Reasons, []Reason{ReasonTokens}) || d.Requirement != RequirementHard || d.Tokens != 150 {
			t.Fatalf("decision %+v, want TOKENS only, HARD, 150 tokens", d)
		}
		r, err := s.Condense(ctx, v)
		if err != nil {
			t.Fatal(err)
		}
		// 150 tokens, target 50: reduce by 100. The shortest prefix of the 13
		// events after the head exceeding 100 tokens is 11 events, so the
		// suffix is 2 and [2,13) goes: 11 events.
		if n := forgottenCount(r.Condensation, log); n != 11 {
			t.Errorf("forgot %d, want 11", n)
		}
		// After: 2 head + 2 tail events of 10 tokens, and the 2-word summary.
		if r.Condensation.TokensBefore != 150 || r.Condensation.TokensAfter != 42 {
			t.Errorf("tokens before/after %d/%d", r.Condensation.TokensBefore, r.Condensation.TokensAfter)
		}
	})

	t.Run("case40_token_ratio_agentscope", func(t *testing.T) {
		var log []Event
		for i := range 8 {
			log = append(log, tenWords(i))
		}
		// 80 tokens >= 100*0.8 fires; 79 would not.
		s := newSummarizing(t, Config{MaxSize: Ptr(1000), KeepFirst: Ptr(1), MaxTokens: 100, TokenRatio: 0.8}, &fakeSummarizer{})
		if d := s.assess(BuildView(log, ModeSDK)); !slices.Equal(d.Reasons, []Reason{ReasonTokens}) {
			t.Errorf("80 tokens: %+v", d)
		}
		log[0].Tokens = 9
		if d := s.assess(BuildView(log, ModeSDK)); d.Needed() {
			t.Errorf("79 tokens (a client-supplied count wins): %+v", d)
		}
	})

	t.Run("case40_minimum_progress_not_met_raises", func(t *testing.T) {
		s := newSummarizing(t, Config{MaxSize: Ptr(10), KeepFirst: Ptr(3), MinimumProgress: Ptr(0.9)}, &fakeSummarizer{})
		v := BuildView(msgs(0, 10), ModeSDK)
		_, err := s.condensation(ctx, v, s.assess(v), &callStats{})
		if !errors.Is(err, ErrNoCondensation) || !strings.Contains(err.Error(), "minimum progress") {
			t.Fatalf("err = %v, want ErrNoCondensation for minimum progress", err)
		}
	})

	// A batch that starts in the head and ends in the tail leaves no safe cut.
	stuck := []Event{msg(0), call(1, "a", "B"), call(2, "b", "B"), call(3, "c", "B"), call(4, "d", "B"), call(5, "e", "B"),
		result(6, "a"), result(7, "b"), result(8, "c"), result(9, "d"), result(10, "e"), msg(11)}

	t.Run("case40_soft_with_nothing_returns_view", func(t *testing.T) {
		sum := &fakeSummarizer{}
		s := newSummarizing(t, Config{MaxSize: Ptr(10), KeepFirst: Ptr(2)}, sum)
		v := BuildView(stuck, ModeSDK)
		r, err := s.Condense(ctx, v)
		if err != nil || r.Condensed() || !errors.Is(r.Deferred, ErrNoCondensation) {
			t.Fatalf("result %+v, %v; want the view with a deferred ErrNoCondensation", r, err)
		}
		if len(r.View.Events) != len(stuck) || sum.calls() != 0 {
			t.Errorf("view len %d, calls %d", len(r.View.Events), sum.calls())
		}
	})

	t.Run("case40_hard_with_nothing_and_no_reset_raises", func(t *testing.T) {
		s := newSummarizing(t, Config{MaxSize: Ptr(10), KeepFirst: Ptr(2), HardResetMaxRetries: Ptr(0)}, &fakeSummarizer{})
		_, err := s.Condense(ctx, BuildView(append(append([]Event{}, stuck...), request(12)), ModeSDK))
		if !errors.Is(err, ErrNoCondensation) {
			t.Fatalf("err = %v, want ErrNoCondensation", err)
		}
		a := mustNew(t, Config{Type: TypeAmortized, MaxSize: Ptr(10), KeepFirst: Ptr(2)}, Deps{})
		if _, err := a.Condense(ctx, BuildView(append(append([]Event{}, stuck...), request(12)), ModeSDK)); !errors.Is(err, ErrNoCondensation) {
			t.Fatalf("amortized err = %v, want ErrNoCondensation", err)
		}
	})

	t.Run("case40_hard_with_nothing_resets", func(t *testing.T) {
		sum := &fakeSummarizer{}
		s := newSummarizing(t, Config{MaxSize: Ptr(10), KeepFirst: Ptr(2)}, sum)
		log := append(append([]Event{}, stuck...), request(12))
		r, err := s.Condense(ctx, BuildView(log, ModeSDK))
		if err != nil || !r.Condensed() || !r.Condensation.HardReset || *r.Condensation.SummaryOffset != 0 {
			t.Fatalf("%+v, %v; want a hard reset at offset 0", r.Condensation, err)
		}
		if n := forgottenCount(r.Condensation, log); n != 12 {
			t.Errorf("hard reset forgot %d, want the whole view (12)", n)
		}
	})

	t.Run("case40_llm_error_under_hard_resets_with_2_calls", func(t *testing.T) {
		sum := &fakeSummarizer{reply: func(n int, _ SummaryRequest) (SummaryResponse, error) {
			if n == 1 {
				return SummaryResponse{}, errLLM
			}
			return SummaryResponse{Text: "reset summary"}, nil
		}}
		s := newSummarizing(t, Config{MaxSize: Ptr(20), KeepFirst: Ptr(2)}, sum)
		log := append(msgs(0, 24), request(25))
		r, err := s.Condense(ctx, BuildView(log, ModeSDK))
		if err != nil || !r.Condensed() {
			t.Fatalf("%+v, %v", r, err)
		}
		c := r.Condensation
		if sum.calls() != 2 || c.LLMCalls != 2 || !c.HardReset || *c.SummaryOffset != 0 || *c.Summary != "reset summary" {
			t.Errorf("calls %d/%d, record %+v", sum.calls(), c.LLMCalls, c)
		}
		if n := forgottenCount(c, log); n != 25 {
			t.Errorf("hard reset forgot %d, want 25", n)
		}
		if !sum.requests[1].HardReset || sum.requests[1].MaxEventLength != -1 {
			t.Errorf("reset request %+v, want an untruncated first attempt", sum.requests[1])
		}
	})

	t.Run("case40_llm_error_under_soft_defers", func(t *testing.T) {
		sum := &fakeSummarizer{reply: func(int, SummaryRequest) (SummaryResponse, error) { return SummaryResponse{}, errLLM }}
		s := newSummarizing(t, Config{MaxSize: Ptr(10), KeepFirst: Ptr(2)}, sum)
		r, err := s.Condense(ctx, BuildView(msgs(0, 10), ModeSDK))
		if err != nil || r.Condensed() || !errors.Is(r.Deferred, errLLM) || !errors.Is(r.Deferred, ErrNoCondensation) {
			t.Fatalf("%+v, %v", r, err)
		}
	})

	t.Run("hard_reset_shrinks_event_text_by_0.8_over_5_attempts", func(t *testing.T) {
		sum := &fakeSummarizer{reply: func(int, SummaryRequest) (SummaryResponse, error) { return SummaryResponse{}, errLLM }}
		s := newSummarizing(t, Config{MaxSize: Ptr(20), KeepFirst: Ptr(2)}, sum)
		log := append(msgs(0, 24), request(25))
		log[5].Content = strings.Repeat("x", 1000)
		_, err := s.Condense(ctx, BuildView(log, ModeSDK))
		if !errors.Is(err, ErrNoCondensation) || !errors.Is(err, errLLM) {
			t.Fatalf("err = %v", err)
		}
		if sum.calls() != 6 {
			t.Fatalf("calls = %d, want 1 + 5 reset attempts", sum.calls())
		}
		longest := len("assistant: ") + 1000
		want := []int{-1, longest * 8 / 10}
		for len(want) < 5 {
			want = append(want, int(float64(want[len(want)-1])*0.8))
		}
		var got []int
		for _, r := range sum.requests[1:] {
			got = append(got, r.MaxEventLength)
			for _, e := range r.Events {
				if r.MaxEventLength >= 0 && utf8.RuneCountInString(e.Text) > r.MaxEventLength+utf8.RuneCountInString(TruncationMarker) {
					t.Errorf("attempt %d: event %s has %d characters", r.Attempt, e.ID, utf8.RuneCountInString(e.Text))
				}
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("limits (-want +got):\n%s", diff)
		}
	})

	t.Run("hard_reset_keeps_first_user_message", func(t *testing.T) {
		// keep_first=3 lands inside the batch, which runs to the tail: no
		// safe range, so the request falls back to a hard reset.
		s := newSummarizing(t, Config{MaxSize: Ptr(10), KeepFirst: Ptr(3)}, &fakeSummarizer{})
		log := []Event{sysMsg(0), userMsg(1, task), call(2, "a", "B"), call(3, "b", "B"), call(4, "c", "B"),
			call(5, "d", "B"), call(6, "e", "B"), call(7, "f", "B"), result(8, "a"), result(9, "b"), result(10, "c"),
			result(11, "d"), result(12, "e"), result(13, "f"), msg(14), request(15)}
		r, err := s.Condense(ctx, BuildView(log, ModeSDK))
		if err != nil || !r.Condensed() || !r.Condensation.HardReset {
			t.Fatalf("%+v, %v", r.Condensation, err)
		}
		log = append(log, CondensationEvent(*r.Condensation, "c16", 16, t0))
		if diff := cmp.Diff([]string{"S(summary 1)", "1"}, labels(BuildView(log, ModeSDK).Events)); diff != "" {
			t.Errorf("view after reset (-want +got):\n%s", diff)
		}
	})

	t.Run("short_view_request_does_not_crash", func(t *testing.T) {
		// OpenHands V0 fails on min() of an empty slice here (spec §3).
		for n := 0; n <= 5; n++ {
			s := newSummarizing(t, Config{MaxSize: Ptr(100), KeepFirst: Ptr(1)}, &fakeSummarizer{})
			log := append(msgs(0, n-1), request(n))
			r, err := s.Condense(ctx, BuildView(log, ModeSDK))
			if n == 0 {
				if !errors.Is(err, ErrNoCondensation) {
					t.Errorf("empty view: %v, want ErrNoCondensation", err)
				}
				continue
			}
			if err != nil || !r.Condensed() {
				t.Errorf("%d events: %+v, %v", n, r.Condensation, err)
			}
		}
	})

	t.Run("cancelled_context_is_not_a_missing_condensation", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		sum := &fakeSummarizer{reply: func(int, SummaryRequest) (SummaryResponse, error) {
			cancel()
			return SummaryResponse{}, context.Canceled
		}}
		s := newSummarizing(t, Config{MaxSize: Ptr(20), KeepFirst: Ptr(2)}, sum)
		_, err := s.Condense(cctx, BuildView(append(msgs(0, 24), request(25)), ModeSDK))
		if !errors.Is(err, context.Canceled) || sum.calls() != 1 {
			t.Fatalf("err = %v after %d calls; want context.Canceled and no reset", err, sum.calls())
		}
	})

	t.Run("record_audit_fields", func(t *testing.T) {
		s := newSummarizing(t, Config{MaxSize: Ptr(10), KeepFirst: Ptr(3)}, &fakeSummarizer{})
		r, err := s.Condense(ctx, BuildView(msgs(0, 10), ModeSDK))
		if err != nil {
			t.Fatal(err)
		}
		c := r.Condensation
		want := Condensation{
			ForgottenRange: &SeqRange{3, 9}, Summary: Ptr("summary 1"), SummaryOffset: Ptr(3),
			Strategy: "llm", Reasons: []Reason{ReasonEvents}, Requirement: RequirementSoft,
			BasedOnSeq: 10, EventsBefore: 11, EventsAfter: 5, TokensBefore: 22, TokensAfter: 10,
			SummarizerModel: "fake-model", LLMResponseID: "resp-1", LLMCalls: 1,
		}
		if diff := cmp.Diff(want, *c); diff != "" {
			t.Errorf("record (-want +got):\n%s", diff)
		}
	})

	t.Run("truncates_events_and_previous_summary", func(t *testing.T) {
		sum := &fakeSummarizer{}
		s := newSummarizing(t, Config{MaxSize: Ptr(10), KeepFirst: Ptr(1), MaxEventLength: Ptr(20)}, sum)
		log := msgs(0, 10)
		log[3].Content = strings.Repeat("y", 100)
		if _, err := s.Condense(ctx, BuildView(log, ModeSDK)); err != nil {
			t.Fatal(err)
		}
		text := sum.last().Events[2].Text
		want := "assistant:" + TruncationMarker + strings.Repeat("y", 10)
		if text != want {
			t.Errorf("truncated text = %q, want %q", text, want)
		}
	})

	t.Run("cut_respects_pairs", func(t *testing.T) {
		// keep_first=2 falls between a call and its result: the range starts
		// after the pair, and the summary offset follows it.
		log := []Event{userMsg(0, task), call(1, "a", ""), result(2, "a")}
		log = append(log, msgs(3, 12)...)
		s := newSummarizing(t, Config{MaxSize: Ptr(10), KeepFirst: Ptr(2)}, &fakeSummarizer{})
		r, err := s.Condense(ctx, BuildView(log, ModeSDK))
		if err != nil {
			t.Fatal(err)
		}
		if *r.Condensation.SummaryOffset != 3 || r.Condensation.ForgottenRange == nil || r.Condensation.ForgottenRange.Start != 3 {
			t.Errorf("offset %d range %v, want both to start at 3", *r.Condensation.SummaryOffset, r.Condensation.ForgottenRange)
		}
	})

	t.Run("first_user_message_grows_the_head", func(t *testing.T) {
		log := append([]Event{sysMsg(0), msg(1), userMsg(2, task)}, msgs(3, 10)...)
		s := newSummarizing(t, Config{MaxSize: Ptr(10), KeepFirst: Ptr(1)}, &fakeSummarizer{})
		r, err := s.Condense(ctx, BuildView(log, ModeSDK))
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Condensation.ExpandForgotten(log); slices.Contains(got, "2") || *r.Condensation.SummaryOffset != 3 {
			t.Errorf("forgot %v at offset %d; the task must stay and the summary follow it", got, *r.Condensation.SummaryOffset)
		}
	})
}

func TestStructuredSummary(t *testing.T) {
	ctx := context.Background()
	run := func(t *testing.T, resp SummaryResponse) string {
		t.Helper()
		sum := &fakeSummarizer{reply: func(int, SummaryRequest) (SummaryResponse, error) { return resp, nil }}
		c := mustNew(t, Config{Type: TypeStructured, MaxSize: Ptr(10), KeepFirst: Ptr(1)}, Deps{Summarizer: sum})
		r, err := c.Condense(ctx, BuildView(msgs(0, 10), ModeSDK))
		if err != nil {
			t.Fatal(err)
		}
		if sum.last().Style != StyleStructured {
			t.Errorf("style = %q", sum.last().Style)
		}
		return *r.Condensation.Summary
	}
	t.Run("fields_rendered_as_markdown", func(t *testing.T) {
		got := run(t, SummaryResponse{Fields: map[string]string{"user_context": "fix bug", "pending_tasks": "open PR"}})
		for _, want := range []string{"# State Summary", "## Core Information", "**User Context**: fix bug", "**Pending Tasks**: open PR", "## Version Control", "**PR Status**: "} {
			if !strings.Contains(got, want) {
				t.Errorf("summary lacks %q:\n%s", want, got)
			}
		}
	})
	t.Run("raw_arguments_parsed", func(t *testing.T) {
		got := run(t, SummaryResponse{Text: `{"completed_tasks":"tests green"}`})
		if !strings.Contains(got, "**Completed Tasks**: tests green") {
			t.Errorf("summary:\n%s", got)
		}
	})
	t.Run("parse_failure_gives_empty_summary", func(t *testing.T) {
		got := run(t, SummaryResponse{Text: "not json"})
		if got != structuredSummary(SummaryResponse{}) || !strings.Contains(got, "**User Context**: \n") {
			t.Errorf("summary:\n%s", got)
		}
	})
	t.Run("tool_spec", func(t *testing.T) {
		spec := StructuredSummaryTool()
		props := spec.Parameters["properties"].(map[string]any)
		if spec.Name != "create_state_summary" || len(props) != 18 {
			t.Errorf("spec %s with %d fields", spec.Name, len(props))
		}
		if diff := cmp.Diff([]string{"user_context", "completed_tasks", "pending_tasks"}, spec.Parameters["required"]); diff != "" {
			t.Errorf("required (-want +got):\n%s", diff)
		}
	})
}

func TestTruncateContent(t *testing.T) {
	tests := []struct {
		name string
		in   string
		max  int
		want string
	}{
		{"negative_means_none", "abcdef", -1, "abcdef"},
		{"short_enough", "abcdef", 6, "abcdef"},
		{"halves_around_marker", "abcdefghij", 4, "ab" + TruncationMarker + "ij"},
		{"odd_limit_rounds_down", "abcdefghij", 5, "ab" + TruncationMarker + "ij"},
		{"zero_keeps_marker_only", "abc", 0, TruncationMarker},
		{"one_keeps_marker_only", "abc", 1, TruncationMarker},
		{"runes_not_bytes", "ééééé", 2, "é" + TruncationMarker + "é"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TruncateContent(tt.in, tt.max); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPrompts(t *testing.T) {
	req := SummaryRequest{Style: StyleSections, PreviousSummary: "old", Events: []SummaryEvent{{ID: "7", Text: "user: hi"}}}
	p := req.Prompt()
	for _, want := range []string{"USER_CONTEXT", "TASK_TRACKING", "COMPLETED", "PENDING", "CURRENT_STATE", "CODE_STATE", "TESTS",
		"CHANGES", "DEPS", "VERSION_CONTROL_STATUS", "PRIORITIZE", "SKIP", "<PREVIOUS SUMMARY>\nold\n</PREVIOUS SUMMARY>",
		"<EVENT id=7>\nuser: hi\n</EVENT>", "Now summarize the events using the rules above."} {
		if !strings.Contains(p, want) {
			t.Errorf("sections prompt lacks %q", want)
		}
	}
	m := SummaryRequest{Style: StyleMem1, PreviousSummary: "mem", Events: []SummaryEvent{{ID: "1", Text: "x", Retained: true}}}.Prompt()
	for _, want := range []string{"<PREVIOUS_THINK>\nmem\n</PREVIOUS_THINK>", "<information>", "<EVENT id=1> (stays in context)", "<think>"} {
		if !strings.Contains(m, want) {
			t.Errorf("mem1 prompt lacks %q", want)
		}
	}
	a := AttentionRequest{Events: []SummaryEvent{{ID: "3", Text: "t"}}}.Prompt()
	if !strings.Contains(a, "<ID>3</ID>\n<CONTENT>t</CONTENT>") {
		t.Errorf("attention prompt:\n%s", a)
	}
}
