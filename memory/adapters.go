package memory

import (
	"context"
	"strings"
	"time"

	"github.com/graphmem/graphmem/condenser"
	"github.com/graphmem/graphmem/extract"
)

// minSummaryChars is the floor of a condensation summary's length bound.
const minSummaryChars = 600

// summarizer adapts the engine to condenser.Summarizer for one condensing
// run. The condenser hands it events as prompt lines; the engine needs the
// original content and time of each (the offline summarizer resolves
// "yesterday" against the event's time), so it looks them up in the log
// the run was built from.
type summarizer struct {
	engine Engine
	byID   map[string]condenser.Event
	calls  int
	model  string
}

func (a *summarizer) Summarize(ctx context.Context, req condenser.SummaryRequest) (condenser.SummaryResponse, error) {
	a.calls++
	prev := req.PreviousSummary
	if prev == condenser.NoPreviousSummary {
		prev = ""
	}
	in := extract.SummaryRequest{
		Style:           extract.SummaryStyle(req.Style),
		PreviousSummary: prev,
		MaxEventLength:  req.MaxEventLength,
	}
	replaced := len(prev)
	for _, e := range req.Events {
		ev := a.event(e, req.MaxEventLength)
		in.Events = append(in.Events, ev)
		replaced += len(ev.Content)
	}
	// At most half of what the summary replaces, so that condensing always
	// shrinks the view, and never so little that it says nothing.
	in.MaxChars = max(replaced/2, minSummaryChars)
	out, err := a.engine.Summarize(ctx, in)
	if err != nil {
		return condenser.SummaryResponse{}, err
	}
	a.model = out.Model
	return condenser.SummaryResponse{Text: out.Text, Fields: out.Fields, Model: out.Model,
		InputTokens: out.PromptTokens, OutputTokens: out.CompletionTokens}, nil
}

// event turns a prompt line back into the engine's event, preferring the
// stored original (truncated like the line was) over the rendered text.
func (a *summarizer) event(e condenser.SummaryEvent, maxLen int) extract.Event {
	out := extract.Event{ID: e.ID, Role: string(e.Role), Kind: string(e.Kind), Name: e.Name, Content: e.Text}
	if orig, ok := a.byID[e.ID]; ok {
		out.Content = condenser.TruncateContent(orig.Content, maxLen)
		out.OccurredAt = orig.Time
		if out.Name == "" {
			out.Name = orig.Name
		}
	}
	return out
}

// attender adapts the engine to condenser.Attender.
type attender struct {
	engine Engine
	byID   map[string]condenser.Event
}

func (a *attender) SelectEvents(ctx context.Context, req condenser.AttentionRequest) ([]string, error) {
	in := extract.AttentionRequest{MaxKeep: req.Keep}
	for _, e := range req.Events {
		ev := extract.Event{ID: e.ID, Role: string(e.Role), Kind: string(e.Kind), Name: e.Name, Content: e.Text}
		if orig, ok := a.byID[e.ID]; ok {
			ev.OccurredAt = orig.Time
		}
		in.Events = append(in.Events, ev)
	}
	// The condenser asks for a ranking of every event; the engine returns
	// its selection best first, which is a ranking of the kept prefix.
	if in.MaxKeep <= 0 || in.MaxKeep > len(in.Events) {
		in.MaxKeep = len(in.Events)
	}
	return a.engine.SelectEvents(ctx, in)
}

// condenserDeps builds the condenser's collaborators for a run over log.
func (s *Service) condenserDeps(log ...condenser.Event) condenser.Deps {
	byID := make(map[string]condenser.Event, len(log))
	for _, e := range log {
		byID[e.ID] = e
	}
	return condenser.Deps{
		Summarizer: &summarizer{engine: s.engine, byID: byID},
		Attender:   &attender{engine: s.engine, byID: byID},
		Counter:    s.counter,
	}
}

// extractEvent converts a log event for the extractor.
func extractEvent(e condenser.Event) extract.Event {
	return extract.Event{ID: e.ID, Role: string(e.Role), Kind: string(e.Kind), Name: e.Name,
		Content: e.Content, OccurredAt: e.Time}
}

// searchText is what the raw tier's full-text index sees for an event: the
// speaker, the content, and an image caption when the client gave one in
// metadata (so "the photo of a sunset" finds the turn that shared it).
func searchText(name, content string, metadata map[string]any) string {
	var b strings.Builder
	if name != "" {
		b.WriteString(name)
		b.WriteString(": ")
	}
	b.WriteString(content)
	for _, key := range []string{"caption", "image_caption", "blip_caption"} {
		if c, ok := metadata[key].(string); ok && c != "" {
			b.WriteString(" [")
			b.WriteString(c)
			b.WriteString("]")
			break
		}
	}
	return b.String()
}

// utc returns t in UTC, or now when t is zero.
func utcOr(t time.Time, now func() time.Time) time.Time {
	if t.IsZero() {
		return now().UTC()
	}
	return t.UTC()
}

// ClassifiedEmbedder returns e with its failures classified as the
// engine's are everywhere in graphmem (engineError): an unreachable
// embedding server matches errs.ErrUnavailable, so a search that cannot
// embed its query answers 503 like any outage, not 500.
func ClassifiedEmbedder(e Embedder) Embedder { return classifiedEmbedder{e} }

type classifiedEmbedder struct{ e Embedder }

func (c classifiedEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	vecs, err := c.e.Embed(ctx, texts)
	if err != nil {
		return nil, engineError(err)
	}
	return vecs, nil
}
