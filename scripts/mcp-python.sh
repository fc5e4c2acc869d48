#!/usr/bin/env bash
# scripts/mcp-python.sh [--print-python | ARGS...]: the official MCP Python
# SDK (pinned), installed once per machine from PyPI into .cache/mcp-python
# (git-ignored), then scripts/mcp_python_client.py run with ARGS. With
# --print-python it only installs and prints the venv's python (make test
# hands it to the Go test that drives the script against a live service).
set -euo pipefail
cd "$(dirname "$0")/.."
MCP_PY_VERSION="2.3.0"
venv=".cache/mcp-python"
if ! "$venv/bin/python" -c "import mcp, sys; from importlib.metadata import version; sys.exit(version('mcp') != '$MCP_PY_VERSION')" 2>/dev/null; then
  echo "mcp-python.sh: installing the MCP Python SDK $MCP_PY_VERSION into $venv (once)" >&2
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check "mcp==$MCP_PY_VERSION" >&2
fi
if [ "${1:-}" = "--print-python" ]; then
  echo "$PWD/$venv/bin/python"
  exit 0
fi
exec "$venv/bin/python" scripts/mcp_python_client.py "$@"
