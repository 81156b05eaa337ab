#!/usr/bin/env bash
# The queue-mode check (`npm run test:queue`): this package in a real n8n 2.41.1 deployment in queue mode on
# this machine (Postgres and Redis of its own, main, 2 workers with concurrency 2, a webhook processor, and a
# load balancer in front of main and the webhook processor), against the sandbox. Checks through n8n itself:
#   1. four concurrent executions unlocking overlapping ids on the workers: no failed item, credits charged
#      equal to the unique contacts unlocked, calls and 429s reported;
#   2. trigger deliveries whose first answer is lost (the retry reaches the other process) and deliveries
#      replayed byte for byte to both processes: each event id is passed on by exactly one execution;
#   3. a main restart: the same single subscription, and new events still passed on exactly once.
# Prints the figures; stops everything it started (by id); on a failure prints the end of the logs.
#   QUEUE_KEEP=1 keeps the work folder; QUEUE_IDS_PER_EXECUTION (4500), QUEUE_EVENTS (6) size the runs.
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/n8n/lib.sh
QUEUE_DIR="$(pwd)/scripts/queue"
source "$QUEUE_DIR/infra.sh"
source "$QUEUE_DIR/roles.sh"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/contact-data-queue.XXXXXX")"
WORKFLOWS=test/queue/workflows
IDS_PER_EXECUTION="${QUEUE_IDS_PER_EXECUTION:-4500}"
EXECUTIONS=4
EVENTS="${QUEUE_EVENTS:-6}"
TIME_SCALE=6
OWNER_EMAIL=queue@example.com
OWNER_PASSWORD="Queue-$(date +%s)-Pw"
PASSED=0
FAILED=0
STARTED_AT=$SECONDS
declare -A FIGURES=()

finish() {
  local status=$?
  [ "$status" -ne 0 ] && [ "$FAILED" -eq 0 ] && FAILED=1
  stop_started
  print_figures
  if [ "$FAILED" -eq 0 ] && [ -z "${QUEUE_KEEP:-}" ]; then rm -rf "$WORK"; else echo "queue: work folder kept: $WORK"; fi
  echo "queue: took $((SECONDS - STARTED_AT)) s"
  echo "queue: $PASSED passed, $FAILED failed"
  [ "$FAILED" -eq 0 ] || exit 1
}
trap finish EXIT
trap 'exit 130' INT TERM

log() { echo "[$(date +%T)] $*"; }

