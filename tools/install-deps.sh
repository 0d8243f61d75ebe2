#!/usr/bin/env bash
# Installs what fiohist needs to build and test, from Debian's packages.
# Usage: tools/install-deps.sh [--test]   (--test adds what the test suite needs)
set -euo pipefail
pkgs=(cmake g++ make rapidjson-dev libboost-program-options-dev libcurl4-openssl-dev zlib1g-dev
      libisal-dev libgtest-dev python3 help2man)
# npm: the report's chart library (Apache ECharts) comes from npm, pinned by
# report/package-lock.json, and is embedded into fiohist at build time. Debian's npm only
# where no npm is installed (a Node.js from elsewhere brings its own).
command -v npm >/dev/null || pkgs+=(npm)
if [ "${1:-}" = "--test" ]; then
  # Elasticsearch and OpenSearch test nodes (downloaded with mvn, run on the JDK), fuzzers,
  # scripts.
  pkgs+=(maven default-jdk-headless clang libclang-rt-14-dev python3 python3-yaml unzip curl
         procps fio time man-db python3-jsonschema python3-junitparser chromium
         python3-numpy python3-pandas)
  # chromium: the report's browser tests (headless, driven by playwright-core from npm).
  # python3-numpy, python3-pandas: fio's fiologparser_hist.py, run live by golden.compat_flh.
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# The report's npm packages, exactly as the lockfile pins them.
"$(dirname "$0")/../report/install-assets.sh"
