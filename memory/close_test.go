package memory

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/graphmem/graphmem/errs"
	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/jobs"
)

// Closing schedules one close job per state of the session: closing twice
// (or a sweep racing a client) adds nothing, new events make a new job.
func TestCloseSchedulesOneCloseJobPerSessionState(t *testing.T) {
	t.Parallel()
	s, store, _ := newTestService(t)
	store.addSession(t, "s1", "alice", 4)
	store.activeCounts = []int{1}
	out, err := s.Close(t.Context(), "t1", "s1", false)
	if err != nil {
		t.Fatal(err)
	}
	if out.Status != graph.SessionClosed || out.Done || store.sessions["s1"].Status != graph.SessionClosed {
		t.Fatalf("close = %+v, session %s", out, store.sessions["s1"].Status)
	}
	closes := store.jobsOf(JobCloseSession)
	var p closePayload
	if len(closes) != 1 || closes[0].Key != jobKey("s1", "4") || closes[0].UserID != "alice" ||
		*mustDecode(t, closes[0].Payload, &p).LastSeq != 4 || p.SessionID != "s1" {
		t.Fatalf("close jobs %+v (payload %+v)", closes, p)
	}
	if len(out.Jobs) != 1 || out.Jobs[0].ID != closes[0].ID || out.Jobs[0].Kind != JobCloseSession || out.Jobs[0].Status != graph.JobPending {
		t.Fatalf("close lists jobs %+v", out.Jobs)
	}

	// Again: no active job left (the fake counts 0 now), nothing new.
	again, err := s.Close(t.Context(), "t1", "s1", false)
	if err != nil || !again.Done || len(store.jobsOf(JobCloseSession)) != 1 {
		t.Fatalf("second close = %+v, %v; close jobs %+v", again, err, store.jobsOf(JobCloseSession))
	}

	// An append reopens the session; its next close covers the new event.
	if _, err := s.Append(t.Context(), "t1", "s1", AppendInput{UserID: "alice", Events: []NewEvent{
		{Kind: "message", Role: "user", Content: "one more thing"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Close(t.Context(), "t1", "s1", false); err != nil {
		t.Fatal(err)
	}
	closes = store.jobsOf(JobCloseSession)
	if len(closes) != 2 || closes[1].Key != jobKey("s1", "5") {
		t.Fatalf("close after reopening: %+v", closes)
	}
}

// With wait, Close returns once two consecutive counts see no active job:
// under read-committed reads one zero can be a count taken between a job's
// completion and its follow-up's enqueue.
func TestCloseWaitTrustsOnlyTwoZeroCountsInARow(t *testing.T) {
	t.Parallel()
	s, store, _ := newTestService(t)
	store.addSession(t, "s1", "alice", 4)
	store.activeCounts = []int{2, 0, 1, 0, 0}
	out, err := s.Close(t.Context(), "t1", "s1", true)
	if err != nil {
		t.Fatal(err)
	}
	if !out.Done || store.countCalls != 5 {
		t.Fatalf("done %v after %d counts, want true after 5", out.Done, store.countCalls)
	}
}

// A job end recorded through the service's queue wakes a waiting close at
// once: with the counts answering "1 active" four times the backoff alone
// needs 50+100+200+400 ms; four job ends make it return far sooner.
func TestCloseWaitWakesOnJobEndsRecordedByLocalWorkers(t *testing.T) {
	t.Parallel()
	s, store, _ := newTestService(t)
	store.addSession(t, "s1", "alice", 4)
	store.mu.Lock()
	store.activeCounts = []int{1, 1, 1, 1}
	store.mu.Unlock()
	q := s.JobQueue(&fakeQueue{claimed: []graph.Job{{Tenant: "t1", ID: "j", SessionID: "s1"}, {Tenant: "t1", ID: "other", SessionID: "s2"}}})
	stop := make(chan struct{})
	defer close(stop)
	go func() { // a worker finishing a job every 10 ms
		for {
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
				// The job of session s1 is claimed, then ends; another
				// session's job ending must not be what wakes the close.
				if _, err := q.ClaimJobs(context.Background(), "w", jobs.ClaimFilter{}, 2, time.Second); err != nil {
					t.Error(err)
				}
				_ = q.CompleteJob(context.Background(), "t1", "j", "w", nil)
			}
		}
	}()
	started := time.Now()
	out, err := s.Close(t.Context(), "t1", "s1", true)
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(started); !out.Done || took > 500*time.Millisecond {
		t.Fatalf("done %v after %v, want done well before the 750 ms of backoff", out.Done, took)
	}
}

func TestCloseWaitGivesUpAtTheDeadlineAndStillListsTheJobs(t *testing.T) {
	t.Parallel()
	s, store, _ := newTestService(t)
	store.addSession(t, "s1", "alice", 4)
	for range 100 {
		store.activeCounts = append(store.activeCounts, 1)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	out, err := s.Close(ctx, "t1", "s1", true)
	if err != nil {
		t.Fatal(err)
	}
	if out.Done || len(out.Jobs) != 1 {
		t.Fatalf("close past its deadline = %+v", out)
	}
}

func TestCloseOfAnUnknownSessionIsNotFound(t *testing.T) {
	t.Parallel()
	s, store, _ := newTestService(t)
	_, err := s.Close(t.Context(), "t1", "nope", false)
	if nf, ok := errors.AsType[*errs.NotFoundError](err); !ok || nf.What != `session "nope"` || len(store.jobs) != 0 {
		t.Fatalf("close of an unknown session: %v, jobs %v", err, store.jobs)
	}
}

// The close job summarizes the events no condensation covered, up to the
// close (later events belong to the next close), folding in the newest
// condensation's summary, and schedules the extraction of every window not
// extracted yet. Run again (a retry), it changes nothing.
func TestCloseJobSummarizesUpToTheCloseAndSchedulesEveryWindow(t *testing.T) {
	t.Parallel()
	s, store, engine := newTestService(t)
	store.addSession(t, "s1", "alice", 30)
	view, err := s.View(t.Context(), "t1", "s1", ViewInput{MaxEvents: 10})
	if err != nil || len(view.NewCondensations) != 1 {
		t.Fatalf("view: %v, %+v", err, view.NewCondensations)
	}
	cond := view.NewCondensations[0]
	if _, err := s.Close(t.Context(), "t1", "s1", false); err != nil {
		t.Fatal(err)
	}
	// A close job for the first events only: m1 and m2 are uncovered and
	// within it; m3 and m30 (uncovered too) came after it.
	job := jobs.Job{Tenant: "t1", ID: "session.close:9", Kind: JobCloseSession, SessionID: "s1", UserID: "alice",
		Payload: mustJSON(closePayload{SessionID: "s1", LastSeq: new(int64(2))})}
	res, err := s.handleCloseSession(t.Context(), job)
	if err != nil {
		t.Fatal(err)
	}
	last := engine.summaries[len(engine.summaries)-1]
	var summarized []string
	for _, e := range last.Events {
		summarized = append(summarized, e.ID)
	}
	if !slices.Equal(summarized, []string{"m1", "m2"}) || last.PreviousSummary != cond.Summary {
		t.Fatalf("session summary over %v with previous %q", summarized, last.PreviousSummary)
	}
	nodes := store.nodes["s1"]
	sum := nodes[len(nodes)-1]
	if sum.Kind != graph.EventKindSessionSummary || sum.ID != res["summary_id"] || !slices.Equal(sum.CoveredIDs, []string{"m1", "m2"}) ||
		res["summarized_events"] != 2 || res["extractions_scheduled"] != 2 {
		t.Fatalf("result %v, summary node %+v", res, sum)
	}
	var windows []string
	for _, j := range store.jobsOf(JobExtract) {
		var p extractPayload
		windows = append(windows, mustDecode(t, j.Payload, &p).EventID)
	}
	if !slices.Equal(windows, []string{cond.ID, sum.ID}) {
		t.Fatalf("extraction jobs for %v, want the condensation's and the summary's", windows)
	}

	jobsBefore := len(store.jobs)
	res, err = s.handleCloseSession(t.Context(), job)
	if err != nil || res["summarized_events"] != 0 || len(store.jobs) != jobsBefore || len(store.nodes["s1"]) != len(nodes) {
		t.Fatalf("the retried close job changed something: %v, %v, %d jobs (was %d)", res, err, len(store.jobs), jobsBefore)
	}
}
