# Sourced by the project's scripts: installs Debian packages the tests need when they are missing
# (CI runs on a fresh machine). Uses sudo when not root.
dsched_as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# dsched_ensure_apt_package <package> <file it provides>
dsched_ensure_apt_package() {
  local pkg="$1" file="$2"
  [ -e "$file" ] && return 0
  echo "dsched: installing $pkg (apt)" >&2
  dsched_as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >/dev/null 2>&1 || {
    dsched_as_root apt-get update -qq >/dev/null 2>&1
    dsched_as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >/dev/null
  }
}

# libfaketime, for the test that moves the scheduler host's wall clock (test/e2e/scheduler-clock).
dsched_ensure_faketime() {
  dsched_ensure_apt_package faketime /usr/bin/faketime
}

# Redis, for the BullMQ peer of `pnpm loadtest peak-vs-bullmq` (loadtest/src/peer/bullmq.ts).
dsched_ensure_redis() {
  dsched_ensure_apt_package redis-server /usr/bin/redis-server
}

# Python 3 with venv, for the tools the project takes from PyPI into its cache.
dsched_ensure_python_venv() {
  dsched_ensure_apt_package python3 /usr/bin/python3
  python3 -c 'import ensurepip, venv' 2>/dev/null || dsched_ensure_apt_package python3-venv /usr/share/doc/python3-venv
}

# schemathesis (PyPI) in a venv under the cache, keyed by version, for the API fuzzing
# (packages/testkit/src/schemathesis.ts reads the same version and path).
DSCHED_SCHEMATHESIS_VERSION=4.32.5
dsched_ensure_schemathesis() {
  local venv="${DSCHED_CACHE:-$HOME/.cache/dsched}/tools/schemathesis-$DSCHED_SCHEMATHESIS_VERSION"
  [ -x "$venv/bin/st" ] && return 0
  dsched_ensure_python_venv
  echo "dsched: installing schemathesis $DSCHED_SCHEMATHESIS_VERSION (PyPI) into $venv" >&2
  rm -rf "$venv"
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install -q "schemathesis==$DSCHED_SCHEMATHESIS_VERSION" >&2
}

# Chromium (Debian's), for the console's browser tests (test/console), driven by playwright-core.
dsched_ensure_chromium() {
  dsched_ensure_apt_package chromium /usr/bin/chromium
}

# PostgreSQL 15 (Debian's), for the graphile-worker and River peers of `pnpm loadtest peak-vs-peers`
# (loadtest/src/peer/postgres.ts starts its own server in the run's scratch directory).
dsched_ensure_postgresql() {
  dsched_ensure_apt_package postgresql-15 /usr/lib/postgresql/15/bin/postgres
}
