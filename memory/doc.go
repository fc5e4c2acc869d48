// Package memory is graphmem's orchestration layer: it owns the pipeline
// append → view (condense) → close → extract → write, and the insights
// derived across sessions.
//
// It keeps sessions and their condensed views (view.go), closes sessions
// and sweeps idle ones (close.go, background.go), turns each condensed
// window into entities and facts through the language engine
// (extraction.go), derives insights (insights.go), and reads the knowledge
// back for the API (knowledge.go). Its background work runs as durable
// jobs: it registers their handlers on a jobs.Worker and adapts the
// graph's job table to it (jobs.go, queue.go).
//
// It is the only package that knows condenser, extract and graph together,
// and it adapts their types to one another so those stay independent
// leaves. It declares the store methods it calls as small interfaces, one
// per concern (SessionStore, WindowStore, JobStore, KnowledgeStore,
// InsightStore, VectorStore). Search and prompt-context assembly are
// retrieval's; memory does not need it (cmd/graphmem wires the session
// view into retrieval's context assembly). It must not import api or cmd,
// nor the Neo4j driver, an LLM client or an HTTP framework.
package memory
