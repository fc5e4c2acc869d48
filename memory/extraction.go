package memory

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/graphmem/graphmem/errs"
	"github.com/graphmem/graphmem/extract"
	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/jobs"
	"github.com/graphmem/graphmem/ontology"
)

// extractPayload names the event-tier window an extraction job works on.
type extractPayload struct {
	EventID string `json:"event_id"`
}

// Insights are derived per user once its extractions go quiet: each
// extraction (re)schedules the user's insight job insightQuiet after it
// (a trailing debounce: a burst of windows yields one run, right after
// its last window, not one per window), and a burst that never goes quiet
// still gets a run insightMaxDelay after the job was scheduled.
// Extractions that finish while it runs schedule the next run. Knowledge
// (entities, facts) is searchable when its extraction ends; insights, the
// derived tier, follow about insightQuiet later. Before, the first
// extraction scheduled the run 10 s out: every close with wait that a
// client timed to "all jobs done" paid those 10 s, however short the burst.
const (
	insightQuiet    = 1500 * time.Millisecond
	insightMaxDelay = 30 * time.Second
)

// handleExtract is the JobExtract handler: the window's events and summary
// go through the engine (one LLM call when an LLM is configured), and the
// result is written to the graph with entity resolution and conflict
// handling. Writing the same result twice changes nothing, so a retried
// job is harmless.
func (s *Service) handleExtract(ctx context.Context, job jobs.Job) (map[string]any, error) {
	var p extractPayload
	if err := job.Decode(&p); err != nil {
		return nil, jobs.Permanent(err)
	}
	node, raws, err := s.windows.EventWindow(ctx, job.Tenant, p.EventID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, jobs.Permanent(err)
	}
	if err != nil {
		return nil, err
	}
	in := extract.Input{UserID: node.UserID, SessionID: node.SessionID, Summary: node.Summary}
	var observed time.Time
	for _, r := range raws {
		if r.Kind == graph.RawCondensationRequest {
			continue
		}
		if in.UserName == "" && r.Role == "user" && r.Name != "" {
			in.UserName = r.Name
		}
		in.Events = append(in.Events, rawToExtract(r))
		observed = r.OccurredAt
	}
	result := map[string]any{"events": len(in.Events)}
	if len(in.Events) > 0 {
		res, err := s.engine.Extract(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("extract window %s: %w", node.ID, engineError(err))
		}
		kw := knowledgeWrite(job.Tenant, node, in.UserName, observed, res)
		if err := s.embedEntityNames(ctx, node, &kw); err != nil {
			return nil, err
		}
		kr, err := s.knowledge.WriteKnowledge(ctx, kw)
		if err != nil {
			return nil, fmt.Errorf("write knowledge of window %s: %w", node.ID, err)
		}
		result["entities_created"] = len(kr.EntitiesCreated)
		result["facts_created"] = len(kr.FactsCreated)
		result["facts_superseded"] = len(kr.FactsSuperseded)
		result["conflicts"] = len(kr.ConflictsResolved) + len(kr.ConflictsOpened)
		result["extracted_by"] = res.Model
	}
	if err := s.windows.MarkExtracted(ctx, job.Tenant, node.ID, s.cfg.EngineName); err != nil {
		return nil, err
	}
	if _, err := s.enqueue(ctx, job.Tenant, graph.JobSpec{
		Kind: JobInsights, Key: jobKey(node.UserID, "insights"), Payload: insightsPayload{UserID: node.UserID},
		UserID: node.UserID, RunAfter: s.now().Add(insightQuiet), RequeueWhileRunning: true,
		Debounce: true, MaxDelay: insightMaxDelay,
	}); err != nil {
		s.log.Warn("schedule insights", "user", node.UserID, "error", err)
	}
	return result, nil
}

// knowledgeWrite converts an extraction result for the graph. Predicates
// are mapped through the ontology once more, so whatever an engine says
// reaches the graph only as a vocabulary type (the graph checks again).
func knowledgeWrite(tenant string, node graph.EventNode, userName string, observed time.Time, res extract.Result) graph.KnowledgeWrite {
	w := graph.KnowledgeWrite{
		Tenant: tenant, UserID: node.UserID, UserName: userName, SessionID: node.SessionID, EventID: node.ID,
		ObservedAt: observed, Extractor: res.Model, Mentions: res.Mentions,
	}
	for _, e := range res.Entities {
		w.Entities = append(w.Entities, graph.EntityInput{Key: e.Key, Name: e.Name, Type: e.Type, Aliases: e.Aliases, IsUser: e.IsUser})
	}
	for _, f := range res.Facts {
		pred, raw := ontology.Resolve(f.Predicate)
		if f.RawPredicate != "" {
			raw = f.RawPredicate
		}
		if pred.Name != ontology.Fallback {
			raw = ""
		}
		w.Facts = append(w.Facts, graph.FactInput{
			Subject: f.Subject, Predicate: pred.Name, RawPredicate: raw, Object: f.Object, Qualifier: f.Qualifier,
			Sentence: f.Sentence, Polarity: f.Polarity, Confidence: f.Confidence, Strength: f.Strength,
			ValidFrom: f.ValidFrom, ValidTo: f.ValidTo, SourceEventIDs: f.SourceEventIDs,
			Correction: f.Correction, Corrects: f.Corrects,
		})
	}
	return w
}

// embedEntityNames embeds the names of the entities a window mentions, for
// entity resolution by vector (GRAPHMEM_ENTITY_VECTORS). Turns, summaries
// and insights are embedded by the embedding lane, not here. Without an
// entity embedder it does nothing.
func (s *Service) embedEntityNames(ctx context.Context, node graph.EventNode, kw *graph.KnowledgeWrite) error {
	if s.embedder == nil || len(kw.Entities) == 0 {
		return nil
	}
	texts := make([]string, len(kw.Entities))
	for i, e := range kw.Entities {
		texts[i] = e.Name
	}
	vecs, err := s.embedder.Embed(ctx, texts)
	if err != nil {
		return fmt.Errorf("embed entity names of window %s: %w", node.ID, engineError(err))
	}
	if len(vecs) != len(texts) {
		return jobs.Permanent(fmt.Errorf("embed entity names of window %s: %d vectors for %d texts", node.ID, len(vecs), len(texts)))
	}
	for i := range kw.Entities {
		kw.Entities[i].Embedding = vecs[i]
	}
	return nil
}
