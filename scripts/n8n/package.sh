# Sourced, never run (needs paths.sh).

# build_if_stale: builds the package (`npm run build`) and the tools (`npm run build:tools`: the sandbox, which
# compiles the contract it imports from the package beside it) unless a finished build is newer than every
# source file of either. The stamp lives in build/ (tools); the package's dist/ is what gets published.
build_if_stale() {
  local stamp="$N8N_REPO_DIR/build/.built" newer
  if [ -f "$stamp" ] && [ -d "$N8N_PACKAGE_DIR/dist" ]; then
    newer="$(cd "$N8N_REPO_DIR" && find nodes credentials icons sandbox package.json tsconfig.json -type f -newer "$stamp" -print -quit)"
    [ -z "$newer" ] && return 0
  fi
  (cd "$N8N_REPO_DIR" && npm run --silent build && npm run --silent build:tools) >/dev/null && touch "$stamp"
}

# n8n_install_package <n8n user folder>: installs the built package the way n8n 2.41.1 installs a community
# package (community-packages.service.js, downloadPackage): the `npm pack` tarball unpacked into
# <user folder>/.n8n/nodes/node_modules/<name>, its dev, peer and optional dependencies stripped, then
# `npm install` in that folder with n8n's flags. Never a link to the work tree, so a file missing from the
# tarball, or an import that resolves only here, fails as it would for users. The result is kept in the cache,
# keyed by the content of what is packed, and copied from there while that content is unchanged.
n8n_install_package() {
  local nodes_dir="$1/.n8n/nodes"
  local name version pack_dir tarball pkg_dir
  name="$(node -p 'require(process.argv[1]).name' "$N8N_PACKAGE_DIR/package.json")"
  version="$(node -p 'require(process.argv[1]).version' "$N8N_PACKAGE_DIR/package.json")"
  pkg_dir="$nodes_dir/node_modules/$name"

  build_if_stale || return 1
  local key cached
  key="$(cd "$N8N_PACKAGE_DIR" && find dist package.json README.md LICENSE CHANGELOG.md -type f -print0 2>/dev/null \
    | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)"
  cached="$N8N_CACHE_ROOT/installed-package/$key"
  mkdir -p "$nodes_dir/node_modules"
  if [ -d "$cached" ]; then
    rm -rf "$pkg_dir" && cp -a "$cached" "$pkg_dir" && n8n_package_ledger "$nodes_dir" "$name" "$version"
    return
  fi
  pack_dir="$(mktemp -d)"
  tarball="$(cd "$N8N_PACKAGE_DIR" && npm pack --json --loglevel=error --pack-destination "$pack_dir" \
    | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s)[0].filename))')" \
    || return 1

  rm -rf "$pkg_dir" && mkdir -p "$pkg_dir"
  tar -xzf "$pack_dir/$tarball" -C "$pkg_dir" --strip-components=1 && rm -rf "$pack_dir"
  node -e '
    const fs = require("node:fs"), file = process.argv[1];
    const { devDependencies, peerDependencies, optionalDependencies, ...kept } = JSON.parse(fs.readFileSync(file, "utf8"));
    fs.writeFileSync(file, JSON.stringify(kept, null, 2));
  ' "$pkg_dir/package.json"
  (cd "$pkg_dir" && npm install --loglevel=error --audit=false --fund=false --bin-links=false --install-strategy=shallow \
    --ignore-scripts=true --package-lock=false >/dev/null) || return 1

  n8n_package_ledger "$nodes_dir" "$name" "$version"
  # Kept for the next start with the same content (copied, then renamed into place: concurrent runs are safe).
  mkdir -p "$(dirname "$cached")" && cp -a "$pkg_dir" "$cached.tmp.$$" && { mv -T "$cached.tmp.$$" "$cached" 2>/dev/null || rm -rf "$cached.tmp.$$"; }
}

# n8n's ledger of installed packages, as its installer writes it.
n8n_package_ledger() {
  printf '{\n  "name": "installed-nodes",\n  "private": true,\n  "dependencies": {\n    "%s": "%s"\n  }\n}\n' \
    "$2" "$3" >"$1/package.json"
}
