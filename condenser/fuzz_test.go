package condenser

import (
	"context"
	"fmt"
	"reflect"
	"testing"
)

// fuzzLog decodes bytes into a session log: three bytes per event, with
// every kind, duplicate ids, unsorted Seqs, and valid and invalid
// condensations (both forms, neither, summaries at any offset).
func fuzzLog(data []byte) []Event {
	var log []Event
	for i := 0; i+2 < len(data) && len(log) < 200; i += 3 {
		k, a, b := data[i], data[i+1], data[i+2]
		n := len(log)
		e := Event{ID: fmt.Sprintf("e%d", n), Seq: int64(n), Time: t0}
		if b == 255 {
			e.ID = fmt.Sprintf("e%d", n%5) // duplicate id
		}
		if k&0x80 != 0 {
			e.Seq = int64(n) - int64(a%4) // out of order or repeated Seq
		}
		switch k % 8 {
		case 0:
			e.Kind, e.Role, e.Content = KindMessage, RoleAssistant, "words and words"
		case 1:
			e.Kind, e.Role, e.Content = KindMessage, RoleUser, "task"
		case 2:
			e.Kind, e.ToolCallID = KindToolCall, fmt.Sprintf("t%d", a%8)
			if b%3 == 0 {
				e.BatchID = fmt.Sprintf("b%d", b%4)
			}
		case 3:
			e.Kind, e.ToolCallID = KindToolResult, fmt.Sprintf("t%d", a%8)
		case 4:
			e.Kind, e.Content = KindObservation, "obs"
			if a%2 == 1 {
				e.URL = "https://x"
			}
		case 5:
			e.Kind = KindCondensationRequest
		case 6:
			e.Kind = KindCondensation
			c := &Condensation{}
			switch a % 4 {
			case 0:
				c.ForgottenIDs = []string{}
				for j := 0; j < n; j++ {
					if (int(b)>>(j%8))&1 == 1 {
						c.ForgottenIDs = append(c.ForgottenIDs, fmt.Sprintf("e%d", j))
					}
				}
				if b%7 == 0 && n > 0 {
					c.ForgottenIDs = append(c.ForgottenIDs, fmt.Sprintf("e%d-summary", int(b)%n))
				}
			case 1:
				c.ForgottenRange = &SeqRange{Start: int64(b % 16), End: int64(b%16) + int64(a%8)}
			case 2:
				c.ForgottenIDs, c.ForgottenRange = []string{"e0"}, &SeqRange{0, 1}
			}
			if b%2 == 1 {
				s, o := "sum", int(int8(a))
				c.Summary, c.SummaryOffset = &s, &o
			}
			if k%16 == 14 {
				c = nil
			}
			e.Condensation = c
		default:
			e.Kind, e.Content = KindSummary, "client summary"
		}
		log = append(log, e)
	}
	return log
}

func FuzzBuildView(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1, 0, 0, 0, 0, 0, 2, 1, 3, 3, 1, 0, 6, 0, 3})
	f.Add([]byte{2, 1, 0, 2, 2, 0, 3, 1, 0, 3, 2, 0, 6, 1, 1, 0, 0, 0})
	f.Add([]byte{0, 0, 0, 5, 0, 0, 6, 4, 5, 0, 0, 255, 134, 3, 1, 6, 2, 9, 6, 3, 1})
	f.Add([]byte{1, 0, 0, 4, 1, 0, 4, 1, 0, 4, 0, 0, 7, 0, 0, 6, 200, 7, 14, 1, 1})
	// Stateless fakes: recording fakes would grow without bound over
	// millions of executions.
	deps := Deps{Summarizer: echoSummarizer{}, Attender: halfAttender{}, Counter: wordCounter{}}
	var condensers []Condenser
	for _, cfg := range []Config{
		{Type: TypeAmortized, MaxSize: Ptr(6), KeepFirst: Ptr(1)},
		{Type: TypeLLMSummarizing, MaxSize: Ptr(6), KeepFirst: Ptr(1), MaxTokens: 20},
		{Type: TypeLLMAttention, MaxSize: Ptr(6), KeepFirst: Ptr(0)},
		{Type: TypeConversationWindow},
		{Type: TypeMem1, MaxSize: Ptr(8), KeepLast: Ptr(2)},
		{Type: TypeRecent, MaxEvents: Ptr(4)},
	} {
		c, err := New(cfg, deps)
		if err != nil {
			f.Fatal(err)
		}
		condensers = append(condensers, c)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		log := fuzzLog(data)
		for _, mode := range []ViewMode{ModeSDK, ModeNewestSummary} {
			v := BuildView(log, mode)
			if again := BuildView(log, mode); !reflect.DeepEqual(v, again) {
				t.Fatalf("%s: not deterministic", mode)
			}
			checkViewProperties(t, string(mode), v, log)
			ManipulationIndices(v.Events)
			for _, c := range condensers {
				r, err := c.Condense(context.Background(), v)
				if err != nil {
					continue
				}
				if r.Condensed() {
					if err := r.Condensation.Validate(); err != nil {
						t.Fatalf("invalid record %+v: %v", r.Condensation, err)
					}
					r.Condensation.ExpandForgotten(log)
				}
			}
		}
	})
}

type echoSummarizer struct{}

func (echoSummarizer) Summarize(_ context.Context, req SummaryRequest) (SummaryResponse, error) {
	if len(req.Events)%3 == 0 && !req.HardReset {
		return SummaryResponse{}, errLLM
	}
	return SummaryResponse{Text: fmt.Sprintf("%d events", len(req.Events))}, nil
}

type halfAttender struct{}

func (halfAttender) SelectEvents(_ context.Context, req AttentionRequest) ([]string, error) {
	var ids []string
	for _, e := range req.Events[len(req.Events)/2:] {
		ids = append(ids, e.ID, "zz")
	}
	return ids, nil
}
