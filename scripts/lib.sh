# Shell helpers shared by scripts/test.sh and scripts/bench.sh (sourced, not
# run): a throwaway Neo4j on free ports, in a temporary home under .neo4j/,
# started and stopped with bin/graphmem, so several checkouts and runs can
# work side by side without touching the developer's own .neo4j/home.

# free_port prints a TCP port that is free on 127.0.0.1 (the OS picks it).
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# neo4j_throwaway_env NAME HEAP PAGECACHE [BOLT_PORT] [HTTP_PORT]
# creates the home .neo4j/NAME.XXXXXX and exports the GRAPHMEM_NEO4J_*
# variables that `bin/graphmem neo4j start|stop` read (ports default to free
# ones). Sets NEO4J_THROWAWAY_HOME and NEO4J_THROWAWAY_URI (its Bolt URI).
neo4j_throwaway_env() {
  mkdir -p .neo4j
  NEO4J_THROWAWAY_HOME=$(mktemp -d "$PWD/.neo4j/$1.XXXXXX")
  export GRAPHMEM_NEO4J_HOME="$NEO4J_THROWAWAY_HOME"
  export GRAPHMEM_NEO4J_BOLT_PORT="${4:-$(free_port)}"
  export GRAPHMEM_NEO4J_HTTP_PORT="${5:-$(free_port)}"
  export GRAPHMEM_NEO4J_HEAP="$2"
  export GRAPHMEM_NEO4J_PAGECACHE="$3"
  NEO4J_THROWAWAY_URI="bolt://127.0.0.1:$GRAPHMEM_NEO4J_BOLT_PORT"
}

# neo4j_throwaway_cleanup STATUS LABEL stops the server (if it runs), shows
# the end of its log when STATUS is non-zero, and removes its home.
neo4j_throwaway_cleanup() {
  ./bin/graphmem neo4j stop >/dev/null 2>&1 || true
  if [ "$1" -ne 0 ] && [ -f "$NEO4J_THROWAWAY_HOME/logs/neo4j.log" ]; then
    echo "== last lines of the $2 Neo4j log ($NEO4J_THROWAWAY_HOME/logs/neo4j.log)"
    tail -20 "$NEO4J_THROWAWAY_HOME/logs/neo4j.log"
  fi
  rm -rf "$NEO4J_THROWAWAY_HOME"
}
