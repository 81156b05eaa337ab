# Sourced, never run: everything the end-to-end check (scripts/e2e.sh), the queue-mode check
# (scripts/queue/test.sh) and the playground (scripts/playground.sh) share, so none writes install, start,
# owner, credential, import, check, poll or sandbox steps twice.
N8N_LIB_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$N8N_LIB_DIR/paths.sh"
source "$N8N_LIB_DIR/env.sh"
source "$N8N_LIB_DIR/package.sh"
source "$N8N_LIB_DIR/processes.sh"
source "$N8N_LIB_DIR/rest.sh"
source "$N8N_LIB_DIR/checks.sh"

CREDENTIAL_NAME="Contact Data sandbox"
SANDBOX_KEY=sk_sandbox_growth

# ensure_tools: the command-line tools these scripts use beyond Node and npm. jq and curl come from
# Debian's packages; a machine without them gets them here (as root), otherwise it is told what to install.
ensure_tools() {
  local missing=() tool
  for tool in jq curl; do command -v "$tool" >/dev/null || missing+=("$tool"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    echo "installing ${missing[*]} from Debian's packages" >&2
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } >/dev/null && return 0
  fi
  echo "these scripts need: ${missing[*]} (apt-get install -y ${missing[*]})" >&2
  return 1
}

# ensure_chromium: Debian's Chromium for the browser journey (scripts/n8n/journey.mjs); installed here with
# apt-get when missing (as root), otherwise the user is told what to install.
ensure_chromium() {
  [ -x "${CHROMIUM:-/usr/bin/chromium}" ] && return 0
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    echo "installing chromium from Debian's packages" >&2
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >/dev/null &&
      [ -x "${CHROMIUM:-/usr/bin/chromium}" ] && return 0
  fi
  echo "the browser journey needs Chromium: apt-get install -y chromium, or CHROMIUM=<path of a Chromium or Chrome>" >&2
  return 1
}

# editor_url <port>: the address of n8n's editor that `npm start` prints, and so the one the browser journey
# opens and signs in from (n8n listens on 127.0.0.1; a browser reaches it as localhost).
editor_url() { echo "http://localhost:$1"; }

# browser_journey <screenshot folder>: imports the workflows the journey opens (the search → unlock example as
# shipped, a variant of it that goes over Max Credits, one with a filter by API name, the job change alert, the AI agent, the drag-a-field
# workflow) and runs the journey in headless Chromium with Node 24 (after bring_up), from the editor's URL as
# `npm start` prints it. The sandbox is reset first, so the journey's runs are first runs, as a new user's are
# (and its pictures show what a first run costs). Its screenshots go to the folder. With JOURNEY_VIDEO=<folder>
# it records the demo video there, the alert published so it can fire.
browser_journey() {
  local shots="$1" crm over other alert agent drag
  mkdir -p "$shots"
  sandbox_admin -X POST "$SANDBOX_URL/_sandbox/reset" >/dev/null || return 1
  crm="$(n8n_import_workflow examples/search-unlock-upsert-crm.json)" &&
    over="$(n8n_import_workflow examples/search-unlock-upsert-crm.json '.name = "Browser check: over budget"
      | .nodes |= map(if .name == "Search VPs of Engineering" then .parameters.filters.country = "DE" else . end
        | if .name == "Unlock within 25 credits" then .parameters.maxCredits = 5 else . end)')" &&
    other="$(n8n_import_workflow examples/search-unlock-upsert-crm.json '.name = "Browser check: a filter by API name"
      | .nodes |= map(if .name == "Search VPs of Engineering"
        then .parameters.filters.otherFilters = {filter: [{name: "revenue_range", value: "10m-50m, 50m-100m"}]} else . end)')" &&
    alert="$(n8n_import_workflow examples/job-change-alert.json)" &&
    agent="$(n8n_import_workflow examples/ai-agent-prospecting.json)" &&
    drag="$(n8n_import_workflow test/e2e/workflows/drag-field.json)" || return 1
  if [ -n "${JOURNEY_VIDEO:-}" ]; then mkdir -p "$JOURNEY_VIDEO" && n8n_activate "$alert" || return 1; fi
  SANDBOX_URL="$SANDBOX_URL" SANDBOX_KEY="$SANDBOX_KEY" node "$N8N_LIB_DIR/journey.mjs" \
    "$(editor_url "$N8N_PORT")" "$OWNER_EMAIL" "$OWNER_PASSWORD" \
    "$(jq -nc --arg crm "$crm" --arg over "$over" --arg other "$other" --arg alert "$alert" --arg agent "$agent" \
      --arg drag "$drag" '{crm: $crm, overBudget: $over, otherFilter: $other, alert: $alert, agent: $agent, drag: $drag}')" \
    "$shots"
}

