package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// verdict is what the read-back found.
type verdict struct {
	Sessions           int     `json:"sessions"`
	SessionsClosed     int     `json:"sessions_closed"`
	Acknowledged       int     `json:"acknowledged"`
	Found              int     `json:"found"`
	Lost               int     `json:"lost"`
	Duplicates         int     `json:"duplicates"`
	ContentMismatches  int     `json:"content_mismatches"`
	SessionsJobsDone   int     `json:"sessions_jobs_done"`
	JobsDone           int     `json:"jobs_done"`
	JobsFailed         int     `json:"jobs_failed"`
	JobsUnfinished     int     `json:"jobs_unfinished"`
	JobsRetried        int     `json:"jobs_retried"`    // done on attempt > 1: re-claimed after a crash or outage
	JobsDoneTwice      int     `json:"jobs_done_twice"` // session summaries covering events another summary covers
	DuplicateFacts     int     `json:"duplicate_facts"` // current facts stated twice for one user
	ReadErrors         int     `json:"read_errors"`
	JobsDrainedSeconds float64 `json:"jobs_drained_seconds"`
}

type jobView struct {
	ID        string `json:"id"`
	Kind      string `json:"kind"`
	Status    string `json:"status"`
	Attempts  int    `json:"attempts"`
	SessionID string `json:"session_id"`
	LastError string `json:"last_error"`
}

func getJSON[T any](ctx context.Context, a *api, u string) (T, error) {
	var out T
	_, raw, err := a.untilAcked(ctx, http.MethodGet, u, nil, http.StatusOK)
	if err != nil {
		return out, err
	}
	return out, json.Unmarshal(raw, &out)
}

// waitJobsIdle polls the jobs of the ledger's sessions until none is
// pending or running, or timeout passes. Only this run's sessions count:
// the suite may share Neo4j (and the tenant) with other work.
func waitJobsIdle(ctx context.Context, a *api, base string, l *ledger, timeout time.Duration) (time.Duration, error) {
	started := time.Now()
	busy := map[string]bool{}
	for _, s := range l.all() {
		busy[s.ID] = true
	}
	for {
		for id := range busy {
			page, err := getJSON[struct{ Jobs []jobView }](ctx, a, base+"/v1/jobs?limit=1000&session_id="+url.QueryEscape(id))
			if err != nil {
				return 0, err
			}
			idle := true
			for _, j := range page.Jobs {
				idle = idle && j.Status != "pending" && j.Status != "running"
			}
			if idle {
				delete(busy, id)
			}
		}
		if len(busy) == 0 {
			return time.Since(started), nil
		}
		if time.Since(started) > timeout {
			return time.Since(started), fmt.Errorf("the jobs of %d sessions still pending or running after %s", len(busy), timeout)
		}
		time.Sleep(time.Second)
	}
}

// verify reads every session of the ledger back through the API.
func verify(ctx context.Context, a *api, base string, l *ledger) (verdict, []string) {
	var v verdict
	var problems []string
	note := func(format string, args ...any) {
		if len(problems) < 30 {
			problems = append(problems, fmt.Sprintf(format, args...))
		}
	}
	users := map[string]bool{}
	for _, s := range l.all() {
		v.Sessions++
		users[s.User] = true
		if s.Closed {
			v.SessionsClosed++
		}
		v.Acknowledged += len(s.Events)
		stored := map[string][]event{}
		after := 0
		for {
			page, err := getJSON[struct {
				Events []struct {
					event
					Seq int `json:"seq"`
				} `json:"events"`
				Next *int `json:"next_after_seq"`
			}](ctx, a, fmt.Sprintf("%s/v1/sessions/%s/events?include_forgotten=true&limit=1000&after_seq=%d", base, url.PathEscape(s.ID), after))
			if err != nil {
				v.ReadErrors++
				note("read events of %s: %v", s.ID, err)
				break
			}
			for _, e := range page.Events {
				stored[e.ID] = append(stored[e.ID], e.event)
			}
			if page.Next == nil {
				break
			}
			after = *page.Next
		}
		for _, want := range s.Events {
			got := stored[want.ID]
			switch {
			case len(got) == 0:
				v.Lost++
				note("lost: %s/%s", s.ID, want.ID)
				continue
			case len(got) > 1:
				v.Duplicates += len(got) - 1
				note("stored %d times: %s/%s", len(got), s.ID, want.ID)
			}
			v.Found++
			if got[0].Content != want.Content || got[0].Role != want.Role || got[0].Kind != want.Kind {
				v.ContentMismatches++
				note("content differs: %s/%s: %+v vs %+v", s.ID, want.ID, got[0], want)
			}
		}
		if !s.Closed {
			continue
		}
		page, err := getJSON[struct{ Jobs []jobView }](ctx, a, base+"/v1/jobs?limit=1000&session_id="+url.QueryEscape(s.ID))
		if err != nil {
			v.ReadErrors++
			note("jobs of %s: %v", s.ID, err)
			continue
		}
		allDone, closeDone := true, false
		for _, j := range page.Jobs {
			switch j.Status {
			case "done":
				v.JobsDone++
				if j.Attempts > 1 {
					v.JobsRetried++
				}
				closeDone = closeDone || j.Kind == "session.close"
			case "failed":
				v.JobsFailed++
				allDone = false
				note("job %s (%s) of %s failed: %s", j.ID, j.Kind, s.ID, j.LastError)
			default:
				v.JobsUnfinished++
				allDone = false
			}
		}
		if allDone && closeDone {
			v.SessionsJobsDone++
		} else if allDone {
			note("session %s: closed but no session.close job done (%d jobs)", s.ID, len(page.Jobs))
		}
		// A close job run twice would summarize the same raw events twice.
		conds, err := getJSON[struct {
			Condensations []struct {
				Kind    string   `json:"kind"`
				Covered []string `json:"covered_event_ids"`
			} `json:"condensations"`
		}](ctx, a, base+"/v1/sessions/"+url.PathEscape(s.ID)+"/condensations")
		if err != nil {
			v.ReadErrors++
			note("condensations of %s: %v", s.ID, err)
			continue
		}
		covered := map[string]bool{}
		for _, c := range conds.Condensations {
			if c.Kind != "session_summary" {
				continue
			}
			overlap := false
			for _, id := range c.Covered {
				overlap = overlap || covered[id]
				covered[id] = true
			}
			if overlap {
				v.JobsDoneTwice++
				note("session %s: a second summary covers events already summarized", s.ID)
			}
		}
	}
	// An extraction run twice would state the same current fact twice.
	for user := range users {
		facts, err := getJSON[struct {
			Facts []struct {
				SubjectID string `json:"subject_id"`
				Predicate string `json:"predicate"`
				ObjectID  string `json:"object_id"`
				Qualifier string `json:"qualifier"`
				Polarity  string `json:"polarity"`
			} `json:"facts"`
		}](ctx, a, base+"/v1/users/"+url.PathEscape(user)+"/facts?limit=1000")
		if err != nil {
			v.ReadErrors++
			note("facts of %s: %v", user, err)
			continue
		}
		seen := map[string]bool{}
		for _, f := range facts.Facts {
			k := strings.Join([]string{f.SubjectID, f.Predicate, f.ObjectID, f.Qualifier, f.Polarity}, "|")
			if seen[k] {
				v.DuplicateFacts++
				note("user %s: fact %s stated twice", user, k)
			}
			seen[k] = true
		}
	}
	return v, problems
}
