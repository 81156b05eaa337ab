#!/usr/bin/env bash
# `npm run bench:queue`: the unlock case of the queue-mode check (scripts/queue/test.sh) as a bench, side by
# side with regular mode: 4 concurrent executions on one key unlocking overlapping ids, 4 x 4,500 and 4 x 9,000,
# first with one n8n process running the executions (regular mode), then in queue mode with 4 workers. Merges
# the figures into bench/results.json (key queue_mode) and docs/performance.md. See docs/performance.md.
#   BENCH_QUEUE_SIZES ("4500 9000"), BENCH_QUEUE_WORKERS (4), BENCH_QUEUE_WORKER_CONCURRENCY (2)
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES="${BENCH_QUEUE_SIZES:-4500 9000}"
RUNS="$(mktemp "${TMPDIR:-/tmp}/contact-data-bench-queue.XXXXXX.json")"
trap 'rm -f "$RUNS"' EXIT
npm run --silent build
status=0
QUEUE_ONLY=unlock QUEUE_EXECUTIONS_MODE=regular QUEUE_IDS_PER_EXECUTION="$SIZES" QUEUE_FIGURES_JSON="$RUNS" \
  bash scripts/queue/test.sh || status=1
QUEUE_ONLY=unlock QUEUE_WORKERS="${BENCH_QUEUE_WORKERS:-4}" QUEUE_WORKER_CONCURRENCY="${BENCH_QUEUE_WORKER_CONCURRENCY:-2}" \
  QUEUE_IDS_PER_EXECUTION="$SIZES" QUEUE_FIGURES_JSON="$RUNS" bash scripts/queue/test.sh || status=1
node bench/queue-results.mjs "$RUNS"
exit $status
