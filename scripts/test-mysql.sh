#!/usr/bin/env bash
# pnpm test:mysql [vitest arguments…]: every test that touches MySQL, run against MySQL 9.7 (the
# storage project less the files that never reach MySQL), with MySQL started beside the MariaDB of
# the stack when it is not up (DSCHED_MYSQL_FLAVOR=mysql ./scripts/stack up: port 3307, or
# DSCHED_MYSQL_PORT when DSCHED_MYSQL_FLAVOR=mysql is already set). Services started by the tests
# and the load harness take the same port, through DSCHED_MYSQL_PORT.
#
#   pnpm test:mysql                                             all of them (CI: .ci/run, after MariaDB)
#   pnpm test:mysql packages/mysql/test/fair-claim.test.ts      one file (vitest's filters work as usual)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$ROOT/scripts/lib/node.sh"
cd "$ROOT"
dsched_bootstrap "$ROOT"
if [ "${DSCHED_MYSQL_FLAVOR:-}" != mysql ]; then
  export DSCHED_MYSQL_FLAVOR=mysql
  export DSCHED_MYSQL_PORT=3307
fi
export DSCHED_MYSQL_PORT="${DSCHED_MYSQL_PORT:-3307}"
# The tests' own URL variable would point elsewhere: the port is the one knob.
unset DSCHED_TEST_MYSQL_URL
"$ROOT/scripts/stack" up >&2

# The storage project; on this leg vitest.config.ts leaves out the files that never reach MySQL.
exec pnpm exec vitest run --project storage "$@"