# bring_up <work folder> <n8n port> <runner broker port> <sandbox port> [SANDBOX_…=value…]
# Installs Node 24 and n8n (cached), installs this package into a fresh n8n user folder under the work
# folder, starts the sandbox and n8n, sets up the owner (OWNER_EMAIL, OWNER_PASSWORD) and creates the
# sandbox credential. Sets SANDBOX_URL, N8N_BASE, N8N_PID, N8N_LOG, N8N_API_KEY, CREDENTIAL_ID.
bring_up() {
  local work="$1" n8n_port="$2" broker_port="$3" sandbox_port="$4"; shift 4
  ensure_tools || return 1
  npm_forget_repo_config
  bash "$N8N_LIB_DIR/install.sh" >/dev/null || return 1
  n8n_use_node24
  n8n_offline_env "$work/n8n" "$n8n_port" "$broker_port"
  mkdir -p "$N8N_USER_FOLDER" "$N8N_FILES_DIR"
  n8n_blank_database "$N8N_USER_FOLDER" || return 1
  n8n_install_package "$N8N_USER_FOLDER" || return 1
  # The sandbox and n8n start side by side; n8n takes longer.
  spawn_sandbox "$sandbox_port" "$work/sandbox.log" "$@" || return 1
  spawn_n8n "$work/n8n.log" || return 1
  await_sandbox || return 1
  await_n8n || return 1
  n8n_setup_owner "$OWNER_EMAIL" "$OWNER_PASSWORD" || return 1
  CREDENTIAL_ID="$(n8n_create_credential "$CREDENTIAL_NAME" "$SANDBOX_URL" "$SANDBOX_KEY")" || return 1
}

# n8n_blank_database <n8n user folder>: gives a fresh user folder an n8n database with every migration already
# run (a fresh n8n spends about a third of its start on 500+ migrations). The blank database is made once per
# n8n install, by an n8n command that runs the migrations and exits, and kept beside the install.
n8n_blank_database() {
  local blank="$N8N_CACHE_DIR/blank-user-folder" tmp
  if [ ! -f "$blank/.n8n/database.sqlite" ]; then
    tmp="$(mktemp -d "$N8N_CACHE_DIR/.blank-XXXXXX")"
    # export:credentials opens the database (migrating it) and exits; with no credentials it exits non-zero.
    env N8N_USER_FOLDER="$tmp" NODE_OPTIONS="$N8N_NODE_OPTIONS" "$N8N_BIN" export:credentials --all \
      --output="$tmp/none.json" >"$tmp/migrate.log" 2>&1 || true
    grep -q 'Finished migration' "$tmp/migrate.log" && [ -f "$tmp/.n8n/database.sqlite" ] ||
      { echo "could not prepare n8n's database:" >&2; tail -20 "$tmp/migrate.log" >&2; rm -rf "$tmp"; return 1; }
    rm -f "$tmp/none.json" "$tmp/migrate.log" "$tmp/.n8n/"n8nEventLog*.log
    mv -T "$tmp" "$blank" 2>/dev/null || rm -rf "$tmp"   # another run may have made it meanwhile
  fi
  mkdir -p "$1/.n8n" && cp -a "$blank/.n8n/." "$1/.n8n/"
}
