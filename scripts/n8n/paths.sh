# Sourced, never run. Where Node 24 and n8n live: a cache folder outside the repo, keyed by the pinned
# lockfile and Node version, so a lockfile change means a fresh install and never a half-updated one.
#   N8N_LINE         the n8n line to use: 2.x (default, n8n 2.41.1 pinned in app/) or 1.x (n8n 1.123.81,
#                    pinned in app-1.x/); each has its own lockfile, so its own cache folder
#   N8N_CACHE_ROOT   cache root (default ${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-contact-data)
# After sourcing: N8N_LINE, N8N_PACKAGE_DIR, N8N_APP_SRC, N8N_NODE_VERSION, N8N_VERSION, N8N_CACHE_KEY, N8N_CACHE_DIR,
# N8N_NODE_BIN, N8N_BIN, n8n_use_node24 and npm_forget_repo_config.

N8N_SCRIPTS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
N8N_REPO_DIR="$(cd "$N8N_SCRIPTS_DIR/../.." && pwd)"
N8N_PACKAGE_DIR="$N8N_REPO_DIR"  # the published package is the repository root
N8N_LINE="${N8N_LINE:-2.x}"
case "$N8N_LINE" in
  2.x) N8N_APP_SRC="$N8N_SCRIPTS_DIR/app" ;;      # package.json + package-lock.json pinning n8n 2.41.1
  1.x) N8N_APP_SRC="$N8N_SCRIPTS_DIR/app-1.x" ;;  # the same for n8n 1.123.81
  *) echo "N8N_LINE must be 2.x or 1.x, not \"$N8N_LINE\"" >&2; return 1 ;;
esac
N8N_VERSION="$(sed -n 's/.*"n8n": *"\([0-9.]*\)".*/\1/p' "$N8N_APP_SRC/package.json")"
N8N_NODE_VERSION=24.21.0                    # the `node` package on the npm registry ships the binary
N8N_CACHE_ROOT="${N8N_CACHE_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-contact-data}"
N8N_CACHE_KEY="$(cat "$N8N_APP_SRC/package.json" "$N8N_APP_SRC/package-lock.json" \
  <(echo "node@$N8N_NODE_VERSION") | sha256sum | cut -c1-16)"
N8N_CACHE_DIR="$N8N_CACHE_ROOT/$N8N_CACHE_KEY"
N8N_NODE_BIN="$N8N_CACHE_DIR/node24/node_modules/node/bin"
N8N_BIN="$N8N_CACHE_DIR/app/node_modules/.bin/n8n"

# n8n_use_node24 [install dir, default the cache dir]: Node 24 first on PATH (the system npm then runs on it).
n8n_use_node24() {
  export PATH="${1:-$N8N_CACHE_DIR}/node24/node_modules/node/bin:$PATH"
}

# `npm run` exports the repo's npm settings (its .npmrc sets ignore-scripts=true) as npm_config_* variables;
# installs made outside the repo must not inherit them. The npm cache location is kept.
npm_forget_repo_config() {
  local var
  for var in $(compgen -e | grep -i '^npm_config_' | grep -iv '^npm_config_cache$' || true); do unset "$var"; done
}
