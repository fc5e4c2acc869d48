package api

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"runtime/debug"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
)

const ctxRequestID = "graphmem.request_id"

var requestIDPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// requestID honours a well-formed X-Request-ID from the caller (so traces
// join up across services) and otherwise generates one; it is echoed in the
// response header, in problem bodies and in every log line of the request.
func requestID() gin.HandlerFunc {
	return func(c *gin.Context) {
		id := c.GetHeader("X-Request-ID")
		if !requestIDPattern.MatchString(id) {
			id = uuid.NewString()
		}
		c.Set(ctxRequestID, id)
		c.Header("X-Request-ID", id)
		c.Next()
	}
}

func requestIDFrom(c *gin.Context) string { return c.GetString(ctxRequestID) }

// accessLog writes one structured line per request after it finished. The
// client's address is the one GRAPHMEM_TRUSTED_PROXIES vouch for (gin's
// ClientIP), not the proxy's.
func accessLog(log *slog.Logger) gin.HandlerFunc {
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		log.LogAttrs(c.Request.Context(), slog.LevelInfo, "request",
			slog.String("request_id", requestIDFrom(c)),
			slog.String("method", c.Request.Method),
			slog.String("route", c.FullPath()),
			slog.String("path", c.Request.URL.Path),
			slog.Int("status", c.Writer.Status()),
			slog.Int("bytes", c.Writer.Size()),
			slog.String("tenant", tenantOf(c)),
			slog.String("client_ip", c.ClientIP()),
			slog.Duration("duration", time.Since(start)))
	}
}

// recovery turns a panic into a logged 500 problem; the stack goes to the
// log, never to the client.
func recovery(log *slog.Logger) gin.HandlerFunc {
	return func(c *gin.Context) {
		defer func() {
			if r := recover(); r != nil {
				if r == http.ErrAbortHandler {
					panic(r)
				}
				log.Error("panic in handler", "request_id", requestIDFrom(c), "route", c.FullPath(),
					"panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				if !c.Writer.Written() {
					abortWithProblem(c, log, fmt.Errorf("panic: %v", r))
				}
			}
		}()
		c.Next()
	}
}

// limitBody caps request bodies. A declared Content-Length over the limit
// is refused at once; a body that grows past it while being read fails the
// decode with *http.MaxBytesError, which the mapper turns into 413.
func limitBody(limit int64, onFail func(*gin.Context, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		if c.Request.ContentLength > limit {
			onFail(c, &http.MaxBytesError{Limit: limit})
			return
		}
		if c.Request.Body != nil {
			c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, limit)
		}
		c.Next()
	}
}

// deadline bounds each request; handlers pass c.Request.Context() down, so
// Neo4j and LLM calls stop when it expires.
func deadline(d time.Duration) gin.HandlerFunc {
	return func(c *gin.Context) {
		ctx, cancel := context.WithTimeout(c.Request.Context(), d)
		defer cancel()
		c.Request = c.Request.WithContext(ctx)
		c.Next()
	}
}
