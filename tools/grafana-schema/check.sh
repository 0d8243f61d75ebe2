#!/usr/bin/env bash
# Regenerates the Grafana dashboard schema from the pinned packages (package-lock.json) and
# fails if it differs from the committed dashboards/schema/grafana-dashboard-vNN.schema.json.
# Needs node and npm, and the npm registry (npm ci).
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error
node generate.js --check
