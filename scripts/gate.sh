#!/usr/bin/env bash
# n8n's gate for community packages (`npm run test:gate`, part of `npm test`), run where n8n runs it: at
# the package's root (the repository root), `n8n-node lint` (strict mode, the template's ESLint config), `n8n-node build` and
# `n8n-node cloud-support` (must say eligible); then the scanner's two lint legs on the source and on the
# packed tarball (scripts/gate/scan.mjs). Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
# Without colours, npm's config warnings, or the spinner frames that precede a step's last word.
plain() { sed -e 's/\x1b\[[0-9;?]*[a-zA-Z]//g' -e 's/^.*\([◇└]\)/\1/' | grep -v 'Unknown \(user\|env\) config' || true; }

echo "gate: n8n-node lint"
npx --no-install n8n-node lint 2>&1 | plain
echo "gate: n8n-node build"
npx --no-install n8n-node build 2>&1 | plain | grep -E 'successful|failed|error' || true
[ -f "dist/nodes/ContactData/ContactData.node.js" ] || { echo "gate: n8n-node build shipped no JavaScript" >&2; exit 1; }
echo "gate: n8n-node cloud-support"
support="$(npx --no-install n8n-node cloud-support 2>&1 | plain)"
grep -E 'Strict mode|ESLint config|Status' <<<"$support"
grep -q 'Status: eligible' <<<"$support" || { echo "gate: not eligible for n8n Cloud verification" >&2; exit 1; }
echo "gate: @n8n/scan-community-package"
node scripts/gate/scan.mjs .
