#!/usr/bin/env bash
# `npm run bench`: builds the package (dist/, loaded by the real n8n) and the tools (build/: sandbox,
# bench), then runs every case once and writes bench/results.json. See docs/performance.md.
# BENCH_CASES=unlock,search,unlock_3_windows,search_3_windows,export,overhead,alternative picks cases.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run --silent build
npm run --silent build:tools
exec node build/bench/run.js
