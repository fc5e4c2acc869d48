package condenser

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func msgs(from, to int) []Event {
	var out []Event
	for i := from; i <= to; i++ {
		out = append(out, msg(i))
	}
	return out
}

func join(parts ...[]Event) []Event {
	var out []Event
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// TestView covers spec cases 1-12 (OpenHands test_view.py). Cases without
// summaries read the same in both modes, so they run in both.
func TestView(t *testing.T) {
	type tc struct {
		name      string
		log       []Event
		modes     []ViewMode
		want      []string
		unhandled bool
	}
	both := []ViewMode{ModeSDK, ModeNewestSummary}
	tests := []tc{
		{name: "case01_no_condensation", log: msgs(0, 4), modes: both, want: seqs(0, 4)},
		{name: "case02_forget_all_hides_condensation", log: join(msgs(0, 4), []Event{cond(5, forgetRange(0, 4))}), modes: both, want: []string{}},
		{name: "case05_forget_first", log: join(msgs(0, 1), []Event{cond(2, forgetIDs(0))}, msgs(3, 4)), modes: both, want: []string{"1", "3", "4"}},
		{name: "case06_request_unhandled", log: []Event{msg(0), msg(1), request(2), msg(3)}, modes: both, want: []string{"0", "1", "3"}, unhandled: true},
		{name: "case07_request_then_condensation", log: []Event{msg(0), msg(1), request(2), msg(3), cond(4, forgetIDs(0, 1)), msg(5)}, modes: both, want: []string{"3", "5"}},
		{name: "case08_request_after_condensation", log: []Event{msg(0), request(1), msg(2), cond(3, forgetIDs(0)), msg(4), request(5), msg(6)}, modes: both, want: []string{"2", "4", "6"}, unhandled: true},
		{name: "case09_empty_condensation_then_request", log: []Event{msg(0), cond(1, forgetIDs()), msg(2), request(3), msg(4)}, modes: both, want: []string{"0", "2", "4"}, unhandled: true},
		{name: "case10_condensation_without_request", log: []Event{msg(0), msg(1), cond(2, forgetIDs(0)), msg(3)}, modes: both, want: []string{"1", "3"}},
		{name: "case11_request_then_empty_condensation", log: []Event{msg(0), request(1), msg(2), cond(3, forgetIDs()), msg(4)}, modes: both, want: []string{"0", "2", "4"}},
	}
	for k := 0; k <= 4; k++ {
		want := []string{}
		for i := 0; i <= 4; i++ {
			if i != k {
				want = append(want, id(i))
			}
		}
		tests = append(tests, tc{
			name: fmt.Sprintf("case03_forget_%d", k), log: join(msgs(0, 4), []Event{cond(5, forgetIDs(k))}),
			modes: both, want: want,
		})
	}
	for o := 0; o <= 4; o++ {
		want := append([]string{}, seqs(0, 4)...)
		want = append(want[:o], append([]string{"S(My Summary)"}, want[o:]...)...)
		tests = append(tests, tc{
			name: fmt.Sprintf("case04_summary_offset_%d", o), log: join(msgs(0, 4), []Event{cond(5, withSummary(forgetIDs(), "My Summary", o))}),
			modes: both, want: want,
		})
	}
	// Case 12: two summarized condensations.
	twoSummaries := []Event{msg(0), msg(1), cond(2, withSummary(forgetIDs(0), "S1", 0)), msg(3), cond(4, withSummary(forgetIDs(1), "S2", 0)), msg(5)}
	tests = append(tests,
		tc{name: "case12_newest_summary_only", log: twoSummaries, modes: []ViewMode{ModeNewestSummary}, want: []string{"S(S2)", "3", "5"}},
		tc{name: "case12_sdk_keeps_both_summaries", log: twoSummaries, modes: []ViewMode{ModeSDK}, want: []string{"S(S2)", "S(S1)", "3", "5"}},
	)

	for _, tt := range tests {
		for _, mode := range tt.modes {
			t.Run(tt.name+"/"+string(mode), func(t *testing.T) {
				v := BuildView(tt.log, mode)
				if diff := cmp.Diff(tt.want, labels(v.Events)); diff != "" {
					t.Errorf("events (-want +got):\n%s", diff)
				}
				if v.UnhandledRequest != tt.unhandled {
					t.Errorf("unhandled = %v, want %v", v.UnhandledRequest, tt.unhandled)
				}
			})
		}
	}
}

// TestView/case04 also pins where the other events land: mi at i when
// i<o, else at i+1 (checked above through labels); here the summary id.
func TestViewSummaryIDs(t *testing.T) {
	log := join(msgs(0, 4), []Event{cond(5, withSummary(forgetIDs(), "My Summary", 2))})
	if got := BuildView(log, ModeSDK).Events[2].ID; got != "c5-summary" {
		t.Errorf("SDK summary id = %q, want c5-summary", got)
	}
	if got := BuildView(log, ModeNewestSummary).Events[2].ID; got != "" {
		t.Errorf("V0 summary id = %q, want none", got)
	}
}

// TestCondensationValidate is spec case 13.
func TestCondensationValidate(t *testing.T) {
	s, o := "summary", 1
	tests := []struct {
		name  string
		c     Condensation
		field string // "" means valid
	}{
		{"case13_list_and_range", Condensation{ForgottenIDs: []string{"1"}, ForgottenRange: &SeqRange{1, 2}}, "forgotten_ids"},
		{"case13_neither_form", Condensation{}, "forgotten_ids"},
		{"case13_summary_without_offset", Condensation{ForgottenIDs: []string{}, Summary: &s}, "summary_offset"},
		{"case13_offset_without_summary", Condensation{ForgottenIDs: []string{}, SummaryOffset: &o}, "summary_offset"},
		{"case13_negative_offset", withSummary(forgetIDs(), "x", -1), "summary_offset"},
		{"case13_reversed_range", forgetRange(5, 2), "forgotten_range"},
		{"case13_empty_list_ok", forgetIDs(), ""},
		{"case13_range_ok", forgetRange(2, 2), ""},
		{"case13_summary_and_offset_ok", withSummary(forgetRange(0, 3), "x", 0), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.c.Validate()
			if tt.field == "" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			var fe *FieldError
			if !errors.Is(err, ErrInvalidCondensation) || !errors.As(err, &fe) || fe.Field != tt.field {
				t.Fatalf("Validate() = %v, want ErrInvalidCondensation on %s", err, tt.field)
			}
		})
	}
}

