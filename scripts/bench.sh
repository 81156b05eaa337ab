#!/usr/bin/env bash
# `npm run bench`: builds the package (dist/, installed into the real n8n) and the bench (build/:
# sandbox, bench), then runs every case once, prints the figures and writes bench/results.json.
# See docs/performance.md.
#   BENCH_CASES=unlock,search,unlock_3_windows,search_3_windows,export,overhead,alternative  picks cases
#   BENCH_INSTALL_N8N=1  installs the real n8n first when it is missing (about 5 minutes, cached);
#                        without it the alternative case is reported as skipped
#   BENCH_CPU_PROF=<folder>  writes a V8 CPU profile of every engine run there
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${BENCH_INSTALL_N8N:-}" ]; then
  bash scripts/n8n/install.sh >/dev/null
fi
npm run --silent build
npm run --silent build:tools
exec node build/bench/run.cjs
