#!/usr/bin/env bash
# make reliability: crash durability and Neo4j outages, then two replicas
# behind one Neo4j (bench/reliability is the driver; it says what it checks).
# Knobs: RELIABILITY_KILLS (20), RELIABILITY_RESTARTS (5), RELIABILITY_CLIENTS
# (3), RELIABILITY_GAP (mean time between faults, 3s), RELIABILITY_PHASES
# ("crash replicas"), RELIABILITY_SESSIONS (per client, replicas phase, 12),
# RELIABILITY_OUT (folder of the JSON reports, bench/out/reliability).
# RELIABILITY_NEO4J_URI: use that running Neo4j (GRAPHMEM_NEO4J_HOME and its
# ports exported, as `graphmem neo4j start` had them) instead of a throwaway.
# make test runs the short form on its own Neo4j: RELIABILITY_KILLS=3
# RELIABILITY_RESTARTS=1 RELIABILITY_PHASES=crash.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)

go build -o bin/graphmem ./cmd/graphmem
go build -o bin/reliability ./bench/reliability

logs=$(mktemp -d "${TMPDIR:-/tmp}/graphmem-reliability.XXXXXX")
show_logs() {
  for f in "$logs"/*.log; do
    [ -f "$f" ] || continue
    echo "== last lines of $f"; tail -15 "$f"
  done
}
if [ -n "${RELIABILITY_NEO4J_URI:-}" ]; then
  # make test's own Neo4j (its GRAPHMEM_NEO4J_* variables are exported):
  # restarted under traffic like a throwaway one, and left running.
  NEO4J_THROWAWAY_URI="$RELIABILITY_NEO4J_URI"
  trap 'status=$?; [ $status -eq 0 ] || show_logs; rm -rf "$logs"; exit $status' EXIT INT TERM
else
  # shellcheck source=scripts/lib.sh
  . scripts/lib.sh
  neo4j_throwaway_env reliability "${RELIABILITY_NEO4J_HEAP:-512m}" "${RELIABILITY_NEO4J_PAGECACHE:-128m}"
  cleanup() {
    status=$?
    neo4j_throwaway_cleanup $status reliability
    [ $status -eq 0 ] || show_logs
    rm -rf "$logs"
    exit $status
  }
  trap cleanup EXIT INT TERM
  echo "== neo4j: throwaway server for the reliability suite"
  # A JVM start on a loaded machine can pass graphmem's 2 minute limit: try again.
  for try in 1 2 3; do
    ./bin/graphmem neo4j start >/dev/null && break
    [ "$try" -lt 3 ] || exit 1
    echo "Neo4j did not start in time; trying again"; sleep 15
  done
fi
export NEO4J_THROWAWAY_URI GRAPHMEM_NEO4J_HOME

out="${RELIABILITY_OUT:-bench/out/reliability}"
mkdir -p "$out"
for phase in ${RELIABILITY_PHASES:-crash replicas}; do
  echo "== reliability: $phase phase"
  ./bin/reliability -phase "$phase" -bin bin/graphmem -logs "$logs" -out "$out/$phase.json" \
    -kills "${RELIABILITY_KILLS:-20}" -restarts "${RELIABILITY_RESTARTS:-5}" \
    -clients "${RELIABILITY_CLIENTS:-3}" -gap "${RELIABILITY_GAP:-3s}" -sessions "${RELIABILITY_SESSIONS:-12}"
done
echo "== reliability passed in $(( $(date +%s) - started ))s (reports in $out/)"