func TestRangeIsInclusive(t *testing.T) {
	log := join(msgs(0, 5), []Event{cond(6, forgetRange(1, 3))})
	if diff := cmp.Diff([]string{"1", "2", "3"}, log[6].Condensation.ExpandForgotten(log)); diff != "" {
		t.Errorf("ExpandForgotten (-want +got):\n%s", diff)
	}
	for _, mode := range []ViewMode{ModeSDK, ModeNewestSummary} {
		if diff := cmp.Diff([]string{"0", "4", "5"}, labels(BuildView(log, mode).Events)); diff != "" {
			t.Errorf("%s view (-want +got):\n%s", mode, diff)
		}
	}
}

func TestExpandForgottenIncludesSummariesInRange(t *testing.T) {
	log := []Event{msg(0), msg(1), cond(2, withSummary(forgetIDs(1), "S", 1)), msg(3), cond(4, forgetRange(1, 3))}
	want := []string{"1", "c2", "c2-summary", "3"}
	if diff := cmp.Diff(want, log[4].Condensation.ExpandForgotten(log)); diff != "" {
		t.Errorf("ExpandForgotten (-want +got):\n%s", diff)
	}
	// The fold forgets exactly the expanded ids.
	if diff := cmp.Diff([]string{"0"}, labels(BuildView(log, ModeSDK).Events)); diff != "" {
		t.Errorf("view (-want +got):\n%s", diff)
	}
}

