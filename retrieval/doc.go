// Package retrieval reads memories back: it ranks a user's memories for a
// query (Search) and packs the best of them, with the session's condensed
// view, into a prompt-ready context within a token budget (Context).
//
// Search runs as named stages, each a method of one search's state:
// candidates (full text and vectors, per index, normalized) → signals (the
// graph around the entities the query names, and the replies to questions)
// → priors (topic coverage, speaker) → fusion (weights or reciprocal ranks,
// tier, recency, status) → de-duplication (one piece of evidence, one
// result). Every number the stages use is a field of Config; query.go reads
// the query once for all of them.
//
// It declares the few store methods it calls as small interfaces
// (TextSearcher, GraphExpander, VectorSearcher, ContextStore), which
// *graph.Store satisfies, and the session view it packs as SessionViewer,
// which cmd/graphmem wires to memory. It may import graph (for the types
// those methods speak), nlp and errs; it must not import memory, api,
// extract, condenser or any driver.
package retrieval
