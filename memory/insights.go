package memory

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/graphmem/graphmem/extract"
	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/jobs"
)

type insightsPayload struct {
	UserID string `json:"user_id"`
}

// insightWindow is how far back insight derivation reads, and how many
// raw events it takes at most; facts are all the user's current ones.
const (
	insightWindow    = 365 * 24 * time.Hour
	insightMaxEvents = 400
)

// GenerateInsights derives insights for a user now (the on-request path;
// the background path runs the same code after extraction). Regenerated
// insights supersede the ones they replace (same key, new text).
func (s *Service) GenerateInsights(ctx context.Context, tenant, userID string) ([]Insight, error) {
	if _, err := s.deriveInsights(ctx, tenant, userID); err != nil {
		return nil, err
	}
	return s.Insights(ctx, tenant, userID, InsightQuery{})
}

func (s *Service) handleInsights(ctx context.Context, job jobs.Job) (map[string]any, error) {
	var p insightsPayload
	if err := job.Decode(&p); err != nil {
		return nil, jobs.Permanent(err)
	}
	res, err := s.deriveInsights(ctx, job.Tenant, p.UserID)
	if err != nil {
		return nil, err
	}
	return map[string]any{"created": len(res.Created), "unchanged": len(res.Unchanged), "superseded": len(res.Superseded)}, nil
}

func (s *Service) deriveInsights(ctx context.Context, tenant, userID string) (graph.InsightWriteResult, error) {
	mat, err := s.insights.InsightMaterial(ctx, tenant, userID, s.now().Add(-insightWindow), insightMaxEvents)
	if err != nil {
		return graph.InsightWriteResult{}, err
	}
	in := extract.InsightInput{UserID: userID}
	for _, f := range mat.Facts {
		mf := extract.InsightFact{ID: f.ID, Subject: f.Subject, Predicate: f.Predicate, Object: f.Object,
			Sentence: f.Sentence, SessionIDs: f.SessionIDs, SourceEventIDs: f.SourceEventIDs}
		if !f.ValidFrom.IsZero() {
			vf := f.ValidFrom
			mf.ValidFrom = &vf
		}
		in.Facts = append(in.Facts, mf)
	}
	for _, r := range mat.Events {
		in.Events = append(in.Events, rawToExtract(r))
	}
	if len(in.Facts) == 0 && len(in.Events) == 0 {
		return graph.InsightWriteResult{}, nil
	}
	found, err := s.engine.Insights(ctx, in)
	if err != nil {
		return graph.InsightWriteResult{}, fmt.Errorf("derive insights: %w", engineError(err))
	}
	rows := make([]graph.InsightInput, 0, len(found))
	for _, ins := range found {
		rows = append(rows, graph.InsightInput{
			Key: insightKey(ins), Text: ins.Text, Confidence: ins.Confidence, SourceEventIDs: ins.SourceEventIDs,
			FactIDs: ins.FactIDs, EntityNames: ins.EntityNames, GeneratedBy: s.cfg.EngineName,
		})
	}
	if len(rows) == 0 {
		return graph.InsightWriteResult{}, nil
	}
	return s.insights.WriteInsights(ctx, tenant, userID, rows)
}

// insightKey identifies what an insight is about, so a regenerated insight
// on the same subject supersedes the old one instead of piling up: the
// engine's key when it gives one, else the entities it is about, else its
// normalized text.
func insightKey(ins extract.Insight) string {
	if ins.Key != "" {
		return jobKey("insight", ins.Key)
	}
	if len(ins.EntityNames) > 0 {
		names := make([]string, len(ins.EntityNames))
		for i, n := range ins.EntityNames {
			names[i] = strings.ToLower(strings.TrimSpace(n))
		}
		sort.Strings(names)
		return jobKey(append([]string{"insight-about"}, names...)...)
	}
	return jobKey("insight-text", strings.ToLower(strings.Join(strings.Fields(ins.Text), " ")))
}
