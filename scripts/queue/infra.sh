# Sourced, never run (needs scripts/n8n/lib.sh). What n8n's queue mode needs beside n8n: Postgres and Redis,
# from Debian's packages, each run as this script's own server on a loopback port in a work folder (never the
# system services), started with `spawn` so stop_started ends them by their id; and what n8n's database
# records of the executions.

PG_BIN_DIR="${PG_BIN_DIR:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}"

# queue_ensure_packages: Debian's postgresql and redis-server, installed (as root) when missing. Installing
# starts no service here: the scripts run their own servers.
queue_ensure_packages() {
  local missing=()
  [ -x "${PG_BIN_DIR:-}/initdb" ] || missing+=(postgresql)
  command -v redis-server >/dev/null && command -v redis-cli >/dev/null || missing+=(redis-server)
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
    echo "the queue-mode check needs: ${missing[*]} (apt-get install -y ${missing[*]})" >&2
    return 1
  fi
  echo "installing ${missing[*]} from Debian's packages" >&2
  { apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 --no-install-recommends "${missing[@]}"
  } >/dev/null || return 1
  PG_BIN_DIR="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
}

# initdb and postgres refuse to run as root: as root they run as Debian's postgres user, otherwise as the
# caller (a CI runner's user, say), who cannot use runuser.
AS_POSTGRES=()
if [ "$(id -u)" -eq 0 ]; then AS_POSTGRES=(runuser -u postgres --); fi

# start_postgres <folder> <port> <log>: a fresh cluster (trust on loopback, no fsync: test data only) with
# a database "n8n"; waits until it accepts connections. Its id is in $SPAWNED_PID.
start_postgres() {
  local folder="$1" port="$2" log="$3"
  mkdir -p "$folder" && chmod 755 "$(dirname "$folder")" "$folder"
  [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$folder"
  "${AS_POSTGRES[@]}" "$PG_BIN_DIR/initdb" -D "$folder/data" -U postgres -A trust -E UTF8 --no-locale >"$log" 2>&1 || {
    tail -20 "$log" >&2; return 1; }
  spawn "$log" "${AS_POSTGRES[@]}" "$PG_BIN_DIR/postgres" -D "$folder/data" -p "$port" -k "$folder" \
    -c listen_addresses=127.0.0.1 -c fsync=off -c shared_buffers=64MB -c max_connections=100
  local pid=$SPAWNED_PID
  wait_for 60 "$pid" "$log" "$PG_BIN_DIR/pg_isready" -q -h 127.0.0.1 -p "$port" || return 1
  "$PG_BIN_DIR/createdb" -h 127.0.0.1 -p "$port" -U postgres n8n || return 1
  SPAWNED_PID=$pid
}

# start_redis <folder> <port> <log>: a Redis server without persistence; waits until it answers PING.
start_redis() {
  local folder="$1" port="$2" log="$3"
  mkdir -p "$folder"
  spawn "$log" redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$folder" --maxmemory 256mb
  wait_for 30 "$SPAWNED_PID" "$log" sh -c "redis-cli -p $port ping | grep -q PONG"
}

# queue_executions <workflow id>: {id, status, ended} of each of the workflow's executions, newest first, as
# n8n's database (the one Postgres) records them; ended: it succeeded, failed, crashed or was canceled.
# n8n's public API lists an execution only once main stops holding it as running, and a restarted main may
# hold an ended one for good (docs/queue-mode.md).
queue_executions() {
  "$PG_BIN_DIR/psql" -h 127.0.0.1 -p "$QUEUE_PG_PORT" -U postgres -d n8n -Atq -v ON_ERROR_STOP=1 -v workflow="$1" <<'SQL'
SELECT coalesce(json_agg(json_build_object('id', id::text, 'status', status,
  'ended', status IN ('success', 'error', 'crashed', 'canceled')) ORDER BY id DESC), '[]')
FROM execution_entity WHERE "workflowId" = :'workflow';
SQL
}

# queue_ended_count <workflow id>: how many of its executions have ended, by n8n's database.
queue_ended_count() { queue_executions "$1" | jq '[.[] | select(.ended)] | length'; }
