package graph

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/graphmem/graphmem/telemetry"
)

// startSpan opens the client span of one statement (cypher set) or one
// managed transaction (cypher empty: several statements). The statement
// text is parameterized, so it carries no user data; parameters are never
// recorded.
func (s *Store) startSpan(ctx context.Context, op, cypher string) (context.Context, trace.Span) {
	attrs := []attribute.KeyValue{
		attribute.String("db.system.name", "neo4j"),
		attribute.String("db.namespace", s.cfg.Database),
		attribute.String("db.operation.name", op),
	}
	if cypher != "" {
		attrs = append(attrs, attribute.String("db.query.text", cypher))
	}
	tracer := s.tracer
	if tracer == nil { // a Store not built by Open
		tracer = telemetry.Tracer(nil, "graph")
	}
	return tracer.Start(ctx, "neo4j "+op, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
}

// endSpan records the outcome and ends the span.
func endSpan(span trace.Span, err error) {
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, "neo4j statement failed")
	}
	span.End()
}
