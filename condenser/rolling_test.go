package condenser

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// rollingLoop is the spec's rolling-loop harness: append one event,
// rebuild the view, condense; a Condensation is appended to the log and
// takes the next position; only views are yielded.
type rollingLoop struct {
	c     Condenser
	mode  ViewMode
	calls func() int // LLM calls so far; nil counts condensations
	log   []Event
	conds []Condensation
}

// step is one yielded view, with the calls made before it and the Seq of
// the newest event appended.
type step struct {
	view   View
	calls  int
	newest int64
}

func (l *rollingLoop) run(t *testing.T, n int, gen func(seq int) Event) []step {
	t.Helper()
	var steps []step
	for range n {
		e := gen(len(l.log))
		l.log = append(l.log, e)
		v := BuildView(l.log, l.mode)
		r, err := l.c.Condense(context.Background(), v)
		if err != nil {
			t.Fatalf("Condense at log length %d: %v", len(l.log), err)
		}
		if r.Condensed() {
			seq := len(l.log)
			l.log = append(l.log, CondensationEvent(*r.Condensation, id(seq), int64(seq), t0))
			l.conds = append(l.conds, *r.Condensation)
			continue
		}
		calls := len(l.conds)
		if l.calls != nil {
			calls = l.calls()
		}
		steps = append(steps, step{view: r.View, calls: calls, newest: e.Seq})
	}
	return steps
}

// expectedSize and expectedCalls are the rolling loop law, with T =
// max/2: size(i) = i+1 for i<max, else ((i-max)%T)+T+1; and
// ((i-max)//T)+1 condensations (LLM calls) by view i >= max.
func expectedSize(i, maxSize int) int {
	if i < maxSize {
		return i + 1
	}
	tgt := maxSize / 2
	return ((i - maxSize) % tgt) + tgt + 1
}

func expectedCalls(i, maxSize int) int {
	if i < maxSize {
		return 0
	}
	return ((i - maxSize) / (maxSize / 2)) + 1
}

// checkLaw checks every view's size, its calls, and that it ends with the
// newest event.
func checkLaw(t *testing.T, steps []step, maxSize int) {
	t.Helper()
	if len(steps) < 4*maxSize {
		t.Fatalf("only %d views; the loop should run well past max_size", len(steps))
	}
	for i, s := range steps {
		if got, want := len(s.view.Events), expectedSize(i, maxSize); got != want {
			t.Fatalf("view %d: size %d, want %d (%v)", i, got, want, labels(s.view.Events))
		}
		if got, want := s.calls, expectedCalls(i, maxSize); got != want {
			t.Fatalf("view %d: %d calls, want %d", i, got, want)
		}
		if last := s.view.Events[len(s.view.Events)-1]; last.Seq != s.newest {
			t.Fatalf("view %d ends with %q, want the newest event %d", i, last.ID, s.newest)
		}
	}
}

func sizes(steps []step, n int) []int {
	out := []int{}
	for _, s := range steps[:n] {
		out = append(out, len(s.view.Events))
	}
	return out
}

func TestAmortized(t *testing.T) {
	t.Run("case20_max12_keep4", func(t *testing.T) {
		l := &rollingLoop{c: mustNew(t, Config{Type: TypeAmortized, MaxSize: Ptr(12), KeepFirst: Ptr(4)}, Deps{})}
		steps := l.run(t, 120, msg)
		checkLaw(t, steps, 12)
		want := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 7, 8, 9, 10, 11, 12, 7, 8, 9, 10, 11, 12}
		if diff := cmp.Diff(want, sizes(steps, 24)); diff != "" {
			t.Errorf("sizes (-want +got):\n%s", diff)
		}
		if got := l.conds[0].ForgottenRange; got == nil || *got != (SeqRange{4, 10}) {
			t.Errorf("first condensation forgets %v, want range 4..10", got)
		}
		if diff := cmp.Diff([]string{"0", "1", "2", "3", "11", "12", "14"}, labels(steps[12].view.Events)); diff != "" {
			t.Errorf("view after the first condensation (-want +got):\n%s", diff)
		}
		for i, s := range steps[4:] {
			if diff := cmp.Diff(seqs(0, 3), labels(s.view.Events[:4])); diff != "" {
				t.Fatalf("view %d lost its head (-want +got):\n%s", i+4, diff)
			}
		}
	})
	t.Run("case21_max10_keep0", func(t *testing.T) {
		l := &rollingLoop{c: mustNew(t, Config{Type: TypeAmortized, MaxSize: Ptr(10), KeepFirst: Ptr(0)}, Deps{})}
		steps := l.run(t, 100, msg)
		checkLaw(t, steps, 10)
		if got := l.conds[0].ForgottenRange; got == nil || *got != (SeqRange{0, 5}) {
			t.Errorf("first condensation forgets %v, want range 0..5", got)
		}
		if diff := cmp.Diff([]string{"6", "7", "8", "9", "10", "12"}, labels(steps[10].view.Events)); diff != "" {
			t.Errorf("view after the first condensation (-want +got):\n%s", diff)
		}
	})
	t.Run("case21_first_user_message_protected", func(t *testing.T) {
		// Deviation from upstream: with keep_first=0 OpenHands forgets e0
		// even when it is the task; here the head grows past it.
		l := &rollingLoop{c: mustNew(t, Config{Type: TypeAmortized, MaxSize: Ptr(10), KeepFirst: Ptr(0)}, Deps{})}
		gen := func(seq int) Event {
			if seq == 0 {
				return userMsg(0, "the task")
			}
			return msg(seq)
		}
		steps := l.run(t, 60, gen)
		if got := l.conds[0].ForgottenRange; got == nil || *got != (SeqRange{1, 5}) {
			t.Errorf("first condensation forgets %v, want range 1..5", got)
		}
		for i, s := range steps {
			if s.view.Events[0].ID != "0" {
				t.Fatalf("view %d lost the first user message: %v", i, labels(s.view.Events))
			}
		}
	})
}

