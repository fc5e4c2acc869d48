package api

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
)

// healthz says the process is alive; it checks nothing else, so a slow
// database never gets the process restarted.
func (s *server) healthz(c *gin.Context) {
	c.JSON(http.StatusOK, gin.H{"status": "ok", "version": s.opts.Version})
}

// readyz says whether the service can serve: Neo4j reachable and the schema
// applied. A failure is a 503 problem so load balancers hold traffic.
func (s *server) readyz(c *gin.Context) {
	ctx, cancel := context.WithTimeout(c.Request.Context(), 5*time.Second)
	defer cancel()
	if err := s.deps.Ready.Ready(ctx); err != nil {
		s.fail(c, &httpError{status: http.StatusServiceUnavailable, slug: "not-ready", title: "Not ready",
			detail: "Neo4j is not reachable or the schema is not applied yet; see the service log", cause: err})
		return
	}
	c.JSON(http.StatusOK, gin.H{"status": "ready"})
}

func (s *server) openapi(c *gin.Context) {
	c.Data(http.StatusOK, "application/yaml", s.opts.Spec)
}

// Starting answers while the service is still starting (the local Neo4j,
// the schema, query plans): /healthz says the process is alive, every other
// route is a 503 problem naming the step underway, with Retry-After. The
// listener is open from the first second, so a client waiting on it gets
// an answer instead of a connection that hangs until startup ends.
func Starting(version string, step func() string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/healthz" {
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			_ = json.NewEncoder(w).Encode(map[string]string{"status": "starting", "version": version})
			return
		}
		p := Problem{Type: problemType("starting"), Title: "Starting", Status: http.StatusServiceUnavailable,
			Detail: "graphmem is starting (" + step() + "); retry in a few seconds", Instance: r.URL.Path}
		w.Header().Set("Content-Type", problemContentType)
		w.Header().Set("Retry-After", "5")
		w.WriteHeader(p.Status)
		_ = json.NewEncoder(w).Encode(p)
	})
}
