#!/usr/bin/env bash
# scripts/schemathesis.sh: schemathesis (PyPI, pinned; installed once into
# .cache/schemathesis, git-ignored) against a graphmem serving its own
# openapi.yaml with auth on, bounded: a fixed seed and ST_EXAMPLES cases per
# operation (default 5). Every check runs: no 5xx, responses as documented,
# and the spec accepting exactly what the service accepts. Needs a Neo4j:
# GRAPHMEM_TEST_NEO4J_URI (make test sets it) or GRAPHMEM_NEO4J_URI.
# /mcp is left out: it speaks JSON-RPC, whose methods and errors the MCP SDK
# defines, and the MCP tests drive it with two real MCP clients.
set -euo pipefail
cd "$(dirname "$0")/.."
ST_VERSION="4.32.5"
venv=".cache/schemathesis"
if ! "$venv/bin/st" --version 2>/dev/null | grep -q "$ST_VERSION"; then
  echo "schemathesis.sh: installing schemathesis $ST_VERSION into $venv (once)" >&2
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check "schemathesis==$ST_VERSION" >&2
fi
uri="${GRAPHMEM_TEST_NEO4J_URI:-${GRAPHMEM_NEO4J_URI:-}}"
if [ -z "$uri" ]; then
  echo "schemathesis.sh: set GRAPHMEM_TEST_NEO4J_URI (or GRAPHMEM_NEO4J_URI) to a running Neo4j" >&2
  exit 2
fi
# shellcheck source=scripts/lib.sh
. scripts/lib.sh
[ -x bin/graphmem ] || go build -o bin/graphmem ./cmd/graphmem
port=$(free_port)
run="st$(date +%s)$$"                  # a tenant of its own: earlier runs' data does not matter
key="schemathesis-$run-0123456789"
log=$(mktemp)
env -u GRAPHMEM_NEO4J_HOME GRAPHMEM_NEO4J_URI="$uri" GRAPHMEM_LISTEN_ADDR="127.0.0.1:$port" \
  GRAPHMEM_API_KEYS="$run:$key" GRAPHMEM_EMBEDDER=off GRAPHMEM_WORKERS=1 GRAPHMEM_WORKER_TENANTS="$run" \
  GRAPHMEM_SESSION_IDLE_CLOSE=0 GRAPHMEM_RETENTION_EVERY=0 GRAPHMEM_LOG_FORMAT=json GRAPHMEM_LOG_LEVEL=warn \
  ./bin/graphmem serve >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 1 120); do
  curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
  kill -0 "$pid" 2>/dev/null || { cat "$log"; exit 1; }
  sleep 0.5
done
started=$(date +%s)
set +e
"$venv/bin/st" --config-file scripts/schemathesis.toml run "http://127.0.0.1:$port/openapi.yaml" -H "Authorization: Bearer $key" \
  --seed "${ST_SEED:-1}" -n "${ST_EXAMPLES:-5}" --workers 1 --no-color \
  --exclude-path /mcp --request-timeout 30 --generation-database none ${ST_FLAGS:-}
status=$?
set -e
echo "schemathesis: exit $status in $(( $(date +%s) - started ))s (seed ${ST_SEED:-1}, ${ST_EXAMPLES:-5} examples per operation)"
if grep -q '"level":"ERROR"' "$log"; then
  echo "== graphmem logged errors:"; grep '"level":"ERROR"' "$log" | head -20
  status=1
fi
exit $status
