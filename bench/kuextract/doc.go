// Package kuextract measures knowledge currency at the extraction level:
// it runs an engine over each scenario's sessions, plays the facts through
// the knowledge policy (knowledge.Plan) with a name-keyed, in-memory
// stand-in for entity resolution, and checks which facts are current, so a
// rule's effect on the visible set and the dev half of the project's own
// set is seen in seconds, without Neo4j or the service.
//
// It is a measurement, not the bench: retrieval, raw turns and ranking are
// not involved, so a scenario can pass here and fail the bench (and the
// other way round when retrieval finds the answer in a raw turn). Only the
// dev half of bench/data/ku-own.jsonl is ever read (dataset.Half).
//
// It may import extract, extract/offline, knowledge, ontology and nlp; it
// is the one place where an engine's output meets the policy without the
// graph.
package kuextract
