package main

import (
	"context"
	"fmt"
	"net/url"
	"sync"
	"sync/atomic"
	"time"
)

// LoCoMo ingestion as an agent would do it: for each conversation, each
// session is appended in one request and then closed with wait=true, so
// sessions are condensed and extracted in the order they happened.
// Conversations are different users and run concurrently, as separate
// agents would.

type locomoIngestReport struct {
	Users    int `json:"users"`
	Sessions int `json:"sessions"`
	Events   int `json:"events"`
	// Seconds is the wall time from the first append until every session
	// is closed and the tenant's job queue is empty (condensed, extracted,
	// insights derived). ExtractedSeconds, the pipeline's figure (issue 18),
	// stops when the knowledge is written and searchable.
	Seconds float64 `json:"seconds"`
	// ClosedSeconds is until the last close returned (before the drain).
	ClosedSeconds float64 `json:"closed_seconds"`
	// ExtractedSeconds is until no close or extraction job is pending or
	// running (knowledge written; insights may still be on their way).
	ExtractedSeconds float64 `json:"extracted_seconds"`
	// CPUms is the CPU time per turn of graphmem and of Neo4j from the first
	// append to the end of the drain (insights included).
	CPUms        map[string]float64 `json:"cpu_ms_per_turn,omitempty"`
	EventsPerSec float64            `json:"events_per_second"`
	Accepted202  int                `json:"close_answered_202"`
	AppendMS     latencySummary     `json:"append_ms"`
	CloseMS      latencySummary     `json:"close_wait_ms"`
	FailedJobs   []job              `json:"failed_jobs,omitempty"`
}

type latencySummary struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
	Max float64 `json:"max"`
}

func summarize(ms []float64) latencySummary {
	p := percentiles(ms, 50, 95, 100)
	return latencySummary{N: len(ms), P50: round4(p[0]), P95: round4(p[1]), Max: round4(p[2])}
}

func msSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }

// timedSessions collects per-request latencies from concurrent ingesters.
type timedSessions struct {
	mu                sync.Mutex
	appendMS, closeMS []float64
	accepted          int
}

func (ts *timedSessions) appendThenClose(ctx context.Context, c *client, userID, sessionID string, events []eventIn) error {
	t0 := time.Now()
	if err := c.appendEvents(ctx, userID, sessionID, events); err != nil {
		return fmt.Errorf("append %s: %w", sessionID, err)
	}
	a := msSince(t0)
	t1 := time.Now()
	accepted, err := c.closeSession(ctx, sessionID, 200*time.Millisecond)
	if err != nil {
		return fmt.Errorf("close %s: %w", sessionID, err)
	}
	ts.mu.Lock()
	ts.appendMS = append(ts.appendMS, a)
	ts.closeMS = append(ts.closeMS, msSince(t1))
	if accepted {
		ts.accepted++
	}
	ts.mu.Unlock()
	return nil
}

func ingestLoCoMo(ctx context.Context, c *client, convs []*conversation, cpu cpuProbe, p *progress) (*locomoIngestReport, error) {
	rep := &locomoIngestReport{Users: len(convs)}
	for _, cv := range convs {
		rep.Sessions += len(cv.Sessions)
		rep.Events += len(cv.Turns)
	}
	var doneSessions, doneEvents atomic.Int64
	stop := p.every("locomo ingest", func() string {
		return fmt.Sprintf("%d/%d sessions closed, %d/%d turns", doneSessions.Load(), rep.Sessions, doneEvents.Load(), rep.Events)
	})
	ts := &timedSessions{}
	start := time.Now()
	cpuStart := cpu.mark()
	errs := make(chan error, len(convs))
	var wg sync.WaitGroup
	for _, cv := range convs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, s := range cv.Sessions {
				if err := ts.appendThenClose(ctx, c, cv.UserID, s.ID, s.events()); err != nil {
					errs <- err
					return
				}
				doneSessions.Add(1)
				doneEvents.Add(int64(len(s.Turns)))
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		stop()
		return rep, err
	}
	rep.ClosedSeconds = round4(time.Since(start).Seconds())
	for _, kind := range []string{"session.close", "extract"} {
		for _, st := range []string{"pending", "running"} {
			if err := c.waitJobs(ctx, url.Values{"status": {st}, "kind": {kind}, "limit": {"1000"}}, 100*time.Millisecond); err != nil {
				stop()
				return rep, err
			}
		}
	}
	rep.ExtractedSeconds = round4(time.Since(start).Seconds())
	if err := c.drain(ctx, 200*time.Millisecond); err != nil {
		stop()
		return rep, err
	}
	stop()
	rep.Seconds = round4(time.Since(start).Seconds())
	rep.CPUms = cpu.perUnit(cpuStart, rep.Events)
	rep.EventsPerSec = round4(float64(rep.Events) / rep.Seconds)
	rep.AppendMS, rep.CloseMS, rep.Accepted202 = summarize(ts.appendMS), summarize(ts.closeMS), ts.accepted
	failed, err := c.failedJobs(ctx)
	if err != nil {
		return rep, err
	}
	rep.FailedJobs = failed
	p.Printf("locomo ingest: %d turns in %d sessions of %d users searchable in %.1fs (closes returned at %.1fs, extracted at %.1fs; CPU ms per turn %v; %d answered 202; %d failed jobs)",
		rep.Events, rep.Sessions, rep.Users, rep.Seconds, rep.ClosedSeconds, rep.ExtractedSeconds, rep.CPUms, rep.Accepted202, len(failed))
	return rep, nil
}
