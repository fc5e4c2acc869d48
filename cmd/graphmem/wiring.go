package main

import (
	"context"

	"github.com/graphmem/graphmem/condenser"
	"github.com/graphmem/graphmem/memory"
	"github.com/graphmem/graphmem/retrieval"
)

// sessionViews lets retrieval's context assembly read memory's session
// views: the view (and the condensing it may take) is memory's, the
// packing into a prompt retrieval's; neither package knows the other.
type sessionViews struct{ svc *memory.Service }

func (v sessionViews) SessionView(ctx context.Context, tenant, sessionID, userID string, maxTokens int) ([]retrieval.ViewEvent, error) {
	view, err := v.svc.View(ctx, tenant, sessionID, memory.ViewInput{MaxTokens: maxTokens, UserID: userID})
	if err != nil {
		return nil, err
	}
	out := make([]retrieval.ViewEvent, len(view.Events))
	for i, e := range view.Events {
		out[i] = retrieval.ViewEvent{ID: e.ID, Seq: e.Seq, Kind: e.Kind, Role: e.Role, Name: e.Name, Content: e.Content,
			ToolCallID: e.ToolCallID, BatchID: e.BatchID, URL: e.URL, Metadata: e.Metadata, Tokens: e.Tokens,
			OccurredAt: e.OccurredAt, Summary: e.Kind == string(condenser.KindSummary)}
	}
	return out, nil
}
