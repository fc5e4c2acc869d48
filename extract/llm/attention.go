package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/graphmem/graphmem/extract"
)

// attentionOutput is the LLMAttention answer: event ids, most important
// first.
type attentionOutput struct {
	IDs []string `json:"ids" description:"Event ids, most important first, each at most once."`
}

// attentionPrompt is the data of attention.tmpl.
type attentionPrompt struct {
	MaxKeep int
	Schema  string
	Events  []promptEvent
}

// SelectEvents asks, in one call, which events are worth keeping, most
// important first. The answer is validated: ids not among the events are
// dropped, duplicates removed, and the list capped at MaxKeep (when > 0).
// Ids may come back as strings or numbers; upstream asks for integers and
// models trained on it keep doing so. No events means no call.
func (l *Engine) SelectEvents(ctx context.Context, req extract.AttentionRequest) ([]string, error) {
	if len(req.Events) == 0 {
		return nil, nil
	}
	prompt, err := l.render("attention.tmpl", attentionPrompt{
		MaxKeep: req.MaxKeep,
		Schema:  l.schemaHint(l.schemas.attention),
		Events:  promptEvents(req.Events, l.cfg.MaxEventChars),
	})
	if err != nil {
		return nil, fmt.Errorf("select events: %w", err)
	}
	res, err := l.chat(ctx, "select events", openai.ChatCompletionRequest{
		Messages:       []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: prompt}},
		ResponseFormat: l.responseFormat("event_selection", l.schemas.attention),
	})
	if err != nil {
		return nil, err
	}
	ids, err := parseIDs(res.message.Content)
	if err != nil {
		return nil, fmt.Errorf("select events: %w: %w%s", extract.ErrInvalidOutput, err, cutOff(res.finishReason))
	}
	known := make(map[string]bool, len(req.Events))
	for _, e := range req.Events {
		known[e.ID] = true
	}
	seen := make(map[string]bool, len(ids))
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if !known[id] || seen[id] {
			continue
		}
		seen[id] = true
		out = append(out, id)
		if req.MaxKeep > 0 && len(out) == req.MaxKeep {
			break
		}
	}
	return out, nil
}

// parseIDs reads {"ids": [...]} with string or numeric elements.
func parseIDs(content string) ([]string, error) {
	payload := jsonPayload(content)
	if payload == "" {
		return nil, fmt.Errorf("output contains no JSON object")
	}
	dec := json.NewDecoder(strings.NewReader(payload))
	dec.UseNumber()
	var out map[string]any
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("output is not valid JSON: %w", err)
	}
	raw, ok := out["ids"]
	if !ok {
		return nil, fmt.Errorf("output does not match the schema: $.ids: required field missing")
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, fmt.Errorf("output does not match the schema: $.ids: want array, got %s", jsonKind(raw))
	}
	ids := make([]string, 0, len(list))
	for i, v := range list {
		switch t := v.(type) {
		case string:
			ids = append(ids, strings.TrimSpace(t))
		case json.Number:
			ids = append(ids, t.String())
		default:
			return nil, fmt.Errorf("output does not match the schema: $.ids[%d]: want string, got %s", i, jsonKind(v))
		}
	}
	return ids, nil
}

// cutOff explains a parse failure caused by the token limit.
func cutOff(reason openai.FinishReason) string {
	if reason == openai.FinishReasonLength {
		return " (the answer was cut off by the token limit)"
	}
	return ""
}
