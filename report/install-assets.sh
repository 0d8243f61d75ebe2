#!/usr/bin/env bash
# Installs the report's npm packages, exactly as package-lock.json pins them, into
# report/node_modules: Apache ECharts (embedded into fiohist at build time) and
# playwright-core (drives Debian's Chromium in the browser tests). Called by
# tools/install-deps.sh and, when they are missing, by CMake at configure time.
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v npm >/dev/null; then
  echo "report/install-assets.sh: npm not found (tools/install-deps.sh installs Debian's npm)" >&2
  exit 1
fi
# Already installed from this lockfile: nothing to do.
if [ node_modules/.package-lock.json -nt package-lock.json ] && [ -f node_modules/echarts/dist/echarts.min.js ]; then
  exit 0
fi
npm ci --no-audit --no-fund --loglevel=error
