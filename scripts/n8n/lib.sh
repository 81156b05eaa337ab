# Sourced, never run: everything the end-to-end check (scripts/e2e.sh) and the playground
# (scripts/playground.sh) share, so neither writes install, start, owner, credential or import steps twice.
N8N_LIB_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$N8N_LIB_DIR/paths.sh"
source "$N8N_LIB_DIR/env.sh"
source "$N8N_LIB_DIR/package.sh"
source "$N8N_LIB_DIR/processes.sh"
source "$N8N_LIB_DIR/rest.sh"

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
  n8n_install_package "$N8N_USER_FOLDER" || return 1
  start_sandbox "$sandbox_port" "$work/sandbox.log" "$@" || return 1
  N8N_LOG="$work/n8n.log"
  start_n8n "$N8N_LOG" || return 1
  n8n_setup_owner "$OWNER_EMAIL" "$OWNER_PASSWORD" || return 1
  CREDENTIAL_ID="$(n8n_create_credential "$CREDENTIAL_NAME" "$SANDBOX_URL" "$SANDBOX_KEY")" || return 1
}
