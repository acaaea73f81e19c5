#!/usr/bin/env bash
# Brings the whole platform up locally: Node 24 and dependencies, MariaDB and Cassandra
# (scripts/stack), migrations, the six services, a demo target and a demo tenant. Prints the API
# URLs and the demo tenant's key. Idempotent: running it again restarts the services.
#   scripts/up.sh          start (or restart) everything
#   scripts/up.sh down     stop the services and the demo target (scripts/stack down stops the stores)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$ROOT/scripts/lib/node.sh"
RUN="$ROOT/.stack/run"
mkdir -p "$RUN"

SERVICES="task-api scheduler executor reconciler archiver job-api"
TASK_API_PORT="${TASK_API_PORT:-8080}"
JOB_API_PORT="${JOB_API_PORT:-8081}"
DEMO_TARGET_PORT="${DEMO_TARGET_PORT:-8090}"

stop_all() {
  local name pid
  for name in $SERVICES demo-target; do
    if [ -f "$RUN/$name.pid" ]; then
      pid="$(cat "$RUN/$name.pid")"
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
      kill -9 "$pid" 2>/dev/null || true
      rm -f "$RUN/$name.pid"
    fi
  done
}

if [ "${1:-}" = down ]; then stop_all; echo "services stopped (the stores keep running: scripts/stack down)"; exit 0; fi

dsched_bootstrap "$ROOT"
"$ROOT/scripts/stack" up
stop_all

[ -f "$RUN/admin-token" ] || head -c 24 /dev/urandom | base64 | tr -d '/+=' >"$RUN/admin-token"
ADMIN_TOKEN="$(cat "$RUN/admin-token")"
# The key that seals tenant signing secrets at rest (docs/operations.md), made once per checkout.
[ -f "$RUN/secrets-key" ] || { umask 077; printf 'local:%s\n' "$(head -c 32 /dev/urandom | base64)" >"$RUN/secrets-key"; }

export DATABASE_URL="${DATABASE_URL:-mysql://dsched:dsched@127.0.0.1:${DSCHED_MYSQL_PORT:-3306}/dsched}"
export CASSANDRA_CONTACT_POINTS="${CASSANDRA_CONTACT_POINTS:-127.0.0.1:${DSCHED_CASSANDRA_PORT:-9042}}"
export DSCHED_ADMIN_TOKEN="$ADMIN_TOKEN"
DSCHED_SECRETS_KEY="${DSCHED_SECRETS_KEY:-$(cat "$RUN/secrets-key")}"
export DSCHED_SECRETS_KEY
# The demo target lives on loopback, which the executor's SSRF guard refuses unless allowed.
export EXECUTOR_ALLOWED_TARGETS="${EXECUTOR_ALLOWED_TARGETS:-127.0.0.0/8}"
export TASK_API_PORT JOB_API_PORT
# The console (job-api's /ui) calls task-api from the page: task-api allows that origin.
export TASK_API_CORS_ORIGINS="${TASK_API_CORS_ORIGINS:-http://127.0.0.1:$JOB_API_PORT}"
export CONSOLE_TASK_API_URL="${CONSOLE_TASK_API_URL:-http://127.0.0.1:$TASK_API_PORT}"
(cd "$ROOT" && pnpm --silent console:build >/dev/null)

port_of() {
  case "$1" in
    scheduler) echo 9101 ;; executor) echo 9102 ;; reconciler) echo 9103 ;; archiver) echo 9104 ;;
    task-api) echo "$TASK_API_PORT" ;; job-api) echo "$JOB_API_PORT" ;;
  esac
}

for name in $SERVICES; do
  METRICS_PORT="$(port_of "$name")" setsid nohup node "$ROOT/services/$name/src/main.ts" \
    </dev/null >"$RUN/$name.log" 2>&1 &
  echo $! >"$RUN/$name.pid"
done

for name in $SERVICES; do
  port="$(port_of "$name")"
  for i in $(seq 1 100); do
    if curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; then break; fi
    if ! kill -0 "$(cat "$RUN/$name.pid")" 2>/dev/null; then
      echo "$name failed to start:" >&2; tail -20 "$RUN/$name.log" >&2; exit 1
    fi
    sleep 0.2
  done
  curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null || { echo "$name not ready" >&2; tail -20 "$RUN/$name.log" >&2; exit 1; }
done

# The demo tenant: created once, kept in .stack/run/demo-tenant.json (its key is shown only once).
# A key that no longer authenticates (the database was reset) makes a new tenant.
demo_key_works() {
  [ -s "$RUN/demo-tenant.json" ] || return 1
  local key code
  key="$(node -p "require('$RUN/demo-tenant.json').apiKey")"
  code="$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $key" \
    "http://127.0.0.1:$TASK_API_PORT/v1/tasks/00000000-0000-7000-8000-000000000000")"
  [ "$code" = 404 ]
}
if ! demo_key_works; then
  curl -fsS -X POST "http://127.0.0.1:$TASK_API_PORT/v1/admin/tenants" \
    -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json' \
    -d '{"name":"demo","maxConcurrency":50}' >"$RUN/demo-tenant.json"
fi
API_KEY="$(node -p "require('$RUN/demo-tenant.json').apiKey")"
SECRET="$(node -p "require('$RUN/demo-tenant.json').signingSecret")"

DEMO_TARGET_PORT="$DEMO_TARGET_PORT" DEMO_SIGNING_SECRET="$SECRET" setsid nohup node "$ROOT/scripts/demo-target.ts" \
  </dev/null >"$RUN/demo-target.log" 2>&1 &
echo $! >"$RUN/demo-target.pid"

cat <<EOT

dsched is up.
  task-api     http://127.0.0.1:$TASK_API_PORT   (OpenAPI: /openapi.json)
  job-api      http://127.0.0.1:$JOB_API_PORT
  console      http://127.0.0.1:$JOB_API_PORT/ui/   (sign in with the key below)
  demo target  http://127.0.0.1:$DEMO_TARGET_PORT  (calls it receives: tail -f .stack/run/demo-target.log)
  metrics      scheduler :9101  executor :9102  reconciler :9103  archiver :9104
  logs         .stack/run/<service>.log

  export DSCHED_KEY=$API_KEY
  admin token (DSCHED_ADMIN_TOKEN): $ADMIN_TOKEN
  signing secrets are sealed with DSCHED_SECRETS_KEY, kept in .stack/run/secrets-key

Stop: scripts/up.sh down (services), scripts/stack down (MariaDB and Cassandra).
EOT