# check <what> <command...>: runs one check. A failure is reported with the ends of the logs and the run goes
# on (the unlock, trigger and restart checks are independent); the exit status counts it.
check() {
  local what="$1" log_file; shift
  if "$@"; then
    PASSED=$((PASSED + 1)); echo "  ok    $what"
  else
    FAILED=$((FAILED + 1)); echo "  FAIL  $what" >&2
    for log_file in "$WORK"/*.log; do echo "----- end of $log_file -----" >&2; tail -25 "$log_file" >&2; done
  fi
}

# poll <seconds> <command...>: retries the command every second until it succeeds.
poll() {
  local deadline=$((SECONDS + $1)); shift
  until "$@"; do ((SECONDS < deadline)) || return 1; sleep 1; done
}

sandbox() { curl -sS --fail-with-body -H "Authorization: Bearer $SANDBOX_KEY" -H 'content-type: application/json' "$@"; }
sandbox_admin() { curl -sS --fail-with-body -H 'content-type: application/json' "$@"; }
lb() { curl -sS --fail-with-body -H 'content-type: application/json' "$LB_URL/_lb/$1" "${@:2}"; }

print_figures() {
  [ ${#FIGURES[@]} -gt 0 ] || return 0
  echo
  echo "| queue mode (main + webhook processor behind a load balancer, 2 workers x concurrency 2) | figure |"
  echo "|---|---|"
  local key
  while IFS= read -r key; do echo "| ${key#*:} | ${FIGURES[$key]} |"; done < <(printf '%s\n' "${!FIGURES[@]}" | sort)
  echo
}

# ---------------------------------------------------------------- 1. install and start
ensure_tools || exit 1
queue_ensure_packages || exit 1
npm_forget_repo_config
bash "$N8N_LIB_DIR/install.sh" >/dev/null || exit 1
n8n_use_node24
read -r QUEUE_PG_PORT QUEUE_REDIS_PORT MAIN_PORT MAIN_BROKER WH_PORT WH_BROKER W1_PORT W1_BROKER W2_PORT W2_BROKER \
  <<<"$(free_ports 10)"
export QUEUE_PG_PORT QUEUE_REDIS_PORT

log "Postgres, Redis, the package from its tarball, the sandbox and the load balancer"
start_postgres "$WORK/pg" "$QUEUE_PG_PORT" "$WORK/postgres.log" || exit 1
start_redis "$WORK/redis" "$QUEUE_REDIS_PORT" "$WORK/redis.log" || exit 1
n8n_install_package "$WORK/package" >"$WORK/package-install.log" 2>&1 || { tail -20 "$WORK/package-install.log"; exit 1; }
start_sandbox 0 "$WORK/sandbox.log" SANDBOX_CONTACTS=100000 SANDBOX_TIME_SCALE="$TIME_SCALE" >"$WORK/sandbox-build.log" 2>&1 ||
  { tail -20 "$WORK/sandbox-build.log" "$WORK/sandbox.log"; exit 1; }
spawn "$WORK/lb.log" env LB_PORT=0 LB_TARGETS="http://127.0.0.1:$MAIN_PORT,http://127.0.0.1:$WH_PORT" \
  node "$QUEUE_DIR/lb.mjs"
wait_for 30 "$SPAWNED_PID" "$WORK/lb.log" grep -q 'load balancer on' "$WORK/lb.log" || exit 1
LB_URL="$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$WORK/lb.log" | head -1)"
QUEUE_WEBHOOK_URL="$LB_URL/"
N8N_BASE="http://127.0.0.1:$MAIN_PORT"
N8N_COOKIES="$WORK/cookies.txt"

for role in main w1 w2 wh; do install_package_copy "$WORK/package" "$WORK/$role"; done

# start_main <log>: main on its user folder and ports; waits until ready (migrations on a fresh database).
start_main() {
  spawn_n8n_role "$1" "$WORK/main" "$MAIN_PORT" "$MAIN_BROKER" -- start
  MAIN_PID=$SPAWNED_PID
  wait_for 300 "$MAIN_PID" "$1" curl -sf "$N8N_BASE/healthz/readiness"
}

log "n8n main"
t0=$SECONDS
start_main "$WORK/main.log" || exit 1
FIGURES[a0:main ready on a fresh database]="$((SECONDS - t0)) s"
n8n_setup_owner "$OWNER_EMAIL" "$OWNER_PASSWORD" || exit 1
CREDENTIAL_ID="$(n8n_create_credential "$CREDENTIAL_NAME" "$SANDBOX_URL" "$SANDBOX_KEY")" || exit 1

log "2 workers and a webhook processor"
t0=$SECONDS
spawn_n8n_role "$WORK/w1.log" "$WORK/w1" "$W1_PORT" "$W1_BROKER" \
  QUEUE_HEALTH_CHECK_ACTIVE=true QUEUE_HEALTH_CHECK_PORT="$W1_PORT" -- worker --concurrency=2
W1_PID=$SPAWNED_PID
spawn_n8n_role "$WORK/w2.log" "$WORK/w2" "$W2_PORT" "$W2_BROKER" \
  QUEUE_HEALTH_CHECK_ACTIVE=true QUEUE_HEALTH_CHECK_PORT="$W2_PORT" -- worker --concurrency=2
W2_PID=$SPAWNED_PID
spawn_n8n_role "$WORK/wh.log" "$WORK/wh" "$WH_PORT" "$WH_BROKER" -- webhook
WH_PID=$SPAWNED_PID
wait_for 300 "$W1_PID" "$WORK/w1.log" curl -sf "http://127.0.0.1:$W1_PORT/healthz/readiness" || exit 1
wait_for 300 "$W2_PID" "$WORK/w2.log" curl -sf "http://127.0.0.1:$W2_PORT/healthz/readiness" || exit 1
wait_for 300 "$WH_PID" "$WORK/wh.log" curl -sf "http://127.0.0.1:$WH_PORT/healthz/readiness" || exit 1
FIGURES[a1:workers and webhook processor ready]="$((SECONDS - t0)) s"
log "all up"

# ---------------------------------------------------------------- helpers on n8n's executions
# executions <workflow id>: every execution of the workflow with its data (one JSON array).
executions() {
  n8n_api GET "/executions?workflowId=$1&includeData=true&limit=250" | jq -c '.data'
}
# finished_count <workflow id>
finished_count() {
  n8n_api GET "/executions?workflowId=$1&limit=250" | jq '[.data[] | select(.finished or .status == "error" or .status == "crashed")] | length'
}
activate() { n8n_api POST "/workflows/$1/activate" | jq -e '.active == true' >/dev/null; }

# ---------------------------------------------------------------- 2. concurrent unlocks on the workers
# contact_ids <count>: ids of sandbox contacts, paged from search (at most 10,000 results a query, so one query
# per seniority after the first) with the key that holds no credits; written to $WORK/ids.txt.
contact_ids() {
  local filters cursor page
  : >"$WORK/ids.txt"
  for filters in '{}' $(jq -nc '["vp", "director", "manager", "senior", "entry", "head", "c_suite"][] | {seniority: [.]}'); do
    cursor=""
    while :; do
      page="$(curl -sS --fail-with-body -H 'Authorization: Bearer sk_sandbox_empty' -H 'content-type: application/json' \
        "$SANDBOX_URL/v1/search" -d "$(jq -nc --argjson f "$filters" --arg c "$cursor" \
        '{filters: $f, limit: 100} + (if $c == "" then {} else {cursor: $c} end)')")" || return 1
      jq -r '.results[].id' <<<"$page" >>"$WORK/ids.txt"
      cursor="$(jq -r '.next_cursor // ""' <<<"$page")"
      [ -n "$cursor" ] && [ "$(sort -u "$WORK/ids.txt" | wc -l)" -lt "$1" ] || break
    done
    [ "$(sort -u "$WORK/ids.txt" | wc -l)" -ge "$1" ] && break
  done
  awk '!seen[$0]++' "$WORK/ids.txt" | head -n "$1" >"$WORK/ids-unique.txt" && mv "$WORK/ids-unique.txt" "$WORK/ids.txt"
  [ "$(wc -l <"$WORK/ids.txt")" -eq "$1" ]
}

unlock_concurrently() {
  local step=$((IDS_PER_EXECUTION * 2 / 3)) unique workflow i pids=() stats unlocked failed calls
  # Execution i unlocks ids [i*step, i*step + IDS): each shares a third of its ids with the next.
  unique=$((step * (EXECUTIONS - 1) + IDS_PER_EXECUTION))
  sandbox_admin -X POST "$SANDBOX_URL/_sandbox/settings" -d '{"rate_limits": false}' >/dev/null &&
    contact_ids "$unique" || { echo "could not page $unique contact ids from the sandbox" >&2; return 1; }
  sandbox_admin -X POST "$SANDBOX_URL/_sandbox/reset" >/dev/null &&
    sandbox_admin -X POST "$SANDBOX_URL/_sandbox/settings" -d "{\"rate_limits\": true, \"time_scale\": $TIME_SCALE}" >/dev/null || return 1
  workflow="$(n8n_import_workflow "$WORKFLOWS/unlock-overlapping.json")" && activate "$workflow" || return 1
  for ((i = 0; i < EXECUTIONS; i++)); do
    sed -n "$((i * step + 1)),$((i * step + IDS_PER_EXECUTION))p" "$WORK/ids.txt" | jq -R . | jq -sc '{ids: .}' >"$WORK/unlock-$i.json"
  done
  local t0=$SECONDS
  for ((i = 0; i < EXECUTIONS; i++)); do
    curl -sS --fail-with-body -H 'content-type: application/json' --data-binary "@$WORK/unlock-$i.json" \
      "$N8N_BASE/webhook/queue-check-unlock" >"$WORK/unlock-$i.answer" &
    pids+=($!)
  done
  for i in "${pids[@]}"; do wait "$i" || { echo "a webhook call was refused" >&2; return 1; }; done
  unlocks_finished() { [ "$(finished_count "$workflow")" -ge "$EXECUTIONS" ]; }
  poll 900 unlocks_finished || { echo "the executions did not finish within 900 s" >&2; return 1; }
  FIGURES[b0:unlock: wall time of 4 executions at once, from the first call]="$((SECONDS - t0)) s (sandbox time scale $TIME_SCALE)"
  executions "$workflow" >"$WORK/unlock-executions.json" || return 1
  stats="$(sandbox_admin "$SANDBOX_URL/_sandbox/stats")" || return 1
  calls="$(jq --arg k "$SANDBOX_KEY" '.keys[$k].requests["POST /v1/unlock"] // 0' <<<"$stats")"
  unlocked="$(jq '[.[].data.resultData.runData["Unlock"][0].data.main[0][]? | select(.json.error == null) | .json.id] | unique | length' "$WORK/unlock-executions.json")"
  failed="$(jq '[.[] | (.data.resultData.runData["Unlock"][0].data.main[0] // []) | .[] | select(.json.error != null)] | length' "$WORK/unlock-executions.json")"
  FIGURES[b1:unlock: executions x ids (unique contacts)]="$EXECUTIONS x $IDS_PER_EXECUTION ($unique)"
  FIGURES[b2:unlock: executions per worker]="$(for w in w1 w2; do printf '%s %s ' "$w" "$(grep -c 'Worker started execution' "$WORK/$w.log")"; done)"
  FIGURES[b3:unlock: calls (minimum)]="$calls ($((EXECUTIONS * ((IDS_PER_EXECUTION + 99) / 100))))"
  FIGURES[b4:unlock: 429 answers]="$(jq --arg k "$SANDBOX_KEY" '.keys[$k].http_429' <<<"$stats")"
  FIGURES[b5:unlock: failed items]="$failed"
  FIGURES[b6:unlock: credits charged vs unique contacts unlocked]="$(jq --arg k "$SANDBOX_KEY" '.keys[$k].credits_charged' <<<"$stats") vs $unlocked"
  jq -e 'length == '"$EXECUTIONS"' and all(.status == "success")' "$WORK/unlock-executions.json" >/dev/null ||
    { echo "executions: $(jq -c '[.[] | {id, status}]' "$WORK/unlock-executions.json")" >&2; return 1; }
  [ "$(jq --arg k "$SANDBOX_KEY" '.keys[$k].credits_charged' <<<"$stats")" -eq "$unlocked" ] ||
    { echo "credits charged differ from the unique contacts unlocked" >&2; return 1; }
}
check "4 concurrent executions on the workers unlock overlapping ids: every execution succeeds, credits = unique contacts unlocked" \
  unlock_concurrently

no_failed_items() {
  local failed="${FIGURES[b5:unlock: failed items]:-unknown}"
  [ "$failed" = 0 ] || { echo "$failed items failed: $(jq -c '[.[] | (.data.resultData.runData["Unlock"][0].data.main[0] // [])[] | .json.error // empty] | unique' "$WORK/unlock-executions.json")" >&2; return 1; }
}
check "no unlocked item failed because other executions share the key" no_failed_items

# ---------------------------------------------------------------- 3. trigger deliveries across processes
TRIGGER_WORKFLOW=""
SUBSCRIPTION_ID=""
subscriptions() { sandbox "$SANDBOX_URL/v1/webhooks" | jq -c '.webhooks'; }
subscribed() { subscriptions | jq -e --arg u "$QUEUE_WEBHOOK_URL" 'length == 1 and (.[0].url | startswith($u))' >/dev/null; }

# emit <count>: that many job changes of members of the saved list; their ids go to $WORK/events.txt.
emit() {
  sandbox_admin -X POST "$SANDBOX_URL/_sandbox/events" -d "{\"type\": \"job_change\", \"list_id\": \"$LIST_ID\", \"count\": $1}" |
    jq -r '.events[].id' >>"$WORK/events.txt"
}
# settled: every emitted event has an acknowledged (2xx) delivery attempt.
settled() {
  sandbox_admin "$SANDBOX_URL/_sandbox/deliveries" | jq -e --rawfile ids "$WORK/events.txt" '
    ($ids | split("\n") | map(select(. != ""))) as $wanted
    | [.deliveries[] | select(.ok) | .event_id] as $acked | all($wanted[]; . as $e | $acked | index($e))' >/dev/null
}
# started: the deliveries and replays n8n answered by starting an execution (not a fast-path duplicate).
started() {
  { lb log | jq '[.[] | select(.webhook_id != "" and .upstream == 200 and (.body | test("\"duplicate\"") | not))] | length'
    cat "$WORK/replays.txt" 2>/dev/null | jq -s '[.[] | select(.status == 200 and (.body | test("\"duplicate\"") | not))] | length'
  } | jq -s 'add'
}
# all_executions_finished: as many finished executions of the trigger workflow as were started.
all_executions_finished() { [ "$(finished_count "$TRIGGER_WORKFLOW")" -ge "$(started)" ]; }

# passed_on_once: each emitted event was passed on by exactly one execution; records the figures.
passed_on_once() {
  executions "$TRIGGER_WORKFLOW" >"$WORK/trigger-executions.json" || return 1
  jq -e --rawfile ids "$WORK/events.txt" '
    ($ids | split("\n") | map(select(. != ""))) as $wanted
    | [.[] | (.data.resultData.runData["Job change"][0].data.main[0] // [])[] | .json.event_id] as $passed
    | all($wanted[]; . as $e | [$passed[] | select(. == $e)] | length == 1) and ($passed | length) == ($wanted | length)' \
    "$WORK/trigger-executions.json" >/dev/null || {
    echo "executions per event id: $(jq -c '[.[] | (.data.resultData.runData["Job change"][0].data.main[0] // [])[] | .json.event_id] | group_by(.) | map({(.[0]): length}) | add' "$WORK/trigger-executions.json")" >&2
    return 1
  }
}

trigger_exactly_once() {
  LIST_ID="$(sandbox -X POST "$SANDBOX_URL/v1/lists" -d '{"name": "Queue check VPs", "filters": {"seniority": ["vp"]}}' | jq -er .id)" || return 1
  sandbox_admin -X POST "$SANDBOX_URL/_sandbox/settings" -d '{"webhook_retry_delays_ms": [3000, 5000, 8000, 13000]}' >/dev/null || return 1
  TRIGGER_WORKFLOW="$(n8n_import_workflow "$WORKFLOWS/job-change-count.json")" && activate "$TRIGGER_WORKFLOW" &&
    poll 60 subscribed || { echo "subscriptions: $(subscriptions)" >&2; return 1; }
  SUBSCRIPTION_ID="$(subscriptions | jq -r '.[0].id')"
  lb settings -d '{"lose_first_answer": true}' >/dev/null || return 1
  : >"$WORK/events.txt"
  emit "$EVENTS" && poll 180 settled || { echo "deliveries did not settle" >&2; return 1; }
  # Each delivery's first attempt, byte for byte, to both processes (inside the signature window).
  local id target
  while read -r id; do
    for target in 0 1; do
      lb replay -d "{\"webhook_id\": \"$id\", \"attempt\": 1, \"target\": $target}" >>"$WORK/replays.txt" || return 1
      echo >>"$WORK/replays.txt"
    done
  done <"$WORK/events.txt"
  poll 300 all_executions_finished || { echo "started $(started), finished $(finished_count "$TRIGGER_WORKFLOW")" >&2; return 1; }
  passed_on_once || return 1
  trigger_figures
}

trigger_figures() {
  local log_json deliveries
  log_json="$(lb log)"
  deliveries="$(jq '[.[] | select(.webhook_id != "")] | length' <<<"$log_json")"
  FIGURES[c0:trigger: events, deliveries (first answers lost), replays]="$(wc -l <"$WORK/events.txt"), $deliveries, $(jq -s length "$WORK/replays.txt")"
  FIGURES[c1:trigger: deliveries that reached main / webhook processor]="$(jq '[.[] | select(.webhook_id != "" and .target == 0)] | length' <<<"$log_json") / $(jq '[.[] | select(.webhook_id != "" and .target == 1)] | length' <<<"$log_json")"
  FIGURES[c2:trigger: copies answered as duplicates at once (same process)]="$(jq '[.[] | select(.body | test("\"duplicate\""))] | length' <<<"$log_json") + $(jq -s '[.[] | select(.body | test("\"duplicate\""))] | length' "$WORK/replays.txt") replayed"
  FIGURES[c3:trigger: executions started / passing the event on / empty]="$(jq length "$WORK/trigger-executions.json") / $(jq '[.[] | select((.data.resultData.runData["Job change"][0].data.main[0] // []) | length > 0)] | length' "$WORK/trigger-executions.json") / $(jq '[.[] | select((.data.resultData.runData["Job change"][0].data.main[0] // []) | length == 0)] | length' "$WORK/trigger-executions.json")"
  FIGURES[c4:trigger: executions passing on each event id]="$(jq -c '[.[] | (.data.resultData.runData["Job change"][0].data.main[0] // [])[] | .json.event_id] | group_by(.) | map(length) | unique' "$WORK/trigger-executions.json") (should be [1])"
  FIGURES[c5:trigger: acknowledgement of an accepted delivery]="$(jq -r '[.[] | select(.webhook_id != "" and .attempt == 1)][0].body' <<<"$log_json")"
}
check "retried and replayed deliveries reaching main and the webhook processor: each event id passed on by exactly one execution" \
  trigger_exactly_once

# ---------------------------------------------------------------- 4. a main restart
restart_keeps_subscription() {
  local t0=$SECONDS
  stop_group "$MAIN_PID" && start_main "$WORK/main-restarted.log" || return 1
  FIGURES[d0:main restart: stopped to ready]="$((SECONDS - t0)) s"
  subscriptions | jq -e --arg id "$SUBSCRIPTION_ID" 'length == 1 and .[0].id == $id' >/dev/null ||
    { echo "subscriptions after the restart: $(subscriptions)" >&2; return 1; }
  # The first event's first delivery again, to the restarted main (whose memory is new): if its signature is
  # still fresh, an execution starts and the worker drops the copy.
  local replay
  replay="$(lb replay -d "{\"webhook_id\": \"$(head -1 "$WORK/events.txt")\", \"attempt\": 1, \"target\": 0}")" || return 1
  echo "$replay" >>"$WORK/replays.txt"
  FIGURES[d2:main restart: an earlier delivery replayed to the restarted main]="$(jq -c '{status, body}' <<<"$replay")"
  emit 2 && poll 180 settled && poll 300 all_executions_finished && passed_on_once || return 1
  FIGURES[d1:main restart: subscriptions before / after (same id)]="1 / $(subscriptions | jq length) ($(subscriptions | jq -r --arg id "$SUBSCRIPTION_ID" '.[0].id == $id'))"
  trigger_figures
}
check "after a main restart: the same single subscription, and new events (first answers lost) passed on exactly once" \
  restart_keeps_subscription

package_loads_cleanly() {
  local complaints
  complaints="$(cat "$WORK"/main*.log "$WORK"/w?.log "$WORK"/wh.log | grep -iE 'contact-?data' |
    grep -iE 'warn|error|fail|unknown|cannot|not found' || true)"
  [ -z "$complaints" ] || { echo "n8n complained about the package:" >&2; echo "$complaints" >&2; return 1; }
}
check "no n8n process logged a warning or error about the package" package_loads_cleanly
