package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"sync"
	"time"
)

// The harness is a plain HTTP client of graphmem's public API, nothing
// more: what it measures is what an agent would get.

type eventIn struct {
	ID         string         `json:"id,omitempty"`
	Kind       string         `json:"kind"`
	Role       string         `json:"role,omitempty"`
	Name       string         `json:"name,omitempty"`
	Content    string         `json:"content"`
	OccurredAt string         `json:"occurred_at,omitempty"`
	Metadata   map[string]any `json:"metadata,omitempty"`
}

type appendRequest struct {
	UserID string    `json:"user_id"`
	Events []eventIn `json:"events"`
}

type searchRequest struct {
	UserID         string `json:"user_id"`
	Query          string `json:"query"`
	Limit          int    `json:"limit,omitempty"`
	IncludeHistory bool   `json:"include_history,omitempty"`
}

type searchResult struct {
	ID             string     `json:"id"`
	Kind           string     `json:"kind"`
	Text           string     `json:"text"`
	Score          float64    `json:"score"`
	ScoreParts     scoreParts `json:"score_parts"`
	Status         string     `json:"status"`
	SourceEventIDs []string   `json:"source_event_ids"`
	SessionID      string     `json:"session_id"`
}

// scoreParts are the signals search fused; Vector > 0 shows the result was
// found or lifted by vector similarity, i.e. the server's vectors are on.
type scoreParts struct {
	FullText float64 `json:"fulltext"`
	Vector   float64 `json:"vector"`
	Graph    float64 `json:"graph"`
}

// vectorSeen reports whether any result carries a vector signal.
func vectorSeen(results []searchResult) bool {
	for _, r := range results {
		if r.ScoreParts.Vector > 0 {
			return true
		}
	}
	return false
}

type searchResponse struct {
	Results []searchResult `json:"results"`
	TookMS  float64        `json:"took_ms"`
}

type job struct {
	ID        string `json:"id"`
	Kind      string `json:"kind"`
	Status    string `json:"status"`
	SessionID string `json:"session_id"`
	Attempts  int    `json:"attempts"`
	LastError string `json:"last_error"`
}

type preference struct {
	Object   string `json:"object"`
	Polarity string `json:"polarity"`
	Status   string `json:"status"`
	Fact     string `json:"fact"`
}

// apiError is a non-2xx answer, with the problem+json detail when given.
type apiError struct {
	Status int
	Title  string
	Detail string
}

func (e *apiError) Error() string {
	return fmt.Sprintf("HTTP %d %s: %s", e.Status, e.Title, e.Detail)
}

// endpointStats counts what each endpoint answered, so 5xx and slow
// endpoints show up in the report even when the harness carried on.
type endpointStats struct {
	Requests  int     `json:"requests"`
	Status4xx int     `json:"status_4xx"`
	Status5xx int     `json:"status_5xx"`
	Transport int     `json:"transport_errors"`
	TotalMS   float64 `json:"total_ms"`
	MaxMS     float64 `json:"max_ms"`
}

type client struct {
	base string
	// key is the API key sent as a bearer token (empty: none), which
	// selects the tenant when the server has keys.
	key  string
	http *http.Client

	mu    sync.Mutex
	stats map[string]*endpointStats
	// lastErrors keeps a few 5xx bodies for the report.
	lastErrors []string
}

func newClient(base, key string, timeout time.Duration) *client {
	tr := &http.Transport{MaxIdleConns: 128, MaxIdleConnsPerHost: 128, IdleConnTimeout: time.Minute}
	return &client{base: base, key: key, http: &http.Client{Transport: tr, Timeout: timeout}, stats: map[string]*endpointStats{}}
}

func (c *client) record(endpoint string, status int, d time.Duration, transport bool, body string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats[endpoint]
	if s == nil {
		s = &endpointStats{}
		c.stats[endpoint] = s
	}
	ms := float64(d.Microseconds()) / 1000
	s.Requests++
	s.TotalMS += ms
	s.MaxMS = max(s.MaxMS, ms)
	switch {
	case transport:
		s.Transport++
	case status >= 500:
		s.Status5xx++
		if len(c.lastErrors) < 20 {
			c.lastErrors = append(c.lastErrors, fmt.Sprintf("%s: %d %s", endpoint, status, truncate(body, 300)))
		}
	case status >= 400:
		s.Status4xx++
	}
}

// snapshot copies the per-endpoint counters, sorted by name.
func (c *client) snapshot() (map[string]endpointStats, []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]endpointStats, len(c.stats))
	for k, v := range c.stats {
		s := *v
		s.TotalMS = round4(s.TotalMS)
		out[k] = s
	}
	return out, append([]string(nil), c.lastErrors...)
}

