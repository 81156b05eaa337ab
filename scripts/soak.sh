#!/usr/bin/env bash
# `npm run soak [N]`: the model of the API (test/model/) on N scenarios (20,000 unless given) from a
# random seed (MODEL_SEED to repeat one). A counterexample is printed shrunk, with its seed and path.
#   MODEL_ONLY=<regex>  fails only on violations whose code matches (c-hidden, a-cap, e-item…)
#   MODEL_SURVEY=1      fails on none: counts each kind of violation, with its first scenario
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-20000}"
SEED="${MODEL_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
echo "soak: $RUNS scenarios from seed $SEED"
MODEL_SEED="$SEED" MODEL_RUNS="$RUNS" MODEL_TIMEOUT_MS=86400000 \
  exec npx jest -c test/jest.config.js --testTimeout=86400000 test/model/model.test.ts -t 'money told true'
