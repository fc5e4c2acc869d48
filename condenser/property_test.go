package condenser

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// randomEvents yields a session with messages, paired tool calls (some
// results delayed past other events), parallel batches, browser outputs,
// observations and condensation requests. Seq is assigned on append.
func randomEvents(r *rand.Rand, n int) []Event {
	var out []Event
	add := func(e Event) { out = append(out, e) }
	if r.IntN(2) == 0 {
		add(Event{Kind: KindMessage, Role: RoleSystem, Content: "system prompt"})
	}
	for i := 0; i < r.IntN(3); i++ {
		add(Event{Kind: KindMessage, Role: RoleAssistant, Content: "preamble"})
	}
	add(Event{Kind: KindMessage, Role: RoleUser, Content: "the task"})
	call := 0
	for len(out) < n {
		switch k := r.IntN(10); {
		case k < 3:
			role := RoleAssistant
			if r.IntN(4) == 0 {
				role = RoleUser
			}
			add(Event{Kind: KindMessage, Role: role, Content: strings.Repeat("word ", 1+r.IntN(30))})
		case k < 5:
			call++
			tc := fmt.Sprintf("t%d", call)
			add(Event{Kind: KindToolCall, ToolCallID: tc, Name: "run", Content: "args"})
			if r.IntN(3) == 0 {
				add(Event{Kind: KindMessage, Role: RoleAssistant, Content: "while waiting"})
			}
			add(Event{Kind: KindToolResult, ToolCallID: tc, Name: "run", Content: strings.Repeat("out ", 1+r.IntN(50))})
		case k < 7:
			call++
			batch := fmt.Sprintf("b%d", call)
			size := 2 + r.IntN(3)
			var ids []string
			for j := range size {
				tc := fmt.Sprintf("%s-%d", batch, j)
				ids = append(ids, tc)
				add(Event{Kind: KindToolCall, ToolCallID: tc, BatchID: batch, Name: "run", Content: "args"})
			}
			for _, tc := range ids {
				add(Event{Kind: KindToolResult, ToolCallID: tc, Name: "run", Content: "result"})
			}
		case k < 8:
			add(Event{Kind: KindObservation, URL: "https://example.com", Content: "<html>page</html>"})
		case k < 9:
			add(Event{Kind: KindObservation, Content: "observation"})
		default:
			if r.IntN(3) == 0 {
				add(Event{Kind: KindCondensationRequest})
			} else {
				add(Event{Kind: KindMessage, Role: RoleAssistant, Content: "thinking"})
			}
		}
	}
	return out
}

// randomDeps gives a summarizer that fails now and then and an attender
// with noisy answers, all deterministic per seed.
func randomDeps(r *rand.Rand) Deps {
	sum := &fakeSummarizer{reply: func(n int, req SummaryRequest) (SummaryResponse, error) {
		if n%5 == 0 {
			return SummaryResponse{}, errLLM
		}
		return SummaryResponse{Text: fmt.Sprintf("summary %d of %d events", n, len(req.Events))}, nil
	}}
	seed := r.Uint64()
	att := &fakeAttender{rank: func(ids []string) []string {
		rr := rand.New(rand.NewPCG(seed, uint64(len(ids))))
		out := append([]string{"unknown"}, ids...)
		rr.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		return append(out[:rr.IntN(len(out)+1)], out[0])
	}}
	return Deps{Summarizer: sum, Attender: att, Counter: wordCounter{}}
}

func propertyConfigs() map[string]Config {
	cfgs := map[string]Config{
		"noop":                {Type: TypeNoOp},
		"observation_masking": {Type: TypeObservationMasking, AttentionWindow: Ptr(3)},
		"browser":             {Type: TypeBrowserOutput},
		"recent":              {Type: TypeRecent, KeepFirst: Ptr(1), MaxEvents: Ptr(8)},
		"amortized":           {Type: TypeAmortized, MaxSize: Ptr(12), KeepFirst: Ptr(0)},
		"llm_attention":       {Type: TypeLLMAttention, MaxSize: Ptr(12), KeepFirst: Ptr(2)},
		"llm":                 {Type: TypeLLMSummarizing, MaxSize: Ptr(12), KeepFirst: Ptr(1)},
		"llm_tokens":          {Type: TypeLLMSummarizing, MaxSize: Ptr(200), KeepFirst: Ptr(2), MaxTokens: 150, TokenRatio: 0.75, MinimumProgress: Ptr(0.1)},
		"structured":          {Type: TypeStructured, MaxSize: Ptr(14), KeepFirst: Ptr(3)},
		"window":              {Type: TypeConversationWindow},
		"mem1":                {Type: TypeMem1, MaxSize: Ptr(12), KeepFirst: Ptr(0), KeepLast: Ptr(3)},
		"recent_then_llm": {Type: TypePipeline, Condensers: []Config{
			{Type: TypeRecent, KeepFirst: Ptr(1), MaxEvents: Ptr(30)},
			{Type: TypeLLMSummarizing, MaxSize: Ptr(12), KeepFirst: Ptr(1)},
		}},
	}
	for name, cfg := range Profiles() {
		cfgs["profile_"+name] = cfg
	}
	return cfgs
}

