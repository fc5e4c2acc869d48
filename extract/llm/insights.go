package llm

import (
	"context"
	"fmt"
	"slices"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/graphmem/graphmem/extract"
)

// insightOutput is the structured answer of one insight call.
type insightOutput struct {
	Insights []insightItem `json:"insights" description:"Insights, strongest first."`
}

type insightItem struct {
	Text           string   `json:"text" description:"The insight as one short sentence."`
	Confidence     *float64 `json:"confidence" required:"false" description:"0 to 1: how well the evidence supports it."`
	SourceEventIDs []string `json:"source_event_ids" required:"false" description:"Ids of the events it rests on."`
	EntityNames    []string `json:"entity_names" required:"false" description:"Names of the entities it is about."`
	FactIDs        []string `json:"fact_ids" required:"false" description:"Ids of the facts it rests on."`
}

// Insight limits. An insight the model is not asked to rate gets a middling
// confidence: it is a generalization, weaker than a stated fact.
const (
	maxInsights              = 10
	defaultInsightConfidence = 0.5
	maxInsightText           = 500
)

// insightsPrompt is the data of insights.tmpl.
type insightsPrompt struct {
	MaxInsights int
	Schema      string
	Events      []promptEvent
	Facts       []promptEvent
}

// Insights derives higher-level insights from a batch of a user's events
// and current facts with one structured call. Every insight is validated
// against the input: event and fact ids it cites must be in the batch
// (unknown ones are dropped), the source events of cited facts are added to
// its own, and an insight left with no evidence is dropped. Entity names
// are kept only when they occur in the events or facts, so the graph never
// links an insight to an entity the model made up. An empty batch makes no
// call.
func (l *Engine) Insights(ctx context.Context, in extract.InsightInput) ([]extract.Insight, error) {
	if len(in.Events) == 0 && len(in.Facts) == 0 {
		return nil, nil
	}
	data := insightsPrompt{
		MaxInsights: maxInsights,
		Schema:      l.schemaHint(l.schemas.insights),
		Events:      promptEvents(in.Events, l.cfg.MaxEventChars),
	}
	for _, f := range in.Facts {
		data.Facts = append(data.Facts, promptEvent{ID: f.ID, Text: factText(f)})
	}
	system, err := l.render("insights_system", data)
	if err != nil {
		return nil, fmt.Errorf("insights: %w", err)
	}
	user, err := l.render("insights_user", data)
	if err != nil {
		return nil, fmt.Errorf("insights: %w", err)
	}
	res, err := l.chat(ctx, "insights", openai.ChatCompletionRequest{
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: system},
			{Role: openai.ChatMessageRoleUser, Content: user},
		},
		ResponseFormat: l.responseFormat("graphmem_insights", l.schemas.insights),
	})
	if err != nil {
		return nil, err
	}
	var out insightOutput
	if err := decode(res.message.Content, l.schemas.insights, &out); err != nil {
		return nil, fmt.Errorf("insights: %w: %w%s", extract.ErrInvalidOutput, err, cutOff(res.finishReason))
	}
	insights, dropped := validateInsights(in, out)
	if len(dropped) > 0 {
		l.log.WarnContext(ctx, "llm insight items dropped or repaired",
			"model", res.model, "user", in.UserID, "count", len(dropped), "problems", firstN(dropped, 25))
	}
	return insights, nil
}

// factText renders a fact for the insight prompt.
func factText(f extract.InsightFact) string {
	s := strings.TrimSpace(f.Sentence)
	if s == "" {
		s = f.Subject + " " + f.Predicate + " " + f.Object
	}
	if f.ValidFrom != nil {
		s += " (since " + f.ValidFrom.UTC().Format("2006-01-02") + ")"
	}
	return s
}

// validateInsights keeps the insights whose evidence is in the input.
func validateInsights(in extract.InsightInput, out insightOutput) ([]extract.Insight, []string) {
	var problems []string
	note := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	events := make(map[string]bool, len(in.Events))
	var corpus strings.Builder
	for _, e := range in.Events {
		events[e.ID] = true
		corpus.WriteString(e.Content)
		corpus.WriteByte('\n')
	}
	facts := make(map[string]extract.InsightFact, len(in.Facts))
	for _, f := range in.Facts {
		facts[f.ID] = f
		corpus.WriteString(f.Subject + "\n" + f.Object + "\n" + f.Sentence + "\n")
	}
	text := corpus.String()

	var result []extract.Insight
	seenText := map[string]bool{}
	for i, raw := range out.Insights {
		ins := extract.Insight{Text: clipRunes(strings.Join(strings.Fields(raw.Text), " "), maxInsightText)}
		if ins.Text == "" {
			note("insight %d: empty text", i)
			continue
		}
		if seenText[fold(ins.Text)] {
			note("insight %d: duplicate", i)
			continue
		}
		ins.Confidence = unit(raw.Confidence, defaultInsightConfidence, func() { note("insight %d: confidence %v clamped", i, *raw.Confidence) })
		addEvent := func(id string) {
			if !slices.Contains(ins.SourceEventIDs, id) {
				ins.SourceEventIDs = append(ins.SourceEventIDs, id)
			}
		}
		for _, id := range raw.SourceEventIDs {
			id = strings.TrimSpace(id)
			if !events[id] {
				note("insight %d: unknown source event id %q dropped", i, id)
				continue
			}
			addEvent(id)
		}
		for _, id := range raw.FactIDs {
			id = strings.TrimSpace(id)
			f, ok := facts[id]
			if !ok {
				note("insight %d: unknown fact id %q dropped", i, id)
				continue
			}
			if !slices.Contains(ins.FactIDs, id) {
				ins.FactIDs = append(ins.FactIDs, id)
			}
			for _, src := range f.SourceEventIDs {
				addEvent(src)
			}
		}
		if len(ins.SourceEventIDs) == 0 && len(ins.FactIDs) == 0 {
			note("insight %d: no evidence in the input", i)
			continue
		}
		for _, n := range raw.EntityNames {
			n = cleanName(n)
			switch {
			case n == "":
			case !mentionsName(text, n):
				note("insight %d: entity %q does not occur in the input", i, n)
			case !hasFold(ins.EntityNames, n):
				ins.EntityNames = append(ins.EntityNames, n)
			}
		}
		seenText[fold(ins.Text)] = true
		result = append(result, ins)
		if len(result) == maxInsights {
			break
		}
	}
	return result, problems
}

func hasFold(list []string, v string) bool {
	for _, e := range list {
		if strings.EqualFold(e, v) {
			return true
		}
	}
	return false
}
