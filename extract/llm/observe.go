package llm

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/graphmem/graphmem/telemetry"
)

// observeCall opens the span of one logical call (its retries inside) and
// returns the function that closes it: it records the model that answered,
// the tokens and the latency on the span, adds the usage to the context's
// tally and reports it to OnUsage. Attribute names follow OpenTelemetry's
// gen_ai conventions so trace backends show them as LLM calls.
func (l *Engine) observeCall(ctx context.Context, op, operation string) (context.Context, func(u telemetry.Usage, model string, err error)) {
	start := time.Now()
	model := l.cfg.Model
	if operation == "embeddings" {
		model = l.cfg.EmbeddingModel
	}
	ctx, span := l.tracer.Start(ctx, "llm "+op, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(
		attribute.String("gen_ai.operation.name", operation),
		attribute.String("gen_ai.request.model", model),
		attribute.String("graphmem.llm.op", op),
	))
	return ctx, func(u telemetry.Usage, answered string, err error) {
		if answered != "" {
			span.SetAttributes(attribute.String("gen_ai.response.model", answered))
		}
		span.SetAttributes(
			attribute.Int64("gen_ai.usage.input_tokens", u.PromptTokens),
			attribute.Int64("gen_ai.usage.output_tokens", u.CompletionTokens),
			attribute.Float64("graphmem.llm.latency_ms", float64(time.Since(start).Microseconds())/1000),
		)
		if err != nil {
			span.RecordError(err)
			span.SetStatus(codes.Error, "llm call failed")
		}
		span.End()
		telemetry.Record(ctx, u)
		if l.cfg.OnUsage != nil {
			l.cfg.OnUsage(ctx, op, u)
		}
	}
}
