#!/usr/bin/env bash
# The project's test command (`npm test`): build the package and the sandbox, type-check, Prettier's check
# (`npm run format:check`), n8n's gate
# (n8n-node lint and build at the root, which is the package; cloud eligibility, the scanner on the tarball), the
# engine and sandbox tests under jest, the end-to-end check inside a real n8n (with a browser journey) on
# n8n 2.41.1 and on n8n 1.123.81, then the queue-mode check (main, workers, webhook processor, Postgres,
# Redis) on both too. Every stage runs after a failure too, so one run shows everything that fails; exits
# non-zero if any stage failed, and ends with one line counting the checks of all stages, the only line of the
# log that CI reads as a test runner's closing (the last stage checks the others' logs for any other).
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p build
LOG_DIR="$(mktemp -d "${TMPDIR:-/tmp}/contact-data-test.XXXXXX")"
PASSED=0
FAILED=0

# stage <name> <command...>: runs it, echoing its output; counts its "N passed, M failed" line, or the
# stage itself as one check when it prints none.
stage() {
  local name="$1" status counts; shift
  echo "[stage] $name"
  "$@" 2>&1 | tee "$LOG_DIR/$name.log"
  status=${PIPESTATUS[0]}
  counts="$(grep -oE '[0-9]+ passed, [0-9]+ failed' "$LOG_DIR/$name.log" | tail -1)"
  if [ -n "$counts" ]; then
    PASSED=$((PASSED + $(cut -d' ' -f1 <<<"$counts")))
    FAILED=$((FAILED + $(cut -d' ' -f3 <<<"$counts")))
  elif [ "$status" -eq 0 ]; then PASSED=$((PASSED + 1)); fi
  if [ "$status" -ne 0 ]; then
    echo "[stage] $name failed (exit $status)"
    [ -n "$counts" ] && [ "$(cut -d' ' -f3 <<<"$counts")" -gt 0 ] || FAILED=$((FAILED + 1))
  fi
  return 0
}

jest_run() {
  local status=0
  # Jest's summary reporter only: its default one prints "PASS <file>" per file, which go test's reader
  # takes for its own closing line. The summary still lists every failing test in full.
  JEST_SUMMARY_ONLY=1 npx jest -c test/jest.config.js --ci --json --outputFile=build/jest-results.json "$@" || status=$?
  node -e '
    const r = require("./build/jest-results.json");
    console.log(`jest: ${r.numPassedTests} passed, ${r.numFailedTests + r.numRuntimeErrorTestSuites} failed`);
  ' || true
  return "$status"
}

build_all() { npm run --silent build:tools && npm run --silent build; }
stage build build_all
stage typecheck npm run --silent typecheck
stage format npm run --silent format:check
stage gate npm run --silent test:gate
stage jest jest_run "$@"
# The e2e and queue mode on each n8n line users run (scripts/n8n/paths.sh).
stage e2e-2.x env N8N_LINE=2.x npm run --silent test:e2e
stage e2e-1.x env N8N_LINE=1.x npm run --silent test:e2e
stage queue-2.x env N8N_LINE=2.x npm run --silent test:queue
stage queue-1.x env N8N_LINE=1.x npm run --silent test:queue
# CI reads other test runners' closing lines too (pytest's, go test's, TAP's "ok", ...): no stage may print one.
stage log node scripts/runner-lines.cjs "$LOG_DIR"/*.log
rm -rf "$LOG_DIR"
echo "total: $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
