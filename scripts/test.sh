#!/usr/bin/env bash
# Runs the whole test suite on this machine: installs what is missing (Node 24, pnpm, the
# workspace's dependencies, MariaDB, Cassandra, libfaketime, schemathesis, Chromium, the deploy checks'
# tools, the Python client's generator and test venvs, Jaeger), builds the console, starts the local
# stack, then lints, type-checks and runs every test against the real MariaDB and Cassandra (the
# Python client's pytest suite among them: test/python).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$ROOT/scripts/lib/node.sh"
. "$ROOT/scripts/lib/apt.sh"
. "$ROOT/scripts/lib/python-client.sh"
cd "$ROOT"
dsched_bootstrap "$ROOT"
dsched_ensure_faketime
# schemathesis for the API fuzzing (test/fuzz), in a venv under ~/.cache/dsched/tools.
dsched_ensure_schemathesis
# openapi-python-client and pytest for clients/python, in venvs under ~/.cache/dsched/tools.
dsched_ensure_python_client_tools "$ROOT"
dsched_ensure_chromium
# The console's files (apps/console/dist), served by job-api under /ui; well under a second.
pnpm --silent console:build >/dev/null
"$ROOT/scripts/stack" up
# helm, kustomize, promtool, kubernetes-validate and the Compose schema for test/deploy (cached).
"$ROOT/scripts/deploy-tools" ensure
# Jaeger, which the tracing tests start on ports of their own (built once from the Go module proxy).
"$ROOT/scripts/jaeger" ensure
pnpm lint
pnpm typecheck
pnpm test "$@"
# Mutation testing of packages/domain against its floor (docs/mutation.md); incremental, so seconds
# when the committed report is current.
pnpm --silent mutation
