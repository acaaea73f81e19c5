#!/usr/bin/env bash
# Runs the whole test suite on this machine: installs what is missing (Node 24, pnpm, the
# workspace's dependencies, MariaDB, Cassandra), starts the local stack, then lints, type-checks
# and runs every test against the real MariaDB and Cassandra.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$ROOT/scripts/lib/node.sh"
cd "$ROOT"
dsched_bootstrap "$ROOT"
"$ROOT/scripts/stack" up
pnpm lint
pnpm typecheck
pnpm test "$@"