// call sends one request; endpoint names it in the stats. A non-2xx answer
// is an *apiError; out is decoded from 2xx bodies when non-nil.
func (c *client) call(ctx context.Context, endpoint, method, path string, in, out any) (int, error) {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return 0, err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return 0, err
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		c.record(endpoint, 0, time.Since(start), true, "")
		return 0, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	c.record(endpoint, resp.StatusCode, time.Since(start), err != nil, string(raw))
	if err != nil {
		return resp.StatusCode, fmt.Errorf("%s %s: read body: %w", method, path, err)
	}
	if resp.StatusCode >= 300 {
		var p struct{ Title, Detail string }
		_ = json.Unmarshal(raw, &p)
		if p.Detail == "" {
			p.Detail = truncate(string(raw), 300)
		}
		return resp.StatusCode, fmt.Errorf("%s %s: %w", method, path, &apiError{Status: resp.StatusCode, Title: p.Title, Detail: p.Detail})
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			return resp.StatusCode, fmt.Errorf("%s %s: decode: %w", method, path, err)
		}
	}
	return resp.StatusCode, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func (c *client) appendEvents(ctx context.Context, userID, sessionID string, events []eventIn) error {
	_, err := c.call(ctx, "append", http.MethodPost, "/v1/sessions/"+url.PathEscape(sessionID)+"/events",
		appendRequest{UserID: userID, Events: events}, nil)
	return err
}

func (c *client) search(ctx context.Context, req searchRequest) (searchResponse, error) {
	var out searchResponse
	_, err := c.call(ctx, "search", http.MethodPost, "/v1/search", req, &out)
	return out, err
}

func (c *client) preferences(ctx context.Context, userID string) ([]preference, error) {
	var out struct {
		Preferences []preference `json:"preferences"`
	}
	_, err := c.call(ctx, "preferences", http.MethodGet, "/v1/users/"+url.PathEscape(userID)+"/preferences", nil, &out)
	return out.Preferences, err
}

type fact struct {
	ID     string `json:"id"`
	Fact   string `json:"fact"`
	Status string `json:"status"`
}

// factHistory lists a user's facts, superseded ones included.
func (c *client) factHistory(ctx context.Context, userID string) ([]fact, error) {
	var out struct {
		Facts []fact `json:"facts"`
	}
	_, err := c.call(ctx, "facts", http.MethodGet, "/v1/users/"+url.PathEscape(userID)+"/facts?include_history=true&limit=1000", nil, &out)
	return out.Facts, err
}

func (c *client) jobs(ctx context.Context, query url.Values) ([]job, error) {
	var out struct {
		Jobs []job `json:"jobs"`
	}
	_, err := c.call(ctx, "jobs", http.MethodGet, "/v1/jobs?"+query.Encode(), nil, &out)
	return out.Jobs, err
}

// closeSession closes a session with wait=true and, when graphmem answers
// 202 (its deadline passed first), polls the session's jobs until none is
// pending or running. It reports whether a 202 was seen.
func (c *client) closeSession(ctx context.Context, sessionID string, poll time.Duration) (accepted bool, err error) {
	status, err := c.call(ctx, "close", http.MethodPost, "/v1/sessions/"+url.PathEscape(sessionID)+"/close?wait=true", nil, nil)
	if err != nil {
		return false, err
	}
	if status == http.StatusOK {
		return false, nil
	}
	return true, c.waitJobs(ctx, url.Values{"session_id": {sessionID}, "limit": {"1000"}}, poll)
}

// waitJobs polls /v1/jobs with query until no listed job is pending or
// running.
func (c *client) waitJobs(ctx context.Context, query url.Values, poll time.Duration) error {
	for {
		jobs, err := c.jobs(ctx, query)
		if err != nil {
			return err
		}
		busy := false
		for _, j := range jobs {
			if j.Status == "pending" || j.Status == "running" {
				busy = true
				break
			}
		}
		if !busy {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for jobs %s: %w", query.Encode(), ctx.Err())
		case <-time.After(poll):
		}
	}
}

// drain waits until the tenant has no pending or running job at all
// (insight jobs are per user, not per session).
func (c *client) drain(ctx context.Context, poll time.Duration) error {
	for _, st := range []string{"pending", "running"} {
		if err := c.waitJobs(ctx, url.Values{"status": {st}, "limit": {"1000"}}, poll); err != nil {
			return err
		}
	}
	// A running job may have queued a pending one meanwhile; check again.
	jobs, err := c.jobs(ctx, url.Values{"status": {"pending"}, "limit": {"1"}})
	if err != nil {
		return err
	}
	if len(jobs) > 0 {
		return c.drain(ctx, poll)
	}
	return nil
}

// failedJobs lists failed jobs, for the report.
func (c *client) failedJobs(ctx context.Context) ([]job, error) {
	jobs, err := c.jobs(ctx, url.Values{"status": {"failed"}, "limit": {"1000"}})
	sort.Slice(jobs, func(i, j int) bool { return jobs[i].ID < jobs[j].ID })
	return jobs, err
}

// waitReady polls /readyz until it answers 200 or the context ends.
func (c *client) waitReady(ctx context.Context) error {
	for {
		_, err := c.call(ctx, "readyz", http.MethodGet, "/readyz", nil, nil)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("graphmem not ready: %w (last: %v)", ctx.Err(), err)
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// metricsText fetches /metrics (Prometheus text format). It is not an
// endpoint of the API proper, so a server without it is not an error of
// the run: the caller reports the figures it feeds as n/a.
func (c *client) metricsText(ctx context.Context) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/metrics", nil)
	if err != nil {
		return "", err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("GET /metrics: HTTP %d", resp.StatusCode)
	}
	return string(raw), nil
}
