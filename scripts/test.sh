#!/usr/bin/env bash
# make test: build, start a throwaway Neo4j on free ports, run every test
# (unit and integration) against it, and stop it whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)

echo "== go: modules and build"
go mod download
go build -o bin/graphmem ./cmd/graphmem

echo "== vet and format"
go vet -tags integration ./...
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './.neo4j/*'))
if [ -n "$unformatted" ]; then echo "gofmt needed on: $unformatted"; exit 1; fi

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

mkdir -p .neo4j
home=$(mktemp -d "$PWD/.neo4j/test.XXXXXX")
export GRAPHMEM_NEO4J_HOME="$home"
export GRAPHMEM_NEO4J_BOLT_PORT="${TEST_NEO4J_BOLT_PORT:-$(free_port)}"
export GRAPHMEM_NEO4J_HTTP_PORT="${TEST_NEO4J_HTTP_PORT:-$(free_port)}"
export GRAPHMEM_NEO4J_HEAP="${TEST_NEO4J_HEAP:-1g}"
export GRAPHMEM_NEO4J_PAGECACHE="${TEST_NEO4J_PAGECACHE:-256m}"
cleanup() {
  status=$?
  ./bin/graphmem neo4j stop >/dev/null 2>&1 || true
  if [ $status -ne 0 ] && [ -f "$home/logs/neo4j.log" ]; then
    echo "== last lines of the test Neo4j log ($home/logs/neo4j.log)"; tail -20 "$home/logs/neo4j.log"
  fi
  rm -rf "$home"
  exit $status
}
trap cleanup EXIT INT TERM

echo "== neo4j: throwaway server for the tests"
./bin/graphmem neo4j start
export GRAPHMEM_TEST_NEO4J_URI="bolt://127.0.0.1:$GRAPHMEM_NEO4J_BOLT_PORT"

echo "== tests (unit + integration against $GRAPHMEM_TEST_NEO4J_URI)"
go test -race -tags integration -count=1 -timeout 15m ${TEST_FLAGS:-} ./...

echo "== make test passed in $(( $(date +%s) - started ))s"
