#!/usr/bin/env bash
# Retakes the editor pictures of docs/images/n8n-<line>/ on both n8n lines: runs the end-to-end check with
# PICTURES_RETAKE=1, so its browser journey (scripts/n8n/journey.mjs) takes them in the state the check leaves
# the sandbox in, the state in which `npm test` compares them (scripts/n8n/compare-pictures.mjs).
#   N8N_LINE=2.x or 1.x retakes one line only.
set -euo pipefail
cd "$(dirname "$0")/../.."

for line in ${N8N_LINE:-2.x 1.x}; do
  PICTURES_RETAKE=1 N8N_LINE="$line" bash scripts/e2e.sh
done
