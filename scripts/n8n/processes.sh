# Sourced, never run (needs paths.sh). Background processes this script starts: each in its own process group,
# remembered by id, so stop_started ends exactly them (and their children, such as n8n's task runners).
STARTED_PIDS=()

# spawn <log file> <command...>: starts the command in the background; its id is in $SPAWNED_PID.
spawn() {
  local log="$1"; shift
  setsid "$@" >"$log" 2>&1 </dev/null &
  SPAWNED_PID=$!
  STARTED_PIDS+=("$SPAWNED_PID")
}

# stop_group <pid>: SIGTERM to the process group a spawned process leads, SIGKILL after 20 s.
stop_group() {
  local pid="$1" tries
  kill -TERM -- "-$pid" 2>/dev/null || return 0
  for ((tries = 0; tries < 40; tries++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  kill -KILL -- "-$pid" 2>/dev/null || true
}

# stop_started: stops every started process group, newest first.
stop_started() {
  local i
  for ((i = ${#STARTED_PIDS[@]} - 1; i >= 0; i--)); do stop_group "${STARTED_PIDS[$i]}"; done
  STARTED_PIDS=()
}

# free_ports <n>: n distinct TCP ports free on 127.0.0.1 right now (held together while chosen).
free_ports() {
  node -e '
    const net = require("node:net");
    const servers = Array.from({ length: Number(process.argv[1]) }, () => net.createServer());
    Promise.all(servers.map((s) => new Promise((ok) => s.listen(0, "127.0.0.1", ok)))).then(() => {
      console.log(servers.map((s) => s.address().port).join(" "));
      for (const s of servers) s.close();
    });' "$1"
}

# wait_for <seconds> <pid> <log> <command...>: polls the command until it succeeds; fails when the process
# exits or time runs out, printing the end of its log.
wait_for() {
  local seconds="$1" pid="$2" log="$3"; shift 3
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    if ! kill -0 "$pid" 2>/dev/null; then echo "process $pid exited early; end of $log:" >&2; tail -40 "$log" >&2; return 1; fi
    if ((SECONDS >= deadline)); then echo "not ready after ${seconds}s; end of $log:" >&2; tail -40 "$log" >&2; return 1; fi
    sleep 0.5
  done
}

# start_sandbox <port (0 = free)> <log> [VAR=value...]: builds (when stale) and starts the sandbox; sets
# SANDBOX_URL once it answers. spawn_sandbox and await_sandbox are its two halves, to start n8n meanwhile.
start_sandbox() { spawn_sandbox "$@" && await_sandbox; }
spawn_sandbox() {
  local port="$1" log="$2"; shift 2
  build_if_stale || return 1
  spawn "$log" env SANDBOX_PORT="$port" "$@" node "$N8N_REPO_DIR/build/sandbox/cli.cjs"
  SANDBOX_PID=$SPAWNED_PID SANDBOX_LOG="$log"
}
await_sandbox() {
  wait_for 120 "$SANDBOX_PID" "$SANDBOX_LOG" grep -q 'http://127\.0\.0\.1:[0-9]' "$SANDBOX_LOG" || return 1
  SANDBOX_URL="$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$SANDBOX_LOG" | head -1)"
  wait_for 30 "$SANDBOX_PID" "$SANDBOX_LOG" curl -sf -H "Authorization: Bearer $SANDBOX_KEY" "$SANDBOX_URL/v1/credits/balance"
}

# start_n8n <log>: starts n8n with the environment already set (n8n_offline_env); waits until it is ready.
start_n8n() { spawn_n8n "$1" && await_n8n; }
spawn_n8n() {
  N8N_LOG="$1"
  spawn "$N8N_LOG" env NODE_OPTIONS="$N8N_NODE_OPTIONS" "$N8N_BIN" start
  N8N_PID=$SPAWNED_PID
  N8N_BASE="http://127.0.0.1:$N8N_PORT"
}
# n8n 1.x answers /healthz/readiness before its REST routes are mounted: /rest/settings is waited for too.
await_n8n() {
  wait_for 180 "$N8N_PID" "$N8N_LOG" curl -sf "$N8N_BASE/healthz/readiness" &&
    wait_for 60 "$N8N_PID" "$N8N_LOG" curl -sf "$N8N_BASE/rest/settings"
}
