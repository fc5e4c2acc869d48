package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

var (
	specOnce   sync.Once
	specBytes  []byte
	specDoc    *openapi3.T
	specRouter routers.Router
	specErr    error
)

// Spec returns the repository's openapi.yaml (found by walking up from the
// test's directory), parsed and validated, with a router over its paths.
func Spec(t testing.TB) ([]byte, *openapi3.T, routers.Router) {
	t.Helper()
	specOnce.Do(func() {
		// The operational routes answer YAML and HTML; validate them as text.
		openapi3filter.RegisterBodyDecoder("application/yaml", openapi3filter.PlainBodyDecoder)
		openapi3filter.RegisterBodyDecoder("text/html", openapi3filter.PlainBodyDecoder)
		// Exports stream NDJSON: one JSON document per line, checked as text.
		openapi3filter.RegisterBodyDecoder("application/x-ndjson", openapi3filter.PlainBodyDecoder)
		if specBytes, specErr = readSpec(); specErr != nil {
			return
		}
		if specDoc, specErr = openapi3.NewLoader().LoadFromData(specBytes); specErr != nil {
			return
		}
		if specErr = specDoc.Validate(context.Background()); specErr != nil {
			return
		}
		// Match requests by path only: the spec's server URL is the local default.
		routed := *specDoc
		routed.Servers = nil
		specRouter, specErr = legacy.NewRouter(&routed)
	})
	if specErr != nil {
		t.Fatalf("load openapi.yaml: %v", specErr)
	}
	return specBytes, specDoc, specRouter
}

func readSpec() ([]byte, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "openapi.yaml"))
		if err == nil {
			return b, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil, fmt.Errorf("openapi.yaml not found above the test directory: %w", err)
		}
		dir = parent
	}
}

// Client sends requests to a handler and validates each exchange.
type Client struct {
	t       testing.TB
	handler http.Handler
	// Header is added to every request (e.g. Authorization).
	Header http.Header
}

// New returns a client for handler.
func New(t testing.TB, handler http.Handler) *Client {
	t.Helper()
	Spec(t)
	return &Client{t: t, handler: handler, Header: http.Header{}}
}

// Do sends a request (body: nil, raw JSON as a string or []byte, or a value
// to marshal; header: name, value pairs) and returns the recorded response
// after validating the exchange against the spec.
func (c *Client) Do(method, path string, body any, header ...string) *httptest.ResponseRecorder {
	c.t.Helper()
	var raw []byte
	switch b := body.(type) {
	case nil:
	case string:
		raw = []byte(b)
	case []byte:
		raw = b
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			c.t.Fatal(err)
		}
	}
	req := httptest.NewRequest(method, path, bytes.NewReader(raw))
	if raw != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range c.Header {
		req.Header[k] = v
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	c.handler.ServeHTTP(rec, req)
	c.validate(req, raw, rec)
	return rec
}

// Problem is the shape every error body must have.
type Problem struct {
	Type      string `json:"type"`
	Title     string `json:"title"`
	Status    int    `json:"status"`
	Detail    string `json:"detail"`
	Instance  string `json:"instance"`
	RequestID string `json:"request_id"`
	Errors    []struct {
		Field   string `json:"field"`
		Rule    string `json:"rule"`
		Message string `json:"message"`
	} `json:"errors"`
}

func (c *Client) validate(req *http.Request, body []byte, rec *httptest.ResponseRecorder) {
	c.t.Helper()
	if rec.Code >= 400 {
		if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/problem+json") {
			c.t.Errorf("%s %s: status %d with Content-Type %q, want application/problem+json", req.Method, req.URL.Path, rec.Code, ct)
		}
		var p Problem
		if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil || p.Status != rec.Code || p.Title == "" || p.Type == "" {
			c.t.Errorf("%s %s: malformed problem %s", req.Method, req.URL.Path, rec.Body.String())
		}
		if p.RequestID == "" || p.RequestID != rec.Header().Get("X-Request-ID") {
			c.t.Errorf("%s %s: problem request_id %q does not match header %q", req.Method, req.URL.Path, p.RequestID, rec.Header().Get("X-Request-ID"))
		}
	}
	_, _, router := Spec(c.t)
	route, params, err := router.FindRoute(req)
	if err != nil {
		if rec.Code != http.StatusNotFound && rec.Code != http.StatusMethodNotAllowed {
			c.t.Errorf("%s %s answered %d but is not in openapi.yaml", req.Method, req.URL.Path, rec.Code)
		}
		return
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
	if body != nil {
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in, Status: rec.Code, Header: rec.Header(),
		Options: &openapi3filter.Options{IncludeResponseStatus: true},
	}
	out.SetBodyBytes(rec.Body.Bytes())
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		c.t.Errorf("%s %s → %d does not match openapi.yaml: %v\nbody: %s", req.Method, req.URL.Path, rec.Code, err, truncate(rec.Body.String(), 600))
	}
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// Decode unmarshals a response body, failing the test on error.
func Decode[T any](t testing.TB, rec *httptest.ResponseRecorder) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("decode %T from %s: %v", v, rec.Body.String(), err)
	}
	return v
}
