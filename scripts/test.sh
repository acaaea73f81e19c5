#!/usr/bin/env bash
# Runs the whole test suite on this machine: installs what is missing (Node 24, pnpm, the
# workspace's dependencies, MariaDB, Cassandra, libfaketime, schemathesis, the deploy checks' tools), starts the
# local stack, then lints, type-checks and runs every test against the real MariaDB and Cassandra.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$ROOT/scripts/lib/node.sh"
. "$ROOT/scripts/lib/apt.sh"
cd "$ROOT"
dsched_bootstrap "$ROOT"
dsched_ensure_faketime
# schemathesis for the API fuzzing (test/fuzz), in a venv under ~/.cache/dsched/tools.
dsched_ensure_schemathesis
"$ROOT/scripts/stack" up
# helm, kustomize, promtool, kubernetes-validate and the Compose schema for test/deploy (cached).
"$ROOT/scripts/deploy-tools" ensure
pnpm lint
pnpm typecheck
pnpm test "$@"
