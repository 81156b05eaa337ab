#!/usr/bin/env bash
# The queue-mode check (`npm run test:queue`): this package in a real n8n deployment in queue mode on this
# machine (Postgres and Redis of its own, main, 2 workers with concurrency 2, a webhook processor, and a
# load balancer in front of main and the webhook processor), against the sandbox, on the n8n line N8N_LINE
# names (2.x, the default: n8n 2.41.1; 1.x: n8n 1.123.81; scripts/n8n/paths.sh). Checks through n8n itself:
#   1. four concurrent executions unlocking overlapping ids on the workers: no failed item, credits charged
#      equal to the unique contacts unlocked, calls and 429s reported;
#   2. trigger deliveries whose first answer is lost (the retry reaches the other process) and deliveries
#      replayed byte for byte to both processes: each event id is passed on by exactly one execution;
#   3. a main restart: the same single subscription, and new events still passed on exactly once.
# Prints the figures; stops everything it started (by id); on a failure prints the end of the logs.
#   QUEUE_KEEP=1 keeps the work folder; QUEUE_IDS_PER_EXECUTION (4500), QUEUE_EVENTS (6) size the runs.
# For the bench (bench/queue.sh):
#   QUEUE_WORKERS (2), QUEUE_WORKER_CONCURRENCY (2)  the workers;
#   QUEUE_EXECUTIONS_MODE=regular                    main alone runs the executions (no worker is started);
#   QUEUE_ONLY=unlock                                the unlock check alone (no webhook processor, trigger or restart);
#   QUEUE_IDS_PER_EXECUTION="4500 9000"              one unlock run per size, in the same bring-up;
#   QUEUE_FIGURES_JSON=<file>                        the unlock figures of every run, as a JSON array.
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/n8n/lib.sh
QUEUE_DIR="$(pwd)/scripts/queue"
source "$QUEUE_DIR/infra.sh"
source "$QUEUE_DIR/roles.sh"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/contact-data-queue-$N8N_LINE.XXXXXX")"
WORKFLOWS=test/queue/workflows
read -r -a IDS_SIZES <<<"${QUEUE_IDS_PER_EXECUTION:-4500}"
EXECUTIONS_MODE="${QUEUE_EXECUTIONS_MODE:-queue}"
WORKERS="${QUEUE_WORKERS:-2}"
[ "$EXECUTIONS_MODE" = queue ] || WORKERS=0
WORKER_CONCURRENCY="${QUEUE_WORKER_CONCURRENCY:-2}"
ONLY="${QUEUE_ONLY:-}"
FIGURES_JSON="${QUEUE_FIGURES_JSON:-}"
EXECUTIONS=4
EVENTS="${QUEUE_EVENTS:-6}"
TIME_SCALE=6
OWNER_EMAIL=queue@example.com
OWNER_PASSWORD="Queue-$(date +%s)-Pw"
declare -A FIGURES=()
checks_begin queue "$WORK" go-on print_figures
# A failed check shows the end of every log; the run goes on (the unlock, trigger and restart checks are
# independent), and the exit status counts it. Overrides on purpose the hook check_logs that `check` calls
# (scripts/n8n/checks.sh, whose own names n8n's log alone): here every process has a log of its own.
check_logs() { ls "$WORK"/*.log 2>/dev/null; }
CHECK_LOG_LINES=25

log() { echo "[$(date +%T)] $*"; }

lb() { curl -sS --fail-with-body -H 'content-type: application/json' "$LB_URL/_lb/$1" "${@:2}"; }

# Executions are counted and read as n8n's database records them (queue_executions): n8n's public API list
# leaves out what main holds as running, and a restarted main can hold an ended execution so for good
# (docs/queue-mode.md).
# recorded_executions <workflow id> [newest N]: the workflow's executions, newest first, each with its data.
recorded_executions() {
  local id
  queue_executions "$1" | jq -r ".[0:${2:-250}][].id" |
    while read -r id; do n8n_execution "$id" || exit 1; done | jq -sc .
}

# unlisted_executions <workflow id>: the ids of its executions missing from n8n's public API list (a JSON array).
unlisted_executions() {
  jq -cn --argjson recorded "$(queue_executions "$1")" \
    --argjson listed "$(n8n_api GET "/executions?workflowId=$1&limit=250" | jq -c '[.data[].id | tostring]')" '[$recorded[].id] - $listed'
}

# executions_summary <workflow id>: its executions by status (the ids of those not ended) and those missing
# from n8n's public API list, for a give-up message.
executions_summary() {
  local recorded unlisted
  recorded="$(queue_executions "$1")" && unlisted="$(unlisted_executions "$1")" || return 1
  jq -rn --argjson r "$recorded" --argjson u "$unlisted" '
    [$r[] | select(.ended | not) | .id] as $open
    | "executions in the database: \($r | group_by(.status) | map("\(length) \(.[0].status)") | join(", ") | if . == "" then "none" else . end)"
      + (if $open == [] then "" else " (not ended: \($open | join(", ")))" end)
      + (if $u == [] then "" else "; missing from the public API list (main holds them as running): \($u | join(", "))" end)'
}

print_figures() {
  [ ${#FIGURES[@]} -gt 0 ] || return 0
  echo
  echo "| $EXECUTIONS_MODE mode (main$([ -z "$ONLY" ] && echo ' + webhook processor behind a load balancer')$([ "$WORKERS" -gt 0 ] && echo ", $WORKERS workers x concurrency $WORKER_CONCURRENCY")) | figure |"
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
# Two ports a worker: its health check and its task-runner broker.
read -r QUEUE_PG_PORT QUEUE_REDIS_PORT MAIN_PORT MAIN_BROKER WH_PORT WH_BROKER WORKER_PORTS \
  <<<"$(free_ports $((6 + 2 * WORKERS)))"
read -r -a WORKER_PORTS <<<"${WORKER_PORTS:-}"
WORKER_NAMES=()
for ((i = 1; i <= WORKERS; i++)); do WORKER_NAMES+=("w$i"); done
export QUEUE_PG_PORT QUEUE_REDIS_PORT

log "n8n $N8N_VERSION (the $N8N_LINE line), work folder $WORK"
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

for role in main "${WORKER_NAMES[@]}" wh; do install_package_copy "$WORK/package" "$WORK/$role"; done

# start_main <log>: main on its user folder and ports; waits until ready (migrations on a fresh database)
# and its REST routes answer (n8n 1.x is ready before it mounts them; scripts/n8n/processes.sh).
start_main() {
  spawn_n8n_role "$1" "$WORK/main" "$MAIN_PORT" "$MAIN_BROKER" -- start
  MAIN_PID=$SPAWNED_PID
  wait_for 300 "$MAIN_PID" "$1" curl -sf "$N8N_BASE/healthz/readiness" &&
    wait_for 60 "$MAIN_PID" "$1" curl -sf "$N8N_BASE/rest/settings"
}

log "n8n main"
t0=$SECONDS
start_main "$WORK/main.log" || exit 1
FIGURES[a0:main ready on a fresh database]="$((SECONDS - t0)) s"
n8n_setup_owner "$OWNER_EMAIL" "$OWNER_PASSWORD" || exit 1
CREDENTIAL_ID="$(n8n_create_credential "$CREDENTIAL_NAME" "$SANDBOX_URL" "$SANDBOX_KEY")" || exit 1

[ "$WORKERS" -gt 0 ] || [ -z "$ONLY" ] && log "$WORKERS workers$([ -z "$ONLY" ] && echo ' and a webhook processor')"
t0=$SECONDS
declare -A ROLE_PID=() ROLE_PORT=()
for ((i = 0; i < WORKERS; i++)); do
  w="${WORKER_NAMES[$i]}" port="${WORKER_PORTS[$((2 * i))]}"
  spawn_n8n_role "$WORK/$w.log" "$WORK/$w" "$port" "${WORKER_PORTS[$((2 * i + 1))]}" \
    QUEUE_HEALTH_CHECK_ACTIVE=true QUEUE_HEALTH_CHECK_PORT="$port" -- worker --concurrency="$WORKER_CONCURRENCY"
  ROLE_PID[$w]=$SPAWNED_PID ROLE_PORT[$w]=$port
done
if [ -z "$ONLY" ]; then
  spawn_n8n_role "$WORK/wh.log" "$WORK/wh" "$WH_PORT" "$WH_BROKER" -- webhook
  ROLE_PID[wh]=$SPAWNED_PID ROLE_PORT[wh]=$WH_PORT
fi
for role in "${!ROLE_PID[@]}"; do
  wait_for 300 "${ROLE_PID[$role]}" "$WORK/$role.log" curl -sf "http://127.0.0.1:${ROLE_PORT[$role]}/healthz/readiness" || exit 1
done
[ ${#ROLE_PID[@]} -gt 0 ] && FIGURES[a1:workers$([ -z "$ONLY" ] && echo ' and webhook processor') ready]="$((SECONDS - t0)) s"
log "all up"

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

UNLOCK_WORKFLOW=""
# unlock_concurrently <ids per execution> <run>: 4 executions at once unlocking overlapping ids; the figures
# go to FIGURES (keys b<run>*) and, with QUEUE_FIGURES_JSON, to that file.
unlock_concurrently() {
  local ids_per_execution="$1" run="$2" step unique i pids=() stats unlocked failed calls before t0 wall label
  step=$((ids_per_execution * 2 / 3))
  # Execution i unlocks ids [i*step, i*step + IDS): each shares a third of its ids with the next.
  unique=$((step * (EXECUTIONS - 1) + ids_per_execution))
  label="unlock$([ ${#IDS_SIZES[@]} -gt 1 ] && echo " $EXECUTIONS x $ids_per_execution")"
  sandbox_admin -X POST "$SANDBOX_URL/_sandbox/settings" -d '{"rate_limits": false}' >/dev/null &&
    contact_ids "$unique" || { echo "could not page $unique contact ids from the sandbox" >&2; return 1; }
  sandbox_admin -X POST "$SANDBOX_URL/_sandbox/reset" >/dev/null &&
    sandbox_admin -X POST "$SANDBOX_URL/_sandbox/settings" -d "{\"rate_limits\": true, \"time_scale\": $TIME_SCALE}" >/dev/null || return 1
  if [ -z "$UNLOCK_WORKFLOW" ]; then
    UNLOCK_WORKFLOW="$(n8n_import_workflow "$WORKFLOWS/unlock-overlapping.json")" && n8n_activate "$UNLOCK_WORKFLOW" || return 1
  fi
  for ((i = 0; i < EXECUTIONS; i++)); do
    sed -n "$((i * step + 1)),$((i * step + ids_per_execution))p" "$WORK/ids.txt" | jq -R . | jq -sc '{ids: .}' >"$WORK/unlock-$i.json"
  done
  before="$(queue_ended_count "$UNLOCK_WORKFLOW")" || return 1
  for w in "${WORKER_NAMES[@]}"; do echo "$w $(grep -c 'Worker started execution' "$WORK/$w.log")"; done >"$WORK/started-before.txt"
  t0=$(date +%s%N)
  for ((i = 0; i < EXECUTIONS; i++)); do
    curl -sS --fail-with-body -H 'content-type: application/json' --data-binary "@$WORK/unlock-$i.json" \
      "$N8N_BASE/webhook/queue-check-unlock" >"$WORK/unlock-$i.answer" &
    pids+=($!)
  done
  for i in "${pids[@]}"; do wait "$i" || { echo "a webhook call was refused" >&2; return 1; }; done
  unlocks_finished() { [ "$(queue_ended_count "$UNLOCK_WORKFLOW")" -ge $((before + EXECUTIONS)) ]; }
  poll 900 unlocks_finished ||
    { echo "the executions did not finish within 900 s; $(executions_summary "$UNLOCK_WORKFLOW")" >&2; return 1; }
  wall=$((($(date +%s%N) - t0) / 1000000))
  FIGURES[b${run}0:$label: wall time of 4 executions at once, from the webhook calls]="$((wall / 1000)) s (sandbox time scale $TIME_SCALE)"
  # The newest executions first: this run's.
  recorded_executions "$UNLOCK_WORKFLOW" "$EXECUTIONS" >"$WORK/unlock-executions.json" || return 1
  stats="$(sandbox_admin "$SANDBOX_URL/_sandbox/stats")" || return 1
  calls="$(jq --arg k "$SANDBOX_KEY" '.keys[$k].requests["POST /v1/unlock"] // 0' <<<"$stats")"
  unlocked="$(jq '[.[].data.resultData.runData["Unlock"][0].data.main[0][]? | select(.json.error == null) | .json.id] | unique | length' "$WORK/unlock-executions.json")"
  failed="$(jq '[.[] | (.data.resultData.runData["Unlock"][0].data.main[0] // []) | .[] | select(.json.error != null)] | length' "$WORK/unlock-executions.json")"
  local minimum=$((EXECUTIONS * ((ids_per_execution + 99) / 100))) http_429 credits per_worker span
  # The Unlock nodes' span (n8n's run data): the first Unlock's start to the last one's end, without the
  # webhook, the split and saving the executions.
  span="$(jq '[.[].data.resultData.runData["Unlock"][0] | {start: .startTime, end: (.startTime + .executionTime)}]
    | (map(.end) | max) - (map(.start) | min)' "$WORK/unlock-executions.json")"
  # The unlock calls' span at the sandbox (first to last call: what pacing decides), and the time from the
  # first Unlock's start to the first call (n8n reading the Contact IDs of every item before anything is sent).
  local calls_span first_call span_ms='def ms: (sub("\\.[0-9]+Z$"; "Z") | fromdate) * 1000 + (capture("\\.(?<ms>[0-9]+)Z$").ms | tonumber);'
  calls_span="$(jq --arg k "$SANDBOX_KEY" "$span_ms"' .keys[$k].request_spans["POST /v1/unlock"] | (.last_at | ms) - (.first_at | ms)' <<<"$stats")"
  first_call="$(jq --arg k "$SANDBOX_KEY" "$span_ms"' .keys[$k].request_spans["POST /v1/unlock"].first_at | ms' <<<"$stats")"
  local before_first_call
  before_first_call="$(jq --argjson first "$first_call" '$first - ([.[].data.resultData.runData["Unlock"][0].startTime] | min)' "$WORK/unlock-executions.json")"
  FIGURES[b${run}0:$label: wall time of 4 executions at once, from the webhook calls]+="; the unlock calls' span $((calls_span / 1000)) s, after $((before_first_call / 1000)) s of reading the items"
  http_429="$(jq --arg k "$SANDBOX_KEY" '.keys[$k].http_429' <<<"$stats")"
  credits="$(jq --arg k "$SANDBOX_KEY" '.keys[$k].credits_charged' <<<"$stats")"
  per_worker="$(for w in "${WORKER_NAMES[@]}"; do
    printf '%s %s ' "$w" $(($(grep -c 'Worker started execution' "$WORK/$w.log") - $(awk -v w="$w" '$1 == w {print $2}' "$WORK/started-before.txt"))); done)"
  FIGURES[b${run}0:$label: wall time of 4 executions at once, from the webhook calls]+="; the Unlock nodes' span $((span / 1000)) s"
  FIGURES[b${run}1:$label: executions x ids (unique contacts)]="$EXECUTIONS x $ids_per_execution ($unique)"
  [ "$WORKERS" -gt 0 ] && FIGURES[b${run}2:$label: executions per worker]="$per_worker"
  FIGURES[b${run}3:$label: calls (minimum)]="$calls ($minimum)"
  FIGURES[b${run}4:$label: 429 answers]="$http_429"
  FIGURES[b${run}5:$label: failed items]="$failed"
  FIGURES[b${run}6:$label: credits charged vs unique contacts unlocked]="$credits vs $unlocked"
  if [ -n "$FIGURES_JSON" ]; then
    [ -s "$FIGURES_JSON" ] || echo '[]' >"$FIGURES_JSON"
    jq --argjson run "$(jq -n --arg mode "$EXECUTIONS_MODE" --argjson workers "$WORKERS" --argjson concurrency "$WORKER_CONCURRENCY" \
      --argjson executions "$EXECUTIONS" --argjson ids "$ids_per_execution" --argjson unique "$unique" --argjson calls "$calls" \
      --argjson minimum "$minimum" --argjson http_429 "$http_429" --argjson failed "$failed" --argjson credits "$credits" \
      --argjson unlocked "$unlocked" --argjson wall_ms "$wall" --argjson span_ms "$span" --argjson calls_span_ms "$calls_span" --argjson before_first_call_ms "$before_first_call" --argjson time_scale "$TIME_SCALE" --arg per_worker "$per_worker" \
      '{mode: $mode, workers: $workers, worker_concurrency: (if $workers > 0 then $concurrency else null end),
        executions: $executions, ids_per_execution: $ids, unique_contacts: $unique, calls: $calls, minimum_calls: $minimum,
        http_429: $http_429, failed_items: $failed, credits_charged: $credits, unique_unlocked: $unlocked,
        wall_s: ($wall_ms / 1000), unlock_span_s: ($span_ms / 1000),
        calls_span_s: ($calls_span_ms / 1000), before_first_call_s: ($before_first_call_ms / 1000), time_scale: $time_scale, executions_per_worker: $per_worker}')" \
      '. + [$run]' "$FIGURES_JSON" >"$FIGURES_JSON.tmp" && mv "$FIGURES_JSON.tmp" "$FIGURES_JSON"
  fi
  jq -e 'length == '"$EXECUTIONS"' and all(.status == "success")' "$WORK/unlock-executions.json" >/dev/null ||
    { echo "executions: $(jq -c '[.[] | {id, status}]' "$WORK/unlock-executions.json")" >&2; return 1; }
  [ "$credits" -eq "$unlocked" ] || { echo "credits charged differ from the unique contacts unlocked" >&2; return 1; }
}

no_failed_items() {
  local failed
  failed="$(jq '[.[] | (.data.resultData.runData["Unlock"][0].data.main[0] // []) | .[] | select(.json.error != null)] | length' "$WORK/unlock-executions.json" 2>/dev/null || echo unknown)"
  [ "$failed" = 0 ] || { echo "$failed items failed: $(jq -c '[.[] | (.data.resultData.runData["Unlock"][0].data.main[0] // [])[] | .json.error // empty] | unique' "$WORK/unlock-executions.json")" >&2; return 1; }
}

for run in "${!IDS_SIZES[@]}"; do
  rm -f "$WORK/unlock-executions.json"
  check "$EXECUTIONS concurrent executions ($EXECUTIONS_MODE mode, ${IDS_SIZES[$run]} ids each) unlock overlapping ids: every execution succeeds, credits = unique contacts unlocked" \
    unlock_concurrently "${IDS_SIZES[$run]}" "$run"
  check "no unlocked item failed because other executions share the key" no_failed_items
done

# ---------------------------------------------------------------- 3. trigger deliveries across processes
TRIGGER_WORKFLOW=""
SUBSCRIPTION_ID=""

# emit <count>: that many job changes of members of the saved list; their ids go to $WORK/events.txt.
emit() { sandbox_emit "$1" "$LIST_ID" >>"$WORK/events.txt"; }
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
# all_executions_finished: as many ended executions of the trigger workflow as were started.
all_executions_finished() { [ "$(queue_ended_count "$TRIGGER_WORKFLOW")" -ge "$(started)" ]; }
# trigger_gave_up: what the wait for the trigger's executions prints when it gives up.
trigger_gave_up() {
  echo "started $(started) (deliveries and replays n8n answered 200, not as duplicates), ended $(queue_ended_count "$TRIGGER_WORKFLOW"); $(executions_summary "$TRIGGER_WORKFLOW")" >&2
}

# passed_on_once: each emitted event was passed on by exactly one execution; records the figures.
passed_on_once() {
  recorded_executions "$TRIGGER_WORKFLOW" >"$WORK/trigger-executions.json" || return 1
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
  TRIGGER_WORKFLOW="$(n8n_import_workflow "$WORKFLOWS/job-change-count.json")" && n8n_activate "$TRIGGER_WORKFLOW" &&
    poll 60 sandbox_subscribed "$QUEUE_WEBHOOK_URL" || { echo "subscriptions: $(sandbox_subscriptions)" >&2; return 1; }
  SUBSCRIPTION_ID="$(sandbox_subscriptions | jq -r '.[0].id')"
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
  poll 300 all_executions_finished || { trigger_gave_up; return 1; }
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
  FIGURES[c6:trigger: executions missing from the public API list (main holds them as running)]="$(unlisted_executions "$TRIGGER_WORKFLOW" | jq -r 'if . == [] then "none" else "ids \(join(", "))" end')"
}
[ -n "$ONLY" ] || check "retried and replayed deliveries reaching main and the webhook processor: each event id passed on by exactly one execution" \
  trigger_exactly_once

# ---------------------------------------------------------------- 4. a main restart
restart_keeps_subscription() {
  local t0=$SECONDS
  stop_group "$MAIN_PID" && start_main "$WORK/main-restarted.log" || return 1
  FIGURES[d0:main restart: stopped to ready]="$((SECONDS - t0)) s"
  sandbox_subscriptions | jq -e --arg id "$SUBSCRIPTION_ID" 'length == 1 and .[0].id == $id' >/dev/null ||
    { echo "subscriptions after the restart: $(sandbox_subscriptions)" >&2; return 1; }
  # The first event's first delivery again, to the restarted main (whose memory is new): if its signature is
  # still fresh, an execution starts and the worker drops the copy. It is the first execution the restarted
  # main enqueues: a worker may end it before main listens for jobs ending (docs/queue-mode.md).
  local replay
  replay="$(lb replay -d "{\"webhook_id\": \"$(head -1 "$WORK/events.txt")\", \"attempt\": 1, \"target\": 0}")" || return 1
  echo "$replay" >>"$WORK/replays.txt"
  FIGURES[d2:main restart: an earlier delivery replayed to the restarted main]="$(jq -c '{status, body}' <<<"$replay")"
  emit 2 && poll 180 settled || { echo "deliveries did not settle" >&2; return 1; }
  poll 300 all_executions_finished || { trigger_gave_up; return 1; }
  passed_on_once || return 1
  FIGURES[d1:main restart: subscriptions before / after (same id)]="1 / $(sandbox_subscriptions | jq length) ($(sandbox_subscriptions | jq -r --arg id "$SUBSCRIPTION_ID" '.[0].id == $id'))"
  trigger_figures
}
[ -n "$ONLY" ] || check "after a main restart: the same single subscription, and new events (first answers lost) passed on exactly once" \
  restart_keeps_subscription

# The poll trigger's checks (scripts/e2e/poll-trigger.sh).
[ -n "$ONLY" ] || { source scripts/e2e/poll-trigger.sh && poll_trigger_queue_checks; }

every_process_log_is_clean() { cat "$WORK"/main*.log $(ls "$WORK"/w*.log 2>/dev/null) | no_package_complaints; }
check "no n8n process logged a warning or error about the package" every_process_log_is_clean
