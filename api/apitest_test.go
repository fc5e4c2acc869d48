package api

import (
	"context"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/graphmem/graphmem/api/apitest"
)

func TestMain(m *testing.M) {
	gin.SetMode(gin.TestMode)
	os.Exit(m.Run())
}

// client is the spec-validating client on an engine built from deps; the
// engine is kept for route introspection.
type client struct {
	*apitest.Client
	engine *gin.Engine
}

func newClient(t testing.TB, deps Deps, opts Options) *client {
	t.Helper()
	spec, _, _ := apitest.Spec(t)
	if opts.Spec == nil {
		opts.Spec = spec
	}
	e, err := New(deps, opts)
	if err != nil {
		t.Fatalf("build router: %v", err)
	}
	return &client{Client: apitest.New(t, e), engine: e}
}

func (c *client) do(method, path string, body any, header ...string) *httptest.ResponseRecorder {
	return c.Do(method, path, body, header...)
}

type readyFunc func(context.Context) error

func (f readyFunc) Ready(ctx context.Context) error { return f(ctx) }
