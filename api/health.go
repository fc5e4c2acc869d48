package api

import (
	"context"
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
