// Package offline is the built-in language engine: deterministic,
// rule-based English extraction, extractive summaries, attention and
// insights that need no network and no key. It is the service's default and
// what the tests and benchmarks exercise.
//
// How extraction reads a window, file by file:
//
//   - engine.go: Engine, Config and Extract; window.go: the state of one
//     Extract call (the result being built, the people named, each
//     speaker's discourse) and the reading of one event (utterance).
//   - tokens.go and np.go: sentences, clauses and noun phrases.
//   - clause.go: the shared clause analysis every recogniser reads: fillers
//     stripped, subject found, modality (negation, cessation, tense, hedges)
//     and main verb read. refs.go: people named by role ("my sister Emma"),
//     which state their relation as they are read. emit.go: how a
//     recogniser writes a fact through the clause.
//   - dispatch.go: the index of what the engine understands: the
//     recognisers, the frames tried first, the verb table.
//     complements.go: be, have, get and become, whose complement decides
//     which recogniser reads the clause.
//   - rules_<kind>.go: one recogniser per kind of fact (places, work, study,
//     tastes, favourites, switches, possessions, budgets, schedules,
//     hobbies, outings, plans, kin, couples, identity, health), each a
//     <kind>Rules type whose fields name the recognisers it hands clauses
//     to.
//   - lexicon.go, lexicon_facts.go, lexicon_grammar.go, lexicon_verbs.go:
//     the word lists, as data. result.go: the builder that merges facts and
//     renders their sentences.
//
// Summaries (summary.go), attention (attention.go) and insights
// (insights.go) reuse extraction to find what matters.
//
// offline imports extract (the shared types), ontology and nlp, and nothing
// else of graphmem: never extract/llm, graph, condenser or memory, and no
// third-party client.
package offline