func TestLLMSummarizing(t *testing.T) {
	for _, mode := range []ViewMode{ModeSDK, ModeNewestSummary} {
		t.Run("case22_max10_keep3/"+string(mode), func(t *testing.T) {
			sum := &fakeSummarizer{}
			l := &rollingLoop{c: mustNew(t, Config{Type: TypeLLMSummarizing, MaxSize: Ptr(10), KeepFirst: Ptr(3)}, Deps{Summarizer: sum}), mode: mode, calls: sum.calls}
			steps := l.run(t, 100, msg)
			checkLaw(t, steps, 10)
			first := l.conds[0]
			if first.ForgottenRange == nil || *first.ForgottenRange != (SeqRange{3, 9}) || *first.SummaryOffset != 3 {
				t.Errorf("first condensation = %v offset %d, want range 3..9 offset 3", first.ForgottenRange, *first.SummaryOffset)
			}
			if diff := cmp.Diff([]string{"0", "1", "2", "S(summary 1)", "10", "12"}, labels(steps[10].view.Events)); diff != "" {
				t.Errorf("view after the first condensation (-want +got):\n%s", diff)
			}
			second := l.conds[1]
			if second.ForgottenRange == nil || *second.ForgottenRange != (SeqRange{10, 16}) {
				t.Errorf("second condensation forgets %v, want range 10..16", second.ForgottenRange)
			}
			req := sum.requests[1]
			if req.PreviousSummary != "summary 1" {
				t.Errorf("second prompt's previous summary = %q, want summary 1", req.PreviousSummary)
			}
			if p := req.Prompt(); !strings.Contains(p, "<PREVIOUS SUMMARY>\nsummary 1\n</PREVIOUS SUMMARY>") {
				t.Errorf("prompt lacks the previous summary block:\n%s", p)
			}
			for _, e := range req.Events {
				if e.Kind == KindSummary {
					t.Errorf("the previous summary was also rendered as an event: %+v", e)
				}
			}
			if sum.requests[0].PreviousSummary != NoPreviousSummary {
				t.Errorf("first prompt's previous summary = %q", sum.requests[0].PreviousSummary)
			}
			for i, s := range steps[10:] {
				if s.view.Events[3].Kind != KindSummary {
					t.Fatalf("view %d: view[3] is %q, want the summary", i+10, s.view.Events[3].ID)
				}
				if n := countSummaries(s.view); n != 1 {
					t.Fatalf("view %d has %d summaries, want 1", i+10, n)
				}
			}
		})
	}
	t.Run("case23_max10_keep1", func(t *testing.T) {
		sum := &fakeSummarizer{}
		l := &rollingLoop{c: mustNew(t, Config{Type: TypeLLMSummarizing, MaxSize: Ptr(10), KeepFirst: Ptr(1)}, Deps{Summarizer: sum}), calls: sum.calls}
		steps := l.run(t, 100, msg)
		checkLaw(t, steps, 10)
		if got := l.conds[0].ForgottenRange; got == nil || *got != (SeqRange{1, 7}) {
			t.Errorf("first condensation forgets %v, want range 1..7", got)
		}
		if diff := cmp.Diff([]string{"0", "S(summary 1)", "8", "9", "10", "12"}, labels(steps[10].view.Events)); diff != "" {
			t.Errorf("view after the first condensation (-want +got):\n%s", diff)
		}
	})
	t.Run("structured_keeps_the_law", func(t *testing.T) {
		sum := &fakeSummarizer{}
		l := &rollingLoop{c: mustNew(t, Config{Type: TypeStructured, MaxSize: Ptr(10), KeepFirst: Ptr(2)}, Deps{Summarizer: sum}), calls: sum.calls}
		checkLaw(t, l.run(t, 100, msg), 10)
	})
}

