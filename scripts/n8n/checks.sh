# Sourced, never run (needs processes.sh). The checks of a test script (scripts/e2e.sh, scripts/queue/test.sh):
# each prints "  pass  <what>" or "  fail  <what>" and is counted; the run ends with "<name>: N passed, M failed",
# the line scripts/test.sh counts. Never "ok": CI reads that as another runner's line (scripts/runner-lines.cjs).
# Also the polls the checks wait with and the sandbox calls they make.
PASSED=0
FAILED=0

# checks_begin <name> <work folder> <on failure: stop|go-on> [function run before the count line]
# Starts the counting; at exit, however the script ends, stops every started process, keeps the work folder
# after a failure or when <NAME>_KEEP is set (E2E_KEEP, QUEUE_KEEP), and prints the time and the counts.
# With "stop" the first failed check ends the run; with "go-on" the run goes on and the exit status counts it.
checks_begin() {
  CHECKS_NAME="$1" CHECKS_WORK="$2" CHECKS_ON_FAILURE="$3" CHECKS_BEFORE_END="${4:-}" CHECKS_STARTED_AT=$SECONDS
  trap checks_end EXIT
  trap 'exit 130' INT TERM
}

checks_end() {
  local status=$? keep
  # Ended early by anything but a failed check (Ctrl-C, a script error): still a failure.
  [ "$status" -ne 0 ] && [ "$FAILED" -eq 0 ] && FAILED=1
  stop_started
  [ -z "$CHECKS_BEFORE_END" ] || "$CHECKS_BEFORE_END"
  keep="$(tr '[:lower:]' '[:upper:]' <<<"$CHECKS_NAME")_KEEP"
  if [ "$FAILED" -eq 0 ] && [ -z "${!keep:-}" ]; then rm -rf "$CHECKS_WORK"; else echo "$CHECKS_NAME: work folder kept: $CHECKS_WORK"; fi
  echo "$CHECKS_NAME: took $((SECONDS - CHECKS_STARTED_AT)) s"
  echo "$CHECKS_NAME: $PASSED passed, $FAILED failed"
  [ "$status" -ne 0 ] && exit "$status"
  [ "$FAILED" -eq 0 ] || exit 1
}

# check_logs: the hook check() calls after a failure, naming the logs to show the end of (one path a line):
# n8n's log here. A script whose failures need other logs redefines it after sourcing lib.sh.
check_logs() { echo "${N8N_LOG:-}"; }

# check <what> <command...>: runs one check and counts it. A failure prints the end of each log check_logs
# names (CHECK_LOG_LINES lines of each), then ends the run or goes on as checks_begin said.
check() {
  local what="$1" log_file; shift
  if "$@"; then
    PASSED=$((PASSED + 1)); echo "  pass  $what"
    return 0
  fi
  FAILED=$((FAILED + 1)); echo "  fail  $what" >&2
  while IFS= read -r log_file; do
    [ -f "$log_file" ] || continue
    echo "----- end of $log_file -----" >&2; tail -"${CHECK_LOG_LINES:-40}" "$log_file" >&2
  done < <(check_logs)
  [ "$CHECKS_ON_FAILURE" = go-on ] || exit 1
  return 1
}

# poll <seconds> <command...>: runs the command every second until it succeeds; fails, saying so, once the
# seconds have passed.
poll() {
  local seconds="$1" deadline=$((SECONDS + $1)); shift
  until "$@"; do
    ((SECONDS < deadline)) || { echo "gave up after $seconds s waiting for: $*" >&2; return 1; }
    sleep 1
  done
}

# ---------------------------------------------------------------- the sandbox (started by start_sandbox)
# sandbox <curl arguments...>: a call to the service's API with the sandbox key.
sandbox() { curl -sS --fail-with-body -H "Authorization: Bearer $SANDBOX_KEY" -H 'content-type: application/json' "$@"; }
# sandbox_admin <curl arguments...>: a call to the sandbox's own /_sandbox endpoints (no key).
sandbox_admin() { curl -sS --fail-with-body -H 'content-type: application/json' "$@"; }
# sandbox_credits_charged: the credits charged to the sandbox key so far.
sandbox_credits_charged() {
  sandbox_admin "$SANDBOX_URL/_sandbox/stats" | jq -r --arg k "$SANDBOX_KEY" '.keys[$k].credits_charged // 0'
}
# sandbox_subscriptions: the key's webhook subscriptions (a JSON array).
sandbox_subscriptions() { sandbox "$SANDBOX_URL/v1/webhooks" | jq -c '.webhooks'; }
# sandbox_subscribed <URL prefix>: exactly one subscription, to job changes, at an address under the prefix.
sandbox_subscribed() {
  sandbox_subscriptions | jq -e --arg u "$1" 'length == 1 and (.[0].url | startswith($u)) and .[0].events == ["job_change"]' >/dev/null
}
sandbox_unsubscribed() { sandbox_subscriptions | jq -e 'length == 0' >/dev/null; }
# sandbox_emit <count> <list id>: that many job changes of members of the saved list, delivered to every
# subscription; prints their event ids, one a line.
sandbox_emit() {
  sandbox_admin -X POST "$SANDBOX_URL/_sandbox/events" \
    -d "$(jq -nc --argjson n "$1" --arg l "$2" '{type: "job_change", list_id: $l, count: $n}')" | jq -r '.events[].id'
}

# ---------------------------------------------------------------- n8n's view of the package
# no_package_complaints: n8n's log lines on stdin; fails, printing them, when one warns about the package.
# n8n's own files sit under the cache folder, whose name has the package's in it: a stack line there is not
# about the package.
no_package_complaints() {
  local complaints
  complaints="$(sed "s|$N8N_CACHE_ROOT/[^ )]*||g" | grep -iE 'contact-?data' | grep -iE 'warn|error|fail|unknown|cannot|not found' || true)"
  [ -z "$complaints" ] || { echo "n8n complained about the package:" >&2; echo "$complaints" >&2; return 1; }
}
