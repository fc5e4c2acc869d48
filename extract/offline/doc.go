// Package offline is the built-in language engine: deterministic,
// rule-based English extraction, extractive summaries, attention and
// insights that need no network and no key. It is the service's default and
// what the tests and benchmarks exercise.
//
// offline imports extract (the shared types), ontology and nlp, and nothing
// else of graphmem: never extract/llm, graph, condenser or memory, and no
// third-party client.
package offline
