#!/usr/bin/env bash
# `npm start`: a playground to try the nodes by hand. Builds the package and installs it into a fresh n8n
# data folder as a community package, starts the sandbox and a real n8n on http://localhost:5678 with an
# owner account, a ready sandbox credential and the example workflows, then waits. Ctrl-C stops everything
# it started. The data folder is recreated on every start (export workflows you want to keep).
#   PLAYGROUND_DIR (default <cache>/playground), PLAYGROUND_PORT (5678), PLAYGROUND_SANDBOX_PORT (4010),
#   SANDBOX_CONTACTS, SANDBOX_TIME_SCALE, ... are passed on to the sandbox.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/n8n/lib.sh

PLAYGROUND_DIR="${PLAYGROUND_DIR:-$N8N_CACHE_ROOT/playground}"
PORT="${PLAYGROUND_PORT:-5678}"
OWNER_EMAIL=owner@example.com
OWNER_PASSWORD=Playground-n8n-1

trap 'echo "Stopping n8n and the sandbox..."; stop_started' EXIT
trap 'exit 130' INT TERM

rm -rf "$PLAYGROUND_DIR" && mkdir -p "$PLAYGROUND_DIR"
# Only a first start installs n8n, and install.sh says so then (about 5 minutes).
echo "Starting the playground in $PLAYGROUND_DIR..."
bring_up "$PLAYGROUND_DIR" "$PORT" "$((PORT + 1))" "${PLAYGROUND_SANDBOX_PORT:-4010}" \
  SANDBOX_CONTACTS="${SANDBOX_CONTACTS:-150000}" SANDBOX_TIME_SCALE="${SANDBOX_TIME_SCALE:-1}"
# The examples are imported side by side (one API call each).
imports=()
for example in examples/*.json; do n8n_import_workflow "$example" >/dev/null & imports+=($!); done
for pid in "${imports[@]}"; do wait "$pid" || { echo "importing an example failed" >&2; exit 1; }; done
for example in examples/*.json; do echo "  imported $(jq -r .name "$example")"; done

cat <<INFO

n8n is running with the Contact Data nodes: $(editor_url "$PORT") (ready after $SECONDS s)
  log in as  $OWNER_EMAIL  /  $OWNER_PASSWORD
  credential "$CREDENTIAL_NAME" -> the sandbox at $SANDBOX_URL (key $SANDBOX_KEY)
  files written by workflows: $N8N_FILES_DIR
  logs: $N8N_LOG, $PLAYGROUND_DIR/sandbox.log
  fire a Contact Data Trigger event: npm run sandbox:event
Press Ctrl-C to stop n8n and the sandbox.
INFO
wait "$N8N_PID"
