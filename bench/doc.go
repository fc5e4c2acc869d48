// Command bench measures graphmem the way an agent uses it: over HTTP
// only. It ingests LoCoMo and scores evidence recall against baselines
// computed in the same run on the same turns (BM25, recency, an oracle),
// runs the knowledge-update scenarios, and measures search latency, ingest
// throughput and memory. scripts/bench.sh (make bench) starts a throwaway
// Neo4j and graphmem and runs it; results go to bench/out/results.{json,md}.
//
// It must not import graphmem's packages: it is a client of the service,
// like any user, so what it measures is what users get.
package main
