package memory

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/graphmem/graphmem/errs"
	"github.com/graphmem/graphmem/extract"
	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/jobs"
)

// CloseOutput reports a close request.
type CloseOutput struct {
	Status graph.SessionStatus
	// Done is set when every job of the session has finished.
	Done bool
	Jobs []Job
}

type closePayload struct {
	SessionID string `json:"session_id"`
	// LastSeq is the session's last event when it was closed: the job
	// summarizes up to it, and only while the session is still closed.
	LastSeq *int64 `json:"last_seq,omitempty"`
}

// Close closes a session and schedules what closing implies as a durable
// job: summarize the events no condensation covered, then extract every
// window of the session into the graph. With wait, it returns once the
// session has no pending or running job (or the request deadline passed,
// with Done false). Closing twice is harmless; appending reopens.
func (s *Service) Close(ctx context.Context, tenant, sessionID string, wait bool) (CloseOutput, error) {
	if _, err := s.closeAndSchedule(ctx, tenant, sessionID, time.Time{}); err != nil {
		return CloseOutput{}, err
	}
	out := CloseOutput{Status: graph.SessionClosed}
	if wait {
		out.Done = s.waitForSession(ctx, tenant, sessionID)
	} else {
		n, err := s.jobs.CountActiveJobs(ctx, tenant, sessionID)
		if err != nil {
			return out, err
		}
		out.Done = n == 0
	}
	jobs, err := s.jobs.ListJobs(context.WithoutCancel(ctx), tenant, graph.JobFilter{SessionID: sessionID, Limit: 50})
	if err != nil {
		return out, err
	}
	for _, j := range jobs {
		out.Jobs = append(out.Jobs, fromGraphJob(j))
	}
	return out, nil
}

// closeAndSchedule closes a session (only if untouched since idleBefore,
// when set) and enqueues its close job for the events up to the close. The
// job key includes the last seq: a session closed, reopened by new events
// and closed again gets a new job; closing twice (or a sweep racing a
// client's close) does not.
func (s *Service) closeAndSchedule(ctx context.Context, tenant, sessionID string, idleBefore time.Time) (graph.Session, error) {
	sess, err := s.sessions.CloseSession(ctx, tenant, sessionID, idleBefore)
	if err != nil {
		return sess, err
	}
	_, err = s.enqueue(ctx, tenant, graph.JobSpec{
		Kind: JobCloseSession, Key: jobKey(sessionID, fmt.Sprint(sess.LastSeq)),
		Payload: closePayload{SessionID: sessionID, LastSeq: &sess.LastSeq}, SessionID: sessionID, UserID: sess.UserID,
	})
	return sess, err
}

// waitForSession polls until the session has no active job and, when the
// embedding lane runs, every memory of it has its vector, or ctx ends.
func (s *Service) waitForSession(ctx context.Context, tenant, sessionID string) bool {
	if !s.waitForJobs(ctx, tenant, sessionID) {
		return false
	}
	if s.embedded == nil {
		return true
	}
	delay := 20 * time.Millisecond
	for {
		if done, err := s.embedded.SessionEmbedded(ctx, tenant, sessionID); err == nil && done {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(delay):
		}
		delay = min(delay*2, 250*time.Millisecond)
	}
}

// waitForJobs polls until the session has no active job or ctx ends. A
// job end recorded by this replica's workers (Service.JobQueue) counts
// again at once; the backoff covers jobs run by other replicas.
func (s *Service) waitForJobs(ctx context.Context, tenant, sessionID string) bool {
	delay := 50 * time.Millisecond
	zeros := 0
	defer s.finished.forget(tenant, sessionID)
	for {
		ended := s.finished.wait(tenant, sessionID) // before the count: an end during it is not missed
		n, err := s.jobs.CountActiveJobs(ctx, tenant, sessionID)
		switch {
		case err == nil && n == 0:
			// Neo4j reads are read-committed: one count can read the
			// pending jobs before a job's follow-up was enqueued and the
			// running ones after that job completed, and see none. A
			// second count, begun after the first ended, sees the
			// follow-up (enqueued before its parent completed).
			if zeros++; zeros == 2 {
				return true
			}
			delay = 20 * time.Millisecond
			ended = nil // the confirming count waits its 20 ms
		default:
			zeros = 0
		}
		select {
		case <-ctx.Done():
			return false
		case <-ended:
		case <-time.After(delay):
		}
		delay = min(delay*2, 500*time.Millisecond)
	}
}

