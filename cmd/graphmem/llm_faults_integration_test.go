//go:build integration

package main

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/graphmem/graphmem/graph/graphtest"
)

// The LLM faults of the reliability suite: a local fake OpenAI-compatible
// server (fakellm_test.go) answers a session's extraction with one kind of
// fault on every attempt. Transient faults (timeouts, 429 with
// Retry-After, 500s) are retried by the engine with backoff, honouring
// Retry-After, then by the job queue with its own backoff, and end failed
// with a readable reason after the last attempt; output that cannot be used
// (malformed JSON, JSON of the wrong shape) fails at once, since the same
// input would fail again. Either way nothing half-written reaches the graph
// (no entity, no fact of the user; every raw event intact), and a retry
// through the API extracts the window once the LLM behaves. Each kind
// prints one "llm-fault:" line.

const (
	faultJobAttempts  = 2
	faultHTTPAttempts = 4 // per job attempt: the engine's first try and its 3 retries
	faultJobBackoff   = 300 * time.Millisecond
	faultRetryAfter   = time.Second
)

func TestLLMFaults(t *testing.T) {
	sc := newScope()
	fake := newFakeLLM(t, sc.token)
	e := newLLME2E(t, fake, "GRAPHMEM_JOB_MAX_ATTEMPTS", "2", "GRAPHMEM_LLM_TIMEOUT", "1s",
		"GRAPHMEM_JOB_BACKOFF", faultJobBackoff.String(), "GRAPHMEM_WORKERS", "6")
	transient := faultJobAttempts * faultHTTPAttempts
	for _, tc := range []struct {
		name     string
		step     fakeStep
		steps    int    // scripted faulty answers; the rest answer valid
		attempts int    // job attempts before it fails for good
		reason   string // in last_error
	}{
		{"timeout", answerHang(), transient, faultJobAttempts, "timed out"},
		{"429_retry_after", answerStatus(http.StatusTooManyRequests).with("Retry-After", "1"), transient, faultJobAttempts, "429"},
		{"500", answerStatus(http.StatusInternalServerError), transient, faultJobAttempts, "500"},
		{"malformed_json", answerContent(`{"entities": [{"name": "Fjordline", "type": "Organiz`), 1, 1, "not valid JSON"},
		{"wrong_shape", answerContent(`{"entities": "Fjordline", "facts": 3}`), 1, 1, "does not match the schema"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			session, user := sc.id(tc.name), sc.id(tc.name, "user")
			match := sc.sessionMatch(session)
			events := messages(session, time.Now().UTC().Add(-time.Hour),
				"I work at Fjordline, the ferry company in Oslo.", "Great, what do you do there?")
			for range tc.steps {
				fake.Script(llmExtract, match, tc.step)
			}
			started := time.Now()
			mustCall(t, e, http.StatusCreated, http.MethodPost, "/v1/sessions/"+session+"/events", batch(user, events...))
			e.closeAndWait(t, session) // returns once the extraction has failed for good
			took := time.Since(started)

			jobs := usedJobs(t, e, "kind=extract&session_id="+session)
			if len(jobs) != 1 {
				t.Fatalf("want one extract job, got %+v", jobs)
			}
			job := jobs[0]
			if job.Status != "failed" || job.Attempts != tc.attempts || !strings.Contains(job.LastError, tc.reason) {
				t.Fatalf("want the extraction failed after %d attempts with last_error naming %q: %+v", tc.attempts, tc.reason, job.jobView)
			}
			calls := fake.Calls(llmExtract, match)
			if len(calls) != tc.steps {
				t.Fatalf("%d extraction requests, want %d", len(calls), tc.steps)
			}
			// Backoff: within a job attempt the engine waits between its
			// requests (at least Retry-After when the server sent one);
			// between job attempts the queue waits at least half its backoff.
			minGap, jobGap := time.Duration(0), time.Duration(0)
			for i := 1; i < len(calls); i++ {
				gap := calls[i].At.Sub(calls[i-1].At)
				if i%faultHTTPAttempts == 0 {
					jobGap = gap
					if gap < faultJobBackoff/2 {
						t.Fatalf("job attempt %d began %s after the last request of the one before, want at least %s", i/faultHTTPAttempts+1, gap, faultJobBackoff/2)
					}
					continue
				}
				if minGap == 0 || gap < minGap {
					minGap = gap
				}
			}
			if tc.name == "429_retry_after" && minGap < faultRetryAfter-50*time.Millisecond {
				t.Fatalf("Retry-After: 1 not honoured: requests %s apart", minGap)
			}

			// Nothing half-written: the user has no entity and no fact;
			// the session summary (a valid call) and every raw event stay.
			census := graphtest.CensusOf(graphtest.Census(t, e.Tenant), e.Tenant, user)
			if census["node:Entity"] != 0 || len(userFacts(t, e, user, true)) != 0 {
				t.Fatalf("a failed extraction wrote to the graph: %v", census)
			}
			if census["node:Raw"] != int64(len(events)) {
				t.Fatalf("raw events: %d stored, %d sent", census["node:Raw"], len(events))
			}
			checkNoEventLost(t, e, session, events)
			if nodes := eventNodes(t, e, session); len(nodes) != 1 || nodes[0].ExtractedAt != "" {
				t.Fatalf("want the session summary, not marked extracted: %+v", nodes)
			}

			// The script is used up: the fake answers valid, and a retry
			// through the API extracts the window.
			retried := decodeInto[jobView](t, mustCall(t, e, http.StatusOK, http.MethodPost, "/v1/jobs/"+url.PathEscape(job.ID)+"/retry", nil))
			if retried.ID != job.ID {
				t.Fatalf("retry answered another job: %+v", retried)
			}
			waitJobs(t, e, jobsQuery("kind", "extract", "session_id", session), 60*time.Second, "the retried extraction", allStatus("done"))
			checkFakeFact(t, fake, userFacts(t, e, user, false), "WORKS_AT", "Fjordline", session+"-1")
			if n := fake.Count(llmExtract, match); n != tc.steps+1 {
				t.Fatalf("%d extraction requests after the API retry, want %d", n, tc.steps+1)
			}
			reason := job.LastError
			for _, from := range []string{"invalid llm output", "llm unavailable"} {
				if i := strings.Index(reason, from); i >= 0 {
					reason = reason[i:] // past the window id
					break
				}
			}
			t.Logf("llm-fault: %-16s requests=%d job_attempts=%d min_gap=%s job_backoff=%s failed_after=%s graph_writes=0 retried_by_api=ok reason=%.110q",
				tc.name, len(calls), job.Attempts, minGap.Round(time.Millisecond), jobGap.Round(time.Millisecond), took.Round(time.Millisecond), reason)
		})
	}
}
