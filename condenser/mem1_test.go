package condenser

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMem1(t *testing.T) {
	ctx := context.Background()
	memory := func(n int, req SummaryRequest) (SummaryResponse, error) {
		// A model that echoes part of its previous memory, as Mem1 should.
		return SummaryResponse{Text: "noise <think>memory " + id(n) + " after [" + req.PreviousSummary + "]</think> trailing"}, nil
	}

	t.Run("request_only_by_default", func(t *testing.T) {
		m := mustNew(t, Config{Type: TypeMem1}, Deps{Summarizer: &fakeSummarizer{}})
		r, err := m.Condense(ctx, BuildView(msgs(0, 200), ModeSDK))
		if err != nil || r.Condensed() {
			t.Fatalf("without max_size or a request: %+v, %v", r.Condensation, err)
		}
	})

	t.Run("rewrites_one_memory_block", func(t *testing.T) {
		sum := &fakeSummarizer{reply: memory}
		log := append([]Event{sysMsg(0), userMsg(1, task)}, msgs(2, 9)...)
		log = append(log, request(10))
		m := mustNew(t, Config{Type: TypeMem1}, Deps{Summarizer: sum})
		r, err := m.Condense(ctx, BuildView(log, ModeSDK))
		if err != nil || !r.Condensed() {
			t.Fatalf("%+v, %v", r, err)
		}
		c := r.Condensation
		// keep_first=1 is the system message; the head grows past the task.
		if *c.SummaryOffset != 2 || *c.Summary != "<think>\nmemory 1 after []\n</think>" {
			t.Errorf("offset %d summary %q", *c.SummaryOffset, *c.Summary)
		}
		if diff := cmp.Diff(seqs(2, 5), c.ExpandForgotten(log)); diff != "" {
			t.Errorf("forgotten (-want +got):\n%s", diff)
		}
		req := sum.last()
		if req.Style != StyleMem1 || req.PreviousSummary != "" || len(req.Events) != 9 {
			t.Fatalf("request %+v", req)
		}
		var retained []string
		for _, e := range req.Events {
			if e.Retained {
				retained = append(retained, e.ID)
			}
		}
		if diff := cmp.Diff([]string{"1", "6", "7", "8", "9"}, retained); diff != "" {
			t.Errorf("retained (-want +got):\n%s", diff)
		}
		md := c.Metadata
		if md["trigger"] != "condensation_request" || md["forgotten_event_count"] != 4 || md["discard_ratio"] != 0.4 || md["keep_last"] != 4 {
			t.Errorf("metadata %v", md)
		}
	})

	t.Run("memory_is_cumulative_in_a_loop", func(t *testing.T) {
		for _, mode := range []ViewMode{ModeSDK, ModeNewestSummary} {
			sum := &fakeSummarizer{reply: memory}
			m := mustNew(t, Config{Type: TypeMem1, MaxSize: Ptr(12), KeepFirst: Ptr(1), KeepLast: Ptr(4)}, Deps{Summarizer: sum})
			l := &rollingLoop{c: m, mode: mode}
			gen := func(seq int) Event {
				if seq == 0 {
					return userMsg(0, task)
				}
				if seq == 3 || seq == 40 {
					return sysMsg(seq) // mid-session system messages are never forgotten
				}
				return msg(seq)
			}
			steps := l.run(t, 150, gen)
			if len(l.conds) < 5 {
				t.Fatalf("%s: only %d condensations", mode, len(l.conds))
			}
			for i, s := range steps {
				if len(s.view.Events) > 12 {
					t.Fatalf("%s view %d has %d events", mode, i, len(s.view.Events))
				}
				if s.view.Events[0].ID != "0" {
					t.Fatalf("%s view %d lost the task", mode, i)
				}
				if n := countSummaries(s.view); n > 1 {
					t.Fatalf("%s view %d has %d memory blocks", mode, i, n)
				}
			}
			for k := 1; k < len(sum.requests); k++ {
				want := "memory " + id(k) + " after ["
				if !strings.HasPrefix(sum.requests[k].PreviousSummary, want) {
					t.Fatalf("%s request %d previous memory %q, want prefix %q", mode, k+1, sum.requests[k].PreviousSummary, want)
				}
			}
			last := BuildView(l.log, mode)
			var systems []string
			for _, e := range last.Events {
				if e.IsSystemMessage() {
					systems = append(systems, e.ID)
				}
			}
			if diff := cmp.Diff([]string{"3", "40"}, systems); diff != "" {
				t.Errorf("%s: system messages (-want +got):\n%s", mode, diff)
			}
		}
	})

	t.Run("normalize_think", func(t *testing.T) {
		tests := map[string]string{
			"plain text":                       "<think>\nplain text\n</think>",
			"<think>a</think><think>b</think>": "<think>\na\n</think>",
			"<think>unclosed":                  "<think>\nunclosed\n</think>",
			"":                                 "<think>\n\n</think>",
		}
		for in, want := range tests {
			if got := normalizeThink(in); got != want {
				t.Errorf("normalizeThink(%q) = %q, want %q", in, got, want)
			}
		}
	})

	t.Run("hard_reset_keeps_system_and_task", func(t *testing.T) {
		sum := &fakeSummarizer{reply: func(n int, req SummaryRequest) (SummaryResponse, error) {
			if !req.HardReset {
				return SummaryResponse{}, errLLM
			}
			return SummaryResponse{Text: "<think>all</think>"}, nil
		}}
		log := append([]Event{sysMsg(0), userMsg(1, task)}, msgs(2, 9)...)
		log = append(log, request(10))
		m := mustNew(t, Config{Type: TypeMem1}, Deps{Summarizer: sum})
		r, err := m.Condense(ctx, BuildView(log, ModeSDK))
		if err != nil || !r.Condensed() || !r.Condensation.HardReset {
			t.Fatalf("%+v, %v", r.Condensation, err)
		}
		log = append(log, CondensationEvent(*r.Condensation, "c11", 11, t0))
		if diff := cmp.Diff([]string{"0", "1", "S(<think>\nall\n</think>)"}, labels(BuildView(log, ModeSDK).Events)); diff != "" {
			t.Errorf("view (-want +got):\n%s", diff)
		}
	})
}
