#!/usr/bin/env bash
# Retakes the editor screenshots in docs/images/: starts n8n with the package and the examples (the same
# bring_up as the playground and the end-to-end check), logs in with Debian's Chromium driven by
# playwright-core, and saves the pictures. playwright-core is installed in the cache folder, not in the
# project. Needs: apt-get install -y chromium.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/n8n/lib.sh

PLAYWRIGHT_VERSION=1.64.1
TOOLS_DIR="$N8N_CACHE_ROOT/tools/playwright-core-$PLAYWRIGHT_VERSION"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/contact-data-screenshots.XXXXXX")"
OWNER_EMAIL=owner@example.com
OWNER_PASSWORD=Screenshot-n8n-1

[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || { echo "Chromium is missing: apt-get install -y chromium" >&2; exit 1; }
if [ ! -d "$TOOLS_DIR/node_modules/playwright-core" ]; then
  mkdir -p "$TOOLS_DIR" && echo '{"private": true}' >"$TOOLS_DIR/package.json"
  (cd "$TOOLS_DIR" && npm install --silent --no-audit --no-fund "playwright-core@$PLAYWRIGHT_VERSION")
fi

trap 'stop_started; rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM
read -r n8n_port broker_port <<<"$(free_ports 2)"
bring_up "$WORK" "$n8n_port" "$broker_port" 0 SANDBOX_CONTACTS=150000
mkdir -p docs/images
crm="$(n8n_import_workflow examples/search-unlock-upsert-crm.json)"
alert="$(n8n_import_workflow examples/job-change-alert.json)"
agent="$(n8n_import_workflow examples/ai-agent-prospecting.json)"
shots="$(jq -nc --arg crm "$crm" --arg alert "$alert" --arg agent "$agent" '[
  {workflowId: $crm, file: "docs/images/editor-search-unlock-crm.png", openNode: null},
  {workflowId: $crm, file: "docs/images/editor-unlock-node.png", openNode: "Unlock within 25 credits"},
  {workflowId: $alert, file: "docs/images/editor-job-change-alert.png", openNode: null},
  {workflowId: $agent, file: "docs/images/editor-ai-agent-tools.png", openNode: null}]')"
node scripts/n8n/screenshot.mjs "$TOOLS_DIR/node_modules/playwright-core" "$N8N_BASE" "$OWNER_EMAIL" "$OWNER_PASSWORD" "$shots"
