#!/bin/sh
# The image's entry point: the first argument names what to run. exec, so the Node process gets
# SIGTERM from the runtime directly and runs its graceful shutdown.
set -eu
# The repository root (/app in the image).
cd "$(dirname "$0")/../.."
what="${1:-help}"
[ "$#" -gt 0 ] && shift
case "$what" in
  task-api | scheduler | executor | reconciler | archiver | job-api)
    exec node "services/$what/src/main.ts" "$@" ;;
  migrate) exec node scripts/migrate.ts "$@" ;;
  demo-target) exec node scripts/demo-target.ts "$@" ;;
  *)
    echo "usage: <image> task-api|scheduler|executor|reconciler|archiver|job-api|migrate|demo-target" >&2
    [ "$what" = help ] && exit 0
    exit 64 ;;
esac
