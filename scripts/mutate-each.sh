#!/usr/bin/env bash
# `bash scripts/mutate-each.sh [file…]`: `npm run mutate` one source file at a time (all the
# mutated files unless given), each report written as reports/mutation/files/<file>.json (so runs on
# different files may go at once), then the score over all of them (scripts/mutation-score.mjs). A
# file's report is written when its run ends, so an interrupted sweep still leaves the files done.
# Each run's wall time: reports/mutation/times.
set -euo pipefail
cd "$(dirname "$0")/.."
FILES=("$@")
if [ ${#FILES[@]} -eq 0 ]; then
  FILES=(nodes/ContactData/shared/budget/*.ts nodes/ContactData/resources/contact/unlock.ts
    nodes/ContactData/resources/contact/enrich.ts)
fi
mkdir -p reports/mutation/files
for file in "${FILES[@]}"; do
  name="$(basename "$file" .ts)"
  started="$(date +%s)"
  MUTATION_REPORT="reports/mutation/files/$name" \
    npm run --silent mutate -- --mutate "$file" --reporters json,html,clear-text,progress
  echo "$name $(($(date +%s) - started)) s" | tee -a reports/mutation/times
done
node scripts/mutation-score.mjs reports/mutation/files/*.json
