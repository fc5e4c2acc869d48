package condenser

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func mustNew(t *testing.T, cfg Config, deps Deps) Condenser {
	t.Helper()
	c, err := New(cfg, deps)
	if err != nil {
		t.Fatalf("New(%+v) = %v", cfg, err)
	}
	return c
}

func condenseView(t *testing.T, c Condenser, v View) View {
	t.Helper()
	r, err := c.Condense(context.Background(), v)
	if err != nil {
		t.Fatalf("Condense: %v", err)
	}
	if r.Condensed() {
		t.Fatalf("Condense returned a condensation, want a view")
	}
	return r.View
}

// TestNoOp is spec case 14.
func TestNoOp(t *testing.T) {
	v := viewOf(msgs(0, 2)...)
	got := condenseView(t, mustNew(t, Config{Type: TypeNoOp}, Deps{}), v)
	if diff := cmp.Diff(v, got, cmp.AllowUnexported(View{})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestObservationMasking is spec case 15.
func TestObservationMasking(t *testing.T) {
	t.Run("case15_window_3", func(t *testing.T) {
		in := viewOf(msg(0), obs(1), msg(2), msg(3), obs(4))
		in.Events[1].Tokens = 7
		got := condenseView(t, mustNew(t, Config{Type: TypeObservationMasking, AttentionWindow: Ptr(3)}, Deps{}), in)
		if len(got.Events) != 5 {
			t.Fatalf("len = %d, want 5", len(got.Events))
		}
		for i, e := range got.Events {
			masked := e.Content == MaskedContent
			if masked != (i == 1) {
				t.Errorf("event %d masked=%v", i, masked)
			}
			if e.ID != in.Events[i].ID {
				t.Errorf("event %d id %q, want %q", i, e.ID, in.Events[i].ID)
			}
		}
		if got.Events[1].Tokens != 0 {
			t.Error("a masked event must drop its stale token count")
		}
		if in.Events[1].Content == MaskedContent {
			t.Error("masking modified the input view")
		}
	})
	t.Run("tool_results_keep_their_pairing", func(t *testing.T) {
		in := viewOf(call(0, "a", ""), result(1, "a"), msg(2))
		got := condenseView(t, mustNew(t, Config{Type: TypeObservationMasking, AttentionWindow: Ptr(1)}, Deps{}), in)
		if got.Events[1].ToolCallID != "a" || got.Events[1].Content != MaskedContent {
			t.Errorf("masked result = %+v", got.Events[1])
		}
	})
}

// TestBrowserOutput is spec case 16.
func TestBrowserOutput(t *testing.T) {
	t.Run("case16_window_3", func(t *testing.T) {
		in := viewOf(browser(0, "https://a"), browser(1, "https://b"), msg(2), msg(3), browser(4, "https://c"), browser(5, "https://d"))
		got := condenseView(t, mustNew(t, Config{Type: TypeBrowserOutput, AttentionWindow: Ptr(3)}, Deps{}), in)
		for i, e := range got.Events {
			omitted := strings.Contains(e.Content, "Content omitted")
			if omitted != (i == 0) {
				t.Errorf("event %d omitted=%v (%q)", i, omitted, e.Content)
			}
		}
		if want := "Visited URL https://a\nContent omitted"; got.Events[0].Content != want {
			t.Errorf("content = %q, want %q", got.Events[0].Content, want)
		}
	})
}

// TestRecentEvents is spec case 17.
func TestRecentEvents(t *testing.T) {
	in := viewOf(msgs(1, 5)...)
	tests := []struct {
		name      string
		keepFirst *int
		maxEvents int
		want      []string
	}{
		{"case17_max5_unchanged", nil, 5, seqs(1, 5)},
		{"case17_max3", nil, 3, []string{"1", "4", "5"}},
		{"case17_keep1_max2", Ptr(1), 2, []string{"1", "5"}},
		{"case17_keep2_max3", Ptr(2), 3, []string{"1", "2", "5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustNew(t, Config{Type: TypeRecent, KeepFirst: tt.keepFirst, MaxEvents: Ptr(tt.maxEvents)}, Deps{})
			if diff := cmp.Diff(tt.want, labels(condenseView(t, c, in).Events)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	t.Run("keeps_first_user_message_and_pairs", func(t *testing.T) {
		in := viewOf(sysMsg(0), msg(1), userMsg(2, "task"), msg(3), call(4, "a", ""), result(5, "a"), msg(6))
		c := mustNew(t, Config{Type: TypeRecent, KeepFirst: Ptr(1), MaxEvents: Ptr(3)}, Deps{})
		got := condenseView(t, c, in)
		// The cut at 5 would split the pair, so it moves to 6.
		if diff := cmp.Diff([]string{"0", "2", "6"}, labels(got.Events)); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		if !got.elided {
			t.Error("a view with dropped events must be marked elided")
		}
	})
}

func TestAssess(t *testing.T) {
	ctx := context.Background()
	cfg, _ := Profile(ProfileDefault)
	c := mustNew(t, cfg, Deps{Summarizer: &fakeSummarizer{}})
	a := c.(Assessor)
	tests := []struct {
		name     string
		log      []Event
		strategy Type
		req      Requirement
	}{
		{"quiet", msgs(0, 50), TypePipeline, ""},
		{"request_goes_to_the_window", append(msgs(0, 5), request(6)), TypeConversationWindow, RequirementHard},
		{"size_goes_to_llm", msgs(0, 120), TypeLLMSummarizing, RequirementSoft},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := a.Assess(ctx, BuildView(tt.log, ModeSDK))
			if err != nil {
				t.Fatal(err)
			}
			if d.Strategy != string(tt.strategy) || d.Requirement != tt.req {
				t.Errorf("decision %+v, want %s %q", d, tt.strategy, tt.req)
			}
		})
	}
	t.Run("every_type_assesses", func(t *testing.T) {
		deps := Deps{Summarizer: &fakeSummarizer{}, Attender: &fakeAttender{}, Counter: wordCounter{}}
		for name, cfg := range propertyConfigs() {
			if _, ok := mustNew(t, cfg, deps).(Assessor); !ok {
				t.Errorf("%s is not an Assessor", name)
			}
		}
	})
	t.Run("pipeline_result_reports_its_input", func(t *testing.T) {
		v := BuildView(append([]Event{browser(0, "https://a"), browser(1, "https://b")}, msgs(2, 130)...), ModeSDK)
		r, err := c.Condense(ctx, v)
		if err != nil || !r.Condensed() {
			t.Fatalf("%+v, %v", r, err)
		}
		if r.View.Events[0].Content != v.Events[0].Content {
			t.Error("the condensed result carries a masked view")
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := c.Condense(cctx, viewOf(msgs(0, 3)...)); err == nil {
			t.Error("Condense ignored a cancelled context")
		}
		if _, err := a.Assess(cctx, viewOf(msgs(0, 3)...)); err == nil {
			t.Error("Assess ignored a cancelled context")
		}
	})
}
