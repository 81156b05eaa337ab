#!/usr/bin/env bash
# The project's test command (`npm test`): build the package and the sandbox, type-check, n8n's gate
# (n8n-node lint and build in the package's folder, cloud eligibility, the scanner on the tarball), the
# engine and sandbox tests under jest, then the end-to-end check inside a real n8n. Exits non-zero on any
# failure.
set -euo pipefail
cd "$(dirname "$0")/.."

npm run --silent build
npm run --silent typecheck
npm run --silent test:gate

mkdir -p build
status=0
npx jest --ci --json --outputFile=build/jest-results.json "$@" || status=$?
node -e '
  const r = require("./build/jest-results.json");
  console.log(`jest: ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
' || true
[ "$status" -eq 0 ] || exit "$status"
npm run --silent test:e2e
