#!/usr/bin/env bash
# Brings the whole platform up locally: Node 24 and dependencies, MariaDB and Cassandra
# (scripts/stack), migrations, the six services, a demo target and a demo tenant. Prints the API
# URLs and the demo tenant's key, and puts the `dsched` command on the login shell's PATH
# (scripts/lib/launcher.sh). Idempotent: running it again restarts the services.
#   scripts/up.sh          start (or restart) everything
#   scripts/up.sh down     stop the services, the demo target and Jaeger (scripts/stack down stops the stores)
# DSCHED_TRACING=jaeger also starts Jaeger (scripts/jaeger; built once, minutes) and sends it every
# service's spans (docs/tracing.md).
# Ports and places, for a second platform beside the first (the README's test runs one): TASK_API_PORT,
# JOB_API_PORT, DEMO_TARGET_PORT, SCHEDULER_/EXECUTOR_/RECONCILER_/ARCHIVER_METRICS_PORT,
# DSCHED_RUN_DIR (pid files, logs, the demo tenant; default .stack/run), DATABASE_URL,
# CASSANDRA_KEYSPACE, DSCHED_BIN_DIR (where the dsched link goes).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$ROOT/scripts/lib/node.sh"
. "$ROOT/scripts/lib/launcher.sh"
RUN="${DSCHED_RUN_DIR:-$ROOT/.stack/run}"
mkdir -p "$RUN"

SERVICES="task-api scheduler executor reconciler archiver job-api"
TASK_API_PORT="${TASK_API_PORT:-8080}"
JOB_API_PORT="${JOB_API_PORT:-8081}"
DEMO_TARGET_PORT="${DEMO_TARGET_PORT:-8090}"
SCHEDULER_METRICS_PORT="${SCHEDULER_METRICS_PORT:-9101}"
EXECUTOR_METRICS_PORT="${EXECUTOR_METRICS_PORT:-9102}"
RECONCILER_METRICS_PORT="${RECONCILER_METRICS_PORT:-9103}"
ARCHIVER_METRICS_PORT="${ARCHIVER_METRICS_PORT:-9104}"

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

if [ "${1:-}" = down ]; then
  stop_all
  [ -f "$RUN/jaeger.pid" ] && "$ROOT/scripts/jaeger" down >/dev/null
  echo "services stopped (the stores keep running: scripts/stack down)"; exit 0
fi

dsched_bootstrap "$ROOT"
dsched_install_launcher "$ROOT"
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
TRACING_NOTE=""
case "${DSCHED_TRACING:-}" in
  jaeger)
    "$ROOT/scripts/jaeger" up >/dev/null
    JAEGER_UI="http://127.0.0.1:${DSCHED_JAEGER_QUERY_PORT:-16686}"
    export OTEL_EXPORTER_OTLP_ENDPOINT="http://127.0.0.1:${DSCHED_JAEGER_OTLP_PORT:-4318}"
    JAEGER_TRACE_URL="$JAEGER_UI/trace/{traceId}"
    export CONSOLE_TRACE_URL="${CONSOLE_TRACE_URL:-$JAEGER_TRACE_URL}"
    TRACING_NOTE="  jaeger       $JAEGER_UI   (traces; query API $JAEGER_UI/api/traces/<traceId>; scripts/jaeger down)"
    ;;
  "" | off) ;;
  *) echo "DSCHED_TRACING must be jaeger or off, not ${DSCHED_TRACING}" >&2; exit 2 ;;
esac
(cd "$ROOT" && pnpm --silent console:build >/dev/null)

port_of() {
  case "$1" in
    scheduler) echo "$SCHEDULER_METRICS_PORT" ;; executor) echo "$EXECUTOR_METRICS_PORT" ;;
    reconciler) echo "$RECONCILER_METRICS_PORT" ;; archiver) echo "$ARCHIVER_METRICS_PORT" ;;
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

# Paths as the user can type them from the checkout's root.
SHOWN_RUN="${RUN#"$ROOT"/}"
# The CLI's defaults are the ports above; other ports need the variables (or a context) to follow.
CLI_URLS=""
if [ "$TASK_API_PORT" != 8080 ] || [ "$JOB_API_PORT" != 8081 ]; then
  CLI_URLS="
  export DSCHED_TASK_API=http://127.0.0.1:$TASK_API_PORT DSCHED_JOB_API=http://127.0.0.1:$JOB_API_PORT"
fi

cat <<EOT

dsched is up.
  task-api     http://127.0.0.1:$TASK_API_PORT   (OpenAPI: /openapi.json)
  job-api      http://127.0.0.1:$JOB_API_PORT
  console      http://127.0.0.1:$JOB_API_PORT/ui/   (sign in with the key below)
  demo target  http://127.0.0.1:$DEMO_TARGET_PORT  (calls it receives: tail -f $SHOWN_RUN/demo-target.log)
  metrics      scheduler :$SCHEDULER_METRICS_PORT  executor :$EXECUTOR_METRICS_PORT  reconciler :$RECONCILER_METRICS_PORT  archiver :$ARCHIVER_METRICS_PORT
${TRACING_NOTE:+$TRACING_NOTE
}  logs         $SHOWN_RUN/<service>.log
  CLI          dsched (in a new shell; \`dsched --help\`)

  export DSCHED_KEY=$API_KEY$CLI_URLS
  admin token (DSCHED_ADMIN_TOKEN): $ADMIN_TOKEN
  signing secrets are sealed with DSCHED_SECRETS_KEY, kept in $SHOWN_RUN/secrets-key

Stop: scripts/up.sh down (services), scripts/stack down (MariaDB and Cassandra).
EOT
