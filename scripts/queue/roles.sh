# Sourced, never run (needs scripts/n8n/lib.sh). The processes of an n8n queue-mode deployment on one machine:
# main, workers, a webhook processor, each with its own user folder (the community package installed in it)
# and its own ports, sharing one Postgres, one Redis and one encryption key. Set before use: QUEUE_PG_PORT,
# QUEUE_REDIS_PORT, QUEUE_WEBHOOK_URL (the public address deliveries are sent to: the load balancer).

QUEUE_ENCRYPTION_KEY="${QUEUE_ENCRYPTION_KEY:-queue-check-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')}"

# queue_env <user folder> <port> <runner broker port>: the project's offline settings plus queue mode
# (QUEUE_EXECUTIONS_MODE=regular: the same deployment with main running the executions itself).
queue_env() {
  n8n_offline_env "$1" "$2" "$3"
  mkdir -p "$N8N_USER_FOLDER" "$N8N_FILES_DIR"
  export N8N_ENCRYPTION_KEY="$QUEUE_ENCRYPTION_KEY"
  export DB_TYPE=postgresdb DB_POSTGRESDB_HOST=127.0.0.1 DB_POSTGRESDB_PORT="$QUEUE_PG_PORT" \
    DB_POSTGRESDB_DATABASE=n8n DB_POSTGRESDB_USER=postgres DB_POSTGRESDB_PASSWORD=unused DB_POSTGRESDB_POOL_SIZE=4
  export EXECUTIONS_MODE="${QUEUE_EXECUTIONS_MODE:-queue}" QUEUE_BULL_REDIS_HOST=127.0.0.1 QUEUE_BULL_REDIS_PORT="$QUEUE_REDIS_PORT"
  export N8N_WORKER_SERVER_ADDRESS=127.0.0.1
  # Every process registers and answers webhooks under the one public address.
  export N8N_WEBHOOK_URL="$QUEUE_WEBHOOK_URL" WEBHOOK_URL="$QUEUE_WEBHOOK_URL"
  export EXECUTIONS_DATA_SAVE_ON_SUCCESS=all EXECUTIONS_DATA_SAVE_ON_ERROR=all
}

# install_package_copy <installed user folder> <user folder>: the package as n8n_install_package installed it
# from its tarball, copied into another process's user folder (every process needs it).
install_package_copy() {
  mkdir -p "$2/.n8n" && cp -a "$1/.n8n/nodes" "$2/.n8n/nodes"
}

# spawn_n8n_role <log> <user folder> <port> <broker port> [VAR=value...] -- <n8n arguments...>: starts one n8n
# process with that role's settings (the variables given apply to it alone). Its id is in $SPAWNED_PID.
spawn_n8n_role() {
  local log="$1" folder="$2" port="$3" broker="$4"; shift 4
  local extra=()
  while [ "$1" != -- ]; do extra+=("$1"); shift; done
  shift
  queue_env "$folder" "$port" "$broker"
  spawn "$log" env NODE_OPTIONS="$N8N_NODE_OPTIONS" "${extra[@]}" "$N8N_BIN" "$@"
}
