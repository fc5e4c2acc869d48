package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
	"github.com/gin-gonic/gin"
)

func TestMain(m *testing.M) {
	gin.SetMode(gin.TestMode)
	// The operational routes answer in YAML and HTML; validate them as text.
	openapi3filter.RegisterBodyDecoder("application/yaml", openapi3filter.PlainBodyDecoder)
	openapi3filter.RegisterBodyDecoder("text/html", openapi3filter.PlainBodyDecoder)
	os.Exit(m.Run())
}

var (
	specOnce   sync.Once
	specBytes  []byte
	specDoc    *openapi3.T
	specRouter routers.Router
	specErr    error
)

// loadSpec reads the repository's openapi.yaml, the contract every
// response of these tests is validated against.
func loadSpec(t testing.TB) ([]byte, *openapi3.T, routers.Router) {
	t.Helper()
	specOnce.Do(func() {
		specBytes, specErr = os.ReadFile("../openapi.yaml")
		if specErr != nil {
			return
		}
		loader := openapi3.NewLoader()
		specDoc, specErr = loader.LoadFromData(specBytes)
		if specErr != nil {
			return
		}
		if specErr = specDoc.Validate(context.Background()); specErr != nil {
			return
		}
		// Match requests by path only: the spec's server URL is the local default.
		specDoc.Servers = nil
		specRouter, specErr = legacy.NewRouter(specDoc)
	})
	if specErr != nil {
		t.Fatalf("load openapi.yaml: %v", specErr)
	}
	return specBytes, specDoc, specRouter
}

// client drives the real gin engine in-process and checks every response
// against openapi.yaml.
type client struct {
	t      testing.TB
	engine *gin.Engine
	header http.Header
}

func newClient(t testing.TB, deps Deps, opts Options) *client {
	t.Helper()
	spec, _, _ := loadSpec(t)
	if opts.Spec == nil {
		opts.Spec = spec
	}
	if deps.Ready == nil {
		deps.Ready = readyFunc(func(context.Context) error { return nil })
	}
	e, err := New(deps, opts)
	if err != nil {
		t.Fatalf("build router: %v", err)
	}
	return &client{t: t, engine: e, header: http.Header{}}
}

type readyFunc func(context.Context) error

func (f readyFunc) Ready(ctx context.Context) error { return f(ctx) }

// do sends a request (body: nil, a string of raw JSON, or a value to
// marshal) and returns the recorder after validating the exchange.
func (c *client) do(method, path string, body any, header ...string) *httptest.ResponseRecorder {
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
	for k, v := range c.header {
		req.Header[k] = v
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	c.engine.ServeHTTP(rec, req)
	c.validate(req, raw, rec)
	return rec
}

// validate checks the response against the spec: a documented route must
// answer with a documented status and a body matching its schema; every
// error, documented route or not, must be problem+json.
func (c *client) validate(req *http.Request, body []byte, rec *httptest.ResponseRecorder) {
	c.t.Helper()
	if rec.Code >= 400 {
		if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, problemContentType) {
			c.t.Errorf("%s %s: status %d with Content-Type %q, want %s", req.Method, req.URL.Path, rec.Code, ct, problemContentType)
		}
		var p Problem
		if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil || p.Status != rec.Code || p.Title == "" || p.Type == "" {
			c.t.Errorf("%s %s: malformed problem %s", req.Method, req.URL.Path, rec.Body.String())
		}
		if p.RequestID == "" || p.RequestID != rec.Header().Get("X-Request-ID") {
			c.t.Errorf("%s %s: problem request_id %q does not match header %q", req.Method, req.URL.Path, p.RequestID, rec.Header().Get("X-Request-ID"))
		}
	}
	_, _, router := loadSpec(c.t)
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

func decode[T any](t testing.TB, rec *httptest.ResponseRecorder) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("decode %T from %s: %v", v, rec.Body.String(), err)
	}
	return v
}

// fullDeps returns working in-memory fakes for every dependency; tests
// replace the ones they exercise.
func fullDeps(t testing.TB) Deps {
	t.Helper()
	return Deps{Ready: readyFunc(func(context.Context) error { return nil })}
}
