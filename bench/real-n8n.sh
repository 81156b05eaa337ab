#!/usr/bin/env bash
# Runs one n8n CLI command of the real n8n (Node 24, n8n 2.41.1, cached outside the repo by
# scripts/n8n/install.sh) in the project's offline, loopback-only settings.
#   bench/real-n8n.sh <user folder> <port> <n8n arguments...>
# Exits 3 when the real n8n is not installed.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$repo/scripts/n8n/paths.sh"
source "$repo/scripts/n8n/env.sh"
[ -x "$N8N_BIN" ] || { echo "real n8n not installed at $N8N_CACHE_DIR (run: bash scripts/n8n/install.sh)" >&2; exit 3; }
user_folder="$1" port="$2"
shift 2
n8n_use_node24
n8n_offline_env "$user_folder" "$port"
export N8N_LOG_LEVEL=warn
exec "$N8N_BIN" "$@"
