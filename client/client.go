// Package client is a small typed Go client of graphmem's REST API.
//
// It owns its wire types (the JSON of openapi.yaml, nothing of the
// server's), takes a context on every call, retries requests the service
// answered with 503 or 429 after the Retry-After it sent (a bounded number
// of times, never past the context's deadline), and turns every
// application/problem+json answer into a *Problem error that errors.As
// extracts.
//
// It imports nothing of graphmem's: users vendor it as it is, and the MCP
// bridge and the end-to-end tests use it like any other client.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Defaults of a Client.
const (
	// DefaultMaxRetries is how many times a 503 or 429 answer is retried.
	DefaultMaxRetries = 4
	// DefaultMaxRetryWait caps one wait, whatever Retry-After asks for.
	DefaultMaxRetryWait = 10 * time.Second
	// defaultRetryWait is the wait when the answer names none.
	defaultRetryWait = time.Second
	// maxErrorBody bounds what is read of an error answer.
	maxErrorBody = 64 << 10
)

// Client calls one graphmem service. It is safe for concurrent use.
type Client struct {
	base         *url.URL
	apiKey       string
	http         *http.Client
	maxRetries   int
	maxRetryWait time.Duration
	userAgent    string
}

// Option configures a Client.
type Option func(*Client)

// WithAPIKey sends the key as `Authorization: Bearer <key>`; it selects
// the tenant.
func WithAPIKey(key string) Option { return func(c *Client) { c.apiKey = key } }

// WithHTTPClient uses hc instead of a default client with a 2-minute
// timeout.
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.http = hc } }

// WithRetries sets how many times a 503 or 429 is retried (0: never) and
// the longest single wait.
func WithRetries(n int, maxWait time.Duration) Option {
	return func(c *Client) { c.maxRetries, c.maxRetryWait = max(n, 0), maxWait }
}

// WithUserAgent names the caller in the User-Agent header.
func WithUserAgent(ua string) Option { return func(c *Client) { c.userAgent = ua } }

// New returns a client of the service at baseURL (http://127.0.0.1:8080).
func New(baseURL string, opts ...Option) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("graphmem client: base URL %q must be absolute, like http://127.0.0.1:8080", baseURL)
	}
	c := &Client{base: u, http: &http.Client{Timeout: 2 * time.Minute}, maxRetries: DefaultMaxRetries,
		maxRetryWait: DefaultMaxRetryWait, userAgent: "graphmem-go-client"}
	for _, o := range opts {
		o(c)
	}
	if c.maxRetryWait <= 0 {
		c.maxRetryWait = DefaultMaxRetryWait
	}
	return c, nil
}

// Problem is an RFC 9457 problem the service answered; every error status
// becomes one (a body that is no problem gets the status's text as Title).
type Problem struct {
	Type      string       `json:"type"`
	Title     string       `json:"title"`
	Status    int          `json:"status"`
	Detail    string       `json:"detail,omitempty"`
	Instance  string       `json:"instance,omitempty"`
	RequestID string       `json:"request_id,omitempty"`
	Errors    []FieldIssue `json:"errors,omitempty"`
}

// FieldIssue names one invalid field and the rule it broke.
type FieldIssue struct {
	Field   string `json:"field"`
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

func (p *Problem) Error() string {
	msg := fmt.Sprintf("graphmem: %d %s", p.Status, p.Title)
	if p.Detail != "" {
		msg += ": " + p.Detail
	}
	return msg
}

// IsStatus reports whether err is a Problem with that HTTP status.
func IsStatus(err error, status int) bool {
	var p *Problem
	return errors.As(err, &p) && p.Status == status
}

// do sends one request: body (if not nil) as JSON, query appended to the
// path, the answer's JSON decoded into out (if not nil). It returns the
// status of the success.
func (c *Client) do(ctx context.Context, method, path string, query url.Values, body, out any) (int, error) {
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return 0, fmt.Errorf("graphmem: encode %s %s: %w", method, path, err)
		}
	}
	u := *c.base
	u.Path = strings.TrimRight(u.Path, "/") + path
	u.RawQuery = query.Encode()
	for attempt := 0; ; attempt++ {
		resp, err := c.send(ctx, method, u.String(), payload)
		if err != nil {
			return 0, err
		}
		if resp.StatusCode < 300 {
			defer resp.Body.Close()
			if out == nil {
				_, _ = io.Copy(io.Discard, resp.Body)
				return resp.StatusCode, nil
			}
			if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
				return resp.StatusCode, fmt.Errorf("graphmem: decode %s %s: %w", method, path, err)
			}
			return resp.StatusCode, nil
		}
		problem := readProblem(resp)
		retryable := resp.StatusCode == http.StatusServiceUnavailable || resp.StatusCode == http.StatusTooManyRequests
		if !retryable || attempt >= c.maxRetries {
			return resp.StatusCode, problem
		}
		wait := min(retryAfter(resp.Header.Get("Retry-After"), time.Now()), c.maxRetryWait)
		if d, ok := ctx.Deadline(); ok && time.Until(d) < wait {
			return resp.StatusCode, problem // waiting would outlive the caller
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return resp.StatusCode, problem
		case <-t.C:
		}
	}
}

func (c *Client) send(ctx context.Context, method, u string, payload []byte) (*http.Response, error) {
	var rd io.Reader
	if payload != nil {
		rd = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, fmt.Errorf("graphmem: %w", err)
	}
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if c.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("graphmem: %s %s: %w", method, req.URL.Path, err)
	}
	return resp, nil
}

// readProblem reads an error answer as a Problem.
func readProblem(resp *http.Response) *Problem {
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	p := &Problem{}
	if err := json.Unmarshal(raw, p); err != nil || p.Status == 0 {
		p = &Problem{Title: http.StatusText(resp.StatusCode), Detail: strings.TrimSpace(string(raw))}
	}
	p.Status = resp.StatusCode
	if p.Title == "" {
		p.Title = http.StatusText(resp.StatusCode)
	}
	return p
}

// retryAfter reads a Retry-After header: seconds, or an HTTP date.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return defaultRetryWait
	}
	if s, err := strconv.Atoi(v); err == nil {
		return time.Duration(max(s, 0)) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0)
	}
	return defaultRetryWait
}

// pathEscape escapes an id for a path segment.
func pathEscape(id string) string { return url.PathEscape(id) }
