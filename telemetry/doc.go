// Package telemetry sets up OpenTelemetry tracing and carries LLM usage
// accounting through a context.
//
// Tracing is off unless an OTLP endpoint is configured: NewTracerProvider
// then returns a no-op provider, so every package that starts spans pays
// next to nothing. The provider is built once in cmd/graphmem and passed to
// each constructor that traces (api, graph, jobs, extract/llm); nothing here
// is global.
//
// Usage accounting: the job worker's wrapper (memory) opens a Tally in the
// job's context, the LLM engine's usage hook (wired in cmd/graphmem) adds
// each call's tokens to it, and the wrapper stores the total on the job
// and in the tenant's budget window. A Scope names whose usage it is, for
// Prometheus labels.
//
// It imports no other graphmem package.
package telemetry