// handleCloseSession is the JobCloseSession handler.
func (s *Service) handleCloseSession(ctx context.Context, job jobs.Job) (map[string]any, error) {
	var p closePayload
	if err := job.Decode(&p); err != nil {
		return nil, jobs.Permanent(err)
	}
	tenant := job.Tenant
	uncovered, err := s.windows.UncoveredEvents(ctx, tenant, p.SessionID)
	if err != nil {
		return nil, err
	}
	nodes, err := s.windows.ListEventNodes(ctx, tenant, p.SessionID)
	if err != nil {
		return nil, err
	}
	if p.LastSeq != nil {
		// Events appended after the close belong to the next close.
		uncovered = slices.DeleteFunc(uncovered, func(r graph.RawEvent) bool { return r.Seq > *p.LastSeq })
	}
	result := map[string]any{"summarized_events": 0}
	if len(uncovered) > 0 {
		node, err := s.summarizeSession(ctx, tenant, p.SessionID, job.ID, nodes, uncovered)
		switch {
		case errors.Is(err, errs.ErrConflict):
			// Reopened since: the conversation goes on, and its next close
			// summarizes the whole tail.
			result["summary_skipped"] = "the session received events after it was closed"
		case err != nil:
			return nil, err
		default:
			result["summary_id"] = node.ID
			result["summarized_events"] = len(node.CoveredIDs)
			nodes = append(nodes, node)
		}
	}
	// Reconcile: every window not extracted yet gets its job (dedupe by
	// node id), including condensations stored while building views.
	scheduled := 0
	for _, n := range nodes {
		if !n.ExtractedAt.IsZero() || len(n.CoveredIDs) == 0 {
			continue
		}
		if err := s.scheduleExtraction(ctx, tenant, p.SessionID, job.UserID, n.ID); err != nil {
			return nil, err
		}
		scheduled++
	}
	result["extractions_scheduled"] = scheduled
	return result, nil
}

// summarizeSession writes the session summary over the uncovered events,
// folding in the newest condensation summary of nodes (the session's
// event-tier nodes, in log order) so it reads as a whole. Its id derives
// from the job, so a retried job writes the same node.
func (s *Service) summarizeSession(ctx context.Context, tenant, sessionID, jobID string, nodes []graph.EventNode, events []graph.RawEvent) (graph.EventNode, error) {
	prev := ""
	for _, n := range nodes {
		if n.Kind == graph.EventKindCondensation && n.Summary != "" {
			prev = n.Summary // log order: the last one is the newest
		}
	}
	req := extract.SummaryRequest{Style: extract.StyleSections, PreviousSummary: prev}
	cover := make([]string, 0, len(events))
	for _, r := range events {
		req.Events = append(req.Events, rawToExtract(r))
		cover = append(cover, r.ID)
	}
	started := time.Now()
	sum, err := s.engine.Summarize(ctx, req)
	if err != nil {
		return graph.EventNode{}, fmt.Errorf("summarize session: %w", engineError(err))
	}
	return s.windows.WriteSessionSummary(ctx, tenant, sessionID, graph.NewEventNode{
		ID: "sum_" + jobKey(jobID), Kind: graph.EventKindSessionSummary, Summary: sum.Text,
		SummarizerName: sum.Model, Cover: cover, EventsBefore: len(events), LLMCalls: s.llmCalls(),
		DurationMS: time.Since(started).Milliseconds(),
	})
}

// scheduleExtraction enqueues the extraction of one window.
func (s *Service) scheduleExtraction(ctx context.Context, tenant, sessionID, userID, eventID string) error {
	_, err := s.enqueue(ctx, tenant, graph.JobSpec{
		Kind: JobExtract, Key: jobKey(eventID), Payload: extractPayload{EventID: eventID},
		SessionID: sessionID, UserID: userID,
	})
	return err
}

// llmCalls is 1 when the engine is an LLM (one summary call), 0 offline.
func (s *Service) llmCalls() int {
	if s.cfg.EngineIsLLM {
		return 1
	}
	return 0
}

// engineError classifies engine failures for the worker: invalid LLM
// output fails the job for good (retrying the same input will not help),
// an unavailable LLM is retried later.
func engineError(err error) error {
	if errors.Is(err, extract.ErrInvalidOutput) {
		return jobs.Permanent(err)
	}
	if errors.Is(err, extract.ErrUnavailable) {
		return engineUnavailable{err}
	}
	return err
}

// engineUnavailable is an LLM outage: it matches errs.ErrUnavailable (retried,
// 503) but reads as the engine's own message, so an operator looking at a
// job's last_error is sent to the LLM, not to Neo4j.
type engineUnavailable struct{ err error }

func (e engineUnavailable) Error() string   { return e.err.Error() }
func (e engineUnavailable) Unwrap() []error { return []error{e.err, errs.ErrUnavailable} }

func rawToExtract(r graph.RawEvent) extract.Event {
	return extract.Event{ID: r.ID, Role: r.Role, Kind: string(r.Kind), Name: r.Name, Content: r.Content, OccurredAt: r.OccurredAt}
}
