package graph

// planOnce prefixes the statements of the background pipeline (job queue,
// raw append, condensation windows, knowledge and insight writes): Neo4j
// keeps the first plan it makes for them instead of replanning whenever the
// statistics it planned with have moved (CYPHER replan=skip).
//
// Why: Neo4j discards a cached plan once a statistic it read (the total
// node count, a label or relationship count, an index's selectivity) has
// diverged past a threshold, at most every 10 s per statement. A memory
// that is filling up - a new deployment, a LoCoMo ingest, the scale run -
// moves those statistics all the time, so every pipeline statement was
// replanned again and again: in a LoCoMo ingest (136 sessions, measured with
// db.stats.collect('QUERIES')) planning took longer than executing (about
// 18 s against 12 s of Neo4j time), and each new plan's generated code
// kept the JIT compiler threads busy (7-20 s of Neo4j CPU).
//
// Why it is safe for these statements: each is anchored on an index its
// own predicates name (a uniqueness constraint's (tenant, id) seek, the
// session or job indexes, explicit USING INDEX hints for the queue), so the
// plan Neo4j picks does not depend on how much data there is. The plans of
// a fresh database were checked against those of a full one (docs/pipeline.md).
// Statements whose plan does depend on the data (search, exports, edits)
// keep Neo4j's replanning.
const planOnce = "CYPHER replan=skip\n"
