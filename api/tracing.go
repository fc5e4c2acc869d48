package api

import (
	"github.com/gin-gonic/gin"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/graphmem/graphmem/telemetry"
)

// traced opens the server span of each request: a new trace, or the
// caller's when it sent a W3C traceparent. The span is named by the route
// template (never the raw path: ids would make every name unique) and
// carries the request id, so a trace and a log line or problem body find
// each other. Handlers' Neo4j and LLM spans are its children through the
// request context.
func traced(tp trace.TracerProvider) gin.HandlerFunc {
	tracer := telemetry.Tracer(tp, "api")
	prop := telemetry.Propagator()
	return func(c *gin.Context) {
		route := c.FullPath()
		if route == "" {
			route = "unmatched"
		}
		ctx := prop.Extract(c.Request.Context(), propagation.HeaderCarrier(c.Request.Header))
		ctx, span := tracer.Start(ctx, c.Request.Method+" "+route, trace.WithSpanKind(trace.SpanKindServer),
			trace.WithAttributes(
				attribute.String("http.request.method", c.Request.Method),
				attribute.String("http.route", route),
				attribute.String("graphmem.request_id", requestIDFrom(c)),
			))
		defer span.End()
		c.Request = c.Request.WithContext(ctx)
		c.Next()
		status := c.Writer.Status()
		span.SetAttributes(attribute.Int("http.response.status_code", status))
		if t := tenantOf(c); t != "" {
			span.SetAttributes(attribute.String("graphmem.tenant", t))
		}
		if status >= 500 {
			span.SetStatus(codes.Error, "server error")
		}
	}
}

// scoped names the request's tenant and id in its context, after
// authentication: the LLM engine's usage reports read the tenant for their
// label, and the jobs the request enqueues keep its id.
func scoped() gin.HandlerFunc {
	return func(c *gin.Context) {
		c.Request = c.Request.WithContext(telemetry.WithScope(c.Request.Context(), telemetry.Scope{Tenant: tenantOf(c), RequestID: requestIDFrom(c)}))
		c.Next()
	}
}
