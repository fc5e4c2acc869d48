package telemetry

import (
	"context"
	"fmt"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// Config says where traces go.
type Config struct {
	// Endpoint is the OTLP/HTTP endpoint (http://collector:4318, or a full
	// URL ending in /v1/traces). Empty with Standard false: tracing off.
	Endpoint string
	// Standard is true when the standard OTEL_EXPORTER_OTLP_ENDPOINT or
	// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT variable is set: the exporter reads
	// it (and the other OTEL_EXPORTER_OTLP_* variables) itself.
	Standard bool
	// SampleRatio is the share of new traces kept (1: all); a trace whose
	// caller sampled it is always kept.
	SampleRatio float64
	Service     string
	Version     string
}

// Enabled reports whether traces are exported.
func (c Config) Enabled() bool { return c.Endpoint != "" || c.Standard }

// NewTracerProvider returns the provider every traced package gets, and
// the function that flushes and stops it at shutdown. Tracing off gives a
// no-op provider and a no-op shutdown.
func NewTracerProvider(ctx context.Context, cfg Config) (trace.TracerProvider, func(context.Context) error, error) {
	if !cfg.Enabled() {
		return noop.NewTracerProvider(), func(context.Context) error { return nil }, nil
	}
	var opts []otlptracehttp.Option
	if ep := cfg.Endpoint; ep != "" {
		if strings.Contains(strings.TrimPrefix(strings.TrimPrefix(ep, "http://"), "https://"), "/") {
			opts = append(opts, otlptracehttp.WithEndpointURL(ep))
		} else {
			opts = append(opts, otlptracehttp.WithEndpointURL(strings.TrimSuffix(ep, "/")+"/v1/traces"))
		}
	}
	exp, err := otlptracehttp.New(ctx, opts...)
	if err != nil {
		return nil, nil, fmt.Errorf("otlp trace exporter: %w", err)
	}
	tp := newProvider(sdktrace.NewBatchSpanProcessor(exp), cfg)
	return tp, tp.Shutdown, nil
}

// NewTestProvider returns a provider that hands every span to proc at once
// (tests pass a tracetest.InMemoryExporter through
// sdktrace.NewSimpleSpanProcessor).
func NewTestProvider(proc sdktrace.SpanProcessor, cfg Config) *sdktrace.TracerProvider {
	return newProvider(proc, cfg)
}

func newProvider(proc sdktrace.SpanProcessor, cfg Config) *sdktrace.TracerProvider {
	if cfg.Service == "" {
		cfg.Service = "graphmem"
	}
	ratio := cfg.SampleRatio
	if ratio <= 0 || ratio > 1 {
		ratio = 1
	}
	res := resource.NewSchemaless(attribute.String("service.name", cfg.Service), attribute.String("service.version", cfg.Version))
	return sdktrace.NewTracerProvider(
		sdktrace.WithSpanProcessor(proc),
		sdktrace.WithResource(res),
		sdktrace.WithSampler(sdktrace.ParentBased(sdktrace.TraceIDRatioBased(ratio))),
	)
}

// Propagator reads and writes the W3C traceparent header, so a caller's
// trace continues into graphmem's. It is a value, not the global one.
func Propagator() propagation.TextMapPropagator { return propagation.TraceContext{} }

// Tracer returns tp's tracer for a package, or a no-op tracer when tp is
// nil (a constructor given no provider traces nothing).
func Tracer(tp trace.TracerProvider, pkg string) trace.Tracer {
	if tp == nil {
		tp = noop.NewTracerProvider()
	}
	return tp.Tracer("github.com/graphmem/graphmem/" + pkg)
}
