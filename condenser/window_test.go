package condenser

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const task = "fix the failing test"

func recallCall(seq int) Event {
	return Event{ID: id(seq), Seq: int64(seq), Time: t0, Kind: KindToolCall, Role: RoleAssistant, Name: RecallToolName, ToolCallID: "r" + id(seq), Content: task}
}

func recallObs(seq, callSeq int) Event {
	return Event{ID: id(seq), Seq: int64(seq), Time: t0, Kind: KindToolResult, Role: RoleTool, Name: RecallToolName, ToolCallID: "r" + id(callSeq), Content: "recalled"}
}

// cmd and out form a pair: cmd at seq, its output at seq+1.
func cmd(seq int) Event         { return call(seq, "c"+id(seq), "") }
func out(seq, cmdSeq int) Event { return result(seq, "c"+id(cmdSeq)) }

// TestConversationWindow covers spec cases 26-34. Ids start at 1, and
// get_condensation is called directly as upstream does.
func TestConversationWindow(t *testing.T) {
	essentials := []Event{sysMsg(1), userMsg(2, task), recallCall(3), recallObs(4, 3)}
	tests := []struct {
		name     string
		events   []Event
		want     []string
		rng      *SeqRange
		warnings int
	}{
		{
			name:   "case26_essentials_and_pairs",
			events: append(append([]Event{}, essentials...), cmd(5), out(6, 5), cmd(7), out(8, 7), cmd(9), out(10, 9)),
			want:   seqs(5, 8), rng: &SeqRange{5, 8},
		},
		{
			name:   "case27_no_system_message",
			events: []Event{userMsg(1, task), recallCall(2), recallObs(3, 2), cmd(4), out(5, 4), cmd(6), out(7, 6), cmd(8), out(9, 8)},
			want:   seqs(4, 7), rng: &SeqRange{4, 7},
		},
		{
			name:   "case28_recall_without_observation",
			events: []Event{sysMsg(1), userMsg(2, task), recallCall(3), cmd(4), out(5, 4), cmd(6), out(7, 6), cmd(8), out(9, 8)},
			want:   seqs(4, 7), rng: &SeqRange{4, 7},
		},
		{
			name:     "case29_dangling_output_dropped",
			events:   append(append([]Event{}, essentials...), cmd(5), out(6, 5)),
			want:     []string{"5", "6"},
			warnings: 1,
		},
		{
			name:     "case30_only_essentials",
			events:   essentials,
			want:     []string{},
			warnings: 1,
		},
		{
			name:   "case31_orphan_outputs",
			events: append(append([]Event{}, essentials...), result(5, "gone"), result(6, "gone2"), cmd(7), out(8, 7), cmd(9), out(10, 9)),
			want:   seqs(5, 8), rng: &SeqRange{5, 8},
		},
		{
			name:     "case32_two_orphans_one_warning",
			events:   append(append([]Event{}, essentials...), result(5, "gone"), result(6, "gone2")),
			want:     []string{"5", "6"},
			warnings: 1,
		},
		{
			name:   "case33_empty_view",
			events: nil,
			want:   []string{},
		},
		{
			name: "case34_second_user_message_forgotten",
			events: append(append([]Event{}, essentials...), cmd(5), out(6, 5), userMsg(7, "also update the docs"),
				cmd(8), out(9, 8), cmd(10), out(11, 10)),
			want: seqs(5, 9), rng: &SeqRange{5, 9},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := viewOf(tt.events...)
			c, err := window{}.condensation(context.Background(), v, Decision{}, &callStats{})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Validate(); err != nil {
				t.Fatalf("invalid record: %v", err)
			}
			if diff := cmp.Diff(tt.want, c.ExpandForgotten(tt.events)); diff != "" {
				t.Errorf("forgotten (-want +got):\n%s", diff)
			}
			if tt.rng != nil && (c.ForgottenRange == nil || *c.ForgottenRange != *tt.rng) {
				t.Errorf("range = %v, want %v", c.ForgottenRange, *tt.rng)
			}
			if tt.rng == nil && len(tt.want) == 0 && (c.ForgottenIDs == nil || c.ForgottenRange != nil) {
				t.Errorf("want an empty id list, got %+v", c)
			}
			if len(c.Warnings) != tt.warnings {
				t.Errorf("warnings = %q, want %d", c.Warnings, tt.warnings)
			}
		})
	}
}

func TestConversationWindowTrigger(t *testing.T) {
	w := mustNew(t, Config{Type: TypeConversationWindow}, Deps{})
	events := []Event{sysMsg(1), userMsg(2, task), cmd(3), out(4, 3), cmd(5), out(6, 5), cmd(7), out(8, 7)}
	t.Run("only_on_request", func(t *testing.T) {
		r, err := w.Condense(context.Background(), BuildView(events, ModeSDK))
		if err != nil || r.Condensed() {
			t.Fatalf("without a request: %+v, %v", r.Condensation, err)
		}
	})
	t.Run("request_is_hard_and_answered", func(t *testing.T) {
		log := append(append([]Event{}, events...), request(9))
		r, err := w.Condense(context.Background(), BuildView(log, ModeSDK))
		if err != nil || !r.Condensed() {
			t.Fatalf("with a request: %+v, %v", r, err)
		}
		if r.Condensation.Requirement != RequirementHard || r.Condensation.Strategy != string(TypeConversationWindow) {
			t.Errorf("record %+v", r.Condensation)
		}
		log = append(log, CondensationEvent(*r.Condensation, "c10", 10, t0))
		v := BuildView(log, ModeSDK)
		if v.UnhandledRequest {
			t.Error("the request is still unhandled")
		}
		if diff := cmp.Diff([]string{"1", "2", "7", "8"}, labels(v.Events)); diff != "" {
			t.Errorf("view (-want +got):\n%s", diff)
		}
	})
	t.Run("no_user_message", func(t *testing.T) {
		r, err := w.Condense(context.Background(), viewWithRequest(msgs(0, 5)...))
		if err != nil || !r.Condensed() || len(r.Condensation.ForgottenIDs) != 0 || len(r.Condensation.Warnings) != 1 {
			t.Fatalf("got %+v, %v", r.Condensation, err)
		}
	})
	t.Run("batch_not_split", func(t *testing.T) {
		// The newest half starts at b, inside the batch {a,b}: upstream
		// would forget a and keep b; the cut moves past the batch instead.
		log := []Event{userMsg(0, task), msg(1), msg(2), msg(3), call(4, "a", "B"), call(5, "b", "B"), result(6, "a"), result(7, "b"), msg(8), request(9)}
		r, err := w.Condense(context.Background(), BuildView(log, ModeSDK))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(seqs(1, 7), r.Condensation.ExpandForgotten(log)); diff != "" {
			t.Errorf("forgotten (-want +got):\n%s", diff)
		}
	})
}

func viewWithRequest(events ...Event) View {
	v := viewOf(events...)
	v.UnhandledRequest = true
	return v
}
