package extract

import (
	"context"
	"fmt"
	"slices"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// llmInsightOutput is the structured answer of one insight call.
type llmInsightOutput struct {
	Insights []llmInsightItem `json:"insights" description:"Insights, strongest first."`
}

type llmInsightItem struct {
	Text           string   `json:"text" description:"The insight as one short sentence."`
	Confidence     *float64 `json:"confidence" required:"false" description:"0 to 1: how well the evidence supports it."`
	SourceEventIDs []string `json:"source_event_ids" required:"false" description:"Ids of the events it rests on."`
	EntityNames    []string `json:"entity_names" required:"false" description:"Names of the entities it is about."`
	FactIDs        []string `json:"fact_ids" required:"false" description:"Ids of the facts it rests on."`
}

// Insight limits. An insight the model is not asked to rate gets a middling
// confidence: it is a generalization, weaker than a stated fact.
const (
	llmMaxInsights              = 10
	llmDefaultInsightConfidence = 0.5
	llmMaxInsightText           = 500
)

// llmInsightsPrompt is the data of insights.tmpl.
type llmInsightsPrompt struct {
	MaxInsights int
	Schema      string
	Events      []llmPromptEvent
	Facts       []llmPromptEvent
}

// Insights derives higher-level insights from a batch of a user's events
// and current facts with one structured call. Every insight is validated
// against the input: event and fact ids it cites must be in the batch
// (unknown ones are dropped), the source events of cited facts are added to
// its own, and an insight left with no evidence is dropped. Entity names
// are kept only when they occur in the events or facts, so the graph never
// links an insight to an entity the model made up. An empty batch makes no
// call.
func (l *LLM) Insights(ctx context.Context, in InsightInput) ([]Insight, error) {
	if len(in.Events) == 0 && len(in.Facts) == 0 {
		return nil, nil
	}
	data := llmInsightsPrompt{
		MaxInsights: llmMaxInsights,
		Schema:      l.schemaHint(l.schemas.insights),
		Events:      llmPromptEvents(in.Events, l.cfg.MaxEventChars),
	}
	for _, f := range in.Facts {
		data.Facts = append(data.Facts, llmPromptEvent{ID: f.ID, Text: llmFactText(f)})
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
	var out llmInsightOutput
	if err := llmDecode(res.message.Content, l.schemas.insights, &out); err != nil {
		return nil, fmt.Errorf("insights: %w: %w%s", ErrInvalidOutput, err, llmCutOff(res.finishReason))
	}
	insights, dropped := llmValidateInsights(in, out)
	if len(dropped) > 0 {
		l.log.WarnContext(ctx, "llm insight items dropped or repaired",
			"model", res.model, "user", in.UserID, "count", len(dropped), "problems", llmFirst(dropped, 25))
	}
	return insights, nil
}

// llmFactText renders a fact for the insight prompt.
func llmFactText(f InsightFact) string {
	s := strings.TrimSpace(f.Sentence)
	if s == "" {
		s = f.Subject + " " + f.Predicate + " " + f.Object
	}
	if f.ValidFrom != nil {
		s += " (since " + f.ValidFrom.UTC().Format("2006-01-02") + ")"
	}
	return s
}

// llmValidateInsights keeps the insights whose evidence is in the input.
func llmValidateInsights(in InsightInput, out llmInsightOutput) ([]Insight, []string) {
	var problems []string
	note := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	events := make(map[string]bool, len(in.Events))
	var corpus strings.Builder
	for _, e := range in.Events {
		events[e.ID] = true
		corpus.WriteString(e.Content)
		corpus.WriteByte('\n')
	}
	facts := make(map[string]InsightFact, len(in.Facts))
	for _, f := range in.Facts {
		facts[f.ID] = f
		corpus.WriteString(f.Subject + "\n" + f.Object + "\n" + f.Sentence + "\n")
	}
	text := corpus.String()

	var result []Insight
	seenText := map[string]bool{}
	for i, raw := range out.Insights {
		ins := Insight{Text: llmClipRunes(strings.Join(strings.Fields(raw.Text), " "), llmMaxInsightText)}
		if ins.Text == "" {
			note("insight %d: empty text", i)
			continue
		}
		if seenText[llmFold(ins.Text)] {
			note("insight %d: duplicate", i)
			continue
		}
		ins.Confidence = llmUnit(raw.Confidence, llmDefaultInsightConfidence, func() { note("insight %d: confidence %v clamped", i, *raw.Confidence) })
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
			n = llmCleanName(n)
			switch {
			case n == "":
			case !llmMentionsName(text, n):
				note("insight %d: entity %q does not occur in the input", i, n)
			case !llmHasFold(ins.EntityNames, n):
				ins.EntityNames = append(ins.EntityNames, n)
			}
		}
		seenText[llmFold(ins.Text)] = true
		result = append(result, ins)
		if len(result) == llmMaxInsights {
			break
		}
	}
	return result, problems
}

func llmHasFold(list []string, v string) bool {
	for _, e := range list {
		if strings.EqualFold(e, v) {
			return true
		}
	}
	return false
}