func countSummaries(v View) int {
	n := 0
	for _, e := range v.Events {
		if e.Kind == KindSummary {
			n++
		}
	}
	return n
}

// TestLLMAttention is spec case 24.
func TestLLMAttention(t *testing.T) {
	responses := map[string]func([]string) []string{
		"all_ids":      func(ids []string) []string { return ids },
		"with_unknown": func(ids []string) []string { return append([]string{"nope", "x-1"}, ids...) },
		"duplicates": func(ids []string) []string {
			var out []string
			for _, id := range ids {
				out = append(out, id, id)
			}
			return out
		},
		"empty":    func([]string) []string { return nil },
		"reversed": func(ids []string) []string { out := append([]string{}, ids...); slicesReverse(out); return out },
	}
	for name, rank := range responses {
		for _, maxSize := range []int{10, 2} {
			t.Run("case24_"+name+"_max"+id(maxSize), func(t *testing.T) {
				att := &fakeAttender{rank: rank}
				l := &rollingLoop{c: mustNew(t, Config{Type: TypeLLMAttention, MaxSize: Ptr(maxSize), KeepFirst: Ptr(0)}, Deps{Attender: att}), calls: att.calls}
				checkLaw(t, l.run(t, 100, msg), maxSize)
			})
		}
		t.Run("case24_"+name+"_keep4_max12_prefix", func(t *testing.T) {
			att := &fakeAttender{rank: rank}
			l := &rollingLoop{c: mustNew(t, Config{Type: TypeLLMAttention, MaxSize: Ptr(12), KeepFirst: Ptr(4)}, Deps{Attender: att}), calls: att.calls}
			steps := l.run(t, 120, msg)
			checkLaw(t, steps, 12)
			for i, s := range steps[4:] {
				if diff := cmp.Diff(seqs(0, 3), labels(s.view.Events[:4])); diff != "" {
					t.Fatalf("view %d lost its prefix (-want +got):\n%s", i+4, diff)
				}
			}
		})
	}
}

func slicesReverse(s []string) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

// TestPipeline covers spec case 25 and the stop-at-first-condensation rule.
func TestPipeline(t *testing.T) {
	t.Run("case25_amortized_then_browser", func(t *testing.T) {
		cfg := Config{Type: TypePipeline, Condensers: []Config{
			{Type: TypeAmortized, MaxSize: Ptr(10)},
			{Type: TypeBrowserOutput, AttentionWindow: Ptr(2)},
		}}
		gen := func(seq int) Event {
			if seq%3 == 0 {
				return browser(seq, "https://example.com/"+id(seq))
			}
			return msg(seq)
		}
		l := &rollingLoop{c: mustNew(t, cfg, Deps{})}
		steps := l.run(t, 100, gen)
		checkLaw(t, steps, 10)
		for i, s := range steps {
			var outputs []Event
			for _, e := range s.view.Events {
				if e.IsBrowserOutput() {
					outputs = append(outputs, e)
				}
			}
			for k, e := range outputs {
				masked := strings.Contains(e.Content, "Content omitted")
				if masked != (k < len(outputs)-2) {
					t.Fatalf("view %d: browser output %d of %d masked=%v", i, k, len(outputs), masked)
				}
			}
		}
	})
	t.Run("stops_at_first_condensation", func(t *testing.T) {
		sum := &fakeSummarizer{}
		cfg := Config{Type: TypePipeline, Condensers: []Config{
			{Type: TypeAmortized, MaxSize: Ptr(4), KeepFirst: Ptr(0)},
			{Type: TypeLLMSummarizing, MaxSize: Ptr(4), KeepFirst: Ptr(0)},
		}}
		r, err := mustNew(t, cfg, Deps{Summarizer: sum}).Condense(context.Background(), viewOf(msgs(0, 5)...))
		if err != nil || !r.Condensed() || r.Condensation.Strategy != string(TypeAmortized) {
			t.Fatalf("result %+v, %v; want the amortized condensation", r.Condensation, err)
		}
		if sum.calls() != 0 {
			t.Errorf("the summarizer ran after the pipeline stopped")
		}
	})
}
