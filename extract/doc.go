// Package extract is the contract between the service and its language
// engines: the types a window of conversation travels in (Event, Input,
// SummaryRequest, AttentionRequest, InsightInput) and the answers that come
// back (Result with its Entities and Facts, Summary, Insight), the sentinel
// errors callers branch on, and the small interfaces every engine satisfies
// (Summarizer, EventSelector, Extractor, Insighter, and Engine for all four).
//
// The engines live in subpackages: extract/offline (rule-based, no network,
// the default) and extract/llm (any OpenAI-compatible server). They share
// nothing but this package.
//
// extract imports only ontology (facts speak its vocabulary). It never
// imports its engines, nlp, graph, condenser or memory, and no third-party
// client: the orchestration package adapts its types to theirs, which keeps
// the leaves independent and testable alone.
package extract
