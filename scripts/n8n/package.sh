# Sourced, never run (needs paths.sh). n8n_install_package <n8n user folder>: builds this repo and installs it
# the way n8n 2.41.1 installs a community package (community-packages.service.js, downloadPackage): the
# `npm pack` tarball unpacked into <user folder>/.n8n/nodes/node_modules/<name>, its dev, peer and optional
# dependencies stripped, then `npm install` in that folder with n8n's flags. Never a link to the work tree,
# so a file missing from the tarball, or an import that resolves only here, fails as it would for users.
n8n_install_package() {
  local nodes_dir="$1/.n8n/nodes"
  local name version pack_dir tarball pkg_dir
  name="$(node -p 'require(process.argv[1]).name' "$N8N_PACKAGE_DIR/package.json")"
  version="$(node -p 'require(process.argv[1]).version' "$N8N_PACKAGE_DIR/package.json")"
  pkg_dir="$nodes_dir/node_modules/$name"
  pack_dir="$(mktemp -d)"

  (cd "$N8N_REPO_DIR" && npm run --silent build -w n8n-nodes-contact-data) || return 1
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

  # n8n's ledger of installed packages, as its installer writes it.
  printf '{\n  "name": "installed-nodes",\n  "private": true,\n  "dependencies": {\n    "%s": "%s"\n  }\n}\n' \
    "$name" "$version" >"$nodes_dir/package.json"
}
