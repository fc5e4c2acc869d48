package condenser

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// id renders a log position as an event id.
func id(seq int) string { return strconv.Itoa(seq) }

// msg is an assistant message at log position seq (not a user message, so
// first-user protection stays out of the way unless a test wants it).
func msg(seq int) Event {
	return Event{ID: id(seq), Seq: int64(seq), Time: t0, Kind: KindMessage, Role: RoleAssistant, Content: "event " + id(seq)}
}

func userMsg(seq int, content string) Event {
	return Event{ID: id(seq), Seq: int64(seq), Time: t0, Kind: KindMessage, Role: RoleUser, Content: content}
}

func sysMsg(seq int) Event {
	return Event{ID: id(seq), Seq: int64(seq), Time: t0, Kind: KindMessage, Role: RoleSystem, Content: "You are an agent."}
}

func call(seq int, callID, batch string) Event {
	return Event{ID: id(seq), Seq: int64(seq), Time: t0, Kind: KindToolCall, Role: RoleAssistant, Name: "run", ToolCallID: callID, BatchID: batch, Content: "run " + callID}
}

func result(seq int, callID string) Event {
	return Event{ID: id(seq), Seq: int64(seq), Time: t0, Kind: KindToolResult, Role: RoleTool, Name: "run", ToolCallID: callID, Content: "output of " + callID}
}

func obs(seq int) Event {
	return Event{ID: id(seq), Seq: int64(seq), Time: t0, Kind: KindObservation, Content: "observation " + id(seq)}
}

func browser(seq int, url string) Event {
	return Event{ID: id(seq), Seq: int64(seq), Time: t0, Kind: KindObservation, URL: url, Content: "<html>page " + id(seq) + "</html>"}
}

func request(seq int) Event {
	return Event{ID: id(seq), Seq: int64(seq), Time: t0, Kind: KindCondensationRequest}
}

// cond stores c at log position seq under the id "c<seq>".
func cond(seq int, c Condensation) Event {
	return CondensationEvent(c, "c"+id(seq), int64(seq), t0)
}

func forgetIDs(seqs ...int) Condensation {
	ids := []string{}
	for _, s := range seqs {
		ids = append(ids, id(s))
	}
	return Condensation{ForgottenIDs: ids}
}

func forgetRange(start, end int) Condensation {
	return Condensation{ForgottenRange: &SeqRange{Start: int64(start), End: int64(end)}}
}

func withSummary(c Condensation, summary string, offset int) Condensation {
	c.Summary, c.SummaryOffset = &summary, &offset
	return c
}

// labels renders a view's events: the id of ordinary events, "S(text)" for
// summaries.
func labels(events []Event) []string {
	out := []string{}
	for _, e := range events {
		if e.Kind == KindSummary {
			out = append(out, "S("+e.Content+")")
		} else {
			out = append(out, e.ID)
		}
	}
	return out
}

func seqs(from, to int) []string {
	out := []string{}
	for i := from; i <= to; i++ {
		out = append(out, id(i))
	}
	return out
}

// viewOf builds a view straight from events, as the upstream tests build
// View(events=...) without a log.
func viewOf(events ...Event) View {
	v := View{Events: events, Mode: ModeSDK}
	if n := len(events); n > 0 {
		v.HeadSeq = events[n-1].Seq
	}
	return v
}

// wordCounter counts whitespace-separated words: a predictable tokenizer.
type wordCounter struct{}

func (wordCounter) Count(text string) int { return len(strings.Fields(text)) }

// fakeSummarizer records every request and answers with reply (or fail).
type fakeSummarizer struct {
	mu       sync.Mutex
	requests []SummaryRequest
	reply    func(n int, req SummaryRequest) (SummaryResponse, error)
	caps     *Capabilities
}

func (f *fakeSummarizer) Summarize(_ context.Context, req SummaryRequest) (SummaryResponse, error) {
	f.mu.Lock()
	f.requests = append(f.requests, req)
	n := len(f.requests)
	f.mu.Unlock()
	if f.reply != nil {
		return f.reply(n, req)
	}
	return SummaryResponse{Text: "summary " + strconv.Itoa(n), Model: "fake-model", ResponseID: "resp-" + strconv.Itoa(n)}, nil
}

func (f *fakeSummarizer) calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.requests)
}

func (f *fakeSummarizer) last() SummaryRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests[len(f.requests)-1]
}

// capableSummarizer reports capabilities.
type capableSummarizer struct {
	fakeSummarizer
}

func (c *capableSummarizer) Capabilities() Capabilities { return *c.caps }

var errLLM = errors.New("llm down")

// fakeAttender answers with rank(view ids) and counts calls.
type fakeAttender struct {
	mu    sync.Mutex
	n     int
	rank  func(ids []string) []string
	fail  bool
	caps  *Capabilities
	asked []AttentionRequest
}

func (f *fakeAttender) SelectEvents(_ context.Context, req AttentionRequest) ([]string, error) {
	f.mu.Lock()
	f.n++
	f.asked = append(f.asked, req)
	f.mu.Unlock()
	if f.fail {
		return nil, errLLM
	}
	ids := make([]string, len(req.Events))
	for i, e := range req.Events {
		ids[i] = e.ID
	}
	if f.rank == nil {
		return ids, nil
	}
	return f.rank(ids), nil
}

func (f *fakeAttender) calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n
}

type capableAttender struct{ fakeAttender }

func (c *capableAttender) Capabilities() Capabilities { return *c.caps }
