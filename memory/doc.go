// Package memory is graphmem's orchestration layer: it owns the pipeline
// append → condense → extract → resolve → write, the durable background
// jobs, insight generation, retrieval fusion and context assembly.
//
// It is the only package that knows condenser, extract and graph together,
// and it adapts their types to one another so those three stay independent
// leaves. The api package reaches it through small interfaces it declares.
package memory