// checkNoSplit verifies that going from the events in to the events out
// kept or dropped every pair and every batch of in as a whole, and kept
// the first user message.
func checkNoSplit(t *testing.T, where string, in, out []Event) {
	t.Helper()
	kept := map[string]bool{}
	for _, e := range out {
		if e.ID != "" {
			kept[e.ID] = true
		}
	}
	calls := map[string]string{}
	batches := map[string][]string{}
	for _, e := range in {
		if e.isCall() {
			calls[e.ToolCallID] = e.ID
		}
		if e.isBatched() {
			batches[e.BatchID] = append(batches[e.BatchID], e.ID)
		}
	}
	for _, e := range in {
		if c, ok := calls[e.ToolCallID]; ok && e.isResult() && kept[c] != kept[e.ID] {
			t.Fatalf("%s: split call %s from result %s", where, c, e.ID)
		}
	}
	for b, ids := range batches {
		for _, id := range ids {
			if kept[id] != kept[ids[0]] {
				t.Fatalf("%s: split batch %s %v", where, b, ids)
			}
		}
	}
	if u := firstUserIndex(in); u >= 0 && !kept[in[u].ID] {
		t.Fatalf("%s: forgot the first user message %s", where, in[u].ID)
	}
}

// checkViewProperties verifies BuildView's guarantees.
func checkViewProperties(t *testing.T, where string, v View, log []Event) {
	t.Helper()
	calls, results := map[string]int{}, map[string]int{}
	batch := map[string]int{}
	for _, e := range v.Events {
		switch {
		case e.isCall():
			calls[e.ToolCallID]++
		case e.isResult():
			results[e.ToolCallID]++
		}
		if e.isBatched() {
			batch[e.BatchID]++
		}
	}
	for tc, n := range results {
		if n != 1 || calls[tc] == 0 {
			t.Fatalf("%s: tool_call_id %s has %d results and %d calls", where, tc, n, calls[tc])
		}
	}
	for tc := range calls {
		if results[tc] != 1 {
			t.Fatalf("%s: call %s has %d results", where, tc, results[tc])
		}
	}
	inLog := map[string]int{}
	for _, e := range log {
		if e.isBatched() {
			inLog[e.BatchID]++
		}
	}
	for b, n := range batch {
		if n != inLog[b] {
			t.Fatalf("%s: batch %s has %d of %d calls", where, b, n, inLog[b])
		}
	}
}

// TestPropertiesRandomLogs runs every condenser over random sessions and
// checks after each step: BuildView is deterministic and enforces its
// properties; no condenser splits a pair or a batch or forgets the first
// user message; every record validates and replays as predicted; nothing
// panics. CONDENSER_PROPERTY_SEEDS raises the number of sessions.
func TestPropertiesRandomLogs(t *testing.T) {
	seedsN, length := 8, 150
	if n, err := strconv.Atoi(os.Getenv("CONDENSER_PROPERTY_SEEDS")); err == nil && n > 0 {
		seedsN = n
	}
	for name, cfg := range propertyConfigs() {
		for _, mode := range []ViewMode{ModeSDK, ModeNewestSummary} {
			t.Run(name+"/"+string(mode), func(t *testing.T) {
				t.Parallel()
				for seed := range uint64(seedsN) {
					r := rand.New(rand.NewPCG(seed, 7))
					c := mustNew(t, cfg, randomDeps(r))
					var log []Event
					for step, e := range randomEvents(r, length) {
						where := fmt.Sprintf("seed %d step %d", seed, step)
						e.ID, e.Seq, e.Time = fmt.Sprintf("e%d", len(log)), int64(len(log)), t0
						log = append(log, e)
						v := BuildView(log, mode)
						if again := BuildView(log, mode); !reflect.DeepEqual(v, again) {
							t.Fatalf("%s: BuildView is not deterministic:\n%s", where, cmp.Diff(v, again, cmp.AllowUnexported(View{})))
						}
						checkViewProperties(t, where, v, log)
						res, err := c.Condense(context.Background(), v)
						if err != nil {
							if !errors.Is(err, ErrNoCondensation) {
								t.Fatalf("%s: %v", where, err)
							}
							continue
						}
						if !res.Condensed() {
							checkNoSplit(t, where+" (view)", v.Events, res.View.Events)
							continue
						}
						cd := *res.Condensation
						if err := cd.Validate(); err != nil {
							t.Fatalf("%s: invalid record: %v", where, err)
						}
						checkNoSplit(t, where+" (condensation)", v.Events, applyTo(v, cd).Events)
						seq := len(log)
						log = append(log, CondensationEvent(cd, fmt.Sprintf("e%d", seq), int64(seq), t0))
						after := BuildView(log, mode)
						if after.UnhandledRequest {
							t.Fatalf("%s: the condensation left the request unhandled", where)
						}
						if len(after.Events) != len(applyTo(v, cd).Events) {
							t.Fatalf("%s: stored record replays to %d events, predicted %d", where, len(after.Events), len(applyTo(v, cd).Events))
						}
					}
				}
			})
		}
	}
}
