#!/usr/bin/env bash
# The real n8n of the end-to-end check (Node 24, n8n 2.41.1, cached outside the repo by
# scripts/n8n/install.sh), in the project's offline, loopback-only settings (scripts/n8n/lib.sh).
#   bench/real-n8n.sh <user folder> <port> <runner broker port> --install-package
#       installs this package from its tarball, as n8n installs a community package
#   bench/real-n8n.sh <user folder> <port> <runner broker port> <n8n arguments...>
#       runs one n8n CLI command
# Exits 3 when the real n8n is not installed.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$repo/scripts/n8n/lib.sh"
[ -x "$N8N_BIN" ] || { echo "the real n8n is not installed at $N8N_CACHE_DIR (bash scripts/n8n/install.sh installs it, about 5 minutes)" >&2; exit 3; }
user_folder="$1" port="$2" broker_port="$3"
shift 3
npm_forget_repo_config
n8n_use_node24
n8n_offline_env "$user_folder" "$port" "$broker_port"
mkdir -p "$N8N_USER_FOLDER" "$N8N_FILES_DIR"
if [ "$1" = --install-package ]; then
  n8n_install_package "$user_folder" >&2
  exit
fi
exec env NODE_OPTIONS="$N8N_NODE_OPTIONS" "$N8N_BIN" "$@"
