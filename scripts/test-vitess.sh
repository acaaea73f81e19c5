#!/usr/bin/env bash
# pnpm test:vitess [vitest arguments…]: the storage tests that run through vtgate (vitest.config.ts's
# VITESS list), on a sharded Vitess keyspace: one vttestserver per test worker (scripts/vitess
# testserver up N: keyspaces `dsched`, 2 shards, and `dsched_global`, over MySQL 9.7, vtgate on
# DSCHED_VITESS_PORT + 10·N), each test file emptying its worker's tables at start
# (packages/testkit/src/mysql.ts), and Cassandra of the stack. Builds Vitess once (cached), starts
# what is not running, and stops the vttestservers it started.
#
#   pnpm test:vitess                                         all of them (CI: .ci/run, the last leg)
#   pnpm test:vitess packages/mysql/test/vitess-routes.test.ts   one file (vitest's filters as usual)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$ROOT/scripts/lib/node.sh"
cd "$ROOT"
dsched_bootstrap "$ROOT"
export DSCHED_MYSQL_TOPOLOGY=vitess
export DSCHED_VITESS_PORT="${DSCHED_VITESS_PORT:-15306}"
unset DSCHED_TEST_MYSQL_URL DSCHED_MYSQL_FLAVOR DSCHED_MYSQL_PORT
WORKERS="${DSCHED_VITESS_WORKERS:-2}"
export DSCHED_VITESS_WORKERS="$WORKERS" # vitest.config.ts: one file per vttestserver
# A service's start through vtgate on a loaded machine (packages/testkit/src/services.ts).
export DSCHED_TEST_READY_MS="${DSCHED_TEST_READY_MS:-90000}"

# Cassandra of the stack (the MariaDB beside it is not used here).
DSCHED_SKIP_MIGRATE=1 "$ROOT/scripts/stack" cassandra-up >&2
"$ROOT/scripts/vitess" build
started=()
stop_started() {
  local n
  for n in "${started[@]}"; do "$ROOT/scripts/vitess" testserver down "$n" || true; done
}
trap stop_started EXIT
for n in $(seq 1 "$WORKERS"); do
  if ! "$ROOT/scripts/vitess" testserver status "$n" | grep -q ' up '; then
    "$ROOT/scripts/vitess" testserver up "$n"
    started+=("$n")
  fi
done

pnpm exec vitest run --project storage --maxWorkers "$WORKERS" "$@"
