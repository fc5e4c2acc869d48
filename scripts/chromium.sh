#!/usr/bin/env bash
# scripts/chromium.sh prints the path of a headless-capable Chromium,
# installing Debian's chromium package first when the machine has none
# (browser tests: the API reference page, Neo4j Browser screenshots).
# Set CHROMIUM to use another binary.
set -euo pipefail
if [ -n "${CHROMIUM:-}" ]; then echo "$CHROMIUM"; exit 0; fi
for b in chromium chromium-browser; do
  if command -v "$b" >/dev/null 2>&1; then command -v "$b"; exit 0; fi
done
echo "chromium.sh: installing Debian's chromium (browser tests need it; once per machine)" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2 || true
$SUDO apt-get install -y -qq --no-install-recommends chromium >&2
command -v chromium