// TestViewSDK covers spec cases 35-37 and 39.
func TestViewSDK(t *testing.T) {
	tests := []struct {
		name string
		log  []Event
		want []string
	}{
		{
			name: "case35_summaries_applied_in_order",
			log: []Event{msg(0), msg(1), cond(2, withSummary(forgetIDs(0), "S0", 0)), msg(3), msg(4),
				cond(5, withSummary(forgetIDs(3), "S2", 2)), msg(6)},
			want: []string{"S(S0)", "1", "S(S2)", "4", "6"},
		},
		{
			name: "case36_offset_in_list_as_it_stands",
			log:  []Event{msg(0), msg(1), msg(2), cond(3, withSummary(forgetIDs(0, 1), "S", 1)), msg(4), msg(5)},
			want: []string{"2", "S(S)", "4", "5"},
		},
		{
			name: "case37_same_offset_twice",
			log:  []Event{msg(0), cond(1, withSummary(forgetIDs(), "S1", 1)), cond(2, withSummary(forgetIDs(), "S2", 1)), msg(3)},
			want: []string{"0", "S(S2)", "S(S1)", "3"},
		},
		{
			name: "case37_offset_equal_to_length_appends",
			log:  []Event{msg(0), msg(1), cond(2, withSummary(forgetIDs(), "S", 2))},
			want: []string{"0", "1", "S(S)"},
		},
		{
			name: "case37_offset_past_length_appends",
			log:  []Event{msg(0), cond(1, withSummary(forgetIDs(), "S", 9))},
			want: []string{"0", "S(S)"},
		},
		{
			name: "case37_summary_forgotten_later",
			log: []Event{msg(0), cond(1, withSummary(forgetIDs(), "S1", 1)), msg(2),
				cond(3, Condensation{ForgottenIDs: []string{"c1-summary"}})},
			want: []string{"0", "2"},
		},
		{
			name: "case39_forgetting_one_result_drops_the_batch",
			log: []Event{msg(0), call(1, "a1", "b"), call(2, "a2", "b"), result(3, "a1"), result(4, "a2"),
				cond(5, forgetIDs(3)), msg(6)},
			want: []string{"0", "6"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := BuildView(tt.log, ModeSDK)
			if diff := cmp.Diff(tt.want, labels(v.Events)); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}

func TestViewSummaryIDsStableAcrossRebuilds(t *testing.T) {
	log := []Event{msg(0), msg(1), cond(2, withSummary(forgetIDs(0), "S", 0)), msg(3)}
	a, b := BuildView(log, ModeSDK), BuildView(log, ModeSDK)
	if diff := cmp.Diff(a, b, cmp.AllowUnexported(View{})); diff != "" {
		t.Fatalf("rebuilds differ:\n%s", diff)
	}
	if a.Events[0].ID != "c2-summary" {
		t.Errorf("summary id = %q, want c2-summary", a.Events[0].ID)
	}
	if diff := cmp.Diff([]string{"c2"}, a.AppliedCondensationIDs); diff != "" {
		t.Errorf("applied (-want +got):\n%s", diff)
	}
}

func TestViewProperties(t *testing.T) {
	tests := []struct {
		name string
		log  []Event
		want []string
	}{
		{"pending_call_is_hidden", []Event{msg(0), call(1, "x", "")}, []string{"0"}},
		{"orphan_result_is_hidden", []Event{msg(0), result(1, "x")}, []string{"0"}},
		{"latest_duplicate_result_wins", []Event{call(0, "x", ""), result(1, "x"), result(2, "x")}, []string{"0", "2"}},
		{"calls_without_ids_are_plain", []Event{{ID: "0", Kind: KindToolCall}, {ID: "1", Seq: 1, Kind: KindToolResult}}, []string{"0", "1"}},
		{"incomplete_batch_in_log_order", []Event{call(0, "a", "b"), result(1, "a"), call(2, "c", "b")}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, labels(BuildView(tt.log, ModeSDK).Events)); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}

func TestViewInvalidCondensationIsHiddenNotApplied(t *testing.T) {
	log := []Event{msg(0), request(1), {ID: "c2", Seq: 2, Kind: KindCondensation, Condensation: &Condensation{}}, {ID: "c3", Seq: 3, Kind: KindCondensation}, msg(4)}
	for _, mode := range []ViewMode{ModeSDK, ModeNewestSummary} {
		v := BuildView(log, mode)
		if diff := cmp.Diff([]string{"0", "4"}, labels(v.Events)); diff != "" {
			t.Errorf("%s events (-want +got):\n%s", mode, diff)
		}
		if diff := cmp.Diff([]string{"c2", "c3"}, v.InvalidCondensationIDs); diff != "" {
			t.Errorf("%s invalid (-want +got):\n%s", mode, diff)
		}
		if v.UnhandledRequest {
			t.Errorf("%s: a condensation event, even invalid, answers the request", mode)
		}
	}
}

func TestViewSortsBySeq(t *testing.T) {
	log := []Event{msg(2), msg(0), msg(1)}
	v := BuildView(log, "")
	if diff := cmp.Diff([]string{"0", "1", "2"}, labels(v.Events)); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if v.HeadSeq != 2 || v.Mode != ModeSDK {
		t.Errorf("HeadSeq=%d Mode=%q, want 2 sdk", v.HeadSeq, v.Mode)
	}
	if log[0].Seq != 2 {
		t.Error("BuildView reordered the caller's slice")
	}
}

// TestManipulationIndices is spec case 38.
func TestManipulationIndices(t *testing.T) {
	tests := []struct {
		name   string
		events []Event
		want   []int
	}{
		{"case38_empty", nil, []int{0}},
		{"case38_three_messages", msgs(0, 2), []int{0, 1, 2, 3}},
		{"case38_pair", []Event{call(0, "a", ""), result(1, "a")}, []int{0, 2}},
		{"case38_msg_pair_msg", []Event{msg(0), call(1, "a", ""), result(2, "a"), msg(3)}, []int{0, 1, 3, 4}},
		{"case38_batch_of_three", []Event{call(0, "a", "b"), call(1, "c", "b"), call(2, "d", "b"), result(3, "a"), result(4, "c"), result(5, "d")}, []int{0, 6}},
		{"case38_two_batches", []Event{call(0, "a", "b1"), call(1, "c", "b1"), result(2, "a"), result(3, "c"), call(4, "d", "b2"), call(5, "e", "b2"), result(6, "d"), result(7, "e")}, []int{0, 4, 8}},
		{"unmatched_call_does_not_block", []Event{msg(0), call(1, "a", ""), msg(2)}, []int{0, 1, 2, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, ManipulationIndices(tt.events)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestCondensationJSONKeepsForms(t *testing.T) {
	for name, c := range map[string]Condensation{
		"empty_list": forgetIDs(),
		"range":      withSummary(forgetRange(3, 9), "S", 3),
	} {
		t.Run(name, func(t *testing.T) {
			e := CondensationEvent(c, "c1", 1, t0)
			raw, err := json.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			var back Event
			if err := json.Unmarshal(raw, &back); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(e, back); diff != "" {
				t.Errorf("round trip (-want +got):\n%s\n%s", diff, raw)
			}
			if err := back.Condensation.Validate(); err != nil {
				t.Errorf("stored record no longer validates: %v", err)
			}
		})
	}
}
